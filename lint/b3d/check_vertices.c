/*
 * check_vertices.c - B3D VRTS layout and per-vertex values
 * (rules/b3d/geometry.yaml).
 *
 * Rule ids reported here, each at the exact bytes named:
 *   b3d-tex-coord-layout  tex_coord_sets / tex_coord_set_size negative or
 *                         beyond what Irrlicht/Luanti accept (sets >= 3 or
 *                         set_size >= 4), Assimp (> 4) or the spec (8 / 4)
 *                         (the 8 bytes of the two fields)
 *   b3d-float-not-finite  a vertex has a NaN or infinite position, normal,
 *                         colour or texture coordinate (the vertex record)
 *   b3d-normal-zero       a stored normal of (near) zero length (its 12 bytes)
 *   b3d-normal-not-unit   a stored normal whose length differs from 1 by more
 *                         than `tolerance` (its 12 bytes)
 * Only the first VRTS of each MESH is read (b3d-mesh-multiple-vrts reports
 * the others).
 */
#include <inttypes.h>
#include <math.h>

#include "check_util.h"

void b3d_check_vertices(wl_lint_ctx *ctx);

#define NOT_UNIT WLR_B3D_NORMAL_NOT_UNIT
#define ZERO WLR_B3D_NORMAL_ZERO

/* Irrlicht/Luanti CB3DMeshFileLoader::readChunkVRTS refuse sets >= 3 and
 * set_size >= 4 (and, since 64688f44, negative values); stricter than
 * Assimp (0..4) and the spec (0..8 sets of 0..4). */
static void layout(wl_lint_ctx *ctx, const b3d_mesh *me, const b3d_vrts *v)
{
	if (v->sets >= 0 && v->set_size >= 0 && v->sets < 3 && v->set_size < 4)
		return;
	const char *who = v->sets < 0 || v->set_size < 0 ? "negative values are refused by Luanti and Assimp"
			  : v->sets > 8 || v->set_size > 4 ? "beyond the spec's 8 sets of at most 4, refused by every reader"
			  : v->sets > 4 ? "Irrlicht, Luanti and Assimp refuse more than 4 sets"
			  : "Irrlicht and Luanti refuse 3 or more sets or a set size of 4 (\"too big\")";
	wl_report(&ctx->doc->findings, WLR_B3D_TEX_COORD_LAYOUT, v->src, -1, wl_chunk_payload_offset(v->src) + 4, 8,
		  "VRTS of the MESH of NODE '%.64s' has tex_coord_sets %" PRId32 " and tex_coord_set_size %" PRId32
		  ": %s",
		  b3c_node_name(me->node), v->sets, v->set_size, who);
}

/* The first part of vertex record p that holds a non-finite float, or NULL. */
static const char *bad_part(const b3d_vrts *v, const uint8_t *p)
{
	if (!b3c_finite(p, 3))
		return "position";
	if (v->normal_at && !b3c_finite(p + v->normal_at, 3))
		return "normal";
	if (v->color_at && !b3c_finite(p + v->color_at, 4))
		return "colour";
	if (!b3c_finite(p + v->uv_at, (v->verts.size - v->uv_at) / 4))
		return "texture coordinate";
	return NULL;
}

static void normal(wl_lint_ctx *ctx, const b3d_vrts *v, size_t i, const uint8_t *p, double tol, double eps)
{
	const uint8_t *n = p + v->normal_at;
	double x = wl_lef32(n), y = wl_lef32(n + 4), z = wl_lef32(n + 8);
	double len = sqrt(x * x + y * y + z * z);
	uint64_t off = b3d_record_offset(&v->verts, i) + v->normal_at;
	if (len <= eps)
		wl_report(&ctx->doc->findings, ZERO, v->src, (int64_t)i, off, 12,
			  "vertex %zu has a zero normal (%g, %g, %g): it lights black; Luanti recomputes "
			  "normals only when the first normal of a buffer is bad",
			  i, x, y, z);
	else if (fabs(len - 1.0) > tol)
		wl_report(&ctx->doc->findings, NOT_UNIT, v->src, (int64_t)i, off, 12,
			  "vertex %zu has a normal of length %g (%g, %g, %g), not 1: lighting is too bright "
			  "or too dark",
			  i, len, x, y, z);
}

static void vertices(wl_lint_ctx *ctx, const b3d_vrts *v, double tol, double eps, bool normals)
{
	const b3d_records *r = &v->verts;
	/* A vertex record is floats only: one scan of the whole array, and a
	 * look at each vertex's parts only when it finds a non-finite one. */
	bool all_finite = wl_lef32_all_finite(r->data, r->count * (r->size / 4));
	if (all_finite && !(normals && v->normal_at))
		return;
	for (size_t i = 0; i < r->count; i++) {
		const uint8_t *p = b3d_record(r, i);
		const char *part = all_finite ? NULL : bad_part(v, p);
		if (part) {
			wl_report(&ctx->doc->findings, WLR_B3D_FLOAT_NOT_FINITE, v->src, (int64_t)i,
				  b3d_record_offset(r, i), r->size,
				  "vertex %zu has a NaN or infinite %s: its triangles vanish or stretch across "
				  "the scene and the bounding box is poisoned",
				  i, part);
			continue;
		}
		if (normals && v->normal_at)
			normal(ctx, v, i, p, tol, eps);
	}
}

void b3d_check_vertices(wl_lint_ctx *ctx)
{
	const b3d_model *m = ctx->model;
	if (!m)
		return;
	bool normals = wl_lint_enabled(ctx, ZERO) || wl_lint_enabled(ctx, NOT_UNIT);
	double tol = wl_lint_param(ctx, NOT_UNIT, "tolerance");
	double eps = wl_lint_param(ctx, ZERO, "epsilon");
	for (size_t i = 0; i < m->mesh_count; i++) {
		const b3d_mesh *me = m->meshes[i];
		if (!me->vrts)
			continue;
		layout(ctx, me, me->vrts);
		if (me->vrts->verts.size)
			vertices(ctx, me->vrts, tol, eps, normals);
	}
}
