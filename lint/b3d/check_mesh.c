/*
 * check_mesh.c - B3D MESH structure, triangles and brush ids
 * (rules/b3d/geometry.yaml, rules/b3d/materials.yaml).
 *
 * Rule ids reported here, each at the exact bytes named:
 *   b3d-triangle-vertex-out-of-range  a TRIS vertex id is negative or not
 *                                     below the MESH's vertex count (the
 *                                     triangle's 12 bytes)
 *   b3d-triangle-degenerate           a triangle repeats a vertex id (its 12
 *                                     bytes)
 *   b3d-brush-id-out-of-range         a MESH or TRIS brush_id is neither -1
 *                                     nor below the BRUS entry count (the
 *                                     4-byte field)
 *   b3d-mesh-no-vertices              a MESH with no VRTS, or a VRTS with no
 *                                     vertex (the VRTS chunk, else the MESH)
 *   b3d-mesh-no-tris                  a MESH with no TRIS chunk (the MESH)
 *   b3d-tris-empty                    a TRIS chunk with no triangle (the TRIS)
 *   b3d-mesh-multiple-vrts            a second or later VRTS in one MESH (that
 *                                     VRTS chunk)
 *   b3d-tris-too-many-vertices        one TRIS set uses more than 65536
 *                                     distinct vertices (the triangle that
 *                                     brings in vertex 65537)
 * The three "no ..." / "empty" rules stay quiet on a chunk cut short by the
 * end of the file (chunk-truncated already names it).
 * Vertex ids are relative to the enclosing MESH's first vertex (Irrlicht
 * VerticesStart, Assimp v0) and may reach into a second VRTS of the MESH
 * (Irrlicht appends it to the first); a MESH whose VRTS layout cannot be decoded
 * (b3d-tex-coord-layout) has no vertex count and its ids are not judged.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "check_util.h"

void b3d_check_mesh(wl_lint_ctx *ctx);

/* Largest number of distinct vertices one Luanti/Irrlicht mesh buffer can
 * index (u16 indices, SSkinMeshBuffer). */
#define BUFFER_MAX_VERTICES 65536u

/* The brushes the engines make of BRUS: its whole entries and a cut last
 * one (b3d_model.brush_cut), which b3d-record-slack reports. */
static size_t engine_brushes(const b3d_model *m)
{
	return m->brush_count + (m->brush_cut ? 1 : 0);
}

static bool brush_bad(const b3d_model *m, int32_t id)
{
	return id != -1 && (id < 0 || (uint64_t)id >= engine_brushes(m));
}

/* True when the brush ids can be judged: no BRUS, or its entries were
 * decoded (core/b3d/decode.c decodes n_texs from 0 to 4096). */
static bool brushes_known(const b3d_model *m)
{
	return !m->brus || (m->brus_ok && m->brush_texture_slots >= 0 && m->brush_texture_slots <= 4096);
}

static void brush_id(wl_lint_ctx *ctx, const b3d_mesh *me, const wl_chunk *c, int32_t id, const char *what)
{
	const b3d_model *m = ctx->model;
	if (!brush_bad(m, id))
		return;
	wl_report(&ctx->doc->findings, WLR_B3D_BRUSH_ID_OUT_OF_RANGE, c, -1, wl_chunk_payload_offset(c), 4,
		  "%s brush_id %" PRId32 " in the MESH of NODE '%.64s' is neither -1 nor below the %zu "
		  "brush(es) of BRUS: Luanti refuses the model (\"Illegal brush ID found\"), older "
		  "Irrlicht reads its material array out of bounds",
		  what, id, b3c_node_name(me->node), engine_brushes(m));
}

/* Vertices of every VRTS of me: Irrlicht and Luanti append a second VRTS
 * to the first, and triangle ids count from the MESH's first vertex. */
static uint64_t mesh_vertices(const b3d_model *m, const b3d_mesh *me)
{
	uint64_t end = me->index + 1 < m->mesh_count ? m->meshes[me->index + 1]->global_base
						       : m->total_vertices;
	return end - me->global_base;
}

/* Per triangle of t: ids in range, no repeated id. */
static void triangles(wl_lint_ctx *ctx, const b3d_mesh *me, const b3d_tris *t)
{
	wl_findings *f = &ctx->doc->findings;
	const b3d_records *r = &t->tris;
	bool judge_ids = !me->vrts || me->vrts->verts.size;
	uint64_t limit = mesh_vertices(ctx->model, me);
	for (size_t i = 0; i < r->count; i++) {
		const uint8_t *p = b3d_record(r, i);
		int32_t v[3] = { b3c_i32(p), b3c_i32(p + 4), b3c_i32(p + 8) };
		uint64_t off = b3d_record_offset(r, i);
		for (int k = 0; judge_ids && k < 3; k++) {
			if (v[k] >= 0 && (uint64_t)v[k] < limit)
				continue;
			wl_report(f, WLR_B3D_TRIANGLE_VERTEX_OUT_OF_RANGE, t->src, (int64_t)i, off, 12,
				  "triangle %zu uses vertex id %" PRId32 " (corner %d), but the MESH of NODE "
				  "'%.64s' has %" PRIu64 " vertices: Irrlicht and Luanti refuse the model "
				  "(\"Illegal vertex index found\"), Assimp too (\"Bad triangle index\")",
				  i, v[k], k, b3c_node_name(me->node), limit);
			break;
		}
		if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2])
			wl_report(f, WLR_B3D_TRIANGLE_DEGENERATE, t->src, (int64_t)i, off, 12,
				  "triangle %zu repeats a vertex (%" PRId32 ", %" PRId32 ", %" PRId32
				  "): it has no area and draws nothing",
				  i, v[0], v[1], v[2]);
	}
}

/* The triangle of t that brings the distinct-vertex count of its set past
 * BUFFER_MAX_VERTICES, if any. */
static void buffer_size(wl_lint_ctx *ctx, const b3d_mesh *me, const b3d_tris *t)
{
	const b3d_records *r = &t->tris;
	if ((uint64_t)r->count * 3 <= BUFFER_MAX_VERTICES || me->vertex_count <= BUFFER_MAX_VERTICES)
		return;
	uint8_t *seen = calloc(me->vertex_count / 8 + 1, 1);
	if (!seen)
		return;
	uint64_t distinct = 0;
	for (size_t i = 0; i < r->count; i++) {
		const uint8_t *p = b3d_record(r, i);
		for (int k = 0; k < 3; k++) {
			int32_t v = b3c_i32(p + 4 * k);
			if (v < 0 || (uint64_t)v >= me->vertex_count || (seen[v / 8] >> (v % 8) & 1))
				continue;
			seen[v / 8] |= (uint8_t)(1u << (v % 8));
			distinct++;
		}
		if (distinct > BUFFER_MAX_VERTICES) {
			wl_report(&ctx->doc->findings, WLR_B3D_TRIS_TOO_MANY_VERTICES, t->src, (int64_t)i,
				  b3d_record_offset(r, i), 12,
				  "triangle %zu brings the vertices used by this TRIS set past %u: Luanti's "
				  "mesh buffers have 16-bit indices, so this and later triangles wrap to "
				  "other vertices",
				  i, BUFFER_MAX_VERTICES);
			break;
		}
	}
	free(seen);
}

/* Every VRTS of me after the first. */
static void extra_vrts(wl_lint_ctx *ctx, const b3d_mesh *me)
{
	size_t n = 0;
	for (const wl_chunk *k = me->src->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK || k->id != B3D_CHUNK_VRTS || !k->type || n++ == 0)
			continue;
		wl_report(&ctx->doc->findings, WLR_B3D_MESH_MULTIPLE_VRTS, k, -1, k->offset,
			  b3c_chunk_len(ctx->doc, k),
			  "VRTS %zu of the MESH of NODE '%.64s': the spec allows one per MESH; triangle ids "
			  "count from the first, modlib refuses the model",
			  n, b3c_node_name(me->node));
	}
}

static void mesh(wl_lint_ctx *ctx, const b3d_mesh *me)
{
	wl_findings *f = &ctx->doc->findings;
	const wl_doc *d = ctx->doc;
	if (me->brush_ok && brushes_known(ctx->model))
		brush_id(ctx, me, me->src, me->brush_id, "MESH");
	bool cut = b3c_cut(me->src);
	if (!me->vrts && !cut)
		wl_report(f, WLR_B3D_MESH_NO_VERTICES, me->src, -1, me->src->offset, b3c_chunk_len(d, me->src),
			  "the MESH of NODE '%.64s' has no VRTS chunk: Assimp's validation rejects a mesh "
			  "without vertices, modlib needs VRTS first",
			  b3c_node_name(me->node));
	else if (me->vrts && me->vrts->verts.size && me->vertex_count == 0 && !b3c_cut(me->vrts->src))
		wl_report(f, WLR_B3D_MESH_NO_VERTICES, me->vrts->src, -1, me->vrts->src->offset,
			  b3c_chunk_len(d, me->vrts->src),
			  "the VRTS of the MESH of NODE '%.64s' holds no vertex: Assimp's validation rejects "
			  "a mesh without vertices",
			  b3c_node_name(me->node));
	if (me->vrts_count > 1)
		extra_vrts(ctx, me);
	if (!me->tris_count && !cut)
		wl_report(f, WLR_B3D_MESH_NO_TRIS, me->src, -1, me->src->offset, b3c_chunk_len(d, me->src),
			  "the MESH of NODE '%.64s' has no TRIS chunk: modlib refuses the model",
			  b3c_node_name(me->node));
	for (size_t i = 0; i < me->tris_count; i++) {
		const b3d_tris *t = me->tris[i];
		if (t->brush_ok && brushes_known(ctx->model))
			brush_id(ctx, me, t->src, t->brush_id, "TRIS");
		if (!t->tris.count && !b3c_cut(t->src))
			wl_report(f, WLR_B3D_TRIS_EMPTY, t->src, -1, t->src->offset, b3c_chunk_len(d, t->src),
				  "TRIS %zu of the MESH of NODE '%.64s' holds no triangle: Assimp's "
				  "validation rejects the empty mesh it makes",
				  i, b3c_node_name(me->node));
		triangles(ctx, me, t);
		buffer_size(ctx, me, t);
	}
}

void b3d_check_mesh(wl_lint_ctx *ctx)
{
	const b3d_model *m = ctx->model;
	if (!m)
		return;
	for (size_t i = 0; i < m->mesh_count; i++)
		mesh(ctx, m->meshes[i]);
}
