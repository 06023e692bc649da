/* fixers.c - the W3D fixers in the order they run (fixers.h).  Each lives
 * in its own fix/w3d/fix_*.c (the structural ones in fix/fix_structure.c);
 * add one line here per fixer. */
#include "fixers.h"

static const wl_fixer *const fixers[] = {
	/* structure first: later fixers see a consistent tree */
	&wl_fix_drop_unreadable,
	&wl_fix_drop_stray,
	&wl_fix_trailing_bytes,
	&wl_fix_chunk_overruns, /* before trim-partial: cutting an overrunning
				  * array can leave a partial element */
	&wl_fix_trim_partial,
	&w3d_fix_salvage_mesh, /* fix_salvage.c: after the cuts of the two above */
	&wl_fix_container_sizes,
	&wl_fix_container_bits,
	&w3d_fix_header_counts,
	&w3d_fix_aabtree_header_counts,
	&w3d_fix_refit_aabtree,   /* fix_aabtree.c */
	&w3d_fix_rebuild_aabtree, /* fix_aabtree.c */
	&w3d_fix_recompute_bounds,      /* fix_bounds.c */
	&w3d_fix_recompute_planes,      /* fix_planes.c */
	&w3d_fix_normalize_quaternions, /* fix_quaternions.c */
	&w3d_fix_align_quaternion_hemispheres, /* fix_quaternions.c, after normalising */
	&w3d_fix_recompute_euler_angles, /* fix_euler.c, after normalising */
	&w3d_fix_reorder_pivots,        /* fix_pivots.c (unsafe) */
	NULL /* keep last: the list is NULL-terminated for easy appends */
};

const wl_fixer *const *w3d_fixers(size_t *count)
{
	*count = sizeof fixers / sizeof fixers[0] - 1;
	return fixers;
}

/* wl_fix_format.model_left: an object, a top-level chunk of a type the
 * loaders know (mesh, hierarchy, animation, HLOD, ...;
 * notes/w3d_reference.md §1). */
static bool w3d_model_left(const wl_doc *doc, const char **why)
{
	for (const wl_chunk *k = doc->root.first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && k->type)
			return true;
	*why = "no object (mesh, hierarchy, animation, HLOD, ...) is left";
	return false;
}

const wl_fix_format w3d_fix_format = { .format = "w3d", .fixers = w3d_fixers,
				       .model_left = w3d_model_left };
