/*
 * explain.h - the rule catalogue as w3dlint prints it: --list-rules (one
 * rule a line) and --explain ID (one rule's entry: format, severity per
 * target, sources, explanation, parameters).
 */
#ifndef WL_CLI_EXPLAIN_H
#define WL_CLI_EXPLAIN_H

#include <stdio.h>

#include "lint/catalog.h"

/** Lists cat, one rule a line: id, default severity, category, fixable,
 *  "(opt-in) " for the rules outside the default set, summary. */
void wl_cli_list_rules(const wl_catalog *cat, FILE *out);

/**
 * Prints the catalogue entry of rule id to out.  Returns 0, or 2 after
 * "w3dlint: unknown rule id ..." (with the nearest id) on standard error.
 */
int wl_cli_explain_rule(const wl_catalog *cat, const char *id, FILE *out);

#endif
