/*
 * report.h - the report writers of w3dlint: text (default), JSON, SARIF,
 * GitHub workflow annotations and HTML.
 *
 * The front end lints the files (possibly on several threads) but hands the
 * results to one reporter, from one thread, strictly in file order; then it
 * calls finish with the totals and the stale baseline entries.  A reporter
 * only formats: it never decides severities, baselines or exit status.
 *
 *   text    path:0xOFFSET: severity: message [rule-id] (chunk path)
 *           one line per finding, grouped per file, repeated findings folded
 *           (see wl_report_fold_plan), a line per rule whose findings were
 *           capped, notes for stale baseline entries, a summary line.
 *   json    one document, streamed: each file as it is handed over, the
 *           totals by finish (docs/report-json.md).
 *   sarif   one SARIF 2.1.0 log, streamed likewise (docs/report-sarif.md).
 * JSON and SARIF hold no more than one file's findings in memory
 * (lint/report/json_out.h).  Messages are formatted (wl_finding_message) only by
 * the writers that write them.
 *   github  one workflow command per finding (::error file=...::...),
 *           folded as in text, then a summary line (docs/report-sarif.md,
 *           "GitHub annotations").
 *
 * Every writer returns 0, or -1 when out of memory or the output failed
 * (ferror on the stream).  Writers never print to stderr.
 */
#ifndef WL_REPORT_H
#define WL_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/chunk.h"
#include "lint/catalog.h"
#include "lint/version.h"

#define W3DLINT_NAME "w3dlint"
#define W3DLINT_VERSION WL_VERSION

/* Finding counts.  errors/warnings/infos count the findings found and not
 * matched by the baseline, including those left out by --max-findings
 * (counted again in not_shown) and by the per-rule cap (counted again in
 * dropped, at their rule's severity), so that every report, the baseline
 * and w3dfix count the same findings; they exclude the baselined ones. */
typedef struct wl_report_counts {
	uint64_t files;              /* files linted */
	uint64_t files_with_errors;  /* files with an error not in the baseline */
	uint64_t errors, warnings, infos;
	uint64_t dropped;            /* left out by WL_FINDINGS_PER_RULE_MAX */
	uint64_t baselined;          /* matched by the baseline, not reported */
	uint64_t not_shown;          /* left out by --max-findings */
	uint64_t unreadable;         /* totals only: paths that could not be read */
} wl_report_counts;

/* A rule whose findings were capped in one file: count findings more than
 * the ones kept (WL_FINDINGS_PER_RULE_MAX), after the baseline. */
typedef struct wl_report_dropped {
	const char *rule;
	uint64_t count;
} wl_report_dropped;

/* One linted file, as handed to a reporter.  The front end hands over
 * findings detached from their document (doc NULL, chunk_paths and format
 * set: the worker threads free each document right after linting it);
 * tests may hand over a document instead (chunk_paths NULL). */
typedef struct wl_file_report {
	const char *path;                    /* as opened (argument or walk) */
	uint64_t size;                       /* bytes */
	const wl_doc *doc;                   /* may be NULL when chunk_paths is set */
	const char *format;                  /* format name, or NULL: doc's */
	const wl_finding *findings;          /* the findings to report: the
					      * file's findings (sorted by offset,
					      * then rule) minus the baselined
					      * ones, capped by --max-findings */
	const char *const *chunk_paths;      /* findings_count chunk paths
					      * ("" for the file as a whole), or
					      * NULL: computed from doc */
	size_t findings_count;
	const wl_report_dropped *dropped;    /* rules not off with dropped findings */
	size_t dropped_count;
	wl_report_counts counts;             /* this file only (files == 1) */
	/* An archive's entry (path "ARCHIVE:PATH", cli/archive_walk.h): the
	 * archive's path and the entry's path inside it (SARIF: the archive is
	 * the artifact, the entry the logical location), and the file offset in
	 * the archive of the entry's first byte when it is stored as is, -1
	 * when packed (offsets then are inside the unpacked entry only).  NULL,
	 * NULL, 0 for a file. */
	const char *archive;
	const char *entry;
	int64_t entry_offset;
} wl_file_report;

/* A baseline entry that no longer matches (lint/report/baseline.h): the baseline
 * records more findings of rule in path than were found. */
typedef struct wl_report_stale {
	const char *path;    /* the baseline's key: relative to its folder */
	const char *rule;
	uint64_t recorded;   /* findings in the baseline */
	uint64_t found;      /* findings found now (0 when the file is gone) */
	bool missing;        /* the file no longer exists */
} wl_report_stale;

/* A name or rule id with a count. */
typedef struct wl_report_tally {
	const char *name;
	uint64_t count;
} wl_report_tally;

/* The run's note on references to names that no file of the run defines,
 * when no base game was given (--base, base:): they are not findings
 * (not in any count, the baseline or w3dfix), only counted here
 * (lint/run/run.h; README "Base game"). */
typedef struct wl_report_unresolved {
	uint64_t count;                 /* references folded; 0: no note */
	const wl_report_tally *rules;   /* per rule id, most first */
	size_t rules_count;
	const wl_report_tally *names;   /* the most named (at most
	                                 * WL_REPORT_TOP_NAMES), most first;
	                                 * raw bytes from the files */
	size_t names_count;
} wl_report_unresolved;

#define WL_REPORT_TOP_NAMES 5

/**
 * The note's text, one line, malloc'd (NULL when out of memory): how many
 * references, per rule, the most named and how to pass --base.  Names are
 * raw: each reporter writes the text through its escaping (core/escape.h).
 */
char *wl_report_unresolved_message(const wl_report_unresolved *u);

/* What finish gets. */
typedef struct wl_report_summary {
	wl_report_counts totals;
	const char *baseline;                /* --baseline FILE, or NULL */
	const wl_report_stale *stale;        /* in baseline key order */
	size_t stale_count;
	uint64_t max_findings;               /* --max-findings, 0 = no cap */
	bool infos_hidden;                   /* text, github: info findings
					      * counted but not listed */
	const char *const *unreadable;       /* paths that could not be read
					      * (at most totals.unreadable) */
	size_t unreadable_count;
	const wl_report_unresolved *unresolved; /* NULL or count 0: no note;
					      * text: a "note:" line before the
					      * summary; github: a notice; JSON:
					      * "unresolved"; SARIF: a
					      * toolExecutionNotification */
} wl_report_summary;

typedef struct wl_reporter wl_reporter;
struct wl_reporter {
	int (*file)(wl_reporter *r, const wl_file_report *f);
	int (*finish)(wl_reporter *r, const wl_report_summary *s);
	void (*destroy)(wl_reporter *r);
};

/**
 * Text reporter writing to out.  color: ANSI colours; quiet: summary (and
 * stale baseline notes) only; fold: findings shown per file and (rule,
 * message pattern) before the rest are folded into one line, 0 = never fold.
 */
wl_reporter *wl_report_text_new(FILE *out, bool color, bool quiet, unsigned fold);

/** JSON reporter writing one document to out as a stream, file by file;
 *  finish writes the totals and ends it. */
wl_reporter *wl_report_json_new(FILE *out);

/** Makes the JSON reporter r write to out from here on, after writing what
 *  it gathered to its stream (the HTML report, cli/report_html.h).  0, or
 *  -1 when out of memory or a write failed. */
int wl_report_json_retarget(wl_reporter *r, FILE *out);

/**
 * SARIF 2.1.0 reporter writing one log to out as a stream: the rules with
 * the first file that has findings, then the results file by file; finish
 * writes the invocation and ends it (report_sarif.c).  cat (borrowed,
 * must outlive the reporter) gives runs[0].tool.driver.rules, one
 * reportingDescriptor per catalogue rule in id order.
 */
wl_reporter *wl_report_sarif_new(FILE *out, const wl_catalog *cat);

/* What the HTML report is made of besides the JSON report (cli/report_html.c
 * gives the front end's). */
typedef struct wl_report_html_parts {
	/* The viewer: the page's script (report-viewer.js, web/report.js built
	 * by web/build.mjs; docs/web.md), viewer_size bytes of JavaScript,
	 * written as it is into a <script> element: it must hold no "</script"
	 * and no "<!--" in any letter case (wl_report_html_viewer_ok). */
	const unsigned char *viewer;
	size_t viewer_size;
	/* Writes the geometry JSON of a file with findings (w3ddump
	 * --geometry's object, textform/geometry.h) to out; 0, or -1: the file
	 * is shown without geometry.  NULL: no geometry. */
	int (*geometry)(const void *ud, const wl_file_report *f, FILE *out);
	/* Writes rule's --explain text to out; 0, or -1: none.  NULL: none. */
	int (*explain)(const void *ud, const char *rule, FILE *out);
	const void *ud;
} wl_report_html_parts;

/**
 * HTML reporter writing one self-contained page to out (docs/web.md "The
 * HTML report"): the JSON report of wl_report_json_new, byte for byte, cut
 * after each file into <script type="application/json"
 * class="w3dlint-json"> elements (their texts joined are the document);
 * after each file with findings a script.w3dlint-geometry holding
 * {"path": the file's path as in the JSON report, "geometry": what
 * parts->geometry wrote}; at the end script#w3dlint-explain,
 * {"RULE": text} for the rules with findings, then the viewer.  In the
 * JSON texts '<' is written \u003c.  Memory: one file's part of the JSON
 * and one file's geometry at a time.  NULL when out of memory, or with
 * errno EINVAL when parts->viewer is empty or fails
 * wl_report_html_viewer_ok.
 */
wl_reporter *wl_report_html_new(FILE *out, const wl_report_html_parts *parts);

/** Whether viewer[0..size) can be the content of a <script> element: not
 *  empty, no "</script" and no "<!--" in any letter case. */
bool wl_report_html_viewer_ok(const unsigned char *viewer, size_t size);

/**
 * GitHub Actions reporter: one workflow command per finding on out,
 * "::error file=PATH,line=1,title=RULE::message (chunk path, offset 0xN)",
 * notice for info; folded like the text report (fold as there).
 */
wl_reporter *wl_report_github_new(FILE *out, unsigned fold);

/**
 * Counting reporter: writes nothing and keeps each file's counts
 * (wl_file_report.counts: errors, warnings and infos, capped findings
 * included) by the path the run names it with ("ARCHIVE:PATH" for an
 * archive's entry).  w3dfix runs the lint pass of w3dlint with it first, so
 * that the findings it counts before and after a repair are w3dlint's, the
 * cross-file ones included (cli/lint_pass.h).  NULL when out of memory; a
 * file whose counts could not be kept makes its file callback return -1.
 */
wl_reporter *wl_report_count_new(void);

/** The counts the counting reporter r kept for path (the first file of
 *  that path), or NULL when the run reported no such file. */
const wl_report_counts *wl_report_count_of(wl_reporter *r, const char *path);

/**
 * Writes the message pattern of msg into out (cap bytes, NUL-terminated,
 * truncated to fit): every number (a digit run not preceded by a letter,
 * digit or '_', with an optional sign, fraction, exponent, or 0x prefix)
 * becomes '#', and every single-quoted name becomes '*'.  Two findings of a
 * rule with the same pattern differ only in those values, e.g.
 * "pivot 7 'BONE_L' has parent 9" -> "pivot # '*' has parent #".
 * Returns the length of the full pattern (may exceed cap - 1).
 */
size_t wl_report_pattern(const char *msg, char *out, size_t cap);

/* How one finding is shown once folding applies. */
typedef struct wl_fold_entry {
	uint32_t rank;      /* 0-based position among its (rule, pattern) group */
	uint32_t total;     /* findings in the group */
	uint64_t last;      /* offset of the group's last finding */
} wl_fold_entry;

/**
 * Groups items[0..count) (one file's findings, in report order) by rule and
 * wl_report_pattern of the message, writing out[i] for each.  A reporter
 * folding at fold (> 0) shows item i when rank < fold, shows one line for
 * the total - fold others at rank == fold, and skips the rest.  Returns 0,
 * or -1 when out of memory (out is then unchanged).
 */
int wl_report_fold_plan(const wl_finding *items, size_t count, wl_fold_entry *out);

/** The chunk path of f->findings[i] ("" for findings about the whole
 *  file): f->chunk_paths[i], or written into buf (cap bytes) from f->doc. */
const char *wl_file_report_chunk_path(const wl_file_report *f, size_t i, char *buf, size_t cap);

/** The format name of f ("unknown" when it has none). */
const char *wl_file_report_format(const wl_file_report *f);

/** A JSON string (jansson json_t, new reference) of s; bytes that are not
 *  UTF-8 become U+FFFD.  NULL when out of memory.  (report_json.c) */
struct json_t *wl_report_json_str(const char *s);

static inline int wl_reporter_file(wl_reporter *r, const wl_file_report *f)
{
	return r->file(r, f);
}
static inline int wl_reporter_finish(wl_reporter *r, const wl_report_summary *s)
{
	return r->finish(r, s);
}
static inline void wl_reporter_free(wl_reporter *r)
{
	if (r)
		r->destroy(r);
}

#endif
