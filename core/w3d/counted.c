/* counted.c - the payload size a W3D array must have by the counts of the
 * header read before it (w3d_format.h w3d_counted_size): the chunk reader's
 * evidence for a mislabelled size (core/chunk.c, chunk-size-wrong). */
#include "w3d_format.h"

#include "core/cursor.h"

/* Headers are looked for among a parent's first HEADER_WITHIN nodes (the
 * exporters write them first), so that the look-up costs the same for
 * every child, however many the parent holds. */
#define HEADER_WITHIN 8

/* The u32 at byte at of the payload of parent's first child of id whose
 * payload holds at least need bytes; false when there is none among its
 * first HEADER_WITHIN nodes. */
static bool header_u32(const wl_doc *d, const wl_chunk *parent, uint32_t id, uint32_t need, uint32_t at,
		       uint32_t *out)
{
	int seen = 0;
	for (const wl_chunk *k = parent->first_child; k && seen < HEADER_WITHIN; k = k->next, seen++) {
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

/* Is c a chunk whose children are a MESH's? */
static bool is_mesh(const wl_chunk *c)
{
	return c && c->kind == WL_NODE_CHUNK && c->type && c->type->child_ctx == W3D_CTX_MESH;
}

/* By the MESH_HEADER3 of mesh (W3dMeshHeader3Struct, 116 bytes): NumTris
 * (byte 40) when per_tri, else NumVertices (byte 44). */
static bool mesh_count(const wl_doc *d, const wl_chunk *mesh, bool per_tri, uint32_t *n)
{
	return is_mesh(mesh) && header_u32(d, mesh, 0x001F, 116, per_tri ? 40 : 44, n);
}

/* A cursor over the first need bytes of a chunk's payload at payload
 * (absolute): its own header; false when the file does not hold them. */
static bool own_header(const wl_doc *d, uint64_t payload, uint32_t need, wl_cursor *c)
{
	if (payload > d->size || d->size - payload < need)
		return false;
	*c = wl_cursor_make(d->bytes + payload, need, payload);
	return true;
}

/* An ANIMATION's channels (notes/w3d_reference.md §2.4, exporter
 * vchannel.cpp:628-650, bchannel.cpp:181-200): ANIMATION_CHANNEL
 * (W3dAnimChannelStruct: u16 FirstFrame, LastFrame, VectorLen) 12 + 4 x
 * VectorLen x (LastFrame - FirstFrame + 1); BIT_CHANNEL
 * (W3dBitChannelStruct: u16 FirstFrame, LastFrame) 9 + one bit per frame
 * rounded up to bytes.  0 when LastFrame < FirstFrame (no size fits). */
static uint64_t channel_size(const wl_doc *d, uint32_t id, uint64_t payload)
{
	wl_cursor c;
	if (!own_header(d, payload, 6, &c))
		return 0;
	uint32_t first = wl_cursor_u16(&c), last = wl_cursor_u16(&c), vl = wl_cursor_u16(&c);
	if (last < first)
		return 0;
	uint64_t frames = (uint64_t)last - first + 1;
	return id == 0x0202 ? 12 + 4 * (uint64_t)vl * frames : 9 + (frames + 7) / 8;
}

/* A COMPRESSED_ANIMATION's channels (notes/w3d_reference.md §2.5), by the
 * Flavor of its COMPRESSED_ANIMATION_HEADER (44 bytes, u16 at 42) and the
 * channel's own header:
 *  - COMPRESSED_ANIMATION_CHANNEL (u32 NumTimeCodes or NumFrames, u16
 *    Pivot, u8 VectorLen): timecoded (Flavor 0) 8 + 4 x NumTimeCodes x
 *    (VectorLen + 1) (exporter vchannel.cpp:167-240); adaptive delta
 *    (Flavor 1) 15 + 4 x VectorLen + 9 x VectorLen x ceil(NumFrames / 16)
 *    (vchannel.cpp:432-440, what OpenSAGE reads); other flavors: none;
 *  - COMPRESSED_BIT_CHANNEL (u32 NumTimeCodes): 8 + 4 x NumTimeCodes (the
 *    loader asserts it, motchan.cpp:773);
 *  - COMPRESSED_ANIMATION_MOTION_CHANNEL (BFME II: u8 Zero, DeltaType,
 *    VectorLen, Flags, u16 NumTimeCodes): timecoded (DeltaType 0) 8 +
 *    NumTimeCodes u16 keys padded to 4 bytes + 4 x NumTimeCodes x
 *    VectorLen (OpenSAGE W3dMotionChannel.cs); adaptive delta: none. */
static uint64_t compressed_channel_size(const wl_doc *d, const wl_chunk *parent, uint32_t id,
					uint64_t payload)
{
	uint32_t rate_flavor;
	wl_cursor c;
	if (!header_u32(d, parent, 0x0281, 44, 40, &rate_flavor) || !own_header(d, payload, 8, &c))
		return 0;
	const uint32_t flavor = rate_flavor >> 16;
	if (id == 0x0284) {
		wl_cursor_skip(&c, 1);
		uint32_t delta = wl_cursor_u8(&c), vl = wl_cursor_u8(&c);
		wl_cursor_skip(&c, 1);
		uint64_t n = wl_cursor_u16(&c);
		return delta == 0 ? 8 + (2 * n + 3) / 4 * 4 + 4 * n * vl : 0;
	}
	uint64_t n = wl_cursor_u32(&c);
	wl_cursor_skip(&c, 2);
	uint64_t vl = wl_cursor_u8(&c);
	if (id == 0x0283)
		return 8 + 4 * n;
	if (flavor == 0)
		return 8 + 4 * n * (vl + 1);
	return flavor == 1 ? 15 + 4 * vl + 9 * vl * ((n + 15) / 16) : 0;
}

uint64_t w3d_counted_size(const wl_doc *d, const wl_chunk *parent, const wl_chunk_type *t, uint64_t payload)
{
	if (parent->kind != WL_NODE_CHUNK || !parent->type)
		return 0;
	switch (parent->type->child_ctx) {
	case W3D_CTX_ANIMATION:
		return t->id == 0x0202 || t->id == 0x0203 ? channel_size(d, t->id, payload) : 0;
	case W3D_CTX_COMPRESSED_ANIMATION:
		return t->id >= 0x0282 && t->id <= 0x0284 ? compressed_channel_size(d, parent, t->id, payload) : 0;
	default:
		break;
	}
	if (!t->elem_size)
		return 0;
	uint32_t n = 0;
	bool ok;
	switch (parent->type->child_ctx) {
	case W3D_CTX_MESH:
		switch (t->id) {
		case 0x0002: case 0x0003: case 0x000E: case 0x0022: case 0x0C00: case 0x0C01:
			ok = mesh_count(d, parent, false, &n);
			break;
		case 0x0020: ok = mesh_count(d, parent, true, &n); break;
		default: return 0;
		}
		break;
	case W3D_CTX_MATERIAL_PASS: /* meshmdlio.cpp: per vertex or per triangle */
		switch (t->id) {
		case 0x0039: case 0x003B: case 0x003C: case 0x004A:
			ok = mesh_count(d, parent->parent, false, &n);
			break;
		case 0x003A: case 0x003F: ok = mesh_count(d, parent->parent, true, &n); break;
		default: return 0;
		}
		break;
	case W3D_CTX_TEXTURE_STAGE:
		switch (t->id) {
		case 0x004A: ok = parent->parent && mesh_count(d, parent->parent->parent, false, &n); break;
		case 0x0049: case 0x004B:
			ok = parent->parent && mesh_count(d, parent->parent->parent, true, &n);
			break;
		default: return 0;
		}
		break;
	case W3D_CTX_HIERARCHY: /* W3dHierarchyStruct: NumPivots at 20 (36 bytes) */
		if (t->id != 0x0102 && t->id != 0x0103)
			return 0;
		ok = header_u32(d, parent, 0x0101, 36, 20, &n);
		break;
	default: return 0;
	}
	return ok ? (uint64_t)n * t->elem_size : 0;
}
