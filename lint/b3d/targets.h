/* targets.h - the B3D targets (lint/target.h): the engines that read
 * .b3d files (notes/b3d_reference.md §1) and the Luanti mod layout.  A
 * B3D file names no engine, so the model says nothing. */
#ifndef WL_B3D_TARGETS_H
#define WL_B3D_TARGETS_H

#include "lint/registry.h"

extern const char *const b3d_targets[];
extern const char *const b3d_target_aliases[];
extern const wl_layout_marker b3d_layout[];

#endif
