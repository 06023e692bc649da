/*
 * w3d_format.h - the W3D chunk schema: every chunk id of
 * seeds/000_2d9a53fdbe3a6a75.txt (the W3D specification, chunk table) with
 * its parent context, container-ness, element size and fixed record size,
 * and the wl_format that drives the shared chunk reader.
 *
 * W3D chunk header (spec "Chunk header"; REN Code/wwlib/chunkio.h:91-111):
 *   uint32 ChunkType; uint32 ChunkSize  -- little-endian, 8 bytes;
 *   ChunkSize bit 31 = "contains sub-chunks", bits 0..30 = payload bytes.
 * Chunk ids are scoped by their parent (notes/w3d_reference.md §1.4): the
 * same number means different things under different parents, so lookups
 * take the parent context.
 */
#ifndef W3D_FORMAT_H
#define W3D_FORMAT_H

#include "core/chunk.h"
#include "core/cursor.h"

/* Chunk ids used by the decoders and rules (spec names without W3D_CHUNK_). */
enum {
	W3D_CHUNK_MESH = 0x0000,
	W3D_CHUNK_VERTICES = 0x0002,
	W3D_CHUNK_VERTEX_NORMALS = 0x0003,
	W3D_CHUNK_MESH_USER_TEXT = 0x000C,
	W3D_CHUNK_VERTEX_INFLUENCES = 0x000E,
	W3D_CHUNK_MESH_HEADER3 = 0x001F,
	W3D_CHUNK_TRIANGLES = 0x0020,
	W3D_CHUNK_VERTEX_SHADE_INDICES = 0x0022,
	W3D_CHUNK_PRELIT_UNLIT = 0x0023,
	W3D_CHUNK_PRELIT_VERTEX = 0x0024,
	W3D_CHUNK_PRELIT_LIGHTMAP_MULTI_PASS = 0x0025,
	W3D_CHUNK_PRELIT_LIGHTMAP_MULTI_TEXTURE = 0x0026,
	W3D_CHUNK_MATERIAL_INFO = 0x0028,
	W3D_CHUNK_SHADERS = 0x0029,
	W3D_CHUNK_VERTEX_MATERIALS = 0x002A,
	W3D_CHUNK_VERTEX_MATERIAL = 0x002B,
	W3D_CHUNK_VERTEX_MATERIAL_NAME = 0x002C,
	W3D_CHUNK_VERTEX_MATERIAL_INFO = 0x002D,
	W3D_CHUNK_VERTEX_MAPPER_ARGS0 = 0x002E,
	W3D_CHUNK_VERTEX_MAPPER_ARGS1 = 0x002F,
	W3D_CHUNK_TEXTURES = 0x0030,
	W3D_CHUNK_TEXTURE = 0x0031,
	W3D_CHUNK_TEXTURE_NAME = 0x0032,
	W3D_CHUNK_TEXTURE_INFO = 0x0033,
	W3D_CHUNK_MATERIAL_PASS = 0x0038,
	W3D_CHUNK_VERTEX_MATERIAL_IDS = 0x0039,
	W3D_CHUNK_SHADER_IDS = 0x003A,
	W3D_CHUNK_DCG = 0x003B,
	W3D_CHUNK_DIG = 0x003C,
	W3D_CHUNK_SCG = 0x003E,
	W3D_CHUNK_SHADER_MATERIAL_ID = 0x003F,
	W3D_CHUNK_TEXTURE_STAGE = 0x0048,
	W3D_CHUNK_TEXTURE_IDS = 0x0049,
	W3D_CHUNK_STAGE_TEXCOORDS = 0x004A,
	W3D_CHUNK_PER_FACE_TEXCOORD_IDS = 0x004B,
	W3D_CHUNK_SHADER_MATERIALS = 0x0050,
	W3D_CHUNK_TANGENTS = 0x0060,
	W3D_CHUNK_BITANGENTS = 0x0061,
	W3D_CHUNK_AABTREE = 0x0090,
	W3D_CHUNK_AABTREE_HEADER = 0x0091,
	W3D_CHUNK_AABTREE_POLYINDICES = 0x0092,
	W3D_CHUNK_AABTREE_NODES = 0x0093,
	W3D_CHUNK_HIERARCHY = 0x0100,
	W3D_CHUNK_HIERARCHY_HEADER = 0x0101,
	W3D_CHUNK_PIVOTS = 0x0102,
	W3D_CHUNK_PIVOT_FIXUPS = 0x0103,
	W3D_CHUNK_ANIMATION = 0x0200,
	W3D_CHUNK_ANIMATION_HEADER = 0x0201,
	W3D_CHUNK_ANIMATION_CHANNEL = 0x0202,
	W3D_CHUNK_BIT_CHANNEL = 0x0203,
	W3D_CHUNK_COMPRESSED_ANIMATION = 0x0280,
	W3D_CHUNK_COMPRESSED_ANIMATION_HEADER = 0x0281,
	W3D_CHUNK_COMPRESSED_ANIMATION_CHANNEL = 0x0282,
	W3D_CHUNK_COMPRESSED_BIT_CHANNEL = 0x0283,
	W3D_CHUNK_COMPRESSED_ANIMATION_MOTION_CHANNEL = 0x0284,
	W3D_CHUNK_HMODEL = 0x0300,
	W3D_CHUNK_HMODEL_HEADER = 0x0301,
	W3D_CHUNK_LODMODEL = 0x0400,
	W3D_CHUNK_LODMODEL_HEADER = 0x0401,
	W3D_CHUNK_COLLECTION = 0x0420,
	W3D_CHUNK_COLLECTION_HEADER = 0x0421,
	W3D_CHUNK_EMITTER = 0x0500,
	W3D_CHUNK_EMITTER_HEADER = 0x0501,
	W3D_CHUNK_EMITTER_INFO = 0x0503,
	W3D_CHUNK_AGGREGATE = 0x0600,
	W3D_CHUNK_AGGREGATE_HEADER = 0x0601,
	W3D_CHUNK_HLOD = 0x0700,
	W3D_CHUNK_HLOD_HEADER = 0x0701,
	W3D_CHUNK_HLOD_LOD_ARRAY = 0x0702,
	W3D_CHUNK_HLOD_SUB_OBJECT_ARRAY_HEADER = 0x0703,
	W3D_CHUNK_HLOD_SUB_OBJECT = 0x0704,
	W3D_CHUNK_HLOD_AGGREGATE_ARRAY = 0x0705,
	W3D_CHUNK_HLOD_PROXY_ARRAY = 0x0706,
	W3D_CHUNK_BOX = 0x0740,
	W3D_CHUNK_SPHERE = 0x0741,
	W3D_CHUNK_RING = 0x0742,
	W3D_CHUNK_NULL_OBJECT = 0x0750,
	W3D_CHUNK_DAZZLE = 0x0900,
	W3D_CHUNK_DAZZLE_NAME = 0x0901,
	/* inside SPHERE and RING: their *_DEF (the spec's CHUNKID_SPHERE_DEF,
	 * CHUNKID_RING_DEF) */
	W3D_CHUNK_PRIM_DEF = 0x0001,
	W3D_CHUNK_VERTEX_INFLUENCES_EXTENDED = 0x0C03
};

/* Parent contexts (wl_chunk_type.ctx / child_ctx). */
enum {
	W3D_CTX_ROOT = 0,
	W3D_CTX_MESH,
	W3D_CTX_PRELIT,
	W3D_CTX_VERTEX_MATERIALS,
	W3D_CTX_VERTEX_MATERIAL,
	W3D_CTX_TEXTURES,
	W3D_CTX_TEXTURE,
	W3D_CTX_MATERIAL_PASS,
	W3D_CTX_TEXTURE_STAGE,
	W3D_CTX_SHADER_MATERIALS,
	W3D_CTX_SHADER_MATERIAL,
	W3D_CTX_DEFORM,
	W3D_CTX_DEFORM_SET,
	W3D_CTX_DEFORM_KEYFRAME,
	W3D_CTX_AABTREE,
	W3D_CTX_HIERARCHY,
	W3D_CTX_ANIMATION,
	W3D_CTX_COMPRESSED_ANIMATION,
	W3D_CTX_MORPH_ANIMATION,
	W3D_CTX_MORPHANIM_CHANNEL,
	W3D_CTX_HMODEL,
	W3D_CTX_LODMODEL,
	W3D_CTX_COLLECTION,
	W3D_CTX_LIGHT,
	W3D_CTX_EMITTER,
	W3D_CTX_AGGREGATE,
	W3D_CTX_HLOD,
	W3D_CTX_HLOD_ARRAY,
	W3D_CTX_DAZZLE,
	W3D_CTX_SOUNDROBJ,
	W3D_CTX_SHDMESH,
	W3D_CTX_SHDSUBMESH,
	W3D_CTX_SHDSUBMESH_SHADER,
	W3D_CTX_LIGHTSCAPE,
	W3D_CTX_LIGHTSCAPE_LIGHT,
	W3D_CTX_SPHERE,
	W3D_CTX_RING,
	W3D_CTX_PRIM_CHANNEL,
	W3D_CTX_DAMAGE,
	W3D_CTX_MATERIALS3,
	W3D_CTX_MATERIAL3,
	W3D_CTX_MAP3,
	W3D_CTX__COUNT
};

/** The W3D format descriptor (core/w3d/descriptor.c), registered in
 *  core/registry.c. */
extern const wl_format w3d_format;

/** Reads an 8-byte W3D chunk header at p: ChunkType, ChunkSize bits 0..30,
 *  bit 31 into *flag (little-endian). */
void w3d_read_header(const uint8_t *p, uint32_t *id, uint32_t *size, bool *flag);

/** Content score of bytes as W3D (format.h WL_DETECT_*): W3D has no magic,
 *  so a first chunk header whose ChunkType is a known top-level chunk and
 *  whose size fits the file is WL_DETECT_WEAK + 25; a known type whose size
 *  does not fit is WL_DETECT_WEAK; anything else WL_DETECT_NO. */
int w3d_detect(const uint8_t *bytes, uint64_t size);

/** Schema entry of id inside context ctx, or NULL (binary search). */
const wl_chunk_type *w3d_lookup(uint16_t ctx, uint32_t id);

/** Short spec name of id in its most common context ("0x1234" when unknown;
 *  the returned pointer is static, or thread-local for unknown ids). */
const char *w3d_id_name(uint32_t id);

/** The whole schema table, for --list of chunk names and dumps. */
const wl_chunk_type *w3d_schema(size_t *out_count);

/**
 * The payload size the counts give a data chunk of type t about to be read
 * as the next child of parent (wl_format.counted_size): an array of a MESH
 * whose MESH_HEADER3 (W3dMeshHeader3Struct, 116 bytes) was read before it -
 * VERTICES, VERTEX_NORMALS, VERTEX_INFLUENCES, VERTEX_SHADE_INDICES,
 * SECONDARY_VERTICES and SECONDARY_VERTEX_NORMALS NumVertices (byte 44)
 * elements, TRIANGLES NumTris (byte 40); in its MATERIAL_PASS
 * VERTEX_MATERIAL_IDS, DCG, DIG, STAGE_TEXCOORDS NumVertices, SHADER_IDS
 * and SHADER_MATERIAL_ID NumTris; in a pass's TEXTURE_STAGE STAGE_TEXCOORDS
 * NumVertices, TEXTURE_IDS and PER_FACE_TEXCOORD_IDS NumTris (the id
 * arrays may also hold one element: the reader tries that too,
 * WL_TYPE_ONE_FOR_ALL) - or PIVOTS and PIVOT_FIXUPS of a
 * HIERARCHY whose HIERARCHY_HEADER (36 bytes) gives NumPivots (byte 20),
 * times the schema's element size (notes/w3d_reference.md §3 B2, E1, E9:
 * the loaders read the header's count of elements) - or a channel of an
 * ANIMATION or COMPRESSED_ANIMATION by the counts of its own header at
 * payload (absolute offset) and, compressed, the animation header's
 * Flavor (core/w3d/counted.c lists the formulas; notes/w3d_reference.md
 * §2.4, §2.5).  0 when no header
 * among the first 8 nodes of its parent (the exporters write it first)
 * gives the count: the cost per chunk does not grow with its siblings.  Reads through the cursor; never fails.
 */
uint64_t w3d_counted_size(const wl_doc *d, const wl_chunk *parent, const wl_chunk_type *t, uint64_t payload);

/** True for the file-name extensions linted as W3D: .w3d .wlt .wht .wha
 *  .wtm, in any letter case. */
int w3d_is_w3d_path(const char *path);

#endif
