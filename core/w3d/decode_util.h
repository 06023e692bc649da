/*
 * decode_util.h - small helpers shared by the W3D chunk decoders
 * (decode_mesh.c, decode_hierarchy.c, decode_animation.c, decode_hlod.c).
 *
 * Units: sizes and counts are bytes unless named otherwise; offsets are
 * absolute file offsets in bytes.  Ownership: nothing here owns memory.
 * Decoded objects and arrays live in doc->arena (freed with the document);
 * byte pointers borrow doc->bytes.  Allocation failures set doc->oom.
 */
#ifndef W3D_DECODE_UTIL_H
#define W3D_DECODE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"
#include "core/cursor.h"

/**
 * A cursor over the payload of chunk k: k->size bytes starting at its
 * payload, whose origin is the payload's absolute file offset (so
 * wl_cursor_offset() gives file offsets).  Borrows doc->bytes.
 */
wl_cursor w3d_payload_cursor(const wl_doc *doc, const wl_chunk *k);

/**
 * The payload of c clamped to the document: *len bytes (at most c->size)
 * from its payload offset, or *len = 0 when the payload starts past the end
 * of the file.  Borrows doc->bytes.
 */
const uint8_t *w3d_payload_clamped(const wl_doc *doc, const wl_chunk *c, size_t *len);

/**
 * Allocates a decoded object in doc->arena as a copy of init (size bytes:
 * the object's initial value, e.g. a compound literal with src and name set
 * and every other field zero).  Returns it, or NULL (doc->oom set) when out
 * of memory.  The arena owns the object.
 */
void *w3d_alloc_decoded(wl_doc *doc, const void *init, size_t size);

/** Reads n little-endian float32 values into v[0..n) (0 past a short read). */
void w3d_read_f32s(wl_cursor *cur, float *v, size_t n);

/** Sets doc->oom and returns NULL (for `return w3d_oom(doc);`). */
void *w3d_oom(wl_doc *doc);

/**
 * The header child of c: the first chunk child with this id, or NULL.
 * *first tells whether it is also the first chunk child of c (gaps do not
 * count); false when there is no header.
 */
const wl_chunk *w3d_find_header(const wl_chunk *c, uint32_t id, bool *first);

/**
 * Sets c's label (wl_chunk_set_label) to name when name is non-NULL and not empty; otherwise
 * leaves the label alone.  name must live as long as the document (an
 * arena string); it is borrowed, not copied.
 */
void w3d_set_label(wl_doc *doc, wl_chunk *c, const char *name);

/**
 * Copies a fixed name field of n bytes at p into the arena: up to the first
 * NUL, the bytes as they are (outputs escape them, core/escape.h).  *terminated (may be NULL) tells
 * whether a NUL was found.  NULL on OOM.  Shared by the W3D decoders.
 */
const char *w3d_name_field(wl_doc *doc, const uint8_t *p, size_t n, bool *terminated);

/**
 * Decodes the fixed-size name field p[0..n) (n bytes, e.g. 16 or 32) as a
 * printable arena string (w3d_name_field: up to the first NUL,
 * non-printable bytes as '?'; *terminated, when not NULL, tells whether a
 * NUL was found), then labels c with it when it is not empty
 * (w3d_set_label).  Returns the string, or NULL when out of memory
 * (doc->oom set, label unchanged).
 */
const char *w3d_label_from_field(wl_doc *doc, wl_chunk *c, const uint8_t *p, size_t n,
				 bool *terminated);

/**
 * Reads the variable data that follows a fixed record header: when the
 * cursor did not run short while reading the header, *data borrows the
 * remaining bytes of the payload, *bytes is their count and, when offset is
 * not NULL, *offset is the absolute file offset of data[0]; returns whether
 * the header was whole (the caller's header_ok).  When short, nothing is
 * written and false is returned.
 */
bool w3d_take_rest(wl_cursor *cur, const uint8_t **data, size_t *bytes, uint64_t *offset);

/** Decodes one record of the file at p into the element elem, writing
 *  every byte of it (the element is not zeroed before). */
typedef void (*w3d_record_fn)(void *elem, const uint8_t *p);

/**
 * Decodes the payload of c (clamped, see w3d_payload_clamped) as an array of
 * fixed records of rec_size bytes: count = payload bytes / rec_size (a
 * trailing partial record is ignored), each decoded by fn into an element
 * of elem_size bytes of an arena array (not zeroed first: fn writes it
 * whole).  Returns the array (valid
 * also for count 0) and stores the count in *count, or returns NULL when out
 * of memory (doc->oom set, *count unchanged).  The arena owns the array.
 */
void *w3d_decode_records(wl_doc *doc, const wl_chunk *c, size_t rec_size, size_t elem_size,
			 w3d_record_fn fn, size_t *count);

#endif
