/* check_bbox.c - ODOL vertices against ModelInfo's bounding boxes
 * (checks.h: p3d-vertex-outside-bbox).
 *
 * ModelInfo's bboxMin/bboxMax and the LOD vertex positions are in the
 * same model coordinates (both already relative to the bounding centre
 * binarize moved the model by): over the 96 corpus files whose ModelInfo
 * is walked and that have vertices (535 LODs of every kind: visual, shadow,
 * view, geometry, memory, land contact, roadway, paths, hit points, fire
 * and view geometry), bboxMin/Max is exactly the union of all LODs'
 * vertices in 90 and contains every vertex in all 96 (largest excess 0).
 * The visual box (v52+, bboxMinVisual/MaxVisual) contains the vertices of
 * the graphical LODs (resolution below 1000) in all 46 such files and is
 * exactly their union in 44; geometry, memory and shadow LODs lie outside
 * it in many (53 of the 152 v52+ non-graphical LODs), so only graphical LODs
 * are checked against it.  Field order: jetelain BIS.P3D ModelInfo.cs,
 * arma-file-formats-rs model_info.rs.  How far a vertex may lie outside a
 * box is the rule's parameter tolerance (metres; catalogue default 1 mm:
 * binarize writes boxes that contain every vertex exactly, the margin
 * allows for rounding by other writers).  One finding per vertex, at the
 * LOD's positions block; the element is the vertex index.
 */
#include <math.h>

#include "checks.h"

static bool inside(const float v[3], const float lo[3], const float hi[3], float tol)
{
	for (int k = 0; k < 3; k++)
		if (v[k] < lo[k] - tol || v[k] > hi[k] + tol)
			return false;
	return true;
}

static void lod(wl_lint_ctx *ctx, const p3d_model *m, const p3d_lod *l, float tol)
{
	const p3d_array *p = &l->view->positions;
	bool visual = m->version >= 52 && l->resolution < 1000.0f;
	bool all_in = inside(l->vmin, m->bbox_min, m->bbox_max, tol) &&
		      inside(l->vmax, m->bbox_min, m->bbox_max, tol);
	bool vis_in = !visual || (inside(l->vmin, m->bbox_vis_min, m->bbox_vis_max, tol) &&
				  inside(l->vmax, m->bbox_vis_min, m->bbox_vis_max, tol));
	if (all_in && vis_in)
		return;
	wl_cursor c = wl_cursor_make(p->data, 12ull * p->n, 0);
	for (uint32_t i = 0; i < p->n; i++) {
		float v[3];
		for (int k = 0; k < 3; k++)
			v[k] = wl_cursor_f32(&c);
		if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
			continue; /* p3d-not-finite */
		const float *lo = m->bbox_min, *hi = m->bbox_max;
		const char *box = "bounding box";
		if (inside(v, lo, hi, tol)) {
			if (!visual || inside(v, m->bbox_vis_min, m->bbox_vis_max, tol))
				continue;
			lo = m->bbox_vis_min;
			hi = m->bbox_vis_max;
			box = "visual bounding box";
		}
		wl_report(&ctx->doc->findings, WLR_P3D_VERTEX_OUTSIDE_BBOX, l->view->lod, i, p->bl.offset,
			  p->bl.length,
			  "vertex %u (%g, %g, %g) lies outside ModelInfo's %s (%g, %g, %g) to "
			  "(%g, %g, %g)",
			  (unsigned)i, (double)v[0], (double)v[1], (double)v[2], box, (double)lo[0],
			  (double)lo[1], (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2]);
	}
}

void p3d_check_bbox(wl_lint_ctx *ctx)
{
	const p3d_model *m = ctx->model;
	if (!m || m->mlod || !m->info_walked || !m->in_file ||
	    !wl_lint_enabled(ctx, WLR_P3D_VERTEX_OUTSIDE_BBOX))
		return;
	float tol = (float)wl_lint_param(ctx, WLR_P3D_VERTEX_OUTSIDE_BBOX, "tolerance");
	for (uint32_t i = 0; i < m->n_lods; i++) {
		const p3d_lod *l = m->in_file[i];
		if (l->view && l->has_bounds && l->view->positions.data)
			lod(ctx, m, l, tol);
	}
}
