/*
 * config.h - user configuration: .w3dlint.yaml.
 *
 * Found by walking up from each linted file's directory to the first
 * directory holding .w3dlint.yaml, stopping at a repository root (a
 * directory holding .git) or the file system root; or given with --config.
 *
 * Format (all keys optional):
 *
 *   rules:                      # per-rule settings, keyed by rule id
 *     quaternion-not-normalized:
 *       severity: warning       # error | warning | info | off
 *       params:
 *         tolerance: 0.01
 *     chunk-unknown: off        # shorthand for severity
 *   fail-on: error              # lowest severity that makes exit status 1
 *
 * Malformed YAML, unknown keys, unknown rule ids, unknown parameter names and
 * bad values are errors naming the file, line and column; the front end
 * exits 2 on them.
 */
#ifndef WL_CONFIG_H
#define WL_CONFIG_H

#include <stddef.h>

#include "../core/finding.h"
#include "catalog.h"

typedef struct wl_config wl_config;

/**
 * Parses configuration text (named name in errors) against cat.  Returns
 * NULL and writes "name:line:column: message" to err on error.
 */
wl_config *wl_config_parse(const wl_catalog *cat, const char *name, const char *text,
			   size_t text_len, char *err, size_t errcap);

/** Reads and parses the file at path; errors as wl_config_parse (an
 *  unreadable file is an error naming it). */
wl_config *wl_config_load(const wl_catalog *cat, const char *path, char *err, size_t errcap);

/**
 * Finds the .w3dlint.yaml that governs file_path (see above) and writes its
 * path to out (outcap bytes).  Returns 1 when found, 0 when none.
 */
int wl_config_locate(const char *file_path, char *out, size_t outcap);

void wl_config_free(wl_config *cfg);

/** Effective severity of rule (config override, else catalogue default).
 *  cfg may be NULL.  Unknown rules: WL_SEV_ERROR. */
wl_severity wl_config_severity(const wl_config *cfg, const wl_catalog *cat, const char *rule);

/** Effective parameter value (config, else catalogue default, else fallback). */
double wl_config_param(const wl_config *cfg, const wl_catalog *cat, const char *rule,
		       const char *param, double fallback);

/** Lowest severity that fails the run (default WL_SEV_ERROR). */
wl_severity wl_config_fail_on(const wl_config *cfg);

/** Path of the file it was loaded from ("" for parsed text). */
const char *wl_config_path(const wl_config *cfg);

#endif
