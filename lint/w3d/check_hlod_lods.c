/*
 * check_hlod_lods.c - HLOD level-of-detail order, bone indices and names
 * (rules/hlod_lods.yaml; notes/w3d_reference.md §2.7, §3 G2, G5-G7, G9):
 *
 *   hlod-lod-order              G2: MaxScreenSize decreases from one LOD
 *                               array to the next (array 0 is the lowest
 *                               detail)
 *   hlod-top-lod-screen-size    G2: the last (top) LOD array's MaxScreenSize
 *                               is not NO_MAX_SCREEN_SIZE (FLT_MAX)
 *   hlod-bone-index-out-of-range G5, G7: a sub-object's BoneIndex is not
 *                               below the pivot count of the HLOD's
 *                               hierarchy when that hierarchy is in the same
 *                               file; an empty HierarchyName gives the
 *                               default one-pivot tree, so only BoneIndex 0
 *   hlod-hierarchy-name-case    G6: HierarchyName matches the hierarchy of
 *                               the same file only when letter case is ignored
 *   hlod-version                G9: Version is not 1.0 (0x00010000)
 *
 * Offsets: SUB_OBJECT_ARRAY_HEADER payload: ModelCount + 0, MaxScreenSize
 * + 4; HLOD_SUB_OBJECT payload: BoneIndex + 0; HLOD_HEADER payload:
 * Version + 0, HierarchyName + 24.  Across files, lint/xref.c checks the
 * same bone indices (reference-bone-out-of-range).
 */
#include <float.h>
#include <inttypes.h>
#include <stdio.h>

#include "checks.h"
#include "core/w3d/model_lookup.h"

void w3d_check_hlod_lods(wl_lint_ctx *ctx);

#define HLOD_VERSION_1_0 0x00010000u

static void check_order(wl_lint_ctx *ctx, const w3d_hlod *h)
{
	wl_findings *f = &ctx->doc->findings;
	const w3d_hlod_array *prev = NULL;
	size_t prev_i = 0;
	for (size_t i = 0; i < h->lod_array_count; i++) {
		const w3d_hlod_array *a = &h->lods[i];
		if (!a->header_ok)
			continue;
		if (prev && a->max_screen_size < prev->max_screen_size)
			wl_report(f, WLR_HLOD_LOD_ORDER, a->header, -1, wl_chunk_payload_offset(a->header) + 4, 4,
				  "hlod '%s' lod array %zu has max screen size %g, smaller than %g of lod array %zu; "
				  "arrays go from the lowest detail to the highest",
				  h->name, i, (double)a->max_screen_size, (double)prev->max_screen_size, prev_i);
		prev = a;
		prev_i = i;
	}
	if (h->lod_array_count == 0)
		return;
	const w3d_hlod_array *top = &h->lods[h->lod_array_count - 1];
	if (top->header_ok && top->max_screen_size < FLT_MAX)
		wl_report(f, WLR_HLOD_TOP_LOD_SCREEN_SIZE, top->header, -1, wl_chunk_payload_offset(top->header) + 4, 4,
			  "hlod '%s' top lod array %zu has max screen size %g, not the no-limit value %g", h->name,
			  h->lod_array_count - 1, (double)top->max_screen_size, (double)FLT_MAX);
}

static void check_bones_of(wl_lint_ctx *ctx, const w3d_hlod *h, const w3d_hlod_array *arr, size_t n,
			   const char *kind, uint32_t pivots, const char *tree)
{
	for (size_t a = 0; a < n; a++)
		for (size_t s = 0; s < arr[a].sub_count; s++) {
			const w3d_hlod_sub_object *so = &arr[a].subs[s];
			if (!so->ok || so->bone_index < pivots)
				continue;
			wl_report(&ctx->doc->findings, WLR_HLOD_BONE_INDEX_OUT_OF_RANGE, so->src, -1,
				  wl_chunk_payload_offset(so->src), 4,
				  "hlod '%s' %s array %zu sub-object '%s' has bone index %" PRIu32 ", but %s has "
				  "%" PRIu32 " pivot%s",
				  h->name, kind, a, so->name, so->bone_index, tree, pivots, pivots == 1 ? "" : "s");
		}
}

static void check_hierarchy(wl_lint_ctx *ctx, const w3d_hlod *h)
{
	uint32_t pivots;
	char tree[64];
	if (!h->hierarchy_name[0]) {
		pivots = 1; /* default tree (animobj.cpp:105-119) */
		snprintf(tree, sizeof tree, "the default hierarchy (no hierarchy name)");
	} else {
		bool exact;
		const w3d_hierarchy *hier = wl_find_hierarchy(ctx->model, h->hierarchy_name, &exact);
		if (!hier)
			return; /* another file: lint/xref.c */
		if (!exact)
			wl_report(&ctx->doc->findings, WLR_HLOD_HIERARCHY_NAME_CASE, h->header, -1,
				  wl_chunk_payload_offset(h->header) + 24, 16,
				  "hlod '%s' names hierarchy '%s', but the hierarchy is called '%s'", h->name,
				  h->hierarchy_name, hier->name);
		pivots = wl_hierarchy_pivots(hier);
		snprintf(tree, sizeof tree, "hierarchy '%s'", hier->name);
	}
	check_bones_of(ctx, h, h->lods, h->lod_array_count, "lod", pivots, tree);
	check_bones_of(ctx, h, h->aggregates, h->aggregate_count, "aggregate", pivots, tree);
	check_bones_of(ctx, h, h->proxies, h->proxy_count, "proxy", pivots, tree);
}

void w3d_check_hlod_lods(wl_lint_ctx *ctx)
{
	const w3d_model *m = ctx->model;
	if (!m)
		return;
	for (size_t i = 0; i < m->hlod_count; i++) {
		const w3d_hlod *h = m->hlods[i];
		if (!h || !h->header_ok)
			continue;
		if (h->version != HLOD_VERSION_1_0)
			wl_report(&ctx->doc->findings, WLR_HLOD_VERSION, h->header, -1,
				  wl_chunk_payload_offset(h->header), 4,
				  "hlod '%s' has version 0x%08" PRIx32 ", not 1.0 (0x00010000)", h->name, h->version);
		check_order(ctx, h);
		check_hierarchy(ctx, h);
	}
}
