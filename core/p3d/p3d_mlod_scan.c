/* p3d_mlod_scan.c - the MLOD helpers of p3d_mlod.h: the bounded readers
 * of a face and a tag head, and the strict, silent walk of one LOD that
 * resynchronisation tries at each signature after a LOD that cannot be
 * walked (issue 17: salvage keeps every intact LOD).  Layout in p3d.h
 * (MLOD part); every read goes through the cursor or is checked against
 * d->size first. */
#include "p3d_mlod.h"

#include <string.h>

#include "core/cursor.h"

bool p3d_mlod_signature(const wl_doc *d, uint64_t off)
{
	return off <= d->size && d->size - off >= 4 &&
	       (memcmp(d->bytes + off, "P3DM", 4) == 0 || memcmp(d->bytes + off, "SP3X", 4) == 0);
}

uint64_t p3d_mlod_asciiz_end(const wl_doc *d, uint64_t off, uint64_t end)
{
	const uint8_t *z = off < end ? memchr(d->bytes + off, 0, (size_t)(end - off)) : NULL;
	return z ? (uint64_t)(z - d->bytes) + 1 : 0;
}

uint64_t p3d_mlod_face_end(const wl_doc *d, uint64_t pos, bool sp3x)
{
	uint64_t fixed = P3D_MLOD_FACE + (sp3x ? P3D_MLOD_SP3X_TEX : 0);
	if (pos > d->size || d->size - pos < fixed)
		return 0;
	if (sp3x)
		return pos + fixed;
	uint64_t tex = p3d_mlod_asciiz_end(d, pos + P3D_MLOD_FACE, d->size);
	return tex ? p3d_mlod_asciiz_end(d, tex, d->size) : 0;
}

uint64_t p3d_mlod_tag_size_at(const wl_doc *d, uint64_t pos, bool sp3x, bool *eof)
{
	uint64_t name = sp3x ? pos : pos + 1, after;
	if (pos >= d->size)
		return 0;
	if (sp3x)
		after = d->size - pos >= P3D_MLOD_SP3X_TAG ? pos + P3D_MLOD_SP3X_TAG : 0;
	else
		after = name < d->size ? p3d_mlod_asciiz_end(d, name, d->size) : 0;
	if (!after || d->size - after < 4)
		return 0;
	*eof = after - name >= sizeof P3D_MLOD_EOF_TAG &&
	       memcmp(d->bytes + name, P3D_MLOD_EOF_TAG, sizeof P3D_MLOD_EOF_TAG) == 0;
	return after;
}

/* The tag list from off ("TAGG", tags to #EndOfFile#) with every size
 * inside the file: the offset after it, or 0. */
static uint64_t strict_tags(const wl_doc *d, uint64_t off, bool sp3x)
{
	if (d->size - off < 4 || memcmp(d->bytes + off, "TAGG", 4) != 0)
		return 0;
	uint64_t pos = off + 4;
	for (;;) {
		bool eof = false;
		uint64_t after = p3d_mlod_tag_size_at(d, pos, sp3x, &eof);
		if (!after)
			return 0;
		wl_cursor c = wl_cursor_make(d->bytes + after, (size_t)(d->size - after), after);
		uint32_t size = wl_cursor_u32(&c);
		if (!wl_cursor_skip(&c, size))
			return 0;
		pos = wl_cursor_offset(&c);
		if (eof)
			return pos;
	}
}

uint64_t p3d_mlod_strict_end(const wl_doc *d, uint64_t off, const uint32_t *counts)
{
	if (!p3d_mlod_signature(d, off))
		return 0;
	bool sp3x = d->bytes[off] == 'S';
	wl_cursor c = wl_cursor_make(d->bytes + off, (size_t)(d->size - off), off);
	if (!wl_cursor_skip(&c, 12))
		return 0;
	uint32_t np = wl_cursor_u32(&c), nn = wl_cursor_u32(&c), nf = wl_cursor_u32(&c);
	if (!wl_cursor_skip(&c, 4))
		return 0;
	if (counts)
		np = counts[0], nn = counts[1], nf = counts[2];
	/* each count checked against the bytes left before it is multiplied */
	if (wl_cursor_remaining(&c) / P3D_MLOD_POINT < np ||
	    !wl_cursor_skip(&c, (size_t)np * P3D_MLOD_POINT) ||
	    wl_cursor_remaining(&c) / P3D_MLOD_NORMAL < nn ||
	    !wl_cursor_skip(&c, (size_t)nn * P3D_MLOD_NORMAL))
		return 0;
	uint64_t pos = wl_cursor_offset(&c);
	for (uint32_t i = 0; i < nf && pos; i++)
		pos = p3d_mlod_face_end(d, pos, sp3x);
	pos = pos ? strict_tags(d, pos, sp3x) : 0;
	return pos && d->size - pos >= 4 ? pos + 4 : 0;
}

uint64_t p3d_mlod_resync(const wl_doc *d, uint64_t from)
{
	unsigned tries = 0;
	for (uint64_t q = from; q + 4 <= d->size && tries < P3D_MLOD_RESYNC_TRIES; q++) {
		if (!p3d_mlod_signature(d, q))
			continue;
		tries++;
		if (p3d_mlod_strict_end(d, q, NULL))
			return q;
	}
	return 0;
}
