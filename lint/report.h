/*
 * report.h - the report writers of w3dlint: text (default) and JSON.
 *
 * The front end lints one file at a time and hands each result to a
 * reporter, in file order, then calls finish with the totals.  A reporter
 * only formats: it never decides severities or exit status.
 *
 *   text  path:0xOFFSET: severity: message [rule-id] (chunk path)
 *         one line per finding, grouped per file, a line per rule whose
 *         findings were capped, and a summary line at the end.
 *   json  one document, written by finish (docs/report-json.md).
 */
#ifndef WL_REPORT_H
#define WL_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/chunk.h"

#define W3DLINT_NAME "w3dlint"
#ifndef W3DLINT_VERSION
#define W3DLINT_VERSION "0.1.0"
#endif

/* Finding counts by effective severity.  "dropped" counts findings left out
 * by the per-rule cap (WL_FINDINGS_PER_RULE_MAX); they are not part of the
 * severity counts. */
typedef struct wl_report_counts {
	uint64_t files;
	uint64_t files_with_errors;
	uint64_t errors, warnings, infos;
	uint64_t dropped;
} wl_report_counts;

/* A rule whose findings were capped in one file. */
typedef struct wl_report_dropped {
	const char *rule;
	uint64_t count;
} wl_report_dropped;

/* One linted file, as handed to a reporter. */
typedef struct wl_file_report {
	const char *path;
	uint64_t size;                       /* bytes */
	const wl_doc *doc;                   /* findings with effective severities */
	const wl_report_dropped *dropped;    /* rules not off with dropped findings */
	size_t dropped_count;
	wl_report_counts counts;             /* this file only (files == 1) */
} wl_file_report;

typedef struct wl_reporter wl_reporter;
struct wl_reporter {
	/* Each returns 0, or -1 when out of memory or the output failed. */
	int (*file)(wl_reporter *r, const wl_file_report *f);
	int (*finish)(wl_reporter *r, const wl_report_counts *totals);
	void (*destroy)(wl_reporter *r);
};

/** Text reporter writing to out.  color: ANSI colours; quiet: summary only. */
wl_reporter *wl_report_text_new(FILE *out, bool color, bool quiet);

/** JSON reporter writing one document to out when finished. */
wl_reporter *wl_report_json_new(FILE *out);

static inline int wl_reporter_file(wl_reporter *r, const wl_file_report *f)
{
	return r->file(r, f);
}
static inline int wl_reporter_finish(wl_reporter *r, const wl_report_counts *totals)
{
	return r->finish(r, totals);
}
static inline void wl_reporter_free(wl_reporter *r)
{
	if (r)
		r->destroy(r);
}

#endif
