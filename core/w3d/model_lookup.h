/*
 * model_lookup.h - name lookups over one decoded W3D model: model
 * semantics, kept in core so that the checks that relate objects to each
 * other inside one file (skins and HLODs to their hierarchy, animations to
 * theirs, lint/w3d/), the cross-file index (lint/w3d/xref.c) and the fixers
 * (fix/w3d/fix_bounds.c) share them without fix depending on lint.
 *
 * Names compare the way the engine's managers do: case-insensitively
 * (HTreeManagerClass and the asset manager hash names with stricmp,
 * REN htreemgr.cpp:174-176, 199-260; assetmgr.cpp:620-640; notes/
 * w3d_reference.md §3 G6).  Only ASCII letters fold; other bytes compare as
 * they are.
 */
#ifndef WL_MODEL_LOOKUP_H
#define WL_MODEL_LOOKUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/** Geometry type field of MESH_HEADER3.Attributes (w3d_file.h:1075-1111). */
#define W3D_MESH_GEOMETRY_MASK 0x00FF0000u
#define W3D_MESH_GEOMETRY_SKIN 0x00020000u

/** strcmp with ASCII letters folded to upper case: < 0, 0 or > 0. */
int wl_name_casecmp(const char *a, const char *b);

/** True when a and b are equal ignoring ASCII letter case. */
bool wl_name_eq(const char *a, const char *b);

/**
 * The first hierarchy of model m whose Name equals name (case-insensitive),
 * or NULL (also when name is empty or m is NULL).  *exact (may be NULL) is
 * set to whether the letter case matched too.
 */
const w3d_hierarchy *wl_find_hierarchy(const w3d_model *m, const char *name, bool *exact);

/**
 * The pivot count the engine uses for h: the header's NumPivots when the
 * header is complete (HTreeClass::Load_W3D reads exactly that many pivots,
 * htree.cpp:252-277), otherwise the number of pivot records present.
 */
uint32_t wl_hierarchy_pivots(const w3d_hierarchy *h);

/** True when mesh m's header says geometry type SKIN (0x20000). */
bool wl_mesh_is_skin(const w3d_mesh *m);

/**
 * Highest bone index that mesh m's VERTEX_INFLUENCES (0x0E) use, scanning
 * bone[0] of every record and, for the two-bone (BFME) layout, bone[1] when
 * its weight is non-zero (§5.2).  Returns false when the mesh has no 0x0E
 * records.  *vertex receives the first vertex (element index) that uses the
 * highest bone and *slot which of its bone fields (0 or 1).
 */
bool wl_mesh_max_bone(const w3d_mesh *m, uint32_t *max_bone, size_t *vertex, int *slot);

/**
 * The first HLOD of model with a LOD or aggregate sub-object named name
 * (case-insensitive), or NULL.  Only HLODs whose header is complete count.
 */
const w3d_hlod *wl_mesh_owner_hlod(const w3d_model *model, const char *name);

/** What wl_mesh_bounds_points found. */
typedef enum wl_bounds_points_status {
	WL_BOUNDS_POINTS_OK = 0,    /* *out holds the points */
	WL_BOUNDS_POINTS_NO_TREE,   /* a skin whose hierarchy is not in this
	                               model: no HLOD of the file uses it, or its
	                               HLOD's HierarchyName names a hierarchy
	                               another file defines */
	WL_BOUNDS_POINTS_UNPOSABLE, /* a skin vertex cannot be posed (bone out of
	                               range, missing influence, bad pivot; other
	                               rules report those) */
	WL_BOUNDS_POINTS_OOM
} wl_bounds_points_status;

/**
 * The points the MESH_HEADER3 bounds of mesh m (of model) describe, one per
 * stored vertex (NaN coordinates for a non-finite one), in a malloc'd array
 * of m->vertices.count entries put in *out (NULL unless the status is OK):
 * the stored vertices of a rigid mesh; for a skin, each vertex put back into
 * the bind pose through the base pose of its primary bone
 * (core/w3d/bind_pose.h) in the hierarchy named by the HLOD of the same file
 * that uses the mesh (wl_mesh_owner_hlod; an empty HierarchyName is the
 * engine's default one-pivot tree, the identity).  Used by the bounds rules
 * (lint/check_geometry.c) and the bounds fixer (fix/fix_bounds.c) alike.
 */
wl_bounds_points_status wl_mesh_bounds_points(const w3d_model *model, const w3d_mesh *m, double (**out)[3]);

/**
 * Measures each finite point of pts[0..n) against header bounds: its excess
 * over the box lo..hi (model units), or, with hi NULL, its distance from
 * the centre lo.  Returns how many measure more than base + tol (base: 0
 * for the box, the radius for the sphere); *worst_at and *worst receive the
 * point that measures most among those and its measure (unchanged when
 * none does).  The test of mesh-bounds-box / mesh-bounds-sphere.
 */
size_t wl_points_outside(const double (*pts)[3], size_t n, const double lo[3], const double *hi, double base,
			 double tol, size_t *worst_at, double *worst);

#endif
