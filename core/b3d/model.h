/*
 * model.h - the typed model of a B3D document (b3d_model_build), as views
 * over the file's bytes: every record keeps its absolute byte offset so a
 * finding can point at the triangle, vertex, weight or key it is about.
 *
 * Layouts (seeds/002_1af9c1d714b4a023.txt §"Chunk Types"; all values
 * little-endian int32 or IEEE binary32; strings NUL-terminated):
 *   TEXS  { char file[]; int32 flags, blend; float x_pos, y_pos, x_scale,
 *           y_scale, rotation (radians) }                 (file[] + 28 bytes)
 *   BRUS  int32 n_texs; { char name[]; float red, green, blue, alpha,
 *           shininess; int32 blend, fx; int32 texture_id[n_texs] }
 *                                                   (name[] + 28 + 4 n_texs)
 *   VRTS  int32 flags (1 normals, 2 colours), tex_coord_sets,
 *           tex_coord_set_size; { float x, y, z; [nx, ny, nz]; [r, g, b, a];
 *           float tex_coords[sets][set_size] }
 *           (12 + 12 (flags&1) + 16 (flags&2) + 4 sets set_size bytes)
 *   TRIS  int32 brush_id; { int32 vertex_id[3] }                  (12 bytes)
 *   BONE  { int32 vertex_id; float weight }                         (8 bytes)
 *   KEYS  int32 flags (1 position, 2 scale, 4 rotation); { int32 frame;
 *           [float position[3]]; [float scale[3]]; [float rotation[4]] }
 *           (4 + 12 (flags&1) + 12 (flags&2) + 16 (flags&4) bytes)
 *   ANIM  int32 flags, frames; float fps                           (12 bytes)
 * Quaternions are stored w, x, y, z (spec §"Chunk Types"; Irrlicht builds
 * quaternion(x, y, z, w), notes/b3d_reference.md §2).
 *
 * Decoder findings (core/b3d/decode.c), each at the exact bytes:
 *   b3d-not-b3d             the file does not start with a BB3D chunk (the
 *                           whole file, one finding; core/b3d/descriptor.c)
 *   b3d-string-unterminated a name runs to the end of its chunk with no NUL
 *   b3d-record-slack        bytes after the last whole record of a data
 *                           chunk (Luanti reads on into the next chunk)
 * (VRTS layouts with negative or huge tex_coord_sets x set_size, and BRUS
 * n_texs negative or above 4096, are not decoded: verts.size stays 0 / no
 * brush entries, and the checks report the values.)
 * Everything else is judged by the checks in lint/b3d/.
 */
#ifndef B3D_MODEL_H
#define B3D_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "b3d_format.h"

/* A run of fixed-size records inside one data chunk. */
typedef struct b3d_records {
	const wl_chunk *src;     /* the chunk */
	const uint8_t *data;     /* first record (into the document's bytes) */
	uint64_t offset;         /* absolute offset of the first record */
	size_t count;            /* whole records */
	uint32_t size;           /* bytes per record; 0 when not decodable */
	uint64_t slack;          /* bytes after the last whole record */
} b3d_records;

/** Absolute offset of record i of r. */
static inline uint64_t b3d_record_offset(const b3d_records *r, size_t i)
{
	return r->offset + (uint64_t)i * r->size;
}
/** Bytes of record i of r. */
static inline const uint8_t *b3d_record(const b3d_records *r, size_t i)
{
	return r->data + (size_t)i * r->size;
}

/* One TEXS entry. */
typedef struct b3d_texture {
	const wl_chunk *src;     /* the TEXS chunk */
	uint64_t offset, length; /* the whole entry */
	const char *name;        /* file[] up to its NUL (arena; may hold any
	                            byte but NUL) */
	size_t name_len;
	int32_t flags, blend;
	float pos[2], scale[2], rotation;
	uint64_t values_offset;  /* of flags: 28 bytes of numbers follow */
} b3d_texture;

/* One BRUS entry. */
typedef struct b3d_brush {
	const wl_chunk *src;     /* the BRUS chunk */
	uint64_t offset, length;
	const char *name;        /* arena */
	size_t name_len;
	float color[4], shininess;
	int32_t blend, fx;
	uint64_t values_offset;  /* of red: 28 bytes, then the texture ids */
	const uint8_t *texture_ids; /* n_texs int32 (document bytes) */
	uint64_t texture_ids_offset;
} b3d_brush;

/* A VRTS chunk. */
typedef struct b3d_vrts {
	const wl_chunk *src;
	int32_t flags, sets, set_size;
	uint32_t normal_at;      /* byte offset of nx in a record, 0 = none */
	uint32_t color_at;       /* of red, 0 = none */
	uint32_t uv_at;          /* of tex_coords */
	b3d_records verts;       /* size 0 when the layout is invalid */
} b3d_vrts;

/* A TRIS chunk. */
typedef struct b3d_tris {
	const wl_chunk *src;
	int32_t brush_id;        /* valid when brush_ok */
	bool brush_ok;
	b3d_records tris;        /* 12-byte records: vertex_id[3] */
} b3d_tris;

struct b3d_node;

/* A MESH chunk. */
typedef struct b3d_mesh {
	const wl_chunk *src;
	struct b3d_node *node;   /* the NODE holding it */
	int32_t brush_id;        /* valid when brush_ok */
	bool brush_ok;
	const b3d_vrts *vrts;    /* the first VRTS, or NULL */
	size_t vrts_count;       /* VRTS chunks (the spec allows one) */
	b3d_tris **tris;
	size_t tris_count;
	size_t vertex_count;     /* vrts ? vrts->verts.count : 0 */
	uint64_t global_base;    /* vertices of every VRTS before this mesh's,
	                            in file order (Assimp's global BONE index) */
	size_t index;            /* in b3d_model.meshes */
} b3d_mesh;

/* A BONE chunk and the mesh each reader binds its vertex ids to
 * (notes/b3d_reference.md §2 "BONE vertex ids"). */
typedef struct b3d_bone {
	const wl_chunk *src;
	struct b3d_node *node;
	b3d_records weights;     /* 8-byte records: int32 vertex_id, float weight */
	const b3d_mesh *bind_blitz;    /* MESH of the nearest enclosing NODE
	                                  that has one (Blitz3D), or NULL */
	const b3d_mesh *bind_irrlicht; /* the last MESH before it in file order
	                                  (Irrlicht and Luanti), or NULL */
} b3d_bone;

/* A KEYS chunk. */
typedef struct b3d_keys {
	const wl_chunk *src;
	struct b3d_node *node;
	int32_t flags;
	uint32_t position_at, scale_at, rotation_at; /* byte offsets in a
	                                  record; 0 = not present */
	b3d_records keys;        /* size 0 when flags_ok is false */
	bool flags_ok;           /* flags read (chunk holds 4 bytes) */
} b3d_keys;

/* An ANIM chunk. */
typedef struct b3d_anim {
	const wl_chunk *src;
	struct b3d_node *node;
	int32_t flags, frames;
	float fps;
	bool ok;                 /* all 12 bytes present */
} b3d_anim;

/* A NODE chunk. */
typedef struct b3d_node {
	const wl_chunk *src;
	struct b3d_node *parent; /* NULL for a NODE directly under BB3D */
	const char *name;        /* up to the NUL (arena) */
	const char *label;       /* name for paths and messages: bytes outside
	                          * 0x20..0x7E and / [ ] as '?' (arena), or NULL
	                          * when the name is unterminated; also the
	                          * chunk's label (wl_chunk_label) */
	size_t name_len;
	bool name_terminated;
	bool transform_ok;       /* the 40 bytes of transform are present */
	float position[3], scale[3], rotation[4]; /* rotation w, x, y, z */
	uint64_t transform_offset; /* absolute offset of position[0] */
	b3d_mesh *mesh;          /* the first MESH child, or NULL */
	b3d_bone *bone;          /* the first BONE child, or NULL */
	size_t mesh_count, bone_count; /* MESH / BONE children */
	b3d_anim *anim;          /* the first ANIM child, or NULL */
	size_t depth;            /* 0 under BB3D */
	size_t index;            /* in b3d_model.nodes */
} b3d_node;

/** The ANIM that governs keys of node n: the first complete ANIM (ok) on n
 *  or its nearest ancestor that has one (spec §ANIM: "an animation starts
 *  here in the hierarchy"), or NULL.  The rule b3d-keys-beyond-anim and the
 *  fixer cover-keys-anim use it. */
static inline const b3d_anim *b3d_governing_anim(const b3d_node *n)
{
	for (; n; n = n->parent)
		if (n->anim && n->anim->ok)
			return n->anim;
	return NULL;
}

typedef struct b3d_model {
	const wl_chunk *bb3d;    /* the first BB3D chunk, or NULL */
	int32_t version;
	bool version_ok;         /* the 4 bytes are present */
	const wl_chunk *texs, *brus; /* first TEXS / BRUS, or NULL */
	b3d_texture *textures;   /* every entry of the first TEXS */
	size_t texture_count;
	int32_t brush_texture_slots; /* BRUS n_texs (valid when brus_ok) */
	bool brus_ok;
	b3d_brush *brushes;      /* every whole entry of the first BRUS */
	size_t brush_count;
	/* The first BRUS ends in a cut entry (an unterminated name, or fewer
	 * than 28 + 4 x n_texs bytes after it): Blitz3D, Irrlicht/Luanti
	 * (CB3DMeshFileLoader::readChunkBRUS loops while the chunk has bytes
	 * left) and Assimp still make a brush of it, reading past the chunk,
	 * so brush ids count it. */
	bool brush_cut;
	/* Every object in file order (pointers into the arena). */
	b3d_node **nodes;     size_t node_count;
	b3d_mesh **meshes;    size_t mesh_count;
	b3d_bone **bones;     size_t bone_count;
	b3d_keys **keys;      size_t keys_count;
	b3d_anim **anims;     size_t anim_count;
	uint64_t total_vertices; /* over every VRTS (Assimp's BONE range) */
} b3d_model;

/**
 * Decodes doc (read with b3d_format) into a model in doc's arena, sets
 * doc->model and the chunk labels (NODE names, for chunk paths like
 * NODE[Armature]/NODE[Bone.003]/KEYS), and reports the decoder findings
 * above.  Never fails on any input; NULL only when out of memory
 * (doc->oom set).
 */
b3d_model *b3d_model_build(wl_doc *doc);

#endif
