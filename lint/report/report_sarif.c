/*
 * report_sarif.c - the SARIF 2.1.0 report (OASIS SARIF 2.1.0; what GitHub
 * code scanning reads: docs/report-sarif.md), built with jansson.
 *
 * One run.  tool.driver.rules holds one reportingDescriptor per catalogue
 * rule, in id order, so that ruleIndex is stable.  Each result has one
 * location: the file (artifactLocation.uri, a relative URI reference with
 * uriBaseId %SRCROOT%, or a file:// URI for an absolute path), a region with
 * startLine 1 (GitHub shows no byte-only region) plus the true byteOffset
 * and byteLength, and the chunk path as a logicalLocation.
 * partialFingerprints.primaryLocationLineHash is computed from the rule, the
 * chunk path and the message pattern (not from text lines, which a binary
 * file does not have), so an alert keeps its identity when unrelated chunks
 * move.
 *
 * The log is written as a stream in file order (lint/report/json_out.h: the bytes
 * jansson's JSON_INDENT(2) dump gives for the same document), in memory
 * bounded by one file's findings.  The rules come before the results, so
 * they are written with the first file that has findings: a rule id that is
 * not in the catalogue (the lint engine renames those
 * internal-unknown-rule, so only a caller handing findings of its own can
 * have one) gets a bare descriptor when it appears in that file, and later
 * ones are written without ruleIndex.
 */
#include "report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"

#include "core/grow.h"
#include "core/path.h"
#include "core/platform.h"

typedef struct sarif_reporter {
	wl_reporter base;
	wl_json_out w;
	const wl_catalog *cat;
	bool started;      /* written up to "results": [ */
	char **extra;      /* ids of rules outside the catalogue, in index order */
	size_t extra_count, extra_cap;
	wl_msgbuf mb;      /* scratch message */
	char *msgs;        /* the messages of the file being written, NUL-separated */
	size_t msgs_len, msgs_cap;
	char *pat;         /* scratch message pattern */
	size_t pat_cap;
} sarif_reporter;

/* "key": { "text": s } */
static void text_out(wl_json_out *w, const char *key, const char *s)
{
	wl_jo_key(w, key);
	wl_jo_object(w);
	wl_jo_kstr(w, "text", s);
	wl_jo_end(w);
}

/* SARIF level of a severity: error, warning, note (reportingConfiguration
 * level enum; info has no own level). */
static const char *level_of(wl_severity s)
{
	switch (s) {
	case WL_SEV_ERROR: return "error";
	case WL_SEV_WARNING: return "warning";
	case WL_SEV_INFO: return "note";
	default: return "none";
	}
}

/* GitHub's properties.problem.severity: error, warning, recommendation. */
static const char *problem_severity(wl_severity s)
{
	switch (s) {
	case WL_SEV_ERROR: return "error";
	case WL_SEV_WARNING: return "warning";
	default: return "recommendation";
	}
}

/* ---------------------------------------------------------------- rules */

static int rule_out(wl_json_out *w, const wl_rule_def *r)
{
	size_t hn = strlen(r->explanation) + strlen(r->id) * 2 + 160;
	char *htext = malloc(hn);
	char *hmd = malloc(hn);
	if (!htext || !hmd) {
		free(htext);
		free(hmd);
		return -1;
	}
	const char *how = strcmp(r->fixable, "safe") == 0     ? "safe: w3dfix repairs it by default"
			  : strcmp(r->fixable, "unsafe") == 0 ? "unsafe: w3dfix repairs it only when asked"
							      : "none: w3dfix does not repair it";
	snprintf(htext, hn, "%s\n\nFixable: %s.  Parameters and defaults: w3dlint --explain %s", r->explanation, how,
		 r->id);
	snprintf(hmd, hn, "%s\n\n**Fixable:** %s.  Parameters and defaults: `w3dlint --explain %s`", r->explanation,
		 how, r->id);
	wl_jo_object(w);
	wl_jo_kstr(w, "id", r->id);
	wl_jo_kstr(w, "name", r->id);
	text_out(w, "shortDescription", r->summary);
	text_out(w, "fullDescription", r->explanation);
	wl_jo_key(w, "help");
	wl_jo_object(w);
	wl_jo_kstr(w, "text", htext);
	wl_jo_kstr(w, "markdown", hmd);
	wl_jo_end(w);
	wl_jo_key(w, "defaultConfiguration");
	wl_jo_object(w);
	wl_jo_kstr(w, "level", level_of(r->severity));
	/* off, or outside the default rule set (opt-in, or no target
	 * affected): not run unless selected */
	if (r->severity == WL_SEV_OFF || !wl_rule_in_default_set(r)) {
		wl_jo_key(w, "enabled");
		wl_jo_bool(w, false);
	}
	wl_jo_end(w);
	wl_jo_key(w, "properties");
	wl_jo_object(w);
	wl_jo_key(w, "tags");
	wl_jo_array(w);
	if (r->format && r->format[0])
		wl_jo_str(w, r->format);
	wl_jo_str(w, r->category);
	wl_jo_end(w);
	wl_jo_kstr(w, "problem.severity", problem_severity(r->severity));
	wl_jo_end(w);
	wl_jo_end(w);
	free(htext);
	free(hmd);
	return 0;
}

/* A descriptor for a rule id that is not in the catalogue (cannot happen
 * for lint findings, which are renamed internal-unknown-rule; kept so that
 * every result names a rule GitHub knows). */
static void bare_rule_out(wl_json_out *w, const char *id)
{
	wl_jo_object(w);
	wl_jo_kstr(w, "id", id);
	wl_jo_kstr(w, "name", id);
	text_out(w, "shortDescription", id);
	text_out(w, "fullDescription", id);
	text_out(w, "help", "not in the rule catalogue");
	wl_jo_end(w);
}

/* The catalogue index of id, or -1. */
static int64_t catalog_index(const sarif_reporter *sr, const char *id)
{
	size_t i = wl_catalog_index(sr->cat, id);
	return i == SIZE_MAX ? -1 : (int64_t)i;
}

/* ruleIndex of id: in the catalogue, or among the bare descriptors; before
 * the rules are written an unknown id is added (-2 when out of memory);
 * after, -1 (no ruleIndex). */
static int64_t rule_index(sarif_reporter *sr, const char *id)
{
	int64_t i = catalog_index(sr, id);
	if (i >= 0)
		return i;
	size_t base = sr->cat ? wl_catalog_count(sr->cat) : 0;
	for (size_t k = 0; k < sr->extra_count; k++)
		if (strcmp(sr->extra[k], id) == 0)
			return (int64_t)(base + k);
	if (sr->started)
		return -1;
	if (!wl_grow((void **)&sr->extra, &sr->extra_cap, sr->extra_count + 1, sizeof *sr->extra))
		return -2;
	if (!(sr->extra[sr->extra_count] = strdup(id)))
		return -2;
	return (int64_t)(base + sr->extra_count++);
}

/* The log up to "results": [ (with the rules), once. */
static int start(sarif_reporter *sr)
{
	if (sr->started)
		return 0;
	sr->started = true;
	wl_json_out *w = &sr->w;
	wl_jo_object(w);
	wl_jo_kstr(w, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	wl_jo_kstr(w, "version", "2.1.0");
	wl_jo_key(w, "runs");
	wl_jo_array(w);
	wl_jo_object(w);
	wl_jo_key(w, "tool");
	wl_jo_object(w);
	wl_jo_key(w, "driver");
	wl_jo_object(w);
	wl_jo_kstr(w, "name", W3DLINT_NAME);
	wl_jo_kstr(w, "semanticVersion", W3DLINT_VERSION);
	wl_jo_kstr(w, "version", W3DLINT_VERSION);
	wl_jo_key(w, "rules");
	wl_jo_array(w);
	size_t n = sr->cat ? wl_catalog_count(sr->cat) : 0;
	for (size_t i = 0; i < n; i++)
		if (rule_out(w, wl_catalog_at(sr->cat, i)) != 0)
			return -1;
	for (size_t k = 0; k < sr->extra_count; k++)
		bare_rule_out(w, sr->extra[k]);
	wl_jo_end(w); /* rules */
	wl_jo_end(w); /* driver */
	wl_jo_end(w); /* tool */
	wl_jo_key(w, "results");
	wl_jo_array(w);
	return 0;
}

/* -------------------------------------------------------------- results */

/* A URI reference for a file path: unreserved bytes and '/' as they are,
 * everything else percent-encoded (RFC 3986); the platform's separators
 * written '/' (Windows: '\\'); leading "./" removed; an absolute path
 * becomes a file URI (RFC 8089: /work/m.w3d -> file:///work/m.w3d,
 * C:\\Mod\\m.w3d -> file:///C:/Mod/m.w3d, \\\\srv\\share\\m.w3d ->
 * file://srv/share/m.w3d).  *relative tells which.  malloc'd. */
static char *path_uri(const char *raw, bool *relative)
{
	char *copy = wl_path_slashes(raw);
	if (!copy)
		return NULL;
	const char *path = copy;
	while (path[0] == '.' && path[1] == '/') {
		path += 2;
		while (*path == '/')
			path++;
	}
	size_t root = wl_os_path_root(path);
	*relative = root == 0;
	size_t n = strlen(path);
	char *s = malloc(n * 3 + 9);
	if (!s) {
		free(copy);
		return NULL;
	}
	size_t at = 0;
	/* a drive letter's colon stays, as RFC 8089 writes it */
	size_t drive = root >= 2 && path[1] == ':' ? 2 : 0;
	if (!*relative) {
		memcpy(s, "file://", 7);
		at = 7;
		if (path[0] == '/' && path[1] == '/')
			path += 2; /* \\srv\share: the server is the URI's authority */
		else if (path[0] != '/')
			s[at++] = '/';
	}
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		unsigned char c = *p;
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
			    c == '.' || c == '_' || c == '~' || c == '/' ||
			    (drive && (const char *)p == path + 1 && c == ':');
		if (keep) {
			s[at++] = (char)c;
		} else {
			s[at++] = '%';
			s[at++] = hex[c >> 4];
			s[at++] = hex[c & 15];
		}
	}
	s[at] = 0;
	free(copy);
	return s;
}

/* FNV-1a, 64 bits, over s and a separator byte. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	h ^= 0xff;
	h *= 0x100000001b3ULL;
	return h;
}

/* The fingerprint hash of a finding: its rule, chunk path and message
 * pattern.  -1 in *oom when the pattern buffer cannot grow. */
static uint64_t finding_hash(sarif_reporter *sr, const char *rule, const char *cpath, const char *message)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	h = fnv1a(h, rule);
	h = fnv1a(h, cpath);
	size_t n = wl_report_pattern(message, sr->pat, sr->pat_cap);
	if (n >= sr->pat_cap) {
		if (!wl_grow((void **)&sr->pat, &sr->pat_cap, n + 1, 1))
			return fnv1a(h, message);
		wl_report_pattern(message, sr->pat, sr->pat_cap);
	}
	return fnv1a(h, sr->pat);
}

/* The logical location of f->findings[i]: its chunk path, after the
 * entry's path for an archive's entry ("Art/W3D/tank.w3d/MESH[BODY]"). */
static const char *logical_path(const wl_file_report *f, size_t i, char *buf, size_t cap)
{
	char cbuf[1024];
	const char *cpath = wl_file_report_chunk_path(f, i, cbuf, sizeof cbuf);
	snprintf(buf, cap, "%s%s%s", f->entry ? f->entry : "", f->entry && cpath[0] ? "/" : "", cpath);
	return buf;
}

static void artifact_out(wl_json_out *w, const char *uri, bool relative)
{
	wl_jo_key(w, "artifactLocation");
	wl_jo_object(w);
	wl_jo_kstr(w, "uri", uri);
	if (relative)
		wl_jo_kstr(w, "uriBaseId", "%SRCROOT%");
	wl_jo_end(w);
}

/* The location of x: the artifact and, for an entry stored as is in an
 * archive (at f->entry_offset) or a plain file, x's bytes there; a packed
 * entry has no byte region in its archive. */
static void location_out(wl_json_out *w, const char *uri, bool relative, const wl_file_report *f,
			 const wl_finding *x, const char *cpath)
{
	wl_jo_object(w);
	wl_jo_key(w, "physicalLocation");
	wl_jo_object(w);
	artifact_out(w, uri, relative);
	wl_jo_key(w, "region");
	wl_jo_object(w);
	wl_jo_kuint(w, "startLine", 1);
	if (!f->archive || f->entry_offset >= 0) {
		uint64_t base = f->archive ? (uint64_t)f->entry_offset : 0;
		wl_jo_kuint(w, "byteOffset", base + x->offset);
		wl_jo_kuint(w, "byteLength", x->length);
	}
	wl_jo_end(w);
	wl_jo_end(w);
	if (cpath[0]) {
		wl_jo_key(w, "logicalLocations");
		wl_jo_array(w);
		wl_jo_object(w);
		wl_jo_kstr(w, "fullyQualifiedName", cpath);
		wl_jo_kstr(w, "kind", "object");
		wl_jo_end(w);
		wl_jo_end(w);
	}
	wl_jo_end(w);
}

/* relatedLocations of a cross-file finding: the other file (its whole:
 * the finding's message names the object there). */
static int related_out(wl_json_out *w, const char *path)
{
	bool relative;
	char *uri = path_uri(path, &relative);
	if (!uri)
		return -1;
	wl_jo_key(w, "relatedLocations");
	wl_jo_array(w);
	wl_jo_object(w);
	wl_jo_kuint(w, "id", 1);
	wl_jo_key(w, "physicalLocation");
	wl_jo_object(w);
	artifact_out(w, uri, relative);
	wl_jo_end(w);
	text_out(w, "message", "the other file of this cross-file finding");
	wl_jo_end(w);
	wl_jo_end(w);
	free(uri);
	return 0;
}

/* A finding's fingerprint hash and its position in the file's report. */
typedef struct hash_slot {
	uint64_t h;
	size_t index;
} hash_slot;

static int cmp_hash_slot(const void *x, const void *y)
{
	const hash_slot *a = x, *b = y;
	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The result of finding i, whose message is msg; h is its fingerprint
 * hash, k its occurrence (1-based) among the file's findings with that
 * hash. */
static int result_out(sarif_reporter *sr, const wl_file_report *f, size_t i, const char *msg, const char *uri,
		      bool relative, uint64_t h, uint64_t k)
{
	wl_json_out *w = &sr->w;
	const wl_finding *x = &f->findings[i];
	char buf[2048];
	const char *cpath = logical_path(f, i, buf, sizeof buf);
	int64_t idx = rule_index(sr, x->rule);
	if (idx == -2)
		return -1;
	char fpbuf[48];
	snprintf(fpbuf, sizeof fpbuf, "%016llx:%llu", (unsigned long long)h, (unsigned long long)k);
	wl_jo_object(w);
	wl_jo_kstr(w, "ruleId", x->rule);
	if (idx >= 0)
		wl_jo_kuint(w, "ruleIndex", (uint64_t)idx);
	wl_jo_kstr(w, "level", level_of(x->severity));
	text_out(w, "message", msg);
	wl_jo_key(w, "locations");
	wl_jo_array(w);
	location_out(w, uri, relative, f, x, cpath);
	wl_jo_end(w);
	if (x->related && related_out(w, x->related) != 0)
		return -1;
	wl_jo_key(w, "partialFingerprints");
	wl_jo_object(w);
	wl_jo_kstr(w, "primaryLocationLineHash", fpbuf);
	wl_jo_end(w);
	wl_jo_end(w);
	return 0;
}

/* Keeps msg (NUL included) in sr->msgs; returns its offset, or SIZE_MAX
 * when out of memory. */
static size_t keep_message(sarif_reporter *sr, const char *msg)
{
	size_t n = strlen(msg) + 1;
	if (!wl_grow((void **)&sr->msgs, &sr->msgs_cap, sr->msgs_len + n, 1))
		return SIZE_MAX;
	size_t at = sr->msgs_len;
	memcpy(sr->msgs + at, msg, n);
	sr->msgs_len += n;
	return at;
}

static int sarif_file(wl_reporter *r, const wl_file_report *f)
{
	sarif_reporter *sr = (sarif_reporter *)r;
	size_t n = f->findings_count;
	if (n == 0)
		return 0;
	/* the rules go first: ids of this file outside the catalogue join them */
	for (size_t i = 0; !sr->started && i < n; i++)
		if (rule_index(sr, f->findings[i].rule) == -2)
			return -1;
	if (start(sr) != 0)
		return -1;
	bool relative;
	char *uri = path_uri(f->archive ? f->archive : f->path, &relative);
	hash_slot *slots = malloc(n * sizeof *slots);
	uint64_t *occ = malloc(n * sizeof *occ);
	size_t *at = malloc(n * sizeof *at);
	int bad = !uri || !slots || !occ || !at;
	/* Equal hashes in one file are told apart by their occurrence :1, :2 ...
	 * in report order (as GitHub's own line hashes are).  Each message is
	 * formatted once, kept for the result. */
	sr->msgs_len = 0;
	for (size_t i = 0; !bad && i < n; i++) {
		const wl_finding *x = &f->findings[i];
		char buf[2048];
		const char *cpath = logical_path(f, i, buf, sizeof buf);
		const char *msg = wl_finding_message(x, &sr->mb);
		at[i] = keep_message(sr, msg);
		bad = at[i] == SIZE_MAX;
		slots[i].h = finding_hash(sr, x->rule, cpath, msg);
		slots[i].index = i;
	}
	if (!bad) {
		hash_slot *sorted = malloc(n * sizeof *sorted);
		bad = !sorted;
		if (sorted) {
			memcpy(sorted, slots, n * sizeof *sorted);
			qsort(sorted, n, sizeof *sorted, cmp_hash_slot);
			for (size_t i = 0; i < n; i++)
				occ[sorted[i].index] = i > 0 && sorted[i - 1].h == sorted[i].h ? occ[sorted[i - 1].index] + 1 : 1;
			free(sorted);
		}
	}
	for (size_t i = 0; !bad && i < n; i++)
		bad = result_out(sr, f, i, sr->msgs + at[i], uri, relative, slots[i].h, occ[i]) != 0;
	free(at);
	free(occ);
	free(slots);
	free(uri);
	return bad ? -1 : wl_jo_status(&sr->w);
}

/* invocations[0]: executionSuccessful is false when a path could not be
 * read; stale baseline entries become toolExecutionNotifications. */
/* One toolExecutionNotification {level, message}. */
static void note_out(wl_json_out *w, const char *level, const char *msg)
{
	wl_jo_object(w);
	wl_jo_kstr(w, "level", level);
	text_out(w, "message", msg);
	wl_jo_end(w);
}

static int invocation_out(wl_json_out *w, const wl_report_summary *s)
{
	char *unres = NULL;
	if (s->unresolved && s->unresolved->count && !(unres = wl_report_unresolved_message(s->unresolved)))
		return -1;
	wl_jo_object(w);
	wl_jo_key(w, "executionSuccessful");
	wl_jo_bool(w, s->totals.unreadable == 0);
	bool notes = s->stale_count || s->unreadable_count || s->totals.not_shown || s->totals.dropped || unres;
	if (notes) {
		wl_jo_key(w, "toolExecutionNotifications");
		wl_jo_array(w);
	}
	for (size_t i = 0; i < s->stale_count; i++) {
		const wl_report_stale *st = &s->stale[i];
		char msg[512];
		if (st->missing)
			snprintf(msg, sizeof msg, "stale baseline entry: %.200s [%.100s]: %llu recorded, the file no longer exists",
				 st->path, st->rule, (unsigned long long)st->recorded);
		else
			snprintf(msg, sizeof msg, "stale baseline entry: %.200s [%.100s]: %llu recorded, %llu found",
				 st->path, st->rule, (unsigned long long)st->recorded, (unsigned long long)st->found);
		note_out(w, "note", msg);
	}
	/* unreadable paths, the results over --max-findings (by default the
	 * 25,000 GitHub takes per run) and the per-rule caps: one note each */
	for (size_t i = 0; i < s->unreadable_count; i++) {
		char msg[600];
		snprintf(msg, sizeof msg, "%.500s: could not be read (not linted)", s->unreadable[i]);
		note_out(w, "error", msg);
	}
	if (s->totals.not_shown) {
		char msg[256];
		snprintf(msg, sizeof msg, "%llu more findings are not listed as results: at most %llu per run "
			 "(--max-findings)", (unsigned long long)s->totals.not_shown,
			 (unsigned long long)s->max_findings);
		note_out(w, "warning", msg);
	}
	if (s->totals.dropped) {
		char msg[256];
		snprintf(msg, sizeof msg, "%llu more findings are not listed as results: at most %d per rule and "
			 "file", (unsigned long long)s->totals.dropped, WL_FINDINGS_PER_RULE_MAX);
		note_out(w, "note", msg);
	}
	/* references no file of the run defines, without a base game: not
	 * results, one note (report.h wl_report_unresolved) */
	if (unres)
		note_out(w, "note", unres);
	free(unres);
	if (notes)
		wl_jo_end(w);
	wl_jo_end(w);
	return 0;
}

static int sarif_finish(wl_reporter *r, const wl_report_summary *s)
{
	sarif_reporter *sr = (sarif_reporter *)r;
	wl_json_out *w = &sr->w;
	if (start(sr) != 0)
		return -1;
	wl_jo_end(w); /* results */
	wl_jo_key(w, "invocations");
	wl_jo_array(w);
	if (invocation_out(w, s) != 0)
		return -1;
	wl_jo_end(w);
	wl_jo_end(w); /* run */
	wl_jo_end(w); /* runs */
	wl_jo_end(w);
	return wl_jo_finish(w);
}

static void sarif_destroy(wl_reporter *r)
{
	sarif_reporter *sr = (sarif_reporter *)r;
	for (size_t k = 0; k < sr->extra_count; k++)
		free(sr->extra[k]);
	free(sr->extra);
	wl_msgbuf_free(&sr->mb);
	free(sr->msgs);
	free(sr->pat);
	free(sr);
}

wl_reporter *wl_report_sarif_new(FILE *out, const wl_catalog *cat)
{
	sarif_reporter *sr = calloc(1, sizeof *sr);
	if (!sr)
		return NULL;
	sr->base.file = sarif_file;
	sr->base.finish = sarif_finish;
	sr->base.destroy = sarif_destroy;
	wl_jo_init(&sr->w, out);
	sr->cat = cat;
	return &sr->base;
}
