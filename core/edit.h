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
 * written beneath them (header: id, size | bit 31 when the chunk has child
 * chunks, little-endian, W3D chunkio.h:91-111).  With no edit, the output is
 * the input byte for byte, because the tree covers every byte once
 * (chunk.h).
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

/* wl_edit and wl_edit_log (the per-document log, wl_doc.edits) are defined
 * in chunk.h. */

/** Records an edit in d's log (the chunk-changing functions below do not
 *  log by themselves: the fixer states what and why).  Returns 0 or -1. */
int wl_edit_note(wl_doc *d, const wl_chunk *c, const char *rule, uint64_t offset,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/** The current payload of a data chunk: its replacement if one was set,
 *  else its input bytes.  *len gets the byte count. */
const uint8_t *wl_edit_payload(const wl_doc *d, const wl_chunk *c, size_t *len);

/** Replaces the payload of data chunk c (not a container, not a gap) with a
 *  copy of n bytes at p.  Marks c and its ancestors dirty. */
int wl_edit_set_payload(wl_doc *d, wl_chunk *c, const uint8_t *p, size_t n);

/** Marks container c (and its ancestors) dirty so the writer recomputes
 *  its size and container bit from its children, e.g. after the reader
 *  recovered a wrong size (WL_REC_EXTENDED, WL_REC_PAST_EOF, WL_REC_CLAMPED). */
int wl_edit_touch(wl_doc *d, wl_chunk *c);

/** Removes node c (chunk or gap) from its parent; ancestors become dirty. */
int wl_edit_remove(wl_doc *d, wl_chunk *c);

/** Inserts a new data chunk (id, copy of n bytes at p) into parent after
 *  node `after` (NULL = as first child).  Returns the node, NULL on OOM. */
wl_chunk *wl_edit_insert(wl_doc *d, wl_chunk *parent, wl_chunk *after, uint32_t id,
			 const uint8_t *p, size_t n);

/** Inserts a new empty container chunk (id) like wl_edit_insert. */
wl_chunk *wl_edit_insert_container(wl_doc *d, wl_chunk *parent, wl_chunk *after, uint32_t id);

/** Moves node c to be a child of new_parent after node `after` (NULL =
 *  first).  Both old and new ancestors become dirty. */
int wl_edit_move(wl_doc *d, wl_chunk *c, wl_chunk *new_parent, wl_chunk *after);

/** Number of edits made to d so far (its log's count). */
size_t wl_edit_count(const wl_doc *d);

/**
 * Serialises d: clean nodes verbatim, dirty ones rebuilt.  On success
 * *out is a malloc'd buffer of *out_len bytes (caller frees) and 0 is
 * returned; -1 on out of memory or when a rebuilt size exceeds 0x7FFFFFFF.
 */
int wl_doc_write(const wl_doc *d, uint8_t **out, size_t *out_len);

#endif
