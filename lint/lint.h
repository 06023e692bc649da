/*
 * lint.h - the lint engine: reads a file, decodes its model, runs every
 * check, then gives each finding its effective severity (catalogue default,
 * overridden by configuration) and drops the ones that are off.
 *
 * Checks are plain functions that look at the decoded model and report
 * through wl_report() on ctx->doc->findings with a rule id from the
 * catalogue.  They read parameters with wl_lint_param() and may skip work
 * for disabled rules with wl_lint_enabled().  After them the configuration's
 * custom rules run (custom_rules.h); their findings carry the custom ids.
 */
#ifndef WL_LINT_H
#define WL_LINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/chunk.h"
#include "catalog.h"
#include "config.h"

typedef struct wl_lint_ctx {
	wl_doc *doc;
	/* The typed model of doc's format (doc->format->build_model; a
	 * w3d_model for W3D): checks of a format's folder cast it. */
	const void *model;
	const wl_catalog *catalog;
	const wl_config *config;   /* may be NULL */
	const char *file_key;      /* absolute path for per-path ignores
	                              (wl_config_file_key), or NULL */
} wl_lint_ctx;

typedef void (*wl_check_fn)(wl_lint_ctx *ctx);

/** Parameter value for rule (configuration, catalogue default, fallback). */
double wl_lint_param(const wl_lint_ctx *ctx, const char *rule, const char *param, double fallback);

/** False when the rule's effective severity for this file is off
 *  (wl_config_severity_at with ctx->file_key). */
bool wl_lint_enabled(const wl_lint_ctx *ctx, const char *rule);

/**
 * Lints bytes[0..size) named path, in the format wl_format_detect() finds
 * (content first, then path's extension): the format's reader, its model
 * builder, then its checks (lint/registry.c).  The bytes must outlive the returned
 * document.  Returns NULL only when out of memory.  The document's findings
 * carry effective severities for this file (wl_config_severity_at: select,
 * ignore and per-path-ignores apply; path is made absolute with
 * wl_config_file_key when cfg has per-path ignores), exclude rules that
 * are off, and are sorted by offset; the per-rule counts of findings left
 * out (wl_findings_dropped) are zero for rules that are off.  Custom rules
 * of cfg are evaluated and reported under their own ids.  A finding whose
 * rule is neither in the catalogue nor a custom rule of cfg is kept with
 * severity error and its rule renamed "internal-unknown-rule" (a bug).
 */
wl_doc *wl_lint_bytes(const wl_catalog *cat, const wl_config *cfg, const char *path,
		      const uint8_t *bytes, uint64_t size);

/**
 * wl_lint_bytes with a forced dialect (w3dlint --game, parsed with
 * wl_format_dialect_parse): when the file is of format df, df->dialect_set
 * (model, dialect) is applied right after the model is built, before the
 * checks, so game-dependent rules follow it instead of the detected
 * dialect.  df NULL keeps the detected one (wl_lint_bytes).
 */
wl_doc *wl_lint_bytes_dialect(const wl_catalog *cat, const wl_config *cfg, const char *path,
			      const uint8_t *bytes, uint64_t size, const wl_format *df,
			      int dialect);

/**
 * Lints an archive (core/archive/archive.h; a file core/filekind.h knows as
 * one): the archive's own document, read whole (PBO SHA-1 and packed
 * entries checked), with the archive-* findings at their effective
 * severities, sorted.  Its entries are linted one by one by the caller
 * (wl_lint_bytes over each entry's bytes).  NULL when the bytes are not an
 * archive or out of memory.
 */
wl_doc *wl_lint_archive(const wl_catalog *cat, const wl_config *cfg, const char *path, const uint8_t *bytes,
			uint64_t size);

/** Highest severity among doc's findings (WL_SEV_OFF when none). */
wl_severity wl_lint_worst(const wl_doc *doc);

/** Writes "pass P" into buf, or "pass P stage S" when stage is not
 *  SIZE_MAX (where a material message points inside a mesh). */
void wl_pass_stage_name(char *buf, size_t cap, size_t pass, size_t stage);

#endif
