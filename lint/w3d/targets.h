/* targets.h - the W3D targets (lint/config/target.h): the games, their aliases,
 * the SAGE mod layout, and the game a built model says it is for. */
#ifndef WL_W3D_TARGETS_H
#define WL_W3D_TARGETS_H

#include "lint/registry.h"

extern const char *const w3d_targets[];
extern const char *const w3d_target_aliases[];
extern const wl_layout_marker w3d_layout[];

/** The targets the dialect of a w3d_model says (core/w3d/game.h:
 *  detected, or set by --target): "renegade", "generals,bfme" (Zero Hour
 *  evidence: Zero Hour or a later SAGE game), "bfme", "w3dhub"; NULL for
 *  auto (no evidence in the file). */
const char *w3d_target_of(const void *model);

/** The Data/INI marker's refine (layout_ini.c): "bfme" when the mod's INI
 *  files hold a block only the BFME games have, else NULL (the marker's
 *  "generals,bfme" stands).  memo: the run's (may be NULL). */
const char *w3d_ini_refine(const char *dir, const char *name, wl_stat_memo *memo);

#endif
