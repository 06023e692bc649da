/*
 * checks.h - every P3D check function, registered in checks.c (lint/p3d/).
 * Each lives in its own lint/p3d/check_*.c and documents the rule ids it
 * reports; the model they read is core/p3d/p3d.h (ctx->model is a const
 * p3d_model *), and for ODOL LODs the views of core/p3d/p3d_lodview.h.
 */
#ifndef WL_P3D_CHECKS_H
#define WL_P3D_CHECKS_H

#include "core/cursor.h"
#include "core/p3d/p3d.h"
#include "core/p3d/p3d_lodview.h"
#include "lint/lint.h"
#include "lint/registry.h"

/* The lint part of the format: its checks, custom-rule fields, cross-file
 * index and targets (checks.c). */
extern const wl_lint_format p3d_lint_format;

/* check_header.c: p3d-version-unknown, p3d-encrypted, p3d-lod-count,
 * p3d-resolution-invalid, p3d-resolution-duplicate. */
void p3d_check_header(wl_lint_ctx *ctx);

/* check_lods.c: p3d-lod-overlap, p3d-lod-gap, p3d-lod-order. */
void p3d_check_lods(wl_lint_ctx *ctx);

/* check_info.c: ModelInfo's p3d-not-finite, p3d-skeleton-parent,
 * p3d-animation-bone. */
void p3d_check_info(wl_lint_ctx *ctx);

/* check_lod_faces.c: ODOL p3d-face-vertex-count, p3d-face-index,
 * p3d-face-allocation, p3d-section-faces, p3d-section-order,
 * p3d-section-texture, p3d-section-material. */
void p3d_check_lod_faces(wl_lint_ctx *ctx);

/* check_lod_refs.c: p3d-selection-index, p3d-selection-weights,
 * p3d-proxy-index, p3d-bone-index, p3d-bone-links-count. */
void p3d_check_lod_refs(wl_lint_ctx *ctx);

/* check_lod_arrays.c: p3d-vertex-array-size, p3d-rest-size and the
 * LODs' p3d-not-finite (bounds, UV ranges and UVs, positions, normals). */
void p3d_check_lod_arrays(wl_lint_ctx *ctx);

/* check_bbox.c: p3d-vertex-outside-bbox (parameter tolerance). */
void p3d_check_bbox(wl_lint_ctx *ctx);

/* check_mlod.c: MLOD p3d-face-vertex-count, p3d-face-index,
 * p3d-not-finite. */
void p3d_check_mlod(wl_lint_ctx *ctx);

/* check_normals.c: MLOD p3d-normal-not-unit (parameter tolerance). */
void p3d_check_normals(wl_lint_ctx *ctx);

/* check_components.c: p3d-component-open, p3d-component-convex,
 * p3d-component-name (Geometry, Fire Geometry, View Geometry LODs). */
void p3d_check_components(wl_lint_ctx *ctx);

/* check_mass.c: p3d-geometry-mass. */
void p3d_check_mass(wl_lint_ctx *ctx);

/* lod_names.c, shared by the checks: the kinds of LOD the rules tell
 * apart, from their resolution (source there: BI wiki "LOD"). */
typedef enum wl_p3d_lodkind {
	WL_P3D_LOD_OTHER = 0,
	WL_P3D_LOD_VISUAL,          /* 0 <= resolution < 1000 */
	WL_P3D_LOD_VIEW,            /* View Gunner / Pilot / Cargo / Commander */
	WL_P3D_LOD_SHADOW,          /* ShadowVolume n: 10000 + n */
	WL_P3D_LOD_GEOMETRY,        /* 1e13 */
	WL_P3D_LOD_MEMORY,          /* 1e15 */
	WL_P3D_LOD_VIEW_GEOMETRY,   /* 6e15 */
	WL_P3D_LOD_FIRE_GEOMETRY    /* 7e15 */
} wl_p3d_lodkind;

/** The kind of the LOD of resolution res. */
wl_p3d_lodkind wl_p3d_lod_kind(float res);

/** The Arma name of resolution res into buf (n bytes): "Geometry",
 *  "Fire Geometry", "ShadowVolume 0", "Resolution 1.000", ...,
 *  "resolution 1234" for a value the table does not name; returns buf. */
const char *wl_p3d_lod_name(float res, char *buf, size_t n);

/* finite.c, shared by the checks: */

/** The first of n little-endian floats at p (read through a cursor) that
 *  is NaN or infinite: its index, *val its value; -1 when all are finite. */
int wl_p3d_nonfinite(const uint8_t *p, unsigned n, float *val);

/** Whether the first k little-endian floats of each of the n elements of
 *  stride bytes at p are all finite (a fast test of their exponent bits,
 *  for whole arrays). */
bool wl_p3d_all_finite(const uint8_t *p, uint64_t n, uint32_t stride, uint32_t k);

/** One p3d-not-finite finding "WHAT EL has a non-finite component K (V)"
 *  over [off, off+len) on node when one of the n floats at p is not
 *  finite; true when reported. */
bool wl_p3d_report_finite(wl_lint_ctx *ctx, const wl_chunk *node, const char *what, int64_t el,
			  uint64_t off, uint64_t len, const uint8_t *p, unsigned n);

#endif
