/*
 * tests/lint/test_cov_report_json.c - the JSON report writer (lint/report/report_json.c,
 * docs/report-json.md) beyond tests/lint/test_reports.c: bytes that are not UTF-8
 * are escaped as \\xNN (wl_report_json_str, core/escape.h), detached findings (chunk_paths and
 * format given, no document), the "related" key, the "dropped" map, the
 * per-file and total counts, counts above INT64_MAX clamped, and a write
 * failure reported by finish.
 */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint/report/report.h"
#include "tests/build/robust_util.h"
#include "core/platform.h"

extern Suite *cov_report_json_suite(void);

/* wl_report_json_str(in) as a C string compared with want (both UTF-8). */
static void str_is(const char *in, const char *want)
{
	json_t *j = wl_report_json_str(in);
	ck_assert_ptr_nonnull(j);
	ck_assert_msg(strcmp(json_string_value(j), want) == 0, "'%s' -> '%s', want '%s'", in,
		      json_string_value(j), want);
	json_decref(j);
}

/* The escaped form of core/escape.h: valid UTF-8 kept, the bytes of an
 * invalid sequence as \xNN (recoverable, never U+FFFD). */
START_TEST(json_str_escapes_invalid_utf8)
{
	str_is("plain", "plain");
	str_is("caf\xC3\xA9", "caf\xC3\xA9");                 /* valid 2 bytes kept */
	str_is("\xE2\x82\xAC", "\xE2\x82\xAC");               /* valid 3 bytes (euro) */
	str_is("\xF0\x9F\x98\x80!", "\xF0\x9F\x98\x80!");     /* valid 4 bytes */
	str_is("caf\xE9", "caf\\xe9");                      /* Latin-1 e-acute */
	str_is("A\xFF" "B", "A\\xffB");                     /* never valid */
	str_is("\xC0\x80", "\\xc0\\x80");                   /* overlong NUL */
	str_is("\xED\xA0\x80", "\\xed\\xa0\\x80");          /* UTF-16 surrogate */
	str_is("\xF4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");  /* above U+10FFFF */
	str_is("x\xE2\x82", "x\\xe2\\x82");                 /* cut at the end */
	str_is("\xE2(\xA1", "\\xe2(\\xa1");                  /* bad continuation */
	str_is("a\\b\x01", "a\\\\b\\x01");                  /* backslash, control */
}
END_TEST

/* Writes one JSON report of files[0..n) and s to a string; returns the
 * parsed document (the caller decrefs). */
static json_t *report(const wl_file_report *files, size_t n, const wl_report_summary *s)
{
	char *buf = NULL;
	size_t len = 0;
	wl_os_memstream ms;
	FILE *out = wl_os_memstream_open(&ms);
	ck_assert_ptr_nonnull(out);
	wl_reporter *r = wl_report_json_new(out);
	ck_assert_ptr_nonnull(r);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(wl_reporter_file(r, &files[i]), 0);
	ck_assert_int_eq(wl_reporter_finish(r, s), 0);
	wl_reporter_free(r);
	ck_assert_int_eq(wl_os_memstream_close(&ms, &buf, &len), 0);
	ck_assert_uint_gt(len, 0);
	ck_assert_int_eq(buf[len - 1], '\n');
	json_error_t je;
	json_t *root = json_loads(buf, 0, &je);
	ck_assert_msg(root != NULL, "%s: %s", je.text, buf);
	free(buf);
	return root;
}

static json_int_t iget(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	ck_assert_msg(json_is_integer(v), "key %s", k);
	return json_integer_value(v);
}

static const char *sget(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	ck_assert_msg(json_is_string(v), "key %s", k);
	return json_string_value(v);
}

START_TEST(json_detached_findings)
{
	wl_finding f[3];
	memset(f, 0, sizeof f);
	f[0] = (wl_finding){ .rule = "chunk-unknown", .severity = WL_SEV_WARNING, .offset = 12, .length = 8,
			     .element = -1, .message = "unknown chunk id 0x7001" };
	f[1] = (wl_finding){ .rule = "object-not-loaded", .severity = WL_SEV_ERROR, .offset = 40,
			     .length = 0, .element = -1, .message = "hlod names 'TANK.GUN'",
			     .related = "art/gun\xE9.w3d" };
	f[2] = (wl_finding){ .rule = "name-bad-characters", .severity = WL_SEV_INFO, .offset = 64,
			     .length = 16, .element = -1, .message = "name 'B\xE4R' has bad bytes" };
	static const char *const paths[3] = { "MESH[A]/X", "", "HLOD[T]/HLOD_HEADER" };
	static const wl_report_dropped dropped[2] = { { "chunk-unknown", 7 }, { "float-not-finite", 1 } };
	wl_file_report fr = { 0 };
	fr.path = "m\xF6" "del.w3d";
	fr.size = 4096;
	fr.format = "w3d";
	fr.findings = f;
	fr.chunk_paths = paths;
	fr.findings_count = 3;
	fr.dropped = dropped;
	fr.dropped_count = 2;
	fr.counts = (wl_report_counts){ .files = 1, .files_with_errors = 1, .errors = 1, .warnings = 9,
					.infos = 1, .dropped = 8, .baselined = 2, .not_shown = 0 };
	/* a second file with nothing found */
	wl_file_report clean = { 0 };
	clean.path = "clean.w3d";
	clean.size = 100;
	clean.format = "w3d";
	clean.counts.files = 1;
	wl_file_report both[2] = { fr, clean };
	wl_report_summary s = { 0 };
	s.totals = (wl_report_counts){ .files = 2, .files_with_errors = 1, .errors = 1, .warnings = 9,
				       .infos = 1, .dropped = 8, .baselined = 2, .unreadable = UINT64_MAX };

	json_t *root = report(both, 2, &s);
	json_t *tool = json_object_get(root, "tool");
	ck_assert_str_eq(sget(tool, "name"), W3DLINT_NAME);
	ck_assert_str_eq(sget(tool, "version"), W3DLINT_VERSION);
	ck_assert_ptr_null(json_object_get(root, "baseline"));
	json_t *files = json_object_get(root, "files");
	ck_assert_uint_eq(json_array_size(files), 2);

	json_t *j = json_array_get(files, 0);
	ck_assert_str_eq(sget(j, "path"), "m\\xf6del.w3d");
	ck_assert_int_eq(iget(j, "size"), 4096);
	ck_assert_str_eq(sget(j, "format"), "w3d");
	json_t *fs = json_object_get(j, "findings");
	ck_assert_uint_eq(json_array_size(fs), 3);
	json_t *a = json_array_get(fs, 0);
	ck_assert_str_eq(sget(a, "rule"), wl_rule_name(WLR_CHUNK_UNKNOWN));
	ck_assert_str_eq(sget(a, "severity"), "warning");
	ck_assert_str_eq(sget(a, "message"), "unknown chunk id 0x7001");
	ck_assert_int_eq(iget(a, "offset"), 12);
	ck_assert_int_eq(iget(a, "length"), 8);
	ck_assert_str_eq(sget(a, "chunk_path"), "MESH[A]/X");
	ck_assert_ptr_null(json_object_get(a, "related"));
	json_t *b = json_array_get(fs, 1);
	ck_assert_str_eq(sget(b, "severity"), "error");
	ck_assert(json_is_null(json_object_get(b, "chunk_path"))); /* file level */
	ck_assert_str_eq(sget(b, "related"), "art/gun\\xe9.w3d");
	json_t *c = json_array_get(fs, 2);
	ck_assert_str_eq(sget(c, "severity"), "info");
	ck_assert_str_eq(sget(c, "message"), "name 'B\\xe4R' has bad bytes");
	ck_assert_str_eq(sget(c, "chunk_path"), "HLOD[T]/HLOD_HEADER");

	json_t *dr = json_object_get(j, "dropped");
	ck_assert_uint_eq(json_object_size(dr), 2);
	ck_assert_int_eq(iget(dr, "chunk-unknown"), 7);
	ck_assert_int_eq(iget(dr, "float-not-finite"), 1);
	json_t *sum = json_object_get(j, "summary");
	ck_assert_int_eq(iget(sum, "errors"), 1);
	ck_assert_int_eq(iget(sum, "warnings"), 9);
	ck_assert_int_eq(iget(sum, "infos"), 1);
	ck_assert_int_eq(iget(sum, "dropped"), 8);
	ck_assert_int_eq(iget(sum, "baselined"), 2);
	ck_assert_int_eq(iget(sum, "not_shown"), 0);
	/* per-file summaries have no totals-only keys */
	ck_assert_ptr_null(json_object_get(sum, "files"));
	ck_assert_ptr_null(json_object_get(sum, "unreadable"));

	json_t *k = json_array_get(files, 1);
	ck_assert_str_eq(sget(k, "path"), "clean.w3d");
	ck_assert_uint_eq(json_array_size(json_object_get(k, "findings")), 0);
	ck_assert_uint_eq(json_object_size(json_object_get(k, "dropped")), 0);

	json_t *tot = json_object_get(root, "summary");
	ck_assert_int_eq(iget(tot, "files"), 2);
	ck_assert_int_eq(iget(tot, "files_with_errors"), 1);
	ck_assert_int_eq(iget(tot, "warnings"), 9);
	ck_assert_int_eq(iget(tot, "unreadable"), INT64_MAX); /* clamped */
	json_decref(root);
}
END_TEST

START_TEST(json_no_files_and_stale_missing)
{
	wl_report_stale st[2] = { { "gone.w3d", "chunk-unknown", 3, 0, true },
				  { "a/b.w3d", "trailing-bytes", 2, 1, false } };
	wl_report_summary s = { 0 };
	s.baseline = "base\xFF.json";
	s.stale = st;
	s.stale_count = 2;
	json_t *root = report(NULL, 0, &s);
	ck_assert_uint_eq(json_array_size(json_object_get(root, "files")), 0);
	json_t *bl = json_object_get(root, "baseline");
	ck_assert_str_eq(sget(bl, "path"), "base\\xff.json");
	json_t *stale = json_object_get(bl, "stale");
	ck_assert_uint_eq(json_array_size(stale), 2);
	json_t *g = json_array_get(stale, 0);
	ck_assert_str_eq(sget(g, "path"), "gone.w3d");
	ck_assert_int_eq(iget(g, "recorded"), 3);
	ck_assert_int_eq(iget(g, "found"), 0);
	ck_assert(json_is_true(json_object_get(g, "missing")));
	ck_assert(json_is_false(json_object_get(json_array_get(stale, 1), "missing")));
	ck_assert_int_eq(iget(json_object_get(root, "summary"), "files"), 0);
	json_decref(root);
}
END_TEST

START_TEST(json_finish_reports_write_failure)
{
	FILE *out = fopen("/dev/full", "w");
	if (!out)
		return; /* no /dev/full here */
	wl_reporter *r = wl_report_json_new(out);
	ck_assert_ptr_nonnull(r);
	wl_report_summary s = { 0 };
	ck_assert_int_ne(wl_reporter_finish(r, &s), 0);
	wl_reporter_free(r);
	fclose(out);
}
END_TEST

Suite *cov_report_json_suite(void)
{
	const TTest *tests[] = {
		json_str_escapes_invalid_utf8, json_detached_findings,
		json_no_files_and_stale_missing, json_finish_reports_write_failure, NULL
	};
	return t_robust_suite_of("cov_report_json", "json", 0, tests);
}
