/*
 * p3d_walk.h - field-by-field walking of ODOL structures (ModelInfo in
 * p3d_info.c, LODs in p3d_lod.c) over the one bounds-checked cursor
 * (core/cursor.h): each read names the field it reads, and the first read
 * that cannot be done stops the walk and records that field, its offset and
 * why.  After a stop every read returns 0 and moves nothing, so a structure
 * can be walked to its end without a test after every field.
 *
 * Byte order: little endian (cursor.h).  Offsets are file offsets: the
 * cursor's view starts at the file's first byte and ends where the walked
 * structure must end (the file's end for ModelInfo, the LOD table's end
 * for a LOD).
 */
#ifndef P3D_WALK_H
#define P3D_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/cursor.h"

/* Why a walk stopped. */
typedef enum p3d_stop {
	P3D_STOP_NONE = 0,
	P3D_STOP_END,    /* a field runs past the end of the view */
	P3D_STOP_NUL,    /* a string has no terminating nul before the end */
	P3D_STOP_COUNT,  /* a count whose elements cannot fit in the bytes
	                  * left (at: the count field; count, need set) */
	P3D_STOP_OTHER   /* set by the caller (p3d_walker_stop): why says it */
} p3d_stop;

typedef struct p3d_walker {
	wl_cursor c;       /* origin 0: c.pos is the file offset */
	p3d_stop stop;     /* P3D_STOP_NONE while the walk goes on */
	const char *what;  /* the field that stopped it */
	const char *why;   /* P3D_STOP_OTHER: why (caller's text) */
	uint64_t at;       /* the offset of that field */
	uint64_t count;    /* P3D_STOP_COUNT: the count read */
	uint64_t need;     /* P3D_STOP_COUNT: the fewest bytes it needs */
	uint64_t left;     /* P3D_STOP_COUNT: the bytes left after it */
} p3d_walker;

/** A walker over file[0, end) positioned at from (from <= end). */
p3d_walker p3d_walker_make(const uint8_t *file, uint64_t end, uint64_t from);

/** Stops the walk at the current offset (the first stop is kept). */
void p3d_walker_stop(p3d_walker *w, p3d_stop why, const char *what, const char *text);

/** Stops the walk with P3D_STOP_COUNT at the count field at `at` whose
 *  value count needs at least need bytes where left remain. */
void p3d_walker_stop_count(p3d_walker *w, const char *what, uint64_t at, uint64_t count,
			   uint64_t need, uint64_t left);

/** A u32 count of elements that each take at least min bytes: when the
 *  bytes left after it cannot hold count x min, stops at the count field
 *  (P3D_STOP_COUNT) and returns 0. */
uint32_t p3d_count(p3d_walker *w, const char *what, uint64_t min);

/** Whether n more bytes can be read (else stops with P3D_STOP_END). */
bool p3d_need(p3d_walker *w, uint64_t n, const char *what);

/** Readers of one field: 0 once stopped. */
uint8_t p3d_u8(p3d_walker *w, const char *what);
uint32_t p3d_u32(p3d_walker *w, const char *what);
void p3d_skip(p3d_walker *w, uint64_t n, const char *what);

/** An asciiz (nul included); its first byte, NULL once stopped (stops
 *  with P3D_STOP_NUL when no nul lies before the end). */
const char *p3d_asciiz(p3d_walker *w, const char *what);

/** The current offset and the bytes left in the view. */
static inline uint64_t p3d_pos(const p3d_walker *w) { return w->c.pos; }
static inline uint64_t p3d_left(const p3d_walker *w) { return wl_cursor_remaining(&w->c); }

#endif
