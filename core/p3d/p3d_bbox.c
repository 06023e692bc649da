/* p3d_bbox.c - ODOL vertices against ModelInfo's bounding boxes (p3d.h:
 * p3d_bbox_check).
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
 * arma-file-formats-rs model_info.rs.
 */
#include "p3d.h"

#include <math.h>

#include "../cursor.h"

/* How far (metres) a vertex may lie outside a box: binarize writes boxes
 * that contain every vertex exactly (corpus excess 0); 1 mm allows for
 * rounding by other writers. */
#define P3D_BBOX_TOLERANCE 0.001f

static bool inside(const float v[3], const float lo[3], const float hi[3])
{
	for (int k = 0; k < 3; k++)
		if (v[k] < lo[k] - P3D_BBOX_TOLERANCE || v[k] > hi[k] + P3D_BBOX_TOLERANCE)
			return false;
	return true;
}

void p3d_bbox_check(wl_doc *d, const p3d_model *m, const p3d_lod *l, const wl_chunk *lod,
		    const uint8_t *pos, uint32_t n, uint64_t at, uint64_t len)
{
	if (!m->info_walked || !l->has_bounds)
		return;
	bool visual = m->version >= 52 && l->resolution < 1000.0f;
	bool all_in = inside(l->vmin, m->bbox_min, m->bbox_max) &&
		      inside(l->vmax, m->bbox_min, m->bbox_max);
	bool vis_in = !visual || (inside(l->vmin, m->bbox_vis_min, m->bbox_vis_max) &&
				  inside(l->vmax, m->bbox_vis_min, m->bbox_vis_max));
	if (all_in && vis_in)
		return;
	for (uint32_t i = 0; i < n; i++) {
		float v[3];
		for (int k = 0; k < 3; k++)
			v[k] = wl_lef32(pos + 12ull * i + 4 * k);
		if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
			continue; /* p3d-not-finite */
		const float *lo = m->bbox_min, *hi = m->bbox_max;
		const char *box = "bounding box";
		if (inside(v, lo, hi)) {
			if (!visual || inside(v, m->bbox_vis_min, m->bbox_vis_max))
				continue;
			lo = m->bbox_vis_min;
			hi = m->bbox_vis_max;
			box = "visual bounding box";
		}
		wl_report(&d->findings, "p3d-vertex-outside-bbox", lod, i, at, len,
			  "vertex %u (%g, %g, %g) lies outside ModelInfo's %s (%g, %g, %g) to "
			  "(%g, %g, %g)",
			  (unsigned)i, (double)v[0], (double)v[1], (double)v[2], box, (double)lo[0],
			  (double)lo[1], (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2]);
	}
}
