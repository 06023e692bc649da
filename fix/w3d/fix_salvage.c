/*
 * fix_salvage.c - unsafe fixer "salvage-mesh": a mesh whose arrays were cut
 * (a file cut by the end, drop-unreadable keeping whole elements only;
 * docs/w3dfix.md "Salvage") is made consistent with what it kept.
 *
 * For each mesh with a mesh-vertex-count-mismatch, mesh-triangle-count-
 * mismatch, mesh-array-missing or material-id-array-length finding
 * (rules/mesh.yaml), the geometry decides what is kept:
 *   - the vertex count n is the shortest of VERTICES, VERTEX_NORMALS,
 *     VERTEX_INFLUENCES(_EXTENDED), SECONDARY_VERTICES and SECONDARY_
 *     VERTEX_NORMALS present, 0 without VERTICES; every longer per-vertex
 *     array is cut to n; optional per-vertex data shorter than n is
 *     removed instead of costing vertices: VERTEX_SHADE_INDICES,
 *     VERTEX_COLORS, TANGENTS, BITANGENTS, and the material data the
 *     engine loads a pass without - DCG, DIG, texture coordinates of a pass
 *     or stage (no UV array is installed; dx8renderer.cpp:1083-1091 copies
 *     only arrays that exist) and per-vertex VERTEX_MATERIAL_IDS (a pass
 *     with no vertex material gets a default one, meshmatdesc.cpp:653-655);
 *   - a triangle is kept when every per-triangle array has it (TRIANGLES,
 *     and the SHADER_IDS, SHADER_MATERIAL_IDS, TEXTURE_IDS and
 *     PER_FACE_TEXCOORD_IDS that are not a single id: a pass without its
 *     shader ids keeps shader 0, meshmatdesc.cpp:200) and its three vertex
 *     indices are below n; every per-triangle array keeps the same triangles;
 *   - MESH_HEADER3 NumVertices (+44) := n when VERTICES is present, NumTris
 *     (+40) := triangles kept when TRIANGLES is present (without it NumTris
 *     and the per-triangle arrays stay: mesh-array-missing says why the
 *     mesh cannot load, and a count of 0 would crash the engine, B1).
 * Each array cut is noted with the element count and the bytes dropped.
 * The AABTree is then rebuilt by rebuild-aabtree (fix_aabtree.c), the
 * bounds by recompute-bounds, later in the order.
 */
#include "fixers.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/mesh.h"
#include "core/w3d/model.h"

#define MAX_ARRAYS 128

typedef struct arr {
	const wl_chunk *src;
	size_t elem;   /* bytes per element */
	bool per_tri;
	bool optional; /* per-vertex data the mesh loads without: removed
	                  when short, instead of costing vertices */
	wl_rule_id rule; /* the rule its edits are noted under */
} arr;

typedef struct arrays {
	arr a[MAX_ARRAYS];
	size_t n;
} arrays;

static void add(arrays *l, const wl_chunk *src, size_t elem, bool per_tri)
{
	if (src && elem && l->n < MAX_ARRAYS && src->size % elem == 0)
		l->a[l->n++] = (arr){ src, elem, per_tri, false,
				      per_tri ? WLR_MESH_TRIANGLE_COUNT_MISMATCH : WLR_MESH_VERTEX_COUNT_MISMATCH };
}

static void add_optional(arrays *l, const wl_chunk *src, size_t elem)
{
	add(l, src, elem, false);
	if (l->n && l->a[l->n - 1].src == src)
		l->a[l->n - 1].optional = true;
}

/* VERTEX_MATERIAL_IDS: one id per vertex unless a single id (4 bytes);
 * optional (a pass without them gets a default vertex material,
 * meshmatdesc.cpp:653-655). */
static void add_vmat_ids(arrays *l, const w3d_u32_array *ids)
{
	if (!ids->src || ids->src->size == 4)
		return;
	add_optional(l, ids->src, 4);
	if (l->n && l->a[l->n - 1].src == ids->src)
		l->a[l->n - 1].rule = WLR_MATERIAL_ID_ARRAY_LENGTH;
}

/* A per-triangle id array; a single id (4 bytes) applies to all. */
static void add_ids(arrays *l, const w3d_u32_array *ids)
{
	if (!ids->src || ids->src->size == 4)
		return;
	add(l, ids->src, 4, true);
	if (l->n && l->a[l->n - 1].src == ids->src)
		l->a[l->n - 1].rule = WLR_MATERIAL_ID_ARRAY_LENGTH;
}

static void add_set(arrays *l, const w3d_material_set *ms)
{
	for (size_t i = 0; i < ms->pass_count; i++) {
		const w3d_material_pass *p = &ms->passes[i];
		add_vmat_ids(l, &p->vertex_material_ids);
		add_optional(l, p->dcg.src, 4);
		add_optional(l, p->dig.src, 4);
		add_optional(l, p->texcoords.src, 8);
		add_ids(l, &p->shader_ids);
		add_ids(l, &p->shader_material_ids);
		for (size_t s = 0; s < p->stage_count; s++) {
			add_optional(l, p->stages[s].texcoords.src, 8);
			add_ids(l, &p->stages[s].texture_ids);
			add(l, p->stages[s].per_face_texcoord_ids, 12, true);
		}
	}
}

static void collect(arrays *l, const w3d_mesh *m)
{
	add(l, m->vertices.src, 12, false);
	add(l, m->normals.src, 12, false);
	add_optional(l, m->shade_indices.src, 4);
	add(l, m->influences.src, 8, false);
	add(l, m->influences_ext.src, m->influences_ext.src && m->influences_ext.count ?
		m->influences_ext.src->size / m->influences_ext.count : 0, false);
	add_optional(l, m->vertex_colors.src, 4);
	add_optional(l, m->tangents.src, 12);
	add_optional(l, m->bitangents.src, 12);
	add(l, m->secondary_vertices.src, 12, false);
	add(l, m->secondary_normals.src, 12, false);
	add(l, m->triangles_src, W3D_TRI_SIZE, true);
	add_set(l, &m->materials);
	for (int i = 0; i < W3D_PRELIT_KINDS; i++)
		if (m->prelit[i].src)
			add_set(l, &m->prelit[i]);
}

static bool in_mesh(const wl_chunk *c, const wl_chunk *mesh)
{
	for (; c; c = c->parent)
		if (c == mesh)
			return true;
	return false;
}

static bool mesh_flagged(const wl_fix_ctx *x, const w3d_mesh *m)
{
	static const wl_rule_id rules[] = { WLR_MESH_VERTEX_COUNT_MISMATCH, WLR_MESH_TRIANGLE_COUNT_MISMATCH,
					     WLR_MESH_ARRAY_MISSING, WLR_MATERIAL_ID_ARRAY_LENGTH, WL_RULE_NONE };
	const wl_findings *fs = &x->doc->findings;
	for (size_t i = 0; i < fs->count; i++)
		for (const wl_rule_id *r = rules; *r; r++)
			if (fs->items[i].rule_id == *r && wl_fix_filter_allows(x->filter, wl_rule_name(*r)) &&
			    in_mesh(fs->items[i].chunk, m->src))
				return true;
	return false;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Keeps the elements of a whose keep[] is set (per-triangle; keep holds
 * nkeep entries, the elements past them go) or its first n (per-vertex);
 * notes the change. */
static int cut(wl_fix_ctx *x, const arr *a, const uint8_t *keep, size_t nkeep, size_t n)
{
	wl_chunk *c = wl_fix_mut(x->doc, a->src);
	size_t len;
	const uint8_t *p = c ? wl_edit_payload(x->doc, c, &len) : NULL;
	if (!p || len % a->elem)
		return 0;
	size_t count = len / a->elem, out = 0;
	uint8_t *q = malloc(len ? len : 1);
	if (!q) {
		x->doc->oom = true;
		return -1;
	}
	for (size_t i = 0; i < count; i++)
		if (a->per_tri ? i < nkeep && keep[i] : i < n)
			memcpy(q + a->elem * out++, p + a->elem * i, a->elem);
	int rc = 0;
	if (out < count) {
		rc = wl_edit_set_payload(x->doc, c, q, out * a->elem);
		if (rc == 0)
			rc = wl_edit_note(x->doc, c, a->rule, c->offset + 4, "%s: %zu -> %zu elements (%zu byte(s) dropped)%s",
					  wl_chunk_name(x->doc, c), count, out, (count - out) * a->elem,
					  a->per_tri ? ", triangles on lost vertices or cut in another array" : "");
	}
	free(q);
	return rc;
}

/* Removes an optional per-vertex array shorter than the n vertices kept. */
static int drop_short(wl_fix_ctx *x, const arr *a, size_t n)
{
	wl_chunk *c = wl_fix_mut(x->doc, a->src);
	if (!c)
		return 0;
	if (wl_edit_note(x->doc, c, a->rule, c->offset,
			 "%s: %" PRIu64 " of %zu vertices: removed (optional; bytes 0x%" PRIX64 "..0x%" PRIX64 ")",
			 wl_chunk_name(x->doc, c), (uint64_t)(c->size / a->elem), n, (uint64_t)c->offset, wl_chunk_end(c)) != 0)
		return -1;
	return wl_edit_remove(x->doc, c);
}

static int patch_count(wl_fix_ctx *x, const wl_chunk *hc, size_t at, uint32_t v, wl_rule_id rule,
		       const char *field)
{
	wl_chunk *c = wl_fix_mut(x->doc, hc);
	size_t len;
	if (!c || (wl_edit_payload(x->doc, c, &len), len < at + 4))
		return 0;
	uint32_t old;
	const uint8_t *p = wl_edit_payload(x->doc, c, &len);
	if (le32(p + at) == v)
		return 0;
	if (wl_fix_patch_u32(x->doc, c, at, v, &old) != 0)
		return -1;
	return wl_edit_note(x->doc, c, rule, wl_chunk_payload_offset(c) + at, "%s: %" PRIu32 " -> %" PRIu32
			    " (what the salvaged arrays hold)", field, old, v);
}

static int salvage_mesh(wl_fix_ctx *x, const w3d_mesh *m)
{
	if (!m->header.src || m->header_chunk_count != 1 || !mesh_flagged(x, m))
		return 0;
	arrays l = { .n = 0 };
	collect(&l, m);
	size_t nv = m->vertices.src ? SIZE_MAX : 0, nt = SIZE_MAX;
	for (size_t i = 0; i < l.n; i++) {
		size_t cnt = (size_t)(l.a[i].src->size / l.a[i].elem);
		if (l.a[i].optional)
			continue;
		if (l.a[i].per_tri ? cnt < nt : cnt < nv) {
			if (l.a[i].per_tri)
				nt = cnt;
			else
				nv = cnt;
		}
	}
	if (nv > 65536)
		nv = nv == SIZE_MAX ? 0 : 65536;
	if (!m->triangles_src || nt > m->triangle_count)
		nt = m->triangles_src ? m->triangle_count : 0;
	uint8_t *keep = calloc(nt ? nt : 1, 1);
	if (!keep) {
		x->doc->oom = true;
		return -1;
	}
	size_t kept = 0;
	for (size_t i = 0; i < nt && i < m->triangle_count; i++) {
		const w3d_triangle *t = &m->triangles[i];
		keep[i] = t->vindex[0] < nv && t->vindex[1] < nv && t->vindex[2] < nv;
		kept += keep[i];
	}
	int rc = 0;
	/* Without TRIANGLES the per-triangle arrays and NumTris stay (and so
	 * does mesh-array-missing, the reason the mesh cannot load); without
	 * VERTICES, NumVertices. */
	for (size_t i = 0; i < l.n && rc == 0; i++)
		if (!l.a[i].per_tri || m->triangles_src)
			rc = l.a[i].optional && l.a[i].src->size / l.a[i].elem < nv ? drop_short(x, &l.a[i], nv)
										      : cut(x, &l.a[i], keep, nt, nv);
	free(keep);
	if (rc == 0 && m->vertices.src)
		rc = patch_count(x, m->header.src, 44, (uint32_t)nv, WLR_MESH_VERTEX_COUNT_MISMATCH, "numvertices");
	if (rc == 0 && m->triangles_src)
		rc = patch_count(x, m->header.src, 40, (uint32_t)kept, WLR_MESH_TRIANGLE_COUNT_MISMATCH, "numtris");
	return rc;
}

static int apply_salvage(wl_fix_ctx *x)
{
	const w3d_model *md = x->model;
	if (!md)
		return 0;
	for (size_t i = 0; i < md->mesh_count; i++)
		if (salvage_mesh(x, md->meshes[i]) != 0)
			return -1;
	return 0;
}

const wl_fixer w3d_fix_salvage_mesh = {
	"salvage-mesh", true,
	"cut a mesh's arrays to what all of them hold, drop the triangles on lost vertices, set the counts",
	apply_salvage
};
