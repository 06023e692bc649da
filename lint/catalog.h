/*
 * catalog.h - the rule catalogue, loaded with libyaml from the YAML files in
 * rules/ (built into the binary as C tables at build time: catalog_table.h).
 *
 * Catalogue file format (every file: a mapping with one key, "rules", whose
 * value is a sequence of rule mappings):
 *
 *   rules:
 *     - id: pivot-parent-order          # stable kebab-case id
 *       category: hierarchy             # chunk count index geometry hierarchy
 *                                       # animation aabtree material name
 *                                       # reference quality
 *       severity: error                 # error | warning | info | off
 *       fixable: none                   # none | safe | unsafe
 *       summary: one line, lower case, what is wrong
 *       explanation: >
 *         one paragraph: the invariant, what the engine does when it is
 *         broken, and the source (spec section or engine file:line)
 *       params:                         # optional
 *         - name: tolerance
 *           default: 0.001
 *           description: allowed difference of |q| from 1
 *       format: w3d                     # optional: overrides the file's
 *       sources: [REN ww3d2/htree.cpp]  # optional: overrides the file's
 *       targets:                        # optional: severity per target
 *         luanti: off                   # (lint/config/target.h); a target not
 *         assimp: error                 # named gets `severity`
 *       opt-in: true                    # optional: off unless selected
 *       check: mesh                     # what reports it: a check name
 *                                       # (or a list), reader, xref or
 *                                       # engine (wl_rule_def.checks)
 *       fixers: [header-counts]         # optional: the fixers repairing it
 *
 * Besides `rules`, a file may say (for every rule it holds):
 *   format: b3d                 # the format its rules are about: a
 *                               # registered format name; none: any
 *   sources:                    # what its explanations cite, one line each
 *     - "Blitz3D blitz3d/loader_b3d.cpp"
 * A rule's `targets:` may name only targets of its format.  A rule that is
 * `off` for every target of its format, or `opt-in`, is outside the
 * default rule set: it runs only when a select glob names it.
 *
 * Unknown keys, missing required keys (id, category, severity, fixable,
 * summary, explanation), bad values and duplicate ids are load errors that
 * name the file, line and column.
 */
#ifndef WL_CATALOG_H
#define WL_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/finding.h"
#include "lint/config/target.h"

typedef struct wl_param_def {
	const char *name;
	double def;              /* default value */
	const char *description;
} wl_param_def;

typedef struct wl_rule_def {
	const char *id;
	const char *category;
	wl_severity severity;    /* default severity */
	const char *fixable;     /* "none", "safe" or "unsafe" (the catalogue's
	                          * "no", no and false read as "none"); must
	                          * agree with the fixers that list the rule
	                          * (tests/fix/test_fixable.c) */
	const char *summary;
	const char *explanation;
	const wl_param_def *params;
	size_t params_count;
	const char *source_file; /* catalogue file it came from */
	const char *format;      /* "w3d", "b3d", "p3d"; "" for every format */
	const char *const *sources; /* lines cited by the explanation */
	size_t sources_count;
	wl_target_mask targets;  /* the targets of its format (all for "") */
	wl_severity target_severity[WL_TARGETS_MAX]; /* per target index */
	bool opt_in;             /* outside the default rule set */
	/* What reports it (`check:`): the names of the format's check
	 * functions (NAME: FORMAT_check_NAME in lint/FORMAT/check_NAME.c,
	 * registered from these names by scripts/gen_catalog.c), or
	 * "reader" (the format's reader in core/), "xref" (the cross-file
	 * checks), "engine" (lint/ itself: configuration, the run). */
	const char *const *checks;
	size_t checks_count;
	/* The fixers that repair it (`fixers:`, fixer ids; none: not
	 * fixable).  scripts/gen_catalog.c gives each fixer its rules from
	 * these (wl_fixer_rules, fix/fix.h). */
	const char *const *fixers;
	size_t fixers_count;
} wl_rule_def;

typedef struct wl_catalog wl_catalog;

/**
 * Parses one catalogue document (text of text_len bytes, named name for
 * errors) and adds its rules to *cat (created when *cat is NULL).
 * Returns 0 on success; on error returns -1 and writes
 * "name:line:column: message" into err (errcap bytes).
 */
int wl_catalog_add_yaml(wl_catalog **cat, const char *name, const char *text, size_t text_len,
			char *err, size_t errcap);

/** The catalogue built into the binary (every YAML file of rules/, read at
 *  build time; nothing is parsed here: the rules are catalog_table.h's
 *  tables, not copied).  Returns NULL and fills err when out of memory. */
wl_catalog *wl_catalog_load_builtin(char *err, size_t errcap);

void wl_catalog_free(wl_catalog *cat);

/** Rule by id (text, e.g. from a configuration), or NULL: a binary search. */
const wl_rule_def *wl_catalog_find(const wl_catalog *cat, const char *id);

/** The index i of id for wl_catalog_at (id order), or SIZE_MAX when cat
 *  (may be NULL) lacks it: the same binary search. */
size_t wl_catalog_index(const wl_catalog *cat, const char *id);

/** The catalogue built into the binary, loaded once for the process (never
 *  freed; NULL when it does not load): where a parameter's default comes
 *  from when the caller's catalogue (none, or a test's) lacks the rule. */
const wl_catalog *wl_catalog_builtin(void);

/** Rule by handle (core/rule_ids.h), or NULL when cat lacks it: an array
 *  index. */
const wl_rule_def *wl_catalog_rule(const wl_catalog *cat, wl_rule_id rule);

/** Number of rules, and rule i in id order (0 <= i < count). */
size_t wl_catalog_count(const wl_catalog *cat);
const wl_rule_def *wl_catalog_at(const wl_catalog *cat, size_t i);

/**
 * Catalogue severity of rule r for a file whose targets are m: the highest
 * target_severity over the targets of m that r is about (r->targets); the
 * default severity when m names none of them (m == 0: unknown).  Does not
 * look at opt_in.
 */
wl_severity wl_rule_target_severity(const wl_rule_def *r, wl_target_mask m);

/** True when r is in the default rule set: not opt-in and not off for
 *  every target of its format. */
bool wl_rule_in_default_set(const wl_rule_def *r);

/** The parameter named param of rule r, or NULL (r NULL or no such
 *  parameter). */
const wl_param_def *wl_rule_param(const wl_rule_def *r, const char *param);

/** Default value of a rule's parameter, the rule named by text; fallback
 *  when absent. */
double wl_catalog_param(const wl_catalog *cat, const char *rule, const char *param, double fallback);

#endif
