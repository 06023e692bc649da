/* targets.h - the B3D targets (lint/config/target.h): the engines that read
 * .b3d files (notes/b3d_reference.md §1) and the Luanti mod layout.  A
 * B3D file names no engine, so the model says nothing. */
#ifndef WL_B3D_TARGETS_H
#define WL_B3D_TARGETS_H

#include "lint/registry.h"

extern const char *const b3d_targets[];
extern const char *const b3d_target_aliases[];
extern const wl_layout_marker b3d_layout[];
/* The targets of a B3D file whose layout names none (wl_lint_format
 * auto_targets): the game engines.  Assimp is an importer that tools
 * build on, not a game a mod ships for, so its refusals count only when
 * asked for (--target assimp or any, target: in the configuration). */
extern const char b3d_auto_targets[];

#endif
