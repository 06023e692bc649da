/* tests/fix/test_run.c - the w3dfix run of fix/run.h without files to repair:
 * the fixers by id, the rules a repair asks the lint for, the -o output
 * names (two inputs with one name refused, each pair named; distinct names
 * taken) and standard input where it cannot be written, and the exit
 * status of the counts. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix/run.h"

START_TEST(fixer_by_id)
{
	size_t n;
	const wl_fixer *const *fx = wl_fixers(&n);
	ck_assert_uint_gt(n, 0);
	ck_assert_ptr_eq(wl_fixer_by_id(fx[n - 1]->id), fx[n - 1]);
	ck_assert_ptr_null(wl_fixer_by_id("no-such-fixer"));
}
END_TEST

START_TEST(wanted_rules)
{
	size_t n;
	const wl_fixer *const *fx = wl_fixers(&n);
	const wl_fixer *f = fx[0];
	const wl_rule_id *rules = wl_fixer_rules(f);
	size_t nrules = 0;
	while (rules[nrules] != WL_RULE_NONE)
		nrules++;
	ck_assert_uint_gt(nrules, 0);
	const char *select[] = { "chunk-*" };
	const char *force[] = { f->id, "no-such-fixer" };
	const char **list;
	size_t count;
	ck_assert_int_eq(wl_fix_wanted_rules(select, 1, force, 2, &list, &count), 0);
	/* the --select patterns first, then the rules of each fixer named;
	 * an unknown fixer adds nothing */
	ck_assert_uint_eq(count, 1 + nrules);
	ck_assert_str_eq(list[0], "chunk-*");
	for (size_t i = 0; i < nrules; i++)
		ck_assert_str_eq(list[1 + i], wl_rule_name(rules[i]));
	free(list);
	ck_assert_int_eq(wl_fix_wanted_rules(NULL, 0, NULL, 0, &list, &count), 0);
	ck_assert_uint_eq(count, 0);
	free(list);
}
END_TEST

/* A run writing to -o output (nothing is read or written by
 * wl_fixrun_set_files), its messages into *diag. */
static wl_fixrun *new_run(const char *output, bool in_place, char **diag, size_t *len, FILE **fp)
{
	*fp = open_memstream(diag, len);
	ck_assert_ptr_nonnull(*fp);
	wl_fix_options fo = { 0 };
	wl_fixrun_opts o = { .tool = "w3dfix", .in_place = in_place, .output = output, .out = *fp, .diag = *fp };
	wl_fixrun *r = wl_fixrun_new(&fo, &o);
	ck_assert_ptr_nonnull(r);
	return r;
}

START_TEST(output_names_collide)
{
	char *diag;
	size_t len;
	FILE *fp;
	wl_fixrun *r = new_run("/nonexistent-out", false, &diag, &len, &fp);
	const wl_fixrun_item items[] = { { "a/m.w3d", "a/m.w3d" }, { "b/m.w3d", "b/m.w3d" }, { "c/x.w3d", "c" } };
	const char *args[] = { "a/m.w3d", "b/m.w3d", "c" };
	ck_assert_int_eq(wl_fixrun_set_files(r, items, 3, args, 3), -1);
	ck_assert_int_eq(wl_fixrun_status(r), 2);
	fclose(fp);
	ck_assert_str_eq(diag, "w3dfix: a/m.w3d and b/m.w3d would both be written to /nonexistent-out/m.w3d; "
			       "nothing written\n");
	free(diag);
	wl_fixrun_free(r);
}
END_TEST

START_TEST(output_names_distinct)
{
	char *diag;
	size_t len;
	FILE *fp;
	wl_fixrun *r = new_run("/nonexistent-out", false, &diag, &len, &fp);
	const wl_fixrun_item items[] = { { "a/m.w3d", "a" }, { "a/sub/m.w3d", "a" } };
	const char *args[] = { "a" };
	ck_assert_int_eq(wl_fixrun_set_files(r, items, 2, args, 1), 0);
	ck_assert_int_eq(wl_fixrun_status(r), 0);
	fclose(fp);
	ck_assert_str_eq(diag, "");
	free(diag);
	wl_fixrun_free(r);
}
END_TEST

START_TEST(stdin_in_place)
{
	char *diag;
	size_t len;
	FILE *fp;
	wl_fixrun *r = new_run(NULL, true, &diag, &len, &fp);
	const wl_fixrun_item items[] = { { "-", "-" } };
	const char *args[] = { "-" };
	ck_assert_int_eq(wl_fixrun_set_files(r, items, 1, args, 1), -1);
	fclose(fp);
	ck_assert_str_eq(diag, "w3dfix: -: standard input cannot be written in place (use -o FILE)\n");
	free(diag);
	wl_fixrun_free(r);
}
END_TEST

START_TEST(status_counts)
{
	char *diag;
	size_t len;
	FILE *fp;
	wl_fixrun *r = new_run(NULL, false, &diag, &len, &fp);
	ck_assert_int_eq(wl_fixrun_status(r), 0);
	wl_fixrun_summary(r);
	wl_fixrun_count_errors(r, 1);
	ck_assert_int_eq(wl_fixrun_status(r), 2);
	fclose(fp);
	ck_assert_str_eq(diag, "0 files, 0 fixed, 0 unchanged, 0 edits, 0 findings before, 0 after, 0 with findings "
			       "at the failing severity left, 0 verification failures\n");
	free(diag);
	wl_fixrun_free(r);
}
END_TEST

extern Suite *fix_run_suite(void);
Suite *fix_run_suite(void)
{
	Suite *s = suite_create("fix_run");
	TCase *tc = tcase_create("run");
	tcase_add_test(tc, fixer_by_id);
	tcase_add_test(tc, wanted_rules);
	tcase_add_test(tc, output_names_collide);
	tcase_add_test(tc, output_names_distinct);
	tcase_add_test(tc, stdin_in_place);
	tcase_add_test(tc, status_counts);
	suite_add_tcase(s, tc);
	return s;
}
