/* archive_table.c - the entry table of an archive document being read
 * (archive_int.h): its nodes, the entries added by the BIG and PBO readers
 * (big.c, pbo.c), the checks common to both (overlaps, duplicates, bytes no
 * entry lists).  Called by the readers; calls neither. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/arena.h"
#include "archive_int.h"

wl_chunk *arc_node(arc_reader *r, uint32_t id, uint64_t offset, uint64_t size, const char *label)
{
	wl_chunk *c = wl_doc_add_node(r->doc, &r->doc->root, WL_NODE_CHUNK, offset, size);
	if (c) {
		c->id = id;
		c->type = r->doc->format->lookup(0, id); /* archive.c's node types */
		wl_chunk_set_label(r->doc, c, label);
	}
	return c;
}

uint64_t arc_strend(const uint8_t *b, uint64_t size, uint64_t from)
{
	if (from >= size)
		return size;
	const uint8_t *z = memchr(b + from, 0, (size_t)(size - from));
	return z ? (uint64_t)(z - b) : size;
}

wl_archive_entry *arc_add(arc_reader *r, const uint8_t *name, size_t len, uint64_t rec, uint64_t rec_size)
{
	wl_archive *a = r->a;
	if (a->count == r->cap) {
		/* A record takes at least 9 bytes (BIG) or 21 (PBO): the table
		 * can never hold more than size / 9 of them. */
		size_t ncap = r->cap ? r->cap * 2 : 16;
		wl_archive_entry *n = wl_arena_alloc(r->doc->arena, ncap * sizeof *n);
		if (!n) {
			r->doc->oom = true;
			return NULL;
		}
		if (a->count)
			memcpy(n, a->entries, a->count * sizeof *n);
		a->entries = n;
		r->cap = ncap;
	}
	char *s = wl_arena_alloc(r->doc->arena, 2 * len + 2);
	if (!s) {
		r->doc->oom = true;
		return NULL;
	}
	memcpy(s, name, len);
	s[len] = 0;
	char *p = s + len + 1;
	for (size_t i = 0; i <= len; i++)
		p[i] = s[i] == '\\' ? '/' : s[i];
	wl_archive_entry *e = &a->entries[a->count];
	memset(e, 0, sizeof *e);
	e->name = s;
	e->path = p;
	e->record = rec;
	e->record_size = rec_size;
	e->node = arc_node(r, ARC_NODE_RECORD, rec, rec_size, p);
	if (!e->node)
		return NULL;
	a->count++;
	return e;
}

/* Sort helpers over entry indexes (qsort has no context argument). */
static const wl_archive_entry *sort_entries;

static int by_offset(const void *x, const void *y)
{
	const wl_archive_entry *a = &sort_entries[*(const size_t *)x], *b = &sort_entries[*(const size_t *)y];
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/* Paths compare as the games look them up: letter case and the separator
 * ignored. */
static int path_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int ca = *a == '\\' ? '/' : (unsigned char)*a, cb = *b == '\\' ? '/' : (unsigned char)*b;
		if (ca >= 'A' && ca <= 'Z')
			ca += 'a' - 'A';
		if (cb >= 'A' && cb <= 'Z')
			cb += 'a' - 'A';
		if (ca != cb || !ca)
			return ca - cb;
	}
}

static int by_path(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c = path_cmp(sort_entries[i].name, sort_entries[j].name);
	return c ? c : (i < j ? -1 : 1);
}

/* Serialises the sorts (the static above); archives are read on worker
 * threads. */
static pthread_mutex_t sort_lock = PTHREAD_MUTEX_INITIALIZER;

static void sort_ix(size_t *ix, size_t n, const wl_archive_entry *e, int (*cmp)(const void *, const void *))
{
	pthread_mutex_lock(&sort_lock);
	sort_entries = e;
	qsort(ix, n, sizeof *ix, cmp);
	pthread_mutex_unlock(&sort_lock);
}

void arc_check_entries(arc_reader *r, uint64_t end)
{
	wl_archive *a = r->a;
	wl_findings *f = &r->doc->findings;
	for (size_t i = 0; i < a->count; i++) {
		wl_archive_entry *e = &a->entries[i];
		e->readable = e->offset <= end && e->stored <= end - e->offset;
		if (!e->readable)
			wl_report(f, WLR_ARCHIVE_ENTRY_PAST_END, e->node, -1, e->record, e->record_size,
				  "entry '%s' holds %llu bytes at 0x%llX, past the end of the %s at 0x%llX", e->path,
				  (unsigned long long)e->stored, (unsigned long long)e->offset,
				  end < r->size ? "data" : "file", (unsigned long long)end);
	}
	if (a->count < 2)
		return;
	size_t *ix = malloc(a->count * sizeof *ix);
	if (!ix) {
		r->doc->oom = true;
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < a->count; i++)
		if (a->entries[i].readable && a->entries[i].stored)
			ix[n++] = i;
	sort_ix(ix, n, a->entries, by_offset);
	uint64_t reach = 0;
	size_t owner = 0;
	for (size_t k = 0; k < n; k++) {
		const wl_archive_entry *e = &a->entries[ix[k]];
		const wl_archive_entry *o = &a->entries[owner];
		/* One stored file under two names (the same offset and size) loads
		 * whole under both: not an overlap. */
		bool shared = k && e->offset == o->offset && e->stored == o->stored;
		if (k && e->offset < reach && !shared)
			wl_report(f, WLR_ARCHIVE_ENTRIES_OVERLAP, e->node, -1, e->record, e->record_size,
				  "entry '%s' starts at 0x%llX, inside the bytes of entry '%s' (to 0x%llX)", e->path,
				  (unsigned long long)e->offset, a->entries[owner].path, (unsigned long long)reach);
		if (e->offset + e->stored > reach) {
			reach = e->offset + e->stored;
			owner = ix[k];
		}
	}
	for (size_t i = 0; i < a->count; i++)
		ix[i] = i;
	sort_ix(ix, a->count, a->entries, by_path);
	for (size_t k = 1; k < a->count; k++) {
		const wl_archive_entry *e = &a->entries[ix[k]], *p = &a->entries[ix[k - 1]];
		if (path_cmp(e->name, p->name) == 0)
			wl_report(f, WLR_ARCHIVE_DUPLICATE_NAME, e->node, -1, e->record, e->record_size,
				  "entry '%s' has the path of an earlier entry, '%s' (record at 0x%llX)", e->path, p->path,
				  (unsigned long long)p->record);
	}
	free(ix);
}

void arc_unlisted(arc_reader *r, uint64_t from, uint64_t to)
{
	if (from < to)
		wl_report(&r->doc->findings, WLR_ARCHIVE_UNLISTED_BYTES, NULL, -1, from, to - from,
			  "%llu bytes at 0x%llX after the last entry belong to no entry", (unsigned long long)(to - from),
			  (unsigned long long)from);
}
