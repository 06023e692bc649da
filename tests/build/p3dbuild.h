/*
 * p3dbuild.h - builds small Arma P3D files in memory for tests, on the W3D
 * byte builder's buffer (w3dbuild.h; little-endian).
 *
 * ODOL (t_p3d_odol): "ODOL", version, [v75: reserved 0, 0], [v59: appID 0],
 * [v58: proxy path ""], nLods, resolutions, ModelInfo and the
 * animations as t_p3dinfo_next asks (p3dbuild_info.h: by default empty, laid
 * out for the version so the reader's walk lands on the table), the LOD
 * table (each LOD permanent, so no LoadableLodInfo), each
 * LOD's structure (core/p3d/p3d_lod.c, all counts 0 but the vertices and
 * faces asked for, with one section over the faces and every per-vertex
 * array of the vertex count), then tail bytes of 0xDD.  Offsets of the
 * parts are returned in t_p3d_layout for patching (t_w3d_patch_u32).
 *
 * MLOD (t_p3d_mlod_begin + t_p3d_mlod_lod per LOD): the layout of
 * core/p3d/p3d.h; face vertex k uses point and normal idx[k], UV (0, 0),
 * the face's texture and material names; one #EndOfFile# tag.
 */
#ifndef P3DBUILD_H
#define P3DBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "w3dbuild.h"

typedef struct t_p3d_layout {
	size_t version;    /* offset of the version */
	size_t reserved;   /* v75: offset of the reserved words */
	size_t nlods;      /* offset of nLods */
	size_t res;        /* offset of resolution[0] */
	size_t table;      /* offset of lodStart[0] */
	size_t lod[16];    /* offset of each LOD's bytes */
	size_t lod_end[16];/* end of each LOD */
	size_t faces[16];  /* offset of each LOD's first face */
	size_t positions[16]; /* offset of each LOD's positions block */
	size_t rest[16];   /* offset of each LOD's sizeOfRestData */
	size_t tail;       /* offset of the tail */
} t_p3d_layout;

/** One face: vertex count and 4 point/normal indices; MLOD: its texture
 *  and material names (NULL: empty). */
typedef struct t_p3d_face {
	uint32_t n;
	uint32_t idx[4];
	const char *texture, *material;
} t_p3d_face;

/** One ODOL LOD's contents (t_p3d_odol): vertices positions (stored raw,
 *  or LZO-compressed when compress is set and the version has the flag
 *  byte), faces (vertex count and indices), pad bytes of 0xEE after the
 *  structure, embedded materials (their count and bytes, as given).  A
 *  zeroed t_p3d_lod is an empty LOD. */
typedef struct t_p3d_lod {
	uint32_t nverts;
	const float (*pos)[3];
	const struct t_p3d_face *faces;
	uint32_t nfaces;
	uint32_t pad;
	int compress;    /* v64+: 1 flag and LZO1X, 2 flag and garbage */
	const uint8_t *body; /* when set: the LOD's bytes as given, instead of
	                      * the structure of the fields above (faces,
	                      * positions, rest offsets left 0) */
	size_t body_len;
	uint32_t nmats;        /* embedded materials: count and their bytes */
	const uint8_t *mats;   /* (p3dbuild_mlod.h: t_p3d_material) */
	size_t mats_len;
} t_p3d_lod;

/** An ODOL file of n (<= 16) LODs in table order; lods may be NULL (all
 *  empty); see above. */
void t_p3d_odol(wb *b, uint32_t version, uint32_t n, const float *res, const t_p3d_lod *lods,
	      size_t tail, t_p3d_layout *out);

/** One compressible array's bytes (no count) of n raw bytes for version v:
 *  nothing when n is 0; from v64 a flag byte (compress: 1 flag and LZO1X,
 *  2 flag and 40 garbage bytes, 0 raw), below v64 LZO1X when n >= 1024
 *  (LZO only: keep arrays under 1024 bytes below v44), else raw. */
void t_p3d_block(wb *b, uint32_t v, const void *raw, size_t n, int compress);

/** The MLOD header: "MLOD", 257, n. */
void t_p3d_mlod_begin(wb *b, uint32_t n);

/** 64 unit normals (0, 0, 1): MLOD LODs of up to 64 points whose
 *  normals pass p3d-normal-not-unit. */
extern const float T_P3D_UP[64][3];

/** One P3DM LOD; returns the offset of its first face. */
size_t t_p3d_mlod_lod(wb *b, const float (*pts)[3], uint32_t np, const float (*nrm)[3], uint32_t nn,
		    const t_p3d_face *faces, uint32_t nf, float resolution);

#endif
