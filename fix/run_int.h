/*
 * run_int.h - what the files of a w3dfix run (run.h) share: the run, its
 * counts and the steps one file goes through.  Not for other layers.
 */
#ifndef WL_FIX_RUN_INT_H
#define WL_FIX_RUN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/filekind.h"
#include "core/safe_write.h"
#include "lint/config/config_cache.h"
#include "lint/report/report.h"
#include "run.h"

/* Room for the note of a per-file line: " to TARGET (through the symbolic
 * link)" and ", the original kept as NAME". */
#define WL_FIXRUN_NOTE_MAX (2 * WL_SW_PATH_MAX + 64)

/* The counts of a run. */
typedef struct wl_fix_totals {
	size_t files, fixed, fixable, clean, remaining, failed, errors, edits;
	size_t failing_now;   /* files (and archives) with findings at the
	                         failing severity as they are once the run is
	                         done: the output where written, else the input
	                         (what w3dlint would say of them now) */
	size_t before, after; /* findings of every severity, capped ones
	                         included (what w3dlint counts) */
	char **left;          /* remaining lines "FILE (N ...)" (malloc) */
	size_t left_cap;      /* room in left (core/grow.h) */
	size_t hint_findings; /* left findings an unused fixer repairs */
	const char *hint_fixers[8];
	size_t hint_fixer_count;
} wl_fix_totals;

struct wl_fixrun {
	wl_fixrun_opts o;
	wl_fix_options fo;
	bool writing;                /* --in-place or -o, without -n */
	const wl_fixrun_item *items; /* the files (borrowed) */
	size_t count;
	char **targets;              /* -o: each file's output path (malloc) */
	wl_config_cache configs;     /* without --config: each file's own
	                              * .w3dlint.yaml, as w3dlint finds it */
	wl_stat_memo *memo;          /* their folders' probes (NULL: none) */
	wl_reporter *lint_counts;    /* the lint pass's counts per file
	                              * (lint/report/report.h wl_report_count_new;
	                              * borrowed), or NULL */
	wl_fix_totals t;
};

/**
 * The findings of file (as the lint pass names it) become the pass's: res's
 * counts before are set to them, and its counts after moved by the same
 * difference (the cross-file findings stay; the repair changes the file's
 * own).  cfg: the file's configuration (its fail-on), or NULL.  Nothing
 * when the run has no counts or the pass did not report the file
 * (run_counts.c).
 */
void wl_fixrun_lint_adjust(const wl_fixrun *r, const char *file, const wl_config *cfg, wl_fix_result *res);

/** An archive's own findings (archive-*) from the lint pass, counted before
 *  and after (no fixer changes them) and listed as left when at the failing
 *  severity of cfg (run_counts.c). */
void wl_fixrun_archive_counts(wl_fixrun *r, const char *file, const wl_config *cfg);

/** Lists file among those whose findings at the failing severity stay (n of
 *  them), after the summary line (run_summary.c). */
void wl_fixrun_keep_left(wl_fixrun *r, const char *file, size_t n);

/**
 * The configuration of file (read from host; "-": none) as w3dlint finds
 * it: --config, else the .w3dlint.yaml that governs host.  0 with *cfg set
 * (NULL: none); -1 after saying why and counting an error.
 */
int wl_fixrun_config(wl_fixrun *r, const char *file, const char *host, const wl_config **cfg);

/** Calls the before_output hook (clears the progress line). */
void wl_fixrun_clear(const wl_fixrun *r);

/**
 * Runs the fixers on file's bytes in[0..n) into *res, linted with the
 * configuration and the mod layout of host (the file itself, or for an
 * archive entry the archive: what w3dlint uses, lint/run/run.c) and prints the edits
 * (-n, --diff, the default listing) and the verification problems.
 * Returns -1 after printing why when the run failed (res freed, counted
 * as an error).  run_bytes.c, as the two above.
 */
int wl_fixrun_bytes(wl_fixrun *r, const char *file, const char *host, const uint8_t *in, size_t n,
		    wl_fix_result *res);

/**
 * Counts file's result res (its input n bytes) once its write is done (or
 * failed: write_failed, counted as an error by the caller; or none was
 * asked for) and prints its lines; note: where the repaired bytes went.
 * run_summary.c.
 */
void wl_fixrun_account(wl_fixrun *r, const char *file, size_t n, const wl_fix_result *res, bool write_failed,
		       const char *note);

/** The flags of core/safe_write.h for --break-links and --force. */
unsigned wl_fixrun_sw_flags(const wl_fixrun *r);

/** Prints why path could not be written (core/safe_write.h). */
void wl_fixrun_write_failed(const wl_fixrun *r, const char *path, const wl_sw *w, int rc);

/**
 * Writes what -o / --in-place asks for file (read as in[0..n), under the
 * lock lk for --in-place) and its result res; target: the -o path.  note
 * (cap bytes, WL_FIXRUN_NOTE_MAX) gets " to TARGET (through the symbolic
 * link)" or ", the original kept as NAME" for the per-file line.  On
 * failure prints the path that could not be written and why, and returns
 * -1.  Releases lk.  run_write.c.
 */
int wl_fixrun_write(const wl_fixrun *r, const char *file, const char *target, wl_sw *lk,
		    const wl_fix_result *res, const uint8_t *in, size_t n, char *note, size_t cap);

/**
 * Repairs the model entries of archive file (read as in[0..n), under the
 * lock lk for --in-place) and writes the archive with the repaired ones
 * replaced to target (-o) or over itself (--in-place).  only: the path of
 * the one entry to repair (an ARCHIVE:PATH argument), NULL for every model
 * entry.  run_archive.c.
 */
void wl_fixrun_archive(wl_fixrun *r, const char *file, const char *target, wl_sw *lk, const wl_file_kind *kind,
		       const uint8_t *in, size_t n, const char *only);

/**
 * Lists the edits of res in offset order to out ("FILE:0xOFFSET: FIXER:
 * WHAT [RULE] (CHUNK PATH)"), folded as w3dlint folds findings
 * (lint/report/report.h wl_report_fold_plan): at most fold edits of the same rule
 * and message pattern, then one line with the count of the others (fold 0:
 * every edit).  run_edits.c.
 */
void wl_fixrun_print_edits(FILE *out, const char *file, const wl_fix_result *res, unsigned fold);

/** --diff: one line per chunk path (its rules, its edit count), in
 *  first-edit order, then the file size in_len -> out_len bytes.
 *  run_edits.c. */
void wl_fixrun_print_diff(FILE *out, const wl_fix_result *res, size_t in_len);

/** The -o output names of the files (run_names.c); -1 as
 *  wl_fixrun_set_files. */
int wl_fixrun_names(wl_fixrun *r, const char *const *args, size_t nargs);

#endif
