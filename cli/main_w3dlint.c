/*
 * main_w3dlint.c - the w3dlint front end: parses the options
 * (w3dlint_opts.h), collects the files (cli/walk.h, archives as folders:
 * cli/archive_walk.h), reads them on -j threads (cli/pool.h: reported
 * strictly in file order) and hands them to a lint run (lint/run/run.h: the
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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/file_io.h"
#include "core/platform.h"
#include "lint/catalog.h"
#include "lint/report/report.h"
#include "lint/run/run.h"
#include "explain.h"
#include "lint_pass.h"
#include "output.h"
#include "report_html.h"
#include "w3dlint_opts.h"

#define EXIT_CLEAN 0
#define EXIT_FINDINGS 1
#define EXIT_TROUBLE 2

/* SARIF results per run by default: GitHub code scanning takes at most
 * 25,000 per run (the others are counted in one notification). */
#define SARIF_MAX_RESULTS 25000

/* The front end's side of a run: the lint pass, the output. */
typedef struct front {
	const wl_lint_cli *opt;
	wl_lint_pass *pass;
	wl_cli_out dest;         /* -o FILE or standard output (cli/output.h) */
	wl_reporter *rep;
} front;

static wl_reporter *make_reporter(const wl_lint_cli *opt, FILE *out, bool to_stdout, const wl_catalog *cat)
{
	if (strcmp(opt->format, "json") == 0)
		return wl_report_json_new(out);
	if (strcmp(opt->format, "sarif") == 0)
		return wl_report_sarif_new(out, cat);
	if (strcmp(opt->format, "github") == 0)
		return wl_report_github_new(out, opt->fold);
	if (strcmp(opt->format, "html") == 0) {
		wl_report_html_parts parts;
		wl_cli_html_parts(cat, &parts);
		return wl_report_html_new(out, &parts);
	}
	const char *term = getenv("TERM");
	bool color = to_stdout && wl_os_isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL &&
		     !(term && strcmp(term, "dumb") == 0);
	return wl_report_text_new(out, color, opt->quiet, opt->fold);
}

/* Everything after the options: returns the exit status. */
static int lint_paths(front *f, const wl_catalog *cat, char **paths, int npaths)
{
	const wl_lint_cli *opt = f->opt;
	bool to_stdout = !opt->output || strcmp(opt->output, "-") == 0;
	wl_lint_pass_opts po = {
		W3DLINT_NAME,
		{ &opt->sel.rules, opt->config, opt->baseline, opt->write_baseline, opt->bases, opt->nbases,
		  opt->fail_on, opt->verbose, NULL, NULL, NULL, NULL },
		stderr, opt->xref, opt->jobs, !opt->no_progress,
		/* the report shares the progress line's terminal */
		to_stdout && wl_os_isatty(STDOUT_FILENO) && !opt->quiet, opt->memory_cap
	};
	bool failed;
	f->pass = wl_lint_pass_new(cat, &po, &failed);
	if (!f->pass && !failed)
		fputs("w3dlint: out of memory\n", stderr);
	if (!f->pass || wl_lint_pass_prepare(f->pass, paths, npaths) != 0)
		return EXIT_TROUBLE;
	wl_run *run = wl_lint_pass_run_of(f->pass);

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
	int rc = wl_lint_pass_run(f->pass, f->rep, opt->quiet && strcmp(opt->format, "text") == 0,
				  listing && !opt->show_infos && opt->fail_on != WL_SEV_INFO, max, paths, npaths);
	if (rc != 0) {
		fprintf(stderr, "w3dlint: %s: cannot write the report: %s\n", wl_esc(dest),
			errno ? strerror(errno) : "out of memory");
		return EXIT_TROUBLE;
	}
	if (wl_run_finish(run, dest) != 0)
		return EXIT_TROUBLE;
	if (wl_cli_out_close(&wl_w3dlint_doc, &f->dest) != 0)
		return EXIT_TROUBLE;
	return wl_run_status(run);
}

static void front_free(front *f)
{
	wl_lint_pass_free(f->pass);
	wl_reporter_free(f->rep);
	wl_cli_out_abort(&f->dest); /* a report not finished is not written */
}

int main(int argc, char **argv)
{
	wl_os_start(&argc, &argv);
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
	/* Every file's buffer and arena are freed before the next file: keep
	 * that memory for the next one instead of handing it back to the
	 * system and faulting it in again.  Peak RSS is the same: it is set by
	 * the largest file. */
	wl_os_tune_malloc();
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
	} else if (strcmp(opt.format, "html") == 0 && !wl_cli_html_available()) {
		fputs("w3dlint: --format html: this w3dlint was built without the HTML report's viewer; build it "
		      "with `make html-viewer` (Node.js and npm; docs/web.md), or use --format json\n",
		      stderr);
		rc = EXIT_TROUBLE;
	} else if (strcmp(opt.format, "html") == 0 && (!opt.output || strcmp(opt.output, "-") == 0) &&
		   wl_os_isatty(STDOUT_FILENO)) {
		/* megabytes of page and geometry are no use on a terminal */
		fputs("w3dlint: --format html writes a page to open in a browser: give -o FILE (e.g. -o "
		      "report.html), or redirect standard output\n",
		      stderr);
		rc = EXIT_TROUBLE;
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
