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
 * Skins (geometry type SKIN, VERTEX_INFLUENCES or 0x0C03 present) are never
 * touched: their bounds are in the bind pose (notes/w3d_reference.md B9).
 * Meshes with an incomplete MESH_HEADER3 (< 116 bytes) or no finite vertex
 * are skipped.  Non-finite bounds are rewritten like any other failing ones.
 * Each rewritten box and sphere is one edit note (header chunk, rule, field
 * offset, "old -> new").  Deterministic; idempotent because the written
 * bounds pass the rules with tolerance 0.
 */
#include <math.h>
#include <string.h>

#include "../../core/vec.h"
#include "fixers.h"

extern const wl_fixer wl_fix_recompute_bounds;

/* mesh-bounds-box fails (same test as lint/w3d/check_geometry.c check_box). */
static bool box_fails(const w3d_mesh *m, double tol)
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
	for (size_t i = 0; i < m->vertices.count; i++) {
		const w3d_vec3 *v = &m->vertices.v[i];
		double p[3];
		wl_v3_set(p, v->x, v->y, v->z);
		if (w3d_vec3_finite(v) && wl_box_excess(mn, mx, p) > tol)
			return true;
	}
	return false;
}

/* mesh-bounds-sphere fails (same test as check_geometry.c check_sphere). */
static bool sphere_fails(const w3d_mesh *m, double tol)
{
	const w3d_mesh_header *h = &m->header;
	double r = h->sph_radius;
	if (!w3d_vec3_finite(&h->sph_center) || !isfinite(r) || r < 0)
		return true;
	double c[3];
	wl_v3_set(c, h->sph_center.x, h->sph_center.y, h->sph_center.z);
	for (size_t i = 0; i < m->vertices.count; i++) {
		const w3d_vec3 *v = &m->vertices.v[i];
		double p[3];
		wl_v3_set(p, v->x, v->y, v->z);
		if (w3d_vec3_finite(v) && wl_v3_dist(p, c) - r > tol)
			return true;
	}
	return false;
}

/* Exact AABB of the finite vertices; false when there is none. */
static bool exact_box(const w3d_mesh *m, float mn[3], float mx[3])
{
	bool any = false;
	for (size_t i = 0; i < m->vertices.count; i++) {
		const w3d_vec3 *v = &m->vertices.v[i];
		if (!w3d_vec3_finite(v))
			continue;
		const float p[3] = { v->x, v->y, v->z };
		for (int k = 0; k < 3; k++) {
			if (!any || p[k] < mn[k])
				mn[k] = p[k];
			if (!any || p[k] > mx[k])
				mx[k] = p[k];
		}
		any = true;
	}
	return any;
}

/* Ritter's sphere of the finite vertices (at least one), stored as binary32
 * center c and radius *r that contain every one of them exactly. */
static void ritter_sphere(const w3d_mesh *m, float c[3], float *r)
{
	/* 1. the vertices with the smallest and largest x, y and z */
	size_t lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 };
	bool any = false;
	for (size_t i = 0; i < m->vertices.count; i++) {
		const w3d_vec3 *v = &m->vertices.v[i];
		if (!w3d_vec3_finite(v))
			continue;
		const float p[3] = { v->x, v->y, v->z };
		for (int k = 0; k < 3; k++) {
			const w3d_vec3 *a = &m->vertices.v[lo[k]], *b = &m->vertices.v[hi[k]];
			const float pa[3] = { a->x, a->y, a->z }, pb[3] = { b->x, b->y, b->z };
			if (!any || p[k] < pa[k])
				lo[k] = i;
			if (!any || p[k] > pb[k])
				hi[k] = i;
		}
		any = true;
	}
	/* 2. the pair farthest apart seeds the sphere */
	double best = -1, cd[3] = { 0, 0, 0 }, rd = 0;
	for (int k = 0; k < 3; k++) {
		double a[3], b[3];
		wl_v3_set(a, m->vertices.v[lo[k]].x, m->vertices.v[lo[k]].y, m->vertices.v[lo[k]].z);
		wl_v3_set(b, m->vertices.v[hi[k]].x, m->vertices.v[hi[k]].y, m->vertices.v[hi[k]].z);
		double d = wl_v3_dist(a, b);
		if (d > best) {
			best = d;
			for (int j = 0; j < 3; j++)
				cd[j] = (a[j] + b[j]) / 2;
			rd = d / 2;
		}
	}
	/* 3. grow it over every vertex in file order */
	for (size_t i = 0; i < m->vertices.count; i++) {
		const w3d_vec3 *v = &m->vertices.v[i];
		if (!w3d_vec3_finite(v))
			continue;
		double p[3];
		wl_v3_set(p, v->x, v->y, v->z);
		double d = wl_v3_dist(p, cd);
		if (d > rd) {
			double nr = (rd + d) / 2;
			for (int j = 0; j < 3; j++)
				cd[j] += (p[j] - cd[j]) * (nr - rd) / d;
			rd = nr;
		}
	}
	/* 4. round the center, then take the radius that holds every vertex */
	for (int j = 0; j < 3; j++)
		c[j] = (float)cd[j];
	double cc[3], need = 0;
	wl_v3_set(cc, c[0], c[1], c[2]);
	for (size_t i = 0; i < m->vertices.count; i++) {
		const w3d_vec3 *v = &m->vertices.v[i];
		if (!w3d_vec3_finite(v))
			continue;
		double p[3];
		wl_v3_set(p, v->x, v->y, v->z);
		double d = wl_v3_dist(p, cc);
		if (d > need)
			need = d;
	}
	float rf = (float)need;
	if ((double)rf < need)
		rf = nextafterf(rf, INFINITY);
	*r = rf;
}

static int fix_mesh(wl_fix_ctx *x, const w3d_mesh *m, bool want_box, bool want_sphere)
{
	const w3d_mesh_header *h = &m->header;
	if (!h->src || h->bytes < W3D_MESH_HEADER3_SIZE || w3d_mesh_is_skin(m) || !m->vertices.count)
		return 0;
	double box_tol = wl_config_param(x->config, x->catalog, "mesh-bounds-box", "tolerance", 0.001);
	double sph_tol = wl_config_param(x->config, x->catalog, "mesh-bounds-sphere", "tolerance", 0.001);
	bool box = want_box && box_fails(m, box_tol);
	bool sph = want_sphere && sphere_fails(m, sph_tol);
	float mn[3], mx[3];
	if ((!box && !sph) || !exact_box(m, mn, mx))
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
		if (wl_edit_note(x->doc, c, "mesh-bounds-box", base + W3D_MESH_HDR_MIN,
				 "mesh '%s' bounding box (%g, %g, %g)..(%g, %g, %g) -> (%g, %g, %g)..(%g, %g, %g)",
				 m->name, (double)h->min.x, (double)h->min.y, (double)h->min.z, (double)h->max.x,
				 (double)h->max.y, (double)h->max.z, (double)mn[0], (double)mn[1], (double)mn[2],
				 (double)mx[0], (double)mx[1], (double)mx[2]) != 0)
			return -1;
	}
	if (sph) {
		float c3[3], r;
		ritter_sphere(m, c3, &r);
		for (int k = 0; k < 3; k++)
			wl_fix_put_f32(p + W3D_MESH_HDR_SPH_CENTER + 4 * k, c3[k]);
		wl_fix_put_f32(p + W3D_MESH_HDR_SPH_RADIUS, r);
		if (wl_edit_note(x->doc, c, "mesh-bounds-sphere", base + W3D_MESH_HDR_SPH_CENTER,
				 "mesh '%s' bounding sphere center (%g, %g, %g) radius %g -> center (%g, %g, %g) "
				 "radius %g",
				 m->name, (double)h->sph_center.x, (double)h->sph_center.y, (double)h->sph_center.z,
				 (double)h->sph_radius, (double)c3[0], (double)c3[1], (double)c3[2], (double)r) != 0)
			return -1;
	}
	return wl_edit_set_payload(x->doc, c, p, len);
}

static int apply_bounds(wl_fix_ctx *x)
{
	const w3d_model *md = x->model;
	if (!md)
		return 0;
	bool want_box = wl_fix_rule_wanted(x, "mesh-bounds-box");
	bool want_sphere = wl_fix_rule_wanted(x, "mesh-bounds-sphere");
	if (!want_box && !want_sphere)
		return 0;
	for (size_t i = 0; i < md->mesh_count; i++)
		if (md->meshes[i] && fix_mesh(x, md->meshes[i], want_box, want_sphere) != 0)
			return -1;
	return 0;
}

static const char *const bounds_rules[] = { "mesh-bounds-box", "mesh-bounds-sphere", NULL };

const wl_fixer wl_fix_recompute_bounds = {
	"recompute-bounds", bounds_rules, false,
	"recompute the MESH_HEADER3 bounding box (exact) and sphere (Ritter) of non-skin meshes whose bounds miss vertices",
	apply_bounds
};
