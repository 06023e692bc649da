/*
 * checks.h - every W3D check function, registered in checks.c.
 * Each lives in its own lint/w3d/check_*.c and documents the rule ids it reports.
 */
#ifndef WL_CHECKS_H
#define WL_CHECKS_H

#include "../../core/w3d/game.h"
#include "../../core/w3d/model.h"
#include "../lint.h"

/* The registered checks, in the order they run; count in *out_count. */
const wl_check_fn *wl_w3d_checks(size_t *out_count);

#endif
