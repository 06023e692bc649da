/*
 * b3d_format.h - the Blitz3D .b3d chunk schema and format descriptor.
 *
 * Source: seeds/002_1af9c1d714b4a023.txt ("Blitz3d file format V0.01",
 * §"Chunk Types"); reader behaviour from notes/b3d_reference.md (Blitz3D
 * loader_b3d.cpp, Irrlicht/Luanti CB3DMeshFileLoader.cpp, Assimp
 * B3DImporter.cpp, modlib b3d.lua).
 *
 * Chunk header (spec §"Chunk Types", 8 bytes, little-endian):
 *   char tag[4]; int32 length  -- length of the payload, not counting the
 *   header.  No container bit; a negative length is read as its uint32
 *   value (>= 2^31), which runs past any parent and is recovered as an
 *   overrun.
 * Chunk ids are the four tag bytes read as a little-endian uint32
 * (B3D_TAG('B','B','3','D')), so writing the id back gives the tag.
 *
 * Containers and their own fields (spec: "If a chunk contains both data and
 * other chunks, the data always appears first"):
 *   BB3D  int32 version; then TEXS, BRUS, NODE
 *   NODE  char name[] (NUL-terminated); float position[3], scale[3],
 *         rotation[4] (w, x, y, z); then MESH | BONE, KEYS..., NODE..., ANIM
 *   MESH  int32 brush_id; then VRTS, TRIS...
 * Data chunks (records repeat "until end of chunk"): TEXS, BRUS, VRTS, TRIS,
 * BONE (8-byte records), KEYS, ANIM (12 bytes).  Their layouts are in
 * core/b3d/model.h.
 */
#ifndef B3D_FORMAT_H
#define B3D_FORMAT_H

#include "core/chunk.h"
#include "core/cursor.h"

/* The chunk id of a four-character tag. */
#define B3D_TAG(a, b, c, d) \
	((uint32_t)(uint8_t)(a) | (uint32_t)(uint8_t)(b) << 8 | (uint32_t)(uint8_t)(c) << 16 | \
	 (uint32_t)(uint8_t)(d) << 24)

enum {
	B3D_CHUNK_BB3D = B3D_TAG('B', 'B', '3', 'D'),
	B3D_CHUNK_TEXS = B3D_TAG('T', 'E', 'X', 'S'),
	B3D_CHUNK_BRUS = B3D_TAG('B', 'R', 'U', 'S'),
	B3D_CHUNK_NODE = B3D_TAG('N', 'O', 'D', 'E'),
	B3D_CHUNK_MESH = B3D_TAG('M', 'E', 'S', 'H'),
	B3D_CHUNK_VRTS = B3D_TAG('V', 'R', 'T', 'S'),
	B3D_CHUNK_TRIS = B3D_TAG('T', 'R', 'I', 'S'),
	B3D_CHUNK_BONE = B3D_TAG('B', 'O', 'N', 'E'),
	B3D_CHUNK_KEYS = B3D_TAG('K', 'E', 'Y', 'S'),
	B3D_CHUNK_ANIM = B3D_TAG('A', 'N', 'I', 'M')
};

/* Parent contexts (wl_chunk_type.ctx / child_ctx). */
enum { B3D_CTX_ROOT = 0, B3D_CTX_BB3D, B3D_CTX_NODE, B3D_CTX_MESH, B3D_CTX__COUNT };

/* Fixed field sizes (bytes). */
#define B3D_BB3D_FIELDS 4u        /* int32 version */
#define B3D_NODE_TRANSFORM 40u    /* float position[3], scale[3], rotation[4] */
#define B3D_MESH_FIELDS 4u        /* int32 brush_id */
#define B3D_BONE_RECORD 8u        /* int32 vertex_id; float weight */
#define B3D_ANIM_SIZE 12u         /* int32 flags, frames; float fps */

/** Bytes of one VRTS vertex for these header values (spec §VRTS: 12 for
 *  x,y,z, +12 normals (flags&1), +16 colour (flags&2), +4 per tex coord);
 *  0 when sets or set_size is negative or sets x set_size exceeds 1024
 *  (not decoded). */
static inline uint32_t b3d_vertex_size(int32_t flags, int32_t sets, int32_t set_size)
{
	if (sets < 0 || set_size < 0 || (int64_t)sets * set_size > 1024)
		return 0;
	return 12u + ((flags & 1) ? 12u : 0u) + ((flags & 2) ? 16u : 0u) +
	       4u * (uint32_t)sets * (uint32_t)set_size;
}

/** Bytes of one KEYS key for these flags (spec §KEYS: int32 frame, +12
 *  position (flags&1), +12 scale (flags&2), +16 rotation (flags&4)). */
static inline uint32_t b3d_key_size(int32_t flags)
{
	return 4u + ((flags & 1) ? 12u : 0u) + ((flags & 2) ? 12u : 0u) + ((flags & 4) ? 16u : 0u);
}

/** wl_format.whole_records for B3D (core/b3d/salvage.c): the leading bytes
 *  of the payload p[0..n) of a data chunk of type id that are whole
 *  records, its header fields included: VRTS (12-byte header, then
 *  b3d_vertex_size records), TRIS (int32 brush id, then 12-byte
 *  triangles), BONE (8-byte records), KEYS (int32 flags, then
 *  b3d_key_size records), ANIM (12 bytes), TEXS and BRUS entries (a
 *  NUL-terminated name, then 28 bytes; BRUS: int32 n_texs first, and
 *  4 x n_texs more per entry); 0 when not even the header is whole or the
 *  id has no records. */
uint64_t b3d_whole_records(uint32_t id, const uint8_t *p, uint64_t n);

/** The B3D format descriptor (core/b3d/descriptor.c), registered in
 *  core/registry.c. */
extern const wl_format b3d_format;

/** Schema entry of id inside context ctx, or NULL. */
const wl_chunk_type *b3d_lookup(uint16_t ctx, uint32_t id);

/** The tag of id as text: four printable ASCII characters, or "0x%08X"
 *  when a byte is not printable (static or thread-local storage). */
const char *b3d_id_name(uint32_t id);

/** The whole schema table. */
const wl_chunk_type *b3d_schema(size_t *out_count);

/** Reads an 8-byte B3D chunk header at p: the tag as id, the int32 length
 *  as an unsigned size; *flag is always false (no container bit). */
void b3d_read_header(const uint8_t *p, uint32_t *id, uint32_t *size, bool *flag);

/** Bytes of the own fields of a container of type t whose payload is
 *  payload[0..avail) (wl_format.fields_size): BB3D 4, MESH 4, NODE the name
 *  with its NUL plus 40; at most avail. */
uint64_t b3d_fields_size(const wl_chunk_type *t, const uint8_t *payload, uint64_t avail);

#endif
