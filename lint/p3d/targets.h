/* targets.h - the P3D targets (lint/config/target.h): the Real Virtuality games,
 * the Arma addon layout, and the game an ODOL version is made for. */
#ifndef WL_P3D_TARGETS_H
#define WL_P3D_TARGETS_H

#include "lint/registry.h"

extern const char *const p3d_targets[];
extern const wl_layout_marker p3d_layout[];

/** The game of a p3d_model's ODOL version (notes/p3d_reference.md §1):
 *  v <= 43 arma1, 44..52 arma2 (v48 Arma 2, v50 Operation Arrowhead),
 *  53..57 dayz (DayZ standalone v53/v54), >= 58 arma3; NULL for MLOD
 *  (editable sources, binarised for any game) or an unread header. */
const char *p3d_target_of(const void *model);

#endif
