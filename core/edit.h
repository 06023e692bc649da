/*
 * edit.h - the one way to change a document's chunk tree, and the writer.
 *
 * Fixers never write bytes themselves: they replace a data chunk's payload,
 * insert, remove or re-parent nodes, or ask for a container's size and
 * container bit to be recomputed.  Every edit marks the edited node and its
 * ancestors dirty and is recorded in the document's edit log (for
 * `w3dfix --dry-run` and `--diff`).
 *
 * The writer (wl_doc_write) copies every node that is not dirty verbatim from
 * the input bytes - header, payload, unknown chunks, gaps (stray bytes) - and
 * re-serialises only dirty chunks, recomputing their sizes from what is
 * written beneath them (header: id, size | bit 31, little-endian uint32
 * each, W3D chunkio.h:91-111).  With no edit, the output is the input byte
 * for byte, because the tree covers every byte once (chunk.h).
 *
 * Bit 31 (the container bit) of a rebuilt header: for a new chunk and for a
 * chunk passed to wl_edit_touch() it is recomputed - set exactly when the
 * chunk holds at least one child chunk, as the Westwood writer does
 * (chunkio.cpp:109-130); for a chunk rebuilt only because something beneath
 * it changed, or whose payload was replaced, the bit is kept as read, so a
 * repair elsewhere never flips the bits of a legacy file
 * (notes/w3d_reference.md §1.1).
 *
 * A dirty chunk the reader marked WL_REC_TRUNCATED (cut by the end of the
 * file) keeps the bytes it lacked: its written size is what is written
 * beneath it plus (declared size - bytes read), so an edit inside a cut
 * object never makes its size look consistent while a child is still cut.
 * Removing the cut chunk is the only repair of a truncation.
 *
 * The writer knows headers of 8 bytes (uint32 id, uint32 size, both
 * little-endian, bit 31 of the size the container bit when the format has
 * one), the W3D layout, and nodes without headers (header_size 0: P3D,
 * whose sizes are fields inside the bytes): a dirty one is written as what
 * it holds (its fields and children, or its payload), sizes untouched.
 *
 * All new payloads live in the document's arena.  Functions return 0, or -1
 * when out of memory (doc->oom is then set) or when the node is not a valid
 * target (documented per function).
 */
#ifndef WL_EDIT_H
#define WL_EDIT_H

#include <stddef.h>
#include <stdint.h>

#include "chunk.h"
#include "platform/printf.h"

/* wl_edit and wl_edit_log (the per-document log, wl_doc.edits) are defined
 * in chunk.h. */

/* Bits of wl_chunk.dirty (any non-zero value means "rebuilt, not copied"). */
#define WL_DIRTY 0x1u        /* re-serialised: size recomputed */
#define WL_DIRTY_BIT 0x2u    /* bit 31 recomputed from the children too */
#define WL_DIRTY_NEW 0x4u    /* inserted by an edit: has no input bytes */
#define WL_DIRTY_CUT 0x10u   /* cut by the end of the file, sized to what it holds */

/** Records an edit in d's log (the chunk-changing functions below do not
 *  log by themselves: the fixer states what and why).  Returns 0 or -1. */
int wl_edit_note(wl_doc *d, const wl_chunk *c, wl_rule_id rule, uint64_t offset,
		 const char *fmt, ...) __attribute__((format(WL_PRINTF_FMT, 5, 6)));

/** The current payload of a data chunk: its replacement if one was set,
 *  else its input bytes.  *len gets the byte count. */
const uint8_t *wl_edit_payload(const wl_doc *d, const wl_chunk *c, size_t *len);

/** Replaces the payload of data chunk c (not a container, not a gap) with a
 *  copy of n bytes at p.  Marks c and its ancestors dirty. */
int wl_edit_set_payload(wl_doc *d, wl_chunk *c, const uint8_t *p, size_t n);

/** The current fields of container c (wl_chunk.fields: the bytes before
 *  its first child, B3D's NODE name and transform): the replacement if one
 *  was set, else its input bytes.  *len gets the byte count (0 and NULL
 *  for a data chunk, a gap or the root). */
const uint8_t *wl_edit_fields(const wl_doc *d, const wl_chunk *c, size_t *len);

/** Replaces the fields of container c with a copy of n bytes at p (its
 *  children are kept).  Marks c and its ancestors dirty.  -1 when c is not
 *  a container chunk, or out of memory. */
int wl_edit_set_fields(wl_doc *d, wl_chunk *c, const uint8_t *p, size_t n);

/** Overwrites the n bytes at byte k of c's current payload (a data chunk)
 *  or fields (a container) with p[0..n); old (may be NULL) gets the n bytes
 *  replaced.  The first edit of c copies its bytes into the arena once,
 *  later ones write into that copy, so that memory grows with the bytes
 *  changed, not with edits x chunk size (issue 29: 201 keys normalised
 *  one by one in a 12 KB KEYS ran out of the arena).  Marks c and its
 *  ancestors dirty.  -1 when c is not a chunk, was removed, or [k, k + n)
 *  is not inside those bytes (nothing changed), or out of memory (d->oom
 *  set). */
int wl_edit_overwrite(wl_doc *d, wl_chunk *c, size_t k, const uint8_t *p, size_t n, uint8_t *old);

/** Marks chunk c (and its ancestors) dirty so the writer recomputes its
 *  size and container bit from what it holds, e.g. after the reader
 *  recovered a wrong size (WL_REC_EXTENDED, WL_REC_PAST_EOF, WL_REC_CLAMPED).
 *  On a container the size becomes the bytes of its children (gaps
 *  included); on a data chunk the size becomes its payload's byte count and
 *  bit 31 is cleared.  -1 when c is not a chunk (a gap or the root). */
int wl_edit_touch(wl_doc *d, wl_chunk *c);

/** Marks chunk c (and its ancestors) dirty so the writer recomputes its
 *  size, keeping bit 31 as read: the repair of a wrong size that must not
 *  touch the container bit.  -1 when c is not a chunk. */
int wl_edit_resize(wl_doc *d, wl_chunk *c);

/** Salvage of chunk c cut by the end of the file (WL_REC_TRUNCATED): the
 *  writer gives it the size of what it holds (by default a dirty cut chunk
 *  keeps the bytes it lacks in its size, so it stays exactly as short as it
 *  was).  Marks c and its ancestors dirty; bit 31 as read.  -1 when c is
 *  not a chunk. */
int wl_edit_cut(wl_doc *d, wl_chunk *c);

/** The payload bytes the writer will give node c now: for a clean chunk or
 *  a gap its input size, for a dirty data chunk its (new) payload, for a
 *  dirty container the sum of its nodes' written lengths (header included),
 *  for the root the length of the whole output.  For edit notes
 *  ("size 1200 -> 1316"). */
uint64_t wl_edit_written_size(const wl_doc *d, const wl_chunk *c);

/** Removes node c (chunk or gap, with everything beneath it) from its
 *  parent; ancestors become dirty.  -1 when c is the root or already
 *  removed. */
int wl_edit_remove(wl_doc *d, wl_chunk *c);

/** Inserts a new data chunk (id, copy of n bytes at p) into parent after
 *  node `after` (NULL = as first child).  parent must be the root or a
 *  chunk whose children were parsed (container) or one made by
 *  wl_edit_insert_container; `after` must be a child of parent.  Returns
 *  the node, NULL on OOM or an invalid target.  Its offset is where it will
 *  sit in input terms (the end of `after`, or parent's payload start). */
wl_chunk *wl_edit_insert(wl_doc *d, wl_chunk *parent, wl_chunk *after, uint32_t id,
			 const uint8_t *p, size_t n);

/** Inserts a new empty container chunk (id) like wl_edit_insert. */
wl_chunk *wl_edit_insert_container(wl_doc *d, wl_chunk *parent, wl_chunk *after, uint32_t id);

/** Moves node c to be a child of new_parent after node `after` (NULL =
 *  first).  Both old and new ancestors become dirty.  -1 when new_parent is
 *  not a container, is c or lies beneath c, or `after` is not a child of
 *  new_parent (or is c). */
int wl_edit_move(wl_doc *d, wl_chunk *c, wl_chunk *new_parent, wl_chunk *after);

/** Number of edits made to d so far (its log's count). */
size_t wl_edit_count(const wl_doc *d);

/**
 * Serialises d: clean nodes verbatim, dirty ones rebuilt.  On success
 * *out is a malloc'd buffer of *out_len bytes (caller frees) and 0 is
 * returned; -1 on out of memory, when a rebuilt size exceeds 0x7FFFFFFF,
 * or when a dirty chunk of a format with headers other than 8 bytes
 * would need a new one.  An unedited document of any format gives back
 * its bytes.
 */
int wl_doc_write(const wl_doc *d, uint8_t **out, size_t *out_len);

#endif
