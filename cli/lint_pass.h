/*
 * lint_pass.h - one lint run over the PATH arguments, set up the way
 * w3dlint does it, for both front ends that count findings:
 *   - the files: each PATH walked (cli/walk.h; "ARCHIVE:PATH" names one
 *     model entry), every archive followed by its model entries
 *     (cli/archive_walk.h), and the base folders' model files (--base,
 *     every configuration's base:);
 *   - the cross-file checks: on with --xref, off with --no-xref, else on
 *     when a PATH is a folder or a base folder is given (a list of files
 *     alone would report every object of an unlisted file as missing);
 *   - the shared memory cap (lint/run/run.h wl_run_memory_cap: --memory-cap,
 *     else the smallest memory-cap of the configurations in use);
 *   - the read and lint of every file on worker threads (cli/pool.h), the
 *     report in file order to one reporter (lint/report/report.h), the progress
 *     line on a terminal.
 * w3dlint reports with its text, JSON, SARIF or GitHub reporter; w3dfix
 * runs it first with the counting reporter (wl_report_count_new) so that
 * the findings it counts before and after a repair are exactly w3dlint's
 * (issue 30: one run, one count).  The run itself (configurations, targets,
 * baseline, cross-file index, counts) is lint/run/run.h's.
 */
#ifndef WL_CLI_LINT_PASS_H
#define WL_CLI_LINT_PASS_H

#include <stdbool.h>
#include <stdint.h>

#include "lint/catalog.h"
#include "lint/report/report.h"
#include "lint/run/run.h"

typedef struct wl_lint_pass_opts {
	const char *tool;        /* the first word of the pass's own messages */
	/* The run's options (lint/run/run.h); diag, before_diag, before_report and
	 * ud are the pass's own and ignored here. */
	wl_run_opts run;
	FILE *diag;              /* the run's and the walk's messages */
	int xref;                /* 1: --xref, 0: --no-xref, -1: auto (above) */
	unsigned jobs;           /* worker threads; 0: one per processor */
	bool progress;           /* the progress line (a terminal, no CI) */
	bool clear_for_report;   /* the report shares the progress line's
	                            terminal: cleared before a file's report */
	uint64_t memory_cap;     /* --memory-cap bytes; 0: the configurations' */
} wl_lint_pass_opts;

typedef struct wl_lint_pass wl_lint_pass;

/**
 * A pass over catalogue cat (borrowed) with options o (copied; strings
 * borrowed).  NULL with *failed set when --config or the baseline cannot
 * be loaded (said on o->diag); NULL with *failed false when out of memory.
 */
wl_lint_pass *wl_lint_pass_new(const wl_catalog *cat, const wl_lint_pass_opts *o, bool *failed);
void wl_lint_pass_free(wl_lint_pass *p);

/**
 * Collects the files of paths[0..npaths) and of the base folders, resolves
 * each file's configuration and turns the cross-file checks on as the
 * options say: all that can fail before a report is written.  A PATH that
 * cannot be read is said and makes the run's status 2; a PATH with no
 * model file is said.  Returns 0, or -1 when the run cannot go on (said).
 */
int wl_lint_pass_prepare(wl_lint_pass *p, char **paths, int npaths);

/** The files collected (after wl_lint_pass_prepare). */
size_t wl_lint_pass_files(const wl_lint_pass *p);

/**
 * Sets the memory cap, reads and lints every file and reports it to rep
 * (borrowed) in file order; bare, hide_infos and max_findings as
 * lint/run/run.h wl_run_start.  With the cross-file checks on, the files are
 * reported once the index is complete.  Returns 0, or -1 when the report
 * could not be written (errno set, or 0: out of memory).  The run's end
 * (wl_run_finish) is the caller's.
 */
int wl_lint_pass_run(wl_lint_pass *p, wl_reporter *rep, bool bare, bool hide_infos, uint64_t max_findings,
		     char **paths, int npaths);

/** The lint run (lint/run/run.h): wl_run_finish, wl_run_status,
 *  wl_run_memory_cap. */
wl_run *wl_lint_pass_run_of(wl_lint_pass *p);

#endif
