/* archive.c - the archive document, the checks common to BIG and PBO,
 * unpacking and loading one entry (archive.h). */
#include "archive.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/file_io.h"
#include "core/lzss.h"
#include "archive_int.h"

/* id, ctx, child_ctx, name, short_name, elem_size, min_size, flags */
static const wl_chunk_type TYPES[] = {
	{ ARC_NODE_HEADER, 0, 0, "archive header", "header", 0, 0, 0 },
	{ ARC_NODE_RECORD, 0, 0, "entry table record", "entry", 0, 0, 0 },
	{ ARC_NODE_TABLE_END, 0, 0, "end of the entry table", "table-end", 0, 0, 0 },
	{ ARC_NODE_TRAILER, 0, 0, "SHA-1 trailer", "trailer", 0, 0, 0 },
};
#define NTYPES (sizeof TYPES / sizeof TYPES[0])

static const wl_chunk_type *lookup(uint16_t ctx, uint32_t id)
{
	(void)ctx;
	return id >= 1 && id <= NTYPES ? &TYPES[id - 1] : NULL;
}

static const char *id_name(uint32_t id)
{
	const wl_chunk_type *t = lookup(0, id);
	return t ? t->short_name : "?";
}

static const wl_chunk_type *schema(size_t *count)
{
	*count = NTYPES;
	return TYPES;
}

static const char *const big_ext[] = { "big", NULL };
static const char *const pbo_ext[] = { "pbo", NULL };

static const wl_format FORMATS[] = {
	{ .name = "big", .title = "BIG archive", .extensions = big_ext, .lookup = lookup, .id_name = id_name,
	  .schema = schema },
	{ .name = "pbo", .title = "PBO archive", .extensions = pbo_ext, .lookup = lookup, .id_name = id_name,
	  .schema = schema },
};

const wl_format *wl_archive_format(wl_archive_kind kind)
{
	return &FORMATS[kind == WL_ARCHIVE_PBO];
}

bool wl_archive_kind_of(const char *kind_id, wl_archive_kind *out)
{
	if (strcmp(kind_id, "big") == 0)
		*out = WL_ARCHIVE_BIG;
	else if (strcmp(kind_id, "pbo") == 0)
		*out = WL_ARCHIVE_PBO;
	else
		return false;
	return true;
}

wl_chunk *arc_node(arc_reader *r, uint32_t id, uint64_t offset, uint64_t size, const char *label)
{
	wl_chunk *c = wl_doc_add_node(r->doc, &r->doc->root, WL_NODE_CHUNK, offset, size);
	if (c) {
		c->id = id;
		c->type = lookup(0, id);
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

wl_doc *wl_archive_read(wl_archive_kind kind, const char *path, const uint8_t *bytes, uint64_t size,
			wl_archive_depth depth)
{
	return wl_archive_read_head(kind, path, bytes, size, size, depth);
}

/* The smallest record (a BIG's: offset, size, empty NUL-terminated path)
 * and the memory allowed per record beyond the per-byte limit: the entry
 * (its array grown by doubling: 3 copies at most), its node and label, a
 * finding. */
#define ARC_RECORD_MIN 9u
#define ARC_RECORD_BYTES 1024u

wl_doc *wl_archive_read_head(wl_archive_kind kind, const char *path, const uint8_t *bytes, uint64_t have,
			     uint64_t size, wl_archive_depth depth)
{
	if (kind != WL_ARCHIVE_BIG || have > size)
		have = size; /* a PBO's head is the whole file (the caller gives it) */
	wl_doc *d = wl_doc_empty(wl_archive_format(kind), path, bytes, size);
	if (!d)
		return NULL;
	wl_archive *a = wl_arena_alloc(d->arena, sizeof *a);
	if (!a) {
		d->oom = true;
		return d;
	}
	memset(a, 0, sizeof *a);
	a->kind = kind;
	d->model = a;
	/* Memory per record, not per byte: a table of 9-byte records (a BIG
	 * of empty entries) needs for each its entry, node, label and perhaps
	 * a finding, more than the per-byte limit of a model allows.  At most
	 * have / ARC_RECORD_MIN records fit, so this stays bounded by the
	 * table's bytes. */
	uint64_t per_record = (have / ARC_RECORD_MIN) * ARC_RECORD_BYTES;
	if (per_record < SIZE_MAX - wl_arena_limit(d->arena))
		wl_arena_raise_limit(d->arena, wl_arena_limit(d->arena) + (size_t)per_record);
	arc_reader r = { d, a, bytes, size, have, 0, depth };
	if (kind == WL_ARCHIVE_PBO)
		arc_read_pbo(&r);
	else
		arc_read_big(&r);
	return d;
}

int wl_archive_unpack(const wl_archive_entry *e, const uint8_t *in, uint8_t **out, char *why, size_t why_cap)
{
	*out = NULL;
	if (e->method != WL_PBO_METHOD_NONE && !e->packed) {
		snprintf(why, why_cap, "packing method 0x%08lX is not known", (unsigned long)e->method);
		return -1;
	}
	if (e->packed && e->size > e->stored * WL_LZSS_MAX_RATIO) {
		snprintf(why, why_cap, "%llu bytes unpacked cannot come from %llu packed bytes",
			 (unsigned long long)e->size, (unsigned long long)e->stored);
		return -1;
	}
	if (e->size > SIZE_MAX - 1) {
		snprintf(why, why_cap, "out of memory");
		return -1;
	}
	uint8_t *p = malloc(e->size ? (size_t)e->size : 1);
	if (!p) {
		snprintf(why, why_cap, "out of memory");
		return -1;
	}
	if (!e->packed) {
		memcpy(p, in, (size_t)e->size);
		*out = p;
		return 0;
	}
	size_t used = 0;
	wl_lzss_result rc = wl_lzss_decode(in, (size_t)e->stored, p, (size_t)e->size, &used);
	if (rc != WL_LZSS_OK) {
		snprintf(why, why_cap, "%s",
			 rc == WL_LZSS_CUT ? "the LZSS stream ends before its output is complete"
			 : rc == WL_LZSS_BAD ? "the LZSS stream holds a pointer of distance 0"
					     : "the LZSS checksum does not match the unpacked bytes");
		free(p);
		return -1;
	}
	*out = p;
	return 0;
}

int wl_archive_load(const char *path, const wl_archive_entry *e, uint8_t **out, size_t *len, char *why,
		    size_t why_cap)
{
	*out = NULL;
	*len = 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(why, why_cap, "%s", strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < e->offset ||
	    (uint64_t)st.st_size - e->offset < e->stored || e->stored > SIZE_MAX) {
		snprintf(why, why_cap, "the archive changed: entry '%s' no longer lies in it", e->path);
		close(fd);
		return -1;
	}
	uint8_t *in = malloc(e->stored ? (size_t)e->stored : 1);
	if (!in) {
		snprintf(why, why_cap, "out of memory");
		close(fd);
		return -1;
	}
	size_t got = 0;
	while (got < e->stored) {
		ssize_t k = pread(fd, in + got, (size_t)e->stored - got, (off_t)(e->offset + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			snprintf(why, why_cap, "%s", k < 0 ? strerror(errno) : "the archive is shorter than its table says");
			free(in);
			close(fd);
			return -1;
		}
		got += (size_t)k;
	}
	close(fd);
	if (!e->packed) {
		*out = in;
		*len = (size_t)e->stored;
		return 0;
	}
	int rc = wl_archive_unpack(e, in, out, why, why_cap);
	free(in);
	if (rc == 0)
		*len = (size_t)e->size;
	return rc;
}

/* pread of n bytes at off into p, all of them; -1 with errno. */
static int pread_all(int fd, uint8_t *p, uint64_t n, uint64_t off)
{
	uint64_t got = 0;
	while (got < n) {
		ssize_t k = pread(fd, p + got, (size_t)(n - got), (off_t)(off + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EIO; /* shorter than fstat said: changed meanwhile */
			return -1;
		}
		got += (uint64_t)k;
	}
	return 0;
}

/* True when the BIG table read from the first have bytes ends inside
 * them. */
static bool table_inside(const uint8_t *bytes, uint64_t have, uint64_t size)
{
	wl_doc *d = wl_archive_read_head(WL_ARCHIVE_BIG, "", bytes, have, size, WL_ARCHIVE_TABLE);
	const wl_archive *a = d && !d->oom ? d->model : NULL;
	bool inside = a && !a->partial;
	wl_doc_free(d);
	return inside;
}

int wl_archive_read_table(const char *path, uint8_t **out, uint64_t *size, uint64_t *have)
{
	*out = NULL;
	*size = *have = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return WL_READ_OPEN;
	struct stat st;
	uint8_t head[16];
	uint64_t need = 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= WL_INPUT_MAX_BYTES &&
	    (uint64_t)st.st_size >= sizeof head && pread_all(fd, head, sizeof head, 0) == 0)
		need = arc_big_table_bytes(head, (uint64_t)st.st_size);
	uint8_t *b = need && need < (uint64_t)st.st_size ? malloc((size_t)need) : NULL;
	if (b && pread_all(fd, b, need, 0) == 0 && table_inside(b, need, (uint64_t)st.st_size)) {
		close(fd);
		*out = b;
		*size = (uint64_t)st.st_size;
		*have = need;
		return WL_READ_OK;
	}
	free(b);
	close(fd);
	size_t len = 0;
	int rc = wl_read_input(path, out, &len, size);
	if (rc == WL_READ_OK)
		*size = *have = len;
	return rc;
}
