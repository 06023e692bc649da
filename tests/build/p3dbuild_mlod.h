/*
 * p3dbuild_mlod.h - more P3D test builders (beside p3dbuild.h): BI's LZSS
 * encoder (for ODOL below v44), embedded ODOL materials and OFP SP3X LODs
 * for MLOD files; used by p3dbuild.c, the unit tests and the fuzz seeds
 * (tests/tools/gen_p3d_seeds.c).  Little endian; allocation failures abort.
 */
#ifndef P3DBUILD_MLOD_H
#define P3DBUILD_MLOD_H

#include <stddef.h>
#include <stdint.h>

#include "p3dbuild.h"

/**
 * A greedy BI LZSS encoder (format in core/p3d/p3d_compress.h): matches of
 * 3..18 bytes at distances 1..4095, then the unsigned byte-sum checksum.
 * out has room for 2 * n + 16 bytes; returns the encoded length.
 */
size_t t_p3d_lzss_encode(const uint8_t *in, size_t n, uint8_t *out);

/**
 * One embedded ODOL material (core/p3d/p3d_lod.c: material()) of version
 * mv (10, 11 or DayZ's 16; any other with version 11's layout): name
 * "m.rvmat", zero colours, the extra 56 bytes of version 16, ids, surface
 * name, render flags, nstages stages (filter, texture "t.paa", stage id,
 * [mv 11+ the env-map byte]), ntexgens transforms, the TI stage.
 */
void t_p3d_material(wb *b, uint32_t mv, const char *surface, uint32_t nstages, uint32_t ntexgens);

/**
 * An MLOD LOD's start: signature sig (4 bytes: "P3DM" or "SP3X"), major
 * 0x1C, minor (0x100 or 0x99), the counts (faces nf), flags 0, the points
 * {xyz, flags 0} and the normals.
 */
void t_p3d_mlod_head(wb *b, const char *sig, uint32_t minor, const float (*pts)[3], uint32_t np,
		   const float (*nrm)[3], uint32_t nn, uint32_t nf);

/**
 * One OFP SP3X LOD of an MLOD file (t_p3d_mlod_begin first; layout in
 * core/p3d/p3d_mlod.c): header (minor 0x99), points {xyz, flags 0},
 * normals, faces {texture[32] "tex", nVerts, 4 x {point idx[k], normal
 * idx[k], uv[k]}, flags 0} with uv NULL for (0, 0), TAGG, one 64-byte
 * named tag "#Mass#" of 4 bytes, then #EndOfFile#, the resolution.
 * Returns the offset of its first face.
 */
size_t t_p3d_sp3x_lod(wb *b, const float (*pts)[3], uint32_t np, const float (*nrm)[3], uint32_t nn,
		    const t_p3d_face *faces, const float (*uv)[2], uint32_t nf, float resolution);

/** One MLOD tag: name, data bytes. */
typedef struct t_p3d_tag {
	const char *name;
	const void *data;
	uint32_t size;
} t_p3d_tag;

/**
 * One P3DM LOD like t_p3d_mlod_lod (p3dbuild.h) with the n tags given
 * before #EndOfFile#; tag_at[i] (when not NULL) gets the offset of tag
 * i's first byte.  Returns the offset of its first face.
 */
size_t t_p3d_mlod_lod_tags(wb *b, const float (*pts)[3], uint32_t np, const float (*nrm)[3],
			 uint32_t nn, const t_p3d_face *faces, uint32_t nf, const t_p3d_tag *tags,
			 uint32_t n, size_t *tag_at, float resolution);

/**
 * An MLOD file of n P3DM LODs of one triangle, each with a 12-byte
 * "#UVSet#" tag before #EndOfFile# whose size field says 12 + deltas[i]
 * (0: right).
 */
void t_p3d_uv_file(wb *b, uint32_t n, const int32_t *deltas);

#endif
