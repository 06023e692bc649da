/*
 * check_geometry.c - MESH geometry rules (rules/geometry.yaml):
 *
 *   mesh-bounds-box       B9: MESH_HEADER3 Min/Max contain every vertex
 *                         (within `tolerance`), Min <= Max, finite; a skin's
 *                         vertices in the bind pose
 *   mesh-bounds-sphere    B9: every vertex within SphRadius + `tolerance` of
 *                         SphCenter; radius finite and >= 0; skins as above
 *   skin-bounds-unchecked B9: a skin whose hierarchy is not in the file, so
 *                         its bind pose and bounds cannot be checked (once
 *                         per skin mesh, at the header bounds, 40 bytes)
 *   triangle-plane        B6: stored Normal/Dist against normalize(cross(v1 -
 *                         v0, v2 - v0)) and dot(N, v0); skins and degenerate
 *                         triangles skipped
 *   triangle-degenerate   B4: repeated vertex index, or (non-skins) height
 *                         over the longest edge <= `height_ratio` x that edge
 *   float-not-finite      NaN/Inf in VERTICES, VERTEX_NORMALS, TRIANGLES
 *                         planes, MESH_HEADER3 bounds, X/Y/Z animation values,
 *                         adaptive-delta Scale and initial values
 *   vertex-normal-length  B7: | |n| - 1 | > `tolerance` (zero included)
 *
 * Sources: notes/w3d_reference.md §2.1 (layouts), §3.B (B4, B6, B7, B9),
 * §2.4-2.5 (channel layouts).
 *
 * A mesh is a skin when its geometry type (Attributes & 0xFF0000) is SKIN
 * (0x20000) or it has VERTEX_INFLUENCES (0x0E) or VERTEX_INFLUENCES_EXTENDED
 * (0x0C03): its stored vertices are bone-relative while its header bounds and
 * triangle planes were computed in the bind pose (meshsave.cpp:357 vs 371).
 * The bounds rules put each vertex back into the bind pose through the base
 * pose of its primary bone in the hierarchy of the HLOD of the same file
 * that uses the mesh (wl_mesh_bounds_points, core/w3d/model_lookup.h;
 * core/w3d/bind_pose.h) and compare that; without the hierarchy they report
 * skin-bounds-unchecked, and when a vertex cannot be posed (bone out of
 * range, bad pivot) they stay silent (other rules report that).  Triangle
 * planes of skins are not compared.
 *
 * One finding per defective element, at that element's bytes (its offset,
 * length and element index: the triangle, the normal, the key); the report
 * writers fold repeats (--fold).  The bounds rules report the header field
 * (the one defective element), naming the vertex farthest outside.
 * Non-finite values are left to
 * float-not-finite: the other rules skip the vertices, normals and triangles
 * that hold one.  Triangles with an index past the vertex array are left to
 * triangle-index-out-of-range (check_mesh.c).
 *
 * Offsets: MESH_HEADER3 payload + 76 Min, +88 Max, +100 SphCenter, +112
 * SphRadius; vertex/normal i at payload + 12 i; triangle i at payload + 32 i,
 * its Vindex at +0 (12 bytes), Normal at +16 and Dist at +28.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "checks.h"
#include "core/w3d/model_lookup.h"

void w3d_check_geometry(wl_lint_ctx *ctx);

/* The plane normal inside a TRIANGLES record (§2.1). */
#define TRI_NORMAL 16u

static void vec_set(double out[3], const w3d_vec3 *v)
{
	wl_v3_set(out, v->x, v->y, v->z);
}

/* ------------------------------------------------------------------ */
/* bounds                                                              */
/* ------------------------------------------------------------------ */

/* The finite points (wl_mesh_bounds_points) that lie outside the header
 * bounds (wl_points_outside). */
typedef struct outside {
	size_t count;    /* vertices outside */
	size_t worst_at; /* index of the one farthest outside */
	double worst;    /* its measure */
	double at[3];    /* that point */
} outside;

static outside scan_outside(const double (*pts)[3], size_t n, const double lo[3], const double *hi, double base,
			    double tol)
{
	outside o = { 0, 0, 0, { 0, 0, 0 } };
	o.count = wl_points_outside(pts, n, lo, hi, base, tol, &o.worst_at, &o.worst);
	if (o.count)
		memcpy(o.at, pts[o.worst_at], sizeof o.at);
	return o;
}

/* The header bounds as the bounds rules judge them: the box when finite
 * with min <= max, the sphere when finite with radius >= 0 (check_box and
 * check_sphere report the others). */
typedef struct header_bounds {
	bool box, sphere;
	double mn[3], mx[3], c[3], r;
	double box_tol, sphere_tol;
} header_bounds;

static header_bounds bounds_of(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	const w3d_mesh_header *h = &m->header;
	header_bounds b;
	vec_set(b.mn, &h->min);
	vec_set(b.mx, &h->max);
	vec_set(b.c, &h->sph_center);
	b.r = h->sph_radius;
	b.box = w3d_vec3_finite(&h->min) && w3d_vec3_finite(&h->max);
	for (int k = 0; k < 3; k++)
		b.box = b.box && !(b.mn[k] > b.mx[k]);
	b.sphere = w3d_vec3_finite(&h->sph_center) && isfinite(b.r) && !(b.r < 0);
	b.box_tol = wl_lint_param(ctx, WLR_MESH_BOUNDS_BOX, "tolerance");
	b.sphere_tol = wl_lint_param(ctx, WLR_MESH_BOUNDS_SPHERE, "tolerance");
	return b;
}

/* Adds point i (finite) to what lies outside: e its measure, e - base
 * judged against tol, as wl_points_outside does. */
static void add_outside(outside *o, size_t i, const double p[3], double e, double base, double tol)
{
	if (e - base > tol && (!o->count++ || e > o->worst)) {
		o->worst_at = i;
		o->worst = e;
		memcpy(o->at, p, sizeof o->at);
	}
}

/* One pass over the vertices of a mesh that is not a skin (its points are
 * its vertices): float-not-finite for each non-finite vertex, and for the
 * finite ones what lies outside the header box and sphere, with the
 * arithmetic of wl_points_outside (the square root of the distance to the
 * sphere's center only near or past its radius). */
static void scan_vertices(wl_lint_ctx *ctx, const w3d_mesh *m, const header_bounds *b, outside *box,
			  outside *sphere)
{
	const w3d_vec3_array *a = &m->vertices;
	*box = (outside){ 0, 0, 0, { 0, 0, 0 } };
	*sphere = *box;
	double lim = b->r + b->sphere_tol;
	double in2 = lim > 0 && isfinite(lim) ? lim * lim * (1 - 1e-9) : -1;
	for (size_t i = 0; i < a->count; i++) {
		const w3d_vec3 *v = &a->v[i];
		if (!w3d_vec3_finite(v)) {
			wl_report(&ctx->doc->findings, WLR_FLOAT_NOT_FINITE, a->src, (int64_t)i,
				  wl_chunk_payload_offset(a->src) + (uint64_t)i * W3D_VEC3_SIZE, W3D_VEC3_SIZE,
				  "mesh '%s' %s %zu (%g, %g, %g) is not finite", m->name, "vertex", i, (double)v->x,
				  (double)v->y, (double)v->z);
			continue;
		}
		double p[3];
		vec_set(p, v);
		if (b->box)
			add_outside(box, i, p, wl_box_excess(b->mn, b->mx, p), 0, b->box_tol);
		if (b->sphere) {
			double d[3];
			wl_v3_sub(p, b->c, d);
			if (!(wl_v3_dot(d, d) < in2))
				add_outside(sphere, i, p, wl_v3_dist(p, b->c), b->r, b->sphere_tol);
		}
	}
}

/* " in the bind pose" for a skin, "" otherwise (for messages). */
static const char *pose_note(const w3d_mesh *m)
{
	return w3d_mesh_is_skin(m) ? " in the bind pose" : "";
}

/* pts: the mesh's points (a skin's in the bind pose); NULL: pre holds
 * what of them lies outside (scan_vertices). */
static void check_box(wl_lint_ctx *ctx, const w3d_mesh *m, const double (*pts)[3], const outside *pre)
{
	const w3d_mesh_header *h = &m->header;
	uint64_t off = wl_chunk_payload_offset(h->src) + W3D_MESH_HDR_MIN;
	wl_findings *f = &ctx->doc->findings;
	if (!w3d_vec3_finite(&h->min) || !w3d_vec3_finite(&h->max)) {
		wl_report(f, WLR_MESH_BOUNDS_BOX, h->src, -1, off, 24,
			  "mesh '%s' bounding box min (%g, %g, %g) max (%g, %g, %g) is not finite", m->name,
			  (double)h->min.x, (double)h->min.y, (double)h->min.z, (double)h->max.x,
			  (double)h->max.y, (double)h->max.z);
		return;
	}
	double mn[3], mx[3];
	vec_set(mn, &h->min);
	vec_set(mx, &h->max);
	for (int k = 0; k < 3; k++)
		if (mn[k] > mx[k]) {
			wl_report(f, WLR_MESH_BOUNDS_BOX, h->src, -1, off, 24,
				  "mesh '%s' bounding box min %c %g is above max %c %g", m->name, "xyz"[k], mn[k],
				  "xyz"[k], mx[k]);
			return;
		}
	double tol = wl_lint_param(ctx, WLR_MESH_BOUNDS_BOX, "tolerance");
	outside o = pts ? scan_outside(pts, m->vertices.count, mn, mx, 0, tol) : *pre;
	if (o.count) {
		const double *v = o.at;
		wl_report(f, WLR_MESH_BOUNDS_BOX, h->src, -1, off, 24,
			  "mesh '%s' bounding box (%g, %g, %g)..(%g, %g, %g) does not contain its vertices%s: vertex "
			  "%zu (%g, %g, %g) lies outside by %g, the farthest",
			  m->name, mn[0], mn[1], mn[2], mx[0], mx[1], mx[2], pose_note(m), o.worst_at, v[0], v[1], v[2],
			  o.worst);
	}
}

static void check_sphere(wl_lint_ctx *ctx, const w3d_mesh *m, const double (*pts)[3], const outside *pre)
{
	const w3d_mesh_header *h = &m->header;
	uint64_t off = wl_chunk_payload_offset(h->src) + W3D_MESH_HDR_SPH_CENTER;
	wl_findings *f = &ctx->doc->findings;
	double r = h->sph_radius;
	if (!w3d_vec3_finite(&h->sph_center) || !isfinite(r) || r < 0) {
		wl_report(f, WLR_MESH_BOUNDS_SPHERE, h->src, -1, off, 16,
			  "mesh '%s' bounding sphere center (%g, %g, %g) radius %g is %s", m->name,
			  (double)h->sph_center.x, (double)h->sph_center.y, (double)h->sph_center.z, r,
			  isfinite(r) && w3d_vec3_finite(&h->sph_center) ? "negative" : "not finite");
		return;
	}
	double c[3];
	vec_set(c, &h->sph_center);
	double tol = wl_lint_param(ctx, WLR_MESH_BOUNDS_SPHERE, "tolerance");
	outside o = pts ? scan_outside(pts, m->vertices.count, c, NULL, r, tol) : *pre;
	if (o.count) {
		const double *v = o.at;
		wl_report(f, WLR_MESH_BOUNDS_SPHERE, h->src, -1, off, 16,
			  "mesh '%s' bounding sphere (center (%g, %g, %g), radius %g) does not contain its vertices%s: "
			  "vertex %zu (%g, %g, %g) lies at distance %g, the farthest",
			  m->name, c[0], c[1], c[2], r, pose_note(m), o.worst_at, v[0], v[1], v[2], o.worst);
	}
}

/* ------------------------------------------------------------------ */
/* triangles                                                           */
/* ------------------------------------------------------------------ */

/* True when every index of t is inside the vertex array and the three
 * vertices are finite; fills v. */
static bool tri_vertices(const w3d_mesh *m, const w3d_triangle *t, double v[3][3])
{
	for (int k = 0; k < 3; k++) {
		if (t->vindex[k] >= m->vertices.count)
			return false;
		const w3d_vec3 *p = &m->vertices.v[t->vindex[k]];
		if (!w3d_vec3_finite(p))
			return false;
		vec_set(v[k], p);
	}
	return true;
}

static bool repeats_index(const w3d_triangle *t)
{
	return t->vindex[0] == t->vindex[1] || t->vindex[1] == t->vindex[2] || t->vindex[0] == t->vindex[2];
}

/* One pass over the triangles for the rules that read them: float-not-finite
 * (the stored plane), triangle-degenerate and triangle-plane (these two not
 * for skins: planes were computed in the bind pose).  A triangle's vertices
 * are gathered once, and one cross product of its edges gives both its
 * area (wl_tri_area2) and its plane (wl_tri_plane), with the same
 * arithmetic as those. */
static void check_triangles(wl_lint_ctx *ctx, const w3d_mesh *m, bool skin)
{
	wl_findings *f = &ctx->doc->findings;
	double ratio = wl_lint_param(ctx, WLR_TRIANGLE_DEGENERATE, "height_ratio");
	double ntol = wl_lint_param(ctx, WLR_TRIANGLE_PLANE, "normal_tolerance");
	double dtol = wl_lint_param(ctx, WLR_TRIANGLE_PLANE, "distance_tolerance");
	uint64_t base = wl_chunk_payload_offset(m->triangles_src);
	for (size_t i = 0; i < m->triangle_count; i++) {
		const w3d_triangle *t = &m->triangles[i];
		uint64_t at = base + (uint64_t)i * W3D_TRI_SIZE;
		bool plane_finite = wl_f3_finite(t->normal.x, t->normal.y, t->normal.z) && isfinite(t->dist);
		if (!plane_finite)
			wl_report(f, WLR_FLOAT_NOT_FINITE, m->triangles_src, (int64_t)i, at + TRI_NORMAL, 16,
				  "mesh '%s' triangle %zu plane normal (%g, %g, %g) dist %g is not finite", m->name, i,
				  (double)t->normal.x, (double)t->normal.y, (double)t->normal.z, (double)t->dist);
		bool repeats = repeats_index(t);
		if (repeats)
			wl_report(f, WLR_TRIANGLE_DEGENERATE, m->triangles_src, (int64_t)i, at, 12,
				  "mesh '%s' triangle %zu (vertices %u, %u, %u) repeats a vertex index", m->name, i,
				  (unsigned)t->vindex[0], (unsigned)t->vindex[1], (unsigned)t->vindex[2]);
		double v[3][3];
		if (skin || !tri_vertices(m, t, v))
			continue;
		double e1[3], e2[3], e3[3], c[3];
		wl_v3_sub(v[1], v[0], e1);
		wl_v3_sub(v[2], v[0], e2);
		wl_v3_cross(e1, e2, c);
		double len = wl_v3_len(c);
		if (!repeats) {
			wl_v3_sub(v[2], v[1], e3);
			double l2 = wl_v3_dot(e1, e1);
			if (wl_v3_dot(e2, e2) > l2)
				l2 = wl_v3_dot(e2, e2);
			if (wl_v3_dot(e3, e3) > l2)
				l2 = wl_v3_dot(e3, e3);
			double r = l2 > 0 ? len / l2 : 0;
			if (!(r > ratio))
				wl_report(f, WLR_TRIANGLE_DEGENERATE, m->triangles_src, (int64_t)i, at, 12,
					  "mesh '%s' triangle %zu (vertices %u, %u, %u) has height/edge ratio %g (zero "
					  "area)",
					  m->name, i, (unsigned)t->vindex[0], (unsigned)t->vindex[1],
					  (unsigned)t->vindex[2], r);
		}
		if (!(len > 0) || !isfinite(len) || !plane_finite)
			continue; /* no plane, or float-not-finite */
		double n[3] = { c[0] / len, c[1] / len, c[2] / len };
		double d = wl_v3_dot(n, v[0]);
		double sn[3];
		vec_set(sn, &t->normal);
		if (!wl_plane_differs(sn, t->dist, n, d, wl_v3_maxabs(v[0]), ntol, dtol))
			continue;
		wl_report(f, WLR_TRIANGLE_PLANE, m->triangles_src, (int64_t)i, at + TRI_NORMAL, 16,
			  "mesh '%s' triangle %zu plane normal (%g, %g, %g) dist %g differs from the recomputed normal "
			  "(%g, %g, %g) dist %g",
			  m->name, i, (double)t->normal.x, (double)t->normal.y, (double)t->normal.z, (double)t->dist,
			  n[0], n[1], n[2], d);
	}
}

/* ------------------------------------------------------------------ */
/* vertex normals                                                      */
/* ------------------------------------------------------------------ */

/* One pass over the vertex normals: float-not-finite, then
 * vertex-normal-length for the finite ones (a square root only outside
 * wl_unit_band). */
static void check_normals(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	double tol = wl_lint_param(ctx, WLR_VERTEX_NORMAL_LENGTH, "tolerance");
	double lo2, hi2;
	wl_unit_band(tol, &lo2, &hi2);
	uint64_t base = wl_chunk_payload_offset(m->normals.src);
	for (size_t i = 0; i < m->normals.count; i++) {
		const w3d_vec3 *nv = &m->normals.v[i];
		uint64_t at = base + (uint64_t)i * W3D_VEC3_SIZE;
		if (!w3d_vec3_finite(nv)) {
			wl_report(&ctx->doc->findings, WLR_FLOAT_NOT_FINITE, m->normals.src, (int64_t)i, at, W3D_VEC3_SIZE,
				  "mesh '%s' %s %zu (%g, %g, %g) is not finite", m->name, "vertex normal", i,
				  (double)nv->x, (double)nv->y, (double)nv->z);
			continue;
		}
		double n[3];
		vec_set(n, nv);
		double s = wl_v3_dot(n, n);
		if (s > lo2 && s < hi2)
			continue;
		double len = sqrt(s);
		if (!(fabs(len - 1) > tol))
			continue;
		wl_report(&ctx->doc->findings, WLR_VERTEX_NORMAL_LENGTH, m->normals.src, (int64_t)i, at, W3D_VEC3_SIZE,
			  "mesh '%s' vertex normal %zu (%g, %g, %g) has length %.6g, not 1", m->name, i,
			  (double)nv->x, (double)nv->y, (double)nv->z, len);
	}
}

/* ------------------------------------------------------------------ */
/* float-not-finite                                                    */
/* ------------------------------------------------------------------ */

/* The first record i >= from of the n records of `floats` binary32 values
 * at data + i*stride (+ skip bytes) that holds a non-finite value; n when
 * none does. */
static size_t next_nonfinite(const uint8_t *data, size_t n, size_t stride, size_t skip, size_t floats,
			     size_t from)
{
	for (size_t i = from; i < n; i++) {
		const uint8_t *p = data + i * stride + skip;
		for (size_t j = 0; j < floats; j++)
			if (!isfinite(wl_lef32(p + 4 * j)))
				return i;
	}
	return n;
}

static void report_vec_array(wl_lint_ctx *ctx, const w3d_mesh *m, const w3d_vec3_array *a, const char *what)
{
	if (!a->src)
		return;
	for (size_t i = 0; i < a->count; i++)
		if (!w3d_vec3_finite(&a->v[i]))
			wl_report(&ctx->doc->findings, WLR_FLOAT_NOT_FINITE, a->src, (int64_t)i,
				  wl_chunk_payload_offset(a->src) + (uint64_t)i * W3D_VEC3_SIZE, W3D_VEC3_SIZE,
				  "mesh '%s' %s %zu (%g, %g, %g) is not finite", m->name, what, i, (double)a->v[i].x,
				  (double)a->v[i].y, (double)a->v[i].z);
}

/* float-not-finite in the header bounds and the vertices; with b (a mesh
 * that is not a skin, with header bounds and vertices), the vertices in
 * one pass with the bounds rules (scan_vertices into box and sphere). */
static void finite_mesh(wl_lint_ctx *ctx, const w3d_mesh *m, const header_bounds *b, outside *box,
			outside *sphere)
{
	wl_findings *f = &ctx->doc->findings;
	const w3d_mesh_header *h = &m->header;
	if (h->src && h->bytes >= W3D_MESH_HEADER3_SIZE) {
		const uint8_t *p = wl_chunk_payload(ctx->doc, h->src);
		if (next_nonfinite(p + W3D_MESH_HDR_MIN, 1, 0, 0, 10, 0) == 0)
			wl_report(f, WLR_FLOAT_NOT_FINITE, h->src, -1,
				  wl_chunk_payload_offset(h->src) + W3D_MESH_HDR_MIN,
				  W3D_MESH_HEADER3_SIZE - W3D_MESH_HDR_MIN,
				  "mesh '%s' header bounds are not finite: min (%g, %g, %g) max (%g, %g, %g) "
				  "center (%g, %g, %g) radius %g",
				  m->name, (double)h->min.x, (double)h->min.y, (double)h->min.z, (double)h->max.x,
				  (double)h->max.y, (double)h->max.z, (double)h->sph_center.x, (double)h->sph_center.y,
				  (double)h->sph_center.z, (double)h->sph_radius);
	}
	if (b)
		scan_vertices(ctx, m, b, box, sphere);
	else
		report_vec_array(ctx, m, &m->vertices, "vertex");
}

/* Reports each of the n records of a channel (vl floats at data + i*stride
 * + skip, file offset off + i*stride) that holds a non-finite float. */
static void report_channel(wl_lint_ctx *ctx, const wl_chunk *k, unsigned pivot, const uint8_t *data, size_t n,
			   size_t stride, size_t skip, size_t vl, uint64_t off, const char *what)
{
	/* records packed end to end (raw channels): all finite, the common
	 * case, tested at once */
	if (skip == 0 && stride == 4 * vl && wl_lef32_all_finite(data, n * vl))
		return;
	for (size_t i = next_nonfinite(data, n, stride, skip, vl, 0); i < n;
	     i = next_nonfinite(data, n, stride, skip, vl, i + 1))
		wl_report(&ctx->doc->findings, WLR_FLOAT_NOT_FINITE, k, (int64_t)i, off + (uint64_t)i * stride,
			  4u * (uint64_t)vl, "channel for pivot %u: %s %zu is not finite", pivot, what, i);
}

static void finite_raw(wl_lint_ctx *ctx, const w3d_animation *a)
{
	for (size_t i = 0; i < a->channel_count; i++) {
		const w3d_anim_channel *ch = &a->channels[i];
		if (!ch->header_ok || ch->flags == W3D_ANIM_CHANNEL_Q || ch->vector_len == 0 ||
		    ch->last_frame < ch->first_frame)
			continue;
		size_t rec = (size_t)ch->vector_len * 4;
		size_t n = ch->data_bytes / rec;
		size_t frames = (size_t)ch->last_frame - ch->first_frame + 1;
		if (n > frames)
			n = frames;
		report_channel(ctx, ch->src, ch->pivot, ch->data, n, rec, 0, ch->vector_len, ch->data_offset, "frame");
	}
}

static void finite_compressed(wl_lint_ctx *ctx, const w3d_compressed_animation *a)
{
	for (size_t i = 0; i < a->channel_count; i++) {
		const w3d_canim_channel *ch = &a->channels[i];
		if (!ch->header_ok || ch->vector_len == 0)
			continue;
		bool q = ch->flags == W3D_ANIM_CHANNEL_Q; /* quaternion-not-finite */
		size_t vl = ch->vector_len, n;
		switch (ch->layout) {
		case W3D_CLAYOUT_TIMECODED: {
			size_t pkt = 4 * (vl + 1);
			n = ch->data_bytes / pkt;
			if (n > ch->count)
				n = ch->count;
			if (q)
				break;
			report_channel(ctx, ch->src, ch->pivot, ch->data, n, pkt, 4, vl, ch->data_offset + 4, "key");
			break;
		}
		case W3D_CLAYOUT_MOTION_TC: {
			size_t keys = ((size_t)2 * ch->count + 3) & ~(size_t)3;
			if (q || keys > ch->data_bytes)
				break;
			n = (ch->data_bytes - keys) / (4 * vl);
			if (n > ch->count)
				n = ch->count;
			report_channel(ctx, ch->src, ch->pivot, ch->data + keys, n, 4 * vl, 0, vl, ch->data_offset + keys,
				       "key");
			break;
		}
		case W3D_CLAYOUT_AD4:
		case W3D_CLAYOUT_AD8:
		case W3D_CLAYOUT_MOTION_AD4:
		case W3D_CLAYOUT_MOTION_AD8:
			/* Scale is the 4 bytes before data (0x282: header @8;
			 * 0x284: first data word) - see hierarchy.h. */
			if (!isfinite(ch->scale))
				wl_report(&ctx->doc->findings, WLR_FLOAT_NOT_FINITE, ch->src, -1, ch->data_offset - 4, 4,
					  "adaptive-delta channel for pivot %u has scale %g, not finite", ch->pivot,
					  (double)ch->scale);
			if (!q && ch->data_bytes >= 4 * vl && next_nonfinite(ch->data, 1, 0, 0, vl, 0) == 0)
				wl_report(&ctx->doc->findings, WLR_FLOAT_NOT_FINITE, ch->src, -1, ch->data_offset, 4 * vl,
					  "adaptive-delta channel for pivot %u has a non-finite initial value", ch->pivot);
			break;
		case W3D_CLAYOUT_UNKNOWN:
			break;
		}
	}
}

/* The bounds rules on the points the header bounds describe; for a skin
 * without its hierarchy, skin-bounds-unchecked.  box, sphere: for a mesh
 * that is not a skin, what scan_vertices found outside (else NULL). */
static void check_bounds(wl_lint_ctx *ctx, const w3d_model *model, const w3d_mesh *m, const outside *box,
			 const outside *sphere)
{
	if (box) {
		check_box(ctx, m, NULL, box);
		check_sphere(ctx, m, NULL, sphere);
		return;
	}
	double(*pts)[3];
	switch (wl_mesh_bounds_points(model, m, &pts)) {
	case WL_BOUNDS_POINTS_OK:
		check_box(ctx, m, (const double(*)[3])pts, NULL);
		check_sphere(ctx, m, (const double(*)[3])pts, NULL);
		free(pts);
		break;
	case WL_BOUNDS_POINTS_NO_TREE: {
		const w3d_hlod *h = wl_mesh_owner_hlod(model, m->name);
		wl_findings *f = &ctx->doc->findings;
		uint64_t off = wl_chunk_payload_offset(m->header.src) + W3D_MESH_HDR_MIN;
		uint64_t len = W3D_MESH_HEADER3_SIZE - W3D_MESH_HDR_MIN;
		if (h)
			wl_report(f, WLR_SKIN_BOUNDS_UNCHECKED, m->header.src, -1, off, len,
				  "skin mesh '%s': its bounds belong to the bind pose of hierarchy '%s', which this file "
				  "does not define, so they are not checked",
				  m->name, h->hierarchy_name);
		else
			wl_report(f, WLR_SKIN_BOUNDS_UNCHECKED, m->header.src, -1, off, len,
				  "skin mesh '%s': no hlod of this file uses it, so the hierarchy of its bind pose is "
				  "unknown and its bounds are not checked",
				  m->name);
		break;
	}
	case WL_BOUNDS_POINTS_UNPOSABLE:
		break;
	case WL_BOUNDS_POINTS_OOM:
		ctx->doc->findings.oom = 1;
		break;
	}
}

void w3d_check_geometry(wl_lint_ctx *ctx)
{
	const w3d_model *model = ctx->model;
	if (!model)
		return;
	for (size_t i = 0; i < model->mesh_count; i++) {
		const w3d_mesh *m = model->meshes[i];
		/* float-not-finite in file order within the mesh: header and
		 * vertices, normals, triangles (the per-rule cap keeps the
		 * first ones) */
		bool bounds = m->header.src && m->header.bytes >= W3D_MESH_HEADER3_SIZE && m->vertices.count;
		bool one_pass = bounds && !w3d_mesh_is_skin(m); /* its points are its vertices */
		header_bounds b;
		outside box, sphere;
		if (one_pass)
			b = bounds_of(ctx, m);
		finite_mesh(ctx, m, one_pass ? &b : NULL, &box, &sphere);
		if (m->normals.src)
			check_normals(ctx, m);
		if (bounds)
			check_bounds(ctx, model, m, one_pass ? &box : NULL, one_pass ? &sphere : NULL);
		if (m->triangles_src && m->triangle_count)
			check_triangles(ctx, m, w3d_mesh_is_skin(m));
	}
	for (size_t i = 0; i < model->animation_count; i++)
		finite_raw(ctx, model->animations[i]);
	for (size_t i = 0; i < model->compressed_animation_count; i++)
		finite_compressed(ctx, model->compressed_animations[i]);
}
