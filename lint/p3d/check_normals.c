/* check_normals.c - the normals of each MLOD LOD the reader walked
 * (checks.h; layout in core/p3d/p3d.h: float normal[nNormals][3], each
 * face vertex naming one by index), read through the cursor.
 *   p3d-normal-not-unit  a finite normal whose length differs from 1 by
 *                        more than the rule's tolerance (zero included):
 *                        one finding per normal, at its 12 bytes, the
 *                        message naming the first face vertex using it.
 * Non-finite normals are p3d-not-finite's (check_mlod.c).  Sources:
 * rules/p3d/normals.yaml (BI wiki "P3D File Format - MLOD"; armake
 * src/p3d.c packs each MLOD normal into 10 bits per axis assuming unit
 * length). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "mesh.h"

/* The length of normal i of l, NaN when a component is not finite. */
static double length_of(const wl_doc *d, const p3d_lod *l, uint32_t i, float v[3])
{
	uint64_t at = l->normals->offset + 12ull * i;
	wl_cursor c = wl_cursor_make(d->bytes + at, 12, at);
	double s = 0;
	for (int k = 0; k < 3; k++) {
		v[k] = wl_cursor_f32(&c);
		if (!isfinite(v[k]))
			return NAN;
		s += (double)v[k] * v[k];
	}
	return sqrt(s);
}

/* The first face vertex using each normal flagged in bad (n_normals
 * entries; UINT32_MAX: none): face index * 4 + vertex. */
static void first_use(const wl_doc *d, const p3d_lod *l, const uint8_t *bad, uint32_t *use)
{
	for (uint32_t i = 0; i < l->n_normals; i++)
		use[i] = UINT32_MAX;
	for (uint32_t i = 0; l->face_off && i < l->n_faces; i++) {
		wl_p3d_mface f;
		wl_p3d_mlod_face(d, l, i, &f);
		for (uint32_t j = 0; j < f.k && j < 4; j++) {
			uint32_t n = f.normal[j];
			if (n < l->n_normals && bad[n] && use[n] == UINT32_MAX)
				use[n] = i * 4 + j;
		}
	}
}

/* Whether normal i of l is finite and its length off 1 by more than tol
 * (compared squared: no root for the normals that pass). */
static bool off_unit(const wl_doc *d, const p3d_lod *l, uint32_t i, double lo2, double hi2)
{
	uint64_t at = l->normals->offset + 12ull * i;
	wl_cursor c = wl_cursor_make(d->bytes + at, 12, at);
	double x = wl_cursor_f32(&c), y = wl_cursor_f32(&c), z = wl_cursor_f32(&c);
	double s = x * x + y * y + z * z;
	return (s < lo2 || s > hi2) && isfinite(s);
}

static void lod(wl_lint_ctx *ctx, const p3d_lod *l, double tol)
{
	const wl_doc *d = ctx->doc;
	if (!l->normals || !l->n_normals)
		return;
	double lo = tol < 1 ? 1 - tol : 0, lo2 = lo * lo, hi2 = (1 + tol) * (1 + tol);
	uint8_t *bad = NULL;
	uint32_t *use = NULL;
	for (uint32_t i = 0; i < l->n_normals; i++) {
		if (!off_unit(d, l, i, lo2, hi2))
			continue;
		if (!bad) {
			bad = calloc(l->n_normals, 1);
			use = malloc((size_t)l->n_normals * sizeof *use);
			if (!bad || !use) {
				ctx->doc->oom = true;
				break;
			}
			/* every bad normal flagged first, then their uses found */
			for (uint32_t j = i; j < l->n_normals; j++)
				bad[j] = off_unit(d, l, j, lo2, hi2);
			first_use(d, l, bad, use);
		}
		float v[3];
		double len = length_of(d, l, i, v);
		if (!(fabs(len - 1.0) > tol)) /* on the bound: the root decides */
			continue;
		char name[64], who[64] = "no face uses it";
		if (use[i] != UINT32_MAX)
			snprintf(who, sizeof who, "face %u vertex %u uses it", (unsigned)(use[i] / 4),
				 (unsigned)(use[i] % 4));
		wl_report(&ctx->doc->findings, WLR_P3D_NORMAL_NOT_UNIT, l->normals, i,
			  l->normals->offset + 12ull * i, 12,
			  "%s lod: normal %u (%g, %g, %g) has length %g, not 1 (tolerance %g); %s",
			  wl_p3d_lod_name(l->resolution, name, sizeof name), (unsigned)i, (double)v[0],
			  (double)v[1], (double)v[2], len, tol, who);
	}
	free(bad);
	free(use);
}

void p3d_check_normals(wl_lint_ctx *ctx)
{
	const p3d_model *m = ctx->model;
	if (!m || !m->mlod || !m->lods || !wl_lint_enabled(ctx, WLR_P3D_NORMAL_NOT_UNIT))
		return;
	double tol = wl_lint_param(ctx, WLR_P3D_NORMAL_NOT_UNIT, "tolerance");
	for (uint32_t i = 0; i < m->n_res; i++)
		lod(ctx, &m->lods[i], tol);
}
