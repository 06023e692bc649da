/*
 * b3d_format.c - the B3D chunk schema (b3d_format.h): which tags are known
 * under which parent (seeds/002_1af9c1d714b4a023.txt §"Chunk Types"), and
 * the header and container-field layout.
 */
#include "b3d_format.h"

#include <stdio.h>
#include <string.h>

/* By parent context, in the order of the specification. */
static const wl_chunk_type schema[] = {
	{ B3D_CHUNK_BB3D, B3D_CTX_ROOT, B3D_CTX_BB3D, "BB3D", "BB3D", 0, 0, 0 },
	{ B3D_CHUNK_NODE, B3D_CTX_BB3D, B3D_CTX_NODE, "NODE", "NODE", 0, 0, 0 },
	{ B3D_CHUNK_BRUS, B3D_CTX_BB3D, 0, "BRUS", "BRUS", 0, 4, 0 },
	{ B3D_CHUNK_TEXS, B3D_CTX_BB3D, 0, "TEXS", "TEXS", 0, 0, 0 },
	{ B3D_CHUNK_ANIM, B3D_CTX_NODE, 0, "ANIM", "ANIM", 0, B3D_ANIM_SIZE, WL_TYPE_OPTIONAL },
	{ B3D_CHUNK_BONE, B3D_CTX_NODE, 0, "BONE", "BONE", 0, 0, 0 },
	{ B3D_CHUNK_NODE, B3D_CTX_NODE, B3D_CTX_NODE, "NODE", "NODE", 0, 0, 0 },
	{ B3D_CHUNK_MESH, B3D_CTX_NODE, B3D_CTX_MESH, "MESH", "MESH", 0, 0, 0 },
	{ B3D_CHUNK_KEYS, B3D_CTX_NODE, 0, "KEYS", "KEYS", 0, 4, 0 },
	{ B3D_CHUNK_TRIS, B3D_CTX_MESH, 0, "TRIS", "TRIS", 0, 4, WL_TYPE_OPTIONAL },
	{ B3D_CHUNK_VRTS, B3D_CTX_MESH, 0, "VRTS", "VRTS", 0, 12, 0 },
};

#define SCHEMA_COUNT (sizeof schema / sizeof schema[0])

const wl_chunk_type *b3d_schema(size_t *out_count)
{
	*out_count = SCHEMA_COUNT;
	return schema;
}

const wl_chunk_type *b3d_lookup(uint16_t ctx, uint32_t id)
{
	for (size_t i = 0; i < SCHEMA_COUNT; i++)
		if (schema[i].ctx == ctx && schema[i].id == id)
			return &schema[i];
	return NULL;
}

const char *b3d_id_name(uint32_t id)
{
	for (size_t i = 0; i < SCHEMA_COUNT; i++)
		if (schema[i].id == id)
			return schema[i].short_name;
	static _Thread_local char buf[16];
	char tag[5];
	for (int k = 0; k < 4; k++) {
		unsigned char ch = (unsigned char)(id >> (8 * k));
		if (ch < 0x20 || ch > 0x7E || ch == '"' || ch == '\\' || ch == '/' || ch == '[' ||
		    ch == ']') {
			snprintf(buf, sizeof buf, "0x%08X", (unsigned)id);
			return buf;
		}
		tag[k] = (char)ch;
	}
	tag[4] = 0;
	memcpy(buf, tag, sizeof tag);
	return buf;
}

void b3d_read_header(const uint8_t *p, uint32_t *id, uint32_t *size, bool *flag)
{
	*id = wl_le32(p);
	*size = wl_le32(p + 4);
	*flag = false;
}

uint64_t b3d_fields_size(const wl_chunk_type *t, const uint8_t *payload, uint64_t avail)
{
	uint64_t n;
	switch (t->id) {
	case B3D_CHUNK_BB3D:
		n = B3D_BB3D_FIELDS;
		break;
	case B3D_CHUNK_MESH:
		n = B3D_MESH_FIELDS;
		break;
	case B3D_CHUNK_NODE: {
		const uint8_t *z = memchr(payload, 0, avail > SIZE_MAX ? SIZE_MAX : (size_t)avail);
		if (!z)
			return avail;
		n = (uint64_t)(z - payload) + 1 + B3D_NODE_TRANSFORM;
		break;
	}
	default:
		return 0;
	}
	return n < avail ? n : avail;
}
