/*
 * tests/lint/test_baseline.c - the baseline file (lint/report/baseline.c): lexical relative
 * paths, loading and its errors, matching (the first recorded findings by
 * offset are baselined, the excess reported), stale entries, recording and
 * saving (merge, sort, idempotence), and the front end's --baseline and
 * --write-baseline end to end ($W3DLINT).
 */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lint/report/baseline.h"
#include "tests/build/w3dbuild.h"
#include "tests/build/robust_util.h"

extern Suite *baseline_suite(void);

/* ------------------------------------------------------------- helpers */

typedef struct tmpdir {
	char path[64];
} tmpdir;

static void tmp_make(tmpdir *t)
{
	strcpy(t->path, "/tmp/w3dlint-baseline-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->path));
}

static void tmp_remove(tmpdir *t)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->path);
	ck_assert_int_eq(system(cmd), 0);
}

static void put_text(const char *dir, const char *name, const char *text)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *fp = fopen(p, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	ck_assert_int_eq(fclose(fp), 0);
}

static char *get_text(const char *dir, const char *name)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *fp = fopen(p, "r");
	ck_assert_ptr_nonnull(fp);
	char *buf = calloc(1, 1 << 16);
	ck_assert_ptr_nonnull(buf);
	size_t n = fread(buf, 1, (1 << 16) - 1, fp);
	buf[n] = 0;
	fclose(fp);
	return buf;
}

static wl_baseline *load(const char *dir, const char *name, bool missing_ok)
{
	char p[256], err[512] = "";
	snprintf(p, sizeof p, "%s/%s", dir, name);
	wl_baseline *b = wl_baseline_load(p, missing_ok, err, sizeof err);
	ck_assert_msg(b != NULL, "%s", err);
	return b;
}

/* Writes text as dir/bl.json and loads it. */
static wl_baseline *load_text(const char *dir, const char *text, bool missing_ok)
{
	put_text(dir, "bl.json", text);
	return load(dir, "bl.json", missing_ok);
}

/* The key of dir/name. */
static char *key_of(const wl_baseline *b, const char *dir, const char *name)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	char *k = wl_baseline_key(b, p);
	ck_assert_ptr_nonnull(k);
	return k;
}

/* n findings of rule at offsets base, base + 10, ... */
static void fill(wl_finding *f, size_t n, const char *rule, uint64_t base)
{
	for (size_t i = 0; i < n; i++) {
		memset(&f[i], 0, sizeof f[i]);
		f[i].rule = rule;
		f[i].severity = WL_SEV_ERROR;
		f[i].offset = base + 10 * i;
		f[i].message = "m";
	}
}

/* ---------------------------------------------------------------- paths */

START_TEST(relative_paths_are_lexical)
{
	struct {
		const char *from, *to, *want;
	} cases[] = {
		{ "/a/b", "/a/b/c/d.w3d", "c/d.w3d" },
		{ "/a/b", "/a/x.w3d", "../x.w3d" },
		{ "/a/bc", "/a/b/x.w3d", "../b/x.w3d" },   /* components, not prefixes */
		{ "/a/b", "/a/bc/x.w3d", "../bc/x.w3d" },
		{ "/", "/x.w3d", "x.w3d" },
		{ "/a/b", "/a/b", "." },
		{ "/p/q/r", "/s/t.w3d", "../../../s/t.w3d" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *r = wl_path_relative(cases[i].from, cases[i].to);
		ck_assert_ptr_nonnull(r);
		ck_assert_msg(strcmp(r, cases[i].want) == 0, "%s -> %s: got %s, want %s", cases[i].from, cases[i].to, r,
			      cases[i].want);
		free(r);
	}
	char *a = wl_path_absolute("/a/./b//../c/");
	ck_assert_str_eq(a, "/a/c");
	free(a);
	a = wl_path_absolute("/../..");
	ck_assert_str_eq(a, "/");
	free(a);
	char cwd[4096];
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	a = wl_path_absolute("./x/../y.w3d");
	char want[4200];
	snprintf(want, sizeof want, "%s/y.w3d", strcmp(cwd, "/") == 0 ? "" : cwd);
	ck_assert_str_eq(a, want);
	free(a);
}
END_TEST

/* ----------------------------------------------------------------- load */

START_TEST(load_errors_name_the_file)
{
	tmpdir t;
	tmp_make(&t);
	struct {
		const char *text, *want;
	} bad[] = {
		{ "{ \"files\": {} ", ":1:" },                                /* JSON syntax: line:col */
		{ "{ \"files\": {} }", "not a w3dlint baseline" },
		{ "{ \"w3dlint-baseline\": 2, \"files\": {} }", "version" },
		{ "{ \"w3dlint-baseline\": 1, \"files\": [] }", "\"files\" must be an object" },
		{ "{ \"w3dlint-baseline\": 1, \"files\": { \"a.w3d\": { \"r\": -1 } } }", "integers >= 0" },
		{ "{ \"w3dlint-baseline\": 1, \"files\": { \"a.w3d\": 3 } }", "must be an object" },
	};
	char p[256], err[512];
	snprintf(p, sizeof p, "%s/bl.json", t.path);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		put_text(t.path, "bl.json", bad[i].text);
		err[0] = 0;
		ck_assert_ptr_null(wl_baseline_load(p, false, err, sizeof err));
		ck_assert_msg(strstr(err, bad[i].want) && strstr(err, "bl.json"), "case %zu: %s", i, err);
	}
	/* a missing file: an error, unless writing (missing_ok) */
	snprintf(p, sizeof p, "%s/none.json", t.path);
	ck_assert_ptr_null(wl_baseline_load(p, false, err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "none.json"));
	wl_baseline *b = wl_baseline_load(p, true, err, sizeof err);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(wl_baseline_entry_count(b), 0);
	wl_baseline_free(b);
	/* near miss: a good file */
	b = load_text(t.path, "{ \"w3dlint-baseline\": 1, \"files\": { \"art/a.w3d\": { \"r\": 2, \"s\": 0 } } }",
		      false);
	ck_assert_uint_eq(wl_baseline_recorded(b, "art/a.w3d", "r"), 2);
	ck_assert_uint_eq(wl_baseline_recorded(b, "art/a.w3d", "s"), 0);
	ck_assert_uint_eq(wl_baseline_recorded(b, "art/b.w3d", "r"), 0);
	wl_baseline_free(b);
	tmp_remove(&t);
}
END_TEST

/* ------------------------------------------------------------- matching */

START_TEST(match_reports_the_excess_last_by_offset)
{
	tmpdir t;
	tmp_make(&t);
	wl_baseline *b = load_text(t.path,
				   "{ \"w3dlint-baseline\": 1, \"files\": { \"art/a.w3d\": { \"r\": 2, \"s\": 1 } } }", false);
	char *key = key_of(b, t.path, "art/../art/a.w3d");
	ck_assert_str_eq(key, "art/a.w3d");
	wl_finding f[5];
	fill(f, 3, "r", 100);         /* r at 100, 110, 120 */
	fill(f + 3, 1, "s", 50);      /* s at 50 */
	fill(f + 4, 1, "t", 200);     /* t: not in the baseline */
	bool keep[5];
	wl_report_dropped dropped[1];
	size_t nd = 0;
	ck_assert_int_eq(wl_baseline_match(b, key, f, 5, keep, dropped, &nd), 3);
	/* 3 r found, 2 recorded: the first two baselined, the last reported */
	ck_assert(!keep[0] && !keep[1] && keep[2]);
	ck_assert(!keep[3]);
	ck_assert(keep[4]);
	wl_report_stale *st;
	ck_assert_uint_eq(wl_baseline_stale(b, &st), 0);
	free(st);
	/* another file: nothing of it is baselined */
	char *other = key_of(b, t.path, "art/b.w3d");
	ck_assert_int_eq(wl_baseline_match(b, other, f, 5, keep, dropped, &nd), 0);
	ck_assert(keep[0] && keep[1] && keep[2] && keep[3] && keep[4]);
	free(other);
	free(key);
	wl_baseline_free(b);
	tmp_remove(&t);
}
END_TEST

START_TEST(match_covers_dropped_findings)
{
	tmpdir t;
	tmp_make(&t);
	wl_baseline *b =
		load_text(t.path, "{ \"w3dlint-baseline\": 1, \"files\": { \"a.w3d\": { \"r\": 4 } } }", false);
	wl_finding f[2];
	fill(f, 2, "r", 0);
	bool keep[2];
	wl_report_dropped dropped[1] = { { "r", 5 } };
	size_t nd = 1;
	/* 2 kept + 5 dropped = 7 found, 4 recorded: 2 kept and 2 dropped match */
	ck_assert_int_eq(wl_baseline_match(b, "a.w3d", f, 2, keep, dropped, &nd), 4);
	ck_assert(!keep[0] && !keep[1]);
	ck_assert_uint_eq(nd, 1);
	ck_assert_uint_eq(dropped[0].count, 3);
	/* near miss: 7 recorded covers the dropped ones completely */
	wl_baseline_free(b);
	b = load_text(t.path, "{ \"w3dlint-baseline\": 1, \"files\": { \"a.w3d\": { \"r\": 7 } } }", false);
	dropped[0].count = 5;
	nd = 1;
	ck_assert_int_eq(wl_baseline_match(b, "a.w3d", f, 2, keep, dropped, &nd), 7);
	ck_assert_uint_eq(nd, 0);
	wl_baseline_free(b);
	tmp_remove(&t);
}
END_TEST

START_TEST(stale_entries_fewer_found_or_file_gone)
{
	tmpdir t;
	tmp_make(&t);
	put_text(t.path, "here.w3d", "x");
	put_text(t.path, "linted.w3d", "x");
	wl_baseline *b = load_text(t.path,
				   "{ \"w3dlint-baseline\": 1, \"files\": {\n"
				   "  \"gone.w3d\": { \"r\": 2 },\n"
				   "  \"here.w3d\": { \"r\": 1 },\n"
				   "  \"linted.w3d\": { \"r\": 3, \"s\": 1 } } }\n", false);
	wl_finding f[1];
	fill(f, 1, "r", 0);
	bool keep[1];
	wl_report_dropped dropped[1];
	size_t nd = 0;
	ck_assert_int_eq(wl_baseline_match(b, "linted.w3d", f, 1, keep, dropped, &nd), 1);
	wl_report_stale *st;
	size_t n = wl_baseline_stale(b, &st);
	/* gone.w3d (missing), linted.w3d r (3 recorded, 1 found) and s (1, 0);
	 * here.w3d exists and was not linted: not stale */
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(st[0].path, "gone.w3d");
	ck_assert(st[0].missing);
	ck_assert_uint_eq(st[0].recorded, 2);
	ck_assert_str_eq(st[1].path, "linted.w3d");
	ck_assert_str_eq(st[1].rule, "r");
	ck_assert_uint_eq(st[1].recorded, 3);
	ck_assert_uint_eq(st[1].found, 1);
	ck_assert(!st[1].missing);
	ck_assert_str_eq(st[2].rule, "s");
	ck_assert_uint_eq(st[2].found, 0);
	free(st);
	wl_baseline_free(b);
	tmp_remove(&t);
}
END_TEST

/* ---------------------------------------------------------- record, save */

/* A key that is not UTF-8 (a Latin-1 byte, a control byte, a backslash) is
 * written in the escaped form (core/escape.h) and loads back as the same
 * raw key: recorded, saved, matched; an old key with a backslash that
 * starts no escape reads as it is. */
START_TEST(save_escapes_keys_that_are_not_utf8)
{
	tmpdir t;
	tmp_make(&t);
	wl_baseline *b = load_text(t.path, "{ \"w3dlint-baseline\": 1, \"files\": { \"x\\\\q.w3d\": { \"r\": 1 } } }\n",
				   true);
	ck_assert_uint_eq(wl_baseline_recorded(b, "x\\q.w3d", "r"), 1);
	put_text(t.path, "x\\q.w3d", "x"); /* it exists: its entry is kept */
	const char *raw = "caf\xe9\x1b[2J\\n.w3d";
	wl_finding f[2];
	fill(f, 2, "r", 0);
	ck_assert_int_eq(wl_baseline_record(b, raw, f, 2, NULL, 0), 2);
	size_t skipped = 9;
	char err[512];
	ck_assert_int_eq(wl_baseline_save(b, &skipped, err, sizeof err), 0);
	ck_assert_uint_eq(skipped, 0);
	wl_baseline_free(b);
	char *text = get_text(t.path, "bl.json");
	ck_assert_msg(strstr(text, "\"caf\\\\xe9\\\\x1b[2J\\\\\\\\n.w3d\"") != NULL, "%s", text);
	free(text);
	b = load(t.path, "bl.json", false);
	ck_assert_uint_eq(wl_baseline_recorded(b, raw, "r"), 2);
	ck_assert_uint_eq(wl_baseline_recorded(b, "x\\q.w3d", "r"), 1);
	wl_baseline_free(b);
	tmp_remove(&t);
}
END_TEST

START_TEST(save_merges_sorts_and_is_idempotent)
{
	tmpdir t;
	tmp_make(&t);
	put_text(t.path, "keep.w3d", "x");
	wl_baseline *b = load_text(t.path,
				   "{ \"w3dlint-baseline\": 1, \"files\": {\n"
				   "  \"keep.w3d\": { \"q\": 1 },\n"
				   "  \"gone.w3d\": { \"q\": 1 },\n"
				   "  \"z.w3d\": { \"old\": 9 } } }\n", true);
	wl_finding f[4];
	fill(f, 2, "s", 0);
	fill(f + 2, 2, "r", 100);
	wl_report_dropped dropped[1] = { { "r", 3 } };
	ck_assert_int_eq(wl_baseline_record(b, "z.w3d", f, 4, dropped, 1), 7);
	ck_assert_int_eq(wl_baseline_record(b, "a.w3d", f, 1, NULL, 0), 1);
	size_t skipped = 9;
	char err[512];
	ck_assert_int_eq(wl_baseline_save(b, &skipped, err, sizeof err), 0);
	ck_assert_uint_eq(skipped, 0);
	wl_baseline_free(b);
	char *first = get_text(t.path, "bl.json");
	/* z.w3d replaced (old gone, r = 2 kept + 3 dropped), keep.w3d kept,
	 * gone.w3d dropped, keys in byte order */
	ck_assert_str_eq(first, "{\n"
				"  \"w3dlint-baseline\": 1,\n"
				"  \"files\": {\n"
				"    \"a.w3d\": {\n"
				"      \"s\": 1\n"
				"    },\n"
				"    \"keep.w3d\": {\n"
				"      \"q\": 1\n"
				"    },\n"
				"    \"z.w3d\": {\n"
				"      \"r\": 5,\n"
				"      \"s\": 2\n"
				"    }\n"
				"  }\n"
				"}\n");
	/* the saved file loads, and matches what was recorded */
	b = load(t.path, "bl.json", false);
	bool keep[4];
	size_t nd = 1;
	dropped[0].count = 3;
	ck_assert_int_eq(wl_baseline_match(b, "z.w3d", f, 4, keep, dropped, &nd), 7);
	ck_assert(!keep[0] && !keep[1] && !keep[2] && !keep[3]);
	wl_baseline_free(b);
	/* recording the same again gives the same bytes */
	b = load(t.path, "bl.json", true);
	dropped[0].count = 3;
	ck_assert_int_eq(wl_baseline_record(b, "z.w3d", f, 4, dropped, 1), 7);
	ck_assert_int_eq(wl_baseline_record(b, "a.w3d", f, 1, NULL, 0), 1);
	ck_assert_int_eq(wl_baseline_save(b, NULL, err, sizeof err), 0);
	wl_baseline_free(b);
	char *second = get_text(t.path, "bl.json");
	ck_assert_str_eq(first, second);
	free(first);
	free(second);
	tmp_remove(&t);
}
END_TEST

/* ------------------------------------------------------ front end (W3DLINT) */

static int run_status(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_model(const char *dir, const char *name, int unknown_chunks)
{
	wb b;
	t_w3d_init(&b);
	for (int i = 0; i < unknown_chunks; i++)
		t_w3d_chunk(&b, 0x7001u + (uint32_t)i, "abcd", 4);
	/* a MESH cut short at the end: chunk-truncated, mesh-header-missing
	 * and stray-bytes, three errors */
	t_w3d_u32(&b, 0);
	t_w3d_u32(&b, 64);
	t_w3d_u32(&b, 0);
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *fp = fopen(p, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(b.data, 1, b.len, fp), b.len);
	ck_assert_int_eq(fclose(fp), 0);
	t_w3d_free(&b);
}

START_TEST(front_end_baseline_flow)
{
	const char *env = getenv("W3DLINT");
	if (!env || access(env, X_OK) != 0) {
		fputs("baseline: front-end test skipped: W3DLINT not set\n", stderr);
		return;
	}
	/* absolute: the commands below change folder */
	char bin[4096];
	ck_assert_ptr_nonnull(realpath(env, bin));
	tmpdir t;
	tmp_make(&t);
	char cmd[10000];
	snprintf(cmd, sizeof cmd, "mkdir '%s/mod'", t.path);
	ck_assert_int_eq(run_status(cmd), 0);
	char mod[128];
	snprintf(mod, sizeof mod, "%s/mod", t.path);
	write_model(mod, "a.w3d", 2);
	write_model(mod, "b.w3d", 0);
	/* without a baseline: errors, exit 1 */
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' -q --no-progress mod > out.txt", t.path, bin);
	ck_assert_int_eq(run_status(cmd), 1);
	/* record: exit 0, everything in the baseline */
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' --no-progress --write-baseline w3dlint-baseline.json mod > out.txt 2> err.txt",
		 t.path, bin);
	ck_assert_int_eq(run_status(cmd), 0);
	char *bl = get_text(t.path, "w3dlint-baseline.json");
	ck_assert_ptr_nonnull(strstr(bl, "\"mod/a.w3d\""));
	ck_assert_ptr_nonnull(strstr(bl, "\"chunk-unknown\": 2"));
	free(bl);
	/* lint with it from another folder: paths are relative to the baseline */
	snprintf(cmd, sizeof cmd, "cd '%s/mod' && '%s' --no-progress --baseline ../w3dlint-baseline.json . > ../out.txt",
		 t.path, bin);
	ck_assert_int_eq(run_status(cmd), 0);
	char *out = get_text(t.path, "out.txt");
	ck_assert_ptr_nonnull(strstr(out, "2 files, 0 errors, 0 warnings, 0 infos; 8 in the baseline\n"));
	free(out);
	/* one more unknown chunk in a.w3d: only the new one (the last by
	 * offset of that rule) is reported, the errors moved but are still
	 * baselined; b.w3d deleted: its three entries are stale */
	write_model(mod, "a.w3d", 3);
	snprintf(cmd, sizeof cmd, "rm '%s/b.w3d'", mod);
	ck_assert_int_eq(run_status(cmd), 0);
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' --no-progress --baseline w3dlint-baseline.json mod > out.txt", t.path,
		 bin);
	ck_assert_int_eq(run_status(cmd), 0); /* a warning does not fail */
	out = get_text(t.path, "out.txt");
	ck_assert_ptr_nonnull(strstr(out, "mod/a.w3d:0x18: warning: unknown chunk id 0x7003"));
	ck_assert_ptr_null(strstr(out, "0x7001 ("));
	ck_assert_ptr_nonnull(strstr(out, "w3dlint-baseline.json: note: stale entry: mod/b.w3d [chunk-truncated]: 1 "
					  "recorded, but the file no longer exists\n"));
	ck_assert_ptr_nonnull(strstr(out, "1 file, 0 errors, 1 warning, 0 infos; 5 in the baseline\n"));
	free(out);
	/* near miss: a bad baseline is exit 2 before any report */
	put_text(t.path, "bad.json", "[]");
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' --no-progress --baseline bad.json mod > out.txt 2>&1", t.path, bin);
	ck_assert_int_eq(run_status(cmd), 2);
	tmp_remove(&t);
}
END_TEST

Suite *baseline_suite(void)
{
	const TTest *tests[] = {
		relative_paths_are_lexical, load_errors_name_the_file,
		match_reports_the_excess_last_by_offset, match_covers_dropped_findings,
		stale_entries_fewer_found_or_file_gone, save_merges_sorts_and_is_idempotent,
		save_escapes_keys_that_are_not_utf8,
		front_end_baseline_flow, NULL
	};
	return t_robust_suite_of("baseline", "baseline", 60, tests);
}
