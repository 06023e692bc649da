/*
 * check_util.h - small helpers shared by the B3D checks (lint/b3d/check_*.c):
 * the byte span of a whole chunk, finiteness of record floats and the
 * display name of the NODE that holds an object.
 */
#ifndef WL_B3D_CHECK_UTIL_H
#define WL_B3D_CHECK_UTIL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/cursor.h"
#include "checks.h"

/** Bytes of chunk c, header included, clamped to the end of the file. */
static inline uint64_t b3c_chunk_len(const wl_doc *d, const wl_chunk *c)
{
	uint64_t end = wl_chunk_end(c);
	if (end > d->size)
		end = d->size;
	return end > c->offset ? end - c->offset : 0;
}

/** True when chunk c was cut short by the end of the file or its parent
 *  (the reader reported it): what it lacks may have been lost, not left out. */
static inline bool b3c_cut(const wl_chunk *c)
{
	return (c->recovery & (WL_REC_TRUNCATED | WL_REC_CLAMPED | WL_REC_PAST_EOF)) != 0;
}

/** The little-endian int32 at p. */
static inline int32_t b3c_i32(const uint8_t *p)
{
	return (int32_t)wl_le32(p);
}

/** True when the n binary32 values at p are all finite. */
static inline bool b3c_finite(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(wl_lef32(p + 4 * i)))
			return false;
	return true;
}

/** True when the n floats of v are all finite. */
static inline bool b3c_finite_v(const float *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return false;
	return true;
}

/** Bytes of a name of len bytes printed in a message (%.*s): at most 64,
 *  so a hostile name cannot blow up the report. */
static inline int b3c_shown(size_t len)
{
	return len > 64 ? 64 : (int)len;
}

/** Name of node n for messages ("" when n is NULL or unnamed); messages
 *  print it with %.64s. */
static inline const char *b3c_node_name(const b3d_node *n)
{
	return n && n->label ? n->label : "";
}

#endif
