/* counted.c - the payload size a W3D array must have by the counts of the
 * header read before it (w3d_format.h w3d_counted_size): the chunk reader's
 * evidence for a mislabelled size (core/chunk.c, chunk-size-wrong). */
#include "w3d_format.h"

#include "../cursor.h"

/* The u32 at byte at of the payload of parent's first child of id whose
 * payload holds at least need bytes; false when there is none. */
static bool header_u32(const wl_doc *d, const wl_chunk *parent, uint32_t id, uint32_t need, uint32_t at,
		       uint32_t *out)
{
	for (const wl_chunk *k = parent->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK || k->id != id)
			continue;
		uint64_t off = wl_chunk_payload_offset(k);
		if (k->size < need || off > d->size || d->size - off < need)
			return false;
		wl_cursor c = wl_cursor_make(d->bytes + off, need, off);
		if (!wl_cursor_skip(&c, at))
			return false;
		*out = wl_cursor_u32(&c);
		return true;
	}
	return false;
}

uint64_t w3d_counted_size(const wl_doc *d, const wl_chunk *parent, const wl_chunk_type *t)
{
	if (parent->kind != WL_NODE_CHUNK || !parent->type || !t->elem_size)
		return 0;
	uint32_t n = 0;
	switch (parent->type->child_ctx) {
	case W3D_CTX_MESH: /* W3dMeshHeader3Struct: NumTris at 40, NumVertices at 44 (116 bytes) */
		switch (t->id) {
		case 0x0002: case 0x0003: case 0x000E: case 0x0022: case 0x0C00: case 0x0C01:
			if (!header_u32(d, parent, 0x001F, 116, 44, &n))
				return 0;
			break;
		case 0x0020:
			if (!header_u32(d, parent, 0x001F, 116, 40, &n))
				return 0;
			break;
		default: return 0;
		}
		break;
	case W3D_CTX_HIERARCHY: /* W3dHierarchyStruct: NumPivots at 20 (36 bytes) */
		if (t->id != 0x0102 && t->id != 0x0103)
			return 0;
		if (!header_u32(d, parent, 0x0101, 36, 20, &n))
			return 0;
		break;
	default: return 0;
	}
	return (uint64_t)n * t->elem_size;
}
