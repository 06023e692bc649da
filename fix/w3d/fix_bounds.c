/*
 * fix_bounds.c - safe fixer "recompute-bounds": rewrites the MESH_HEADER3
 * bounding box and sphere of meshes whose bounds fail mesh-bounds-box or
 * mesh-bounds-sphere (rules/geometry.yaml; the tests are those of
 * lint/w3d/check_geometry.c, with the same parameters).
 *
 *   mesh-bounds-box     Min (+76) / Max (+88) := the exact axis-aligned box
 *                       of the finite vertices (binary32 min and max per
 *                       axis, so it is exact), as the exporter writes it
 *                       (meshbuild.cpp:1004-1029).
 *   mesh-bounds-sphere  SphCenter (+100) / SphRadius (+112) := Ritter's
 *                       bounding sphere (Graphics Gems I p.301, the method of
 *                       the exporter, meshbuild.cpp:1044ff) of the finite
 *                       vertices: start from the pair of axis extremes that
 *                       lies farthest apart, grow the sphere over the
 *                       vertices in file order.  The center is rounded to
 *                       binary32 and the radius set to the largest distance
 *                       from that rounded center, rounded up, so every vertex
 *                       is inside the stored sphere.  A sphere that already
 *                       holds every vertex within the tolerance is kept.
 *
 * Skins (geometry type SKIN, VERTEX_INFLUENCES or 0x0C03 present): their
 * bounds are in the bind pose (notes/w3d_reference.md B9), so the box and
 * sphere are computed from the vertices put back into the bind pose
 * (wl_mesh_bounds_points, core/w3d/model_lookup.h; the same points the rules
 * check), the box rounded outwards to binary32.  A skin whose hierarchy is
 * not in the file, or whose vertices cannot be posed, is left alone.
 * Meshes with an incomplete MESH_HEADER3 (< 116 bytes) or no finite vertex
 * are skipped.  Non-finite bounds are rewritten like any other failing ones.
 * Each rewritten box and sphere is one edit note (header chunk, rule, field
 * offset, "old -> new").  Deterministic; idempotent because the written
 * bounds pass the rules with tolerance 0.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "core/w3d/model_lookup.h"
#include "fixers.h"

extern const wl_fixer w3d_fix_recompute_bounds;

/* True when point p (one of wl_mesh_bounds_points) is finite. */
static bool pt_finite(const double p[3])
{
	return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
}

/* mesh-bounds-box fails for the n points pts (same test as
 * lint/w3d/check_geometry.c check_box). */
static bool box_fails(const w3d_mesh *m, const double (*pts)[3], size_t n, double tol)
{
	const w3d_mesh_header *h = &m->header;
	if (!w3d_vec3_finite(&h->min) || !w3d_vec3_finite(&h->max))
		return true;
	double mn[3], mx[3];
	wl_v3_set(mn, h->min.x, h->min.y, h->min.z);
	wl_v3_set(mx, h->max.x, h->max.y, h->max.z);
	for (int k = 0; k < 3; k++)
		if (mn[k] > mx[k])
			return true;
	for (size_t i = 0; i < n; i++)
		if (pt_finite(pts[i]) && wl_box_excess(mn, mx, pts[i]) > tol)
			return true;
	return false;
}

/* mesh-bounds-sphere fails (same test as check_geometry.c check_sphere). */
static bool sphere_fails(const w3d_mesh *m, const double (*pts)[3], size_t n, double tol)
{
	const w3d_mesh_header *h = &m->header;
	double r = h->sph_radius;
	if (!w3d_vec3_finite(&h->sph_center) || !isfinite(r) || r < 0)
		return true;
	double c[3];
	wl_v3_set(c, h->sph_center.x, h->sph_center.y, h->sph_center.z);
	for (size_t i = 0; i < n; i++)
		if (pt_finite(pts[i]) && wl_v3_dist(pts[i], c) - r > tol)
			return true;
	return false;
}

/* d rounded to binary32 towards -inf (down) or +inf. */
static float round_f32(double d, bool down)
{
	float f = (float)d;
	if (down && (double)f > d)
		f = nextafterf(f, -INFINITY);
	if (!down && (double)f < d)
		f = nextafterf(f, INFINITY);
	return f;
}

/* The AABB of the finite points, rounded outwards to binary32 (exact for
 * the stored vertices of a rigid mesh); false when there is none. */
static bool exact_box(const double (*pts)[3], size_t n, float mn[3], float mx[3])
{
	bool any = false;
	double lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 };
	for (size_t i = 0; i < n; i++) {
		const double *p = pts[i];
		if (!pt_finite(p))
			continue;
		for (int k = 0; k < 3; k++) {
			if (!any || p[k] < lo[k])
				lo[k] = p[k];
			if (!any || p[k] > hi[k])
				hi[k] = p[k];
		}
		any = true;
	}
	for (int k = 0; k < 3; k++) {
		mn[k] = round_f32(lo[k], true);
		mx[k] = round_f32(hi[k], false);
	}
	return any;
}

/* Ritter's sphere of the finite points (at least one), stored as binary32
 * center c and radius *r that contain every one of them exactly. */
static void ritter_sphere(const double (*pts)[3], size_t n, float c[3], float *r)
{
	/* 1. the points with the smallest and largest x, y and z */
	size_t lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 };
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		const double *p = pts[i];
		if (!pt_finite(p))
			continue;
		for (int k = 0; k < 3; k++) {
			if (!any || p[k] < pts[lo[k]][k])
				lo[k] = i;
			if (!any || p[k] > pts[hi[k]][k])
				hi[k] = i;
		}
		any = true;
	}
	/* 2. the pair farthest apart seeds the sphere */
	double best = -1, cd[3] = { 0, 0, 0 }, rd = 0;
	for (int k = 0; k < 3; k++) {
		const double *a = pts[lo[k]], *b = pts[hi[k]];
		double d = wl_v3_dist(a, b);
		if (d > best) {
			best = d;
			for (int j = 0; j < 3; j++)
				cd[j] = (a[j] + b[j]) / 2;
			rd = d / 2;
		}
	}
	/* 3. grow it over every point in file order */
	for (size_t i = 0; i < n; i++) {
		const double *p = pts[i];
		if (!pt_finite(p))
			continue;
		double d = wl_v3_dist(p, cd);
		if (d > rd) {
			double nr = (rd + d) / 2;
			for (int j = 0; j < 3; j++)
				cd[j] += (p[j] - cd[j]) * (nr - rd) / d;
			rd = nr;
		}
	}
	/* 4. round the center, then take the radius that holds every point */
	for (int j = 0; j < 3; j++)
		c[j] = (float)cd[j];
	double cc[3], need = 0;
	wl_v3_set(cc, c[0], c[1], c[2]);
	for (size_t i = 0; i < n; i++) {
		if (!pt_finite(pts[i]))
			continue;
		double d = wl_v3_dist(pts[i], cc);
		if (d > need)
			need = d;
	}
	*r = round_f32(need, false);
}

static int fix_points(wl_fix_ctx *x, const w3d_mesh *m, const double (*pts)[3], bool want_box, bool want_sphere)
{
	const w3d_mesh_header *h = &m->header;
	size_t n = m->vertices.count;
	double box_tol = wl_config_param(x->config, x->catalog, WLR_MESH_BOUNDS_BOX, "tolerance");
	double sph_tol = wl_config_param(x->config, x->catalog, WLR_MESH_BOUNDS_SPHERE, "tolerance");
	bool box = want_box && box_fails(m, pts, n, box_tol);
	bool sph = want_sphere && sphere_fails(m, pts, n, sph_tol);
	float mn[3], mx[3];
	if ((!box && !sph) || !exact_box(pts, n, mn, mx))
		return 0;
	wl_chunk *c = wl_fix_mut(x->doc, h->src);
	if (!c)
		return 0;
	size_t len;
	uint8_t *p = wl_fix_payload_copy(x->doc, c, &len);
	if (!p)
		return -1;
	if (len < W3D_MESH_HEADER3_SIZE)
		return 0;
	uint64_t base = wl_chunk_payload_offset(c);
	if (box) {
		for (int k = 0; k < 3; k++) {
			wl_fix_put_f32(p + W3D_MESH_HDR_MIN + 4 * k, mn[k]);
			wl_fix_put_f32(p + W3D_MESH_HDR_MAX + 4 * k, mx[k]);
		}
		if (wl_edit_note(x->doc, c, WLR_MESH_BOUNDS_BOX, base + W3D_MESH_HDR_MIN,
				 "mesh '%s' bounding box (%g, %g, %g)..(%g, %g, %g) -> (%g, %g, %g)..(%g, %g, %g)",
				 m->name, (double)h->min.x, (double)h->min.y, (double)h->min.z, (double)h->max.x,
				 (double)h->max.y, (double)h->max.z, (double)mn[0], (double)mn[1], (double)mn[2],
				 (double)mx[0], (double)mx[1], (double)mx[2]) != 0)
			return -1;
	}
	if (sph) {
		float c3[3], r;
		ritter_sphere(pts, n, c3, &r);
		for (int k = 0; k < 3; k++)
			wl_fix_put_f32(p + W3D_MESH_HDR_SPH_CENTER + 4 * k, c3[k]);
		wl_fix_put_f32(p + W3D_MESH_HDR_SPH_RADIUS, r);
		if (wl_edit_note(x->doc, c, WLR_MESH_BOUNDS_SPHERE, base + W3D_MESH_HDR_SPH_CENTER,
				 "mesh '%s' bounding sphere center (%g, %g, %g) radius %g -> center (%g, %g, %g) "
				 "radius %g",
				 m->name, (double)h->sph_center.x, (double)h->sph_center.y, (double)h->sph_center.z,
				 (double)h->sph_radius, (double)c3[0], (double)c3[1], (double)c3[2], (double)r) != 0)
			return -1;
	}
	return wl_edit_set_payload(x->doc, c, p, len);
}

/* Rewrites m's failing bounds from the points they describe (a skin's in
 * the bind pose; skins whose hierarchy is not in the file are left alone). */
static int fix_mesh(wl_fix_ctx *x, const w3d_mesh *m, bool want_box, bool want_sphere)
{
	const w3d_mesh_header *h = &m->header;
	if (!h->src || h->bytes < W3D_MESH_HEADER3_SIZE || !m->vertices.count)
		return 0;
	double(*pts)[3];
	switch (wl_mesh_bounds_points(x->model, m, &pts)) {
	case WL_BOUNDS_POINTS_OK:
		break;
	case WL_BOUNDS_POINTS_OOM:
		return -1;
	default:
		return 0;
	}
	int rc = fix_points(x, m, (const double(*)[3])pts, want_box, want_sphere);
	free(pts);
	return rc;
}

static int apply_bounds(wl_fix_ctx *x)
{
	const w3d_model *md = x->model;
	if (!md)
		return 0;
	bool want_box = wl_fix_rule_wanted(x, WLR_MESH_BOUNDS_BOX);
	bool want_sphere = wl_fix_rule_wanted(x, WLR_MESH_BOUNDS_SPHERE);
	if (!want_box && !want_sphere)
		return 0;
	for (size_t i = 0; i < md->mesh_count; i++)
		if (md->meshes[i] && fix_mesh(x, md->meshes[i], want_box, want_sphere) != 0)
			return -1;
	return 0;
}


const wl_fixer w3d_fix_recompute_bounds = {
	"recompute-bounds", false,
	"recompute the MESH_HEADER3 bounding box (exact) and sphere (Ritter) of meshes whose bounds miss vertices (skins in the bind pose, when their hierarchy is in the file)",
	apply_bounds
};
