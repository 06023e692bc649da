/* check_mass.c - the Geometry LOD carries the model's mass (checks.h:
 * p3d-geometry-mass).  Source: BI community wiki "LOD" (Geometry: "Must
 * have 'Mass'"); the mass is stored per point in the MLOD Geometry LOD's
 * #Mass# tag (one float per point) and binarised into ModelInfo's mass
 * (jetelain BIS.P3D ModelInfo.cs, core/p3d/p3d_info.c).
 *   MLOD: a Geometry LOD with faces whose tag list has no #Mass# tag (at
 *         the list's TAGG), or whose #Mass# tag of one float per point
 *         sums to 0 or less (at the tag's data);
 *   ODOL: a model with a Geometry LOD with faces whose ModelInfo mass is
 *         0 or less (at the mass float), where ModelInfo was walked. */
#include <string.h>

#include "checks.h"

static const char *const MASS_TAG = "#Mass#";

static void mlod(wl_lint_ctx *ctx, const p3d_lod *l)
{
	wl_doc *d = ctx->doc;
	for (uint32_t t = 0; t < l->n_tags; t++) {
		const p3d_mtag *tg = &l->tags[t];
		const char *name = (const char *)d->bytes + tg->at + (l->sp3x ? 0 : 1);
		size_t len = l->sp3x ? strnlen(name, 64) : strlen(name);
		if (len != strlen(MASS_TAG) || memcmp(name, MASS_TAG, len) != 0)
			continue;
		uint32_t size = wl_le32(d->bytes + tg->size_at);
		if (size != 4ull * l->n_points)
			return; /* not one float per point: not read */
		wl_cursor c = wl_cursor_make(d->bytes + tg->size_at + 4, size, tg->size_at + 4);
		double sum = 0;
		for (uint32_t i = 0; i < l->n_points; i++)
			sum += (double)wl_cursor_f32(&c);
		if (!(sum > 0))
			wl_report(&d->findings, WLR_P3D_GEOMETRY_MASS, l->tagnode, -1, tg->size_at + 4,
				  size,
				  "Geometry lod: the masses of its #Mass# tag sum to %g kg; the Geometry "
				  "lod must have mass",
				  sum);
		return;
	}
	wl_report(&d->findings, WLR_P3D_GEOMETRY_MASS, l->tagnode, -1, l->tagnode->offset, 4,
		  "Geometry lod: its tag list has no #Mass# tag; the Geometry lod must have mass");
}

static void odol(wl_lint_ctx *ctx, const p3d_model *m)
{
	for (uint32_t i = 0; i < m->n_info_floats; i++) {
		const p3d_infofloat *f = &m->info_floats[i];
		if (strcmp(f->what, "mass") != 0)
			continue;
		float mass = wl_lef32(ctx->doc->bytes + f->at);
		if (!(mass > 0))
			wl_report(&ctx->doc->findings, WLR_P3D_GEOMETRY_MASS, f->node, -1, f->at, 4,
				  "ModelInfo's mass is %g kg while the model has a Geometry lod with "
				  "faces; the Geometry lod must have mass",
				  (double)mass);
		return;
	}
}

void p3d_check_mass(wl_lint_ctx *ctx)
{
	const p3d_model *m = ctx->model;
	if (!m || !m->lods || !wl_lint_enabled(ctx, WLR_P3D_GEOMETRY_MASS))
		return;
	uint32_t n = m->mlod ? m->n_res : m->n_lods;
	for (uint32_t i = 0; i < n; i++) {
		const p3d_lod *l = &m->lods[i];
		if (wl_p3d_lod_kind(l->resolution) != WL_P3D_LOD_GEOMETRY)
			continue;
		if (m->mlod && l->walked && l->n_faces && l->tagnode)
			mlod(ctx, l);
		else if (!m->mlod && m->info_walked && l->view && l->view->faces_read &&
			 l->view->n_faces)
			odol(ctx, m);
		return;
	}
}
