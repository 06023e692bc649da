/*
 * check_skin.c - skin meshes (rules/skin.yaml; notes/w3d_reference.md §2.1,
 * §5.2, §3 B15, B16):
 *
 *   skin-influences-missing   B15: geometry type SKIN without a
 *                             VERTEX_INFLUENCES (0x0E) chunk, nor the W3D
 *                             Hub VERTEX_INFLUENCES_EXTENDED (0x0C03)
 *   skin-influences-extended-only  a SKIN whose bone links are only in
 *                             0x0C03, which the retail loaders skip (off
 *                             for w3dhub; reported over the 0x0C03 chunk)
 *   influences-without-skin   B15: VERTEX_INFLUENCES present on a mesh whose
 *                             geometry type is not SKIN
 *   skin-bone-out-of-range    B16: a bone index of VERTEX_INFLUENCES is not
 *                             below the pivot count of the hierarchy of an
 *                             HLOD in the same file that uses the mesh (an
 *                             HLOD without HierarchyName gets the engine's
 *                             default one-pivot tree)
 *   skin-vertices-not-grouped B17: the vertices of a skin are not grouped
 *                             by bone (a bone's vertices come in more than
 *                             one run): the deformation batches runs of one
 *                             bone, so more runs cost more matrix set-ups
 *
 * Across files the same relation is checked by lint/xref.c
 * (reference-bone-out-of-range).  Offsets: geometry type in
 * MESH_HEADER3.Attributes (payload + 4); influence record v at
 * VERTEX_INFLUENCES payload + 8 v, bone[0] at + 0, bone[1] (two-bone layout)
 * at + 2.  skin-bone-out-of-range reports each bone field out of range;
 * skin-vertices-not-grouped reports each vertex that starts a run of a bone
 * (bone[0], the primary bone in every layout) that already had a run before.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "checks.h"
#include "core/w3d/model_lookup.h"

void w3d_check_skin(wl_lint_ctx *ctx);

static void check_bones(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	uint32_t max_bone;
	size_t vertex;
	int slot;
	if (!wl_mesh_max_bone(m, &max_bone, &vertex, &slot))
		return;
	const w3d_hlod *h = wl_mesh_owner_hlod(ctx->model, m->name);
	if (!h)
		return;
	uint32_t pivots;
	const char *tree;
	if (!h->hierarchy_name || !h->hierarchy_name[0]) {
		pivots = 1; /* the default tree (animobj.cpp:105-119) */
		tree = "the default one-pivot hierarchy";
	} else {
		const w3d_hierarchy *hier = wl_find_hierarchy(ctx->model, h->hierarchy_name, NULL);
		if (!hier)
			return; /* in another file: lint/xref.c */
		pivots = wl_hierarchy_pivots(hier);
		tree = "its hierarchy";
	}
	if (max_bone < pivots)
		return;
	const w3d_influence_array *a = &m->influences;
	uint64_t base = wl_chunk_payload_offset(a->src);
	for (size_t i = 0; i < a->count; i++)
		for (int k = 0; k < 2; k++) {
			uint32_t bone = a->v[i].bone[k];
			if (bone < pivots || (k == 1 && (a->layout != W3D_INFLUENCE_TWO_BONE || !a->v[i].weight[1])))
				continue;
			wl_report(&ctx->doc->findings, WLR_SKIN_BONE_OUT_OF_RANGE, a->src, (int64_t)i,
				  base + (uint64_t)i * W3D_VERTINF_SIZE + 2u * (uint64_t)k, 2,
				  "vertex %zu of skin mesh '%s' uses bone %" PRIu32 ", but hlod '%s' gives it %s '%s' "
				  "with %" PRIu32 " pivots",
				  i, m->name, bone, h->name, tree, h->hierarchy_name ? h->hierarchy_name : "", pivots);
		}
}

/* skin-vertices-not-grouped: runs of equal bone[0] against distinct bones. */
static void check_grouping(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	const w3d_influence_array *a = &m->influences;
	if (a->count < 2)
		return;
	static const size_t words = 65536 / 32;
	uint32_t *seen = calloc(words, sizeof *seen);
	if (!seen) {
		ctx->doc->findings.oom = 1;
		return;
	}
	uint64_t base = wl_chunk_payload_offset(a->src);
	for (size_t v = 0; v < a->count; v++) {
		unsigned b = a->v[v].bone[0];
		if (v > 0 && b == a->v[v - 1].bone[0])
			continue;
		if (seen[b / 32] & (1u << (b % 32)))
			wl_report(&ctx->doc->findings, WLR_SKIN_VERTICES_NOT_GROUPED, a->src, (int64_t)v,
				  base + (uint64_t)v * W3D_VERTINF_SIZE, 2,
				  "vertex %zu of skin mesh '%s' returns to bone %u after other bones", v, m->name, b);
		else
			seen[b / 32] |= 1u << (b % 32);
	}
	free(seen);
}

void w3d_check_skin(wl_lint_ctx *ctx)
{
	const w3d_model *model = ctx->model;
	if (!model)
		return;
	for (size_t i = 0; i < model->mesh_count; i++) {
		const w3d_mesh *m = model->meshes[i];
		if (!m || !m->header.src || m->header.bytes < 8)
			continue;
		const wl_chunk *hc = m->header.src;
		bool skin = wl_mesh_is_skin(m);
		if (skin && !m->influences.src && m->influences_ext.src)
			wl_report(&ctx->doc->findings, WLR_SKIN_INFLUENCES_EXTENDED_ONLY, m->influences_ext.src, -1,
				  m->influences_ext.src->offset,
				  (uint64_t)m->influences_ext.src->header_size + m->influences_ext.src->size,
				  "skin mesh '%s' has its bone links only in vertex_influences_extended (0x0c03), "
				  "which the retail loaders skip: the skin is drawn undeformed, and a decal on it "
				  "dereferences the missing links",
				  m->name);
		else if (skin && !m->influences.src)
			wl_report(&ctx->doc->findings, WLR_SKIN_INFLUENCES_MISSING, hc, -1,
				  wl_chunk_payload_offset(hc) + 4, 4,
				  "mesh '%s' has geometry type skin but no vertex influences; the engine "
				  "dereferences the missing bone links when it deforms the mesh",
				  m->name);
		else if (!skin && m->influences.src)
			wl_report(&ctx->doc->findings, WLR_INFLUENCES_WITHOUT_SKIN, m->influences.src, -1,
				  m->influences.src->offset,
				  (uint64_t)m->influences.src->header_size + m->influences.src->size,
				  "mesh '%s' has vertex influences but geometry type 0x%" PRIx32 ", not skin; "
				  "loading them turns the mesh into a skin",
				  m->name, (m->header.attributes & W3D_MESH_GEOMETRY_MASK) >> 16);
		check_bones(ctx, m);
		if (skin && m->influences.src && wl_lint_enabled(ctx, WLR_SKIN_VERTICES_NOT_GROUPED))
			check_grouping(ctx, m);
	}
}
