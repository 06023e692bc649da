/*
 * archive_int.h - shared by the archive readers (big.c, pbo.c) and their
 * common checks (archive.c); not used outside core/archive/.
 */
#ifndef WL_ARCHIVE_INT_H
#define WL_ARCHIVE_INT_H

#include "archive.h"

/* Node ids of an archive document (core/chunk.h wl_chunk.id). */
enum { ARC_NODE_HEADER = 1, ARC_NODE_RECORD = 2, ARC_NODE_TABLE_END = 3, ARC_NODE_TRAILER = 4 };

/* One archive being read. */
typedef struct arc_reader {
	wl_doc *doc;
	wl_archive *a;
	const uint8_t *bytes;
	uint64_t size;         /* the file's */
	uint64_t have;         /* bytes of it in bytes[] (= size, or a BIG's head) */
	size_t cap;            /* entries allocated */
	wl_archive_depth depth;
} arc_reader;

/** A node of type id over [offset, offset+size) under the root; NULL on OOM. */
wl_chunk *arc_node(arc_reader *r, uint32_t id, uint64_t offset, uint64_t size, const char *label);

/** Appends an entry named name[0..len) whose record is at rec (its node
 *  made here, rec_size bytes); NULL on OOM. */
wl_archive_entry *arc_add(arc_reader *r, const uint8_t *name, size_t len, uint64_t rec, uint64_t rec_size);

/** The offset of the NUL ending a string at from, or size when none. */
uint64_t arc_strend(const uint8_t *b, uint64_t size, uint64_t from);

/** Checks common to both kinds, after the table: each entry against the
 *  end of the file (end: first byte its data may not reach), overlaps,
 *  duplicate paths; sets readable. */
void arc_check_entries(arc_reader *r, uint64_t end);

/** archive-unlisted-bytes over [from, to) when not empty. */
void arc_unlisted(arc_reader *r, uint64_t from, uint64_t to);

void arc_read_big(arc_reader *r);

/** BIG: the leading bytes its table takes as its header head[0..16) says
 *  (the data offset, at least 16, at most size); 0 when head is no BIG. */
uint64_t arc_big_table_bytes(const uint8_t *head, uint64_t size);
void arc_read_pbo(arc_reader *r);

/* What archive_write.c asks of a kind when rewriting (big.c, pbo.c). */
typedef struct arc_writer {
	/* Bytes after the data that the kind writes itself (PBO trailer). */
	uint64_t (*tail)(const wl_archive *a);
	/* Patches the record of e, at rec in the output, for its new offset
	 * and stored size; repacked: e was packed and is now stored.
	 * Returns -1 when a value does not fit its field. */
	int (*record)(uint8_t *rec, const wl_archive_entry *e, uint64_t offset, uint64_t stored, bool repacked);
	/* Finishes out[0..len): header fields, then the tail (out has room
	 * for it after len); returns the final length. */
	uint64_t (*finish)(const wl_archive *a, uint8_t *out, uint64_t len);
} arc_writer;

extern const arc_writer arc_big_writer, arc_pbo_writer;

/* Table fields written back (u32, the byte order in the name). */
static inline void arc_put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void arc_put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

#endif
