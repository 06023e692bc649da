/*
 * config.h - user configuration: .w3dlint.yaml (full guide with examples:
 * docs/configuration.md).
 *
 * Found by walking up from each linted file's directory to the first
 * directory holding .w3dlint.yaml, stopping at a repository root (a
 * directory holding .git) or the file system root; or given with --config.
 *
 * Format (all keys optional; the order of keys does not matter):
 *
 *   extends: ../team.w3dlint.yaml  # or a list; relative to this file's folder
 *   select: [aabtree-*, chunk-*]   # only these rules (fnmatch globs over ids)
 *   ignore: [container-bit-*]      # never these rules
 *   rules:                         # per-rule settings, keyed by rule id
 *     quaternion-not-normalized:
 *       severity: warning          # error | warning | info | off
 *       params:
 *         tolerance: 0.01
 *     chunk-unknown: off           # shorthand for severity
 *   per-path-ignores:              # path glob -> rule-id globs turned off
 *     "art/legacy": ["container-bit-*"]    # the folder and all below it
 *     "*_lod2.w3d": ["*"]                  # no '/': at any depth
 *   custom-rules:                  # declarative rules (custom_rules.h)
 *     - id: custom-texture-prefix
 *       field: texture-name
 *       match: '^(tx|ui)_'
 *       severity: warning
 *       message: "texture '{value}' of mesh {object} lacks the mod prefix"
 *   fail-on: error                 # lowest severity that makes exit status 1
 *   extend-select: [shade-index-*] # rules turned on besides the default set
 *   target: luanti                 # or a list; the engines the files are for
 *                                  # (lint/config/target.h; default auto)
 *   base: [../ZH/Art]              # folders indexed for the cross-file
 *                                  # checks, never linted (relative to
 *                                  # this file's folder)
 *
 * Effective severity of a rule for one file (wl_config_severity_for):
 *   1. the `rules:` severity when set, else the custom rule's severity, else
 *      the catalogue severity for the file's targets
 *      (wl_rule_target_severity); a catalogue rule that is opt-in, or off
 *      for those targets, is off unless a select or extend-select glob
 *      (of the file or of the command line) names it, which gives it its
 *      default severity;
 *   2. off when `select` (the command line's --select, else the file's) is
 *      non-empty and no glob of it or of extend-select matches the id
 *      (the engine's own out-of-memory and internal-unknown-rule are never
 *      turned off by select);
 *   3. off when a glob of `ignore` matches the id;
 *   4. off when an entry of per-path-ignores matches the file and one of
 *      its rule globs matches the id.
 * Rule-id globs are fnmatch(3) patterns without flags (`*`, `?`, `[...]`)
 * and apply to custom rule ids too.
 *
 * Path globs (per-path-ignores keys) are relative to the folder of the file
 * that declares them and are matched against the linted file's absolute
 * path (realpath when it exists) with that folder removed; files outside
 * the folder never match.  Segments are separated by '/'; `**` as a whole
 * segment matches zero or more segments, any other segment is an fnmatch
 * pattern for one segment (`*` does not cross '/').  A glob that matches a
 * folder applies to every file below it ("art/legacy" is the same as
 * "art/legacy" followed by a last segment `**`).
 * A glob without '/' (e.g. "*_lod2.w3d") matches at any depth; a leading
 * "/" or "./" anchors it at the folder.  ".." segments are errors.
 *
 * extends.  The named files are read first, in order (each may extend
 * others; relative to its own folder), then this file, which overrides
 * what it inherits: `fail-on` and a non-empty `select` replace the
 * inherited value (an empty `select: []` selects every rule again);
 * `rules:` entries merge per rule and per parameter; `ignore`,
 * `per-path-ignores` and `custom-rules` accumulate.  A file reached again
 * while it is being read is an "extends cycle: a -> b -> a" error; at most
 * WL_CONFIG_EXTENDS_MAX files may be nested.
 *
 * Errors: malformed YAML, unknown keys, unknown rule ids (in rules, select,
 * ignore and per-path-ignores; a glob must match at least one rule of the
 * catalogue or a custom rule defined so far), unknown parameter names, bad
 * values, bad custom rules and patterns that do not compile ("bad pattern
 * at offset N: <PCRE2 message>") are errors "file:line:column: message"
 * naming the file where the problem is (a file read through extends is
 * named as its path joined to the folder of the file extending it).  The
 * front end exits 2 on them.  Without a catalogue (cat NULL) rule ids and
 * parameter names are not checked.
 *
 * A configuration is immutable once loaded: several threads may read it at
 * once.  Findings of custom rules do not point into it (custom_rules.h).
 */
#ifndef WL_CONFIG_H
#define WL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/finding.h"
#include "lint/catalog.h"
#include "custom_rules.h"
#include "lint/run/stat_memo.h"

/* Deepest chain of extends (files read through extends, nested). */
#define WL_CONFIG_EXTENDS_MAX 16
/* Longest custom rule id, in bytes. */
#define WL_CUSTOM_ID_MAX 64

typedef struct wl_config wl_config;

/**
 * Parses configuration text (named name in errors) against cat.  Returns
 * NULL and writes "name:line:column: message" to err on error.  Relative
 * paths (extends, per-path-ignores) are resolved against the folder of
 * name (the working directory when name has no '/').
 */
wl_config *wl_config_parse(const wl_catalog *cat, const char *name, const char *text,
			   size_t text_len, char *err, size_t errcap);

/** Reads and parses the file at path; errors as wl_config_parse (an
 *  unreadable file is an error "path: cannot open: <reason>"). */
wl_config *wl_config_load(const wl_catalog *cat, const char *path, char *err, size_t errcap);

/**
 * Finds the .w3dlint.yaml that governs file_path (see above) and writes its
 * path to out (outcap bytes).  Returns 1 when found, 0 when none.
 */
int wl_config_locate(const char *file_path, char *out, size_t outcap);

/** wl_config_locate with the probes' answers remembered in memo
 *  (stat_memo.h; NULL: none), for a run's many folders. */
int wl_config_locate_memo(const char *file_path, char *out, size_t outcap, wl_stat_memo *memo);

/** Releases the configuration, its strings and compiled patterns.  NULL is
 *  allowed. */
void wl_config_free(wl_config *cfg);

/* Rule selection of the command line (w3dlint/w3dfix --select,
 * --extend-select, --ignore: fnmatch globs) and --target (0: auto). */
typedef struct wl_cli_rules {
	const char *const *select;
	size_t select_count;
	const char *const *extend_select;
	size_t extend_count;
	const char *const *ignore;
	size_t ignore_count;
	wl_target_mask target;
} wl_cli_rules;

/**
 * Effective severity of rule for a file whose absolute path is file_key
 * (NULL: no per-path ignores) and whose targets are targets (0: none
 * known, as for library callers without front-end options: every catalogue
 * rule at its default severity, opt-in ones included), under cfg (may be NULL) and the command line's
 * selection cli (may be NULL).  Steps 1-4 above.
 */
wl_severity wl_config_severity_for(const wl_config *cfg, const wl_cli_rules *cli, const wl_catalog *cat,
				   const char *rule, const char *file_key, wl_target_mask targets);

/** The configuration's target: (0: auto, or no configuration). */
wl_target_mask wl_config_target(const wl_config *cfg);

/** The configuration's base: folders (absolute, or joined to the folder
 *  of the file naming them), in file order. */
size_t wl_config_base_count(const wl_config *cfg);
const char *wl_config_base_at(const wl_config *cfg, size_t i);

/** Effective severity of rule without per-path ignores (steps 1-3 above,
 *  no targets, no command line).
 *  cfg may be NULL (catalogue default).  Unknown rules: WL_SEV_ERROR. */
wl_severity wl_config_severity(const wl_config *cfg, const wl_catalog *cat, const char *rule);

/**
 * Effective severity of rule for the file whose absolute path is file_key
 * (from wl_config_file_key; NULL or a relative path: per-path ignores are
 * not applied).  Steps 1-4 above, no targets, no command line.
 */
wl_severity wl_config_severity_at(const wl_config *cfg, const wl_catalog *cat, const char *rule,
				  const char *file_key);

/**
 * The key of a linted file for per-path matching: path made absolute
 * (realpath when it exists; otherwise its folder's realpath plus its name,
 * or the working directory joined and normalised lexically).  malloc-owned;
 * NULL when out of memory or path is NULL.
 */
char *wl_config_file_key(const char *path);

/** True when cfg has per-path ignores (so the engine needs a file key). */
bool wl_config_has_path_ignores(const wl_config *cfg);

/**
 * Path glob matching as described above: does pattern (segments separated
 * by '/', `**` segments) match path (relative, '/'-separated), or a folder
 * holding it?  Returns 1 or 0.  Linear in pattern x path segments.
 */
int wl_path_glob_match(const char *pattern, const char *path);

/** Effective value of parameter param of the rule of handle rule: the
 *  configuration's, else the catalogue default (the one source of
 *  defaults: cat's, or the built-in catalogue's when cat is NULL or lacks
 *  the rule); NAN when none has it (a bug: the catalogue lacks it). */
double wl_config_param(const wl_config *cfg, const wl_catalog *cat, wl_rule_id rule, const char *param);

/** wl_config_param for a rule named by text (custom catalogues of the
 *  tests); fallback when neither has it. */
double wl_config_param_named(const wl_config *cfg, const wl_catalog *cat, const char *rule, const char *param,
			     double fallback);

/** Lowest severity that fails the run (default WL_SEV_ERROR). */
wl_severity wl_config_fail_on(const wl_config *cfg);

/** memory-cap: the shared memory cap in bytes (core/arena.h
 *  wl_mem_set_cap) the configuration asks for, 0 when it sets none.  A
 *  file extending another inherits it; its own replaces it. */
uint64_t wl_config_memory_cap(const wl_config *cfg);

/** Path of the file it was loaded from ("" for parsed text). */
const char *wl_config_path(const wl_config *cfg);

/** Number of custom rules (those of extended files first, in file order),
 *  and rule i (NULL when out of range).  cfg may be NULL (0 rules). */
size_t wl_config_custom_count(const wl_config *cfg);
const wl_custom_rule *wl_config_custom_at(const wl_config *cfg, size_t i);

/** The custom rule with this id, or NULL. */
const wl_custom_rule *wl_config_custom_find(const wl_config *cfg, const char *id);

#endif
