/*
 * wiring.h - the registrations generated from the rule catalogue: which
 * check functions each format runs and which rules each fixer repairs.
 *
 * A rule's `check:` names the check that reports it (NAME: the function
 * FORMAT_check_NAME, in lint/FORMAT/check_NAME.c) and its `fixers:` the
 * fixers that repair it (rules/FORMAT/FILE.yaml; lint/catalog.h).  At build time
 * scripts/gen_catalog.c writes the two tables below into
 * $(BUILD)/gen/catalog_table.c from those keys, so that a new check or a
 * rule a fixer repairs is wired by its catalogue entry alone
 * (CONTRIBUTING.md, "A new rule").  tests/fix/test_fixable.c checks that the
 * fixers named exist and agree with each rule's `fixable:`.
 */
#ifndef WL_WIRING_H
#define WL_WIRING_H

#include <stddef.h>

#include "core/rule_ids.h"
#include "lint.h"

/** The check functions of format (a wl_format.name: "w3d"), each once, in
 *  the order of the rules (by id) that first name them; *count set.  An
 *  empty list (count 0) for a format without checks.  The names "reader"
 *  (the format's reader in core/), "xref" (the cross-file checks) and
 *  "engine" (lint/ itself) are no check functions and are left out. */
const wl_check_fn *wl_wired_checks(const char *format, size_t *count);

/** The rules the fixer whose id is fixer_id repairs: every rule whose
 *  `fixers:` names it, in id order, ending with WL_RULE_NONE (just that
 *  when none does).  A binary search over the fixer ids. */
const wl_rule_id *wl_wired_fixer_rules(const char *fixer_id);

#endif
