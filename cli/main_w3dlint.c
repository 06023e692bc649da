/*
 * main_w3dlint.c - the w3dlint front end: parses the options
 * (w3dlint_opts.h), collects the files (cli/walk.h, archives as folders:
 * cli/archive_walk.h), reads them on -j threads (cli/pool.h: reported
 * strictly in file order) and hands them to a lint run (lint/run.h: the
 * configurations, the lint, the baseline, the cross-file checks, the
 * counts and the report).  Owns the output (-o), the reporter's kind and
 * the progress line.
 *
 * Exit status (README.md "Exit status"; ARCHITECTURE.md "Reports"):
 *   0  no finding at or above the failing severity
 *   1  findings at or above it
 *   2  usage, configuration or internal error, or a path that could not be
 *      read (the other files are still linted and reported)
 * A malformed file is a finding, never status 2.
 */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/file_io.h"
#include "lint/catalog.h"
#include "lint/report.h"
#include "lint/run.h"
#include "archive_walk.h"
#include "explain.h"
#include "output.h"
#include "pool.h"
#include "progress.h"
#include "w3dlint_opts.h"
#include "walk.h"

#define EXIT_CLEAN 0
#define EXIT_FINDINGS 1
#define EXIT_TROUBLE 2

/* Detached results (findings, no document) held per job in the reorder
 * buffer (cli/pool.h window). */
#define RESULTS_PER_JOB 16

/* SARIF results per run by default: GitHub code scanning takes at most
 * 25,000 per run (the others are counted in one notification). */
#define SARIF_MAX_RESULTS 25000




/* The front end's side of a run: the files, their bytes, the output. */
typedef struct front {
	const wl_lint_cli *opt;
	wl_run *run;
	wl_pathlist files;
	wl_run_item *items;      /* per file, for the run */
	wl_pathlist base_files;  /* the base folders' model files */
	wl_progress pg;
	bool shares_terminal;    /* the report goes to the terminal of pg */
	wl_cli_out dest;         /* -o FILE or standard output (cli/output.h) */
	wl_reporter *rep;
} front;

static void clear_progress(void *ud)
{
	front *f = ud;
	wl_progress_clear(&f->pg);
}

static void clear_for_report(void *ud)
{
	front *f = ud;
	if (f->shares_terminal && !f->opt->quiet)
		wl_progress_clear(&f->pg);
}

/* Worker thread: reads file i (an archive's entry: out of its archive; an
 * archive expanded into entries: its table only) and lints it. */
static void *lint_work(void *ud, size_t i)
{
	const front *f = ud;
	const char *path = f->files.items[i];
	const wl_member *member = wl_pathlist_member(&f->files, i);
	uint8_t *bytes;
	uint64_t size, have;
	char err[512];
	if (member) {
		size_t len = 0;
		if (wl_member_read(W3DLINT_NAME, path, member, &bytes, &len, err, sizeof err) != 0)
			return wl_run_unread(err);
		have = size = len;
	} else if (wl_pathlist_archive(&f->files, i)) {
		if (wl_archive_item_read(W3DLINT_NAME, path, &bytes, &have, &size, err, sizeof err) != 0)
			return wl_run_unread(err);
	} else if (wl_run_read(path, &bytes, &size, err, sizeof err) != 0) {
		return wl_run_unread(err);
	} else {
		have = size;
	}
	return wl_run_lint(f->run, i, bytes, have, size);
}

static int lint_emit(void *ud, size_t i, void *result)
{
	front *f = ud;
	wl_progress_show(&f->pg, i + 1, f->files.count, f->files.items[i]);
	return wl_run_emit(f->run, i, result);
}

static void lint_discard(void *ud, size_t i, void *result)
{
	(void)ud;
	(void)i;
	wl_run_result_free(result);
}

static void walk_error(void *ud, const char *path, int errnum)
{
	front *f = ud;
	if (errnum == 0) {
		if (f->opt->verbose)
			fprintf(stderr, "w3dlint: %s: skipped: a dangling link to a file w3dlint would not lint\n",
				wl_esc(path));
		return;
	}
	fprintf(stderr, "w3dlint: %s: %s\n", wl_esc(path), strerror(errnum));
	wl_run_note_unreadable(f->run, path);
}

/* Walks path into list; a path that cannot be read makes the exit status
 * 2.  -1 when out of memory. */
static int collect(front *f, const char *path, wl_pathlist *list, wl_walk_memo *memo)
{
	int rc = wl_walk_collect_memo(path, memo, list, walk_error, f);
	if (rc > 0)
		wl_run_count_unreadable(f->run, (uint64_t)rc);
	return rc < 0 ? -1 : rc;
}

/* Collects the files and hands them to the run with the base folders' files;
 * turns the cross-file checks on.  All that can fail before any report is
 * written: EXIT_CLEAN or EXIT_TROUBLE. */
static int prepare(front *f, char **paths, int npaths)
{
	const wl_lint_cli *opt = f->opt;
	/* Named files are told from folders by their folders' listings. */
	wl_walk_memo *memo = npaths > 1 ? wl_walk_memo_new() : NULL;
	for (int i = 0; i < npaths; i++) {
		size_t before = f->files.count;
		int rc = collect(f, paths[i], &f->files, memo);
		if (rc < 0) {
			wl_walk_memo_free(memo);
			fprintf(stderr, "w3dlint: out of memory collecting files\n");
			return EXIT_TROUBLE;
		}
		if (rc == 0 && f->files.count == before)
			fprintf(stderr, "w3dlint: %s: no model files found (W3D, B3D, P3D)\n", wl_esc(paths[i]));
	}
	wl_walk_memo_free(memo);
	/* Archives as folders: each followed by its model entries. */
	size_t n = f->files.count;
	if (wl_walk_expand_archives(&f->files) != 0 ||
	    (n = f->files.count, f->items = calloc(n ? n : 1, sizeof *f->items)) == NULL) {
		fprintf(stderr, "w3dlint: out of memory collecting files\n");
		return EXIT_TROUBLE;
	}
	for (size_t i = 0; i < n; i++) {
		const wl_member *m = wl_pathlist_member(&f->files, i);
		f->items[i] = (wl_run_item){ f->files.items[i], wl_pathlist_host(&f->files, i), m ? m->host : NULL,
					     m ? m->entry.path : NULL,
					     m ? (m->entry.packed ? -1 : (int64_t)m->entry.offset) : 0 };
	}
	int rc = wl_run_set_files(f->run, f->items, n);
	if (rc == -2)
		fprintf(stderr, "w3dlint: out of memory loading configurations\n");
	if (rc != 0)
		return EXIT_TROUBLE;
	const char *const *dirs;
	size_t ndirs = 0;
	rc = wl_run_base_dirs(f->run, &dirs, &ndirs);
	for (size_t i = 0; rc == 0 && i < ndirs; i++)
		rc = collect(f, dirs[i], &f->base_files, NULL) < 0 ? -1 : 0;
	if (rc != 0) {
		fprintf(stderr, "w3dlint: out of memory collecting the base folders\n");
		return EXIT_TROUBLE;
	}
	wl_run_set_base_files(f->run, (const char *const *)f->base_files.items, f->base_files.count);
	/* Cross-file checks: a folder is the unit the references live in.  A
	 * list of files alone (pre-commit passes only the staged ones) would
	 * report every object of an unlisted file as missing, so it needs
	 * --xref. */
	bool xref = opt->xref == 1 || (opt->xref < 0 && ndirs > 0);
	for (int i = 0; opt->xref < 0 && !xref && i < npaths; i++) {
		struct stat st;
		xref = stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode);
	}
	if (xref && wl_run_xref_on(f->run) != 0) {
		fprintf(stderr, "w3dlint: out of memory\n");
		return EXIT_TROUBLE;
	}
	return EXIT_CLEAN;
}

static wl_reporter *make_reporter(const wl_lint_cli *opt, FILE *out, bool to_stdout, const wl_catalog *cat)
{
	if (strcmp(opt->format, "json") == 0)
		return wl_report_json_new(out);
	if (strcmp(opt->format, "sarif") == 0)
		return wl_report_sarif_new(out, cat);
	if (strcmp(opt->format, "github") == 0)
		return wl_report_github_new(out, opt->fold);
	const char *term = getenv("TERM");
	bool color = to_stdout && isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL &&
		     !(term && strcmp(term, "dumb") == 0);
	return wl_report_text_new(out, color, opt->quiet, opt->fold);
}

/* Everything after the options: returns the exit status. */
static int lint_paths(front *f, const wl_catalog *cat, char **paths, int npaths)
{
	const wl_lint_cli *opt = f->opt;
	wl_run_opts ro = { &opt->sel.rules, opt->config, opt->baseline, opt->write_baseline, opt->bases,
			   opt->nbases, opt->fail_on, opt->verbose, stderr, clear_progress, clear_for_report, f };
	bool failed;
	f->run = wl_run_new(cat, &ro, &failed);
	if (!f->run && !failed)
		fputs("w3dlint: out of memory\n", stderr);
	if (!f->run || prepare(f, paths, npaths) != EXIT_CLEAN)
		return EXIT_TROUBLE;

	bool to_stdout = !opt->output || strcmp(opt->output, "-") == 0;
	const char *dest = to_stdout ? "standard output" : opt->output;
	if (wl_cli_out_open(&wl_w3dlint_doc, &f->dest, opt->output) != 0)
		return EXIT_TROUBLE;
	f->rep = make_reporter(opt, f->dest.fp, to_stdout, cat);
	if (!f->rep) {
		fprintf(stderr, "w3dlint: out of memory\n");
		return EXIT_TROUBLE;
	}
	bool listing = strcmp(opt->format, "text") == 0 || strcmp(opt->format, "github") == 0;
	uint64_t max = opt->max_findings;
	if (!opt->max_findings_given && strcmp(opt->format, "sarif") == 0)
		max = SARIF_MAX_RESULTS;
	wl_run_start(f->run, f->rep, opt->quiet && strcmp(opt->format, "text") == 0,
		     listing && !opt->show_infos && opt->fail_on != WL_SEV_INFO, max);

	wl_progress_init(&f->pg, !opt->no_progress, f->files.count);
	f->shares_terminal = to_stdout && isatty(STDOUT_FILENO);
	/* Each worker holds one document at a time; the reorder buffer holds
	 * up to RESULTS_PER_JOB detached results per job, so that one large
	 * file does not stall the other workers. */
	unsigned jobs = opt->jobs ? opt->jobs : wl_pool_online_cpus();
	wl_mem_set_cap(wl_run_memory_cap(f->run, opt->memory_cap));
	errno = 0;
	int rc = wl_pool_run(f->files.count, jobs, RESULTS_PER_JOB * (size_t)jobs, lint_work, lint_emit, lint_discard,
			     f);
	wl_progress_clear(&f->pg);
	if (rc == 0 && wl_run_holds(f->run))
		rc = wl_run_report_held(f->run, paths, npaths);
	if (rc != 0) {
		fprintf(stderr, "w3dlint: %s: cannot write the report: %s\n", wl_esc(dest),
			errno ? strerror(errno) : "out of memory");
		return EXIT_TROUBLE;
	}
	if (wl_run_finish(f->run, dest) != 0)
		return EXIT_TROUBLE;
	if (wl_cli_out_close(&wl_w3dlint_doc, &f->dest) != 0)
		return EXIT_TROUBLE;
	return wl_run_status(f->run);
}

static void front_free(front *f)
{
	wl_run_free(f->run);
	wl_reporter_free(f->rep);
	wl_cli_out_abort(&f->dest); /* a report not finished is not written */
	free(f->items);
	wl_pathlist_free(&f->files);
	wl_pathlist_free(&f->base_files);
}

int main(int argc, char **argv)
{
	wl_lint_cli opt;
	int first = 0;
	wl_sw_signals_init();
	int rc = wl_w3dlint_parse(argc, argv, &opt, &first);
	if (rc != EXIT_CLEAN || (!opt.list_rules && !opt.explain && first >= argc)) {
		if (rc == EXIT_CLEAN) {
			fputs("w3dlint: no PATH given\n", stderr);
			wl_w3dlint_usage_hint();
			rc = EXIT_TROUBLE;
		}
		wl_cli_sel_free(&opt.sel);
		free(opt.bases);
		if (rc < 0)
			return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_TROUBLE;
		return rc;
	}

	/* Messages are formatted only for the findings a report writes
	 * (core/finding.h), before any worker thread starts; the text report
	 * with --quiet writes none, so none is kept. */
	wl_findings_lazy(opt.quiet && strcmp(opt.format, "text") == 0 ? WL_MESSAGES_NONE : 1);
#ifdef __GLIBC__
	/* Every file's buffer and arena are freed before the next file: keep
	 * that memory for the next one instead of handing it back to the
	 * system and faulting it in again.  Peak RSS is the same: it is set by
	 * the largest file. */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
	char err[1024] = "";
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	if (!cat) {
		fprintf(stderr, "w3dlint: cannot load the built-in rule catalogue: %s\n",
			err[0] ? err : "no catalogue in this build");
		return EXIT_TROUBLE;
	}
	front f;
	memset(&f, 0, sizeof f);
	f.opt = &opt;
	if (wl_cli_sel_check(&opt.sel, cat, "w3dlint") != 0) {
		wl_w3dlint_usage_hint();
		rc = EXIT_TROUBLE;
	} else if (opt.list_rules) {
		wl_cli_list_rules(cat, stdout);
		rc = EXIT_CLEAN;
	} else if (opt.explain) {
		rc = wl_cli_explain_rule(cat, opt.explain, stdout);
	} else {
		rc = lint_paths(&f, cat, argv + first, argc - first);
	}
	if (rc == EXIT_TROUBLE ? fflush(stdout) != 0 || ferror(stdout) /* said already */
			       : wl_cli_flush_stdout(&wl_w3dlint_doc) != 0)
		rc = EXIT_TROUBLE;
	front_free(&f);
	wl_catalog_free(cat);
	wl_cli_sel_free(&opt.sel);
	free(opt.bases);
	return rc;
}
