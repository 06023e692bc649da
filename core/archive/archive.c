/* archive.c - the archive document: its format descriptors, the reading
 * of a BIG or a PBO (big.c, pbo.c, which build the entry table with
 * archive_table.c) and loading one entry (archive.h; unpacking:
 * archive_unpack.c). */
#include "archive.h"

#include <errno.h>
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
#include "core/platform.h"
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

int wl_archive_load(const char *path, const wl_archive_entry *e, uint8_t **out, size_t *len, char *why,
		    size_t why_cap)
{
	*out = NULL;
	*len = 0;
	int fd = wl_os_open_read(path, false);
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
		ssize_t k = wl_os_pread(fd, in + got, (size_t)e->stored - got, e->offset + got);
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
		ssize_t k = wl_os_pread(fd, p + got, (size_t)(n - got), off + got);
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
	int fd = wl_os_open_read(path, true);
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
