/* salvage.c - the whole records of a B3D data chunk (b3d_format.h,
 * b3d_whole_records): what drop-unreadable keeps of a VRTS, TRIS, BONE,
 * KEYS, ANIM, TEXS or BRUS chunk that the end of the file cuts, and where
 * the chunk reader finds that a size fell short of its last record. */
#include "b3d_format.h"

#include <string.h>

/* End of the last whole entry of a TEXS (stride 28 after each name) or BRUS
 * (4-byte n_texs first, 28 + 4 n_texs after each name) payload p[0..n). */
static uint64_t whole_entries(const uint8_t *p, uint64_t n, uint64_t from, uint64_t stride)
{
	uint64_t at = from, end = from;
	while (at < n) {
		const uint8_t *z = memchr(p + at, 0, (size_t)(n - at));
		if (!z)
			break;
		uint64_t next = (uint64_t)(z - p) + 1 + stride;
		if (next > n)
			break;
		end = at = next;
	}
	return end;
}

/* Header bytes plus the whole records of size `size` after them. */
static uint64_t header_and_records(uint64_t n, uint64_t header, uint64_t size)
{
	if (n < header || !size)
		return 0;
	return header + (n - header) / size * size;
}

uint64_t b3d_whole_records(uint32_t id, const uint8_t *p, uint64_t n)
{
	switch (id) {
	case B3D_CHUNK_VRTS:
		if (n < 12)
			return 0;
		return header_and_records(n, 12,
					  b3d_vertex_size((int32_t)wl_le32(p), (int32_t)wl_le32(p + 4),
							  (int32_t)wl_le32(p + 8)));
	case B3D_CHUNK_TRIS:
		return header_and_records(n, 4, 12);
	case B3D_CHUNK_BONE:
		return header_and_records(n, 0, B3D_BONE_RECORD);
	case B3D_CHUNK_KEYS:
		return n < 4 ? 0 : header_and_records(n, 4, b3d_key_size((int32_t)wl_le32(p)));
	case B3D_CHUNK_ANIM:
		return n >= B3D_ANIM_SIZE ? B3D_ANIM_SIZE : 0;
	case B3D_CHUNK_TEXS:
		return whole_entries(p, n, 0, 28);
	case B3D_CHUNK_BRUS: {
		if (n < 4)
			return 0;
		int32_t t = (int32_t)wl_le32(p);
		if (t < 0 || t > 4096)
			return 4;
		return whole_entries(p, n, 4, 28 + 4 * (uint64_t)t);
	}
	default:
		return 0;
	}
}
