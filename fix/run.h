/*
 * run.h - one w3dfix run over many files: what the front end
 * (cli/main_w3dfix.c) hands the library after parsing its options.  The
 * run owns
 *   - the output names of -o (run_names.c): each file's path under OUT,
 *     two inputs mapped to one name refused before anything is written,
 *     standard input where it cannot go (--in-place, -o FOLDER) refused;
 *   - each file (run.c): the lock of --in-place, the read, wl_fix_run
 *     (driver.h) with the file's targets (--target, else the mod's layout:
 *     lint/config/target.h wl_target_layout), the edit listing (-n, --diff, the
 *     default; run_edits.c), the verification problems;
 *   - an archive's model entries (run_archive.c): each repaired from the
 *     archive's bytes, the archive rewritten with them
 *     (core/archive/archive.h wl_archive_rewrite), a damaged one never;
 *   - the write (run_write.c, core/safe_write.h): -o OUT (folders made) or
 *     over the file itself, --backup, --break-links, --force; a refused or
 *     failed write is said with the path and the reason and counted as an
 *     error, never as written;
 *   - the counts and the summary (run_summary.c): files, fixed, to fix,
 *     unchanged, edits, findings before and after (every severity), files
 *     with findings at the failing severity left, verification failures,
 *     the unsafe fixers that would repair more; the exit status.
 * The front end collects the files (cli/walk.h), owns the progress line
 * (the before_output hook clears it) and flushes standard output.
 *
 * Every message starts with opts.tool ("w3dfix: PATH: ...") and goes to
 * opts.diag; the per-file lines and the summary go to opts.out.  One
 * thread.
 */
#ifndef WL_FIX_RUN_H
#define WL_FIX_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "driver.h"
#include "lint/config/config.h"
#include "lint/report/report.h"

typedef struct wl_fixrun_opts {
	const char *tool;            /* the first word of every message */
	bool in_place;               /* --in-place: each file over itself */
	bool backup;                 /* --backup: the original as FILE.bak */
	bool dry_run;                /* -n: list the edits, write nothing */
	bool check;                  /* --check: status 1 also when something
	                              * is to fix (wl_fixrun_status) */
	bool diff;                   /* --diff: per-chunk summary of the edits */
	bool quiet;                  /* -q: problems, bytes lines, summary */
	bool break_links;            /* --break-links (WL_SW_BREAK_LINKS) */
	bool readonly_ok;            /* --force (WL_SW_READONLY_OK) */
	unsigned fold;               /* edits per rule and message pattern
	                                listed per file (0: every edit) */
	const char *output;          /* -o OUT (a file or a folder), or NULL */
	const wl_cli_rules *rules;   /* --target (lint/config/config.h); may be NULL */
	FILE *out;                   /* per-file lines, summary (stdout) */
	FILE *diag;                  /* messages (stderr) */
	void (*before_output)(void *ud); /* before a file's lines and messages
	                                    (the progress line is cleared) */
	void *ud;
} wl_fixrun_opts;

/* One file of the run, in walk order: its path ("-": standard input) and
 * the PATH argument it was found under (the file itself, or a folder).
 * entry: for an argument ARCHIVE:PATH (an archive's entry, as the reports
 * name it), path is the archive and entry the entry's path as its table
 * holds it; only that entry is repaired (the archive is rewritten with it
 * replaced, as for a whole archive).  NULL otherwise. */
typedef struct wl_fixrun_item {
	const char *path;
	const char *arg;
	const char *entry;
} wl_fixrun_item;

typedef struct wl_fixrun wl_fixrun;

/**
 * A run of the fixers fo (copied; its catalogue, configuration and lists
 * borrowed, the lint options set per file) with options o (copied; the
 * strings borrowed).  NULL when out of memory.
 */
wl_fixrun *wl_fixrun_new(const wl_fix_options *fo, const wl_fixrun_opts *o);
void wl_fixrun_free(wl_fixrun *r);

/**
 * Sets the files of the run: items[0..n) (borrowed; they must outlive the
 * run) found under the PATH arguments args[0..nargs).  With -o, works out
 * every output name first: the only input file (not a folder) is written
 * to OUT itself unless OUT is a folder, every other to OUT/REL (REL: its
 * path below its PATH argument, or its base name).  Returns 0, or -1 after
 * printing why and counting an error when the run must write nothing: an
 * output name longer than the safe-write limit, two inputs with one output
 * name (each pair named), "-" with --in-place or with -o naming a folder
 * or with other inputs, out of memory.
 */
int wl_fixrun_set_files(wl_fixrun *r, const wl_fixrun_item *items, size_t n, const char *const *args,
			size_t nargs);

/**
 * Repairs file i of wl_fixrun_set_files and writes it as the options ask;
 * prints its lines and messages and counts it.  An archive (.big, .pbo:
 * core/filekind.h) has its model entries repaired (named ARCHIVE:PATH) and
 * is written whole; an image or text file gets one line and is never
 * written; a read-only format (P3D ODOL: core/format.h
 * wl_format_repairable) is said so and run like any file so that -o still
 * copies it.  Failures (unreadable, out of memory, a refused write) are
 * printed and counted as errors; nothing is returned.
 */
void wl_fixrun_file(wl_fixrun *r, size_t i);

/**
 * The findings counted are w3dlint's: counts (borrowed; lint/report/report.h
 * wl_report_count_new, filled by the lint pass of w3dlint over the same
 * PATHs, cli/lint_pass.h) gives each file's, the cross-file findings and
 * an archive's own included.  Each file's count before is the pass's, its
 * count after moved by what the repair changes in the file's own findings;
 * an archive's own findings are counted before and after and, at the
 * failing severity, listed as left.  Without it (NULL, or a file the pass
 * did not report) the counts are the fixers' own lint of the file, as
 * w3dlint --no-xref counts it.
 */
void wl_fixrun_set_lint_counts(wl_fixrun *r, wl_reporter *counts);

/** n more errors (paths the front end could not walk): status 2. */
void wl_fixrun_count_errors(wl_fixrun *r, size_t n);

/**
 * The summary line ("N files, N fixed, [N to fix (not written), ]N
 * unchanged, N edits, N findings before, N after, N with findings at the
 * failing severity left, N verification failures"), one "  findings left:
 * FILE (N findings at the failing severity)" line per such file, and the
 * unsafe fixers' hint, to opts.out.
 */
void wl_fixrun_summary(const wl_fixrun *r);

/** Exit status of the run: 2 (an error was counted); 1 when a file holds
 *  findings at the failing severity as it now is (its output where
 *  written, else the input: w3dlint's status for the same files, issue
 *  30), a verification failed, or (opts.check) something is to fix; else
 *  0. */
int wl_fixrun_status(const wl_fixrun *r);

/**
 * The fixers (fix/registry.c order) to out: "ID safe|unsafe RULE,RULE"
 * (the ids padded to the longest), then "    SUMMARY".
 */
void wl_fix_list(FILE *out);

/** The fixer named id, or NULL when there is none. */
const wl_fixer *wl_fixer_by_id(const char *id);

/**
 * The rules a repair asks for by name, which the lint must report even
 * when outside the default set or off for the file's targets (as w3dlint
 * --extend-select): the patterns select[0..nselect) (--select), then the
 * rule ids of the fixers named by force[0..nforce) (--fix), into *list
 * (malloc'd array of borrowed strings, *n entries).  Returns 0, -1 when
 * out of memory (*list NULL, *n 0).
 */
int wl_fix_wanted_rules(const char *const *select, size_t nselect, const char *const *force, size_t nforce,
			const char ***list, size_t *n);

#endif
