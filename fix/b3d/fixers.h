/*
 * fixers.h - the B3D fixers (fix/b3d/fix_*.c) and their order
 * (fix/b3d/fixers.c), registered for "b3d" in fix/registry.c.
 */
#ifndef WL_FIX_B3D_FIXERS_H
#define WL_FIX_B3D_FIXERS_H

#include "core/b3d/model.h"
#include "fix/fix.h"

extern const wl_fixer b3d_fix_trim_record_slack; /* fix_slack.c */
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

/** The fixers of a B3D file, the shared structural ones included, in the
 *  order they run; *count set.  NULL-terminated. */
const wl_fixer *const *b3d_fixers(size_t *count);

/* The fix part of B3D (fix.h), registered in fix/registry.c. */
extern const wl_fix_format b3d_fix_format;

#endif
