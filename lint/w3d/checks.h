/*
 * checks.h - every W3D check function, registered in checks.c.
 * Each lives in its own lint/w3d/check_*.c and documents the rule ids it reports.
 */
#ifndef WL_CHECKS_H
#define WL_CHECKS_H

#include "core/w3d/game.h"
#include "core/w3d/model.h"
#include "lint/lint.h"
#include "lint/registry.h"

/* The lint part of the format: its checks, custom-rule fields, cross-file
 * index and targets (checks.c). */
extern const wl_lint_format w3d_lint_format;

#endif
