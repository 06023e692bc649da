/*
 * w3dbuild.h - builds W3D bytes in memory for tests (little-endian).
 *
 *   wb b; t_w3d_init(&b);
 *   t_w3d_begin(&b, W3D_CHUNK_MESH);              // container
 *     t_w3d_begin(&b, W3D_CHUNK_MESH_HEADER3); ...fields...; t_w3d_end(&b);
 *   t_w3d_end(&b);                                 // size patched, bit 31 set
 *   ... b.data, b.len ...; t_w3d_free(&b);
 *
 * t_w3d_end() patches the size and sets bit 31 exactly when the chunk got child
 * chunks (as the Westwood ChunkSaveClass does); t_w3d_end_raw() writes any size
 * field, for malformed files.  Allocation failures abort the test process.
 */
#ifndef W3DBUILD_H
#define W3DBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "core/w3d/aabtree_build.h"

typedef struct wb {
	uint8_t *data;
	size_t len, cap;
	size_t stack[64];   /* header offsets of open chunks */
	int children[64];   /* open chunk got a child chunk */
	int depth;
} wb;

void t_w3d_init(wb *b);
void t_w3d_free(wb *b);

void t_w3d_begin(wb *b, uint32_t id);
/** Closes the innermost chunk: size = bytes written since its header. */
void t_w3d_end(wb *b);
/** Closes the innermost chunk with an explicit size field (bit 31 included). */
void t_w3d_end_raw(wb *b, uint32_t size_field);

void t_w3d_u8(wb *b, uint8_t v);
void t_w3d_u16(wb *b, uint16_t v);
void t_w3d_u32(wb *b, uint32_t v);
void t_w3d_f32(wb *b, float v);
void t_w3d_vec3(wb *b, float x, float y, float z);
void t_w3d_bytes(wb *b, const void *p, size_t n);
void t_w3d_zeros(wb *b, size_t n);
/** A fixed-size name field of field bytes: s, NUL-padded (truncated). */
void t_w3d_name(wb *b, const char *s, size_t field);
/** A data chunk holding n bytes of p. */
void t_w3d_chunk(wb *b, uint32_t id, const void *p, size_t n);

/**
 * Opens chunk id (its header offset in *object, when object is not NULL)
 * and its header chunk hid, and writes the start the MESH_HEADER3,
 * HLOD_HEADER and animation headers share: version, one u32 word, two
 * 16-byte names.  Returns the header payload offset; both stay open.
 */
size_t t_w3d_begin_header(wb *b, uint32_t id, uint32_t hid, size_t *object, uint32_t version, uint32_t word,
			  const char *name1, const char *name2);

/** Opens an animation header chunk id (ANIMATION_HEADER or
 *  COMPRESSED_ANIMATION_HEADER) and writes the fields both start with:
 *  Version, Name and HierarchyName (16 bytes each), NumFrames.  Returns its
 *  payload offset; the chunk stays open for the rest. */
size_t t_w3d_begin_anim_header(wb *b, uint32_t id, uint32_t version, const char *name, const char *hierarchy,
			       uint32_t frames);

/** A VERTEX_MATERIAL chunk: VERTEX_MATERIAL_NAME name (NUL included) and a
 *  VERTEX_MATERIAL_INFO with Attributes attributes, the four colours
 *  0x00FFFFFF (ambient, diffuse, specular, emissive), shininess, opacity,
 *  translucency.  Returns the VERTEX_MATERIAL_INFO payload offset. */
size_t t_w3d_vertex_material(wb *b, const char *name, uint32_t attributes, float shininess, float opacity,
			     float translucency);

/** A MATERIAL_INFO chunk (PassCount, VertexMaterialCount, ShaderCount,
 *  TextureCount); returns its payload offset. */
size_t t_w3d_material_info(wb *b, uint32_t passes, uint32_t vmats, uint32_t shaders, uint32_t textures);

/** A HIERARCHY_HEADER chunk: version 4.1, name (16 bytes), NumPivots
 *  pivots, Center (0, 0, 0); returns its payload offset. */
size_t t_w3d_hierarchy_header(wb *b, const char *name, uint32_t pivots);

/** An HLOD_SUB_OBJECT_ARRAY_HEADER chunk (ModelCount models,
 *  MaxScreenSize); returns its payload offset. */
size_t t_w3d_hlod_array_header(wb *b, uint32_t models, float max_screen_size);

/** One HLOD_SUB_OBJECT chunk: BoneIndex bone, name (32 bytes); returns
 *  its header offset. */
size_t t_w3d_hlod_sub_object(wb *b, uint32_t bone, const char *name);

/**
 * A whole MESH: a MESH_HEADER3 (version 4.2, NORMAL geometry, the names
 * mesh_name and container, nt triangles, nv vertices), VERTICES v[0..nv),
 * TRIANGLES (3 indexes of vindex per triangle, the rest of each record 0)
 * and, when t is not NULL, an AABTREE holding t.
 */
void t_w3d_mesh_with_tree(wb *b, const char *mesh_name, const char *container, const w3d_vec3 *v,
		       size_t nv, const uint32_t *vindex, size_t nt, const w3d_aabtree_built *t);

/** One PIVOTS record (60 bytes): name, parent, translation (0, ty, 0),
 *  Euler angles 0, rotation quaternion (0, 0, 0, qw). */
void t_w3d_pivot(wb *b, const char *name, uint32_t parent, float ty, float qw);

/** VERTICES v[0..n) and VERTEX_NORMALS (n times (0, 0, 1)). */
void t_w3d_vertices_normals(wb *b, const float (*v)[3], size_t n);

/** STAGE_TEXCOORDS (v[i][0], v[i][1]) for i < n. */
void t_w3d_texcoords(wb *b, const float (*v)[3], size_t n);

/** An AABTREE of one leaf, box (0,0,0)..(1,1,0), holding polygons 0 and 1
 *  (the unit-square quad of two triangles). */
void t_w3d_quad_aabtree(wb *b);

/** Overwrites 4 bytes at offset with v (for injecting defects). */
void t_w3d_patch_u32(wb *b, size_t offset, uint32_t v);
void t_w3d_patch_f32(wb *b, size_t offset, float v);

#endif
