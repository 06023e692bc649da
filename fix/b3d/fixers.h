/*
 * fixers.h - the B3D fixers (fix/b3d/fix_*.c) and their order
 * (fix/b3d/fixers.c), registered for "b3d" in fix/fixers.c.
 */
#ifndef WL_FIX_B3D_FIXERS_H
#define WL_FIX_B3D_FIXERS_H

#include "../../core/b3d/model.h"
#include "../fix.h"

extern const wl_fixer wl_fix_b3d_trim_record_slack; /* fix_slack.c */

/** The fixers of a B3D file, the shared structural ones included, in the
 *  order they run; *count set.  NULL-terminated. */
const wl_fixer *const *wl_b3d_fixers(size_t *count);

#endif
