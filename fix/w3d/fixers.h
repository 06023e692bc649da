/*
 * fixers.h - the W3D fixers (fix/w3d/fix_*.c) and their order
 * (fix/w3d/fixers.c), registered for "w3d" in fix/registry.c.
 */
#ifndef WL_FIX_W3D_FIXERS_H
#define WL_FIX_W3D_FIXERS_H

#include "core/w3d/model.h"
#include "core/w3d/w3d_format.h"
#include "fix/fix.h"

extern const wl_fixer w3d_fix_salvage_mesh;                                /* fix_salvage.c */
extern const wl_fixer w3d_fix_header_counts, w3d_fix_aabtree_header_counts; /* fix_counts.c */
extern const wl_fixer w3d_fix_refit_aabtree, w3d_fix_rebuild_aabtree;       /* fix_aabtree.c */
extern const wl_fixer w3d_fix_recompute_bounds;                            /* fix_bounds.c */
extern const wl_fixer w3d_fix_recompute_planes;                            /* fix_planes.c */
extern const wl_fixer w3d_fix_normalize_quaternions,
	w3d_fix_align_quaternion_hemispheres;                              /* fix_quaternions.c */
extern const wl_fixer w3d_fix_recompute_euler_angles;                      /* fix_euler.c */
extern const wl_fixer w3d_fix_reorder_pivots;                              /* fix_pivots.c */

/** The fixers of a W3D file, the shared structural ones included, in the
 *  order they run; *count set.  NULL-terminated. */
const wl_fixer *const *w3d_fixers(size_t *count);

/* The fix part of W3D (fix.h), registered in fix/registry.c. */
extern const wl_fix_format w3d_fix_format;

#endif
