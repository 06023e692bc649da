/*
 * cursor.h - the one bounds-checked reader of untrusted bytes.
 *
 * A cursor is a read-only view of [base, base+len) with an absolute file
 * offset for base[0].  Invariant: pos <= len.  Reading past the end never
 * happens: it sets the sticky short_read flag and returns 0, so a record can
 * be decoded field by field and checked once at the end.
 *
 * Byte order: every multi-byte value in W3D, B3D and P3D is little-endian and
 * is assembled from bytes here (no struct overlays, no unaligned casts).
 * Floats are IEEE-754 binary32, copied bit for bit.
 */
#ifndef WL_CURSOR_H
#define WL_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct wl_cursor {
	const uint8_t *base; /* borrowed */
	size_t len;          /* bytes in the view */
	size_t pos;          /* bytes consumed, <= len */
	uint64_t origin;     /* absolute file offset of base[0] */
	bool short_read;     /* a read wanted more bytes than remained */
} wl_cursor;

/** A view of len bytes at p whose first byte is at file offset origin. */
static inline wl_cursor wl_cursor_make(const uint8_t *p, size_t len, uint64_t origin)
{
	wl_cursor c = { p, len, 0, origin, false };
	return c;
}

static inline size_t wl_cursor_remaining(const wl_cursor *c) { return c->len - c->pos; }
static inline uint64_t wl_cursor_offset(const wl_cursor *c) { return c->origin + c->pos; }

/** The next n bytes, or NULL (and short_read set) when fewer remain. */
static inline const uint8_t *wl_cursor_take(wl_cursor *c, size_t n)
{
	if (c->short_read || n > c->len - c->pos) {
		c->short_read = true;
		return NULL;
	}
	const uint8_t *p = c->base + c->pos;
	c->pos += n;
	return p;
}

static inline bool wl_cursor_skip(wl_cursor *c, size_t n) { return wl_cursor_take(c, n) != NULL; }

static inline uint8_t wl_cursor_u8(wl_cursor *c)
{
	const uint8_t *p = wl_cursor_take(c, 1);
	return p ? p[0] : 0;
}

static inline uint16_t wl_le16(const uint8_t *p) { return (uint16_t)(p[0] | (unsigned)p[1] << 8); }
static inline uint32_t wl_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline float wl_lef32(const uint8_t *p)
{
	uint32_t u = wl_le32(p);
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}
/* True when the n little-endian binary32 values at p (readable bytes) are
 * all finite: none has its 8 exponent bits all set (NaN or infinity), the
 * same test as isfinite(wl_lef32(...)) on each, without a branch per
 * value, for the scans of whole records. */
static inline bool wl_lef32_all_finite(const uint8_t *p, size_t n)
{
	/* exponent + 1 carries into bit 31 only from all ones */
	uint32_t carry = 0;
	size_t i = 0;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* On a little-endian host the values are the host's uint32s: eight at
	 * a time in two 4-lane vectors (GCC/Clang vector extensions; SSE2 or
	 * NEON), the same test per lane. */
	typedef uint32_t wl_u32x4 __attribute__((vector_size(16)));
	wl_u32x4 c0 = { 0, 0, 0, 0 }, c1 = { 0, 0, 0, 0 };
	for (; i + 8 <= n; i += 8) {
		wl_u32x4 a, b;
		memcpy(&a, p + 4 * i, sizeof a);
		memcpy(&b, p + 4 * i + 16, sizeof b);
		c0 |= (a & 0x7F800000u) + 0x00800000u;
		c1 |= (b & 0x7F800000u) + 0x00800000u;
	}
	c0 |= c1;
	carry = c0[0] | c0[1] | c0[2] | c0[3];
#endif
	for (; i < n; i++)
		carry |= (wl_le32(p + 4 * i) & 0x7F800000u) + 0x00800000u;
	return !(carry & 0x80000000u);
}

static inline uint16_t wl_cursor_u16(wl_cursor *c)
{
	const uint8_t *p = wl_cursor_take(c, 2);
	return p ? wl_le16(p) : 0;
}

static inline uint32_t wl_cursor_u32(wl_cursor *c)
{
	const uint8_t *p = wl_cursor_take(c, 4);
	return p ? wl_le32(p) : 0;
}

static inline float wl_cursor_f32(wl_cursor *c)
{
	const uint8_t *p = wl_cursor_take(c, 4);
	return p ? wl_lef32(p) : 0.0f;
}

/** Copies n bytes into dst (zero-filled when short). */
static inline void wl_cursor_bytes(wl_cursor *c, void *dst, size_t n)
{
	const uint8_t *p = wl_cursor_take(c, n);
	if (p)
		memcpy(dst, p, n);
	else
		memset(dst, 0, n);
}

#endif
