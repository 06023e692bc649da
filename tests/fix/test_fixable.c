/*
 * tests/fix/test_fixable.c - the catalogue's `fixable:` agrees with its `fixers:`
 * (lint/catalog.h, fix/fix.h): a rule some safe fixer repairs is "safe", a
 * rule only unsafe fixers repair is "unsafe", a rule no fixer repairs is
 * "none"; every fixer a rule names exists, and every fixer repairs some
 * rule.  A fixer's rules are generated from the `fixers:` keys
 * (lint/wiring.h); its safety is the fixer's own (wl_fixer.unsafe), so
 * this test keeps `fixable:` from drifting apart from it (issue 30).
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/rule_ids.h"
#include "fix/fix.h"
#include "fix/run.h"
#include "lint/catalog.h"

extern Suite *fixable_suite(void);

/* What the fixers make of rule id: "safe", "unsafe" or "none". */
static const char *fixers_say(const char *id)
{
	size_t n;
	const wl_fixer *const *fx = wl_fixers(&n);
	const char *say = "none";
	for (size_t i = 0; i < n; i++)
		for (const wl_rule_id *r = wl_fixer_rules(fx[i]); *r != WL_RULE_NONE; r++)
			if (strcmp(wl_rule_name(*r), id) == 0) {
				if (!fx[i]->unsafe)
					return "safe";
				say = "unsafe";
			}
	return say;
}

/* The rules of cat whose fixable: disagrees with their fixers, each named
 * on stderr when tell. */
static size_t disagreements(const wl_catalog *cat, bool tell)
{
	size_t bad = 0, n = wl_catalog_count(cat);
	for (size_t i = 0; i < n; i++) {
		const wl_rule_def *r = wl_catalog_at(cat, i);
		const char *want = fixers_say(r->id);
		if (strcmp(r->fixable, want) != 0) {
			if (tell)
				fprintf(stderr, "fixable: %s says fixable: %s, but its fixers make it %s\n", r->id,
					r->fixable, want);
			bad++;
		}
	}
	return bad;
}

START_TEST(catalogue_agrees_with_fixers)
{
	const wl_catalog *cat = wl_catalog_builtin();
	ck_assert_ptr_nonnull(cat);
	ck_assert_uint_gt(wl_catalog_count(cat), 200);
	ck_assert_uint_eq(disagreements(cat, true), 0);
}
END_TEST

START_TEST(every_named_fixer_exists)
{
	const wl_catalog *cat = wl_catalog_builtin();
	size_t bad = 0, n = wl_catalog_count(cat);
	for (size_t i = 0; i < n; i++) {
		const wl_rule_def *r = wl_catalog_at(cat, i);
		for (size_t k = 0; k < r->fixers_count; k++)
			if (!wl_fixer_by_id(r->fixers[k])) {
				fprintf(stderr, "fixable: %s names fixer %s, which does not exist\n", r->id,
					r->fixers[k]);
				bad++;
			}
	}
	ck_assert_uint_eq(bad, 0);
	/* and every fixer repairs some rule: one no rule names never runs */
	const wl_fixer *const *fx = wl_fixers(&n);
	ck_assert_uint_gt(n, 0);
	for (size_t i = 0; i < n; i++)
		if (wl_fixer_rules(fx[i])[0] == WL_RULE_NONE) {
			fprintf(stderr, "fixable: no rule names fixer %s in its fixers:\n", fx[i]->id);
			bad++;
		}
	ck_assert_uint_eq(bad, 0);
}
END_TEST

/* The check can fail: the first rule of a safe fixer, declared
 * fixable: none (and, apart, unsafe) in a catalogue of its own, is one
 * disagreement each; declared safe, none. */
static size_t disagreements_as(const char *id, const char *fixable)
{
	char text[512], err[256];
	snprintf(text, sizeof text,
		 "rules:\n  - id: %s\n    category: chunk\n    severity: error\n    fixable: %s\n"
		 "    summary: s\n    explanation: x\n",
		 id, fixable);
	wl_catalog *cat = NULL;
	ck_assert_int_eq(wl_catalog_add_yaml(&cat, "t.yaml", text, strlen(text), err, sizeof err), 0);
	size_t bad = disagreements(cat, false);
	wl_catalog_free(cat);
	return bad;
}

START_TEST(a_disagreement_is_seen)
{
	size_t n;
	const wl_fixer *const *fx = wl_fixers(&n);
	const wl_fixer *safe = NULL;
	for (size_t i = 0; i < n && !safe; i++)
		if (!fx[i]->unsafe && wl_fixer_rules(fx[i])[0] != WL_RULE_NONE)
			safe = fx[i];
	ck_assert_ptr_nonnull(safe);
	const char *id = wl_rule_name(wl_fixer_rules(safe)[0]);
	ck_assert_uint_eq(disagreements_as(id, "none"), 1);
	ck_assert_uint_eq(disagreements_as(id, "unsafe"), 1);
	ck_assert_uint_eq(disagreements_as(id, "safe"), 0);
	/* the older spelling is read as none */
	ck_assert_uint_eq(disagreements_as(id, "\"no\""), 1);
}
END_TEST

Suite *fixable_suite(void)
{
	Suite *s = suite_create("fixable");
	TCase *tc = tcase_create("catalogue");
	tcase_add_test(tc, catalogue_agrees_with_fixers);
	tcase_add_test(tc, every_named_fixer_exists);
	tcase_add_test(tc, a_disagreement_is_seen);
	suite_add_tcase(s, tc);
	return s;
}
