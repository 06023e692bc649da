/*
 * checks.h - every B3D check function, registered in checks.c (lint/b3d/).
 * Each lives in its own lint/b3d/check_*.c and documents the rule ids it
 * reports; the model they read is core/b3d/model.h (ctx->model is a
 * const b3d_model *).
 */
#ifndef WL_B3D_CHECKS_H
#define WL_B3D_CHECKS_H

#include "core/b3d/model.h"
#include "lint/lint.h"
#include "lint/registry.h"

/* The lint part of the format: its checks, custom-rule fields, cross-file
 * index and targets (checks.c). */
extern const wl_lint_format b3d_lint_format;

#endif
