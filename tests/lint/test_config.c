/* tests/lint/test_config.c - user configuration (lint/config/config.c): overrides, the
 * shorthand, every kind of error with its line and column, defaults without
 * a configuration, finding .w3dlint.yaml by walking up directories, select
 * and ignore globs, per-path ignores and their path globs, and extends
 * (merging, chains, cycles, depth).  Custom rules: tests/lint/test_custom_rules.c. */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint/config/config.h"
#include "lint/lint.h"
#include "tests/build/robust_util.h"

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

/* Parses text, which must be accepted, and asserts the severity of rule
 * and, when rule2 is not NULL, that of rule2. */
static void expect_severity(const wl_catalog *cat, const char *text, const char *rule, wl_severity want,
			    const char *rule2, wl_severity want2)
{
	wl_config *cfg = parse(cat, text);
	ck_assert_msg(cfg != NULL, "%s", err);
	wl_severity got = wl_config_severity(cfg, cat, rule);
	ck_assert_msg(got == want, "%s: %s is %d, expected %d", text, rule, (int)got, (int)want);
	if (rule2) {
		got = wl_config_severity(cfg, cat, rule2);
		ck_assert_msg(got == want2, "%s: %s is %d, expected %d", text, rule2, (int)got, (int)want2);
	}
	wl_config_free(cfg);
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

/* Asserts that loading the configuration file path fails with exactly the
 * message fmt formats. */
static void expect_load_error(const wl_catalog *cat, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void expect_load_error(const wl_catalog *cat, const char *path, const char *fmt, ...)
{
	char want[5 * PATH_MAX + 256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(want, sizeof want, fmt, ap);
	va_end(ap);
	ck_assert_ptr_null(wl_config_load(cat, path, err, sizeof err));
	ck_assert_str_eq(err, want);
}

/* Asserts that the configuration file path loads, with fail-on want. */
static void expect_load_fail_on(const wl_catalog *cat, const char *path, wl_severity want)
{
	wl_config *cfg = wl_config_load(cat, path, err, sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_int_eq(wl_config_fail_on(cfg), want);
	wl_config_free(cfg);
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
	ck_assert_double_eq(wl_config_param_named(cfg, cat, "quat-rule", "tolerance", 9), 0.01);
	/* Not overridden: the catalogue default, then the fallback. */
	ck_assert_double_eq(wl_config_param_named(cfg, cat, "quat-rule", "limit", 9), 4);
	ck_assert_double_eq(wl_config_param_named(cfg, cat, "quat-rule", "other", 9), 9);
	ck_assert_double_eq(wl_config_param_named(cfg, cat, "plain-rule", "tolerance", 9), 9);
	ck_assert_int_eq(wl_config_fail_on(cfg), WL_SEV_WARNING);
	ck_assert_str_eq(wl_config_path(cfg), "");
	wl_config_free(cfg);

	/* params only: the severity stays the catalogue's. */
	cfg = parse(cat, "rules:\n  quat-rule:\n    params: {limit: 8}\n");
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_int_eq(wl_config_severity(cfg, cat, "quat-rule"), WL_SEV_ERROR);
	ck_assert_double_eq(wl_config_param_named(cfg, cat, "quat-rule", "limit", 0), 8);
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
	ck_assert_double_eq(wl_config_param_named(NULL, cat, "quat-rule", "tolerance", 9), 0.001);
	ck_assert_int_eq(wl_config_fail_on(NULL), WL_SEV_ERROR);
	ck_assert_str_eq(wl_config_path(NULL), "");
	wl_config_free(NULL);

	/* An empty file, or one holding only comments, is a valid empty
	 * configuration; so is "rules:" with nothing under it. */
	const char *empties[] = { "", "# nothing\n", "rules:\n", "rules: {}\n" };
	for (size_t i = 0; i < sizeof empties / sizeof *empties; i++) {
		expect_severity(cat, empties[i], "plain-rule", WL_SEV_WARNING, "quat-rule", WL_SEV_ERROR);
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

START_TEST(memory_cap_key)
{
	wl_catalog *cat = test_catalog();
	wl_config *cfg = parse(cat, "memory-cap: 512M\n");
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_uint_eq(wl_config_memory_cap(cfg), (uint64_t)512 << 20);
	wl_config_free(cfg);
	cfg = parse(cat, "memory-cap: 1048576\n");
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_uint_eq(wl_config_memory_cap(cfg), 1048576);
	wl_config_free(cfg);
	cfg = parse(cat, "fail-on: error\n");
	ck_assert_uint_eq(wl_config_memory_cap(cfg), 0);
	wl_config_free(cfg);
	expect_error("memory-cap: lots\n", "c.yaml:1:13: memory-cap: bad size 'lots' (expected bytes, "
		     "or a count with K, M, G or T, e.g. 512M)");
	expect_error("memory-cap: 0\n", "c.yaml:1:13: memory-cap: bad size '0' (expected bytes, "
		     "or a count with K, M, G or T, e.g. 512M)");
	wl_catalog_free(cat);
}
END_TEST

START_TEST(error_unknown_top_key)
{
	expect_error("rules: {}\nfail_on: error\n",
		     "c.yaml:2:1: unknown key 'fail_on' (expected extends, custom-rules, rules, select, "
		     "extend-select, ignore, per-path-ignores, fail-on, target, base or memory-cap)");
	expect_error("- rules\n", "c.yaml:1:1: a configuration must be a mapping (keys: extends, "
		     "custom-rules, rules, select, extend-select, ignore, per-path-ignores, fail-on, target, base or memory-cap)");
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
	/* A typo or two from a rule id: the nearest id is suggested, in rules:
	 * and in select/ignore lists; far from every id: none (above). */
	expect_error("rules:\n  plain-rul: off\n", "c.yaml:2:3: unknown rule id 'plain-rul'; did you mean 'plain-rule'?");
	expect_error("rules:\n  plian-rule: off\n", "c.yaml:2:3: unknown rule id 'plian-rule'; did you mean 'plain-rule'?");
	expect_error("select: [quat-rul]\n", "c.yaml:1:10: select: unknown rule id 'quat-rul'; did you mean 'quat-rule'?");
	expect_error("rules:\n  pxxxx-rule: off\n", "c.yaml:2:3: unknown rule id 'pxxxx-rule'");
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

/* Removes the n entries rel[i] of base, in order, then base itself. */
static void remove_all(const char *base, const char *const *rel, size_t n)
{
	for (size_t i = 0; i < n; i++)
		remove_rel(base, rel[i]);
	ck_assert_int_eq(rmdir(base), 0);
}

/* A fresh directory under /tmp, with symbolic links resolved. */
static void temp_dir(char *out)
{
	char tmpl[] = "/tmp/w3dlint-config-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	ck_assert_ptr_nonnull(realpath(tmpl, out));
}

/* wl_config_locate on base/rel: the configuration base/want_rel, or none
 * when want_rel is NULL. */
static void expect_locate(const char *base, const char *rel, const char *want_rel)
{
	char file[PATH_MAX + 64], out[PATH_MAX], want[PATH_MAX + 64];
	snprintf(file, sizeof file, "%s/%s", base, rel);
	int found = wl_config_locate(file, out, sizeof out);
	ck_assert_msg(found == (want_rel != NULL), "%s: found %d", rel, found);
	if (want_rel) {
		snprintf(want, sizeof want, "%s/%s", base, want_rel);
		ck_assert_str_eq(out, want);
	}
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

	/* No config inside the repository: the walk stops at its root. */
	snprintf(file, sizeof file, "%s/repo/art/units/tank.w3d", base);
	ck_assert_int_eq(wl_config_locate(file, out, sizeof out), 0);
	ck_assert_str_eq(out, "");

	make_file(base, "repo/.w3dlint.yaml", "rules: {}\n");
	expect_locate(base, "repo/art/units/tank.w3d", "repo/.w3dlint.yaml");
	/* Too small an output buffer: not found rather than a cut path. */
	char small[8];
	ck_assert_int_eq(wl_config_locate(file, small, sizeof small), 0);

	/* The nearest one wins; a relative path with ".." works too. */
	make_file(base, "repo/art/.w3dlint.yaml", "");
	expect_locate(base, "repo/art/units/../units/tank.w3d", "repo/art/.w3dlint.yaml");

	/* A directory is its own starting point. */
	expect_locate(base, "repo/art", "repo/art/.w3dlint.yaml");

	/* A .git file also marks a repository root. */
	expect_locate(base, "repo/sub/m/x.w3d", NULL);

	/* Outside the repository the walk reaches base's config. */
	make_dir(base, "loose");
	make_dir(base, "loose/deep");
	expect_locate(base, "loose/deep/z.w3d", ".w3dlint.yaml");
	/* A directory that does not exist: nothing found. */
	expect_locate(base, "missing/z.w3d", NULL);

	/* Load the located file: the path is recorded. */
	snprintf(want, sizeof want, "%s/.w3dlint.yaml", base);
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
	remove_all(base, cleanup, sizeof cleanup / sizeof *cleanup);
}
END_TEST

START_TEST(load_errors_name_the_file)
{
	char base[PATH_MAX], path[PATH_MAX + 32];
	temp_dir(base);
	wl_catalog *cat = test_catalog();
	snprintf(path, sizeof path, "%s/.w3dlint.yaml", base);

	expect_load_error(cat, path, "%s: cannot open: No such file or directory", path);

	make_file(base, ".w3dlint.yaml", "rules:\n  plain-rule: loud\n");
	expect_load_error(cat, path, "%s:2:15: rule 'plain-rule': bad severity 'loud' (expected error, "
			  "warning, info or off)", path);

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

/* ------------------------------------------------ select / ignore (globs) */

START_TEST(select_and_ignore_globs)
{
	wl_catalog *cat = test_catalog();
	/* select: only the rules a glob matches; the rest are off. */
	expect_severity(cat, "select: [\"quat-*\"]\n", "quat-rule", WL_SEV_ERROR, "plain-rule", WL_SEV_OFF);

	/* ignore wins over a severity set in rules; a near miss stays on. */
	expect_severity(cat, "ignore: [pla?n-rule]\nrules:\n  plain-rule: error\n", "plain-rule", WL_SEV_OFF,
			"quat-rule", WL_SEV_ERROR);

	/* One scalar instead of a list; an empty select selects everything;
	 * select keeps the override's severity. */
	expect_severity(cat, "select: plain-rule\nrules: {plain-rule: info}\n", "plain-rule", WL_SEV_INFO,
			"quat-rule", WL_SEV_OFF);
	expect_severity(cat, "select: []\n", "quat-rule", WL_SEV_ERROR, "plain-rule", WL_SEV_WARNING);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(select_keeps_engine_rules)
{
	static const char rules[] =
		"rules:\n"
		"  - {id: out-of-memory, category: chunk, severity: error, fixable: \"no\", summary: s, explanation: x}\n"
		"  - {id: other-rule, category: chunk, severity: error, fixable: \"no\", summary: s, explanation: x}\n";
	wl_catalog *cat = NULL;
	ck_assert_int_eq(wl_catalog_add_yaml(&cat, "t.yaml", rules, strlen(rules), err, sizeof err), 0);
	expect_severity(cat, "select: [other-*]\n", "out-of-memory", WL_SEV_ERROR, NULL, WL_SEV_OFF);
	/* ... but an explicit ignore does. */
	expect_severity(cat, "ignore: [out-of-memory]\n", "out-of-memory", WL_SEV_OFF, NULL, WL_SEV_OFF);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(error_select_ignore)
{
	expect_error("select: [quat-rule, no-such-rule]\n", "c.yaml:1:21: select: unknown rule id 'no-such-rule'");
	expect_error("ignore:\n  - \"aabtree-*\"\n",
		     "c.yaml:2:5: ignore: pattern 'aabtree-*' matches no rule id");
	expect_error("select: {quat-rule: 1}\n", "c.yaml:1:9: select must be a list of rule ids or globs");
	expect_error("ignore: [[plain-rule]]\n", "c.yaml:1:10: ignore must be a scalar, not a sequence");
	expect_error("ignore: [\"\"]\n", "c.yaml:1:10: ignore: empty rule id");
}
END_TEST

/* ------------------------------------------------------- path globs */

START_TEST(path_glob_matching)
{
	static const struct {
		const char *pattern, *path;
		int want;
	} cases[] = {
		{ "art/legacy/**", "art/legacy/tank.w3d", 1 },
		{ "art/legacy/**", "art/legacy/deep/er/tank.w3d", 1 },
		{ "art/legacy/**", "art/legacyx/tank.w3d", 0 },
		{ "art/legacy/**", "art/tank.w3d", 0 },
		{ "art/legacy", "art/legacy/tank.w3d", 1 },   /* a folder: all below */
		{ "art/*.w3d", "art/tank.w3d", 1 },
		{ "art/*.w3d", "art/sub/tank.w3d", 0 },      /* '*' stays in one segment */
		{ "art/t?nk.w3d", "art/tank.w3d", 1 },
		{ "art/[st]ank.w3d", "art/bank.w3d", 0 },
		{ "**/tank.w3d", "tank.w3d", 1 },            /* '**' matches zero segments */
		{ "**/tank.w3d", "a/b/c/tank.w3d", 1 },
		{ "**/tank.w3d", "a/b/c/tank.w3d.bak", 0 },
		{ "a/**/b/**/c", "a/b/c", 1 },
		{ "a/**/b/**/c", "a/x/b/y/z/c", 1 },
		{ "a/**/b/**/c", "a/x/c", 0 },
		{ "**", "anything/at/all.w3d", 1 },
		{ "tmp", "tmpx/a.w3d", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		ck_assert_msg(wl_path_glob_match(cases[i].pattern, cases[i].path) == cases[i].want,
			      "%s vs %s: want %d", cases[i].pattern, cases[i].path, cases[i].want);

	/* Many '**' against a deep path that does not match: linear work
	 * (dynamic programming), answered at once. */
	char deep[2 * 400 + 8];
	size_t at = 0;
	for (int i = 0; i < 400; i++) {
		deep[at++] = 'd';
		deep[at++] = '/';
	}
	memcpy(deep + at, "x.w3d", 6);
	ck_assert_int_eq(wl_path_glob_match("**/**/**/**/**/**/**/**/**/z/**/y.w3d", deep), 0);
	ck_assert_int_eq(wl_path_glob_match("**/**/**/**/**/**/**/**/**/d/**/x.w3d", deep), 1);
}
END_TEST

START_TEST(file_key_is_absolute)
{
	char cwd[PATH_MAX], want[PATH_MAX + 64];
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	char *k = wl_config_file_key("no-such-dir-w3dlint/./b/../c.w3d");
	ck_assert_ptr_nonnull(k);
	snprintf(want, sizeof want, "%s/no-such-dir-w3dlint/c.w3d", cwd);
	ck_assert_str_eq(k, want);
	free(k);
	k = wl_config_file_key("/no-such-dir-w3dlint//x/../../y.w3d");
	ck_assert_str_eq(k, "/y.w3d");
	free(k);
	ck_assert_ptr_null(wl_config_file_key(NULL));
}
END_TEST

#define PROJ "/no-such-dir-w3dlint-proj"

/* Effective severity of rule for the file at path (made a key). */
static wl_severity sev_for(const wl_config *cfg, const wl_catalog *cat, const char *rule,
			   const char *path)
{
	char *k = wl_config_file_key(path);
	ck_assert_ptr_nonnull(k);
	wl_severity s = wl_config_severity_at(cfg, cat, rule, k);
	free(k);
	return s;
}

START_TEST(per_path_ignores)
{
	wl_catalog *cat = test_catalog();
	err[0] = 0;
	static const char text[] =
		"per-path-ignores:\n"
		"  \"art/legacy/**\": [\"plain-*\"]\n"
		"  tmp: [\"*\"]\n"
		"  \"*_lod2.w3d\": quat-rule\n";
	wl_config *cfg = wl_config_parse(cat, PROJ "/c.yaml", text, strlen(text), err, sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert(wl_config_has_path_ignores(cfg));
	/* fires */
	ck_assert_int_eq(sev_for(cfg, cat, "plain-rule", PROJ "/art/legacy/a.w3d"), WL_SEV_OFF);
	ck_assert_int_eq(sev_for(cfg, cat, "quat-rule", PROJ "/tmp/x/a.w3d"), WL_SEV_OFF);
	ck_assert_int_eq(sev_for(cfg, cat, "plain-rule", PROJ "/tmp/a.w3d"), WL_SEV_OFF);
	ck_assert_int_eq(sev_for(cfg, cat, "quat-rule", PROJ "/deep/er/tank_lod2.w3d"), WL_SEV_OFF);
	/* near misses: another rule, another folder, outside the config's folder */
	ck_assert_int_eq(sev_for(cfg, cat, "quat-rule", PROJ "/art/legacy/a.w3d"), WL_SEV_ERROR);
	ck_assert_int_eq(sev_for(cfg, cat, "plain-rule", PROJ "/art/new/a.w3d"), WL_SEV_WARNING);
	ck_assert_int_eq(sev_for(cfg, cat, "plain-rule", "/elsewhere/art/legacy/a.w3d"), WL_SEV_WARNING);
	ck_assert_int_eq(sev_for(cfg, cat, "plain-rule", PROJ "/deep/er/tank_lod2.w3d"), WL_SEV_WARNING);
	/* without a file key per-path ignores do not apply */
	ck_assert_int_eq(wl_config_severity_at(cfg, cat, "plain-rule", NULL), WL_SEV_WARNING);
	ck_assert_int_eq(wl_config_severity(cfg, cat, "quat-rule"), WL_SEV_ERROR);
	wl_config_free(cfg);

	cfg = parse(cat, "rules: {}\n");
	ck_assert(!wl_config_has_path_ignores(cfg));
	wl_config_free(cfg);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(error_per_path_ignores)
{
	expect_error("per-path-ignores:\n  \"../other/**\": [plain-rule]\n",
		     "c.yaml:2:3: per-path-ignores: '../other/**': '..' is not allowed (paths are "
		     "relative to the configuration's folder and stay inside it)");
	expect_error("per-path-ignores:\n  art: [nope]\n",
		     "c.yaml:2:9: per-path-ignores 'art': unknown rule id 'nope'");
	expect_error("per-path-ignores:\n  \"./\": [plain-rule]\n",
		     "c.yaml:2:3: per-path-ignores: empty path pattern './'");
	expect_error("per-path-ignores: [art]\n",
		     "c.yaml:1:19: 'per-path-ignores' must be a mapping of path pattern to a list of "
		     "rule ids or globs");
}
END_TEST

/* --------------------------------------------------------------- extends */

START_TEST(extends_merges_and_chains)
{
	char base[PATH_MAX], path[PATH_MAX + 32];
	temp_dir(base);
	wl_catalog *cat = test_catalog();
	make_dir(base, "team");
	/* team/base.yaml extends team/root.yaml; child.yaml extends team/base.yaml */
	make_file(base, "team/root.yaml", "fail-on: info\nrules:\n  quat-rule:\n    params: {limit: 3}\n");
	make_file(base, "team/base.yaml",
		  "extends: root.yaml\n"
		  "fail-on: warning\n"
		  "ignore: [plain-rule]\n"
		  "select: [\"quat-*\", \"plain-*\"]\n"
		  "per-path-ignores: {legacy: [quat-rule]}\n"
		  "rules:\n  quat-rule:\n    params: {tolerance: 0.5, limit: 7}\n");
	make_file(base, "child.yaml",
		  "rules:\n  quat-rule:\n    severity: info\n    params: {limit: 9}\n"
		  "extends: [team/base.yaml]\n");
	snprintf(path, sizeof path, "%s/child.yaml", base);
	wl_config *cfg = wl_config_load(cat, path, err, sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_double_eq(wl_config_param_named(cfg, cat, "quat-rule", "tolerance", 0), 0.5); /* inherited */
	ck_assert_double_eq(wl_config_param_named(cfg, cat, "quat-rule", "limit", 0), 9);       /* overridden */
	ck_assert_int_eq(wl_config_severity(cfg, cat, "quat-rule"), WL_SEV_INFO);
	ck_assert_int_eq(wl_config_severity(cfg, cat, "plain-rule"), WL_SEV_OFF);         /* ignore kept */
	ck_assert_int_eq(wl_config_fail_on(cfg), WL_SEV_WARNING);  /* base over root */
	ck_assert_str_eq(wl_config_path(cfg), path);
	/* per-path globs are relative to the file declaring them (team/) */
	char f[PATH_MAX + 64];
	snprintf(f, sizeof f, "%s/team/legacy/a.w3d", base);
	ck_assert_int_eq(sev_for(cfg, cat, "quat-rule", f), WL_SEV_OFF);
	snprintf(f, sizeof f, "%s/legacy/a.w3d", base);
	ck_assert_int_eq(sev_for(cfg, cat, "quat-rule", f), WL_SEV_INFO);
	wl_config_free(cfg);

	/* select of the later file replaces the inherited one */
	make_file(base, "child.yaml", "extends: team/base.yaml\nselect: [plain-rule]\nfail-on: error\n");
	cfg = wl_config_load(cat, path, err, sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_int_eq(wl_config_severity(cfg, cat, "quat-rule"), WL_SEV_OFF);
	ck_assert_int_eq(wl_config_fail_on(cfg), WL_SEV_ERROR);
	wl_config_free(cfg);

	static const char *const cleanup[] = { "child.yaml", "team/base.yaml", "team/root.yaml", "team" };
	remove_all(base, cleanup, sizeof cleanup / sizeof *cleanup);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(extends_errors_name_the_file)
{
	char base[PATH_MAX], path[PATH_MAX + 32];
	temp_dir(base);
	wl_catalog *cat = test_catalog();
	snprintf(path, sizeof path, "%s/a.yaml", base);

	/* a cycle a -> b -> a, reported where b names a */
	make_file(base, "a.yaml", "extends: b.yaml\n");
	make_file(base, "b.yaml", "rules: {}\nextends: a.yaml\n");
	expect_load_error(cat, path, "%s/b.yaml:2:10: extends cycle: %s/a.yaml -> %s/b.yaml -> %s/a.yaml",
			  base, base, base, base);

	/* a file extending itself */
	make_file(base, "a.yaml", "extends: ./a.yaml\n");
	expect_load_error(cat, path, "%s/a.yaml:1:10: extends cycle: %s/a.yaml -> %s/./a.yaml", base, base,
			  base);

	/* near miss: a diamond (two files extending the same base) is no cycle */
	make_file(base, "a.yaml", "extends: [b.yaml, c.yaml]\n");
	make_file(base, "b.yaml", "extends: d.yaml\n");
	make_file(base, "c.yaml", "extends: d.yaml\n");
	make_file(base, "d.yaml", "fail-on: info\n");
	expect_load_fail_on(cat, path, WL_SEV_INFO);

	/* a missing file */
	make_file(base, "a.yaml", "fail-on: info\nextends: nope.yaml\n");
	expect_load_error(cat, path, "%s/a.yaml:2:10: extends: cannot open '%s/nope.yaml': "
			  "No such file or directory", base, base);

	/* an error inside the extended file names that file */
	make_file(base, "a.yaml", "extends: b.yaml\n");
	make_file(base, "b.yaml", "rules:\n  plain-rule: loud\n");
	expect_load_error(cat, path, "%s/b.yaml:2:15: rule 'plain-rule': bad severity 'loud' "
			  "(expected error, warning, info or off)", base);

	/* extends: not a path */
	make_file(base, "a.yaml", "extends: {b: 1}\n");
	expect_load_error(cat, path, "%s/a.yaml:1:10: extends must be a scalar, not a mapping", base);

	static const char *const cleanup[] = { "a.yaml", "b.yaml", "c.yaml", "d.yaml" };
	remove_all(base, cleanup, sizeof cleanup / sizeof *cleanup);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(extends_depth_is_bounded)
{
	char base[PATH_MAX], path[PATH_MAX + 32], name[32], text[64];
	temp_dir(base);
	/* f0 -> f1 -> ... -> f40: deeper than WL_CONFIG_EXTENDS_MAX */
	for (int i = 0; i <= 40; i++) {
		snprintf(name, sizeof name, "f%d.yaml", i);
		snprintf(text, sizeof text, i < 40 ? "extends: f%d.yaml\n" : "fail-on: info\n", i + 1);
		make_file(base, name, text);
	}
	snprintf(path, sizeof path, "%s/f0.yaml", base);
	ck_assert_ptr_null(wl_config_load(NULL, path, err, sizeof err));
	ck_assert_msg(strstr(err, "extends: chain deeper than 16 files") != NULL, "%s", err);
	/* near miss: 16 files read through extends (f25..f40) */
	snprintf(path, sizeof path, "%s/f24.yaml", base);
	expect_load_fail_on(NULL, path, WL_SEV_INFO);
	for (int i = 0; i <= 40; i++) {
		snprintf(name, sizeof name, "f%d.yaml", i);
		remove_rel(base, name);
	}
	ck_assert_int_eq(rmdir(base), 0);
}
END_TEST

/* target:, extend-select:, base: and the selection of the command line
 * (wl_config_severity_for): opt-in rules and rules off for the file's
 * targets run only when named. */
START_TEST(targets_select_base)
{
	static const char rules[] =
		"format: b3d\n"
		"rules:\n"
		"  - {id: t-rule, category: quality, severity: warning, fixable: \"no\", summary: s, explanation: e,\n"
		"     targets: {luanti: \"off\", assimp: error}}\n"
		"  - {id: o-rule, category: quality, severity: info, fixable: \"no\", summary: s, explanation: e,\n"
		"     opt-in: true}\n"
		"  - {id: p-rule, category: quality, severity: warning, fixable: \"no\", summary: s, explanation: e}\n";
	wl_catalog *cat = NULL;
	ck_assert_int_eq(wl_catalog_add_yaml(&cat, "t.yaml", rules, strlen(rules), err, sizeof err), 0);
	wl_target_mask lu = (wl_target_mask)1 << wl_target_find("luanti");
	wl_target_mask as = (wl_target_mask)1 << wl_target_find("assimp");
	/* no configuration, no command line */
	ck_assert_int_eq(wl_config_severity_for(NULL, NULL, cat, "t-rule", NULL, lu), WL_SEV_OFF);
	ck_assert_int_eq(wl_config_severity_for(NULL, NULL, cat, "t-rule", NULL, as), WL_SEV_ERROR);
	ck_assert_int_eq(wl_config_severity_for(NULL, NULL, cat, "o-rule", NULL, as), WL_SEV_OFF);
	ck_assert_int_eq(wl_config_severity_for(NULL, NULL, cat, "o-rule", NULL, 0), WL_SEV_INFO);
	/* extend-select names them: default severity; the others stay */
	wl_config *cfg = parse(cat, "extend-select: [t-rule, o-*]\ntarget: [luanti]\nbase: [../game]\n");
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_int_eq(wl_config_severity_for(cfg, NULL, cat, "t-rule", NULL, lu), WL_SEV_WARNING);
	ck_assert_int_eq(wl_config_severity_for(cfg, NULL, cat, "o-rule", NULL, lu), WL_SEV_INFO);
	ck_assert_int_eq(wl_config_severity_for(cfg, NULL, cat, "p-rule", NULL, lu), WL_SEV_WARNING);
	ck_assert_uint_eq(wl_config_target(cfg), lu);
	ck_assert_uint_eq(wl_config_base_count(cfg), 1);
	ck_assert(strstr(wl_config_base_at(cfg, 0), "/../game") != NULL);
	wl_config_free(cfg);
	/* the command line: --select replaces, --ignore removes */
	const char *sel[] = { "o-rule" }, *ign[] = { "p-*" };
	wl_cli_rules cli = { sel, 1, NULL, 0, NULL, 0, 0 };
	ck_assert_int_eq(wl_config_severity_for(NULL, &cli, cat, "o-rule", NULL, as), WL_SEV_INFO);
	ck_assert_int_eq(wl_config_severity_for(NULL, &cli, cat, "t-rule", NULL, as), WL_SEV_OFF);
	wl_cli_rules cli2 = { NULL, 0, NULL, 0, ign, 1, 0 };
	ck_assert_int_eq(wl_config_severity_for(NULL, &cli2, cat, "p-rule", NULL, as), WL_SEV_OFF);
	ck_assert_int_eq(wl_config_severity_for(NULL, &cli2, cat, "t-rule", NULL, as), WL_SEV_ERROR);
	/* errors */
	ck_assert_ptr_null(parse(cat, "target: quake\n"));
	ck_assert_str_eq(err, "c.yaml:1:9: unknown target 'quake' (auto, any, renegade, generals, bfme, w3dhub, "
			 "luanti, irrlicht, blitz3d, assimp, arma1, arma2, arma3, dayz)");
	ck_assert_ptr_null(parse(cat, "extend-select: [nope]\n"));
	wl_catalog_free(cat);
}
END_TEST

/* wl_lint_param with a file's memo (lint.h) answers as wl_config_param: the
 * configuration's value, another parameter of the same rule, the same name
 * from another address, asked again, every parameter of the catalogue
 * (twice); and once the memo is full (more pairs than it has slots). */
START_TEST(lint_param_memo)
{
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(cat != NULL, "%s", err);
	wl_config *cfg = parse(cat, "rules:\n  triangle-plane:\n    params:\n      normal_tolerance: 0.25\n");
	ck_assert_msg(cfg != NULL, "%s", err);
	wl_param_memo memo = { 0 };
	wl_lint_ctx ctx = { .catalog = cat, .config = cfg, .params = &memo };
	char name[] = "normal_tolerance";
	double dist = wl_config_param(cfg, cat, WLR_TRIANGLE_PLANE, "distance_tolerance");
	ck_assert(dist != 0.25);
	for (int pass = 0; pass < 2; pass++) {
		ck_assert_double_eq(wl_lint_param(&ctx, WLR_TRIANGLE_PLANE, "normal_tolerance"), 0.25);
		ck_assert_double_eq(wl_lint_param(&ctx, WLR_TRIANGLE_PLANE, name), 0.25);
		ck_assert_double_eq(wl_lint_param(&ctx, WLR_TRIANGLE_PLANE, "distance_tolerance"), dist);
	}
	size_t pairs = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < wl_catalog_count(cat); k++) {
			const wl_rule_def *r = wl_catalog_at(cat, k);
			wl_rule_id h = wl_rule_lookup(r->id);
			for (size_t i = 0; i < r->params_count; i++) {
				const char *p = r->params[i].name;
				double want = wl_config_param(cfg, cat, h, p);
				ck_assert_msg(wl_lint_param(&ctx, h, p) == want, "%s %s", r->id, p);
				pairs += pass == 0;
			}
		}
	ck_assert_uint_gt(pairs, 0);
	/* Fill the memo with names the rule has not (NaN) until it is full,
	 * then ask through names it has not seen. */
	static char unknown[2 * WL_PARAM_MEMO_SLOTS][12];
	for (size_t i = 0; i < 2 * WL_PARAM_MEMO_SLOTS; i++) {
		snprintf(unknown[i], sizeof unknown[i], "nope%zu", i);
		ck_assert(isnan(wl_lint_param(&ctx, WLR_TRIANGLE_PLANE, unknown[i])));
	}
	char again[] = "normal_tolerance";
	ck_assert_double_eq(wl_lint_param(&ctx, WLR_TRIANGLE_PLANE, again), 0.25);
	ck_assert_double_eq(wl_lint_param(&ctx, WLR_TRIANGLE_PLANE, "normal_tolerance"), 0.25);
	wl_config_free(cfg);
	wl_catalog_free(cat);
}
END_TEST

extern Suite *config_suite(void);
Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	const TTest *const tc_tests[] = {
		overrides_severity_and_param, defaults_without_config, error_malformed_yaml,
		error_unknown_top_key, memory_cap_key, error_unknown_rule_id, error_unknown_param,
		error_bad_severity, select_and_ignore_globs, select_keeps_engine_rules,
		error_select_ignore, path_glob_matching, file_key_is_absolute, per_path_ignores,
		error_per_path_ignores, targets_select_base, lint_param_memo, NULL
	};
	t_robust_add_tests(s, "parse", 0, tc_tests);
	const TTest *const fs_tests[] = {
		locate_walks_up_and_stops_at_git, load_errors_name_the_file,
		extends_merges_and_chains, extends_errors_name_the_file, extends_depth_is_bounded,
		NULL
	};
	t_robust_add_tests(s, "files", 0, fs_tests);
	return s;
}
