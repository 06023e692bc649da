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
	&b3d_fix_drop_bad_triangles, /* fix_bad_records.c (unsafe): after a VRTS lost a partial vertex */
	&b3d_fix_drop_bad_weights, /* fix_bad_records.c (unsafe): weights of no vertex, before fix-weights */
	&b3d_fix_remove_empty_meshes, /* fix_empty.c (unsafe): whole chunks before values */
	/* values inside whole records */
	&b3d_fix_reset_zero_quaternions, /* fix_quat.c (unsafe): before normalising */
	&b3d_fix_normalize_quaternions,
	&b3d_fix_normalize_node_quaternions, /* fix_quat.c (unsafe) */
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

/* wl_fix_format.model_left: a NODE that holds a MESH.  A BB3D without one
 * is no model: Assimp refuses it ("No nodes", "No meshes": B3DImporter,
 * notes/b3d_reference.md "Assimp"), Irrlicht makes an empty mesh of it. */
static bool b3d_model_left(const wl_doc *doc, const char **why)
{
	const b3d_model *m = doc->model;
	for (size_t i = 0; m && i < m->node_count; i++)
		if (m->nodes[i]->mesh)
			return true;
	*why = m && m->node_count ? "no NODE holds a MESH" : "no NODE is left (Assimp: \"No nodes\")";
	return false;
}

const wl_fix_format b3d_fix_format = { .format = "b3d", .fixers = b3d_fixers,
				       .model_left = b3d_model_left };
