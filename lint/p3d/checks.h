/*
 * checks.h - every P3D check function, registered in checks.c (lint/p3d/).
 * Each lives in its own lint/p3d/check_*.c and documents the rule ids it
 * reports; the model they read is core/p3d/p3d.h (ctx->model is a const
 * p3d_model *).
 */
#ifndef WL_P3D_CHECKS_H
#define WL_P3D_CHECKS_H

#include "../../core/p3d/p3d.h"
#include "../lint.h"

/* The registered checks, in the order they run; count in *out_count. */
const wl_check_fn *wl_p3d_checks(size_t *out_count);

/* check_header.c: p3d-version-unknown, p3d-encrypted, p3d-lod-count,
 * p3d-resolution-invalid, p3d-resolution-duplicate. */
void wl_p3d_check_header(wl_lint_ctx *ctx);

/* check_lods.c: p3d-lod-overlap, p3d-lod-gap, p3d-lod-order. */
void wl_p3d_check_lods(wl_lint_ctx *ctx);

#endif
