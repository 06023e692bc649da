/* report_json.c - the JSON report, built with jansson; see report.h and
 * docs/report-json.md for the schema. */
#include "report.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/escape.h"

typedef struct json_reporter {
	wl_reporter base;
	FILE *out;
	json_t *root;
	json_t *files;   /* borrowed from root */
} json_reporter;

/* A JSON string of s in the escaped form of core/escape.h: valid UTF-8
 * without backslashes or control characters is kept as it is; bytes that
 * are not UTF-8 (names in old files are often Latin-1) become \xNN, so the
 * raw bytes can be read back.  Declared in report.h for the SARIF writer. */
json_t *wl_report_json_str(const char *s)
{
	char *e = wl_escape_dup(s);
	if (!e)
		return NULL;
	json_t *j = json_string(e);
	free(e);
	return j;
}

static json_t *jstr(const char *s)
{
	return wl_report_json_str(s);
}

static json_t *jint(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? (json_int_t)INT64_MAX : (json_int_t)v);
}

/* Sets key to v (taking the reference); fails when v is NULL. */
static int put(json_t *obj, const char *key, json_t *v)
{
	return v ? json_object_set_new(obj, key, v) : -1;
}

static json_t *counts_json(const wl_report_counts *c, bool totals)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	int bad = 0;
	if (totals) {
		bad |= put(o, "files", jint(c->files));
		bad |= put(o, "files_with_errors", jint(c->files_with_errors));
	}
	bad |= put(o, "errors", jint(c->errors));
	bad |= put(o, "warnings", jint(c->warnings));
	bad |= put(o, "infos", jint(c->infos));
	bad |= put(o, "dropped", jint(c->dropped));
	bad |= put(o, "baselined", jint(c->baselined));
	bad |= put(o, "not_shown", jint(c->not_shown));
	if (totals)
		bad |= put(o, "unreadable", jint(c->unreadable));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *finding_json(const wl_file_report *f, size_t i)
{
	const wl_finding *x = &f->findings[i];
	json_t *o = json_object();
	if (!o)
		return NULL;
	char buf[1024];
	const char *cpath = wl_file_report_chunk_path(f, i, buf, sizeof buf);
	int bad = 0;
	bad |= put(o, "rule", jstr(x->rule));
	bad |= put(o, "severity", jstr(wl_severity_name(x->severity)));
	wl_msgbuf mb = { 0 };
	bad |= put(o, "message", jstr(wl_finding_message(x, &mb)));
	wl_msgbuf_free(&mb);
	bad |= put(o, "offset", jint(x->offset));
	bad |= put(o, "length", jint(x->length));
	bad |= put(o, "chunk_path", cpath[0] ? jstr(cpath) : json_null());
	if (x->related)
		bad |= put(o, "related", jstr(x->related));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int json_file(wl_reporter *r, const wl_file_report *f)
{
	json_reporter *jr = (json_reporter *)r;
	json_t *o = json_object();
	json_t *arr = json_array();
	json_t *dropped = json_object();
	int bad = !o || !arr || !dropped;
	for (size_t i = 0; !bad && i < f->findings_count; i++) {
		json_t *x = finding_json(f, i);
		bad = !x || json_array_append_new(arr, x) != 0;
	}
	for (size_t i = 0; !bad && i < f->dropped_count; i++)
		bad = put(dropped, f->dropped[i].rule, jint(f->dropped[i].count)) != 0;
	if (bad) {
		json_decref(o);
		json_decref(arr);
		json_decref(dropped);
		return -1;
	}
	bad |= put(o, "path", jstr(f->path));
	bad |= put(o, "size", jint(f->size));
	bad |= put(o, "format", jstr(wl_file_report_format(f)));
	bad |= put(o, "findings", arr);
	bad |= put(o, "dropped", dropped);
	bad |= put(o, "summary", counts_json(&f->counts, false));
	if (bad) {
		json_decref(o);
		return -1;
	}
	return json_array_append_new(jr->files, o) != 0 ? -1 : 0;
}

static json_t *stale_json(const wl_report_stale *s)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	int bad = 0;
	bad |= put(o, "path", jstr(s->path));
	bad |= put(o, "rule", jstr(s->rule));
	bad |= put(o, "recorded", jint(s->recorded));
	bad |= put(o, "found", jint(s->found));
	bad |= put(o, "missing", json_boolean(s->missing));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* "baseline": { "path": FILE, "stale": [...] }, only with --baseline. */
static json_t *baseline_json(const wl_report_summary *s)
{
	json_t *o = json_object();
	json_t *arr = json_array();
	int bad = !o || !arr;
	for (size_t i = 0; !bad && i < s->stale_count; i++) {
		json_t *x = stale_json(&s->stale[i]);
		bad = !x || json_array_append_new(arr, x) != 0;
	}
	if (bad) {
		json_decref(o);
		json_decref(arr);
		return NULL;
	}
	bad |= put(o, "path", jstr(s->baseline));
	bad |= put(o, "stale", arr);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int json_finish(wl_reporter *r, const wl_report_summary *s)
{
	json_reporter *jr = (json_reporter *)r;
	if (s->baseline && put(jr->root, "baseline", baseline_json(s)) != 0)
		return -1;
	if (put(jr->root, "summary", counts_json(&s->totals, true)) != 0)
		return -1;
	if (json_dumpf(jr->root, jr->out, JSON_INDENT(2)) != 0)
		return -1;
	fputc('\n', jr->out);
	if (fflush(jr->out) != 0 || ferror(jr->out))
		return -1;
	return 0;
}

static void json_destroy(wl_reporter *r)
{
	json_reporter *jr = (json_reporter *)r;
	json_decref(jr->root);
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
	jr->out = out;
	jr->root = json_object();
	jr->files = json_array();
	json_t *tool = json_object();
	int bad = !jr->root || !jr->files || !tool;
	if (!bad) {
		bad |= put(tool, "name", jstr(W3DLINT_NAME));
		bad |= put(tool, "version", jstr(W3DLINT_VERSION));
		bad |= json_object_set_new(jr->root, "tool", tool);
		bad |= json_object_set(jr->root, "files", jr->files);
	} else {
		json_decref(tool);
	}
	json_decref(jr->files); /* root holds it now (or it goes away) */
	if (bad) {
		json_decref(jr->root);
		free(jr);
		return NULL;
	}
	return &jr->base;
}
