/*
 * registry.h - the lint layer's registry of formats: for each format of
 * core/registry.c that has checks, its check functions and its custom-rule
 * fields.  lint/registry.c is the only file of lint/'s root that names the
 * format folders (lint/w3d/, ...).
 */
#ifndef WL_LINT_REGISTRY_H
#define WL_LINT_REGISTRY_H

#include <stddef.h>

#include "lint.h"
#include "lint/run/stat_memo.h"
#include "xref.h"

struct wl_custom_eval;

/* A file or folder whose presence in a mod's folder (or a folder above it)
 * names its targets (target.h wl_target_layout). */
typedef struct wl_layout_marker {
	const char *name;     /* relative path: "mod.conf", "Data/INI" */
	const char *targets;  /* comma-separated target names */
	/* What the marker's content says (may be NULL): given the folder
	 * holding the marker and the run's memo, the narrower targets
	 * (comma-separated names) its files name, or NULL when they name
	 * none of them more than the others. */
	const char *(*refine)(const char *dir, const char *name, wl_stat_memo *memo);
} wl_layout_marker;

typedef struct wl_lint_format {
	const char *format;  /* wl_format.name it serves: "w3d" */
	/* The fields custom rules may name (field_count of them; NULL: none)
	 * and the walk that evaluates a rule over this format's model. */
	const wl_field_def *fields;
	size_t field_count;
	void (*custom_eval)(const struct wl_custom_eval *e);
	/* The cross-file index of this format (xref.h), or NULL: none. */
	const wl_xref_ops *xref;
	/* Targets (target.h): this format's target names (NULL-terminated),
	 * aliases as {alias, name} pairs (NULL-terminated), layout markers
	 * ({NULL} ends them), and the targets a built model says it is for
	 * (comma-separated names; NULL when it says nothing).  Any may be
	 * NULL. */
	const char *const *targets;
	const char *const *target_aliases;
	const wl_layout_marker *layout;
	const char *(*target_of)(const void *model);
	/* The targets a file of this format gets under `auto` when neither
	 * its mod's layout nor the model names any (comma-separated names;
	 * NULL: every target of the format).  B3D: the game engines, not the
	 * Assimp importer (lint/b3d/targets.c). */
	const char *auto_targets;
} wl_lint_format;

/** Every registered lint part, in registry order; *count set. */
const wl_lint_format *const *wl_lint_formats(size_t *count);

/** The checks every format runs after its own checks (the
 *  configuration's custom rules), in order; *count set. */
const wl_check_fn *wl_lint_engine_checks(size_t *count);

/** The lint part of format f, or NULL when it has none (no checks run). */
const wl_lint_format *wl_lint_format_of(const wl_format *f);

#endif
