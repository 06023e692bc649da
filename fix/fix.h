/*
 * fix.h - fixers: repairs of the findings of the rule catalogue, made through
 * the edit API (core/edit.h) on a freshly read document.
 *
 * A fixer names the rule ids it repairs and whether it is safe (on by default
 * in w3dfix) or unsafe (only with --unsafe, or when asked for by name, e.g.
 * --rebuild-aabtree).  w3dfix runs the selected fixers one after another; each
 * gets a document read from the current bytes (so it sees the result of the
 * fixers before it) with its model built and its findings linted, edits it,
 * and the document is written back to bytes.  After all fixers, w3dfix
 * re-reads the output and verifies: the findings repaired are gone, no new
 * error appeared, and running the fixers again makes no edit.
 *
 * A fixer must be deterministic and idempotent, must only change what its
 * rules are about, and must record every edit with wl_edit_note() (chunk,
 * rule, offset, "what: old -> new").
 */
#ifndef WL_FIX_H
#define WL_FIX_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/edit.h"
#include "../lint/lint.h"

typedef struct wl_fix_ctx {
	wl_doc *doc;              /* read from the current bytes, findings linted */
	w3d_model *model;         /* its decoded model (doc->model) */
	const wl_catalog *catalog;
	const wl_config *config;  /* may be NULL */
	bool unsafe;              /* --unsafe given */
	bool forced;              /* this fixer was asked for by name */
} wl_fix_ctx;

typedef struct wl_fixer {
	const char *id;               /* fixer name, e.g. "recompute-bounds" */
	const char *const *rules;     /* NULL-terminated rule ids it repairs */
	bool unsafe;                  /* needs --unsafe (or forced) */
	const char *summary;          /* one line, for w3dfix --list-fixes */
	/* Edits ctx->doc; returns 0, or -1 on out of memory. */
	int (*apply)(wl_fix_ctx *ctx);
} wl_fixer;

/** The registered fixers (fix/fixers.c), in the order they run. */
const wl_fixer *const *wl_fixers(size_t *out_count);

/** True when doc has a finding (effective severity not off) of rule. */
bool wl_fix_has_finding(const wl_doc *doc, const char *rule);

#endif
