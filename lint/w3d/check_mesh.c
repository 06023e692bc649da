/*
 * check_mesh.c - MESH structure, counts and indices (rules/mesh.yaml).
 *
 * Rule ids reported here:
 *   mesh-header-missing            A3: no MESH_HEADER3 in a MESH
 *   mesh-header-not-first          A3: MESH_HEADER3 is not the first sub-chunk
 *   mesh-vertex-count-mismatch     B2/C7: a per-vertex array's length differs
 *                                  from NumVertices
 *   mesh-triangle-count-mismatch   B2: TRIANGLES length differs from NumTris
 *   mesh-array-missing             B2: NumVertices/NumTris > 0 but VERTICES or
 *                                  TRIANGLES is absent
 *   mesh-empty                     B1: NumVertices or NumTris is 0
 *   mesh-too-many-vertices         B3: NumVertices > 65536 (16-bit indices)
 *   triangle-index-out-of-range    B3: a triangle vertex index >= vertex count
 *   material-pass-count-mismatch   C1: PassCount vs MATERIAL_PASS chunks
 *   material-shader-count-mismatch C3: ShaderCount vs SHADERS records
 *   material-count-mismatch        C4: VertexMaterialCount / TextureCount vs
 *                                  the VERTEX_MATERIAL / TEXTURE chunks
 *   material-id-array-length       C6/C8: an id array is neither 1 nor
 *                                  NumVertices/NumTris long
 *   material-pass-limit            C1: more than 4 MATERIAL_PASS chunks
 *   texture-stage-limit            C2: more than 2 TEXTURE_STAGE chunks
 *
 * Every finding names the exact bytes: the offending array chunk (header
 * included) for count mismatches, the 4-byte field or element otherwise.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "checks.h"

void w3d_check_mesh(wl_lint_ctx *ctx);

static uint64_t chunk_len(const wl_chunk *c)
{
	return (uint64_t)c->header_size + c->size;
}

/* Reports a per-vertex array whose element count differs from NumVertices. */
static void vertex_array(wl_lint_ctx *ctx, const w3d_mesh *m, const wl_chunk *src, size_t count,
			 const char *what)
{
	if (!src || count == m->header.num_vertices)
		return;
	wl_report(&ctx->doc->findings, WLR_MESH_VERTEX_COUNT_MISMATCH, src, -1, src->offset,
		  chunk_len(src), "%s of mesh '%s' holds %zu entries, but the mesh header says %" PRIu32
		  " vertices", what, m->name, count, m->header.num_vertices);
}

/* A MATERIAL_PASS id array chunk must hold exactly 4 bytes (one id for all)
 * or 4 bytes per element (meshmdlio.cpp:1102-1115, "== 4" means single). */
static void id_array(wl_lint_ctx *ctx, const w3d_mesh *m, const wl_chunk *src, uint32_t per,
		     const char *what, const char *per_what, size_t pass, size_t stage)
{
	if (!src)
		return;
	uint64_t want = (uint64_t)per * 4;
	if (src->size == 4 || src->size == want)
		return;
	char where[48];
	wl_pass_stage_name(where, sizeof where, pass, stage);
	wl_report(&ctx->doc->findings, WLR_MATERIAL_ID_ARRAY_LENGTH, src, -1, src->offset, chunk_len(src),
		  "%s %s of mesh '%s' holds %" PRIu64 " bytes (%" PRIu64 " ids), but must hold 1 id "
		  "or one per %s (%" PRIu32 ")",
		  where, what, m->name, (uint64_t)src->size, (uint64_t)(src->size / 4), per_what, per);
}

static void check_counts_of_set(wl_lint_ctx *ctx, const w3d_mesh *m, const w3d_material_set *ms)
{
	wl_findings *f = &ctx->doc->findings;
	const w3d_material_info *mi = &ms->info;
	bool counts = w3d_mesh_header_has_counts(&m->header);
	uint64_t info_off = mi->src ? wl_chunk_payload_offset(mi->src) : 0;

	if (mi->src && mi->src->size >= 4 && mi->pass_count != ms->pass_count)
		wl_report(f, WLR_MATERIAL_PASS_COUNT_MISMATCH, mi->src, -1, info_off, 4,
			  "material info of mesh '%s' says %" PRIu32 " passes, but %zu material pass "
			  "chunks follow",
			  m->name, mi->pass_count, ms->pass_count);
	if (mi->src && mi->src->size >= 12) {
		size_t have = ms->shaders.src ? ms->shaders.count : 0;
		if (mi->shader_count != have)
			wl_report(f, WLR_MATERIAL_SHADER_COUNT_MISMATCH, mi->src, -1, info_off + 8, 4,
				  "material info of mesh '%s' says %" PRIu32 " shaders, but the shaders "
				  "chunk holds %zu",
				  m->name, mi->shader_count, have);
	}
	if (mi->src && mi->src->size >= 8 && mi->vertex_material_count != ms->vertex_material_count)
		wl_report(f, WLR_MATERIAL_COUNT_MISMATCH, mi->src, -1, info_off + 4, 4,
			  "material info of mesh '%s' says %" PRIu32 " vertex materials, but %zu "
			  "vertex material chunks follow",
			  m->name, mi->vertex_material_count, ms->vertex_material_count);
	if (mi->src && mi->src->size >= 16 && mi->texture_count != ms->texture_count)
		wl_report(f, WLR_MATERIAL_COUNT_MISMATCH, mi->src, -1, info_off + 12, 4,
			  "material info of mesh '%s' says %" PRIu32 " textures, but %zu texture "
			  "chunks follow",
			  m->name, mi->texture_count, ms->texture_count);

	if (ms->pass_count > W3D_MAX_PASSES) {
		const wl_chunk *p = ms->passes[W3D_MAX_PASSES].src;
		wl_report(f, WLR_MATERIAL_PASS_LIMIT, p, -1, p->offset, chunk_len(p),
			  "mesh '%s' has %zu material passes; the engine holds at most %d",
			  m->name, ms->pass_count, W3D_MAX_PASSES);
	}

	for (size_t i = 0; i < ms->pass_count; i++) {
		const w3d_material_pass *ps = &ms->passes[i];
		if (ps->stage_count > W3D_MAX_TEX_STAGES) {
			const wl_chunk *s = ps->stages[W3D_MAX_TEX_STAGES].src;
			wl_report(f, WLR_TEXTURE_STAGE_LIMIT, s, -1, s->offset, chunk_len(s),
				  "pass %zu of mesh '%s' has %zu texture stages; the engine holds at "
				  "most %d",
				  i, m->name, ps->stage_count, W3D_MAX_TEX_STAGES);
		}
		if (!counts)
			continue;
		uint32_t nv = m->header.num_vertices, nt = m->header.num_tris;
		vertex_array(ctx, m, ps->dcg.src, ps->dcg.count, "diffuse colors (dcg)");
		vertex_array(ctx, m, ps->dig.src, ps->dig.count, "diffuse illumination (dig)");
		vertex_array(ctx, m, ps->texcoords.src, ps->texcoords.count, "texture coordinates");
		id_array(ctx, m, ps->vertex_material_ids.src, nv, "vertex material ids", "vertex", i,
			 SIZE_MAX);
		id_array(ctx, m, ps->shader_ids.src, nt, "shader ids", "triangle", i, SIZE_MAX);
		for (size_t s = 0; s < ps->stage_count; s++) {
			const w3d_texture_stage *st = &ps->stages[s];
			vertex_array(ctx, m, st->texcoords.src, st->texcoords.count,
				     "texture coordinates");
			id_array(ctx, m, st->texture_ids.src, nt, "texture ids", "triangle", i, s);
			const wl_chunk *pf = st->per_face_texcoord_ids;
			if (pf && pf->size != (uint64_t)nt * 12)
				wl_report(f, WLR_MATERIAL_ID_ARRAY_LENGTH, pf, -1, pf->offset,
					  chunk_len(pf),
					  "pass %zu stage %zu per-face texcoord ids of mesh '%s' hold %" PRIu64
					  " bytes, but must hold 12 per triangle (%" PRIu64 ")",
					  i, s, m->name, (uint64_t)pf->size, (uint64_t)nt * 12);
		}
	}
}

static void check_header(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	const wl_chunk *c = m->src;
	if (!m->header.src) {
		wl_report(&ctx->doc->findings, WLR_MESH_HEADER_MISSING, c, -1, c->offset, chunk_len(c),
			  "mesh has no mesh header (MESH_HEADER3); the engine rejects it as an old "
			  "format mesh");
		return;
	}
	const wl_chunk *first = c->first_child;
	while (first && first->kind != WL_NODE_CHUNK)
		first = first->next;
	if (first && first->id != W3D_CHUNK_MESH_HEADER3)
		wl_report(&ctx->doc->findings, WLR_MESH_HEADER_NOT_FIRST, first, -1, first->offset,
			  chunk_len(first),
			  "the first chunk of mesh '%s' is %s, not the mesh header; the engine "
			  "rejects the mesh",
			  m->name, wl_chunk_name(ctx->doc, first));
}

static void check_triangles(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	const w3d_mesh_header *h = &m->header;
	bool counts = w3d_mesh_header_has_counts(h);
	if (counts && m->triangles_src && m->triangle_count != h->num_tris)
		wl_report(&ctx->doc->findings, WLR_MESH_TRIANGLE_COUNT_MISMATCH, m->triangles_src, -1,
			  m->triangles_src->offset, chunk_len(m->triangles_src),
			  "triangles of mesh '%s' hold %zu entries, but the mesh header says %" PRIu32
			  " triangles",
			  m->name, m->triangle_count, h->num_tris);

	if (!m->triangles_src || !wl_lint_enabled(ctx, WLR_TRIANGLE_INDEX_OUT_OF_RANGE))
		return;
	/* The engine's arrays hold NumVertices vertices, of which only those in
	 * VERTICES are initialised: the usable count is the smaller one. */
	uint64_t nv;
	if (m->vertices.src && counts)
		nv = m->vertices.count < h->num_vertices ? m->vertices.count : h->num_vertices;
	else if (m->vertices.src)
		nv = m->vertices.count;
	else if (counts)
		nv = h->num_vertices;
	else
		return;
	uint64_t base = wl_chunk_payload_offset(m->triangles_src);
	const w3d_triangle *t = m->triangles;
	for (size_t i = 0; i < m->triangle_count; i++) {
		if (t[i].vindex[0] < nv && t[i].vindex[1] < nv && t[i].vindex[2] < nv)
			continue;
		for (int k = 0; k < 3; k++)
			if (t[i].vindex[k] >= nv)
				wl_report(&ctx->doc->findings, WLR_TRIANGLE_INDEX_OUT_OF_RANGE,
					  m->triangles_src, (int64_t)i, base + (uint64_t)i * W3D_TRI_SIZE + 4u * (unsigned)k,
					  4,
					  "triangle %zu vertex index %d is %" PRIu32 ", but the mesh has %" PRIu64
					  " vertices",
					  i, k, t[i].vindex[k], nv);
	}
}

/* The header counts themselves (B1, B2, B3): NumTris at payload +40,
 * NumVertices at +44 (W3dMeshHeader3Struct, w3d_file.h:1139-1170). */
static void check_header_counts(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	wl_findings *f = &ctx->doc->findings;
	const w3d_mesh_header *h = &m->header;
	const wl_chunk *hc = h->src;
	uint64_t base = wl_chunk_payload_offset(hc);
	if (h->num_tris == 0 || h->num_vertices == 0)
		wl_report(f, WLR_MESH_EMPTY, hc, -1, base + (h->num_tris == 0 ? 40 : 44), 4,
			  "mesh '%s' header says %" PRIu32 " triangles and %" PRIu32 " vertices; the "
			  "engine allocates no arrays for an empty mesh and dereferences them later",
			  m->name, h->num_tris, h->num_vertices);
	if (h->num_vertices > 65536)
		wl_report(f, WLR_MESH_TOO_MANY_VERTICES, hc, -1, base + 44, 4,
			  "mesh '%s' header says %" PRIu32 " vertices; the engine stores vertex indices "
			  "in 16 bits, so at most 65536 vertices can be addressed",
			  m->name, h->num_vertices);
	if (h->num_vertices > 0 && !m->vertices.src)
		wl_report(f, WLR_MESH_ARRAY_MISSING, hc, -1, base + 44, 4,
			  "mesh '%s' header says %" PRIu32 " vertices but the mesh has no VERTICES chunk",
			  m->name, h->num_vertices);
	if (h->num_tris > 0 && !m->triangles_src)
		wl_report(f, WLR_MESH_ARRAY_MISSING, hc, -1, base + 40, 4,
			  "mesh '%s' header says %" PRIu32 " triangles but the mesh has no TRIANGLES chunk",
			  m->name, h->num_tris);
}

static void check_mesh(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	check_header(ctx, m);
	if (w3d_mesh_header_has_counts(&m->header)) {
		check_header_counts(ctx, m);
		vertex_array(ctx, m, m->vertices.src, m->vertices.count, "vertices");
		vertex_array(ctx, m, m->normals.src, m->normals.count, "vertex normals");
		vertex_array(ctx, m, m->shade_indices.src, m->shade_indices.count,
			     "vertex shade indices");
		vertex_array(ctx, m, m->influences.src, m->influences.count, "vertex influences");
		vertex_array(ctx, m, m->influences_ext.src, m->influences_ext.count,
			     "extended vertex influences");
	}
	check_triangles(ctx, m);
	check_counts_of_set(ctx, m, &m->materials);
	for (int i = 0; i < W3D_PRELIT_KINDS; i++)
		if (m->prelit[i].src)
			check_counts_of_set(ctx, m, &m->prelit[i]);
}

void w3d_check_mesh(wl_lint_ctx *ctx)
{
	const w3d_model *model = ctx->model;
	if (!model)
		return;
	for (size_t i = 0; i < model->mesh_count; i++)
		if (model->meshes[i])
			check_mesh(ctx, model->meshes[i]);
}
