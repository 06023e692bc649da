/*
 * fixers.h - the P3D fixers (fix/p3d/fix_*.c) and their order
 * (fix/p3d/fixers.c), registered for "p3d" in fix/registry.c.  They repair
 * MLOD files only (the modders' source; the format's repairable() refuses
 * ODOL, core/p3d/descriptor.c), through the edit API: the writer copies
 * every node as read and writes an edited one as what it holds
 * (core/edit.h), so a repair changes only the bytes it is about.
 */
#ifndef WL_FIX_P3D_FIXERS_H
#define WL_FIX_P3D_FIXERS_H

#include "core/p3d/p3d.h"
#include "fix/fix.h"

extern const wl_fixer p3d_fix_tag_size;    /* fix_tag_size.c (safe) */
extern const wl_fixer p3d_fix_eof_tag;     /* fix_eof_tag.c (safe) */
extern const wl_fixer p3d_fix_lod_counts;  /* fix_lod_counts.c (unsafe) */
extern const wl_fixer p3d_fix_salvage;     /* fix_salvage.c (unsafe) */
extern const wl_fixer p3d_fix_normals;     /* fix_normals.c (safe) */
extern const wl_fixer p3d_fix_convex_hull; /* fix_hull.c (unsafe) */

/** The MLOD LOD of model m whose node is node, or NULL.  Inline: the
 *  fixers use it without calling back into fixers.c, which lists them. */
static inline const p3d_lod *p3d_fix_lod_of(const p3d_model *m, const wl_chunk *node)
{
	for (uint32_t i = 0; m && m->mlod && m->lods && i < m->n_res; i++)
		if (m->lods[i].node == node)
			return &m->lods[i];
	return NULL;
}

/** The fixers of a P3D (MLOD) file in the order they run; *count set.
 *  NULL-terminated. */
const wl_fixer *const *p3d_fixers(size_t *count);

/* The fix part of P3D (fix.h), registered in fix/registry.c: MLOD only
 * (core/format.h wl_format.repairable). */
extern const wl_fix_format p3d_fix_format;

#endif
