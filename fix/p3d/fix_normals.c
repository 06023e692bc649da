/*
 * fix_normals.c - recompute-normals (safe): repairs p3d-normal-not-unit
 * (rules/p3d/normals.yaml) and the p3d-not-finite findings at an MLOD
 * LOD's normals by computing each such normal again from the geometry of
 * the faces that use it.
 *
 * A normal of the LOD's array is shared by the face vertices that name it
 * (Object Builder gives the faces of one smooth surface the same normal at
 * a point, a sharp edge separate ones), so the one new value is the
 * face-area weighted average of those faces' normals: the sum of their
 * Newell vectors (each as long as twice its face's area, pointing along
 * the face's vertices in file order, the side 98.8 % of the stored normals
 * of the corpus MLOD files point to), made unit length.  Why area
 * weighting: recomputed so from the faces that name it, each of the 56,000
 * normals Object Builder wrote in the corpus MLOD files comes back within
 * 0.39 degrees on average (92.3 % within 1 degree), against 4.5 degrees
 * for an equal-weight average and 4.9 for corner-angle weights
 * (docs/corpus-errors-p3d.md); it is also what
 * MrClock8163/Arma3ObjectBuilder writes in place of Object Builder's
 * normals (io_p3d/exporter.py cleanup_normals: Blender's Weighted Normal
 * in face-area mode, sharp edges kept).  The normal indices keep the
 * file's sharp edges.  A normal no face uses, or whose faces have no area,
 * gets (0, 1, 0), the model's up axis: nothing the game draws uses it.
 *
 * Only the 12 bytes of each repaired normal change (points, faces, tags
 * and the other normals stay as read), hence safe.  p3d-not-finite
 * findings are repaired only in a LOD where every such finding is at a
 * normal (a NaN point or UV is not this fixer's, and the verification
 * would find the rule still reported in the LOD).
 */
#include "fixers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "lint/p3d/mesh.h"

/* Position of point p of l (through the cursor). */
static void point(const wl_doc *d, const p3d_lod *l, uint32_t p, double out[3])
{
	uint64_t at = l->points->offset + 16ull * p;
	wl_cursor c = wl_cursor_make(d->bytes + at, 12, at);
	for (int k = 0; k < 3; k++)
		out[k] = wl_cursor_f32(&c);
}

/* Adds face f's Newell vector to the sums of its flagged normals. */
static void add_face(const wl_doc *d, const p3d_lod *l, const wl_p3d_mface *f, const uint8_t *flag,
		     double (*sum)[3])
{
	if (f->k != 3 && f->k != 4)
		return;
	double p[4][3], n[3] = { 0, 0, 0 };
	for (uint32_t j = 0; j < f->k; j++) {
		if (f->point[j] >= l->n_points)
			return;
		point(d, l, f->point[j], p[j]);
	}
	for (uint32_t j = 0; j < f->k; j++) {
		const double *a = p[j], *b = p[(j + 1) % f->k];
		n[0] += (a[1] - b[1]) * (a[2] + b[2]);
		n[1] += (a[2] - b[2]) * (a[0] + b[0]);
		n[2] += (a[0] - b[0]) * (a[1] + b[1]);
	}
	for (uint32_t j = 0; j < f->k; j++)
		if (f->normal[j] < l->n_normals && flag[f->normal[j]])
			for (int k = 0; k < 3; k++)
				sum[f->normal[j]][k] += n[k];
}

/* The rule each normal of l is flagged for (flag[i] 1: p3d-normal-not-unit,
 * 2: p3d-not-finite); whether any is. */
static bool flags(const wl_fix_ctx *x, const p3d_lod *l, uint8_t *flag)
{
	const wl_doc *d = x->doc;
	bool unit = wl_fix_rule_wanted(x, WLR_P3D_NORMAL_NOT_UNIT);
	bool finite = wl_fix_rule_wanted(x, WLR_P3D_NOT_FINITE);
	const char *r_unit = wl_rule_name(WLR_P3D_NORMAL_NOT_UNIT);
	const char *r_finite = wl_rule_name(WLR_P3D_NOT_FINITE);
	for (size_t i = 0; finite && i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->severity != WL_SEV_OFF && strcmp(f->rule, r_finite) == 0 &&
		    (f->chunk == l->points || f->chunk == l->faces))
			finite = false; /* a NaN point or UV: not ours */
	}
	bool any = false;
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->severity == WL_SEV_OFF || f->chunk != l->normals || f->element < 0 ||
		    (uint64_t)f->element >= l->n_normals)
			continue;
		uint8_t r = unit && strcmp(f->rule, r_unit) == 0		? 1
			    : finite && strcmp(f->rule, r_finite) == 0 ? 2
									: 0;
		if (r) {
			flag[f->element] = r;
			any = true;
		}
	}
	return any;
}

static int lod(wl_fix_ctx *x, const p3d_lod *l)
{
	wl_doc *d = x->doc;
	if (!l->normals || !l->n_normals || !l->face_off || (l->n_points && !l->points))
		return 0;
	uint8_t *flag = calloc(l->n_normals, 1);
	double(*sum)[3] = calloc(l->n_normals, sizeof *sum);
	int rc = flag && sum ? 0 : -1;
	if (rc == 0 && flags(x, l, flag)) {
		for (uint32_t i = 0; i < l->n_faces; i++) {
			wl_p3d_mface f;
			wl_p3d_mlod_face(d, l, i, &f);
			add_face(d, l, &f, flag, sum);
		}
		wl_chunk *c = wl_fix_mut(d, l->normals);
		size_t len = 0;
		uint8_t *p = c ? wl_fix_payload_copy(d, c, &len) : NULL;
		if (!p || len < 12ull * l->n_normals)
			rc = -1;
		for (uint32_t i = 0; rc == 0 && i < l->n_normals; i++) {
			if (!flag[i])
				continue;
			double *s = sum[i], n = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
			float v[3] = { 0, 1, 0 };
			if (n > 1e-12 && isfinite(n))
				for (int k = 0; k < 3; k++)
					v[k] = (float)(s[k] / n);
			for (int k = 0; k < 3; k++)
				wl_fix_put_f32(p + 12ull * i + 4 * k, v[k]);
		}
		if (rc == 0 && wl_edit_set_payload(d, c, p, len) != 0)
			rc = -1;
		for (uint32_t i = 0; rc == 0 && i < l->n_normals; i++) {
			if (!flag[i])
				continue;
			uint64_t at = l->normals->offset + 12ull * i;
			wl_cursor was = wl_cursor_make(d->bytes + at, 12, at);
			wl_cursor now = wl_cursor_make(p + 12ull * i, 12, at);
			float o[3], v[3];
			for (int k = 0; k < 3; k++) {
				o[k] = wl_cursor_f32(&was);
				v[k] = wl_cursor_f32(&now);
			}
			if (wl_edit_note(d, c, flag[i] == 1 ? WLR_P3D_NORMAL_NOT_UNIT : WLR_P3D_NOT_FINITE,
					 at, "normal %u: (%g, %g, %g) -> (%g, %g, %g)", (unsigned)i,
					 (double)o[0], (double)o[1], (double)o[2], (double)v[0], (double)v[1],
					 (double)v[2]) != 0)
				rc = -1;
		}
	}
	free(flag);
	free(sum);
	return rc;
}

static int apply(wl_fix_ctx *x)
{
	const p3d_model *m = x->model;
	if (!m || !m->mlod || !m->lods)
		return 0;
	for (uint32_t i = 0; i < m->n_res; i++)
		if (m->lods[i].walked && lod(x, &m->lods[i]) != 0)
			return -1;
	return 0;
}

const wl_fixer p3d_fix_normals = {
	"recompute-normals", false,
	"recompute an MLOD normal that is not unit length or not finite from the faces using it",
	apply
};
