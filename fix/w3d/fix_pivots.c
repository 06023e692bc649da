/*
 * fix_pivots.c - unsafe fixer "reorder-pivots": repairs pivot-parent-order
 * (rules/hierarchy.yaml, lint/w3d/check_hierarchy.c) by reordering the pivots
 * of a HIERARCHY so that every parent comes before its children
 * (notes/w3d_reference.md E3: the pose update walks pivots in index order).
 *
 * New order: the smallest topological order by original index (Kahn's
 * algorithm, always taking the lowest-numbered pivot whose parent is already
 * placed).  Pivot 0, the root, stays first; pivots already in order keep
 * their relative order; a pivot moves only as far as its parent forces it.
 *
 * A hierarchy is reordered only when that is well defined: pivot 0 is the
 * only root (ParentIdx 0xFFFFFFFF), every other ParentIdx is < NumPivots
 * (as present in PIVOTS), the parents form a tree (no cycle), PIVOT_FIXUPS
 * is absent or holds one row per pivot, and no other HIERARCHY in the file
 * has the same name.  Otherwise the other hierarchy rules stand and nothing
 * is changed.
 *
 * Rewritten, with old index i becoming new[i]:
 *   PIVOTS            records in the new order, ParentIdx remapped (the
 *                     root keeps 0xFFFFFFFF); bytes after the last whole
 *                     record stay at the end
 *   PIVOT_FIXUPS      rows (48 bytes) in the same order
 *   in the same file, for objects naming this hierarchy (case-insensitive,
 *   as the engine's lookups, htreemgr.cpp:174-176):
 *   ANIMATION / COMPRESSED_ANIMATION whose HierarchyName matches: the
 *     uint16 Pivot of every ANIMATION_CHANNEL (+8), BIT_CHANNEL (+6),
 *     COMPRESSED_ANIMATION_CHANNEL (+4), COMPRESSED_BIT_CHANNEL (+4) and
 *     COMPRESSED_ANIMATION_MOTION_CHANNEL (+6)
 *   HLOD whose HierarchyName matches: the uint32 BoneIndex of every
 *     HLOD_SUB_OBJECT (LOD, aggregate and proxy arrays)
 *   MESHes named by those sub-objects ("CONTAINER.MESH"): the bone indices
 *     of VERTEX_INFLUENCES (0x0E: BoneIdx at +0, and at +2 in the two-bone
 *     BFME layout) and VERTEX_INFLUENCES_EXTENDED (0x0C03: four at +0..+6)
 * Index values that are not valid pivot indices of this hierarchy are left
 * as they are (their own rules report them).
 *
 * NOT rewritten (why the fixer is unsafe): anything in other files that
 * refers to the hierarchy by index - animation files, skin meshes and HLODs
 * of other .w3d files (the usual layout: skeleton in NAME_SKL.w3d,
 * animations in their own files) - and legacy HMODEL nodes and morph
 * animation pivot channels of this file, which the model does not decode.
 * Those keep the old indices and must be re-exported or fixed together.
 *
 * Edit notes: one per pivot that changes index ("pivot 'NAME' 3 -> 1"), one
 * per rewritten reference chunk ("pivot 3 -> 1", or a count for influence
 * arrays).  Deterministic; idempotent (a hierarchy in parent-first order is
 * never touched).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fixers.h"

extern const wl_fixer w3d_fix_reorder_pivots;

#define RULE WLR_PIVOT_PARENT_ORDER

/* ------------------------------------------------------------------ */
/* order                                                               */
/* ------------------------------------------------------------------ */

/* Min-heap of pivot indices. */
static void heap_push(uint32_t *h, size_t *n, uint32_t v)
{
	size_t i = (*n)++;
	h[i] = v;
	while (i > 0 && h[(i - 1) / 2] > h[i]) {
		uint32_t t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static uint32_t heap_pop(uint32_t *h, size_t *n)
{
	uint32_t top = h[0];
	h[0] = h[--*n];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, s = i;
		if (l < *n && h[l] < h[s])
			s = l;
		if (r < *n && h[r] < h[s])
			s = r;
		if (s == i)
			break;
		uint32_t t = h[i];
		h[i] = h[s];
		h[s] = t;
		i = s;
	}
	return top;
}

/* Fills order[k] = old index placed k-th and newidx[old] = k.  false when
 * the hierarchy does not qualify (see the header comment). */
static bool plan(const w3d_hierarchy *h, uint32_t *order, uint32_t *newidx)
{
	size_t n = h->pivot_count;
	if (n < 2 || h->pivots[0].parent != W3D_PIVOT_NO_PARENT)
		return false;
	bool out_of_order = false;
	for (size_t i = 1; i < n; i++) {
		uint32_t p = h->pivots[i].parent;
		if (p >= n)
			return false; /* second root or out of range */
		if (p >= i)
			out_of_order = true;
	}
	if (!out_of_order)
		return false;
	/* children lists as counting-sorted arrays */
	size_t *start = calloc(n + 1, sizeof *start);
	uint32_t *kids = malloc(n * sizeof *kids), *heap = malloc(n * sizeof *heap);
	bool ok = start && kids && heap;
	if (ok) {
		for (size_t i = 1; i < n; i++)
			start[h->pivots[i].parent + 1]++;
		for (size_t i = 0; i < n; i++)
			start[i + 1] += start[i];
		/* newidx doubles as the fill cursor before it gets its meaning */
		for (size_t i = 0; i < n; i++)
			newidx[i] = (uint32_t)start[i];
		for (size_t i = 1; i < n; i++)
			kids[newidx[h->pivots[i].parent]++] = (uint32_t)i;
		size_t hn = 0, placed = 0;
		heap_push(heap, &hn, 0);
		while (hn) {
			uint32_t v = heap_pop(heap, &hn);
			order[placed++] = v;
			for (size_t k = start[v]; k < start[v + 1]; k++)
				heap_push(heap, &hn, kids[k]);
		}
		ok = placed == n; /* fewer: a cycle not reachable from the root */
		if (ok)
			for (size_t k = 0; k < n; k++)
				newidx[order[k]] = (uint32_t)k;
	}
	free(start);
	free(kids);
	free(heap);
	return ok;
}

/* ------------------------------------------------------------------ */
/* rewriting                                                           */
/* ------------------------------------------------------------------ */

static void put_u16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* A writable copy of the current payload of src (arena); NULL when src is
 * not in the tree, its payload was replaced to another size, or OOM (then
 * doc->oom is set). */
static uint8_t *payload_copy(wl_fix_ctx *x, const wl_chunk *src, wl_chunk **c, size_t *len)
{
	*c = wl_fix_mut(x->doc, src);
	if (!*c)
		return NULL;
	const uint8_t *cur = wl_edit_payload(x->doc, *c, len);
	if (*len != src->size || *len == 0)
		return NULL;
	uint8_t *buf = wl_arena_alloc(x->doc->arena, *len);
	if (!buf) {
		x->doc->oom = true;
		return NULL;
	}
	memcpy(buf, cur, *len);
	return buf;
}

static int remap_u16_field(wl_fix_ctx *x, const wl_chunk *src, size_t at, const uint32_t *newidx, size_t n,
			   const char *what)
{
	if (!src || src->size < at + 2)
		return 0;
	uint16_t old = wl_le16(wl_chunk_payload(x->doc, src) + at);
	if (old >= n || newidx[old] == old)
		return 0;
	wl_chunk *c;
	size_t len;
	uint8_t *buf = payload_copy(x, src, &c, &len);
	if (!buf)
		return x->doc->oom ? -1 : 0;
	put_u16(buf + at, (uint16_t)newidx[old]);
	if (wl_edit_note(x->doc, c, RULE, wl_chunk_payload_offset(c) + at, "%s pivot %u -> %u", what, (unsigned)old,
			 (unsigned)newidx[old]) != 0)
		return -1;
	return wl_edit_set_payload(x->doc, c, buf, len);
}

static int remap_hlod(wl_fix_ctx *x, const w3d_hlod_array *arrs, size_t count, const uint32_t *newidx, size_t n)
{
	for (size_t a = 0; a < count; a++)
		for (size_t s = 0; s < arrs[a].sub_count; s++) {
			const w3d_hlod_sub_object *so = &arrs[a].subs[s];
			if (!so->ok || so->bone_index >= n || newidx[so->bone_index] == so->bone_index)
				continue;
			wl_chunk *c = wl_fix_mut(x->doc, so->src);
			uint32_t old;
			if (!c || wl_fix_patch_u32(x->doc, c, 0, newidx[so->bone_index], &old) != 0)
				return x->doc->oom ? -1 : 0;
			if (wl_edit_note(x->doc, c, RULE, wl_chunk_payload_offset(c),
					 "sub-object '%s' bone index %u -> %u", so->name, (unsigned)old,
					 (unsigned)newidx[old]) != 0)
				return -1;
		}
	return 0;
}

/* Remaps `bones` uint16 indices at +0, +2, ... of every rec-byte record. */
static int remap_influences(wl_fix_ctx *x, const w3d_mesh *m, const w3d_influence_array *a, size_t rec,
			    size_t bones, const uint32_t *newidx, size_t n)
{
	if (!a->src || !a->count)
		return 0;
	const uint8_t *in = wl_chunk_payload(x->doc, a->src);
	size_t changes = 0;
	for (size_t i = 0; i < a->count; i++)
		for (size_t b = 0; b < bones; b++) {
			uint16_t v = wl_le16(in + i * rec + 2 * b);
			changes += v < n && newidx[v] != v;
		}
	if (!changes)
		return 0;
	wl_chunk *c;
	size_t len;
	uint8_t *buf = payload_copy(x, a->src, &c, &len);
	if (!buf)
		return x->doc->oom ? -1 : 0;
	for (size_t i = 0; i < a->count; i++)
		for (size_t b = 0; b < bones; b++) {
			uint8_t *p = buf + i * rec + 2 * b;
			uint16_t v = wl_le16(p);
			if (v < n)
				put_u16(p, (uint16_t)newidx[v]);
		}
	if (wl_edit_note(x->doc, c, RULE, wl_chunk_payload_offset(c),
			 "mesh '%s' %s: %zu bone indices remapped to the new pivot order", m->name,
			 wl_chunk_name(x->doc, c), changes) != 0)
		return -1;
	return wl_edit_set_payload(x->doc, c, buf, len);
}

static int remap_mesh(wl_fix_ctx *x, const w3d_mesh *m, const uint32_t *newidx, size_t n)
{
	const w3d_influence_array *a = &m->influences;
	if (remap_influences(x, m, a, W3D_VERTINF_SIZE, a->layout == W3D_INFLUENCE_TWO_BONE ? 2 : 1, newidx, n) != 0)
		return -1;
	return remap_influences(x, m, &m->influences_ext, W3D_VERTINF_EXT_SIZE, 4, newidx, n);
}

/* Meshes named by the sub-objects of arrs; done[] marks meshes remapped. */
static int remap_named_meshes(wl_fix_ctx *x, const w3d_hlod_array *arrs, size_t count, bool *done,
			      const uint32_t *newidx, size_t n)
{
	const w3d_model *md = x->model;
	for (size_t a = 0; a < count; a++)
		for (size_t s = 0; s < arrs[a].sub_count; s++) {
			const w3d_hlod_sub_object *so = &arrs[a].subs[s];
			if (!so->ok)
				continue;
			for (size_t i = 0; i < md->mesh_count; i++)
				if (!done[i] && md->meshes[i] && strcasecmp(md->meshes[i]->name, so->name) == 0) {
					done[i] = true;
					if (remap_mesh(x, md->meshes[i], newidx, n) != 0)
						return -1;
				}
		}
	return 0;
}

static int remap_references(wl_fix_ctx *x, const w3d_hierarchy *h, const uint32_t *newidx)
{
	const w3d_model *md = x->model;
	size_t n = h->pivot_count;
	if (!h->name[0])
		return 0;
	for (size_t i = 0; i < md->animation_count; i++) {
		const w3d_animation *a = md->animations[i];
		if (!a || !a->header_ok || strcasecmp(a->hierarchy_name, h->name) != 0)
			continue;
		for (size_t k = 0; k < a->channel_count; k++)
			if (a->channels[k].header_ok &&
			    remap_u16_field(x, a->channels[k].src, 8, newidx, n, "channel") != 0)
				return -1;
		for (size_t k = 0; k < a->bit_channel_count; k++)
			if (a->bit_channels[k].header_ok &&
			    remap_u16_field(x, a->bit_channels[k].src, 6, newidx, n, "bit channel") != 0)
				return -1;
	}
	for (size_t i = 0; i < md->compressed_animation_count; i++) {
		const w3d_compressed_animation *a = md->compressed_animations[i];
		if (!a || !a->header_ok || strcasecmp(a->hierarchy_name, h->name) != 0)
			continue;
		for (size_t k = 0; k < a->channel_count; k++) {
			const w3d_canim_channel *ch = &a->channels[k];
			bool motion = ch->src->id == W3D_CHUNK_COMPRESSED_ANIMATION_MOTION_CHANNEL;
			if (ch->header_ok && remap_u16_field(x, ch->src, motion ? 6 : 4, newidx, n, "channel") != 0)
				return -1;
		}
		for (size_t k = 0; k < a->bit_channel_count; k++)
			if (a->bit_channels[k].header_ok &&
			    remap_u16_field(x, a->bit_channels[k].src, 4, newidx, n, "bit channel") != 0)
				return -1;
	}
	bool *done = calloc(md->mesh_count + 1, sizeof *done);
	if (!done) {
		x->doc->oom = true;
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < md->hlod_count && rc == 0; i++) {
		const w3d_hlod *hl = md->hlods[i];
		if (!hl || !hl->header_ok || strcasecmp(hl->hierarchy_name, h->name) != 0)
			continue;
		if (remap_hlod(x, hl->lods, hl->lod_array_count, newidx, n) != 0 ||
		    remap_hlod(x, hl->aggregates, hl->aggregate_count, newidx, n) != 0 ||
		    remap_hlod(x, hl->proxies, hl->proxy_count, newidx, n) != 0 ||
		    remap_named_meshes(x, hl->lods, hl->lod_array_count, done, newidx, n) != 0 ||
		    remap_named_meshes(x, hl->aggregates, hl->aggregate_count, done, newidx, n) != 0 ||
		    remap_named_meshes(x, hl->proxies, hl->proxy_count, done, newidx, n) != 0)
			rc = -1;
	}
	free(done);
	return rc;
}

/* Rewrites PIVOTS and PIVOT_FIXUPS of h in the order `order`. */
static int rewrite_pivots(wl_fix_ctx *x, const w3d_hierarchy *h, const uint32_t *order, const uint32_t *newidx)
{
	size_t n = h->pivot_count;
	wl_chunk *c;
	size_t len;
	uint8_t *buf = payload_copy(x, h->pivots_chunk, &c, &len);
	if (!buf)
		return x->doc->oom ? -1 : 0;
	const uint8_t *in = wl_chunk_payload(x->doc, h->pivots_chunk);
	for (size_t k = 0; k < n; k++) {
		uint8_t *p = buf + k * W3D_PIVOT_SIZE;
		memcpy(p, in + (size_t)order[k] * W3D_PIVOT_SIZE, W3D_PIVOT_SIZE);
		uint32_t parent = h->pivots[order[k]].parent;
		put_u32(p + W3D_PIVOT_PARENT_OFFSET, parent == W3D_PIVOT_NO_PARENT ? parent : newidx[parent]);
	}
	for (size_t i = 0; i < n; i++)
		if (newidx[i] != i &&
		    wl_edit_note(x->doc, c, RULE, wl_chunk_payload_offset(c) + i * W3D_PIVOT_SIZE,
				 "hierarchy '%s' pivot '%s' (parent %u) %zu -> %u", h->name, h->pivots[i].name,
				 (unsigned)h->pivots[i].parent, i, (unsigned)newidx[i]) != 0)
			return -1;
	if (wl_edit_set_payload(x->doc, c, buf, len) != 0)
		return -1;
	if (!h->fixups_chunk)
		return 0;
	buf = payload_copy(x, h->fixups_chunk, &c, &len);
	if (!buf)
		return x->doc->oom ? -1 : 0;
	in = wl_chunk_payload(x->doc, h->fixups_chunk);
	for (size_t k = 0; k < n; k++)
		memcpy(buf + k * W3D_PIVOT_FIXUP_SIZE, in + (size_t)order[k] * W3D_PIVOT_FIXUP_SIZE, W3D_PIVOT_FIXUP_SIZE);
	if (wl_edit_note(x->doc, c, RULE, wl_chunk_payload_offset(c),
			 "hierarchy '%s' pivot fixup rows reordered like the pivots", h->name) != 0)
		return -1;
	return wl_edit_set_payload(x->doc, c, buf, len);
}

static bool unique_name(const w3d_model *md, const w3d_hierarchy *h)
{
	for (size_t i = 0; i < md->hierarchy_count; i++)
		if (md->hierarchies[i] && md->hierarchies[i] != h && strcasecmp(md->hierarchies[i]->name, h->name) == 0)
			return false;
	return true;
}

static int fix_hierarchy(wl_fix_ctx *x, const w3d_hierarchy *h)
{
	size_t n = h->pivot_count;
	if (!h->pivots_chunk || n < 2 || (h->fixups_chunk && h->fixup_count != n) || !unique_name(x->model, h))
		return 0;
	uint32_t *order = malloc(n * sizeof *order), *newidx = malloc(n * sizeof *newidx);
	int rc = 0;
	if (!order || !newidx) {
		x->doc->oom = true;
		rc = -1;
	} else if (plan(h, order, newidx)) {
		rc = rewrite_pivots(x, h, order, newidx);
		if (rc == 0)
			rc = remap_references(x, h, newidx);
	}
	free(order);
	free(newidx);
	return rc;
}

static int apply_reorder(wl_fix_ctx *x)
{
	const w3d_model *md = x->model;
	if (!md || !wl_fix_rule_wanted(x, RULE))
		return 0;
	for (size_t i = 0; i < md->hierarchy_count; i++)
		if (md->hierarchies[i] && fix_hierarchy(x, md->hierarchies[i]) != 0)
			return -1;
	return 0;
}


const wl_fixer w3d_fix_reorder_pivots = {
	"reorder-pivots", true,
	"reorder pivots parent-first and remap the pivot indices of this file's animations, HLODs and skins",
	apply_reorder
};
