/*
 * archive.h - the archives mods ship, read as folders: EA's BIG (BIGF,
 * BIG4: Generals, Zero Hour, BFME) and Bohemia's PBO (Arma, DayZ).
 * Layouts, field by field, with their sources: docs/archives.md.
 *
 * An archive is read into a document (core/chunk.h wl_doc) whose nodes are
 * its header, one node per table record (label: the entry's path) and, for
 * a PBO, its SHA-1 trailer; the document's findings are the archive-* rules
 * of rules/archive.yaml, and doc->model is the wl_archive below (the entry
 * table, in the document's arena).  Nothing read from the archive is
 * trusted: the table is read with the bounds-checked cursor, every offset
 * and size is checked against the file, an entry whose bytes do not lie in
 * the file is marked unreadable (and reported), and a packed entry's size
 * is bounded by what its packed bytes can hold (WL_LZSS_MAX_RATIO).  The
 * readable entries of a damaged archive stay readable.
 *
 * Findings (rules/archive.yaml; one per defective record, at its bytes):
 *   archive-table-truncated   the header or the entry table is cut by the
 *                             end of the file (the records before the cut
 *                             are kept)
 *   archive-big-size-field    BIG: the archive size at offset 4 is not the
 *                             file's size
 *   archive-entry-past-end    an entry's bytes run past the end of the file
 *                             (PBO: of the data, before the trailer)
 *   archive-entries-overlap   an entry starts inside the bytes of another
 *                             (not: two records of the very same bytes)
 *   archive-duplicate-name    a second entry of the same path (letter case
 *                             and '/' or '\' ignored, as the games look up)
 *   archive-unlisted-bytes    bytes after the last entry that no entry (nor
 *                             the PBO trailer) holds
 *   archive-pbo-hash          the SHA-1 after the data does not match the
 *                             bytes before it (nettle's SHA-1)
 *   archive-pbo-unpack        an entry that cannot be unpacked: a packing
 *                             method other than none or 'Cprs', an
 *                             unpacked size its packed bytes cannot hold,
 *                             or (when checked) an LZSS stream that does
 *                             not decode to it
 */
#ifndef WL_ARCHIVE_H
#define WL_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"

/* Archive kinds. */
typedef enum wl_archive_kind { WL_ARCHIVE_BIG = 0, WL_ARCHIVE_PBO = 1 } wl_archive_kind;

/* PBO packing methods (u32 LE in the record; BI wiki "PBO File Format"). */
#define WL_PBO_METHOD_NONE 0u
#define WL_PBO_METHOD_VERS 0x56657273u /* 'Vers': the header record */
#define WL_PBO_METHOD_CPRS 0x43707273u /* 'Cprs': BI LZSS, core/lzss.h */

typedef struct wl_archive_entry {
	const char *name;       /* as stored (no NUL inside), arena */
	const char *path;       /* the same with '\' as '/': reports name
	                         * ARCHIVE:PATH */
	uint64_t record;        /* file offset of its table record */
	uint64_t record_size;   /* bytes of the record, name included */
	uint64_t offset;        /* file offset of its bytes */
	uint64_t stored;        /* bytes in the archive */
	uint64_t size;          /* bytes once unpacked (= stored unless packed) */
	uint32_t method;        /* PBO packing method; 0 for BIG */
	bool packed;            /* PBO 'Cprs' */
	bool readable;          /* its bytes lie in the file and can be unpacked */
	const wl_chunk *node;   /* its record's node in the document */
} wl_archive_entry;

typedef struct wl_archive {
	wl_archive_kind kind;
	wl_archive_entry *entries;  /* table order, arena */
	size_t count;
	const char *prefix;         /* PBO "prefix" property, or NULL */
	uint64_t data_start;        /* first byte after the table */
	uint64_t data_end;          /* end of the entries' bytes as listed */
	bool has_trailer;           /* PBO: 0x00 + SHA-1 found after the data */
	bool hash_ok;               /* ... and it matches (when checked) */
	bool partial;               /* wl_archive_read_head: the table runs past
	                             * the head (read the file whole) */
} wl_archive;

/* How much wl_archive_read checks. */
typedef enum wl_archive_depth {
	WL_ARCHIVE_TABLE = 0, /* the table and the offsets only (walks) */
	WL_ARCHIVE_FULL = 1   /* also the PBO SHA-1 and every packed entry's LZSS */
} wl_archive_depth;

/**
 * Reads bytes[0..size) (borrowed; must outlive the document) as an archive
 * of the given kind.  Returns a document whose model (doc->model) is the
 * wl_archive, with the findings above; NULL only when out of memory.
 * doc->format is the archive's own descriptor (wl_archive_format), not a
 * model format.
 */
wl_doc *wl_archive_read(wl_archive_kind kind, const char *path, const uint8_t *bytes, uint64_t size,
			wl_archive_depth depth);

/**
 * wl_archive_read from the file's first bytes only: bytes[0..have)
 * (borrowed) of a file of size bytes.  Only a BIG's table can be read so:
 * its checks use the entries' offsets and sizes and the file's size, never
 * their bytes.  A table that runs past have sets a->partial and stops
 * there (no finding: the file is to be read whole).  A PBO, or have ==
 * size, is wl_archive_read.  doc->bytes holds have bytes only.
 */
wl_doc *wl_archive_read_head(wl_archive_kind kind, const char *path, const uint8_t *bytes, uint64_t have,
			     uint64_t size, wl_archive_depth depth);

/** The descriptor of an archive kind's documents ("big", "pbo"): a name, a
 *  title and node names only; no model format registry knows it. */
const wl_format *wl_archive_format(wl_archive_kind kind);

/** The kind of a core/filekind.h kind id ("big", "pbo"); false for others. */
bool wl_archive_kind_of(const char *kind_id, wl_archive_kind *out);

/**
 * Unpacks entry e from its stored bytes in[0..e->stored): a malloc'd copy
 * of e->size bytes in *out.  Returns 0, or -1 with a lower-case reason in
 * why (not packed with a method it knows, LZSS stream damaged, out of
 * memory).
 */
int wl_archive_unpack(const wl_archive_entry *e, const uint8_t *in, uint8_t **out, char *why, size_t why_cap);

/**
 * Reads entry e of the archive file at path, bytes e->offset ..
 * +e->stored only (pread), and unpacks it: *out (malloc'd, *len bytes).
 * The file's current size is checked first (it may have changed since the
 * table was read).  Returns 0, or -1 with the reason in why.
 */
int wl_archive_load(const char *path, const wl_archive_entry *e, uint8_t **out, size_t *len, char *why,
		    size_t why_cap);

/**
 * Reads of the archive file at path what wl_archive_read needs for its
 * table (the lint's depth included): a BIG's header and table only (for
 * wl_archive_read_head), any other file whole.  *out: malloc'd, *have
 * bytes, the file's first; *size: the file's size (= *have when read
 * whole).  A BIG's table is read from the head to check that it ends
 * inside it, else the file is read whole.  Never for callers that use the
 * entries' bytes.  Returns a core/file_io.h WL_READ_* code (errno set).
 */
int wl_archive_read_table(const char *path, uint8_t **out, uint64_t *size, uint64_t *have);

/* ------------------------------------------------------------- writing
 * An archive rewritten with some entries replaced (core/archive/
 * archive_write.c; w3dfix -o / --in-place on an archive).  The output is
 * the input with, for each replaced entry, its stored bytes swapped for
 * the new ones: every other byte (the other entries, padding, gaps and
 * unlisted bytes between them, the records' names and other fields) is
 * copied unchanged, in the same order.  The table is patched in place (its
 * size never changes): the offsets and sizes of the entries that moved or
 * changed, BIG's archive-size field (little-endian) and big-endian record
 * fields; PBO's data size, and a replaced packed entry is written stored
 * (method 0, original size 0: no LZSS encoder here); the PBO trailer, when
 * the input has one, is computed again (nettle SHA-1 of every byte before
 * it).  With no patch the output equals the input byte for byte. */

/* The new bytes of entry `entry` (index in wl_archive.entries), unpacked;
 * borrowed. */
typedef struct wl_archive_patch {
	size_t entry;
	const uint8_t *bytes;
	size_t len;
} wl_archive_patch;

/**
 * Why an archive document (wl_archive_read at WL_ARCHIVE_FULL) may not be
 * rewritten: the first finding of damage that rewriting would hide or
 * could not keep - a table cut short (archive-table-truncated), an entry
 * past the end (archive-entry-past-end), overlapping entries
 * (archive-entries-overlap), a BIG size field that is not the file's
 * (archive-big-size-field), a PBO hash that does not verify
 * (archive-pbo-hash) - or NULL when it may.  Damage that stays confined to
 * what is copied unchanged - duplicate paths, unlisted bytes, an entry that
 * does not unpack (and so is never replaced) - does not stop a rewrite.
 */
const wl_finding *wl_archive_unwritable(const wl_doc *d);

/**
 * Writes d's archive (d->bytes) with the np patches applied (at most one
 * per entry; a replaced entry must be readable) into *out (malloc'd,
 * *out_len bytes).  Returns 0, or -1 with a lower-case reason in why: the
 * archive is unwritable (above), a patch names no readable entry or comes
 * twice, a size too big for a 32-bit field, out of memory.
 */
int wl_archive_rewrite(const wl_doc *d, const wl_archive_patch *p, size_t np, uint8_t **out, size_t *out_len,
		       char *why, size_t why_cap);

#endif
