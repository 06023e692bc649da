/* big.c - EA's BIG archive table (archive.h; docs/archives.md §BIG).
 *
 * Header (16 bytes): magic "BIGF" or "BIG4"; archive size, u32
 * little-endian; entry count, u32 big-endian; offset of the first entry's
 * data, u32 big-endian.  Then count records: offset u32 BE, size u32 BE, the
 * path NUL-terminated ('\' separators).  Sources: OpenSAGE BigArchive
 * reader, Generals/Zero Hour Win32BIGFileSystem (GeneralsMD source). */
#include <stdio.h>
#include <string.h>

#include "core/cursor.h"
#include "archive_int.h"

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void arc_read_big(arc_reader *r)
{
	wl_findings *f = &r->doc->findings;
	const uint8_t *b = r->bytes;
	if (r->size < 16) {
		wl_report(f, WLR_ARCHIVE_TABLE_TRUNCATED, NULL, -1, 0, r->size,
			  "the 16-byte BIG header is cut by the end of the file after %llu bytes",
			  (unsigned long long)r->size);
		return;
	}
	if (r->have < 16) {
		r->a->partial = true;
		return;
	}
	wl_chunk *hdr = arc_node(r, ARC_NODE_HEADER, 0, 16, NULL);
	uint32_t declared = wl_le32(b + 4), count = be32(b + 8), first = be32(b + 12);
	if (declared != r->size)
		wl_report(f, WLR_ARCHIVE_BIG_SIZE_FIELD, hdr, -1, 4, 4,
			  "the header gives the archive size as %lu bytes, the file holds %llu",
			  (unsigned long)declared, (unsigned long long)r->size);
	uint64_t pos = 16;
	for (uint32_t i = 0; i < count && !r->doc->oom; i++) {
		uint64_t nul = pos + 8 <= r->have ? arc_strend(b, r->have, pos + 8) : r->have;
		if (nul >= r->have && r->have < r->size) {
			r->a->partial = true; /* a head too short: no finding */
			return;
		}
		if (nul >= r->size) {
			wl_report(f, WLR_ARCHIVE_TABLE_TRUNCATED, hdr, -1, pos, r->size - pos,
				  "table record %lu of %lu is cut by the end of the file", (unsigned long)i,
				  (unsigned long)count);
			break;
		}
		wl_archive_entry *e = arc_add(r, b + pos + 8, (size_t)(nul - pos - 8), pos, nul + 1 - pos);
		if (!e)
			return;
		e->offset = be32(b + pos);
		e->stored = e->size = be32(b + pos + 4);
		pos = nul + 1;
	}
	/* The first-data field as data start when it describes the archive:
	 * from the table's end, in the file, not past any entry's bytes;
	 * else the table's end (the entries' records locate their bytes). */
	uint64_t lowest = UINT64_MAX;
	for (size_t i = 0; i < r->a->count; i++) {
		const wl_archive_entry *e = &r->a->entries[i];
		if (e->stored && e->offset >= pos && e->offset < lowest)
			lowest = e->offset;
	}
	bool sound = first >= pos && first <= r->size && first <= lowest;
	r->a->data_start = sound ? first : pos;
	if (!sound && r->a->count && !r->a->partial)
		wl_report(f, WLR_ARCHIVE_BIG_DATA_OFFSET, hdr, -1, 12, 4,
			  "the header gives the first entry's data at 0x%lX, but the table ends at 0x%llX%s%llX",
			  (unsigned long)first, (unsigned long long)pos,
			  first > r->size ? " and the file at 0x" : " and the first entry's bytes start at 0x",
			  first > r->size ? (unsigned long long)r->size : (unsigned long long)lowest);
	arc_check_entries(r, r->size);
	uint64_t end = r->a->data_start;
	for (size_t i = 0; i < r->a->count; i++)
		if (r->a->entries[i].readable && r->a->entries[i].offset + r->a->entries[i].stored > end)
			end = r->a->entries[i].offset + r->a->entries[i].stored;
	r->a->data_end = end;
	if (r->a->count)
		arc_unlisted(r, end, r->size);
}

uint64_t arc_big_table_bytes(const uint8_t *head, uint64_t size)
{
	if (size < 16 || (memcmp(head, "BIGF", 4) != 0 && memcmp(head, "BIG4", 4) != 0))
		return 0;
	uint64_t first = be32(head + 12);
	return first < 16 ? 16 : first > size ? size : first;
}

/* ------------------------------------------------------------- writing */

static uint64_t big_tail(const wl_archive *a)
{
	(void)a;
	return 0;
}

/* The record: offset and size, u32 big-endian, before the path. */
static int big_record(uint8_t *rec, const wl_archive_entry *e, uint64_t offset, uint64_t stored, bool repacked)
{
	(void)e;
	(void)repacked;
	if (offset > UINT32_MAX || stored > UINT32_MAX || offset + stored > UINT32_MAX)
		return -1;
	arc_put_be32(rec, (uint32_t)offset);
	arc_put_be32(rec + 4, (uint32_t)stored);
	return 0;
}

/* The archive size at offset 4, little-endian (a rewritten archive had it
 * right: archive-big-size-field stops a rewrite). */
static uint64_t big_finish(const wl_archive *a, uint8_t *out, uint64_t len)
{
	(void)a;
	if (len >= 8 && len <= UINT32_MAX)
		arc_put_le32(out + 4, (uint32_t)len);
	return len;
}

const arc_writer arc_big_writer = { big_tail, big_record, big_finish };
