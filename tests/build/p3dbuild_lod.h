/*
 * p3dbuild_lod.h - builds the bytes of one ODOL LOD with proxies, a
 * subskeleton, textures, materials, sections, named selections and vertex
 * bone refs, for the LOD-internal rules (lint/p3d/check_lod_*.c).  The
 * bytes go into t_p3d_lod.body of the P3D test builder (p3dbuild.h), which
 * wraps them in an ODOL file.  Layout: core/p3d/p3d_lod.c.
 *
 * Arrays are written raw, or LZO1X-compressed where the version requires
 * it (v44..v63 and 1024 bytes or more; from v64 always raw with flag 0);
 * versions below v44 (LZSS) must keep every array under 1024 bytes.
 * Embedded materials are version 3 (the shortest layout).  Everything not
 * set is 0 / empty; the per-vertex arrays (clip, one UV set, positions,
 * normals) have nverts entries, filled with one zero element.
 */
#ifndef P3DBUILD_LOD_H
#define P3DBUILD_LOD_H

#include <stdint.h>

#include "p3dbuild.h"

typedef struct t_p3dlod_proxy {
	int32_t sel, bone, section;
} t_p3dlod_proxy;

typedef struct t_p3dlod_section {
	uint32_t from, to;  /* face allocation bytes */
	int16_t tex;
	int32_t mat;        /* -1: the name "m" follows */
} t_p3dlod_section;

typedef struct t_p3dlod_sel {
	const uint32_t *faces;
	uint32_t n_faces;
	const int32_t *secs;
	uint32_t n_secs;
	const uint32_t *verts;
	uint32_t n_verts;
	uint32_t n_weights;
	const char *name;             /* NULL: "s" */
} t_p3dlod_sel;

typedef struct t_p3dlod_rt {
	int32_t n;
	uint8_t bone[4];
} t_p3dlod_rt;

typedef struct t_p3dlod_spec {
	uint32_t nverts;
	const t_p3d_face *faces;
	uint32_t nfaces;
	int32_t alloc_delta;          /* added to the true allocation size */
	const t_p3dlod_proxy *proxies;
	uint32_t n_proxies;
	const uint32_t *items;        /* SubSkeletonsToSkeleton */
	uint32_t n_items;
	const uint32_t *links;        /* SkeletonToSubSkeleton: one link each */
	uint32_t n_links;
	uint32_t n_textures, n_materials;
	const float *bounds;          /* 10 floats, or NULL for zeros */
	const t_p3dlod_section *sections;
	uint32_t n_sections;
	const t_p3dlod_sel *sels;
	uint32_t n_sels;
	const float *uv_range;        /* v45+: 4 floats, or NULL for zeros */
	const float *uvs;             /* below v45: nverts x 2 floats, or NULL */
	const float *normals;         /* below v45: nverts x 3 floats, or NULL */
	const t_p3dlod_rt *refs;          /* vertex bone refs */
	uint32_t n_refs;
	uint32_t n_st;                /* ST coordinates (zeros) */
	const char *const *texture_names; /* n_textures names, or NULL: "t" */
	const float (*pos)[3];        /* nverts positions, or NULL for zeros */
	float resolution;             /* t_p3dlod_odol: the LOD's (0: 1.0) */
} t_p3dlod_spec;

/* Offsets inside the body (add t_p3d_layout.lod[0] for file offsets). */
typedef struct t_p3dlod_at {
	size_t proxy_sel[8];          /* each proxy's selection index */
	size_t items, links;          /* first item; first link value */
	size_t bounds, alloc, faces;
	size_t section[8];            /* each section's first byte */
	size_t sel_faces[4], sel_secs[4], sel_verts[4], sel_weights[4];
	                              /* each array's count field */
	size_t uv_range, uvs, normals, positions, refs; /* count fields but
	                              * uv_range (its first float) */
} t_p3dlod_at;

/** Appends the LOD of s for version v to b (t_w3d_init'ed); offsets in at. */
void t_p3dlod_body(wb *b, uint32_t v, const t_p3dlod_spec *s, t_p3dlod_at *at);

/** Builds a 1-LOD ODOL file of version v around the LOD of s into b
 *  (t_w3d_init'ed here); at holds file offsets, lay the file's layout. */
void t_p3dlod_odol(wb *b, uint32_t v, const t_p3dlod_spec *s, t_p3dlod_at *at, t_p3d_layout *lay);

#endif
