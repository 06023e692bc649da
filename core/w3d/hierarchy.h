/*
 * hierarchy.h - typed models of the W3D skeleton and animation objects and of
 * the HLOD and BOX render objects, decoded from the chunk tree.
 *
 *   HIERARCHY (0x100)             w3d_hierarchy      notes/w3d_reference.md §2.3
 *   ANIMATION (0x200)             w3d_animation      §2.4
 *   COMPRESSED_ANIMATION (0x280)  w3d_compressed_animation  §2.5
 *   HLOD (0x700)                  w3d_hlod           §2.7
 *   BOX (0x740)                   w3d_box            §2.9
 *
 * Conventions shared by every struct here:
 *   - Every value was read little-endian from the file through wl_cursor
 *     (no struct overlays).  Floats are IEEE-754 binary32, bit for bit.
 *   - `src` is the chunk the record came from; a finding about element i of
 *     an array chunk uses the chunk's payload offset + i * element size.
 *   - Element counts (`*_count`) are taken from the bytes actually present
 *     (payload bytes / element size, or the number of child chunks), NEVER
 *     from header fields; header fields are kept as read so rules can
 *     compare the two.  A header that is missing or short reads as zeros and
 *     its `*_ok` flag is false.
 *   - Names are NUL-terminated arena copies of the fixed-size name field, up
 *     to its first NUL (or the whole field), with non-printable bytes
 *     replaced by '?'.  `name_terminated` says whether the field held a NUL.
 *   - Data arrays of channels point into the document's bytes (borrowed, not
 *     copied): read them with wl_lef32()/wl_le16()/wl_le32().
 *   - Decoders never fail on malformed input: they decode what the bytes
 *     allow.  They return NULL only when out of memory (doc->oom is set).
 *     They set the object chunk's label to the object name so chunk paths
 *     read e.g. HIERARCHY[NAME]/PIVOTS[3].
 *
 * Sources: REN Code/ww3d2/w3d_file.h (struct layouts, lines cited per
 * struct), htree.cpp, hrawanim.cpp, hcanim.cpp, motchan.cpp, hlod.cpp,
 * boxrobj.cpp; OpenSAGE src/OpenSage.FileFormats.W3d (BFME extensions).
 */
#ifndef W3D_HIERARCHY_H
#define W3D_HIERARCHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"

/* ------------------------------------------------------------------ */
/* HIERARCHY                                                           */
/* ------------------------------------------------------------------ */

#define W3D_HIERARCHY_HEADER_SIZE 36u  /* W3dHierarchyStruct, w3d_file.h:1290-1296 */
#define W3D_PIVOT_SIZE 60u             /* W3dPivotStruct, w3d_file.h:1298-1305 */
#define W3D_PIVOT_FIXUP_SIZE 48u       /* W3dPivotFixupStruct: float TM[4][3] */
#define W3D_PIVOT_PARENT_OFFSET 16u    /* ParentIdx inside a pivot record */
#define W3D_PIVOT_EULER_OFFSET 32u     /* EulerAngles (3 floats) inside a pivot record */
#define W3D_PIVOT_ROTATION_OFFSET 44u  /* Rotation X,Y,Z,W inside a pivot record */
#define W3D_PIVOT_NO_PARENT 0xFFFFFFFFu /* ParentIdx of the root */

/** One W3dPivotStruct (60 bytes): PIVOTS element. */
typedef struct w3d_pivot {
	const char *name;      /* Name[16] at offset 0 */
	bool name_terminated;
	uint32_t parent;       /* ParentIdx at offset 16; 0xFFFFFFFF = root */
	float translation[3];  /* offset 20, model units */
	float euler[3];        /* offset 32, radians, unused by the runtime */
	float rotation[4];     /* offset 44, quaternion X,Y,Z,W */
} w3d_pivot;

/** A decoded HIERARCHY (HTree). */
struct w3d_hierarchy {
	const wl_chunk *src;           /* the HIERARCHY chunk */
	const wl_chunk *header;        /* first HIERARCHY_HEADER child, or NULL */
	bool header_ok;                /* header present and >= 36 bytes */
	bool header_first;             /* header is the first child chunk (A5) */
	uint32_t version;
	const char *name;              /* Name[16]; "" when no header */
	bool name_terminated;
	uint32_t num_pivots;           /* NumPivots, header field as read */
	float center[3];               /* unused by the runtime */
	const wl_chunk *pivots_chunk;  /* first PIVOTS child, or NULL */
	struct w3d_pivot *pivots;      /* pivot_count = pivots_chunk payload / 60 */
	size_t pivot_count;
	const wl_chunk *fixups_chunk;  /* first PIVOT_FIXUPS child, or NULL */
	size_t fixup_count;            /* fixups_chunk payload / 48 */
};
typedef struct w3d_hierarchy w3d_hierarchy;

/* ------------------------------------------------------------------ */
/* ANIMATION (raw)                                                     */
/* ------------------------------------------------------------------ */

#define W3D_ANIM_HEADER_SIZE 44u       /* W3dAnimHeaderStruct, w3d_file.h:1328-1335 */
#define W3D_ANIM_CHANNEL_HEADER 12u    /* W3dAnimChannelStruct without Data */
#define W3D_BIT_CHANNEL_HEADER 9u      /* W3dBitChannelStruct without Data */

/* Channel type codes (W3dAnimChannelStruct.Flags), w3d_file.h:1345-1366. */
enum {
	W3D_ANIM_CHANNEL_X = 0,
	W3D_ANIM_CHANNEL_Y = 1,
	W3D_ANIM_CHANNEL_Z = 2,
	W3D_ANIM_CHANNEL_XR = 3,
	W3D_ANIM_CHANNEL_YR = 4,
	W3D_ANIM_CHANNEL_ZR = 5,
	W3D_ANIM_CHANNEL_Q = 6
};

/** One ANIMATION_CHANNEL: 12-byte header then floats. */
typedef struct w3d_anim_channel {
	const wl_chunk *src;
	bool header_ok;          /* payload >= 12 bytes */
	uint16_t first_frame;    /* frames */
	uint16_t last_frame;     /* frames, inclusive */
	uint16_t vector_len;     /* floats per frame (1, or 4 for Q) */
	uint16_t flags;          /* channel type, W3D_ANIM_CHANNEL_* */
	uint16_t pivot;          /* pivot index in the hierarchy */
	const uint8_t *data;     /* borrowed: data_bytes bytes of float32 LE */
	size_t data_bytes;       /* payload - 12 (0 when short) */
	uint64_t data_offset;    /* absolute file offset of data[0] */
} w3d_anim_channel;

/** One BIT_CHANNEL: 9-byte header then visibility bits (LSB first). */
typedef struct w3d_bit_channel {
	const wl_chunk *src;
	bool header_ok;          /* payload >= 9 bytes */
	uint16_t first_frame, last_frame; /* frames, inclusive */
	uint16_t flags;          /* BIT_CHANNEL_VIS = 0 */
	uint16_t pivot;
	uint8_t default_val;     /* value outside [first, last] */
	const uint8_t *data;     /* borrowed, data_bytes bytes */
	size_t data_bytes;       /* payload - 9 */
} w3d_bit_channel;

/** A decoded raw ANIMATION. */
struct w3d_animation {
	const wl_chunk *src;
	const wl_chunk *header;        /* first ANIMATION_HEADER child, or NULL */
	bool header_ok, header_first;
	uint32_t version;
	const char *name, *hierarchy_name; /* Name[16], HierarchyName[16] */
	uint32_t num_frames;           /* frames */
	uint32_t frame_rate;           /* frames per second */
	w3d_anim_channel *channels;    /* channel_count = ANIMATION_CHANNEL children */
	size_t channel_count;
	w3d_bit_channel *bit_channels; /* bit_channel_count = BIT_CHANNEL children */
	size_t bit_channel_count;
};
typedef struct w3d_animation w3d_animation;

/* ------------------------------------------------------------------ */
/* COMPRESSED_ANIMATION                                                */
/* ------------------------------------------------------------------ */

#define W3D_CANIM_HEADER_SIZE 44u      /* W3dCompressedAnimHeaderStruct, w3d_file.h:1338-1346 */
#define W3D_TC_CHANNEL_HEADER 8u       /* W3dTimeCodedAnimChannelStruct without Data */
#define W3D_AD_CHANNEL_HEADER 12u      /* W3dAdaptiveDeltaAnimChannelStruct without Data */
#define W3D_MOTION_CHANNEL_HEADER 8u   /* BFME II W3dCompressedMotionChannelStruct */
#define W3D_TIMECODED_BINARY_MOVEMENT_FLAG 0x80000000u

enum {
	W3D_ANIM_FLAVOR_TIMECODED = 0,
	W3D_ANIM_FLAVOR_ADAPTIVE_DELTA = 1,
	W3D_ANIM_FLAVOR_ADAPTIVE_DELTA8 = 2 /* BFME */
};

/** How a compressed channel's payload is laid out (from the header Flavor
 *  for 0x282, from DeltaType for 0x284). */
typedef enum w3d_canim_layout {
	W3D_CLAYOUT_UNKNOWN = 0,  /* flavor / delta type not understood */
	W3D_CLAYOUT_TIMECODED,    /* 0x282 flavor 0: N x {uint32 time; float v[VL]} */
	W3D_CLAYOUT_AD4,          /* 0x282 flavor 1: float init[VL], 9-byte packets */
	W3D_CLAYOUT_AD8,          /* 0x282 flavor 2 (BFME): 17-byte packets */
	W3D_CLAYOUT_MOTION_TC,    /* 0x284 type 0: uint16 keys (pad 4), floats */
	W3D_CLAYOUT_MOTION_AD4,   /* 0x284 type 1: float scale, init[VL], 9-byte packets */
	W3D_CLAYOUT_MOTION_AD8    /* 0x284 type 2: same with 17-byte packets */
} w3d_canim_layout;

/**
 * One COMPRESSED_ANIMATION_CHANNEL (0x282) or
 * COMPRESSED_ANIMATION_MOTION_CHANNEL (0x284).
 *   time-coded 0x282: count = NumTimeCodes; packets of 4·(VL+1) bytes.
 *   adaptive delta 0x282: count = NumFrames; scale = Scale; data = VL initial
 *     floats then ceil(count/16)·VL packets.
 *   motion 0x284: count = NumTimeCodes (uint16), delta_type, zero byte.
 */
typedef struct w3d_canim_channel {
	const wl_chunk *src;
	w3d_canim_layout layout;
	bool header_ok;          /* payload holds the fixed header */
	uint32_t count;          /* NumTimeCodes / NumFrames, header field as read */
	uint16_t pivot;
	uint8_t vector_len;      /* floats per key */
	uint8_t flags;           /* channel type X 0, Y 1, Z 2, Q 6 */
	uint8_t zero;            /* 0x284 only: first byte, must be 0 */
	uint8_t delta_type;      /* 0x284 only: 0 time-coded, 1 AD-4, 2 AD-8 */
	float scale;             /* AD layouts only */
	const uint8_t *data;     /* borrowed: bytes after the fixed header */
	size_t data_bytes;
	uint64_t data_offset;    /* absolute file offset of data[0] */
} w3d_canim_channel;

/** One COMPRESSED_BIT_CHANNEL (0x283): 8-byte header + uint32 time codes. */
typedef struct w3d_cbit_channel {
	const wl_chunk *src;
	bool header_ok;
	uint32_t num_time_codes;
	uint16_t pivot;
	uint8_t flags, default_val;
	const uint8_t *data;     /* borrowed: data_bytes bytes of uint32 LE */
	size_t data_bytes;
} w3d_cbit_channel;

/** A decoded COMPRESSED_ANIMATION. */
struct w3d_compressed_animation {
	const wl_chunk *src;
	const wl_chunk *header;        /* first COMPRESSED_ANIMATION_HEADER, or NULL */
	bool header_ok, header_first;
	uint32_t version;
	const char *name, *hierarchy_name;
	uint32_t num_frames;           /* frames */
	uint16_t frame_rate;           /* frames per second */
	uint16_t flavor;               /* W3D_ANIM_FLAVOR_* */
	w3d_canim_channel *channels;   /* 0x282 and 0x284 children, file order */
	size_t channel_count;
	w3d_cbit_channel *bit_channels;/* 0x283 children */
	size_t bit_channel_count;
};
typedef struct w3d_compressed_animation w3d_compressed_animation;

/* ------------------------------------------------------------------ */
/* HLOD                                                                */
/* ------------------------------------------------------------------ */

#define W3D_HLOD_HEADER_SIZE 40u        /* W3dHLodHeaderStruct, w3d_file.h:1979-1985 */
#define W3D_HLOD_ARRAY_HEADER_SIZE 8u   /* W3dHLodArrayHeaderStruct, :1987-1991 */
#define W3D_HLOD_SUB_OBJECT_SIZE 36u    /* W3dHLodSubObjectStruct, :1993-1997 */

typedef enum w3d_hlod_array_kind {
	W3D_HLOD_LOD = 0,        /* HLOD_LOD_ARRAY 0x702 */
	W3D_HLOD_AGGREGATE = 1,  /* HLOD_AGGREGATE_ARRAY 0x705 */
	W3D_HLOD_PROXY = 2       /* HLOD_PROXY_ARRAY 0x706 */
} w3d_hlod_array_kind;

/** One HLOD_SUB_OBJECT (36 bytes). */
typedef struct w3d_hlod_sub_object {
	const wl_chunk *src;
	bool ok;                 /* payload >= 36 bytes */
	uint32_t bone_index;     /* pivot index in the HLOD's hierarchy */
	const char *name;        /* Name[32], "CONTAINER.OBJECT" */
	bool name_terminated;
} w3d_hlod_sub_object;

/** One LOD / aggregate / proxy array. */
typedef struct w3d_hlod_array {
	const wl_chunk *src;
	w3d_hlod_array_kind kind;
	const wl_chunk *header;  /* first SUB_OBJECT_ARRAY_HEADER, or NULL */
	bool header_ok, header_first;
	uint32_t model_count;    /* ModelCount, header field as read */
	float max_screen_size;   /* FLT_MAX (NO_MAX_SCREEN_SIZE) for the top LOD */
	w3d_hlod_sub_object *subs; /* sub_count = HLOD_SUB_OBJECT chunks found */
	size_t sub_count;
} w3d_hlod_array;

/** A decoded HLOD.  Sub-objects are collected from every array child,
 *  including the ones the reader recovered past a wrong HLOD size. */
struct w3d_hlod {
	const wl_chunk *src;
	const wl_chunk *header;  /* first HLOD_HEADER child, or NULL */
	bool header_ok, header_first;
	uint32_t version;
	uint32_t lod_count;      /* LodCount, header field as read */
	const char *name, *hierarchy_name; /* Name[16], HierarchyName[16] */
	w3d_hlod_array *lods;    /* lod_array_count = HLOD_LOD_ARRAY children */
	size_t lod_array_count;
	w3d_hlod_array *aggregates; /* HLOD_AGGREGATE_ARRAY children */
	size_t aggregate_count;
	w3d_hlod_array *proxies;    /* HLOD_PROXY_ARRAY children */
	size_t proxy_count;
	bool lods_contiguous;    /* the LOD arrays follow the header back-to-back */
};
typedef struct w3d_hlod w3d_hlod;

/* ------------------------------------------------------------------ */
/* BOX                                                                 */
/* ------------------------------------------------------------------ */

#define W3D_BOX_SIZE 68u          /* W3dBoxStruct, w3d_file.h:2029-2037 */
#define W3D_BOX_ORIENTED 0x1u
#define W3D_BOX_ALIGNED 0x2u

/** A decoded BOX (one 68-byte data chunk). */
struct w3d_box {
	const wl_chunk *src;
	bool ok;                 /* payload >= 68 bytes */
	uint32_t version, attributes;
	const char *name;        /* Name[32], "CONTAINER.BOX" */
	bool name_terminated;
	uint8_t color[3];        /* RGB (the 4th byte is padding) */
	float center[3];         /* model units */
	float extent[3];         /* half sizes, model units */
};
typedef struct w3d_box w3d_box;

/* ------------------------------------------------------------------ */
/* Decoders                                                            */
/* ------------------------------------------------------------------ */

/** Decodes a HIERARCHY chunk c into doc->arena. NULL only on OOM. */
w3d_hierarchy *w3d_decode_hierarchy(wl_doc *doc, wl_chunk *c);
/** Decodes an ANIMATION chunk. NULL only on OOM. */
w3d_animation *w3d_decode_animation(wl_doc *doc, wl_chunk *c);
/** Decodes a COMPRESSED_ANIMATION chunk. NULL only on OOM. */
w3d_compressed_animation *w3d_decode_compressed_animation(wl_doc *doc, wl_chunk *c);
/** Decodes an HLOD chunk. NULL only on OOM. */
w3d_hlod *w3d_decode_hlod(wl_doc *doc, wl_chunk *c);
/** Decodes a BOX chunk. NULL only on OOM. */
w3d_box *w3d_decode_box(wl_doc *doc, wl_chunk *c);

/** Data bytes (after the 12-byte header) a raw channel needs:
 *  (LastFrame - FirstFrame + 1) x VectorLen x 4; 0 when LastFrame < FirstFrame
 *  (REN vchannel.cpp:628-650). */
uint64_t w3d_anim_channel_need(const w3d_anim_channel *ch);

/**
 * Bytes a compressed channel needs for its count and vector length, in the
 * unit the format fixes exactly: for time-coded 0x282 channels and 0x284
 * motion channels the data bytes after the fixed header, for adaptive-delta
 * 0x282 channels the whole payload (15 + 4 VL + 9|17 VL ceil(n/16), REN
 * vchannel.cpp:432-440, OpenSAGE W3dAdaptiveDeltaAnimationChannel.cs).
 * *whole_payload tells which.  Returns false for an unknown layout.
 */
bool w3d_canim_channel_need(const w3d_canim_channel *ch, uint64_t *need, bool *whole_payload);

/** Sub-objects of every LOD array of h (aggregates and proxies excluded). */
size_t w3d_hlod_sub_object_count(const w3d_hlod *h);

#endif
