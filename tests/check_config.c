/* check_config.c - user configuration (lint/config.c): overrides, the
 * shorthand, every kind of error with its line and column, defaults without
 * a configuration, and finding .w3dlint.yaml by walking up directories. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lint/config.h"

static char err[512];

static const char test_rules[] =
	"rules:\n"
	"  - id: quat-rule\n"
	"    category: hierarchy\n"
	"    severity: error\n"
	"    fixable: safe\n"
	"    summary: quaternion not normalised\n"
	"    explanation: x\n"
	"    params:\n"
	"      - name: tolerance\n"
	"        default: 0.001\n"
	"      - name: limit\n"
	"        default: 4\n"
	"  - id: plain-rule\n"
	"    category: chunk\n"
	"    severity: warning\n"
	"    fixable: \"no\"\n"
	"    summary: s\n"
	"    explanation: x\n";

static wl_catalog *test_catalog(void)
{
	wl_catalog *cat = NULL;
	ck_assert_int_eq(wl_catalog_add_yaml(&cat, "t.yaml", test_rules, strlen(test_rules), err,
					     sizeof err), 0);
	return cat;
}

static wl_config *parse(const wl_catalog *cat, const char *text)
{
	err[0] = 0;
	return wl_config_parse(cat, "c.yaml", text, strlen(text), err, sizeof err);
}

/* Asserts that text is rejected with exactly the message want. */
static void expect_error(const char *text, const char *want)
{
	wl_catalog *cat = test_catalog();
	wl_config *cfg = parse(cat, text);
	ck_assert_ptr_null(cfg);
	ck_assert_str_eq(err, want);
	wl_catalog_free(cat);
}

START_TEST(overrides_severity_and_param)
{
	wl_catalog *cat = test_catalog();
	wl_config *cfg = parse(cat,
			       "# project settings\n"
			       "rules:\n"
			       "  quat-rule:\n"
			       "    severity: warning\n"
			       "    params:\n"
			       "      tolerance: 0.01\n"
			       "  plain-rule: off\n"
			       "fail-on: warning\n");
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_int_eq(wl_config_severity(cfg, cat, "quat-rule"), WL_SEV_WARNING);
	ck_assert_int_eq(wl_config_severity(cfg, cat, "plain-rule"), WL_SEV_OFF);
	ck_assert_double_eq(wl_config_param(cfg, cat, "quat-rule", "tolerance", 9), 0.01);
	/* Not overridden: the catalogue default, then the fallback. */
	ck_assert_double_eq(wl_config_param(cfg, cat, "quat-rule", "limit", 9), 4);
	ck_assert_double_eq(wl_config_param(cfg, cat, "quat-rule", "other", 9), 9);
	ck_assert_double_eq(wl_config_param(cfg, cat, "plain-rule", "tolerance", 9), 9);
	ck_assert_int_eq(wl_config_fail_on(cfg), WL_SEV_WARNING);
	ck_assert_str_eq(wl_config_path(cfg), "");
	wl_config_free(cfg);

	/* params only: the severity stays the catalogue's. */
	cfg = parse(cat, "rules:\n  quat-rule:\n    params: {limit: 8}\n");
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_int_eq(wl_config_severity(cfg, cat, "quat-rule"), WL_SEV_ERROR);
	ck_assert_double_eq(wl_config_param(cfg, cat, "quat-rule", "limit", 0), 8);
	ck_assert_int_eq(wl_config_fail_on(cfg), WL_SEV_ERROR);
	wl_config_free(cfg);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(defaults_without_config)
{
	wl_catalog *cat = test_catalog();
	ck_assert_int_eq(wl_config_severity(NULL, cat, "plain-rule"), WL_SEV_WARNING);
	ck_assert_int_eq(wl_config_severity(NULL, cat, "no-such-rule"), WL_SEV_ERROR);
	ck_assert_double_eq(wl_config_param(NULL, cat, "quat-rule", "tolerance", 9), 0.001);
	ck_assert_int_eq(wl_config_fail_on(NULL), WL_SEV_ERROR);
	ck_assert_str_eq(wl_config_path(NULL), "");
	wl_config_free(NULL);

	/* An empty file, or one holding only comments, is a valid empty
	 * configuration; so is "rules:" with nothing under it. */
	const char *empties[] = { "", "# nothing\n", "rules:\n", "rules: {}\n" };
	for (size_t i = 0; i < sizeof empties / sizeof *empties; i++) {
		wl_config *cfg = parse(cat, empties[i]);
		ck_assert_msg(cfg != NULL, "%s", err);
		ck_assert_int_eq(wl_config_severity(cfg, cat, "plain-rule"), WL_SEV_WARNING);
		ck_assert_int_eq(wl_config_severity(cfg, cat, "quat-rule"), WL_SEV_ERROR);
		wl_config_free(cfg);
	}
	wl_catalog_free(cat);
}
END_TEST

START_TEST(error_malformed_yaml)
{
	expect_error("rules:\n  plain-rule: off\n bad\n",
		     "c.yaml:3:2: malformed YAML: did not find expected key while parsing a block mapping");
	expect_error("rules: {plain-rule: off\n",
		     "c.yaml:2:1: malformed YAML: did not find expected ',' or '}' while parsing a flow mapping");
	expect_error("rules: {}\n---\nfail-on: info\n", "c.yaml:3:1: only one YAML document is allowed");
}
END_TEST

START_TEST(error_unknown_top_key)
{
	expect_error("rules: {}\nfail_on: error\n",
		     "c.yaml:2:1: unknown key 'fail_on' (expected rules or fail-on)");
	expect_error("- rules\n", "c.yaml:1:1: a configuration must be a mapping (keys: rules, fail-on)");
	expect_error("rules: [plain-rule]\n", "c.yaml:1:8: 'rules' must be a mapping of rule id to settings");
	expect_error("fail-on: error\nfail-on: info\n",
		     "c.yaml:2:1: duplicate key 'fail-on' (first at line 1)");
	expect_error("rules:\n  plain-rule:\n    severity: info\n    enabled: true\n",
		     "c.yaml:4:5: rule 'plain-rule': unknown key 'enabled' (expected severity or params)");
}
END_TEST

START_TEST(error_unknown_rule_id)
{
	expect_error("rules:\n  plain-rule: info\n  no-such-rule: off\n",
		     "c.yaml:3:3: unknown rule id 'no-such-rule'");
}
END_TEST

START_TEST(error_unknown_param)
{
	expect_error("rules:\n  quat-rule:\n    params:\n      tolerence: 0.1\n",
		     "c.yaml:4:7: rule 'quat-rule' has no parameter 'tolerence' (its parameters: "
		     "tolerance, limit)");
	expect_error("rules:\n  plain-rule:\n    params:\n      limit: 1\n",
		     "c.yaml:4:7: rule 'plain-rule' has no parameter 'limit' (it takes no parameters)");
	expect_error("rules:\n  quat-rule:\n    params:\n      limit: lots\n",
		     "c.yaml:4:14: rule 'quat-rule': parameter 'limit': 'lots' is not a number");
	expect_error("rules:\n  quat-rule:\n    params:\n      limit: \"3\"\n",
		     "c.yaml:4:14: rule 'quat-rule': parameter 'limit': '3' is not a number");
	expect_error("rules:\n  quat-rule:\n    params: [1]\n",
		     "c.yaml:3:13: rule 'quat-rule': params must be a mapping of parameter name to number");
}
END_TEST

START_TEST(error_bad_severity)
{
	expect_error("rules:\n  plain-rule: fatal\n",
		     "c.yaml:2:15: rule 'plain-rule': bad severity 'fatal' (expected error, warning, info or off)");
	expect_error("rules:\n  quat-rule:\n    severity: loud\n",
		     "c.yaml:3:15: rule 'quat-rule': bad severity 'loud' (expected error, warning, info or off)");
	expect_error("fail-on: off\n",
		     "c.yaml:1:10: fail-on: bad severity 'off' (expected error, warning, info)");
	expect_error("rules:\n  plain-rule: [off]\n",
		     "c.yaml:2:15: rule 'plain-rule': expected a severity or a mapping with severity and params");
}
END_TEST

/* Creates a directory or an empty file under base (path relative). */
static void make_dir(const char *base, const char *rel)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/%s", base, rel);
	ck_assert_int_eq(mkdir(p, 0700), 0);
}

static void make_file(const char *base, const char *rel, const char *text)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/%s", base, rel);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void remove_rel(const char *base, const char *rel)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/%s", base, rel);
	ck_assert_int_eq(remove(p), 0);
}

/* A fresh directory under /tmp, with symbolic links resolved. */
static void temp_dir(char *out)
{
	char tmpl[] = "/tmp/w3dlint-config-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	ck_assert_ptr_nonnull(realpath(tmpl, out));
}

START_TEST(locate_walks_up_and_stops_at_git)
{
	char base[PATH_MAX], out[PATH_MAX], want[PATH_MAX + 64], file[PATH_MAX + 64];
	temp_dir(base);
	/* base/.w3dlint.yaml (outside the repository)
	 * base/repo/.git/
	 * base/repo/.w3dlint.yaml         found for base/repo/art/units/tank.w3d
	 * base/repo/art/units/tank.w3d
	 * base/repo/sub/.git              (a file: a submodule) stops the walk
	 * base/repo/sub/m/x.w3d */
	make_file(base, ".w3dlint.yaml", "fail-on: info\n");
	make_dir(base, "repo");
	make_dir(base, "repo/.git");
	make_dir(base, "repo/art");
	make_dir(base, "repo/art/units");
	make_file(base, "repo/art/units/tank.w3d", "");
	make_dir(base, "repo/sub");
	make_file(base, "repo/sub/.git", "gitdir: ../.git/modules/sub\n");
	make_dir(base, "repo/sub/m");

	snprintf(file, sizeof file, "%s/repo/art/units/tank.w3d", base);
	/* No config inside the repository: the walk stops at its root. */
	ck_assert_int_eq(wl_config_locate(file, out, sizeof out), 0);
	ck_assert_str_eq(out, "");

	make_file(base, "repo/.w3dlint.yaml", "rules: {}\n");
	ck_assert_int_eq(wl_config_locate(file, out, sizeof out), 1);
	snprintf(want, sizeof want, "%s/repo/.w3dlint.yaml", base);
	ck_assert_str_eq(out, want);
	/* Too small an output buffer: not found rather than a cut path. */
	char small[8];
	ck_assert_int_eq(wl_config_locate(file, small, sizeof small), 0);

	/* The nearest one wins; a relative path with ".." works too. */
	make_file(base, "repo/art/.w3dlint.yaml", "");
	snprintf(file, sizeof file, "%s/repo/art/units/../units/tank.w3d", base);
	ck_assert_int_eq(wl_config_locate(file, out, sizeof out), 1);
	snprintf(want, sizeof want, "%s/repo/art/.w3dlint.yaml", base);
	ck_assert_str_eq(out, want);

	/* A directory is its own starting point. */
	snprintf(file, sizeof file, "%s/repo/art", base);
	ck_assert_int_eq(wl_config_locate(file, out, sizeof out), 1);
	ck_assert_str_eq(out, want);

	/* A .git file also marks a repository root. */
	snprintf(file, sizeof file, "%s/repo/sub/m/x.w3d", base);
	ck_assert_int_eq(wl_config_locate(file, out, sizeof out), 0);

	/* Outside the repository the walk reaches base's config. */
	make_dir(base, "loose");
	make_dir(base, "loose/deep");
	snprintf(file, sizeof file, "%s/loose/deep/z.w3d", base);
	ck_assert_int_eq(wl_config_locate(file, out, sizeof out), 1);
	snprintf(want, sizeof want, "%s/.w3dlint.yaml", base);
	ck_assert_str_eq(out, want);
	/* A directory that does not exist: nothing found. */
	snprintf(file, sizeof file, "%s/missing/z.w3d", base);
	ck_assert_int_eq(wl_config_locate(file, out, sizeof out), 0);

	/* Load the located file: the path is recorded. */
	char cerr[512];
	wl_config *cfg = wl_config_load(NULL, want, cerr, sizeof cerr);
	ck_assert_msg(cfg != NULL, "%s", cerr);
	ck_assert_str_eq(wl_config_path(cfg), want);
	ck_assert_int_eq(wl_config_fail_on(cfg), WL_SEV_INFO);
	wl_config_free(cfg);

	static const char *const cleanup[] = {
		"loose/deep", "loose", "repo/.w3dlint.yaml", "repo/.git", "repo/sub/m", "repo/sub/.git", "repo/sub", "repo/art/.w3dlint.yaml",
		"repo/art/units/tank.w3d", "repo/art/units", "repo/art", "repo", ".w3dlint.yaml",
	};
	for (size_t i = 0; i < sizeof cleanup / sizeof *cleanup; i++)
		remove_rel(base, cleanup[i]);
	ck_assert_int_eq(rmdir(base), 0);
}
END_TEST

START_TEST(load_errors_name_the_file)
{
	char base[PATH_MAX], path[PATH_MAX + 32], want[PATH_MAX + 128];
	temp_dir(base);
	wl_catalog *cat = test_catalog();
	snprintf(path, sizeof path, "%s/.w3dlint.yaml", base);

	ck_assert_ptr_null(wl_config_load(cat, path, err, sizeof err));
	snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
	ck_assert_str_eq(err, want);

	make_file(base, ".w3dlint.yaml", "rules:\n  plain-rule: loud\n");
	ck_assert_ptr_null(wl_config_load(cat, path, err, sizeof err));
	snprintf(want, sizeof want, "%s:2:15: rule 'plain-rule': bad severity 'loud' (expected error, "
		 "warning, info or off)", path);
	ck_assert_str_eq(err, want);

	make_file(base, ".w3dlint.yaml", "rules:\n  plain-rule: info\n");
	wl_config *cfg = wl_config_load(cat, path, err, sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_int_eq(wl_config_severity(cfg, cat, "plain-rule"), WL_SEV_INFO);
	ck_assert_str_eq(wl_config_path(cfg), path);
	wl_config_free(cfg);

	remove_rel(base, ".w3dlint.yaml");
	ck_assert_int_eq(rmdir(base), 0);
	wl_catalog_free(cat);
}
END_TEST

extern Suite *config_suite(void);
Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, overrides_severity_and_param);
	tcase_add_test(tc, defaults_without_config);
	tcase_add_test(tc, error_malformed_yaml);
	tcase_add_test(tc, error_unknown_top_key);
	tcase_add_test(tc, error_unknown_rule_id);
	tcase_add_test(tc, error_unknown_param);
	tcase_add_test(tc, error_bad_severity);
	suite_add_tcase(s, tc);
	TCase *fs = tcase_create("files");
	tcase_add_test(fs, locate_walks_up_and_stops_at_git);
	tcase_add_test(fs, load_errors_name_the_file);
	suite_add_tcase(s, fs);
	return s;
}
