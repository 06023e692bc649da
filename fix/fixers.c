/* fixers.c - the registry of fixers, in the order they run (fix.h).
 * Each fixer lives in its own fix/fix_*.c; add one line here per fixer. */
#include "fix.h"

#include <fnmatch.h>
#include <string.h>

/* fix_structure.c, fix_counts.c */
extern const wl_fixer wl_fix_drop_unreadable, wl_fix_drop_stray, wl_fix_trailing_bytes,
	wl_fix_trim_partial, wl_fix_chunk_overruns, wl_fix_container_sizes, wl_fix_container_bits,
	wl_fix_header_counts, wl_fix_aabtree_header_counts;
extern const wl_fixer wl_fix_salvage_mesh; /* fix_salvage.c */
extern const wl_fixer wl_fix_refit_aabtree, wl_fix_rebuild_aabtree; /* fix_aabtree.c */
extern const wl_fixer wl_fix_recompute_bounds, wl_fix_recompute_planes, /* fix_bounds.c, fix_planes.c */
	wl_fix_normalize_quaternions, wl_fix_align_quaternion_hemispheres, /* fix_quaternions.c */
	wl_fix_recompute_euler_angles, /* fix_euler.c */
	wl_fix_reorder_pivots; /* fix_pivots.c */

static const wl_fixer *const fixers[] = {
	/* structure first: later fixers see a consistent tree */
	&wl_fix_drop_unreadable,
	&wl_fix_drop_stray,
	&wl_fix_trailing_bytes,
	&wl_fix_chunk_overruns, /* before trim-partial: cutting an overrunning
				  * array can leave a partial element */
	&wl_fix_trim_partial,
	&wl_fix_salvage_mesh, /* fix_salvage.c: after the cuts of the two above */
	&wl_fix_container_sizes,
	&wl_fix_container_bits,
	&wl_fix_header_counts,
	&wl_fix_aabtree_header_counts,
	&wl_fix_refit_aabtree,   /* fix_aabtree.c */
	&wl_fix_rebuild_aabtree, /* fix_aabtree.c */
	&wl_fix_recompute_bounds,      /* fix_bounds.c */
	&wl_fix_recompute_planes,      /* fix_planes.c */
	&wl_fix_normalize_quaternions, /* fix_quaternions.c */
	&wl_fix_align_quaternion_hemispheres, /* fix_quaternions.c, after normalising */
	&wl_fix_recompute_euler_angles, /* fix_euler.c, after normalising */
	&wl_fix_reorder_pivots,        /* fix_pivots.c (unsafe) */
	NULL /* keep last: the list is NULL-terminated for easy appends */
};

const wl_fixer *const *wl_fixers(size_t *out_count)
{
	*out_count = sizeof fixers / sizeof fixers[0] - 1;
	return fixers;
}

bool wl_fix_has_finding(const wl_doc *doc, const char *rule)
{
	for (size_t i = 0; i < doc->findings.count; i++)
		if (strcmp(doc->findings.items[i].rule, rule) == 0 &&
		    doc->findings.items[i].severity != WL_SEV_OFF)
			return true;
	return false;
}

bool wl_fix_filter_allows(const wl_fix_rule_filter *filter, const char *rule)
{
	if (!filter)
		return true;
	bool sel = filter->select_count == 0;
	for (size_t i = 0; i < filter->select_count && !sel; i++)
		sel = fnmatch(filter->select[i], rule, 0) == 0;
	for (size_t i = 0; i < filter->ignore_count && sel; i++)
		if (fnmatch(filter->ignore[i], rule, 0) == 0)
			sel = false;
	return sel;
}

bool wl_fix_rule_wanted(const wl_fix_ctx *ctx, const char *rule)
{
	return wl_fix_filter_allows(ctx->filter, rule) && wl_fix_has_finding(ctx->doc, rule);
}
