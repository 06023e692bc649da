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

const p3d_lod *p3d_fix_lod_of(const p3d_model *m, const wl_chunk *node)
{
	for (uint32_t i = 0; m && m->mlod && m->lods && i < m->n_res; i++)
		if (m->lods[i].node == node)
			return &m->lods[i];
	return NULL;
}

/* A P3D model: a LOD (core/p3d/p3d.h P3D_NODE_LOD). */
static bool p3d_has_model(const wl_doc *doc)
{
	for (const wl_chunk *k = doc->root.first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && k->id == P3D_NODE_LOD)
			return true;
	return false;
}

const wl_fix_format p3d_fix_format = { .format = "p3d", .fixers = p3d_fixers,
				       .has_model = p3d_has_model };
