/* fixers.c - the P3D (MLOD) fixers in the order they run (fixers.h):
 * the tag list first (a size or #EndOfFile# repaired lets the LOD be read
 * whole), a count repaired (the same), then the salvage of what still does not read (unsafe: it
 * removes LODs), then the normals, then the geometry. */
#include "fixers.h"

static const wl_fixer *const fixers[] = {
	&p3d_fix_tag_size,    /* fix_tag_size.c */
	&p3d_fix_eof_tag,     /* fix_eof_tag.c */
	&p3d_fix_lod_counts,  /* fix_lod_counts.c (unsafe) */
	&p3d_fix_salvage,     /* fix_salvage.c (unsafe) */
	&p3d_fix_normals,     /* fix_normals.c */
	&p3d_fix_convex_hull, /* fix_hull.c (unsafe) */
	NULL /* keep last: the list is NULL-terminated for easy appends */
};

const wl_fixer *const *p3d_fixers(size_t *count)
{
	*count = sizeof fixers / sizeof fixers[0] - 1;
	return fixers;
}

/* wl_fix_format.model_left: an MLOD LOD the reader walked whole (an ODOL
 * file is never repaired, so never asked about). */
static bool p3d_model_left(const wl_doc *doc, const char **why)
{
	const p3d_model *m = doc->model;
	if (!m || !m->mlod)
		return true;
	for (uint32_t i = 0; m->lods && i < m->n_res; i++)
		if (m->lods[i].node && m->lods[i].walked)
			return true;
	*why = "no LOD reads whole";
	return false;
}

const wl_fix_format p3d_fix_format = { .format = "p3d", .fixers = p3d_fixers,
				       .model_left = p3d_model_left };
