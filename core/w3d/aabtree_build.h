/*
 * aabtree_build.h - deterministic binned-SAH builder of W3D AABTrees.
 *
 * Input: a vertex array and a triangle index array.  Output: the node and
 * poly index arrays of AABTREE_NODES (0x93) and AABTREE_POLYINDICES (0x92)
 * in the canonical layout of notes/w3d_reference.md §3.D D7 and §4.1 steps
 * 7-8, which passes every structure rule D1-D7 (§4.3):
 *   - node 0 is the root; pre-order numbering: front child = parent + 1,
 *     back child after the whole front subtree;
 *   - every internal node has two children (no one-child node);
 *   - leaf: FrontOrPoly0 = first POLYINDICES slot | 0x80000000,
 *     BackOrPolyCount = its triangle count; the leaf ranges are contiguous,
 *     in pre-order, and together hold every triangle exactly once (one
 *     reference per triangle, no spatial splits, §6.2 of
 *     notes/lint_ux_anchors.md), so PolyIndices is a permutation of
 *     0 .. tri_count-1 and the header PolyCount is tri_count;
 *   - boxes are tight: Min/Max are exactly the extents of the vertices of
 *     the node's triangles (no padding, as aabtreebuilder.cpp:560-625).
 *
 * Split selection (Wald's binned SAH, lint_ux_anchors.md §6.3/§6.5), with
 * the cost model of sah.h (C_inn = C_tri = 1, box surface areas): a split
 * into sides L and R costs A(L)*N(L) + A(R)*N(R).
 *   - more than sweep_max triangles: per axis, triangle centroids
 *     (midpoints of their vertex boxes) are put in equal bins over the
 *     centroid bounds (`bins`, but at most one per 4 triangles and at least
 *     4) and every plane between bins is tried;
 *   - 5 .. sweep_max triangles: exact sweep over one order per axis
 *     (ties by position): the box minima from 8 triangles down (these
 *     separate e.g. two crossed quads, whose centroids interleave on every
 *     axis), the centroids above;
 *   - 2 .. 4 triangles: every partition into two sides.
 * The cheapest candidate with both sides non-empty wins; ties keep the
 * first in a fixed order (axis x, y, z; plane or cut position).  Areas and
 * costs are computed in single precision (half areas, which order every
 * comparison as areas do); a cost that overflows to infinity is not
 * finite (see below).
 *
 * Leaf policy: a node of more than max_leaf_polys triangles is always
 * split, so no leaf ever holds more than max_leaf_polys triangles (the
 * original makes a leaf of any node it cannot split, §4.1 step 2; this
 * builder always can).  A node of at most max_leaf_polys triangles is a
 * leaf unless splitting it lowers the SAH cost, C_inn*A + A(L)*N(L) +
 * A(R)*N(R) < N*A (SAH termination, tried on nodes of at most 64
 * triangles; off with no_sah_leaf; not tried when the sum of the
 * triangles' own box areas, a lower bound of every split's cost, already
 * rules it out).  When every
 * centroid coincides, or no candidate has a finite cost, or an SAH split
 * would break the depth bound, the node is split at the median of the
 * centroids along the axis of largest centroid extent (ties by triangle
 * index).
 * SAH splits of large nodes are only taken when the larger side still fits
 * under W3D_AABTREE_MAX_DEPTH with median splits, and small nodes are only
 * split when a chain of 1-triangle splits would fit, so depth <= 64 by
 * construction.
 *
 * Non-finite vertices: a NaN coordinate is ignored when growing a box (it
 * can be inside no box: the comparisons the engine and lint/w3d/check_aabtree.c
 * use are false for NaN); an infinite one extends the box to infinity.  A
 * centroid coordinate that is NaN is taken as 0 and an infinite one as
 * +-FLT_MAX, for binning only.  A node whose triangles have no non-NaN
 * coordinate on an axis gets 0..0 on that axis.
 *
 * Determinism: no threads, no randomness, no input-independent state; every
 * sort is over a total order (key, then index or position); floating-point
 * operations are written one product per statement so no compiler can
 * contract them into fused multiply-adds.  Same input, same bytes.
 *
 * Cost: O(n log n) time for n triangles, O(n) memory (about 110 bytes per
 * triangle of scratch, malloc'd and freed, plus the result).  Nothing here prints, exits or
 * reads files.
 */
#ifndef W3D_GEOM_AABTREE_BUILD_H
#define W3D_GEOM_AABTREE_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "mesh.h"

/* Depth bound (nodes on the longest root-to-leaf path). */
#define W3D_AABTREE_MAX_DEPTH 64
/* Largest triangle count: leaf Poly0 must fit in 31 bits (aabtree.h:293-343
 * asserts index < 0x7FFFFFFF) and 2n-1 nodes must fit in 32 bits. */
#define W3D_AABTREE_MAX_TRIS 0x7FFFFFFEu
/* The original builder's MIN_POLYS_PER_NODE (aabtreebuilder.h:78). */
#define W3D_AABTREE_DEFAULT_LEAF 4
#define W3D_AABTREE_DEFAULT_BINS 16
#define W3D_AABTREE_DEFAULT_SWEEP 8
#define W3D_AABTREE_MAX_BINS 64

typedef struct w3d_aabtree_params {
	uint32_t max_leaf_polys; /* triangles per leaf, >= 1 (0: default 4) */
	uint32_t bins;           /* SAH bins per axis, 2..64 (0: default 16) */
	uint32_t sweep_max;      /* exact sweep at or below this many triangles,
	                            <= 64 (0: default 8) */
	uint32_t no_sah_leaf;    /* 1: every node of <= max_leaf_polys triangles
	                            is a leaf (no SAH termination below it) */
} w3d_aabtree_params;

typedef enum w3d_aabtree_status {
	W3D_AABTREE_OK = 0,
	W3D_AABTREE_NOMEM = -1,     /* out of memory */
	W3D_AABTREE_BAD_INDEX = -2, /* a vertex index >= vertex_count: no tree
	                               (lint rule triangle-index-out-of-range) */
	W3D_AABTREE_EMPTY = -3,     /* no triangle: no tree */
	W3D_AABTREE_TOO_BIG = -4    /* more than W3D_AABTREE_MAX_TRIS triangles */
} w3d_aabtree_status;

/* A built tree, in the file encoding (fields as in W3dMeshAABTreeNode). */
typedef struct w3d_aabtree_built {
	w3d_aabtree_node *nodes;   /* node_count nodes, malloc-owned */
	uint32_t node_count;       /* 2*leaves - 1 <= 2*tri_count - 1 */
	uint32_t *poly_indices;    /* poly_count triangle indices, malloc-owned */
	uint32_t poly_count;       /* = tri_count */
	uint32_t depth;            /* nodes on the longest root-to-leaf path */
	uint32_t max_leaf_polys;   /* largest leaf */
} w3d_aabtree_built;

/**
 * Builds the tree of tri_count triangles whose vertex indices are
 * vindex[3*i .. 3*i+2] (each < vertex_count) over the vertices
 * verts[0 .. vertex_count) (model units).  params may be NULL (defaults).
 * On W3D_AABTREE_OK *out holds the arrays (free with
 * w3d_aabtree_built_free); on any other status *out is zeroed.
 */
w3d_aabtree_status w3d_aabtree_build(const w3d_vec3 *verts, size_t vertex_count,
				     const uint32_t *vindex, size_t tri_count,
				     const w3d_aabtree_params *params, w3d_aabtree_built *out);

/** Frees the arrays of a built tree and zeroes it; NULL is allowed. */
void w3d_aabtree_built_free(w3d_aabtree_built *t);

/** Message for a status ("ok", "out of memory", ...), static storage. */
const char *w3d_aabtree_status_name(w3d_aabtree_status s);

/**
 * Tight box of the triangles named by tris[0 .. count) (indices into the
 * tri_count triangles of vindex, as for w3d_aabtree_build): the extents of
 * their vertices, with the NaN rule above.  Triangle indices >= tri_count
 * and vertex indices >= vertex_count are skipped (as lint/w3d/check_aabtree.c
 * does).  An axis with no usable coordinate gets 0..0.  Returns the number
 * of vertices used (0: the box is 0..0 and means nothing).  Used by the
 * refit fixer (fix/w3d/fix_aabtree.c).
 */
size_t w3d_tri_box(const w3d_vec3 *verts, size_t vertex_count, const uint32_t *vindex,
		   size_t tri_count, const uint32_t *tris, size_t count, w3d_vec3 *out_min,
		   w3d_vec3 *out_max);

#endif
