/*
 * objects.h - typed models of the W3D top-level objects that are neither
 * meshes nor skeleton/animation/HLOD/BOX objects (those are in mesh.h and
 * hierarchy.h), and their decoders (decode_objects.c, decode_emitter.c):
 *
 *   MORPH_ANIMATION (0x2C0)  w3d_morph_animation  notes/w3d_reference.md §2.6
 *   HMODEL (0x300)           w3d_hmodel           §2.8 (hmdldef.cpp)
 *   LODMODEL (0x400)         w3d_lodmodel         §2.8
 *   COLLECTION (0x420)       w3d_collection       §2.8
 *   POINTS (0x440)           w3d_points           spec "W3D_CHUNK_POINTS"
 *   LIGHT (0x460)            w3d_light            §2.13, spec "W3D_CHUNK_LIGHT_INFO"
 *   EMITTER (0x500)          w3d_emitter          §2.10 (part_ldr.cpp)
 *   AGGREGATE (0x600)        w3d_aggregate        §2.12 (agg_def.cpp)
 *   SPHERE (0x741), RING (0x742)  w3d_primitive   §1.4, spec "W3D_CHUNK_SPHERE/RING"
 *   NULL_OBJECT (0x750)      w3d_null_object      §2.9 (nullrobj.cpp)
 *   LIGHTSCAPE (0x800)       w3d_lightscape       §2.13
 *   DAZZLE (0x900)           w3d_dazzle           §2.11 (dazzle.cpp)
 *   SOUNDROBJ (0xA00)        w3d_soundrobj        §2.13 (definition opaque, §1.4)
 *   SHDMESH (0xB00)          w3d_shdmesh          §2.0.2, spec "W3D_CHUNK_SHDMESH_*"
 *
 * Conventions (the same as hierarchy.h):
 *   - Every value is read little-endian through wl_cursor (no struct
 *     overlays); floats are IEEE-754 binary32, bit for bit.
 *   - `src` is the chunk a record came from (NULL when absent); `ok` (or
 *     `*_ok`) tells whether the payload held the whole fixed record.  A
 *     record that is short reads as zeros from the first field that does not
 *     fit (the chunk reader reports it as chunk-too-small).
 *   - Element counts (`*_count`) come from the bytes or chunks present, never
 *     from count fields; count fields are kept as read so rules can compare.
 *   - Names are arena copies of the fixed field up to its first NUL, with
 *     non-printable bytes shown as '?'; `*_terminated` says whether the
 *     field held a NUL.  String chunks are copied up to their first NUL;
 *     `*_terminated` says whether the payload held one.
 *   - When a chunk that should occur once occurs again, the first one is
 *     decoded; the others stay in the chunk tree.
 *   - Decoders never fail on malformed input; they return NULL only when out
 *     of memory (doc->oom set).  They label the object chunk with its name so
 *     chunk paths read e.g. EMITTER[FIRE01]/EMITTER_PROPS.
 *
 * Struct sizes: notes §2.14 (measured from ZH w3d_file.h, natural
 * alignment).  Where the specification's offset columns disagree with the
 * sizes (EMITTER_INFO, SPHERE_DEF, RING_DEF), the offsets below follow the
 * field sequence with natural alignment, which reproduces the measured size.
 */
#ifndef W3D_OBJECTS_H
#define W3D_OBJECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"

/* Chunk ids of these objects (spec names with W3D_CHUNK_ replaced by
 * W3D_OBJ_CHUNK_; w3d_format.h lists only the ids the first decoders used).
 * Local ids of SPHERE/RING children are W3D_OBJ_PRIM_*. */
enum {
	W3D_OBJ_CHUNK_MORPH_ANIMATION = 0x02C0,
	W3D_OBJ_CHUNK_MORPHANIM_HEADER = 0x02C1,
	W3D_OBJ_CHUNK_MORPHANIM_CHANNEL = 0x02C2,
	W3D_OBJ_CHUNK_MORPHANIM_POSENAME = 0x02C3,
	W3D_OBJ_CHUNK_MORPHANIM_KEYDATA = 0x02C4,
	W3D_OBJ_CHUNK_MORPHANIM_PIVOTCHANNELDATA = 0x02C5,
	W3D_OBJ_CHUNK_HMODEL = 0x0300,
	W3D_OBJ_CHUNK_HMODEL_HEADER = 0x0301,
	W3D_OBJ_CHUNK_NODE = 0x0302,
	W3D_OBJ_CHUNK_COLLISION_NODE = 0x0303,
	W3D_OBJ_CHUNK_SKIN_NODE = 0x0304,
	W3D_OBJ_CHUNK_LODMODEL = 0x0400,
	W3D_OBJ_CHUNK_LODMODEL_HEADER = 0x0401,
	W3D_OBJ_CHUNK_LOD = 0x0402,
	W3D_OBJ_CHUNK_COLLECTION = 0x0420,
	W3D_OBJ_CHUNK_COLLECTION_HEADER = 0x0421,
	W3D_OBJ_CHUNK_COLLECTION_OBJ_NAME = 0x0422,
	W3D_OBJ_CHUNK_PLACEHOLDER = 0x0423,
	W3D_OBJ_CHUNK_TRANSFORM_NODE = 0x0424,
	W3D_OBJ_CHUNK_POINTS = 0x0440,
	W3D_OBJ_CHUNK_LIGHT = 0x0460,
	W3D_OBJ_CHUNK_LIGHT_INFO = 0x0461,
	W3D_OBJ_CHUNK_SPOT_LIGHT_INFO = 0x0462,
	W3D_OBJ_CHUNK_NEAR_ATTENUATION = 0x0463,
	W3D_OBJ_CHUNK_FAR_ATTENUATION = 0x0464,
	W3D_OBJ_CHUNK_SPOT_LIGHT_INFO_5_0 = 0x0465,
	W3D_OBJ_CHUNK_PULSE = 0x0466,
	W3D_OBJ_CHUNK_EMITTER = 0x0500,
	W3D_OBJ_CHUNK_EMITTER_HEADER = 0x0501,
	W3D_OBJ_CHUNK_EMITTER_USER_DATA = 0x0502,
	W3D_OBJ_CHUNK_EMITTER_INFO = 0x0503,
	W3D_OBJ_CHUNK_EMITTER_INFOV2 = 0x0504,
	W3D_OBJ_CHUNK_EMITTER_PROPS = 0x0505,
	W3D_OBJ_CHUNK_EMITTER_LINE_PROPERTIES = 0x0509,
	W3D_OBJ_CHUNK_EMITTER_ROTATION_KEYFRAMES = 0x050A,
	W3D_OBJ_CHUNK_EMITTER_FRAME_KEYFRAMES = 0x050B,
	W3D_OBJ_CHUNK_EMITTER_BLUR_TIME_KEYFRAMES = 0x050C,
	W3D_OBJ_CHUNK_EMITTER_EXTRA_INFO = 0x050D,
	W3D_OBJ_CHUNK_AGGREGATE = 0x0600,
	W3D_OBJ_CHUNK_AGGREGATE_HEADER = 0x0601,
	W3D_OBJ_CHUNK_AGGREGATE_INFO = 0x0602,
	W3D_OBJ_CHUNK_TEXTURE_REPLACER_INFO = 0x0603,
	W3D_OBJ_CHUNK_AGGREGATE_CLASS_INFO = 0x0604,
	W3D_OBJ_CHUNK_SPHERE = 0x0741,
	W3D_OBJ_CHUNK_RING = 0x0742,
	W3D_OBJ_CHUNK_NULL_OBJECT = 0x0750,
	W3D_OBJ_CHUNK_LIGHTSCAPE = 0x0800,
	W3D_OBJ_CHUNK_LIGHTSCAPE_LIGHT = 0x0801,
	W3D_OBJ_CHUNK_LIGHT_TRANSFORM = 0x0802,
	W3D_OBJ_CHUNK_DAZZLE = 0x0900,
	W3D_OBJ_CHUNK_DAZZLE_NAME = 0x0901,
	W3D_OBJ_CHUNK_DAZZLE_TYPENAME = 0x0902,
	W3D_OBJ_CHUNK_SOUNDROBJ = 0x0A00,
	W3D_OBJ_CHUNK_SOUNDROBJ_HEADER = 0x0A01,
	W3D_OBJ_CHUNK_SOUNDROBJ_DEFINITION = 0x0A02,
	W3D_OBJ_CHUNK_SHDMESH = 0x0B00,
	W3D_OBJ_CHUNK_SHDMESH_NAME = 0x0B01,
	W3D_OBJ_CHUNK_SHDMESH_HEADER = 0x0B02,
	W3D_OBJ_CHUNK_SHDMESH_USER_TEXT = 0x0B03,
	W3D_OBJ_CHUNK_SHDSUBMESH = 0x0B20,
	W3D_OBJ_CHUNK_SHDSUBMESH_HEADER = 0x0B21,
	W3D_OBJ_CHUNK_SHDSUBMESH_SHADER = 0x0B40,
	W3D_OBJ_CHUNK_SHDSUBMESH_SHADER_CLASSID = 0x0B41,
	W3D_OBJ_CHUNK_SHDSUBMESH_VERTICES = 0x0B43,
	W3D_OBJ_CHUNK_SHDSUBMESH_VERTEX_NORMALS = 0x0B44,
	W3D_OBJ_PRIM_DEF = 0x0001,            /* CHUNKID_SPHERE_DEF / CHUNKID_RING_DEF */
	W3D_OBJ_PRIM_FIRST_CHANNEL = 0x0002,  /* COLOR, ALPHA, SCALE/INNER, VECTOR/OUTER */
	W3D_OBJ_PRIM_LAST_CHANNEL = 0x0005
};

/* Record sizes in bytes (§2.14). */
enum {
	W3D_MORPH_HEADER_SIZE = 48,     /* W3dMorphAnimHeaderStruct */
	W3D_MORPH_KEY_SIZE = 8,         /* W3dMorphAnimKeyStruct */
	W3D_HMODEL_HEADER_SIZE = 40,    /* W3dHModelHeaderStruct (38 + tail pad) */
	W3D_HMODEL_NODE_SIZE = 18,      /* W3dHModelNodeStruct */
	W3D_LODMODEL_HEADER_SIZE = 24,  /* W3dLODModelHeaderStruct (22 + pad) */
	W3D_LOD_SIZE = 40,              /* W3dLODStruct */
	W3D_COLLECTION_HEADER_SIZE = 32,/* W3dCollectionHeaderStruct */
	W3D_PLACEHOLDER_SIZE = 56,      /* W3dPlaceholderStruct / W3dTransformNodeStruct */
	W3D_LIGHT_INFO_SIZE = 24,       /* W3dLightStruct */
	W3D_SPOT_LIGHT_SIZE = 20,       /* W3dSpotLightStruct */
	W3D_LIGHT_ATTEN_SIZE = 8,       /* W3dLightAttenuationStruct */
	W3D_SPOT_LIGHT_5_0_SIZE = 8,    /* TT W3dSpotLightStruct_v5_0 */
	W3D_LIGHT_PULSE_SIZE = 22,      /* TT W3dLightPulseStruct fields */
	W3D_LIGHT_TRANSFORM_SIZE = 48,  /* W3dLightTransformStruct: float[3][4] */
	W3D_EMITTER_HEADER_SIZE = 20,   /* W3dEmitterHeaderStruct */
	W3D_EMITTER_USER_SIZE = 12,     /* W3dEmitterUserInfoStruct (9 + pad) */
	W3D_EMITTER_INFO_SIZE = 332,    /* W3dEmitterInfoStruct */
	W3D_EMITTER_INFOV2_SIZE = 124,  /* W3dEmitterInfoStructV2 */
	W3D_EMITTER_PROPS_SIZE = 40,    /* W3dEmitterPropertyStruct */
	W3D_EMITTER_KEY_SIZE = 8,       /* every emitter keyframe struct */
	W3D_EMITTER_LINE_SIZE = 64,     /* W3dEmitterLinePropertiesStruct */
	W3D_EMITTER_ROT_HEADER_SIZE = 16,   /* W3dEmitterRotationHeaderStruct */
	W3D_EMITTER_FRAME_HEADER_SIZE = 16, /* W3dEmitterFrameHeaderStruct */
	W3D_EMITTER_BLUR_HEADER_SIZE = 12,  /* W3dEmitterBlurTimeHeaderStruct */
	W3D_EMITTER_EXTRA_SIZE = 40,    /* W3dEmitterExtraInfoStruct (ZH) */
	W3D_AGGREGATE_HEADER_SIZE = 20, /* W3dAggregateHeaderStruct */
	W3D_AGGREGATE_INFO_SIZE = 36,   /* W3dAggregateInfoStruct */
	W3D_AGGREGATE_SUBOBJ_SIZE = 64, /* W3dAggregateSubobjectStruct */
	W3D_AGGREGATE_MISC_SIZE = 20,   /* W3dAggregateMiscInfo */
	W3D_NULL_OBJECT_SIZE = 48,      /* W3dNullObjectStruct */
	W3D_SPHERE_DEF_SIZE = 164,      /* W3dSphereStruct (natural alignment) */
	W3D_RING_DEF_SIZE = 168,        /* W3dRingStruct (natural alignment) */
	W3D_SOUNDROBJ_HEADER_SIZE = 56, /* W3dSoundRObjHeaderStruct */
	W3D_SHDMESH_HEADER_SIZE = 80,   /* W3dShdMeshHeaderStruct (ZH) */
	W3D_SHDSUBMESH_HEADER_SIZE = 56 /* W3dShdSubMeshHeaderStruct (ZH) */
};

/* Emitter header version from which INFOV2 and PROPS are expected
 * (part_ldr.cpp:360-371: `Version > 0x10000`). */
#define W3D_EMITTER_VERSION_V2 0x00010000u
/* HModel PivotIdx meaning "no pivot" for version >= 3.0 (hmdldef.cpp). */
#define W3D_HMODEL_NO_PIVOT 0xFFFFu

/* ------------------------------------------------------------------ */
/* MORPH_ANIMATION                                                     */
/* ------------------------------------------------------------------ */

/** One MORPHANIM_CHANNEL (0x2C2): a pose name and its keys. */
typedef struct w3d_morph_channel {
	const wl_chunk *src;
	const wl_chunk *pose_name_src;   /* MORPHANIM_POSENAME 0x2C3, or NULL */
	const char *pose_name;           /* string chunk, "" when absent */
	bool pose_name_terminated;
	const wl_chunk *keys_src;        /* MORPHANIM_KEYDATA 0x2C4, or NULL */
	uint32_t (*keys)[2];             /* key_count x {MorphFrame, PoseFrame} (frames) */
	size_t key_count;                /* keys_src payload / 8 */
} w3d_morph_channel;

/** A decoded MORPH_ANIMATION (§2.6). */
typedef struct w3d_morph_animation {
	const wl_chunk *src;
	const wl_chunk *header;          /* MORPHANIM_HEADER 0x2C1, or NULL */
	bool header_ok, header_first;
	uint32_t version;
	const char *name, *hierarchy_name; /* Name[16] @4, HierarchyName[16] @20 */
	bool name_terminated, hierarchy_name_terminated;
	uint32_t frame_count;            /* @36, frames */
	float frame_rate;                /* @40, frames per second */
	uint32_t channel_count;          /* @44, header field as read */
	w3d_morph_channel *channels;     /* channel_array_count MORPHANIM_CHANNELs */
	size_t channel_array_count;
	const wl_chunk *pivot_data_src;  /* MORPHANIM_PIVOTCHANNELDATA 0x2C5 */
	size_t pivot_data_count;         /* its payload / 4 (one uint32 per pivot) */
} w3d_morph_animation;

/* ------------------------------------------------------------------ */
/* HMODEL (legacy hierarchical model, hmdldef.cpp:160-260)             */
/* ------------------------------------------------------------------ */

typedef enum w3d_hmodel_node_kind {
	W3D_HMODEL_NODE = 0,       /* NODE 0x302 */
	W3D_HMODEL_COLLISION = 1,  /* COLLISION_NODE 0x303 */
	W3D_HMODEL_SKIN = 2        /* SKIN_NODE 0x304 */
} w3d_hmodel_node_kind;

/** One W3dHModelNodeStruct (18 bytes). */
typedef struct w3d_hmodel_node {
	const wl_chunk *src;
	bool ok;                       /* payload >= 18 bytes */
	w3d_hmodel_node_kind kind;
	const char *render_obj_name;   /* RenderObjName[16] @0 */
	bool render_obj_name_terminated;
	uint16_t pivot;                /* PivotIdx @16; 0xFFFF none (v >= 3.0) */
} w3d_hmodel_node;

typedef struct w3d_hmodel {
	const wl_chunk *src;
	const wl_chunk *header;        /* HMODEL_HEADER 0x301, or NULL */
	bool header_ok, header_first;  /* header_ok: all 40 bytes (the loader reads sizeof) */
	uint32_t version;              /* @0 */
	const char *name, *hierarchy_name; /* @4, @20 (16 bytes each) */
	bool name_terminated, hierarchy_name_terminated;
	uint16_t num_connections;      /* @36: bound of the node array */
	w3d_hmodel_node *nodes;        /* node_count NODE/COLLISION/SKIN chunks, file order */
	size_t node_count;
} w3d_hmodel;

/* ------------------------------------------------------------------ */
/* LODMODEL ("DistLOD")                                                */
/* ------------------------------------------------------------------ */

typedef struct w3d_lod {
	const wl_chunk *src;
	bool ok;                       /* payload >= 40 bytes */
	const char *render_obj_name;   /* RenderObjName[32] @0 */
	bool render_obj_name_terminated;
	float lod_min, lod_max;        /* @32, @36: screen-size range */
} w3d_lod;

typedef struct w3d_lodmodel {
	const wl_chunk *src;
	const wl_chunk *header;        /* LODMODEL_HEADER 0x401, or NULL */
	bool header_ok, header_first;
	uint32_t version;
	const char *name;              /* Name[16] @4 */
	bool name_terminated;
	uint16_t num_lods;             /* @20, header field as read */
	w3d_lod *lods;                 /* lod_count LOD 0x402 chunks */
	size_t lod_count;
} w3d_lodmodel;

/* ------------------------------------------------------------------ */
/* COLLECTION                                                          */
/* ------------------------------------------------------------------ */

/** PLACEHOLDER (0x423) or TRANSFORM_NODE (0x424): 56-byte record then
 *  NameLength bytes of name. */
typedef struct w3d_placeholder {
	const wl_chunk *src;
	bool ok;                       /* the 56-byte record is present */
	uint32_t version;
	float transform[4][3];         /* @4: 3x4 Max matrix, rows of x,y,z */
	uint32_t name_len;             /* @52, bytes, as read */
	const char *name;              /* min(name_len, bytes left) bytes, to the first NUL */
	bool name_complete;            /* all name_len bytes are in the chunk */
} w3d_placeholder;

typedef struct w3d_collection {
	const wl_chunk *src;
	const wl_chunk *header;        /* COLLECTION_HEADER 0x421, or NULL */
	bool header_ok, header_first;
	uint32_t version;
	const char *name;              /* Name[16] @4 */
	bool name_terminated;
	uint32_t render_object_count;  /* @20, header field as read */
	const char **obj_names;        /* obj_name_count COLLECTION_OBJ_NAME strings */
	const wl_chunk **obj_name_srcs;
	size_t obj_name_count;
	w3d_placeholder *placeholders; /* PLACEHOLDER chunks */
	size_t placeholder_count;
	w3d_placeholder *transform_nodes; /* TRANSFORM_NODE chunks */
	size_t transform_node_count;
} w3d_collection;

/* ------------------------------------------------------------------ */
/* POINTS                                                              */
/* ------------------------------------------------------------------ */

typedef struct w3d_points {
	const wl_chunk *src;
	float (*v)[3];                 /* count points of 12 bytes (x, y, z) */
	size_t count;
} w3d_points;

/* ------------------------------------------------------------------ */
/* LIGHT / LIGHTSCAPE                                                  */
/* ------------------------------------------------------------------ */

#define W3D_LIGHT_TYPE_MASK 0xFFu      /* POINT 1, DIRECTIONAL 2, SPOT 3 */
#define W3D_LIGHT_CAST_SHADOWS 0x100u

typedef struct w3d_light {
	const wl_chunk *src;
	const wl_chunk *info_src;      /* LIGHT_INFO 0x461 (24 B), or NULL */
	bool info_ok;
	uint32_t attributes;           /* @0, W3D_LIGHT_ATTRIBUTE_* */
	uint8_t ambient[3], diffuse[3], specular[3]; /* @8, @12, @16: RGB + pad */
	float intensity;               /* @20 */
	const wl_chunk *spot_src;      /* SPOT_LIGHT_INFO 0x462 (20 B), or NULL */
	float spot_direction[3];       /* @0 */
	float spot_angle;              /* @12, radians */
	float spot_exponent;           /* @16 */
	const wl_chunk *near_src, *far_src; /* NEAR/FAR_ATTENUATION 0x463/0x464 */
	float near_atten[2], far_atten[2];  /* {start, end}, model units */
	const wl_chunk *spot_5_0_src;  /* TT SPOT_LIGHT_INFO_5_0 0x465 */
	float spot_outer_angle, spot_inner_angle; /* radians */
	const wl_chunk *pulse_src;     /* TT PULSE 0x466 (kept undecoded beyond presence) */
} w3d_light;

typedef struct w3d_lightscape_light {
	const wl_chunk *src;           /* LIGHTSCAPE_LIGHT 0x801 */
	w3d_light light;               /* its LIGHT 0x460 child (src NULL if none) */
	const wl_chunk *transform_src; /* LIGHT_TRANSFORM 0x802, or NULL */
	float transform[3][4];         /* row-major 3x4 */
} w3d_lightscape_light;

typedef struct w3d_lightscape {
	const wl_chunk *src;
	w3d_lightscape_light *lights;
	size_t light_count;
} w3d_lightscape;

/* ------------------------------------------------------------------ */
/* EMITTER (part_ldr.cpp)                                              */
/* ------------------------------------------------------------------ */

/** W3dVolumeRandomizerStruct (32 bytes). */
typedef struct w3d_volume_randomizer {
	uint32_t class_id;             /* Vector3Randomizer::CLASSID_*: 0 solid box,
	                                  1 solid sphere, 2 hollow sphere, 3 solid cylinder */
	float value[3];
} w3d_volume_randomizer;

/** A keyframe array inside an emitter chunk: count keys of 8 bytes
 *  ({float time; value}) starting at file offset `offset`. */
typedef struct w3d_emitter_keys {
	const uint8_t *data;           /* borrowed: count x 8 bytes (colour keys: time + RGBA) */
	size_t count;                  /* keys present (may be fewer than declared) */
	uint64_t offset;               /* absolute file offset of data[0] */
} w3d_emitter_keys;

/** ROTATION / FRAME / BLUR_TIME keyframe chunks (0x50A-0x50C). */
typedef struct w3d_emitter_keyframes {
	const wl_chunk *src;           /* NULL when absent */
	bool header_ok;                /* the fixed header is present */
	uint32_t header_size;          /* 16 (rotation, frame) or 12 (blur time) */
	uint32_t keyframe_count;       /* KeyframeCount: keys beyond the start key */
	float random;                  /* @4 */
	float orientation_random;      /* rotation only, @8 */
	w3d_emitter_keys keys;         /* KeyframeCount + 1 keys expected */
} w3d_emitter_keyframes;

typedef struct w3d_emitter {
	const wl_chunk *src;
	/* HEADER 0x501 (20 B) */
	const wl_chunk *header;
	bool header_ok;
	uint32_t version;              /* W3D_CURRENT_EMITTER_VERSION 0x00020000 */
	const char *name;              /* Name[16] @4 */
	bool name_terminated;
	/* USER_DATA 0x502: 12-byte record then SizeofStringParam bytes */
	const wl_chunk *user_data;
	bool user_data_ok;
	uint32_t user_type;            /* @0 */
	uint32_t user_string_size;     /* @4, bytes, as read */
	const char *user_string;       /* up to the first NUL of the bytes present */
	/* INFO 0x503 (332 B) */
	const wl_chunk *info;
	bool info_ok;
	const char *texture_filename;  /* TextureFilename[260] @0 */
	bool texture_filename_terminated;
	float start_size, end_size, lifetime, emission_rate, max_emissions,
	      velocity_random, position_random, fade_time, gravity, elasticity; /* @260..@296 */
	float velocity[3], acceleration[3]; /* @300, @312 */
	uint8_t start_color[4], end_color[4]; /* @324, @328: RGB + pad */
	/* INFOV2 0x504 (124 B) */
	const wl_chunk *info_v2;
	bool info_v2_ok;
	uint32_t burst_size;           /* @0 */
	w3d_volume_randomizer creation_volume, velocity_randomizer; /* @4, @36 */
	float outward_vel, vel_inherit;/* @68, @72 */
	uint8_t shader[16];            /* @76: W3dShaderStruct bytes */
	uint32_t render_mode;          /* @92: 0..4 */
	uint32_t frame_mode;           /* @96: 0..4 */
	/* PROPS 0x505: 40-byte record then the keys (counts include the start key) */
	const wl_chunk *props;
	bool props_ok;
	uint32_t color_keyframes, opacity_keyframes, size_keyframes; /* @0, @4, @8 */
	uint8_t color_random[4];       /* @12 RGBA */
	float opacity_random, size_random; /* @16, @20 */
	w3d_emitter_keys color_keys, opacity_keys, size_keys;
	/* optional chunks */
	const wl_chunk *line_properties; /* 0x509 (64 B) */
	uint32_t line_flags, subdivision_level;
	float noise_amplitude, merge_abort_factor, texture_tile_factor, u_per_sec, v_per_sec;
	w3d_emitter_keyframes rotation, frame, blur_time; /* 0x50A, 0x50B, 0x50C */
	const wl_chunk *extra_info;    /* 0x50D (ZH, 40 B) */
	float future_start_time;
} w3d_emitter;

/* ------------------------------------------------------------------ */
/* AGGREGATE (agg_def.cpp)                                             */
/* ------------------------------------------------------------------ */

typedef struct w3d_aggregate_subobject {
	const char *subobject_name;    /* SubobjectName[32] @0 */
	const char *bone_name;         /* BoneName[32] @32 */
	bool subobject_name_terminated, bone_name_terminated;
} w3d_aggregate_subobject;

typedef struct w3d_aggregate {
	const wl_chunk *src;
	const wl_chunk *header;        /* AGGREGATE_HEADER 0x601 (20 B) */
	bool header_ok;
	uint32_t version;
	const char *name;              /* Name[16] @4 */
	bool name_terminated;
	const wl_chunk *info;          /* AGGREGATE_INFO 0x602 */
	bool info_ok;                  /* the 36-byte record is present */
	const char *base_model_name;   /* BaseModelName[32] @0 */
	bool base_model_name_terminated;
	uint32_t subobject_count;      /* @32, as read */
	w3d_aggregate_subobject *subobjects; /* subobject_array_count whole records after @36 */
	size_t subobject_array_count;
	const wl_chunk *texture_replacer; /* TEXTURE_REPLACER_INFO 0x603 */
	uint32_t replaced_textures_count;
	const wl_chunk *class_info;    /* AGGREGATE_CLASS_INFO 0x604 (20 B) */
	uint32_t original_class_id, flags; /* flag 1 = FORCE_SUB_OBJ_LOD */
} w3d_aggregate;

/* ------------------------------------------------------------------ */
/* SPHERE / RING primitives (local child ids, §1.4)                    */
/* ------------------------------------------------------------------ */

typedef struct w3d_primitive {
	const wl_chunk *src;           /* the SPHERE or RING chunk */
	bool is_ring;
	const wl_chunk *def;           /* SPHERE_DEF / RING_DEF (local id 1), or NULL */
	bool def_ok;                   /* the whole struct is present */
	uint32_t version, flags;       /* @0, @4 */
	const char *name;              /* Name[32] @8 */
	bool name_terminated;
	float center[3], extent[3];    /* @40, @52 */
	float anim_duration;           /* @64, seconds */
	const char *texture_name;      /* TextureName[32] @116 */
	bool texture_name_terminated;
	size_t channel_count;          /* channel chunks (local ids 2..5) */
} w3d_primitive;

/* ------------------------------------------------------------------ */
/* NULL_OBJECT, DAZZLE, SOUNDROBJ                                      */
/* ------------------------------------------------------------------ */

typedef struct w3d_null_object {
	const wl_chunk *src;
	bool ok;                       /* payload >= 48 bytes */
	uint32_t version, attributes;  /* @0, @4 */
	const char *name;              /* Name[32] @16 */
	bool name_terminated;
} w3d_null_object;

typedef struct w3d_dazzle {
	const wl_chunk *src;
	const wl_chunk *name_src;      /* DAZZLE_NAME 0x901, or NULL */
	const char *name;              /* "container.object", "" when absent */
	bool name_terminated;
	const wl_chunk *type_src;      /* DAZZLE_TYPENAME 0x902, or NULL */
	const char *type_name;         /* a dazzle.ini section, "" when absent */
	bool type_name_terminated;
} w3d_dazzle;

typedef struct w3d_soundrobj {
	const wl_chunk *src;
	const wl_chunk *header;        /* SOUNDROBJ_HEADER 0xA01 (56 B) */
	bool header_ok;
	uint32_t version;
	const char *name;              /* Name[16] @4 */
	bool name_terminated;
	uint32_t flags;                /* @20 */
	const wl_chunk *definition;    /* SOUNDROBJ_DEFINITION 0xA02: opaque */
} w3d_soundrobj;

/* ------------------------------------------------------------------ */
/* SHDMESH (ZH header only; loaded only with USE_WWSHADE)              */
/* ------------------------------------------------------------------ */

typedef struct w3d_shdsubmesh {
	const wl_chunk *src;
	const wl_chunk *header;        /* SHDSUBMESH_HEADER 0xB21 (56 B) */
	bool header_ok;
	uint32_t num_triangles, num_vertices; /* @0, @4 */
	float box_min[3], box_max[3], sph_center[3], sph_radius; /* @16.. @52 */
	uint32_t shader_class;         /* SHDSUBMESH_SHADER/CLASSID 0xB41, 0 if absent */
	bool has_shader_class;
	size_t vertex_count;           /* SHDSUBMESH_VERTICES payload / 12 */
	size_t normal_count;           /* SHDSUBMESH_VERTEX_NORMALS payload / 12 */
} w3d_shdsubmesh;

typedef struct w3d_shdmesh {
	const wl_chunk *src;
	const wl_chunk *name_src;      /* SHDMESH_NAME 0xB01 string, or NULL */
	const char *name;
	bool name_terminated;
	const wl_chunk *header;        /* SHDMESH_HEADER 0xB02 (80 B) */
	bool header_ok;
	uint32_t version, flags;       /* @0, @4 */
	uint32_t num_triangles, num_vertices, num_sub_meshes; /* @8, @12, @16 */
	float box_min[3], box_max[3], sph_center[3], sph_radius; /* @40.. @76 */
	const wl_chunk *user_text_src; /* SHDMESH_USER_TEXT 0xB03 */
	w3d_shdsubmesh *sub_meshes;
	size_t sub_mesh_count;
} w3d_shdmesh;

/* ------------------------------------------------------------------ */
/* Decoders (each: c is the object's top-level chunk; result in the      */
/* arena; NULL only when out of memory)                                  */
/* ------------------------------------------------------------------ */

w3d_morph_animation *w3d_decode_morph_animation(wl_doc *doc, wl_chunk *c);
w3d_hmodel *w3d_decode_hmodel(wl_doc *doc, wl_chunk *c);
w3d_lodmodel *w3d_decode_lodmodel(wl_doc *doc, wl_chunk *c);
w3d_collection *w3d_decode_collection(wl_doc *doc, wl_chunk *c);
w3d_points *w3d_decode_points(wl_doc *doc, wl_chunk *c);
w3d_light *w3d_decode_light(wl_doc *doc, wl_chunk *c);
w3d_lightscape *w3d_decode_lightscape(wl_doc *doc, wl_chunk *c);
/** Decodes an EMITTER (decode_emitter.c); emitter-specific layout notes
 *  there. */
w3d_emitter *w3d_decode_emitter(wl_doc *doc, wl_chunk *c);
w3d_aggregate *w3d_decode_aggregate(wl_doc *doc, wl_chunk *c);
/** Decodes a SPHERE (0x741) or RING (0x742) chunk. */
w3d_primitive *w3d_decode_primitive(wl_doc *doc, wl_chunk *c);
w3d_null_object *w3d_decode_null_object(wl_doc *doc, wl_chunk *c);
w3d_dazzle *w3d_decode_dazzle(wl_doc *doc, wl_chunk *c);
w3d_soundrobj *w3d_decode_soundrobj(wl_doc *doc, wl_chunk *c);
w3d_shdmesh *w3d_decode_shdmesh(wl_doc *doc, wl_chunk *c);

/**
 * Bytes an emitter keyframe chunk must hold: for PROPS
 * 40 + 8 x (ColorKeyframes + OpacityKeyframes + SizeKeyframes) (the counts
 * include the start key); for ROTATION/FRAME/BLUR_TIME header + 8 x
 * (KeyframeCount + 1) (part_ldr.cpp:766-795, 1002-1140).  64-bit, so no
 * count can overflow it.
 */
uint64_t w3d_emitter_props_need(const w3d_emitter *e);
uint64_t w3d_emitter_keyframes_need(const w3d_emitter_keyframes *k);

/**
 * Decodes a string chunk payload (clamped to the file): an arena copy up to
 * the first NUL (non-printable bytes kept as they are); *terminated tells
 * whether a NUL was found.  Returns "" (never NULL) when out of memory, with
 * doc->oom set.
 */
const char *w3d_decode_string_chunk(wl_doc *doc, const wl_chunk *c, bool *terminated);

#endif
