/*
 * tests/lint/test_reports.c - the report writers (lint/report_*.c): message patterns
 * and folding, the text, SARIF, GitHub and JSON writers; the ordered worker
 * pool (cli/pool.c); and the front end's -j, --max-findings and
 * folding end to end on the built program ($W3DLINT, set by `make test`);
 * the related file of cross-file findings in every writer.
 */
#include <errno.h>
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lint/lint.h"
#include "cli/pool.h"
#include "lint/report/report.h"
#include "tests/build/w3dbuild.h"
#include "tests/build/robust_util.h"

extern Suite *reports_suite(void);

/* ------------------------------------------------------------- helpers */

static wl_catalog *builtin(void)
{
	char err[256];
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(cat != NULL, "%s", err);
	return cat;
}

/* A file of n unknown top-level chunks (ids 0x7001...), 4 payload bytes
 * each: n chunk-unknown findings at offsets 12 * i, all with one message
 * pattern. */
static void unknown_chunks(wb *b, int n)
{
	t_w3d_init(b);
	for (int i = 0; i < n; i++)
		t_w3d_chunk(b, 0x7001u + (uint32_t)i, "abcd", 4);
}

typedef struct linted {
	wl_catalog *cat;
	wb bytes;
	wl_doc *doc;
	wl_file_report fr;
} linted;

static void lint_unknown(linted *l, int n, const char *path)
{
	l->cat = builtin();
	unknown_chunks(&l->bytes, n);
	l->doc = wl_lint_bytes(l->cat, NULL, path, l->bytes.data, l->bytes.len);
	ck_assert_ptr_nonnull(l->doc);
	memset(&l->fr, 0, sizeof l->fr);
	l->fr.path = path;
	l->fr.size = l->bytes.len;
	l->fr.doc = l->doc;
	l->fr.findings = l->doc->findings.items;
	l->fr.findings_count = l->doc->findings.count;
	l->fr.counts.files = 1;
	l->fr.counts.warnings = l->doc->findings.count;
}

static void linted_free(linted *l)
{
	wl_doc_free(l->doc);
	t_w3d_free(&l->bytes);
	wl_catalog_free(l->cat);
}

/* Runs reporter rep over one file and finish; returns the output
 * (malloc'd). */
static char *report_to_string(wl_reporter *(*make)(FILE *, void *), void *arg, const wl_file_report *f,
			      const wl_report_summary *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	wl_reporter *rep = make(out, arg);
	ck_assert_ptr_nonnull(rep);
	if (f)
		ck_assert_int_eq(wl_reporter_file(rep, f), 0);
	ck_assert_int_eq(wl_reporter_finish(rep, s), 0);
	wl_reporter_free(rep);
	fclose(out);
	return buf;
}

static unsigned fold_arg;
static wl_reporter *make_text(FILE *out, void *arg)
{
	(void)arg;
	return wl_report_text_new(out, false, false, fold_arg);
}
static wl_reporter *make_github(FILE *out, void *arg)
{
	(void)arg;
	return wl_report_github_new(out, fold_arg);
}
static wl_reporter *make_sarif(FILE *out, void *arg)
{
	return wl_report_sarif_new(out, arg);
}
static wl_reporter *make_json(FILE *out, void *arg)
{
	(void)arg;
	return wl_report_json_new(out);
}

static size_t count_lines(const char *s, const char *needle)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* ------------------------------------------------------------ patterns */

START_TEST(pattern_replaces_numbers_and_names)
{
	char out[128];
	size_t n = wl_report_pattern("pivot 7 'BONE_L' has parent 9, not lower than 7", out, sizeof out);
	ck_assert_str_eq(out, "pivot # '*' has parent #, not lower than #");
	ck_assert_uint_eq(n, strlen(out));
	wl_report_pattern("rotation (0, -0.5, 1e-3, 2) has length 2.25", out, sizeof out);
	ck_assert_str_eq(out, "rotation (#, #, #, #) has length #");
	wl_report_pattern("unknown chunk id 0x7a1F (4 bytes) in MESH2/AABTREE_NODES[17]", out, sizeof out);
	ck_assert_str_eq(out, "unknown chunk id # (# bytes) in MESH2/AABTREE_NODES[#]");
	/* near miss: digits inside names (w3d, MESH2) and apostrophes inside
	 * words stay */
	wl_report_pattern("the w3d mesh's header", out, sizeof out);
	ck_assert_str_eq(out, "the w3d mesh's header");
	/* truncation keeps a terminated prefix and reports the full length */
	char small[6];
	n = wl_report_pattern("pivot 12 ok", small, sizeof small);
	ck_assert_str_eq(small, "pivot");
	ck_assert_uint_eq(n, strlen("pivot # ok"));
}
END_TEST

START_TEST(fold_plan_groups_rule_and_pattern)
{
	wl_finding f[6];
	memset(f, 0, sizeof f);
	const char *msgs[6] = { "a 1", "a 2", "b 1", "a 3", "a 4", "a 5" };
	const char *rules[6] = { "r", "r", "r", "r", "other", "r" };
	for (int i = 0; i < 6; i++) {
		f[i].rule = rules[i];
		f[i].message = msgs[i];
		f[i].offset = (uint64_t)(10 * i);
	}
	wl_fold_entry e[6];
	ck_assert_int_eq(wl_report_fold_plan(f, 6, e), 0);
	/* group (r, "a #"): items 0, 1, 3, 5 */
	ck_assert_uint_eq(e[0].rank, 0);
	ck_assert_uint_eq(e[1].rank, 1);
	ck_assert_uint_eq(e[3].rank, 2);
	ck_assert_uint_eq(e[5].rank, 3);
	ck_assert_uint_eq(e[5].total, 4);
	ck_assert_uint_eq(e[0].last, 50);
	/* another pattern, another rule: groups of one */
	ck_assert_uint_eq(e[2].total, 1);
	ck_assert_uint_eq(e[4].total, 1);
	ck_assert_uint_eq(e[4].rank, 0);
}
END_TEST

/* ---------------------------------------------------------------- text */

START_TEST(text_folds_repeats_with_count)
{
	linted l;
	lint_unknown(&l, 8, "art/x.w3d");
	ck_assert_uint_eq(l.fr.findings_count, 8);
	wl_report_summary s = { l.fr.counts, NULL, NULL, 0, 0 };
	fold_arg = 3;
	char *out = report_to_string(make_text, NULL, &l.fr, &s);
	ck_assert_uint_eq(count_lines(out, "[chunk-unknown] (0x"), 3);
	/* the fourth finding (offset 3 * 12 = 0x24) stands for the last five */
	ck_assert_ptr_nonnull(strstr(out, "art/x.w3d:0x24: warning: 5 more findings like \"unknown chunk id #"));
	ck_assert_ptr_nonnull(strstr(out, "(up to 0x54;"));
	ck_assert_ptr_nonnull(strstr(out, "1 file, 0 errors, 8 warnings, 0 infos\n"));
	free(out);
	/* near miss: fold 0 shows all eight */
	fold_arg = 0;
	out = report_to_string(make_text, NULL, &l.fr, &s);
	ck_assert_uint_eq(count_lines(out, "[chunk-unknown] (0x"), 8);
	ck_assert_ptr_null(strstr(out, "more findings like"));
	free(out);
	/* exactly fold findings: nothing folded */
	fold_arg = 8;
	out = report_to_string(make_text, NULL, &l.fr, &s);
	ck_assert_uint_eq(count_lines(out, "[chunk-unknown] (0x"), 8);
	free(out);
	linted_free(&l);
}
END_TEST

START_TEST(text_summary_notes_baseline_and_cap)
{
	wl_report_stale st[2] = { { "a/b.w3d", "chunk-unknown", 3, 1, false },
				  { "gone.w3d", "chunk-truncated", 2, 0, true } };
	wl_report_counts c = { 0 };
	c.files = 2;
	c.errors = 4;
	c.baselined = 7;
	c.not_shown = 2;
	wl_report_summary s = { c, "w3dlint-baseline.json", st, 2, 2 };
	fold_arg = 5;
	char *out = report_to_string(make_text, NULL, NULL, &s);
	ck_assert_ptr_nonnull(strstr(out, "w3dlint-baseline.json: note: stale entry: a/b.w3d [chunk-unknown]: "
					 "3 recorded, 1 found\n"));
	ck_assert_ptr_nonnull(strstr(out, "gone.w3d [chunk-truncated]: 2 recorded, but the file no longer exists"));
	ck_assert_ptr_nonnull(strstr(out, "; 7 in the baseline; 2 findings over --max-findings 2 not shown\n"));
	free(out);
}
END_TEST

/* --------------------------------------------------------------- SARIF */

START_TEST(sarif_result_has_byte_region_and_rule)
{
	linted l;
	lint_unknown(&l, 3, "./art/a b.w3d");
	wl_report_summary s = { l.fr.counts, NULL, NULL, 0, 0 };
	char *out = report_to_string(make_sarif, l.cat, &l.fr, &s);
	json_error_t je;
	json_t *root = json_loads(out, 0, &je);
	ck_assert_msg(root != NULL, "%s", je.text);
	ck_assert_str_eq(json_string_value(json_object_get(root, "version")), "2.1.0");
	ck_assert_ptr_nonnull(json_string_value(json_object_get(root, "$schema")));
	json_t *run = json_array_get(json_object_get(root, "runs"), 0);
	json_t *rules = json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "rules");
	ck_assert_uint_eq(json_array_size(rules), wl_catalog_count(l.cat));
	json_t *results = json_object_get(run, "results");
	ck_assert_uint_eq(json_array_size(results), 3);
	const char *fp0 = NULL;
	for (size_t i = 0; i < 3; i++) {
		json_t *r = json_array_get(results, i);
		ck_assert_str_eq(json_string_value(json_object_get(r, "ruleId")), wl_rule_name(WLR_CHUNK_UNKNOWN));
		json_int_t idx = json_integer_value(json_object_get(r, "ruleIndex"));
		ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rules, (size_t)idx), "id")),
				 wl_rule_name(WLR_CHUNK_UNKNOWN));
		ck_assert_str_eq(json_string_value(json_object_get(r, "level")), "warning");
		json_t *phys = json_object_get(json_array_get(json_object_get(r, "locations"), 0), "physicalLocation");
		json_t *art = json_object_get(phys, "artifactLocation");
		/* "./" dropped, the space percent-encoded, relative to %SRCROOT% */
		ck_assert_str_eq(json_string_value(json_object_get(art, "uri")), "art/a%20b.w3d");
		ck_assert_str_eq(json_string_value(json_object_get(art, "uriBaseId")), "%SRCROOT%");
		json_t *region = json_object_get(phys, "region");
		ck_assert_int_eq(json_integer_value(json_object_get(region, "startLine")), 1);
		ck_assert_int_eq(json_integer_value(json_object_get(region, "byteOffset")),
				 (json_int_t)l.fr.findings[i].offset);
		ck_assert_int_eq(json_integer_value(json_object_get(region, "byteLength")), 12);
		const char *fp = json_string_value(
			json_object_get(json_object_get(r, "partialFingerprints"), "primaryLocationLineHash"));
		ck_assert_ptr_nonnull(fp);
		if (i == 0)
			fp0 = fp;
		else
			ck_assert_str_ne(fp, fp0);
	}
	json_decref(root);
	free(out);
	linted_free(&l);
}
END_TEST

START_TEST(sarif_stale_entries_are_notifications)
{
	wl_catalog *cat = builtin();
	wl_report_stale st = { "a.w3d", "chunk-unknown", 2, 0, true };
	wl_report_counts c = { 0 };
	c.unreadable = 1;
	wl_report_summary s = { c, "b.json", &st, 1, 0 };
	char *out = report_to_string(make_sarif, cat, NULL, &s);
	json_t *root = json_loads(out, 0, NULL);
	ck_assert_ptr_nonnull(root);
	json_t *inv = json_array_get(json_object_get(json_array_get(json_object_get(root, "runs"), 0), "invocations"), 0);
	ck_assert(json_is_false(json_object_get(inv, "executionSuccessful")));
	json_t *notes = json_object_get(inv, "toolExecutionNotifications");
	ck_assert_uint_eq(json_array_size(notes), 1);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(json_object_get(json_array_get(notes, 0),
											      "message"),
									      "text")),
				     "stale baseline entry: a.w3d [chunk-unknown]"));
	json_decref(root);
	free(out);
	/* near miss: nothing stale, nothing unreadable */
	wl_report_summary s2 = { { 0 }, NULL, NULL, 0, 0 };
	out = report_to_string(make_sarif, cat, NULL, &s2);
	root = json_loads(out, 0, NULL);
	inv = json_array_get(json_object_get(json_array_get(json_object_get(root, "runs"), 0), "invocations"), 0);
	ck_assert(json_is_true(json_object_get(inv, "executionSuccessful")));
	ck_assert_ptr_null(json_object_get(inv, "toolExecutionNotifications"));
	json_decref(root);
	free(out);
	wl_catalog_free(cat);
}
END_TEST

/* -------------------------------------------------------------- GitHub */

START_TEST(github_escapes_and_folds)
{
	linted l;
	lint_unknown(&l, 4, "dir,1/a:b%.w3d");
	wl_report_summary s = { l.fr.counts, NULL, NULL, 0, 0 };
	fold_arg = 2;
	char *out = report_to_string(make_github, NULL, &l.fr, &s);
	ck_assert_ptr_nonnull(strstr(out, "::warning file=dir%2C1/a%3Ab%25.w3d,line=1,title=chunk-unknown::unknown "
					  "chunk id 0x7001 (4 bytes) inside the top level; kept unchanged (0x7001, "
					  "offset 0x0)\n"));
	ck_assert_uint_eq(count_lines(out, "::warning "), 3);
	ck_assert_ptr_nonnull(strstr(out, "::2 more findings like \"unknown chunk id #"));
	ck_assert_ptr_nonnull(strstr(out, "w3dlint: 1 files, 0 errors, 4 warnings, 0 infos\n"));
	free(out);
	linted_free(&l);
}
END_TEST

/* ---------------------------------------------------------------- JSON */

START_TEST(json_has_baseline_and_counts)
{
	linted l;
	lint_unknown(&l, 2, "x.w3d");
	l.fr.findings_count = 1; /* as after --max-findings 1 */
	l.fr.counts.not_shown = 1;
	l.fr.counts.baselined = 5;
	wl_report_stale st = { "y.w3d", "chunk-unknown", 2, 1, false };
	wl_report_summary s = { l.fr.counts, "bl.json", &st, 1, 1 };
	char *out = report_to_string(make_json, NULL, &l.fr, &s);
	json_t *root = json_loads(out, 0, NULL);
	ck_assert_ptr_nonnull(root);
	json_t *file = json_array_get(json_object_get(root, "files"), 0);
	ck_assert_uint_eq(json_array_size(json_object_get(file, "findings")), 1);
	json_t *fsum = json_object_get(file, "summary");
	ck_assert_int_eq(json_integer_value(json_object_get(fsum, "warnings")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(fsum, "not_shown")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(fsum, "baselined")), 5);
	json_t *bl = json_object_get(root, "baseline");
	ck_assert_str_eq(json_string_value(json_object_get(bl, "path")), "bl.json");
	json_t *s0 = json_array_get(json_object_get(bl, "stale"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(s0, "path")), "y.w3d");
	ck_assert_int_eq(json_integer_value(json_object_get(s0, "found")), 1);
	json_decref(root);
	free(out);
	/* near miss: no --baseline, no "baseline" key */
	wl_report_summary s2 = { l.fr.counts, NULL, NULL, 0, 0 };
	out = report_to_string(make_json, NULL, &l.fr, &s2);
	root = json_loads(out, 0, NULL);
	ck_assert_ptr_null(json_object_get(root, "baseline"));
	json_decref(root);
	free(out);
	linted_free(&l);
}
END_TEST

/* ---------------------------------------------------------------- pool */

typedef struct pool_probe {
	size_t count;
	size_t next_expected;
	size_t stop_at;          /* emit fails at this index (count = never) */
	int out_of_order;
	size_t discarded;
	size_t window;
	size_t max_gap;          /* largest (index computed - next to emit) */
	size_t emitted_before;   /* mirror of the emitter's position */
} pool_probe;

static void *probe_work(void *ud, size_t i)
{
	pool_probe *p = ud;
	/* uneven work, so that later indexes often finish first */
	if (i % 7 == 0)
		usleep(200);
	size_t *r = malloc(sizeof *r);
	ck_assert_ptr_nonnull(r);
	*r = i * 3;
	size_t at = __atomic_load_n(&p->emitted_before, __ATOMIC_SEQ_CST);
	size_t gap = i - at;
	size_t cur = __atomic_load_n(&p->max_gap, __ATOMIC_SEQ_CST);
	while (gap > cur && !__atomic_compare_exchange_n(&p->max_gap, &cur, gap, false, __ATOMIC_SEQ_CST,
							 __ATOMIC_SEQ_CST))
		;
	return r;
}

static int probe_emit(void *ud, size_t i, void *result)
{
	pool_probe *p = ud;
	size_t *r = result;
	if (i != p->next_expected || *r != i * 3)
		p->out_of_order++;
	p->next_expected++;
	free(r);
	if (i == p->stop_at) {
		errno = ENOSPC; /* the pool hands it to the caller */
		return 7;
	}
	__atomic_store_n(&p->emitted_before, i + 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void probe_discard(void *ud, size_t i, void *result)
{
	(void)i;
	pool_probe *p = ud;
	p->discarded++;
	free(result);
}

START_TEST(pool_emits_in_order_within_window)
{
	for (unsigned jobs = 1; jobs <= 4; jobs++) {
		pool_probe p = { 0 };
		p.count = 500;
		p.stop_at = p.count;
		p.window = 2 * jobs;
		ck_assert_int_eq(wl_pool_run(p.count, jobs, p.window, probe_work, probe_emit, probe_discard, &p), 0);
		ck_assert_int_eq(p.out_of_order, 0);
		ck_assert_uint_eq(p.next_expected, p.count);
		ck_assert_uint_eq(p.discarded, 0);
		/* an index is only claimed within window of the next to emit */
		ck_assert_uint_lt(p.max_gap, p.window);
	}
}
END_TEST

START_TEST(pool_stops_on_emit_error_and_discards)
{
	pool_probe p = { 0 };
	p.count = 300;
	p.stop_at = 40;
	p.window = 8;
	errno = 0;
	ck_assert_int_eq(wl_pool_run(p.count, 4, p.window, probe_work, probe_emit, probe_discard, &p), 7);
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_int_eq(p.out_of_order, 0);
	ck_assert_uint_eq(p.next_expected, 41);
	/* computed but not emitted: freed through discard (ASan checks leaks) */
	ck_assert_uint_le(p.discarded, p.window);
	/* near miss: no files at all */
	pool_probe q = { 0 };
	ck_assert_int_eq(wl_pool_run(0, 4, 8, probe_work, probe_emit, probe_discard, &q), 0);
	ck_assert_uint_eq(q.next_expected, 0);
}
END_TEST

/* ----------------------------------------------------- front end (W3DLINT) */

/* A cross-file finding (related set) is shown with the other file: text
 * "(see ...)", JSON "related", SARIF relatedLocations; the others without. */
START_TEST(related_file_in_every_report)
{
	linted l;
	lint_unknown(&l, 2, "mod/tank.w3d");
	wl_finding items[2];
	memcpy(items, l.fr.findings, sizeof items);
	items[1].related = "mod/skel.w3d";
	l.fr.findings = items;
	wl_report_summary s = { l.fr.counts, NULL, NULL, 0, 0 };
	fold_arg = 0;
	char *text = report_to_string(make_text, NULL, &l.fr, &s);
	ck_assert_uint_eq(count_lines(text, " (see mod/skel.w3d)\n"), 1);
	free(text);

	char *js = report_to_string(make_json, NULL, &l.fr, &s);
	json_t *root = json_loads(js, 0, NULL);
	ck_assert_ptr_nonnull(root);
	json_t *fs = json_object_get(json_array_get(json_object_get(root, "files"), 0), "findings");
	ck_assert_uint_eq(json_array_size(fs), 2);
	ck_assert_ptr_null(json_object_get(json_array_get(fs, 0), "related"));
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(fs, 1), "related")), "mod/skel.w3d");
	json_decref(root);
	free(js);

	char *sarif = report_to_string(make_sarif, l.cat, &l.fr, &s);
	root = json_loads(sarif, 0, NULL);
	ck_assert_ptr_nonnull(root);
	json_t *results = json_object_get(json_array_get(json_object_get(root, "runs"), 0), "results");
	ck_assert_uint_eq(json_array_size(results), 2);
	ck_assert_ptr_null(json_object_get(json_array_get(results, 0), "relatedLocations"));
	json_t *rel = json_object_get(json_array_get(results, 1), "relatedLocations");
	ck_assert_uint_eq(json_array_size(rel), 1);
	json_t *art = json_object_get(json_object_get(json_array_get(rel, 0), "physicalLocation"), "artifactLocation");
	ck_assert_str_eq(json_string_value(json_object_get(art, "uri")), "mod/skel.w3d");
	ck_assert_str_eq(json_string_value(json_object_get(art, "uriBaseId")), "%SRCROOT%");
	json_decref(root);
	free(sarif);
	linted_free(&l);
}
END_TEST

static const char *w3dlint_bin(void)
{
	const char *p = getenv("W3DLINT");
	return p && access(p, X_OK) == 0 ? p : NULL;
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(p, 1, n, fp), n);
	ck_assert_int_eq(fclose(fp), 0);
}

/* Runs cmd through the shell; returns the exit status and the standard
 * output (malloc'd) in *out. */
static int run_cmd(const char *cmd, char **out)
{
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	ck_assert_ptr_nonnull(buf);
	size_t got;
	while ((got = fread(buf + len, 1, cap - len - 1, p)) > 0) {
		len += got;
		if (len + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
	}
	buf[len] = 0;
	int st = pclose(p);
	*out = buf;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A folder of nfiles models in 10 subfolders; every third file has 6
 * unknown chunks (warnings), the others one. */
static void make_tree(const char *dir, int nfiles)
{
	char path[512];
	wb many, one;
	unknown_chunks(&many, 6);
	unknown_chunks(&one, 1);
	for (int d = 0; d < 10; d++) {
		snprintf(path, sizeof path, "%s/d%d", dir, d);
		ck_assert_int_eq(mkdir(path, 0755), 0);
	}
	for (int i = 0; i < nfiles; i++) {
		snprintf(path, sizeof path, "%s/d%d/m%05d.W3D", dir, i % 10, i);
		const wb *b = i % 3 == 0 ? &many : &one;
		write_file(path, b->data, b->len);
	}
	t_w3d_free(&many);
	t_w3d_free(&one);
}

START_TEST(front_end_jobs_give_identical_reports)
{
	const char *bin = w3dlint_bin();
	if (!bin) {
		fputs("reports: front-end test skipped: W3DLINT not set\n", stderr);
		return;
	}
	char dir[] = "/tmp/w3dlint-reports-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	const int nfiles = 2000;
	make_tree(dir, nfiles);
	char cmd[1024];
	char *one, *four, *js;
	snprintf(cmd, sizeof cmd, "'%s' --no-progress -j 1 --fold 2 '%s'", bin, dir);
	ck_assert_int_eq(run_cmd(cmd, &one), 0);
	snprintf(cmd, sizeof cmd, "'%s' --no-progress -j 4 --fold 2 '%s'", bin, dir);
	ck_assert_int_eq(run_cmd(cmd, &four), 0);
	ck_assert_str_eq(one, four);
	/* 667 files with 6 findings: 2 shown + one folded line each; 1333 with 1 */
	ck_assert_uint_eq(count_lines(one, "more findings like"), 667);
	ck_assert_ptr_nonnull(strstr(one, "2000 files, 0 errors, 5335 warnings, 0 infos\n"));
	/* every file is in the JSON report, in walk order */
	snprintf(cmd, sizeof cmd, "'%s' --no-progress -j 3 --format json '%s'", bin, dir);
	ck_assert_int_eq(run_cmd(cmd, &js), 0);
	json_t *root = json_loads(js, 0, NULL);
	ck_assert_ptr_nonnull(root);
	json_t *files = json_object_get(root, "files");
	ck_assert_uint_eq(json_array_size(files), (size_t)nfiles);
	for (size_t i = 1; i < json_array_size(files); i++)
		ck_assert_int_lt(strcmp(json_string_value(json_object_get(json_array_get(files, i - 1), "path")),
					json_string_value(json_object_get(json_array_get(files, i), "path"))),
				 0);
	json_decref(root);
	free(js);
	/* --max-findings caps what is shown, not the counts */
	char *capped;
	snprintf(cmd, sizeof cmd, "'%s' --no-progress -j 2 --fold 0 --max-findings 10 '%s'", bin, dir);
	ck_assert_int_eq(run_cmd(cmd, &capped), 0);
	ck_assert_uint_eq(count_lines(capped, ": warning: "), 10);
	ck_assert_ptr_nonnull(strstr(capped, "5335 warnings, 0 infos; 5325 findings over --max-findings 10 not shown\n"));
	free(capped);
	free(one);
	free(four);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(front_end_bad_options)
{
	const char *bin = w3dlint_bin();
	if (!bin)
		return;
	char cmd[1024];
	char *out;
	const char *bad[] = { "-j 0 .", "-j x .", "--fold -1 .", "--format xml .",
			      "--baseline a.json --write-baseline b.json ." };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(cmd, sizeof cmd, "'%s' %s 2>/dev/null", bin, bad[i]);
		ck_assert_int_eq(run_cmd(cmd, &out), 2);
		free(out);
	}
	/* near miss: a valid -j with a clean file */
	char dir[] = "/tmp/w3dlint-opts-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "'%s' -j 2 --fold 0 --max-findings 0 '%s' 2>/dev/null", bin, dir);
	ck_assert_int_eq(run_cmd(cmd, &out), 0);
	free(out);
	rmdir(dir);
}
END_TEST

Suite *reports_suite(void)
{
	const TTest *tests[] = {
		pattern_replaces_numbers_and_names, fold_plan_groups_rule_and_pattern,
		text_folds_repeats_with_count, text_summary_notes_baseline_and_cap,
		sarif_result_has_byte_region_and_rule, sarif_stale_entries_are_notifications,
		github_escapes_and_folds, json_has_baseline_and_counts,
		related_file_in_every_report, pool_emits_in_order_within_window,
		pool_stops_on_emit_error_and_discards, front_end_jobs_give_identical_reports,
		front_end_bad_options, NULL
	};
	return t_robust_suite_of("reports", "reports", 120, tests);
}
