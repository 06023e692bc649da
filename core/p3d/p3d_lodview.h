/*
 * p3d_lodview.h - what the walk of one ODOL LOD (p3d_lod.c) read, for the
 * LOD-internal index rules of p3d_lodrules.c: counts, where the head's
 * small arrays lie, and each face's place in the face allocation.
 *
 * Layout facts (arma-file-formats-rs p3d/lod.rs; jetelain/bis-file-formats
 * BIS.P3D/ODOL/LOD.cs, Section.cs; no code copied):
 *   - the LOD starts with the proxies, then SubSkeletonsToSkeleton (u32
 *     n; u32 skeleton bone[n]: the LOD's subskeleton, "items" in the walk)
 *     and SkeletonToSubSkeleton (u32 n; {u32 k; u32 subskeleton index[k]}
 *     [n]: "bone links" in the walk);
 *   - the faces are preceded by u32 count, u32 allocation, u16 0.  A
 *     section's face bounds (u32 from, to) are BYTE offsets into the
 *     engine's face allocation, in which a face of k vertices takes
 *     (1 + k) x index size bytes (index size 2 below v69, 4 from v69), not
 *     face indices: measured over the whole corpus, the allocation always
 *     equals that sum and the sections of every LOD tile [0, allocation)
 *     (docs/corpus-errors-p3d.md).
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
} p3d_proxyrec;

typedef struct p3d_lodview {
	wl_doc *d;
	const p3d_model *m;
	uint32_t v;                /* ODOL version */
	wl_chunk *lod, *head, *faces, *rest; /* nodes (head, faces, rest NULL
	                            * until the faces were read) */
	uint32_t vertices;         /* v50+ vertexCount, below v50 the old
	                            * clip array's count; UINT32_MAX unknown */
	uint64_t items_off;        /* first u32 of SubSkeletonsToSkeleton */
	uint32_t n_items;
	uint64_t links_off;        /* SkeletonToSubSkeleton's count */
	uint32_t n_links;
	uint64_t bounds_off;       /* bMin[0]: 10 floats (min, max, centre,
	                            * radius); 0 when not read */
	uint32_t n_textures, n_materials;
	uint32_t n_faces;
	uint64_t alloc_off;        /* the u32 allocation before the faces */
	uint32_t alloc;            /* its value */
	uint32_t *face_at;         /* n_faces + 1 allocation offsets of each
	                            * face's start (and the end); malloc, NULL
	                            * when the faces were not read */
	uint32_t n_sections;
	uint32_t section_next;     /* where the next section should start */
	uint64_t section_last;     /* offset of the last section read */
	uint32_t n_selections;
	bool selections_read;      /* the walk got past the named selections */
	p3d_proxyrec *proxies;     /* n_proxies, malloc */
	uint32_t n_proxies;
} p3d_lodview;

/** Frees what the view owns. */
void p3d_view_free(p3d_lodview *x);

/**
 * Offset and length a finding about element i of block bl (elem bytes
 * each) covers: the element itself in a raw block, the whole block in a
 * compressed one.
 */
void p3d_elem_span(const p3d_block *bl, uint32_t version, uint64_t i, uint32_t elem,
		   uint64_t *off, uint64_t *len);

/** Checks face allocation (p3d-face-allocation) once the faces were read. */
void p3d_rule_faces(p3d_lodview *x);

/** Checks section i at off (p3d-section-faces, p3d-section-order,
 *  p3d-section-texture, p3d-section-material). */
void p3d_rule_section(p3d_lodview *x, uint32_t i, uint64_t off);

/** After the last section: the sections reach the end of the faces. */
void p3d_rule_sections_end(p3d_lodview *x, uint64_t count_off);

/**
 * Named selection s's index array what ("faces", "sections", "vertices")
 * of count entries of elem bytes (2 or 4) decoded into data from block bl,
 * checked against limit (p3d-selection-index); elem 4 entries are i32 for
 * "sections".
 */
void p3d_rule_selection(p3d_lodview *x, uint32_t s, const char *what, const uint8_t *data,
			uint32_t count, uint32_t elem, const p3d_block *bl, uint32_t limit);

/** Named selection s: weights count vs its vertex count
 *  (p3d-selection-weights); at: the weights count field. */
void p3d_rule_weights(p3d_lodview *x, uint32_t s, uint64_t at, uint32_t weights,
		      uint32_t vertices);

/** The head's deferred checks, once the named selections are read:
 *  proxies (p3d-proxy-index), subskeleton and links (p3d-bone-index),
 *  bounds (p3d-not-finite). */
void p3d_rule_head(p3d_lodview *x);

/** Vertex bone refs (12-byte AnimationRTWeight, count entries decoded
 *  into data) and neighbour refs (32 bytes: two of them at +4 and +20):
 *  subskeleton indices (p3d-bone-index). */
void p3d_rule_bone_refs(p3d_lodview *x, const uint8_t *data, uint32_t count, uint32_t elem,
			const p3d_block *bl);

/** n floats at data (decoded from bl, or raw when bl is NULL: then data
 *  is at file offset off) with per-element stride elem bytes: each
 *  element with a NaN or infinite component is one p3d-not-finite
 *  finding on node. */
void p3d_rule_finite(p3d_lodview *x, const wl_chunk *node, const char *what, const uint8_t *data,
		     uint32_t count, uint32_t elem, const p3d_block *bl, uint64_t off);

/** An array of what with count entries where the LOD has x->vertices
 *  (p3d-vertex-array-size); at: the count field. */
void p3d_rule_array_size(p3d_lodview *x, const char *what, uint64_t at, uint32_t count);

#endif
