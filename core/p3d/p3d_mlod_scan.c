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

/* The face at pos checked against counts np, nn: 3 or 4 vertices, each
 * naming a point below np and a normal below nn; its end, or 0. */
static uint64_t face_checked(const wl_doc *d, uint64_t pos, bool sp3x, uint32_t np, uint32_t nn)
{
	uint64_t end = p3d_mlod_face_end(d, pos, sp3x);
	if (!end)
		return 0;
	/* face_end saw the 72 fixed bytes inside the file */
	wl_cursor c = wl_cursor_make(d->bytes + pos, P3D_MLOD_FACE + (sp3x ? P3D_MLOD_SP3X_TEX : 0), pos);
	wl_cursor_skip(&c, sp3x ? P3D_MLOD_SP3X_TEX : 0);
	uint32_t nv = wl_cursor_u32(&c);
	if (nv != 3 && nv != 4)
		return 0;
	for (uint32_t k = 0; k < nv; k++) {
		uint32_t p = wl_cursor_u32(&c), n = wl_cursor_u32(&c);
		wl_cursor_skip(&c, 8);
		if (p >= np || n >= nn)
			return 0;
	}
	return c.short_read ? 0 : end;
}

/* Whether the tag list at pos reads strictly to #EndOfFile#, then the
 * resolution, then the end of the file or a LOD signature. */
static bool tail_fits(const wl_doc *d, uint64_t pos, bool sp3x)
{
	pos = strict_tags(d, pos, sp3x);
	if (!pos || d->size - pos < 4)
		return false;
	pos += 4;
	return pos == d->size || p3d_mlod_signature(d, pos);
}

/* Whether nf faces (checked against np, nn) from pos end exactly at tagg,
 * where the tag list is. */
static bool faces_fit(const wl_doc *d, uint64_t pos, bool sp3x, uint32_t np, uint32_t nn, uint32_t nf,
		      uint64_t tagg)
{
	uint32_t i = 0;
	for (; i < nf && pos && pos < tagg; i++)
		pos = face_checked(d, pos, sp3x, np, nn);
	return i == nf && pos == tagg;
}

/* The point (step 16, k 0) or normal (step 12, k 1) counts other than the
 * header's under which the LOD at off fits, its faces starting at or
 * before tagg (where its tag list is): the last one in out[k], their
 * number returned (at most 2: more is as ambiguous as 2; so is more than
 * P3D_MLOD_COUNT_WALKS values whose first face passes, each of which costs
 * a walk of the faces). */
static unsigned array_fits(const wl_doc *d, uint64_t off, bool sp3x, const uint32_t hc[3], int k, uint64_t tagg,
			   uint32_t *out)
{
	uint64_t step = k ? P3D_MLOD_NORMAL : P3D_MLOD_POINT;
	uint64_t other = k ? (uint64_t)hc[0] * P3D_MLOD_POINT : (uint64_t)hc[1] * P3D_MLOD_NORMAL;
	uint64_t base = off + P3D_MLOD_LODHEAD + other;
	unsigned found = 0, walks = 0;
	for (uint64_t v = 0; base <= tagg && (tagg - base) / step >= v && v <= UINT32_MAX && found < 2; v++) {
		if (v == hc[k])
			continue;
		uint64_t s = base + v * step;
		uint32_t np = k ? hc[0] : (uint32_t)v, nn = k ? (uint32_t)v : hc[1];
		/* the first face (or the tags) decides quickly for most v */
		bool first = hc[2] ? face_checked(d, s, sp3x, np, nn) != 0 : s == tagg;
		if (first && ++walks > P3D_MLOD_COUNT_WALKS)
			return 2; /* too many values pass the first face: as ambiguous */
		bool ok = first && (hc[2] ? faces_fit(d, s, sp3x, np, nn, hc[2], tagg) : s == tagg);
		if (ok) {
			*out = (uint32_t)v;
			found++;
		}
	}
	return found;
}

int p3d_mlod_true_counts(const wl_doc *d, uint64_t off, uint32_t counts[3])
{
	if (!p3d_mlod_signature(d, off) || p3d_mlod_strict_end(d, off, NULL))
		return -1;
	bool sp3x = d->bytes[off] == 'S';
	wl_cursor c = wl_cursor_make(d->bytes + off, (size_t)(d->size - off), off);
	wl_cursor_skip(&c, 12);
	uint32_t hc[3] = { wl_cursor_u32(&c), wl_cursor_u32(&c), wl_cursor_u32(&c) };
	if (c.short_read)
		return -1;
	/* The LOD's tag list: the first TAGG after its header from which the
	 * tail fits; every array ends before it.  None: no count can help. */
	uint64_t tagg = 0;
	for (uint64_t q = off + P3D_MLOD_LODHEAD; !tagg && d->size - q >= 4; q++)
		if (memcmp(d->bytes + q, "TAGG", 4) == 0 && tail_fits(d, q, sp3x))
			tagg = q;
	if (!tagg)
		return -1;
	int which = -1;
	unsigned found = 0;
	uint32_t v = 0;
	/* the face count: faces walked from their start to a tag list that fits */
	uint64_t arrays = (uint64_t)hc[0] * P3D_MLOD_POINT + (uint64_t)hc[1] * P3D_MLOD_NORMAL;
	if (d->size - off - P3D_MLOD_LODHEAD >= arrays) {
		uint64_t pos = off + P3D_MLOD_LODHEAD + arrays;
		for (uint64_t j = 0; pos && pos <= tagg && j <= UINT32_MAX; j++) {
			if (j != hc[2] && pos == tagg) {
				which = 2, v = (uint32_t)j, found++;
				break;
			}
			pos = face_checked(d, pos, sp3x, hc[0], hc[1]);
		}
	}
	for (int k = 0; k < 2 && found < 2; k++) {
		uint32_t got = 0;
		unsigned n = array_fits(d, off, sp3x, hc, k, tagg, &got);
		if (n)
			which = k, v = got;
		found += n;
	}
	if (found != 1)
		return -1;
	memcpy(counts, hc, sizeof hc);
	counts[which] = v;
	return which;
}
