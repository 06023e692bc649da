/*
 * registry.h - the lint layer's registry of formats: for each format of
 * core/formats.c that has checks, its check functions and its custom-rule
 * fields.  lint/registry.c is the only file of lint/'s root that names the
 * format folders (lint/w3d/, ...).
 */
#ifndef WL_LINT_REGISTRY_H
#define WL_LINT_REGISTRY_H

#include <stddef.h>

#include "lint.h"

typedef struct wl_lint_format {
	const char *format;  /* wl_format.name it serves: "w3d" */
	/* The checks, in the order they run; *count set. */
	const wl_check_fn *(*checks)(size_t *count);
} wl_lint_format;

/** The lint part of format f, or NULL when it has none (no checks run). */
const wl_lint_format *wl_lint_format_of(const wl_format *f);

#endif
