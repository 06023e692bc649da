/*
 * p3d_lodview.h - what the walk of one ODOL LOD (p3d_lod.c) decoded, kept
 * in the document's arena for the checks of lint/p3d/ (check_lod_*.c):
 * counts, where the head's small arrays and each section lie, each face's
 * place in the face allocation, the named selections' index arrays, the
 * per-vertex arrays (decoded where the checks read their elements).  One
 * per ODOL LOD the reader walked (p3d_lod.view); every part is recorded
 * only when the walk got past it (its `read` flag), so a check never
 * reads what the walk did not.
 *
 * Layout facts (arma-file-formats-rs p3d/lod.rs; jetelain/bis-file-formats
 * BIS.P3D/ODOL/LOD.cs, Section.cs; no code copied):
 *   - the LOD starts with the proxies, then SubSkeletonsToSkeleton (u32
 *     n; u32 skeleton bone[n]: the LOD's subskeleton, "items" here)
 *     and SkeletonToSubSkeleton (u32 n; {u32 k; u32 subskeleton index[k]}
 *     [n]: "bone links" here);
 *   - the faces are preceded by u32 count, u32 allocation, u16 0; a face
 *     is u8 k, then k vertex indices (u16 below v69, u32 from v69).  A
 *     section's face bounds (u32 from, to) are BYTE offsets into the
 *     engine's face allocation, in which a face of k vertices takes
 *     (1 + k) x index size bytes, not face indices: measured over the
 *     whole corpus, the allocation always equals that sum and the sections
 *     of every LOD tile [0, allocation) (docs/corpus-errors-p3d.md);
 *   - a section: u32 face from, to; u32 x3; i16 texture; u32 flags; i32
 *     material (-1: an asciiz follows) ...  (p3d_lod.c section()).
 */
#ifndef P3D_LODVIEW_H
#define P3D_LODVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "p3d.h"
#include "p3d_compress.h"

/* One proxy's indices as read (v40+: section; before: -1 and no check). */
typedef struct p3d_proxyrec {
	uint64_t off;          /* offset of its i32 named-selection index */
	int32_t sel, bone, section;
	uint64_t name_at;      /* its asciiz model path (in the file); its
	                        * 12-float transform follows the nul */
} p3d_proxyrec;

/* One array as read: its u32 count at `at`, its block (p3d_compress.h)
 * and, where kept, its decoded elements: in the arena (a compressed
 * block) or in the file (a raw block, or the one element of a condensed
 * array whose fill flag is set).  read: the walk got past the array. */
typedef struct p3d_array {
	uint64_t at;
	uint32_t n;
	bool read;
	bool fill;             /* condensed, every element the same */
	p3d_block bl;          /* fill: bl.offset is the element's offset */
	const uint8_t *data;   /* NULL when not kept or not read */
} p3d_array;

/* One named selection: its name, its face, section (i32) and vertex index arrays
 * (elements of the LOD's index size, 4 for sections) and the count of its
 * weights (at weights.at). */
typedef struct p3d_selview {
	const char *name;      /* its asciiz name (in the file), NULL when
	                        * not read */
	uint64_t name_at;
	p3d_array faces, sections, vertices, weights;
	struct p3d_selview *next;
} p3d_selview;

/* One UV set: [v45+] its u/v range (4 floats at range_off, 0 when not
 * read) and its condensed UVs (v45+: packed, not kept; below: floats). */
typedef struct p3d_uvview {
	uint64_t range_off;
	p3d_array uv;
	struct p3d_uvview *next;
} p3d_uvview;

/* A file a LOD names (texture list, embedded materials, sections): the
 * asciiz at `at`, len bytes before its nul, in the file. */
typedef enum p3d_namekind {
	P3D_NAME_TEXTURE = 0,  /* the LOD's texture list, a material stage */
	P3D_NAME_MATERIAL = 1  /* an embedded material's name, a section's */
} p3d_namekind;

typedef struct p3d_nameref {
	uint64_t at;
	uint32_t len;
	p3d_namekind kind;
	struct p3d_nameref *next;
} p3d_nameref;

typedef struct p3d_lodview {
	uint32_t v;                /* ODOL version */
	const wl_chunk *lod, *head, *faces, *rest; /* nodes (head, faces, rest
	                            * NULL unless the faces were read) */
	uint32_t vertices;         /* v50+ vertexCount, below v50 the old
	                            * clip array's count; UINT32_MAX unknown */
	p3d_proxyrec *proxies;     /* n_proxies read */
	uint32_t n_proxies;
	uint64_t items_off;        /* first u32 of SubSkeletonsToSkeleton */
	uint32_t n_items;          /* 0 when not read */
	uint64_t links_off;        /* SkeletonToSubSkeleton's count */
	uint32_t n_links;          /* 0 when not read */
	uint64_t bounds_off;       /* bMin[0]: 10 floats (min, max, centre,
	                            * radius); 0 when not read */
	uint32_t n_textures, n_materials;
	p3d_nameref *names;        /* the texture and material names read, in
	                            * file order (arena); the cross-file
	                            * checks look them up (lint/p3d/xref.c) */
	bool faces_read;           /* the faces were read to their end */
	uint32_t n_faces;
	uint64_t faces_off;        /* the first face's byte */
	uint64_t alloc_off;        /* the u32 allocation before the faces */
	uint32_t alloc;            /* its value */
	uint32_t *face_at;         /* n_faces + 1 allocation offsets of each
	                            * face's start (and the end); NULL when the
	                            * faces were not read or take more than
	                            * 4 GiB */
	uint64_t sections_at;      /* the section count's offset */
	uint32_t n_sections;       /* the count as stored */
	uint32_t sections_seen;    /* sections read (offsets in section_off) */
	uint64_t *section_off;
	bool sections_read;        /* every section was read */
	uint32_t n_selections;     /* the count as stored */
	p3d_selview *sels;         /* the selections read (in order) */
	bool selections_read;      /* the walk got past the named selections */
	uint32_t n_props;          /* named properties: the count as stored */
	uint64_t props_at;         /* the first property's name (asciiz name,
	                            * asciiz value, n_props times, in the
	                            * file) */
	bool props_read;           /* the walk got past every property */
	bool rest_read;            /* sizeOfRestData was read (rest_at) */
	uint64_t rest_at;
	uint32_t rest_size;        /* its value */
	uint64_t rest_expect;      /* the value the LOD's end gives
	                            * (p3d_lod.c) */
	p3d_array clip;            /* v50+ clip flags (count only) */
	p3d_uvview *uvs;           /* UV sets read, in order */
	p3d_array positions;       /* 12-byte positions, kept */
	p3d_array normals;         /* below v45 kept (12-byte floats) */
	p3d_array st;              /* count only */
	p3d_array bone_refs;       /* 12-byte AnimationRTWeight, kept */
	p3d_array neighbours;      /* 32-byte neighbour refs, kept */
} p3d_lodview;

/**
 * Offset and length a finding about element i of block bl (elem bytes
 * each) covers: the element itself in a raw block, the whole block in a
 * compressed one.
 */
void p3d_elem_span(const p3d_block *bl, uint32_t version, uint64_t i, uint32_t elem,
		   uint64_t *off, uint64_t *len);

#endif
