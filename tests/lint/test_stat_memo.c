/* tests/lint/test_stat_memo.c - remembered stat answers (lint/run/stat_memo.h): the
 * first answer is kept (a file made afterwards stays absent to the memo,
 * not to a NULL memo), the table grows past its first size, and the
 * configuration lookup through a memo finds what the plain one finds. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint/config/config.h"
#include "lint/run/stat_memo.h"

/* A fresh directory under /tmp, with symbolic links resolved. */
static void temp_dir(char *out)
{
	char tmpl[] = "/tmp/w3dlint-memo-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	ck_assert_ptr_nonnull(realpath(tmpl, out));
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(first_answer_kept)
{
	char base[PATH_MAX], p[PATH_MAX + 32];
	temp_dir(base);
	snprintf(p, sizeof p, "%s/later", base);
	wl_stat_memo *m = wl_stat_memo_new();
	ck_assert_ptr_nonnull(m);
	mode_t mode = 0;
	ck_assert_int_eq(wl_stat_memo_mode(m, p, &mode), -1);
	touch(p);
	ck_assert_int_eq(wl_stat_memo_mode(m, p, &mode), -1); /* remembered */
	ck_assert_int_eq(wl_stat_memo_mode(NULL, p, &mode), 0);
	ck_assert(S_ISREG(mode));
	mode = 0;
	ck_assert_int_eq(wl_stat_memo_mode(m, base, &mode), 0);
	ck_assert(S_ISDIR(mode));
	/* Many names: the table grows and keeps every answer. */
	for (int i = 0; i < 300; i++) {
		snprintf(p, sizeof p, "%s/none-%d", base, i);
		ck_assert_int_eq(wl_stat_memo_mode(m, p, &mode), -1);
	}
	mode = 0;
	ck_assert_int_eq(wl_stat_memo_mode(m, base, &mode), 0);
	ck_assert(S_ISDIR(mode));
	snprintf(p, sizeof p, "%s/later", base);
	ck_assert_int_eq(wl_stat_memo_mode(m, p, &mode), -1);
	wl_stat_memo_free(m);
	ck_assert_int_eq(remove(p), 0);
	ck_assert_int_eq(rmdir(base), 0);
}
END_TEST

START_TEST(locate_through_memo)
{
	char base[PATH_MAX], p[PATH_MAX + 64], a[PATH_MAX], b[PATH_MAX];
	temp_dir(base);
	snprintf(p, sizeof p, "%s/.w3dlint.yaml", base);
	touch(p);
	snprintf(p, sizeof p, "%s/x", base);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof p, "%s/x/m.w3d", base);
	wl_stat_memo *m = wl_stat_memo_new();
	for (int k = 0; k < 2; k++) { /* the second time from the memo */
		ck_assert_int_eq(wl_config_locate_memo(p, a, sizeof a, m), 1);
		ck_assert_int_eq(wl_config_locate(p, b, sizeof b), 1);
		ck_assert_str_eq(a, b);
	}
	wl_stat_memo_free(m);
	snprintf(p, sizeof p, "%s/x", base);
	ck_assert_int_eq(rmdir(p), 0);
	snprintf(p, sizeof p, "%s/.w3dlint.yaml", base);
	ck_assert_int_eq(remove(p), 0);
	ck_assert_int_eq(rmdir(base), 0);
}
END_TEST

/* Declared here for -Wmissing-prototypes (written so that the suite list
 * generator, which matches definitions at the start of a line, skips it). */
extern Suite *stat_memo_suite(void);

Suite *stat_memo_suite(void)
{
	Suite *s = suite_create("stat_memo");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, first_answer_kept);
	tcase_add_test(tc, locate_through_memo);
	suite_add_tcase(s, tc);
	return s;
}
