/*
 * mesh.h - the typed W3D MESH model (W3D_CHUNK_MESH 0x0000) and its decoder.
 *
 * Sources: notes/w3d_reference.md §2.1 (mesh layouts, REN w3d_file.h and
 * meshmdlio.cpp), §2.2 (AABTree), §5.1/§5.2 (community and BFME layouts of
 * the vertex influences); the W3D specification seeds/000_*.txt.
 *
 * Conventions for everything below:
 *   - All values in the file are little-endian; they are assembled byte by
 *     byte through cursor.h (no struct overlays).  Floats are IEEE binary32.
 *   - Every array's element count comes from the bytes that are present:
 *     count = payload bytes / element size (a trailing partial element is
 *     dropped; the chunk reader reports it as array-size-not-multiple).
 *     Header counts (NumVertices, NumTris, MATERIAL_INFO, AABTREE_HEADER) are
 *     decoded as they are, never used to size or index anything, so checks
 *     can compare the two.
 *   - Every decoded part keeps its source chunk (src, NULL when the chunk is
 *     absent), so a finding can name its exact bytes: element i of an array
 *     whose element is E bytes lives at wl_chunk_payload_offset(src) + i*E.
 *   - Arrays and strings live in the document's arena.
 *   - When a chunk occurs more than once where one is expected, the first
 *     one is decoded (its duplicates stay in the chunk tree).
 */
#ifndef W3D_MESH_H
#define W3D_MESH_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"

/* Record sizes in bytes, as stored in the file (w3d_file.h, §2.14). */
enum {
	W3D_MESH_HEADER3_SIZE = 116,   /* W3dMeshHeader3Struct */
	W3D_VEC3_SIZE = 12,            /* W3dVectorStruct: float x, y, z */
	W3D_TRI_SIZE = 32,             /* W3dTriStruct */
	W3D_U32_SIZE = 4,              /* ids, shade indices, poly indices */
	W3D_RGBA_SIZE = 4,             /* W3dRGBAStruct: DCG / DIG / SCG */
	W3D_TEXCOORD_SIZE = 8,         /* W3dTexCoordStruct: float u, v */
	W3D_VERTINF_SIZE = 8,          /* W3dVertInfStruct (0x0E) */
	W3D_VERTINF_EXT_SIZE = 14,     /* W3dVertInf3WStruct (0x0C03) */
	W3D_FACE_TEXCOORD_IDS_SIZE = 12, /* 3 x uint32 per triangle */
	W3D_MATERIAL_INFO_SIZE = 16,   /* W3dMaterialInfoStruct */
	W3D_SHADER_SIZE = 16,          /* W3dShaderStruct */
	W3D_VERTMAT_INFO_SIZE = 32,    /* W3dVertexMaterialStruct */
	W3D_TEXTURE_INFO_SIZE = 12,    /* W3dTextureInfoStruct */
	W3D_AABTREE_HEADER_SIZE = 32,  /* W3dMeshAABTreeHeader */
	W3D_AABTREE_NODE_SIZE = 32     /* W3dMeshAABTreeNode */
};

/* Engine limits used by the checks (meshmatdesc.h:67-68). */
#define W3D_MAX_PASSES 4
#define W3D_MAX_TEX_STAGES 2
/* AABTree leaf flag (aabtree.h:73): set in FrontOrPoly0 on leaves. */
#define W3D_AABTREE_LEAF_FLAG 0x80000000u

typedef struct w3d_vec3 {
	float x, y, z;
} w3d_vec3;

/** True when no component of v is NaN or infinite. */
static inline bool w3d_vec3_finite(const w3d_vec3 *v)
{
	return isfinite(v->x) && isfinite(v->y) && isfinite(v->z);
}

/* Bounds fields inside the MESH_HEADER3 payload (§2.1); the header ends at
 * W3D_MESH_HEADER3_SIZE. */
enum {
	W3D_MESH_HDR_MIN = 76,         /* W3dVectorStruct Min */
	W3D_MESH_HDR_MAX = 88,         /* W3dVectorStruct Max */
	W3D_MESH_HDR_SPH_CENTER = 100, /* W3dVectorStruct SphCenter */
	W3D_MESH_HDR_SPH_RADIUS = 112, /* float SphRadius */
};

typedef struct w3d_texcoord {
	float u, v; /* as stored; the loader uses v' = 1 - v */
} w3d_texcoord;

typedef struct w3d_rgba {
	uint8_t r, g, b, a;
} w3d_rgba;

/* MESH_HEADER3 (0x1F), 116 bytes, w3d_file.h:1139-1170 (§2.1).  Fields past
 * the bytes present read as 0; `bytes` says how many were present. */
typedef struct w3d_mesh_header {
	const wl_chunk *src;
	uint64_t bytes;             /* payload bytes present (116 when complete) */
	uint32_t version;           /* @0, 0x00040002 for 4.2 */
	uint32_t attributes;        /* @4, W3D_MESH_FLAG_* */
	char mesh_name[17];         /* @8, 16-byte field, copied + NUL */
	char container_name[17];    /* @24 */
	bool mesh_name_terminated;  /* a NUL occurs inside the 16-byte field */
	bool container_name_terminated;
	uint32_t num_tris;          /* @40: governs TRIANGLES, SHADER_IDS, TEXTURE_IDS */
	uint32_t num_vertices;      /* @44: governs VERTICES, VERTEX_NORMALS, shade
	                               indices, influences, texcoords, DCG/DIG */
	uint32_t num_materials;     /* @48, legacy, unused by the loader */
	uint32_t num_damage_stages; /* @52, unused */
	int32_t sort_level;         /* @56, 0..32 */
	uint32_t prelit_version;    /* @60 */
	uint32_t future_counts;     /* @64 */
	uint32_t vertex_channels;   /* @68, W3D_VERTEX_CHANNEL_* */
	uint32_t face_channels;     /* @72 */
	w3d_vec3 min, max;          /* @76, @88 bounding box */
	w3d_vec3 sph_center;        /* @100 */
	float sph_radius;           /* @112 */
} w3d_mesh_header;

/** True when the header bytes hold NumTris and NumVertices (>= 48 bytes). */
static inline bool w3d_mesh_header_has_counts(const w3d_mesh_header *h)
{
	return h->src && h->bytes >= 48;
}

/* W3dTriStruct, 32 bytes (w3d_file.h:987-993). */
typedef struct w3d_triangle {
	uint32_t vindex[3];  /* @0, indices into the vertex arrays */
	uint32_t attributes; /* @12, surface type */
	w3d_vec3 normal;     /* @16 */
	float dist;          /* @28 */
} w3d_triangle;

typedef struct w3d_vec3_array {
	const wl_chunk *src;
	w3d_vec3 *v;  /* count elements of 12 bytes in the file */
	size_t count;
} w3d_vec3_array;

typedef struct w3d_u32_array {
	const wl_chunk *src;
	uint32_t *v;  /* count elements of 4 bytes in the file */
	size_t count;
} w3d_u32_array;

typedef struct w3d_rgba_array {
	const wl_chunk *src;
	w3d_rgba *v;  /* count elements of 4 bytes */
	size_t count;
} w3d_rgba_array;

typedef struct w3d_texcoord_array {
	const wl_chunk *src;
	w3d_texcoord *v; /* count elements of 8 bytes */
	size_t count;
} w3d_texcoord_array;

/* Layouts of the vertex influences (§5.2). */
typedef enum w3d_influence_layout {
	W3D_INFLUENCE_SINGLE = 0,  /* 0x0E REN/ZH: uint16 bone; uint8 pad[6] */
	W3D_INFLUENCE_TWO_BONE,    /* 0x0E BFME/TT: uint16 bone[2]; uint16 weight[2] (percent) */
	W3D_INFLUENCE_EXTENDED     /* 0x0C03: uint16 bone[4]; uint16 weight[3] (1/65535) */
} w3d_influence_layout;

/* One vertex influence in every layout.  SINGLE: bone[0] only (the raw pad
 * words are kept in bone[1], weight[0], weight[1] so the two-bone reading
 * stays available).  TWO_BONE: bone[0..1], weight[0..1].  EXTENDED:
 * bone[0..3], weight[0..2]; weight[3] is 0 (implied 65535 - sum). */
typedef struct w3d_influence {
	uint16_t bone[4];
	uint16_t weight[4];
} w3d_influence;

typedef struct w3d_influence_array {
	const wl_chunk *src;
	w3d_influence_layout layout; /* 0x0E: TWO_BONE when any pad byte of
	                                this chunk is non-zero, else SINGLE */
	bool pad_nonzero;            /* 0x0E: some pad byte (@2..7) is non-zero */
	w3d_influence *v;            /* count elements (8 or 14 bytes each) */
	size_t count;
} w3d_influence_array;

/* MATERIAL_INFO (0x28), 16 bytes (w3d_file.h:611-617). */
typedef struct w3d_material_info {
	const wl_chunk *src;      /* NULL when absent */
	bool complete;            /* all 16 bytes present */
	uint32_t pass_count;          /* @0: governs the MATERIAL_PASS chunks */
	uint32_t vertex_material_count; /* @4: VERTEX_MATERIAL chunks */
	uint32_t shader_count;        /* @8: SHADERS records */
	uint32_t texture_count;       /* @12: TEXTURE chunks */
} w3d_material_info;

/* W3dShaderStruct, 16 bytes of uint8 (w3d_file.h:828-846). */
typedef struct w3d_shader {
	uint8_t depth_compare, depth_mask, color_mask, dest_blend, fog_func, pri_gradient,
		sec_gradient, src_blend, texturing, detail_color_func, detail_alpha_func,
		shader_preset, alpha_test, post_detail_color_func, post_detail_alpha_func, pad;
} w3d_shader;

typedef struct w3d_shader_array {
	const wl_chunk *src;
	w3d_shader *v; /* count records of 16 bytes */
	size_t count;
} w3d_shader_array;

/* W3dVertexMaterialStruct, 32 bytes (w3d_file.h:676-705). */
typedef struct w3d_vertex_material_info {
	uint32_t attributes;
	w3d_rgba ambient, diffuse, specular, emissive; /* a = pad byte */
	float shininess, opacity, translucency;
} w3d_vertex_material_info;

/* VERTEX_MATERIAL (0x2B) and its children. */
typedef struct w3d_vertex_material {
	const wl_chunk *src;
	const wl_chunk *name_src;   /* VERTEX_MATERIAL_NAME 0x2C, or NULL */
	const char *name;           /* text up to the first NUL ("" if absent) */
	const wl_chunk *info_src;   /* VERTEX_MATERIAL_INFO 0x2D, or NULL */
	w3d_vertex_material_info info; /* zero when info_src is NULL */
	const wl_chunk *mapper_args_src[2]; /* MAPPER_ARGS0/1 0x2E/0x2F */
	const char *mapper_args[2];  /* INI text up to the first NUL, or NULL */
	bool name_terminated;        /* VERTEX_MATERIAL_NAME holds a NUL */
	bool mapper_args_terminated[2]; /* MAPPER_ARGS0/1 hold a NUL */
} w3d_vertex_material;

/* W3dTextureInfoStruct, 12 bytes (w3d_file.h:973-980). */
typedef struct w3d_texture_info {
	uint16_t attributes;
	uint16_t anim_type;
	uint32_t frame_count;
	float frame_rate;
} w3d_texture_info;

/* TEXTURE (0x31) and its children (texture.cpp:919-1030). */
typedef struct w3d_texture {
	const wl_chunk *src;
	const wl_chunk *name_src;  /* TEXTURE_NAME 0x32, or NULL */
	const char *name;          /* text up to the first NUL ("" if absent) */
	const wl_chunk *info_src;  /* TEXTURE_INFO 0x33 (optional), or NULL */
	w3d_texture_info info;
	bool name_terminated;      /* TEXTURE_NAME holds a NUL */
	bool info_complete;        /* TEXTURE_INFO holds all 12 bytes */
} w3d_texture;

/* W3dTextureInfoStruct.Attributes fields (w3d_file.h:955-971, §2.1). */
#define W3D_TEXTURE_PUBLISH 0x0001u
#define W3D_TEXTURE_NO_LOD 0x0004u
#define W3D_TEXTURE_CLAMP_U 0x0008u
#define W3D_TEXTURE_CLAMP_V 0x0010u
#define W3D_TEXTURE_ALPHA_BITMAP 0x0020u
#define W3D_TEXTURE_MIP_LEVELS_MASK 0x00C0u /* ALL 0, 2: 0x40, 3: 0x80, 4: 0xC0 */
#define W3D_TEXTURE_HINT_MASK 0xFF00u       /* BASE 0, EMISSIVE 0x100, ENVIRONMENT 0x200, SHINY_MASK 0x300 */
#define W3D_TEXTURE_TYPE_MASK 0x1000u       /* COLORMAP 0, BUMPMAP 0x1000 */

/* TEXTURE_STAGE (0x48): its stage number is its order inside the pass. */
typedef struct w3d_texture_stage {
	const wl_chunk *src;
	w3d_u32_array texture_ids;      /* 0x49: 1 or NumTris; 0xFFFFFFFF = none */
	w3d_texcoord_array texcoords;   /* 0x4A: NumVertices */
	const wl_chunk *per_face_texcoord_ids; /* 0x4B: exactly NumTris x 12 B */
	uint64_t per_face_texcoord_id_count;   /* payload / 12 */
} w3d_texture_stage;

/* MATERIAL_PASS (0x38), meshmdlio.cpp:1071-1531. */
typedef struct w3d_material_pass {
	const wl_chunk *src;
	w3d_u32_array vertex_material_ids; /* 0x39: 1 or NumVertices */
	w3d_u32_array shader_ids;          /* 0x3A: 1 or NumTris */
	w3d_rgba_array dcg;                /* 0x3B: NumVertices */
	w3d_rgba_array dig;                /* 0x3C: NumVertices */
	w3d_rgba_array scg;                /* 0x3E: ignored by the loader */
	w3d_u32_array shader_material_ids; /* 0x3F BFME: 1 or NumTris */
	w3d_texcoord_array texcoords;      /* 0x4A directly in the pass (some
	                                      exporters), NumVertices */
	w3d_texture_stage *stages;         /* stage_count TEXTURE_STAGE chunks */
	size_t stage_count;
} w3d_material_pass;

/* W3dPS2ShaderStruct, 12 bytes (PS2_SHADERS 0x80; spec "W3D_CHUNK_PS2_SHADERS"):
 * ignored by the PC loaders. */
typedef struct w3d_ps2_shader {
	uint8_t depth_compare, depth_mask, pri_gradient, texturing, alpha_test;
	uint8_t a_param, b_param, c_param, d_param; /* blend equation (A-B)*C+D */
	uint8_t pad[3];
} w3d_ps2_shader;

typedef struct w3d_ps2_shader_array {
	const wl_chunk *src;
	w3d_ps2_shader *v; /* count records of 12 bytes */
	size_t count;
} w3d_ps2_shader_array;

/* SHADER_MATERIAL_PROPERTY (0x53) types (§5.1, OpenSAGE W3dShaderMaterialProperty.cs). */
enum {
	W3D_SMAT_TEXTURE = 1, /* uint32 len; char[len] */
	W3D_SMAT_FLOAT = 2,   /* 1 float */
	W3D_SMAT_VEC2 = 3,    /* 2 floats */
	W3D_SMAT_VEC3 = 4,    /* 3 floats */
	W3D_SMAT_VEC4 = 5,    /* 4 floats */
	W3D_SMAT_INT = 6,     /* int32 */
	W3D_SMAT_BOOL = 7     /* uint8, 0 or 1 */
};

/* One SHADER_MATERIAL_PROPERTY: uint32 Type; uint32 NameLen; char
 * Name[NameLen] (NUL-terminated inside); then the value (§5.1). */
typedef struct w3d_shader_material_property {
	const wl_chunk *src;
	uint32_t type;          /* W3D_SMAT_* */
	uint32_t name_len;      /* bytes, as read */
	const char *name;       /* up to the first NUL inside NameLen */
	bool name_terminated;
	bool value_ok;          /* every value byte is inside the chunk */
	const char *texture;    /* TEXTURE: file name (arena), else NULL */
	float value[4];         /* FLOAT..VEC4: 1-4 components */
	int32_t int_value;      /* INT */
	uint8_t bool_value;     /* BOOL */
} w3d_shader_material_property;

/* SHADER_MATERIAL (0x51): HEADER 0x52 (37 bytes: uint8 Version; char
 * TypeName[32] (the .fx name); uint8 Technique; uint8 pad[3]) and
 * PROPERTY 0x53 chunks (BFME, §5.1). */
typedef struct w3d_shader_material {
	const wl_chunk *src;
	const wl_chunk *header_src;   /* SHADER_MATERIAL_HEADER, or NULL */
	bool header_ok;               /* all 37 bytes present */
	uint8_t version;
	const char *type_name;        /* TypeName[32] @1 */
	bool type_name_terminated;
	uint8_t technique;            /* @33 */
	w3d_shader_material_property *props; /* prop_count PROPERTY chunks */
	size_t prop_count;
} w3d_shader_material;

/* The material chunks of one scope: the MESH itself or one PRELIT_*
 * wrapper (0x23-0x26), which hold the same chunks (§2.1). */
typedef struct w3d_material_set {
	const wl_chunk *src;              /* the MESH or PRELIT_* chunk */
	w3d_material_info info;           /* MATERIAL_INFO 0x28 */
	w3d_shader_array shaders;         /* SHADERS 0x29 */
	const wl_chunk *vertex_materials_src; /* first VERTEX_MATERIALS 0x2A */
	w3d_vertex_material *vertex_materials; /* every VERTEX_MATERIAL of every
	                                          VERTEX_MATERIALS, in order */
	size_t vertex_material_count;
	const wl_chunk *textures_src;     /* first TEXTURES 0x30 */
	w3d_texture *textures;            /* every TEXTURE of every TEXTURES */
	size_t texture_count;
	w3d_material_pass *passes;        /* MATERIAL_PASS chunks, in order */
	size_t pass_count;
	w3d_ps2_shader_array ps2_shaders; /* PS2_SHADERS 0x80 */
	const wl_chunk *shader_materials_src; /* first SHADER_MATERIALS 0x50 */
	w3d_shader_material *shader_materials; /* every SHADER_MATERIAL of every
	                                          SHADER_MATERIALS, in order */
	size_t shader_material_count;
} w3d_material_set;

/* DEFORM (0x58, obsolete; skipped by the loader): the chunk is known as a
 * data chunk whose payload starts with W3dMeshDeform {uint32 SetCount;
 * uint32 AlphaPasses; uint32 reserved[3];} (20 B, §2.14; the spec's
 * Generals/ZH table lists the first 8 bytes). */
typedef struct w3d_deform {
	const wl_chunk *src;      /* NULL when absent */
	uint64_t bytes;           /* payload bytes present */
	uint32_t set_count;       /* @0 */
	uint32_t alpha_passes;    /* @4 */
} w3d_deform;

/* W3dMeshAABTreeNode, 32 bytes (w3d_file.h:1246-1252). */
typedef struct w3d_aabtree_node {
	w3d_vec3 min, max;
	uint32_t front_or_poly0;     /* leaf flag set: first POLYINDICES slot */
	uint32_t back_or_poly_count; /* leaf: poly count; internal: back child */
} w3d_aabtree_node;

static inline bool w3d_aabtree_node_is_leaf(const w3d_aabtree_node *n)
{
	return (n->front_or_poly0 & W3D_AABTREE_LEAF_FLAG) != 0;
}

/* AABTREE (0x90) with its header, poly indices and nodes (§2.2). */
typedef struct w3d_aabtree {
	const wl_chunk *src;
	const wl_chunk *header_src;  /* AABTREE_HEADER 0x91, or NULL */
	bool header_complete;        /* all 32 bytes present */
	uint32_t node_count;         /* header: governs AABTREE_NODES */
	uint32_t poly_count;         /* header: governs AABTREE_POLYINDICES;
	                                should equal the mesh NumTris */
	uint32_t padding[6];
	w3d_u32_array poly_indices;  /* 0x92: triangle indices */
	const wl_chunk *nodes_src;   /* 0x93 */
	w3d_aabtree_node *nodes;     /* node_array_count nodes of 32 bytes */
	size_t node_array_count;
} w3d_aabtree;

/* Prelit wrappers, indexed by id - W3D_CHUNK_PRELIT_UNLIT. */
#define W3D_PRELIT_KINDS 4

/* One MESH. */
typedef struct w3d_mesh {
	const wl_chunk *src;            /* the MESH chunk */
	const char *name;               /* "CONTAINER.MESH" or "MESH" (printable,
	                                   arena), "" without a header */
	w3d_mesh_header header;         /* first MESH_HEADER3 (src NULL if none) */
	uint32_t header_chunk_count;    /* MESH_HEADER3 chunks in the mesh */
	w3d_vec3_array vertices;        /* VERTICES 0x02 */
	w3d_vec3_array normals;         /* VERTEX_NORMALS 0x03 (or SURRENDER 0x04) */
	w3d_triangle *triangles;        /* TRIANGLES 0x20, triangle_count x 32 B */
	size_t triangle_count;
	const wl_chunk *triangles_src;
	w3d_u32_array shade_indices;    /* VERTEX_SHADE_INDICES 0x22 */
	w3d_influence_array influences; /* VERTEX_INFLUENCES 0x0E */
	w3d_influence_array influences_ext; /* VERTEX_INFLUENCES_EXTENDED 0x0C03 */
	const wl_chunk *user_text_src;  /* MESH_USER_TEXT 0x0C */
	const char *user_text;          /* up to the first NUL, or NULL */
	w3d_material_set materials;     /* material chunks at the mesh level */
	w3d_material_set prelit[W3D_PRELIT_KINDS]; /* src NULL when absent */
	w3d_aabtree aabtree;            /* src NULL when absent */
	/* Chunks the loaders skip or that only some games read (§5.1): */
	w3d_rgba_array vertex_colors;   /* VERTEX_COLORS 0x0D (obsolete): W3dRGBStruct
	                                   (R, G, B, pad; `a` holds the pad byte) */
	w3d_vec3_array tangents;        /* TANGENTS 0x60 (BFME): NumVertices */
	w3d_vec3_array bitangents;      /* BITANGENTS 0x61 (BFME): NumVertices */
	w3d_vec3_array secondary_vertices; /* SECONDARY_VERTICES 0xC00: second-bone
	                                      space, NumVertices */
	w3d_vec3_array secondary_normals;  /* SECONDARY_VERTEX_NORMALS 0xC01 */
	w3d_deform deform;              /* DEFORM 0x58 header */
} w3d_mesh;

/**
 * True when mesh m is a skin for the geometry rules and fixers: its header's
 * geometry type (Attributes & 0xFF0000, w3d_file.h:1075-1111) is SKIN
 * (0x20000), or it has VERTEX_INFLUENCES (0x0E) or VERTEX_INFLUENCES_EXTENDED
 * (0x0C03).  A skin's vertices are bone-relative while its header bounds and
 * triangle planes belong to the bind pose: its planes are not compared or
 * rewritten, and its bounds only against its vertices put back into the
 * bind pose (bind_pose.h).
 */
static inline bool w3d_mesh_is_skin(const w3d_mesh *m)
{
	return (m->header.attributes & 0x00FF0000u) == 0x00020000u || m->influences.src || m->influences_ext.src;
}

/**
 * Decodes MESH chunk c of doc into doc->arena and sets c's label (wl_chunk_set_label) to the mesh
 * name.  Never fails on malformed input (missing
 * or short chunks decode as empty or zero); returns NULL only when out of
 * memory (doc->oom is then set).
 */
w3d_mesh *w3d_decode_mesh(wl_doc *doc, wl_chunk *c);

/**
 * The layout of 0x0E VERTEX_INFLUENCES for a whole file (§5.2): TWO_BONE
 * when any of the n meshes has a non-zero pad byte, else SINGLE.
 */
w3d_influence_layout w3d_file_influence_layout(const w3d_mesh *const *meshes, size_t n);

#endif
