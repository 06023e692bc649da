/*
 * chunk_tree.c - questions about a read document's tree (chunk.h): a
 * node's name and chunk path ("HLOD[TANK]/HLOD_LOD_ARRAY/HLOD_SUB_OBJECT#1"),
 * the children by id, the object level, the last child and child count,
 * and the side data and labels the readers attach to nodes.  The reader
 * that builds the tree is chunk.c.
 */
#include "chunk.h"
#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *wl_chunk_name(const wl_doc *d, const wl_chunk *c)
{
	if (c->kind == WL_NODE_GAP)
		return "(bytes)";
	if (c->kind == WL_NODE_ROOT)
		return "(file)";
	if (c->type)
		return c->type->short_name;
	return d->format->id_name(c->id);
}

static size_t put(char *buf, size_t cap, size_t at, const char *s)
{
	while (*s && at + 1 < cap)
		buf[at++] = *s++;
	if (cap)
		buf[at < cap ? at : cap - 1] = 0;
	return at;
}

/* Slot of (kind, id) in an open-addressed table of cap (a power of two)
 * keys; keys[i] == UINT64_MAX marks a free slot. */
static size_t slot_of(const uint64_t *keys, size_t cap, uint64_t key)
{
	size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
	while (keys[i] != UINT64_MAX && keys[i] != key)
		i = (i + 1) & (cap - 1);
	return i;
}

/*
 * Sets same_index and path_twins on every child of p in one pass over them
 * (two, in fact: counting, then marking), with a table keyed by (kind, id):
 * a path then costs its depth, never a scan of the siblings.  false when
 * out of memory (the caller scans instead).
 */
static bool index_children(wl_chunk *p)
{
	size_t cap = 16;
	while (cap < 2 * (size_t)wl_chunk_child_count(p))
		cap *= 2;
	uint64_t small_keys[16];
	uint32_t small_counts[16];
	uint64_t *keys = small_keys;
	uint32_t *counts = small_counts;
	if (cap > 16) {
		keys = malloc(cap * sizeof *keys);
		counts = malloc(cap * sizeof *counts);
		if (!keys || !counts) {
			free(keys);
			free(counts);
			return false;
		}
	}
	memset(keys, 0xFF, cap * sizeof *keys);
	for (wl_chunk *k = p->first_child; k; k = k->next) {
		uint64_t key = (uint64_t)k->kind << 32 | k->id;
		size_t i = slot_of(keys, cap, key);
		if (keys[i] == UINT64_MAX) {
			keys[i] = key;
			counts[i] = 0;
		}
		k->same_index = counts[i]++;
	}
	for (wl_chunk *k = p->first_child; k; k = k->next)
		k->path_twins = counts[slot_of(keys, cap, (uint64_t)k->kind << 32 | k->id)] > 1;
	if (keys != small_keys) {
		free(keys);
		free(counts);
	}
	p->path_indexed = 1;
	return true;
}

/* k's index among its parent's nodes of its kind and id, and whether there
 * is more than one of them. */
static unsigned same_kind_index(const wl_chunk *k, bool *twins)
{
	/* The index is a cache of the tree's shape, kept in the nodes: filling
	 * it does not change the document. */
	wl_chunk *p = (wl_chunk *)(uintptr_t)k->parent;
	if (p && (p->path_indexed || index_children(p))) {
		*twins = k->path_twins;
		return k->same_index;
	}
	unsigned idx = 0, same = 0;
	for (const wl_chunk *s = p ? p->first_child : NULL; s; s = s->next) {
		if (s->kind == k->kind && s->id == k->id) {
			if (s == k)
				idx = same;
			same++;
		}
	}
	*twins = same > 1;
	return idx;
}

char *wl_chunk_path(const wl_doc *d, const wl_chunk *c, int64_t element, char *buf, size_t cap)
{
	const wl_chunk *stack[WL_MAX_DEPTH + 2];
	int n = 0;
	for (const wl_chunk *k = c; k && k->kind != WL_NODE_ROOT && n < WL_MAX_DEPTH + 2; k = k->parent)
		stack[n++] = k;
	size_t at = 0;
	if (cap)
		buf[0] = 0;
	for (int i = n - 1; i >= 0; i--) {
		const wl_chunk *k = stack[i];
		char part[96];
		const char *name = wl_chunk_name(d, k);
		const char *label = wl_chunk_label(d, k);
		if (label && label[0]) {
			snprintf(part, sizeof part, "%s[%s]", name, label);
		} else {
			bool twins;
			unsigned idx = same_kind_index(k, &twins);
			if (twins)
				snprintf(part, sizeof part, "%s#%u", name, idx);
			else
				snprintf(part, sizeof part, "%s", name);
		}
		if (i != n - 1)
			at = put(buf, cap, at, "/");
		at = put(buf, cap, at, part);
	}
	if (element >= 0) {
		char e[32];
		snprintf(e, sizeof e, "[%lld]", (long long)element);
		at = put(buf, cap, at, e);
	}
	return buf;
}

const wl_chunk *wl_chunk_find(const wl_chunk *parent, uint32_t id)
{
	for (const wl_chunk *k = parent->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && k->id == id)
			return k;
	return NULL;
}

const wl_chunk *wl_chunk_next_same(const wl_chunk *c)
{
	for (const wl_chunk *k = c->next; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && k->id == c->id)
			return k;
	return NULL;
}

const wl_chunk *wl_doc_object_level(const wl_doc *d)
{
	const wl_chunk *only = NULL;
	for (const wl_chunk *k = d->root.first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK || only)
			return &d->root;
		only = k;
	}
	return only && only->container && only->fields ? only : &d->root;
}

wl_chunk *wl_chunk_last_child(const wl_chunk *c)
{
	wl_chunk *k = c->first_child;
	while (k && k->next)
		k = k->next;
	return k;
}

uint32_t wl_chunk_child_count(const wl_chunk *c)
{
	uint32_t n = 0;
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		n++;
	return n;
}

wl_chunk_side *wl_chunk_side_of(const wl_doc *d, const wl_chunk *c)
{
	if (!c->side || c->side > d->side_count)
		return NULL;
	uint32_t i = c->side - 1;
	return &d->side_blocks[i / WL_SIDE_BLOCK][i % WL_SIDE_BLOCK];
}

wl_chunk_side *wl_chunk_side_make(wl_doc *d, wl_chunk *c)
{
	wl_chunk_side *e = wl_chunk_side_of(d, c);
	if (e)
		return e;
	uint32_t i = d->side_count;
	if (i == UINT32_MAX - 1)
		goto oom;
	if (i % WL_SIDE_BLOCK == 0) {
		uint32_t b = i / WL_SIDE_BLOCK;
		if (!wl_grow((void **)&d->side_blocks, &d->side_blocks_cap, (size_t)b + 1,
			     sizeof *d->side_blocks))
			goto oom;
		d->side_blocks[b] = wl_arena_array(d->arena, WL_SIDE_BLOCK, sizeof **d->side_blocks);
		if (!d->side_blocks[b])
			goto oom;
	}
	d->side_count++;
	c->side = i + 1;
	e = &d->side_blocks[i / WL_SIDE_BLOCK][i % WL_SIDE_BLOCK];
	e->label = NULL;
	e->new_payload = NULL;
	return e;
oom:
	d->oom = true;
	return NULL;
}

const char *wl_chunk_label(const wl_doc *d, const wl_chunk *c)
{
	const wl_chunk_side *e = wl_chunk_side_of(d, c);
	return e ? e->label : NULL;
}

int wl_chunk_set_label(wl_doc *d, wl_chunk *c, const char *label)
{
	if (!label && !c->side)
		return 0;
	wl_chunk_side *e = wl_chunk_side_make(d, c);
	if (!e)
		return -1;
	e->label = label;
	return 0;
}
