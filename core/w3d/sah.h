/*
 * sah.h - quality measures of an AABTree given in the W3D node encoding:
 * SAH cost normalised by the root box area, node count, leaf count, depth.
 *
 * Cost model (notes/lint_ux_anchors.md §6.2, Aila, Karras and Laine, "On
 * Quality Metrics of Bounding Volume Hierarchies", HPG 2013), used exactly,
 * with the constants of §6.4 (C_inn = C_tri = 1, as tinybvh's SAHCost()):
 *
 *     SAH = (1 / A_root) * ( C_inn * sum_{n in inner} A_n
 *                          + C_tri * sum_{l in leaves} T_l * A_l )
 *
 * A = box surface area 2(dx*dy + dy*dz + dz*dx) of the node's stored
 * Min/Max (model units squared; an inverted axis, Max < Min, counts as
 * extent 0), T_l = the leaf's BackOrPolyCount.  The root is node 0 and is an
 * inner node when it is not a leaf, so its term is 1.  When A_root is 0 (all
 * geometry on a line or a point) every area ratio is taken as 1, i.e. SAH =
 * inner nodes + sum of leaf counts.  A box with an infinite or NaN extent
 * makes the cost infinite or NaN; callers test isfinite().
 *
 * Node encoding (notes/w3d_reference.md §2.2, w3d_file.h:1246-1252):
 * FrontOrPoly0 with bit 31 set marks a leaf (low 31 bits: first
 * POLYINDICES slot, BackOrPolyCount: polygon count); otherwise FrontOrPoly0
 * and BackOrPolyCount are the front and back child indices.
 *
 * The walk is iterative, pre-order (front before back, as the engine,
 * aabtree.cpp:508-548), and enters every node at most once, so any input,
 * including cyclic or out-of-range trees, terminates in O(nodes).  Sums are
 * accumulated in double in that fixed order, so the result depends on the
 * input only.
 *
 * Nothing here prints, exits or reads files.
 */
#ifndef W3D_GEOM_SAH_H
#define W3D_GEOM_SAH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mesh.h"

/* Cost constants of the model above (lint_ux_anchors.md §6.4). */
#define W3D_SAH_C_INNER 1.0
#define W3D_SAH_C_TRI 1.0

typedef struct w3d_sah_stats {
	double sah;              /* normalised SAH cost (dimensionless) */
	double root_area;        /* A_root, model units squared */
	uint32_t node_count;     /* nodes reached from node 0 */
	uint32_t leaf_count;     /* leaves reached */
	uint32_t inner_count;    /* internal nodes reached */
	uint32_t depth;          /* nodes on the longest root-to-leaf path
	                            (a root leaf alone: 1) */
	uint32_t max_leaf_polys; /* largest leaf BackOrPolyCount */
	uint64_t leaf_polys;     /* sum of the leaf counts (references) */
	bool well_formed;        /* every child index < node_count, not the
	                            node itself, no node reached twice, and every
	                            node reached (rule set D3 of §3.D) */
} w3d_sah_stats;

/** Surface area 2(dx*dy + dy*dz + dz*dx) of the box min..max in model units
 *  squared; an axis with max < min has extent 0; NaN propagates. */
double w3d_box_area(const w3d_vec3 *min, const w3d_vec3 *max);

/**
 * Measures the tree nodes[0 .. node_count) (node 0 the root) and fills
 * *out.  Children out of range, self references and nodes reached twice
 * are not followed (they clear out->well_formed); the statistics then cover
 * the part reached.  node_count 0 gives an all-zero result with
 * well_formed false.  Returns 0, or -1 when out of memory (scratch of
 * about 5 bytes per node is allocated and freed).
 */
int w3d_aabtree_sah(const w3d_aabtree_node *nodes, size_t node_count, w3d_sah_stats *out);

#endif
