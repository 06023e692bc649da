/*
 * select.h - the rule selection and targets of the command line
 * (w3dlint --select, --extend-select, --ignore; --target in w3dlint and
 * w3dfix), parsed into a wl_cli_rules (lint/config/config.h).
 */
#ifndef WL_CLI_SELECT_H
#define WL_CLI_SELECT_H

#include "lint/catalog.h"
#include "lint/config/config.h"

typedef struct wl_cli_sel {
	wl_cli_rules rules;  /* its lists point into the arrays below */
	const char **select, **extend, **ignore;
	size_t nselect, nextend, nignore;
	size_t cselect, cextend, cignore;  /* their capacities (core/grow.h) */
} wl_cli_sel;

/* Which list an argument goes to. */
enum { WL_SEL_SELECT, WL_SEL_EXTEND, WL_SEL_IGNORE };

/** Appends the comma-separated items of arg (modified in place, leading
 *  blanks and empty items skipped) to *list (*n entries, room for *cap,
 *  grown through wl_grow).  Returns 0, -1 when out of memory. */
int wl_cli_split_list(const char ***list, size_t *n, size_t *cap, char *arg);

/**
 * Appends the comma-separated rule ids or fnmatch globs of arg (modified in
 * place; it must outlive s) to list which.  Returns 0, -1 when out of
 * memory.
 */
int wl_cli_sel_add(wl_cli_sel *s, int which, char *arg);

/**
 * Parses a --target value (target names, "any", "auto"; comma-separated)
 * into s->rules.target.  Prints "tool: unknown target ..." and returns -1
 * for an unknown name.
 */
int wl_cli_sel_target(wl_cli_sel *s, const char *tool, const char *opt, const char *arg);

/**
 * Checks every id of the lists against cat: an id without glob characters
 * must be a rule, a glob must match one.  Prints "tool: --select: unknown
 * rule id ..." and returns -1 on the first that is not.
 */
int wl_cli_sel_check(const wl_cli_sel *s, const wl_catalog *cat, const char *tool);

void wl_cli_sel_free(wl_cli_sel *s);

#endif
