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

uint64_t w3d_counted_size(const wl_doc *d, const wl_chunk *parent, const wl_chunk_type *t)
{
	if (parent->kind != WL_NODE_CHUNK || !parent->type || !t->elem_size)
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
