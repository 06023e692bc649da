/* tests/lint/test_catalog_table.c - the built-in catalogue's pre-built tables
 * (lint/catalog_table.h, written by scripts/gen_catalog.c): every field of
 * every rule equals what the YAML reader makes of rules/ read from disk now,
 * and a document added to the built-in catalogue joins a copy of the
 * tables. */
#include <check.h>
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_io.h"
#include "lint/catalog.h"

static char err[512];

/* Adds every file matching pattern (glob order: sorted, as the Makefile's
 * $(sort ...)) to *cat; returns how many. */
static size_t add_files(wl_catalog **cat, const char *pattern)
{
	glob_t g;
	ck_assert_int_eq(glob(pattern, 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		uint8_t *text = NULL;
		size_t len = 0;
		ck_assert_int_eq(wl_read_file(g.gl_pathv[i], SIZE_MAX, &text, &len), WL_READ_OK);
		ck_assert_msg(wl_catalog_add_yaml(cat, g.gl_pathv[i], (const char *)text, len, err,
						  sizeof err) == 0, "%s", err);
		free(text);
	}
	size_t n = g.gl_pathc;
	globfree(&g);
	return n;
}

static void same_rule(const wl_rule_def *b, const wl_rule_def *d)
{
	ck_assert_str_eq(b->id, d->id);
	ck_assert_str_eq(b->category, d->category);
	ck_assert_int_eq(b->severity, d->severity);
	ck_assert_str_eq(b->fixable, d->fixable);
	ck_assert_str_eq(b->summary, d->summary);
	ck_assert_str_eq(b->explanation, d->explanation);
	ck_assert_str_eq(b->source_file, d->source_file);
	ck_assert_str_eq(b->format, d->format);
	ck_assert_uint_eq(b->params_count, d->params_count);
	for (size_t k = 0; k < d->params_count; k++) {
		ck_assert_str_eq(b->params[k].name, d->params[k].name);
		ck_assert_str_eq(b->params[k].description, d->params[k].description);
		/* bit for bit, not within a tolerance */
		ck_assert_msg(memcmp(&b->params[k].def, &d->params[k].def, sizeof(double)) == 0,
			      "%s %s: %a != %a", d->id, d->params[k].name, b->params[k].def, d->params[k].def);
	}
	ck_assert_uint_eq(b->sources_count, d->sources_count);
	for (size_t k = 0; k < d->sources_count; k++)
		ck_assert_str_eq(b->sources[k], d->sources[k]);
	ck_assert_uint_eq(b->targets, d->targets);
	for (size_t t = 0; t < WL_TARGETS_MAX; t++)
		ck_assert_int_eq(b->target_severity[t], d->target_severity[t]);
	ck_assert_int_eq(b->opt_in, d->opt_in);
}

START_TEST(tables_equal_the_yaml)
{
	wl_catalog *disk = NULL;
	size_t files = add_files(&disk, "rules/*.yaml") + add_files(&disk, "rules/*/*.yaml");
	ck_assert_msg(files > 0, "no rules/ files (run from the repository root)");
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(cat != NULL, "%s", err);
	ck_assert_uint_eq(wl_catalog_count(cat), wl_catalog_count(disk));
	for (size_t i = 0; i < wl_catalog_count(disk); i++)
		same_rule(wl_catalog_at(cat, i), wl_catalog_at(disk, i));
	/* the handle index */
	for (unsigned h = 1; h < WL_RULES_END; h++) {
		const wl_rule_def *r = wl_catalog_rule(cat, (wl_rule_id)h);
		ck_assert_ptr_nonnull(r);
		ck_assert_str_eq(r->id, wl_rule_name((wl_rule_id)h));
	}
	wl_catalog_free(disk);
	wl_catalog_free(cat);
}
END_TEST

/* A document added to the built-in catalogue: the tables are copied, a
 * duplicate id names the built-in rule's file and position, and another
 * built-in catalogue is unchanged. */
START_TEST(document_added_to_builtin)
{
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_ptr_nonnull(cat);
	size_t n = wl_catalog_count(cat);
	const char *extra =
		"rules:\n"
		"  - id: aaa-extra-rule\n"
		"    category: chunk\n"
		"    severity: info\n"
		"    fixable: \"no\"\n"
		"    summary: an extra rule\n"
		"    explanation: why.\n";
	ck_assert_msg(wl_catalog_add_yaml(&cat, "x.yaml", extra, strlen(extra), err, sizeof err) == 0,
		      "%s", err);
	ck_assert_uint_eq(wl_catalog_count(cat), n + 1);
	ck_assert_str_eq(wl_catalog_at(cat, 0)->id, "aaa-extra-rule");
	ck_assert_str_eq(wl_catalog_rule(cat, WLR_CHUNK_TRUNCATED)->id, "chunk-truncated");

	const char *dup =
		"rules:\n"
		"  - id: chunk-truncated\n"
		"    category: chunk\n"
		"    severity: info\n"
		"    fixable: \"no\"\n"
		"    summary: again\n"
		"    explanation: why.\n";
	ck_assert_int_eq(wl_catalog_add_yaml(&cat, "d.yaml", dup, strlen(dup), err, sizeof err), -1);
	ck_assert_msg(strncmp(err, "d.yaml:2:9: duplicate rule id 'chunk-truncated' (first defined at "
			      "rules/chunk.yaml:", 83) == 0, "%s", err);
	wl_catalog_free(cat);

	wl_catalog *again = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_uint_eq(wl_catalog_count(again), n);
	ck_assert_ptr_null(wl_catalog_find(again, "aaa-extra-rule"));
	wl_catalog_free(again);
}
END_TEST

/* Declared here for -Wmissing-prototypes (written so that the suite list
 * generator, which matches definitions at the start of a line, skips it). */
extern Suite *catalog_table_suite(void);

Suite *catalog_table_suite(void)
{
	Suite *s = suite_create("catalog_table");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, tables_equal_the_yaml);
	tcase_add_test(tc, document_added_to_builtin);
	suite_add_tcase(s, tc);
	return s;
}
