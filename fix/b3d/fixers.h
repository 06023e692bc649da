/*
 * fixers.h - the B3D fixers (fix/b3d/fix_*.c) and their order
 * (fix/b3d/fixers.c), registered for "b3d" in fix/registry.c.
 */
#ifndef WL_FIX_B3D_FIXERS_H
#define WL_FIX_B3D_FIXERS_H

#include "core/b3d/model.h"
#include "fix/fix.h"

extern const wl_fixer b3d_fix_trim_record_slack; /* fix_slack.c */
extern const wl_fixer b3d_fix_drop_bad_triangles; /* fix_bad_records.c */
extern const wl_fixer b3d_fix_drop_bad_weights;   /* fix_bad_records.c */
extern const wl_fixer b3d_fix_normalize_quaternions, b3d_fix_normalize_node_quaternions,
	b3d_fix_reset_zero_quaternions; /* fix_quat.c */
extern const wl_fixer b3d_fix_clear_dangling_ids; /* fix_ids.c */
extern const wl_fixer b3d_fix_cover_keys_anim, b3d_fix_fit_anim_frames, b3d_fix_default_anim_fps; /* fix_anim.c */
extern const wl_fixer b3d_fix_drop_repeated_keys; /* fix_key_repeats.c */
extern const wl_fixer b3d_fix_sort_keys; /* fix_keys.c */
extern const wl_fixer b3d_fix_fix_weights; /* fix_weights.c */
extern const wl_fixer b3d_fix_remove_empty_meshes; /* fix_empty.c */

/** Replaces the n bytes at absolute input offset `at` of chunk c: in its
 *  current fields when c is a container (NODE name and transform, MESH
 *  brush_id), else in its current payload.  The n bytes replaced go to
 *  old (may be NULL).  -1 when the span is not inside them (nothing
 *  changed) or out of memory (d->oom set).  fix/b3d/patch.c. */
int b3d_fix_patch(wl_doc *d, wl_chunk *c, uint64_t at, const uint8_t *bytes, size_t n, uint8_t *old);

/** True when B3D table chunk c (TEXS or BRUS; NULL: none) reads whole: its
 *  size as declared, no recovery mark (core/chunk.h WL_REC_*), and its
 *  current payload ends with its last whole entry (b3d_whole_records).
 *  When it does not, the damage took some of its entries and an id past
 *  those left is not known to dangle in what the file held (issue 29).
 *  fix/b3d/tables.c. */
bool b3d_fix_table_whole(const wl_doc *d, const wl_chunk *c);

/** True when an id names an entry at index `whole` or later of table
 *  chunk `table` of model m: a BRUS texture_id for m->texs, a MESH or
 *  TRIS brush_id for m->brus (-1, "none", and other negatives do not).
 *  fix/b3d/tables.c. */
bool b3d_fix_ids_reach(const b3d_model *m, const wl_chunk *table, size_t whole);

/** The fixers of a B3D file, the shared structural ones included, in the
 *  order they run; *count set.  NULL-terminated. */
const wl_fixer *const *b3d_fixers(size_t *count);

/* The fix part of B3D (fix.h), registered in fix/registry.c. */
extern const wl_fix_format b3d_fix_format;

#endif
