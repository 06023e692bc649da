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
	&b3d_fix_trim_record_slack, /* fix_slack.c (unsafe) */
	&b3d_fix_remove_empty_meshes, /* fix_empty.c (unsafe): whole chunks before values */
	/* values inside whole records */
	&b3d_fix_reset_zero_quaternions, /* fix_quat.c (unsafe): before normalising */
	&b3d_fix_normalize_quaternions,
	&b3d_fix_clear_dangling_ids, /* fix_ids.c */
	&b3d_fix_fix_weights, /* fix_weights.c */
	&b3d_fix_sort_keys, /* fix_keys.c: before ANIM frames are fitted to the keys */
	&b3d_fix_drop_repeated_keys, /* fix_key_repeats.c: after sort-keys (repeats inside a chunk) */
	&b3d_fix_cover_keys_anim, /* fix_anim.c */
	&b3d_fix_fit_anim_frames,
	&b3d_fix_default_anim_fps,
	NULL /* keep last: the list is NULL-terminated for easy appends */
};

const wl_fixer *const *b3d_fixers(size_t *count)
{
	*count = sizeof fixers / sizeof fixers[0] - 1;
	return fixers;
}

/* Is there a NODE holding a MESH under c?  (Depth is bounded by the
 * reader's WL_MAX_DEPTH.) */
static bool node_with_mesh(const wl_chunk *c)
{
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->id == B3D_CHUNK_MESH && c->kind == WL_NODE_CHUNK && c->id == B3D_CHUNK_NODE)
			return true;
		if (node_with_mesh(k))
			return true;
	}
	return false;
}

/* A B3D model: a NODE with a MESH (a file of TEXS and BRUS only, or of
 * bones without a mesh, is refused by Assimp: "No nodes", or shows
 * nothing). */
static bool b3d_has_model(const wl_doc *doc)
{
	return node_with_mesh(&doc->root);
}

const wl_fix_format b3d_fix_format = { .format = "b3d", .fixers = b3d_fixers,
				       .has_model = b3d_has_model };
