/* pbo.c - Bohemia's PBO table, properties and SHA-1 trailer (archive.h;
 * docs/archives.md §PBO).
 *
 * Records: a path NUL-terminated, then five u32 little-endian: packing
 * method, original size, reserved, timestamp, data size.  A first record
 * with an empty path and method 'Vers' is the header: NUL-terminated
 * key/value strings follow it, ended by an empty key.  A later record with
 * an empty path ends the table.  The entries' bytes follow the table in
 * table order (data size bytes each).  Arma's PBOs end with 0x00 and the
 * 20-byte SHA-1 of every byte before it.  Source: BI community wiki "PBO
 * File Format" (entry structure, header extension, checksum). */
#include <nettle/sha1.h>
#include <nettle/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "core/lzss.h"
#include "archive_int.h"

#define RECORD_FIELDS 20u
#define TRAILER 21u /* 0x00 + SHA-1 */

/* SHA-1 of b[0..n) through nettle (the digest call lost its length
 * argument in nettle 3.10). */
static void sha1(const uint8_t *b, uint64_t n, uint8_t out[SHA1_DIGEST_SIZE])
{
	struct sha1_ctx ctx;
	sha1_init(&ctx);
	while (n) {
		size_t k = n > ((size_t)1 << 30) ? ((size_t)1 << 30) : (size_t)n;
		sha1_update(&ctx, k, b);
		b += k;
		n -= k;
	}
#if NETTLE_VERSION_MAJOR > 3 || (NETTLE_VERSION_MAJOR == 3 && NETTLE_VERSION_MINOR >= 10)
	sha1_digest(&ctx, out);
#else
	sha1_digest(&ctx, SHA1_DIGEST_SIZE, out);
#endif
}

/* The header's key/value strings from pos; returns the first byte after
 * them, or size when they are cut (reported). */
static uint64_t properties(arc_reader *r, uint64_t pos, const wl_chunk *hdr)
{
	const uint8_t *b = r->bytes;
	for (;;) {
		uint64_t k = arc_strend(b, r->size, pos);
		if (k >= r->size)
			break;
		if (k == pos)
			return pos + 1; /* the empty key ends them */
		uint64_t v = arc_strend(b, r->size, k + 1);
		if (v >= r->size)
			break;
		if (k - pos == 6 && memcmp(b + pos, "prefix", 6) == 0) {
			char *p = wl_arena_alloc(r->doc->arena, (size_t)(v - k));
			if (!p) {
				r->doc->oom = true;
				return r->size;
			}
			memcpy(p, b + k + 1, (size_t)(v - k));
			r->a->prefix = p;
		}
		pos = v + 1;
	}
	wl_report(&r->doc->findings, WLR_ARCHIVE_TABLE_TRUNCATED, hdr, -1, pos, r->size - pos,
		  "the header's properties are cut by the end of the file");
	return r->size;
}

/* The records; returns the first byte after the table, or size when it is
 * cut (reported). */
static uint64_t table(arc_reader *r)
{
	const uint8_t *b = r->bytes;
	wl_findings *f = &r->doc->findings;
	uint64_t pos = 0;
	for (size_t i = 0; !r->doc->oom; i++) {
		uint64_t nul = arc_strend(b, r->size, pos);
		if (nul >= r->size || r->size - nul - 1 < RECORD_FIELDS) {
			wl_report(f, WLR_ARCHIVE_TABLE_TRUNCATED, NULL, -1, pos, r->size - pos,
				  "table record %zu is cut by the end of the file (no record with an empty path ends the "
				  "table)",
				  i);
			return r->size;
		}
		const uint8_t *p = b + nul + 1;
		uint32_t method = wl_le32(p), orig = wl_le32(p + 4), stored = wl_le32(p + 16);
		uint64_t rec_size = nul + 1 + RECORD_FIELDS - pos;
		if (nul == pos) {
			if (i == 0 && method == WL_PBO_METHOD_VERS) {
				wl_chunk *hdr = arc_node(r, ARC_NODE_HEADER, pos, rec_size, NULL);
				pos = properties(r, pos + rec_size, hdr);
				if (pos >= r->size)
					return r->size;
				continue;
			}
			arc_node(r, ARC_NODE_TABLE_END, pos, rec_size, NULL);
			return pos + rec_size;
		}
		wl_archive_entry *e = arc_add(r, b + pos, (size_t)(nul - pos), pos, rec_size);
		if (!e)
			return r->size;
		e->method = method;
		e->stored = stored;
		e->packed = method == WL_PBO_METHOD_CPRS;
		e->size = e->packed ? orig : stored;
		pos += rec_size;
	}
	return r->size;
}

/* An entry that cannot be unpacked: its method, or its sizes. */
static void check_packing(arc_reader *r, wl_archive_entry *e)
{
	wl_findings *f = &r->doc->findings;
	if (e->method != WL_PBO_METHOD_NONE && !e->packed) {
		wl_report(f, WLR_ARCHIVE_PBO_UNPACK, e->node, -1, e->record, e->record_size,
			  "entry '%s' is packed with method 0x%08lX, neither none (0) nor 'Cprs': it cannot be read",
			  e->path, (unsigned long)e->method);
		e->readable = false;
		return;
	}
	if (!e->packed)
		return;
	if (e->size > e->stored * WL_LZSS_MAX_RATIO) {
		wl_report(f, WLR_ARCHIVE_PBO_UNPACK, e->node, -1, e->record, e->record_size,
			  "packed entry '%s' gives %llu bytes unpacked, more than its %llu packed bytes can hold",
			  e->path, (unsigned long long)e->size, (unsigned long long)e->stored);
		e->readable = false;
		return;
	}
	if (r->depth != WL_ARCHIVE_FULL || !e->readable)
		return;
	uint8_t *out = NULL;
	char why[160];
	if (wl_archive_unpack(e, r->bytes + e->offset, &out, why, sizeof why) != 0) {
		if (!out && strstr(why, "memory"))
			r->doc->oom = true;
		else
			wl_report(f, WLR_ARCHIVE_PBO_UNPACK, e->node, -1, e->offset, e->stored,
				  "packed entry '%s' does not unpack: %s", e->path, why);
		e->readable = false;
	}
	free(out);
}

void arc_read_pbo(arc_reader *r)
{
	wl_archive *a = r->a;
	uint64_t start = table(r);
	a->data_start = start;
	uint64_t at = start;
	for (size_t i = 0; i < a->count; i++) {
		a->entries[i].offset = at;
		at += a->entries[i].stored; /* at most count * 2^32: no overflow */
	}
	a->data_end = at;
	/* Arma's trailer: 0x00 and the SHA-1 of everything before it, right
	 * after the data; when the data as listed end early, the last 21 bytes
	 * (if they start with 0x00) are taken for it, and what lies between is
	 * unlisted. */
	uint64_t end = r->size;
	if (start < r->size && at <= r->size && r->size - at >= TRAILER && r->bytes[r->size - TRAILER] == 0) {
		end = r->size - TRAILER;
		a->has_trailer = true;
	}
	arc_check_entries(r, end);
	for (size_t i = 0; i < a->count && !r->doc->oom; i++)
		check_packing(r, &a->entries[i]);
	if (start < r->size && at < end)
		arc_unlisted(r, at, end);
	if (!a->has_trailer)
		return;
	wl_chunk *t = arc_node(r, ARC_NODE_TRAILER, end, TRAILER, NULL);
	if (r->depth != WL_ARCHIVE_FULL)
		return;
	uint8_t digest[SHA1_DIGEST_SIZE];
	sha1(r->bytes, end, digest);
	a->hash_ok = memcmp(digest, r->bytes + end + 1, SHA1_DIGEST_SIZE) == 0;
	if (!a->hash_ok)
		wl_report(&r->doc->findings, WLR_ARCHIVE_PBO_HASH, t, -1, end, TRAILER,
			  "the SHA-1 after the data does not match the %llu bytes before it", (unsigned long long)end);
}

/* ------------------------------------------------------------- writing */

static uint64_t pbo_tail(const wl_archive *a)
{
	return a->has_trailer ? TRAILER : 0;
}

/* The record's five u32 LE after the path: a replaced entry gets its data
 * size; one that was packed is now stored (method 0, original size 0).
 * The offsets are implicit (table order). */
static int pbo_record(uint8_t *rec, const wl_archive_entry *e, uint64_t offset, uint64_t stored, bool repacked)
{
	(void)offset;
	if (stored > UINT32_MAX)
		return -1;
	if (!repacked && stored == e->stored)
		return 0; /* moved only: nothing in the record says where */
	uint8_t *f = rec + e->record_size - RECORD_FIELDS;
	if (repacked) {
		arc_put_le32(f, WL_PBO_METHOD_NONE);
		arc_put_le32(f + 4, 0);
	} else if (wl_le32(f + 4) != 0) {
		arc_put_le32(f + 4, (uint32_t)stored); /* a stored entry's original size, when given */
	}
	arc_put_le32(f + 16, (uint32_t)stored);
	return 0;
}

/* The trailer again, when the input had one: 0x00 + SHA-1 of the bytes
 * before it. */
static uint64_t pbo_finish(const wl_archive *a, uint8_t *out, uint64_t len)
{
	if (!a->has_trailer)
		return len;
	out[len] = 0;
	sha1(out, len, out + len + 1);
	return len + TRAILER;
}

const arc_writer arc_pbo_writer = { pbo_tail, pbo_record, pbo_finish };
