/*
 * fix_counts.c - header counts that disagree with the arrays they govern,
 * where the arrays are the truth (rules/mesh.yaml, hierarchy.yaml,
 * hlod.yaml, aabtree.yaml; the comparisons are those of lint/w3d/check_*.c).
 *
 * Safe fixer "header-counts":
 *   mesh-vertex-count-mismatch    MESH_HEADER3 NumVertices (+44) := the
 *       element count of the per-vertex arrays, only when every per-vertex
 *       array present (VERTICES, VERTEX_NORMALS, VERTEX_SHADE_INDICES,
 *       VERTEX_INFLUENCES(_EXTENDED), DCG, DIG, texture coordinates of every
 *       pass and stage) holds the same count, VERTICES is among them, and
 *       the count is 1..65536 (16-bit indices, B3).
 *   mesh-triangle-count-mismatch  MESH_HEADER3 NumTris (+40) := TRIANGLES'
 *       element count when every per-triangle array that is not a single id
 *       (SHADER_IDS, TEXTURE_IDS: 4 bytes each; PER_FACE_TEXCOORD_IDS: 12)
 *       agrees with it and it is not 0.
 *   material-pass-count-mismatch, material-count-mismatch,
 *   material-shader-count-mismatch  MATERIAL_INFO PassCount (+0),
 *       VertexMaterialCount (+4), ShaderCount (+8), TextureCount (+12) :=
 *       the MATERIAL_PASS / VERTEX_MATERIAL chunks, SHADERS records, TEXTURE
 *       chunks of the same scope (mesh or PRELIT_* wrapper).
 *   pivot-count-mismatch          HIERARCHY_HEADER NumPivots (+20) := PIVOTS
 *       element count (60 bytes each), when PIVOTS is present.
 *   hlod-lod-count-mismatch       HLOD_HEADER LodCount (+4) := the
 *       HLOD_LOD_ARRAY chunks.
 *   hlod-model-count-mismatch     HLOD_SUB_OBJECT_ARRAY_HEADER ModelCount
 *       (+0) := the HLOD_SUB_OBJECT chunks of that array, when the header
 *       says more than there are (fewer is hlod-sub-objects-ignored: which
 *       sub-objects the engine loads would change, so it is not touched).
 * Unsafe fixer "aabtree-header-counts":
 *   aabtree-count-mismatch        AABTREE_HEADER NodeCount (+0) / PolyCount
 *       (+4) := the AABTREE_NODES / AABTREE_POLYINDICES element counts, when
 *       those chunks are present.
 * A header field is only written when its chunk holds it (checked again on
 * the current payload).
 */
#include "fixers.h"

#include <inttypes.h>

#define NO_COUNT SIZE_MAX
#define MIXED (SIZE_MAX - 1)

/* Folds one array count into an agreement: NO_COUNT (nothing yet), the
 * common count, or MIXED. */
static void agree(size_t *acc, const void *src, size_t count)
{
	if (!src || *acc == MIXED)
		return;
	if (*acc == NO_COUNT)
		*acc = count;
	else if (*acc != count)
		*acc = MIXED;
}

static int patch(wl_fix_ctx *x, const wl_chunk *cc, size_t at, uint32_t v, wl_rule_id rule,
		 const char *field)
{
	wl_chunk *c = wl_fix_mut(x->doc, cc);
	if (!c)
		return 0;
	uint32_t old;
	size_t len;
	wl_edit_payload(x->doc, c, &len);
	if (len < at + 4)
		return 0;
	if (wl_fix_patch_u32(x->doc, c, at, v, &old) != 0)
		return -1;
	return wl_edit_note(x->doc, c, rule, wl_chunk_payload_offset(c) + at,
			    "%s: %" PRIu32 " -> %" PRIu32, field, old, v);
}

static void set_vertex_counts(size_t *acc, const w3d_material_set *ms)
{
	for (size_t i = 0; i < ms->pass_count; i++) {
		const w3d_material_pass *p = &ms->passes[i];
		agree(acc, p->dcg.src, p->dcg.count);
		agree(acc, p->dig.src, p->dig.count);
		agree(acc, p->texcoords.src, p->texcoords.count);
		for (size_t s = 0; s < p->stage_count; s++)
			agree(acc, p->stages[s].texcoords.src, p->stages[s].texcoords.count);
	}
}

static void id_count(size_t *acc, const w3d_u32_array *a)
{
	if (a->src && a->src->size != 4)
		agree(acc, a->src, a->src->size % 4 ? MIXED : (size_t)(a->src->size / 4));
}

static void set_tri_counts(size_t *acc, const w3d_material_set *ms)
{
	for (size_t i = 0; i < ms->pass_count; i++) {
		const w3d_material_pass *p = &ms->passes[i];
		id_count(acc, &p->shader_ids);
		id_count(acc, &p->shader_material_ids);
		for (size_t s = 0; s < p->stage_count; s++) {
			const w3d_texture_stage *st = &p->stages[s];
			id_count(acc, &st->texture_ids);
			const wl_chunk *pf = st->per_face_texcoord_ids;
			if (pf)
				agree(acc, pf, pf->size % 12 ? MIXED : (size_t)(pf->size / 12));
		}
	}
}

static const w3d_material_set *scope(const w3d_mesh *m, int i)
{
	if (i == 0)
		return &m->materials;
	return m->prelit[i - 1].src ? &m->prelit[i - 1] : NULL;
}

static int fix_mesh(wl_fix_ctx *x, const w3d_mesh *m)
{
	const w3d_mesh_header *h = &m->header;
	/* With two MESH_HEADER3 chunks it is not clear which one the counts
	 * belong to: leave them (mesh-header rules report it). */
	if (w3d_mesh_header_has_counts(h) && m->header_chunk_count == 1) {
		if (wl_fix_rule_wanted(x, WLR_MESH_VERTEX_COUNT_MISMATCH) && m->vertices.src) {
			size_t n = NO_COUNT;
			agree(&n, m->vertices.src, m->vertices.count);
			agree(&n, m->normals.src, m->normals.count);
			agree(&n, m->shade_indices.src, m->shade_indices.count);
			agree(&n, m->influences.src, m->influences.count);
			agree(&n, m->influences_ext.src, m->influences_ext.count);
			for (int i = 0; i <= W3D_PRELIT_KINDS; i++)
				if (scope(m, i))
					set_vertex_counts(&n, scope(m, i));
			if (n != MIXED && n != NO_COUNT && n >= 1 && n <= 65536 && n != h->num_vertices &&
			    patch(x, h->src, 44, (uint32_t)n, WLR_MESH_VERTEX_COUNT_MISMATCH, "numvertices") != 0)
				return -1;
		}
		if (wl_fix_rule_wanted(x, WLR_MESH_TRIANGLE_COUNT_MISMATCH) && m->triangles_src &&
		    m->triangles_src->size % W3D_TRI_SIZE == 0) {
			size_t n = NO_COUNT;
			agree(&n, m->triangles_src, m->triangle_count);
			for (int i = 0; i <= W3D_PRELIT_KINDS; i++)
				if (scope(m, i))
					set_tri_counts(&n, scope(m, i));
			if (n != MIXED && n != NO_COUNT && n >= 1 && n <= UINT32_MAX && n != h->num_tris &&
			    patch(x, h->src, 40, (uint32_t)n, WLR_MESH_TRIANGLE_COUNT_MISMATCH, "numtris") != 0)
				return -1;
		}
	}
	for (int i = 0; i <= W3D_PRELIT_KINDS; i++) {
		const w3d_material_set *ms = scope(m, i);
		if (!ms || !ms->info.src)
			continue;
		const w3d_material_info *mi = &ms->info;
		if (wl_fix_rule_wanted(x, WLR_MATERIAL_PASS_COUNT_MISMATCH) && mi->pass_count != ms->pass_count &&
		    patch(x, mi->src, 0, (uint32_t)ms->pass_count, WLR_MATERIAL_PASS_COUNT_MISMATCH,
			  "passcount") != 0)
			return -1;
		if (wl_fix_rule_wanted(x, WLR_MATERIAL_COUNT_MISMATCH)) {
			if (mi->vertex_material_count != ms->vertex_material_count &&
			    patch(x, mi->src, 4, (uint32_t)ms->vertex_material_count,
				  WLR_MATERIAL_COUNT_MISMATCH, "vertexmaterialcount") != 0)
				return -1;
			if (mi->texture_count != ms->texture_count &&
			    patch(x, mi->src, 12, (uint32_t)ms->texture_count, WLR_MATERIAL_COUNT_MISMATCH,
				  "texturecount") != 0)
				return -1;
		}
		size_t shaders = ms->shaders.src ? ms->shaders.count : 0;
		if (wl_fix_rule_wanted(x, WLR_MATERIAL_SHADER_COUNT_MISMATCH) && mi->shader_count != shaders &&
		    (!ms->shaders.src || ms->shaders.src->size % 16 == 0) &&
		    patch(x, mi->src, 8, (uint32_t)shaders, WLR_MATERIAL_SHADER_COUNT_MISMATCH,
			  "shadercount") != 0)
			return -1;
	}
	return 0;
}

static int apply_counts(wl_fix_ctx *x)
{
	const w3d_model *md = x->model;
	if (!md)
		return 0;
	for (size_t i = 0; i < md->mesh_count; i++)
		if (md->meshes[i] && fix_mesh(x, md->meshes[i]) != 0)
			return -1;
	if (wl_fix_rule_wanted(x, WLR_PIVOT_COUNT_MISMATCH))
		for (size_t i = 0; i < md->hierarchy_count; i++) {
			const w3d_hierarchy *h = md->hierarchies[i];
			if (h && h->header_ok && h->pivots_chunk && h->pivots_chunk->size % W3D_PIVOT_SIZE == 0 &&
			    h->num_pivots != h->pivot_count &&
			    patch(x, h->header, 20, (uint32_t)h->pivot_count, WLR_PIVOT_COUNT_MISMATCH,
				  "numpivots") != 0)
				return -1;
		}
	for (size_t i = 0; i < md->hlod_count; i++) {
		const w3d_hlod *h = md->hlods[i];
		if (!h)
			continue;
		if (wl_fix_rule_wanted(x, WLR_HLOD_LOD_COUNT_MISMATCH) && h->header_ok &&
		    h->lod_count != h->lod_array_count &&
		    patch(x, h->header, 4, (uint32_t)h->lod_array_count, WLR_HLOD_LOD_COUNT_MISMATCH,
			  "lodcount") != 0)
			return -1;
		if (!wl_fix_rule_wanted(x, WLR_HLOD_MODEL_COUNT_MISMATCH))
			continue;
		const w3d_hlod_array *sets[3] = { h->lods, h->aggregates, h->proxies };
		size_t counts[3] = { h->lod_array_count, h->aggregate_count, h->proxy_count };
		for (int s = 0; s < 3; s++)
			for (size_t j = 0; j < counts[s]; j++) {
				const w3d_hlod_array *a = &sets[s][j];
				if (a->header_ok && a->model_count > a->sub_count &&
				    patch(x, a->header, 0, (uint32_t)a->sub_count, WLR_HLOD_MODEL_COUNT_MISMATCH,
					  "modelcount") != 0)
					return -1;
			}
	}
	return 0;
}

static int apply_aabtree_counts(wl_fix_ctx *x)
{
	const w3d_model *md = x->model;
	if (!md || !wl_fix_rule_wanted(x, WLR_AABTREE_COUNT_MISMATCH))
		return 0;
	for (size_t i = 0; i < md->mesh_count; i++) {
		const w3d_mesh *m = md->meshes[i];
		if (!m || !m->aabtree.header_src || m->aabtree.header_src->size < 8)
			continue;
		const w3d_aabtree *t = &m->aabtree;
		/* Only when both counts end up agreeing with their arrays: a half
		 * repair would leave the rule's finding in place. */
		bool nodes_ok = t->node_array_count == t->node_count ||
				(t->nodes_src && t->nodes_src->size % 32 == 0);
		bool polys_ok = t->poly_indices.count == t->poly_count ||
				(t->poly_indices.src && t->poly_indices.src->size % 4 == 0);
		if (!nodes_ok || !polys_ok)
			continue;
		if (t->nodes_src && t->nodes_src->size % 32 == 0 && t->node_array_count != t->node_count &&
		    patch(x, t->header_src, 0, (uint32_t)t->node_array_count, WLR_AABTREE_COUNT_MISMATCH,
			  "nodecount") != 0)
			return -1;
		if (t->poly_indices.src && t->poly_indices.src->size % 4 == 0 &&
		    t->poly_indices.count != t->poly_count &&
		    patch(x, t->header_src, 4, (uint32_t)t->poly_indices.count, WLR_AABTREE_COUNT_MISMATCH,
			  "polycount") != 0)
			return -1;
	}
	return 0;
}

const wl_fixer w3d_fix_header_counts = {
	"header-counts", false,
	"set mesh, material, hierarchy and hlod header counts to the arrays they govern",
	apply_counts
};

const wl_fixer w3d_fix_aabtree_header_counts = {
	"aabtree-header-counts", true,
	"set aabtree_header nodecount and polycount to the node and poly index arrays",
	apply_aabtree_counts
};
