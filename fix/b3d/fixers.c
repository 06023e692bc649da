/* fixers.c - the B3D fixers in the order they run (fixers.h): the
 * structural fixers of the chunk formats (fix/fix_structure.c; B3D has no
 * container bit, so container-bits is not among them), then B3D's own. */
#include "fixers.h"

static const wl_fixer *const fixers[] = {
	/* structure first: later fixers see a consistent tree */
	&wl_fix_drop_unreadable,
	&wl_fix_drop_stray,
	&wl_fix_trailing_bytes,
	&wl_fix_chunk_overruns,
	&wl_fix_container_sizes,
	&wl_fix_b3d_trim_record_slack, /* fix_slack.c (unsafe) */
	&wl_fix_b3d_remove_empty_meshes, /* fix_empty.c (unsafe): whole chunks before values */
	/* values inside whole records */
	&wl_fix_b3d_reset_zero_quaternions, /* fix_quat.c (unsafe): before normalising */
	&wl_fix_b3d_normalise_quaternions,
	&wl_fix_b3d_clear_dangling_ids, /* fix_ids.c */
	&wl_fix_b3d_fix_weights, /* fix_weights.c */
	&wl_fix_b3d_sort_keys, /* fix_keys.c: before ANIM frames are fitted to the keys */
	&wl_fix_b3d_drop_repeated_keys, /* fix_key_repeats.c: after sort-keys (repeats inside a chunk) */
	&wl_fix_b3d_cover_keys_anim, /* fix_anim.c */
	&wl_fix_b3d_fit_anim_frames,
	&wl_fix_b3d_default_anim_fps,
	NULL /* keep last: the list is NULL-terminated for easy appends */
};

const wl_fixer *const *wl_b3d_fixers(size_t *count)
{
	*count = sizeof fixers / sizeof fixers[0] - 1;
	return fixers;
}
