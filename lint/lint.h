/*
 * lint.h - the lint engine: reads a file, decodes its model, runs every
 * check, then gives each finding its effective severity (catalogue default,
 * overridden by configuration) and drops the ones that are off.
 *
 * Checks are plain functions that look at the decoded model and report
 * through wl_report() on ctx->doc->findings with a rule id from the
 * catalogue.  They read parameters with wl_lint_param() and may skip work
 * for disabled rules with wl_lint_enabled().  After them the checks every
 * format runs (registry.h wl_lint_engine_checks: the configuration's custom
 * rules, custom_rules.h); their findings carry the custom ids.
 */
#ifndef WL_LINT_H
#define WL_LINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"
#include "catalog.h"
#include "lint/config/config.h"

/* The parameter values a lint of one file has looked up (wl_lint_param):
 * checks ask per mesh, triangle set or name, and the configuration and the
 * catalogue answer the same for the whole file.  An open-addressed table
 * keyed by the rule handle and the address of the parameter's name (a
 * string literal of the check: two literals of one name take two slots
 * holding the same value); zeroed, it is empty. */
#define WL_PARAM_MEMO_SLOTS 32  /* a power of two */
typedef struct wl_param_memo {
	struct {
		const char *param;   /* NULL: free slot */
		wl_rule_id rule;
		double value;
	} slot[WL_PARAM_MEMO_SLOTS];
} wl_param_memo;

typedef struct wl_lint_ctx {
	wl_doc *doc;
	/* The typed model of doc's format (doc->format->build_model; a
	 * w3d_model for W3D): checks of a format's folder cast it. */
	const void *model;
	const wl_catalog *catalog;
	const wl_config *config;   /* may be NULL */
	const char *file_key;      /* absolute path for per-path ignores
	                              (wl_config_file_key), or NULL */
	const wl_cli_rules *cli;   /* the command line's selection, or NULL */
	wl_target_mask targets;    /* the file's targets (0: unknown) */
	wl_param_memo *params;     /* this file's looked-up parameters, or
	                              NULL (every call looks them up) */
} wl_lint_ctx;

/* What the front end adds to a lint run (all optional). */
typedef struct wl_lint_opts {
	const wl_cli_rules *cli;   /* --select, --ignore, --target; or NULL */
	wl_target_mask layout;     /* the targets the mod's layout names
	                              (wl_target_layout; 0: none) */
} wl_lint_opts;

typedef void (*wl_check_fn)(wl_lint_ctx *ctx);

/** Value of parameter param of the rule of handle rule: the
 *  configuration's, else the catalogue default (wl_config_param).  With
 *  ctx->params, the value is looked up once per file and then taken from
 *  the memo (while it has a free slot; after that, each time).  param must
 *  outlive the lint of the file (checks pass string literals). */
double wl_lint_param(const wl_lint_ctx *ctx, wl_rule_id rule, const char *param);

/** False when the rule's effective severity for this file is off
 *  (wl_config_severity_for with ctx's selection, file key and targets). */
bool wl_lint_enabled(const wl_lint_ctx *ctx, wl_rule_id rule);

/** wl_lint_enabled for a rule named by text: a custom rule of the
 *  configuration. */
bool wl_lint_enabled_named(const wl_lint_ctx *ctx, const char *rule);

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
 * wl_lint_bytes with the front end's options lo.  The file's targets
 * (written to *targets when not NULL) are: the targets given
 * (lo->cli->target, else the configuration's target:) of the file's
 * format; when none are, the format's targets narrowed by lo->layout and
 * then by what the model says (wl_lint_format.target_of), as far as each
 * keeps some; when neither names any, the format's default targets
 * (wl_lint_format.auto_targets: for B3D the game engines luanti, irrlicht
 * and blitz3d, not the assimp importer).  lo NULL (wl_lint_bytes): only the configuration's target:,
 * else none (0: every rule at its catalogue default, opt-in included).  A single given target that is a dialect of the format
 * (wl_format.dialect_parse: the W3D games) is applied to the model before
 * the checks, so game-dependent rules follow it.  Severities are
 * wl_config_severity_for with lo->cli and those targets.
 */
wl_doc *wl_lint_bytes_opts(const wl_catalog *cat, const wl_config *cfg, const wl_lint_opts *lo,
			   const char *path, const uint8_t *bytes, uint64_t size, wl_target_mask *targets);

/** Findings of doc at severity min or above, the ones left out by the
 *  per-rule cap included (what every report counts). */
uint64_t wl_lint_count(const wl_doc *doc, wl_severity min);

/**
 * Lints an archive (core/archive/archive.h; a file core/filekind.h knows as
 * one): the archive's own document, read whole (PBO SHA-1 and packed
 * entries checked), with the archive-* findings at their effective
 * severities, sorted.  Its entries are linted one by one by the caller
 * (wl_lint_bytes over each entry's bytes).  NULL when the bytes are not an
 * archive or out of memory.  bytes[0..have) are the file's first bytes, size
 * its size: have < size only for a BIG's head (core/archive/archive.h
 * wl_archive_read_table, wl_archive_read_head).
 */
wl_doc *wl_lint_archive(const wl_catalog *cat, const wl_config *cfg, const char *path, const uint8_t *bytes,
			uint64_t have, uint64_t size);

/** Highest severity among doc's findings (WL_SEV_OFF when none). */
wl_severity wl_lint_worst(const wl_doc *doc);

/** Writes "pass P" into buf, or "pass P stage S" when stage is not
 *  SIZE_MAX (where a material message points inside a mesh). */
void wl_pass_stage_name(char *buf, size_t cap, size_t pass, size_t stage);

#endif
