/*
 * archbuild.h - builds BIG and PBO archives in memory for tests (layouts:
 * docs/archives.md).  Entries are laid out after the table in order; the
 * record and data offsets are returned so that a test can damage them.
 * Allocation failures abort the test process (w3dbuild.h wb).
 */
#ifndef ARCHBUILD_H
#define ARCHBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "w3dbuild.h"

typedef struct t_arc_entry {
	const char *name;   /* path as stored ('\' separators for the games) */
	const void *data;
	size_t len;
	bool pack;          /* PBO: packed with BI LZSS ('Cprs') */
} t_arc_entry;

/* Where the builder put things (file offsets), per entry. */
typedef struct t_arc_layout {
	size_t record[64];  /* table record */
	size_t data[64];    /* first data byte */
	size_t trailer;     /* PBO: the 0x00 of the SHA-1 trailer (0: none) */
} t_arc_layout;

/** A BIG archive (magic "BIGF" or "BIG4") of n entries into b
 *  (t_w3d_init'ed): the header's size field is the archive's size.  at
 *  (entries' places, for n <= 64) may be NULL. */
void t_arc_big(wb *b, const char *magic, const t_arc_entry *e, size_t n, t_arc_layout *at);

/** A PBO of n entries into b (t_w3d_init'ed): a 'Vers' header with the
 *  property prefix (when not NULL), the records, the end record, the data
 *  and, when trailer, 0x00 + SHA-1 (nettle) of the bytes before it.  at
 *  (entries' places, for n <= 64) may be NULL. */
void t_arc_pbo(wb *b, const char *prefix, const t_arc_entry *e, size_t n, bool trailer, t_arc_layout *at);

/** Rewrites the PBO trailer at at->trailer for the bytes now before it. */
void t_arc_pbo_rehash(wb *b, const t_arc_layout *at);

/** Overwrites 4 bytes at offset with v, big-endian (BIG table fields). */
void t_arc_patch_be32(wb *b, size_t offset, uint32_t v);

#endif
