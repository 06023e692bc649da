/*
 * check_hlod.c - rules about HLOD and BOX objects (notes/w3d_reference.md
 * §2.7, §2.9, §3.G, §3.H):
 *
 *   hlod-header-missing             no HLOD_HEADER (A6)
 *   hlod-header-not-first           HLOD_HEADER is not the first sub-chunk (A6)
 *   hlod-lod-count-mismatch         header LodCount != number of LOD arrays (A6, G1)
 *   hlod-lod-arrays-not-contiguous  the LOD arrays do not directly follow the
 *                                   header, back to back (A6)
 *   hlod-array-header-missing       a LOD/aggregate/proxy array has no
 *                                   SUB_OBJECT_ARRAY_HEADER (A6)
 *   hlod-array-header-not-first     the array header is not its first child (A6)
 *   hlod-model-count-mismatch       ModelCount > sub-objects in the array (G3)
 *   hlod-sub-objects-ignored        ModelCount < sub-objects: the surplus is
 *                                   never loaded (G3)
 *   box-type-ambiguous              BOX attributes set both or neither of
 *                                   ORIENTED and ALIGNED (H1)
 *   box-extent-negative             a BOX extent component is negative or
 *                                   not finite (H1)
 */
#include <math.h>

#include "checks.h"

void w3d_check_hlod(wl_lint_ctx *ctx);

static const wl_chunk *first_chunk(const wl_chunk *c)
{
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK)
			return k;
	return NULL;
}

static const char *array_kind(const w3d_hlod_array *a)
{
	return a->kind == W3D_HLOD_LOD ? "lod" : a->kind == W3D_HLOD_AGGREGATE ? "aggregate" : "proxy";
}

static void check_array(wl_lint_ctx *ctx, const w3d_hlod *h, const w3d_hlod_array *a, size_t index)
{
	wl_findings *f = &ctx->doc->findings;
	const wl_chunk *c = a->src;
	if (!a->header) {
		wl_report(f, WLR_HLOD_ARRAY_HEADER_MISSING, c, -1, c->offset, c->header_size,
			  "hlod '%s' %s array %zu has no sub_object_array_header", h->name, array_kind(a), index);
		return;
	}
	if (!a->header_first) {
		const wl_chunk *k = first_chunk(c);
		if (k)
			wl_report(f, WLR_HLOD_ARRAY_HEADER_NOT_FIRST, k, -1, k->offset, k->header_size + k->size,
				  "hlod '%s' %s array %zu starts with %s, not sub_object_array_header", h->name,
				  array_kind(a), index, wl_chunk_name(ctx->doc, k));
	}
	if (a->header_ok && a->model_count != a->sub_count)
		wl_report(f, a->model_count > a->sub_count ? WLR_HLOD_MODEL_COUNT_MISMATCH : WLR_HLOD_SUB_OBJECTS_IGNORED, a->header, -1, wl_chunk_payload_offset(a->header), 4,
			  "hlod '%s' %s array %zu header says %u sub-objects but holds %zu", h->name, array_kind(a),
			  index, (unsigned)a->model_count, a->sub_count);
}

static void check_one(wl_lint_ctx *ctx, const w3d_hlod *h)
{
	wl_findings *f = &ctx->doc->findings;
	const wl_chunk *c = h->src;
	if (!h->header) {
		wl_report(f, WLR_HLOD_HEADER_MISSING, c, -1, c->offset, c->header_size,
			  "hlod has no hlod_header chunk; the engine rejects it");
	} else {
		if (!h->header_first) {
			const wl_chunk *k = first_chunk(c);
			if (k)
				wl_report(f, WLR_HLOD_HEADER_NOT_FIRST, k, -1, k->offset, k->header_size + k->size,
					  "hlod '%s' starts with %s, not hlod_header", h->name,
					  wl_chunk_name(ctx->doc, k));
		}
		if (h->header_ok && h->lod_count != h->lod_array_count)
			wl_report(f, WLR_HLOD_LOD_COUNT_MISMATCH, h->header, -1, wl_chunk_payload_offset(h->header) + 4, 4,
				  "hlod '%s' header says %u lod arrays but holds %zu", h->name, (unsigned)h->lod_count,
				  h->lod_array_count);
		if (h->header_first && !h->lods_contiguous) {
			/* the first LOD array that is out of the run */
			const wl_chunk *bad = NULL;
			int state = 0;
			for (const wl_chunk *k = c->first_child; k && !bad; k = k->next) {
				if (k->kind != WL_NODE_CHUNK)
					continue;
				if (k == h->header)
					state = 1;
				else if (k->id == W3D_CHUNK_HLOD_LOD_ARRAY) {
					if (state != 1)
						bad = k;
				} else if (k->id != W3D_CHUNK_HLOD_SUB_OBJECT && state == 1)
					state = 2;
			}
			if (bad)
				wl_report(f, WLR_HLOD_LOD_ARRAYS_NOT_CONTIGUOUS, bad, -1, bad->offset,
					  bad->header_size + bad->size,
					  "hlod '%s' has a lod array at 0x%llx after other chunks; the lod arrays must follow the header back to back",
					  h->name, (unsigned long long)bad->offset);
		}
	}
	for (size_t i = 0; i < h->lod_array_count; i++)
		check_array(ctx, h, &h->lods[i], i);
	for (size_t i = 0; i < h->aggregate_count; i++)
		check_array(ctx, h, &h->aggregates[i], i);
	for (size_t i = 0; i < h->proxy_count; i++)
		check_array(ctx, h, &h->proxies[i], i);
}

static void check_box(wl_lint_ctx *ctx, const w3d_box *b)
{
	wl_findings *f = &ctx->doc->findings;
	if (!b->ok)
		return;
	uint64_t p = wl_chunk_payload_offset(b->src);
	unsigned t = b->attributes & (W3D_BOX_ORIENTED | W3D_BOX_ALIGNED);
	if (t == 0 || t == (W3D_BOX_ORIENTED | W3D_BOX_ALIGNED))
		wl_report(f, WLR_BOX_TYPE_AMBIGUOUS, b->src, -1, p + 4, 4,
			  "box '%s' attributes 0x%x set %s of oriented (1) and aligned (2)", b->name,
			  (unsigned)b->attributes, t ? "both" : "neither");
	const float *e = b->extent;
	if (!(e[0] >= 0) || !(e[1] >= 0) || !(e[2] >= 0) || !isfinite(e[0]) || !isfinite(e[1]) || !isfinite(e[2]))
		wl_report(f, WLR_BOX_EXTENT_NEGATIVE, b->src, -1, p + 56, 12,
			  "box '%s' extent (%g, %g, %g) is negative or not finite", b->name, (double)e[0],
			  (double)e[1], (double)e[2]);
}

void w3d_check_hlod(wl_lint_ctx *ctx)
{
	const w3d_model *m = ctx->model;
	if (!m)
		return;
	for (size_t i = 0; i < m->hlod_count; i++)
		check_one(ctx, m->hlods[i]);
	for (size_t i = 0; i < m->box_count; i++)
		check_box(ctx, m->boxes[i]);
}
