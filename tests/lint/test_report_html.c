/*
 * tests/lint/test_report_html.c - the HTML report (lint/report/report_html.c,
 * report.h wl_report_html_new): its JSON parts joined are the JSON report
 * byte for byte; '<' never reaches a script element's text; the geometry
 * of the files with findings only, with their paths; a geometry or an
 * explanation that cannot be had leaves the rest; a viewer that could end
 * its <script> element is refused.
 */
#include <check.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/platform.h"
#include "lint/lint.h"
#include "lint/report/report.h"
#include "tests/build/w3dbuild.h"

extern Suite *report_html_suite(void);

static const char VIEWER[] = "/* viewer */ document.title = 'a<b';";

typedef struct fixture {
	wl_catalog *cat;
	wb bytes[2];
	wl_doc *doc[2];
	wl_file_report fr[2];
	int geometry_calls;
	const char *geometry_of[4];
	int geometry_rc;          /* what the geometry callback returns */
} fixture;

/* File 0: n unknown chunks (n chunk-unknown findings); file 1: handed
 * over with no finding. */
static void setup(fixture *x, int n, const char *path0, const char *path1)
{
	memset(x, 0, sizeof *x);
	char err[256];
	x->cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(x->cat != NULL, "%s", err);
	const char *paths[2] = { path0, path1 };
	for (int k = 0; k < 2; k++) {
		t_w3d_init(&x->bytes[k]);
		for (int i = 0; k == 0 && i < n; i++)
			t_w3d_chunk(&x->bytes[k], 0x7001u + (uint32_t)i, "abcd", 4);
		x->doc[k] = wl_lint_bytes(x->cat, NULL, paths[k], x->bytes[k].data, x->bytes[k].len);
		ck_assert_ptr_nonnull(x->doc[k]);
		wl_file_report *f = &x->fr[k];
		f->path = paths[k];
		f->size = x->bytes[k].len;
		f->doc = x->doc[k];
		f->findings = x->doc[k]->findings.items;
		f->findings_count = k == 0 ? x->doc[k]->findings.count : 0;
		f->counts.files = 1;
		f->counts.warnings = f->findings_count;
	}
	ck_assert_uint_eq(x->fr[0].findings_count, (size_t)n);
	ck_assert_uint_eq(x->fr[1].findings_count, 0);
}

static void teardown(fixture *x)
{
	for (int k = 0; k < 2; k++) {
		wl_doc_free(x->doc[k]);
		t_w3d_free(&x->bytes[k]);
	}
	wl_catalog_free(x->cat);
}

static int geometry(const void *ud, const wl_file_report *f, FILE *out)
{
	fixture *x = (fixture *)(uintptr_t)ud;
	if (x->geometry_calls < 4)
		x->geometry_of[x->geometry_calls] = f->path;
	x->geometry_calls++;
	fputs("{\"meshes\":[{\"name\":\"M<1>\"}],\"format\":\"w3d\"}\n", out);
	return x->geometry_rc;
}

static int explain(const void *ud, const char *rule, FILE *out)
{
	(void)ud;
	fprintf(out, "%s:\n  line two </script>\n", rule);
	return 0;
}

/* The report of the fixture's two files through reporter make(out). */
static char *run(fixture *x, wl_reporter *(*make)(FILE *, fixture *))
{
	wl_os_memstream m;
	FILE *out = wl_os_memstream_open(&m);
	ck_assert_ptr_nonnull(out);
	wl_reporter *rep = make(out, x);
	ck_assert_ptr_nonnull(rep);
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(wl_reporter_file(rep, &x->fr[k]), 0);
	wl_report_summary s;
	memset(&s, 0, sizeof s);
	s.totals.files = 2;
	s.totals.warnings = x->fr[0].findings_count;
	ck_assert_int_eq(wl_reporter_finish(rep, &s), 0);
	wl_reporter_free(rep);
	char *buf = NULL;
	size_t len = 0;
	ck_assert_int_eq(wl_os_memstream_close(&m, &buf, &len), 0);
	return buf;
}

static wl_reporter *make_html(FILE *out, fixture *x)
{
	wl_report_html_parts p = { (const unsigned char *)VIEWER, strlen(VIEWER), geometry, explain, x };
	return wl_report_html_new(out, &p);
}

static wl_reporter *make_json(FILE *out, fixture *x)
{
	(void)x;
	return wl_report_json_new(out);
}

/* The texts of the elements opening with open, in order, each with
 * \u003c turned back into '<' when unescape; n set to their count. */
static char *elements(const char *html, const char *open, bool unescape, int *n)
{
	size_t cap = strlen(html) + 1, len = 0;
	char *all = calloc(1, cap);
	ck_assert_ptr_nonnull(all);
	*n = 0;
	for (const char *p = html; (p = strstr(p, open)) != NULL;) {
		p += strlen(open);
		const char *end = strstr(p, "</script>");
		ck_assert_ptr_nonnull(end);
		for (; p < end; p++) {
			if (unescape && strncmp(p, "\\u003c", 6) == 0) {
				all[len++] = '<';
				p += 5;
			} else {
				all[len++] = *p;
			}
		}
		(*n)++;
	}
	return all;
}

START_TEST(json_parts_are_the_json_report)
{
	fixture x;
	setup(&x, 3, "mod/a</script><!--<script>b.w3d", "mod/clean.w3d");
	char *html = run(&x, make_html);
	char *json = run(&x, make_json);
	int n = 0;
	char *joined = elements(html, "<script type=\"application/json\" class=\"w3dlint-json\">", true, &n);
	ck_assert_str_eq(joined, json);
	ck_assert_int_ge(n, 3); /* one part per file, and the end */
	/* '<' of the path and of the geometry never reaches an element's text */
	int ng = 0;
	char *raw = elements(html, "<script type=\"application/json\"", false, &ng);
	ck_assert_ptr_null(strchr(raw, '<'));
	/* so every element ends where it should: as many ends as starts
	 * (the path holds "</script><!--<script>") */
	size_t opens = 0, ends = 0;
	for (const char *p = html; (p = strstr(p, "<script")) != NULL; p++)
		opens++;
	for (const char *p = html; (p = strstr(p, "</script>")) != NULL; p++)
		ends++;
	ck_assert_uint_eq(opens, ends);
	ck_assert_ptr_null(strstr(html, "<!--<"));
	/* the viewer comes last, as it is */
	ck_assert_ptr_nonnull(strstr(html, "<script>/* viewer */ document.title = 'a<b';</script>\n</body>\n</html>\n"));
	free(raw);
	free(joined);
	free(json);
	free(html);
	teardown(&x);
}
END_TEST

START_TEST(geometry_of_files_with_findings_only)
{
	fixture x;
	setup(&x, 2, "mod/a<b>.w3d", "mod/clean.w3d");
	char *html = run(&x, make_html);
	ck_assert_int_eq(x.geometry_calls, 1);
	ck_assert_str_eq(x.geometry_of[0], "mod/a<b>.w3d");
	int n = 0;
	char *g = elements(html, "<script type=\"application/json\" class=\"w3dlint-geometry\">", true, &n);
	ck_assert_int_eq(n, 1);
	json_error_t e;
	json_t *j = json_loads(g, 0, &e);
	ck_assert_msg(j != NULL, "%s: %s", e.text, g);
	ck_assert_str_eq(json_string_value(json_object_get(j, "path")), "mod/a<b>.w3d");
	json_t *m = json_array_get(json_object_get(json_object_get(j, "geometry"), "meshes"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(m, "name")), "M<1>");
	json_decref(j);
	free(g);
	free(html);
	teardown(&x);

	/* near miss: a geometry that cannot be had leaves no element, and the
	 * report goes on */
	setup(&x, 2, "mod/a.w3d", "mod/clean.w3d");
	x.geometry_rc = -1;
	html = run(&x, make_html);
	ck_assert_int_eq(x.geometry_calls, 1);
	ck_assert_ptr_null(strstr(html, "w3dlint-geometry\">"));
	ck_assert_ptr_nonnull(strstr(html, "<script>/* viewer */"));
	free(html);
	teardown(&x);
}
END_TEST

START_TEST(explanations_of_the_rules_found)
{
	fixture x;
	setup(&x, 2, "mod/a.w3d", "mod/clean.w3d");
	char *html = run(&x, make_html);
	int n = 0;
	char *t = elements(html, "<script type=\"application/json\" id=\"w3dlint-explain\">", true, &n);
	ck_assert_int_eq(n, 1);
	json_t *j = json_loads(t, 0, NULL);
	ck_assert_ptr_nonnull(j);
	ck_assert_uint_eq(json_object_size(j), 1); /* one rule, however many findings */
	const char *rule = x.fr[0].findings[0].rule;
	ck_assert_str_eq(json_string_value(json_object_get(j, rule)),
			 "chunk-unknown:\n  line two </script>\n"); /* lines kept; '<' escaped in the file */
	json_decref(j);
	free(t);
	free(html);
	teardown(&x);
}
END_TEST

START_TEST(viewer_that_could_end_its_element_is_refused)
{
	static const char *const bad[] = { "x = '</script>';", "x = '</SCRIPT'", "<!-- x", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert(!wl_report_html_viewer_ok((const unsigned char *)bad[i], strlen(bad[i])));
		wl_report_html_parts p = { (const unsigned char *)bad[i], strlen(bad[i]), NULL, NULL, NULL };
		errno = 0;
		ck_assert_ptr_null(wl_report_html_new(stdout, &p));
		ck_assert_int_eq(errno, EINVAL);
	}
	/* near misses: a script element opened, a closing one not complete,
	 * a comment's end */
	static const char *const fine[] = { "x = '<script>'", "x = '</scrip'", "x = '<!-'", "-->" };
	for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++)
		ck_assert_msg(wl_report_html_viewer_ok((const unsigned char *)fine[i], strlen(fine[i])), "%s", fine[i]);
}
END_TEST

Suite *report_html_suite(void)
{
	Suite *s = suite_create("report_html");
	TCase *tc = tcase_create("html");
	tcase_add_test(tc, json_parts_are_the_json_report);
	tcase_add_test(tc, geometry_of_files_with_findings_only);
	tcase_add_test(tc, explanations_of_the_rules_found);
	tcase_add_test(tc, viewer_that_could_end_its_element_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
