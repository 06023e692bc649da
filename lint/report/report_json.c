/* report_json.c - the JSON report, written as a stream in file order
 * (lint/report/json_out.h: the bytes jansson's JSON_INDENT(2) dump gives for the
 * same document); see report.h and docs/report-json.md for the schema. */
#include "report.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "json_out.h"

typedef struct json_reporter {
	wl_reporter base;
	wl_json_out w;
	bool started;     /* the document is open, up to "files": [ */
	wl_msgbuf mb;     /* the message being written */
} json_reporter;

/* A JSON string in the escaped form of core/escape.h: valid UTF-8 without
 * backslashes or control characters is kept as it is; bytes that are not
 * UTF-8 (names in old files are often Latin-1) become \xNN, so the raw
 * bytes can be read back.  (The writers use lint/report/json_out.h, which writes
 * the same form.) */
json_t *wl_report_json_str(const char *s)
{
	char *e = wl_escape_dup(s);
	if (!e)
		return NULL;
	json_t *j = json_string(e);
	free(e);
	return j;
}

/* The counts object: per file, or the totals (with files,
 * files_with_errors and unreadable). */
static void counts_out(wl_json_out *w, const wl_report_counts *c, bool totals)
{
	wl_jo_object(w);
	if (totals) {
		wl_jo_kuint(w, "files", c->files);
		wl_jo_kuint(w, "files_with_errors", c->files_with_errors);
	}
	wl_jo_kuint(w, "errors", c->errors);
	wl_jo_kuint(w, "warnings", c->warnings);
	wl_jo_kuint(w, "infos", c->infos);
	wl_jo_kuint(w, "dropped", c->dropped);
	wl_jo_kuint(w, "baselined", c->baselined);
	wl_jo_kuint(w, "not_shown", c->not_shown);
	if (totals)
		wl_jo_kuint(w, "unreadable", c->unreadable);
	wl_jo_end(w);
}

static void finding_out(json_reporter *jr, const wl_file_report *f, size_t i)
{
	wl_json_out *w = &jr->w;
	const wl_finding *x = &f->findings[i];
	char buf[1024];
	const char *cpath = wl_file_report_chunk_path(f, i, buf, sizeof buf);
	wl_jo_object(w);
	wl_jo_kstr(w, "rule", x->rule);
	wl_jo_kstr(w, "severity", wl_severity_name(x->severity));
	wl_jo_kstr(w, "message", wl_finding_message(x, &jr->mb));
	wl_jo_kuint(w, "offset", x->offset);
	wl_jo_kuint(w, "length", x->length);
	wl_jo_key(w, "chunk_path");
	if (cpath[0])
		wl_jo_str(w, cpath);
	else
		wl_jo_null(w);
	if (x->related)
		wl_jo_kstr(w, "related", x->related);
	wl_jo_end(w);
}

/* The document up to the files array, once. */
static void start(json_reporter *jr)
{
	if (jr->started)
		return;
	jr->started = true;
	wl_json_out *w = &jr->w;
	wl_jo_object(w);
	wl_jo_key(w, "tool");
	wl_jo_object(w);
	wl_jo_kstr(w, "name", W3DLINT_NAME);
	wl_jo_kstr(w, "version", W3DLINT_VERSION);
	wl_jo_end(w);
	wl_jo_key(w, "files");
	wl_jo_array(w);
}

static int json_file(wl_reporter *r, const wl_file_report *f)
{
	json_reporter *jr = (json_reporter *)r;
	wl_json_out *w = &jr->w;
	start(jr);
	wl_jo_object(w);
	wl_jo_kstr(w, "path", f->path);
	wl_jo_kuint(w, "size", f->size);
	wl_jo_kstr(w, "format", wl_file_report_format(f));
	wl_jo_key(w, "findings");
	wl_jo_array(w);
	for (size_t i = 0; i < f->findings_count; i++)
		finding_out(jr, f, i);
	wl_jo_end(w);
	wl_jo_key(w, "dropped");
	wl_jo_object(w);
	for (size_t i = 0; i < f->dropped_count; i++) {
		wl_jo_key(w, f->dropped[i].rule);
		wl_jo_uint(w, f->dropped[i].count);
	}
	wl_jo_end(w);
	wl_jo_key(w, "summary");
	counts_out(w, &f->counts, false);
	wl_jo_end(w);
	return wl_jo_status(w);
}

/* "baseline": { "path": FILE, "stale": [...] }, only with --baseline. */
static void baseline_out(wl_json_out *w, const wl_report_summary *s)
{
	wl_jo_key(w, "baseline");
	wl_jo_object(w);
	wl_jo_kstr(w, "path", s->baseline);
	wl_jo_key(w, "stale");
	wl_jo_array(w);
	for (size_t i = 0; i < s->stale_count; i++) {
		const wl_report_stale *st = &s->stale[i];
		wl_jo_object(w);
		wl_jo_kstr(w, "path", st->path);
		wl_jo_kstr(w, "rule", st->rule);
		wl_jo_kuint(w, "recorded", st->recorded);
		wl_jo_kuint(w, "found", st->found);
		wl_jo_key(w, "missing");
		wl_jo_bool(w, st->missing);
		wl_jo_end(w);
	}
	wl_jo_end(w);
	wl_jo_end(w);
}

/* "unresolved": the run's note on references no file defines (report.h
 * wl_report_unresolved), docs/report-json.md; -1 when out of memory. */
static int unresolved_out(wl_json_out *w, const wl_report_unresolved *u)
{
	char *msg = wl_report_unresolved_message(u);
	if (!msg)
		return -1;
	wl_jo_key(w, "unresolved");
	wl_jo_object(w);
	wl_jo_kuint(w, "count", u->count);
	wl_jo_key(w, "rules");
	wl_jo_object(w);
	for (size_t i = 0; i < u->rules_count; i++)
		wl_jo_kuint(w, u->rules[i].name, u->rules[i].count);
	wl_jo_end(w);
	wl_jo_key(w, "names");
	wl_jo_array(w);
	for (size_t i = 0; i < u->names_count; i++) {
		wl_jo_object(w);
		wl_jo_kstr(w, "name", u->names[i].name);
		wl_jo_kuint(w, "count", u->names[i].count);
		wl_jo_end(w);
	}
	wl_jo_end(w);
	wl_jo_kstr(w, "message", msg);
	wl_jo_end(w);
	free(msg);
	return 0;
}

static int json_finish(wl_reporter *r, const wl_report_summary *s)
{
	json_reporter *jr = (json_reporter *)r;
	wl_json_out *w = &jr->w;
	start(jr);
	wl_jo_end(w); /* files */
	if (s->baseline)
		baseline_out(w, s);
	if (s->unresolved && s->unresolved->count && unresolved_out(w, s->unresolved) != 0)
		return -1;
	wl_jo_key(w, "summary");
	counts_out(w, &s->totals, true);
	wl_jo_end(w);
	return wl_jo_finish(w);
}

static void json_destroy(wl_reporter *r)
{
	json_reporter *jr = (json_reporter *)r;
	wl_msgbuf_free(&jr->mb);
	free(jr);
}

wl_reporter *wl_report_json_new(FILE *out)
{
	json_reporter *jr = calloc(1, sizeof *jr);
	if (!jr)
		return NULL;
	jr->base.file = json_file;
	jr->base.finish = json_finish;
	jr->base.destroy = json_destroy;
	wl_jo_init(&jr->w, out);
	return &jr->base;
}

int wl_report_json_retarget(wl_reporter *r, FILE *out)
{
	return wl_jo_retarget(&((json_reporter *)r)->w, out);
}
