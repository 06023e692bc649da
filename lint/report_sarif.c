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
 */
#include "report.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct sarif_reporter {
	wl_reporter base;
	FILE *out;
	const wl_catalog *cat;
	json_t *root;
	json_t *rules;     /* borrowed from root */
	json_t *results;   /* borrowed from root */
	json_t *extra;     /* ids of rules added outside the catalogue: id -> index */
	size_t rule_count;
} sarif_reporter;

static int put(json_t *obj, const char *key, json_t *v)
{
	return v ? json_object_set_new(obj, key, v) : -1;
}

static json_t *jstr(const char *s)
{
	return wl_report_json_str(s);
}

static json_t *jint(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? (json_int_t)INT64_MAX : (json_int_t)v);
}

/* { "text": s } */
static json_t *text_obj(const char *s)
{
	json_t *o = json_object();
	if (o && put(o, "text", jstr(s)) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
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

static json_t *rule_json(const wl_rule_def *r)
{
	json_t *o = json_object();
	json_t *help = json_object();
	json_t *cfg = json_object();
	json_t *props = json_object();
	json_t *tags = json_array();
	size_t hn = strlen(r->explanation) + strlen(r->id) * 2 + 160;
	char *htext = malloc(hn);
	char *hmd = malloc(hn);
	int bad = !o || !help || !cfg || !props || !tags || !htext || !hmd;
	if (!bad) {
		const char *how = strcmp(r->fixable, "safe") == 0     ? "safe: w3dfix repairs it by default"
				  : strcmp(r->fixable, "unsafe") == 0 ? "unsafe: w3dfix repairs it only when asked"
								      : "no: w3dfix does not repair it";
		snprintf(htext, hn, "%s\n\nFixable: %s.  Parameters and defaults: w3dlint --explain %s", r->explanation,
			 how, r->id);
		snprintf(hmd, hn, "%s\n\n**Fixable:** %s.  Parameters and defaults: `w3dlint --explain %s`",
			 r->explanation, how, r->id);
		/* the catalogue's own text: no escaping (wl_report_json_str
		 * would write the paragraph breaks as a literal backslash-n) */
		bad |= put(help, "text", json_string(htext));
		bad |= put(help, "markdown", json_string(hmd));
		bad |= put(cfg, "level", jstr(level_of(r->severity)));
		/* off, or outside the default rule set (opt-in, or no target
		 * affected): not run unless selected */
		if (r->severity == WL_SEV_OFF || !wl_rule_in_default_set(r))
			bad |= put(cfg, "enabled", json_false());
		if (r->format && r->format[0])
			bad |= json_array_append_new(tags, jstr(r->format));
		bad |= json_array_append_new(tags, jstr(r->category));
		bad |= put(props, "tags", tags);
		tags = NULL;
		bad |= put(props, "problem.severity", jstr(problem_severity(r->severity)));
		bad |= put(o, "id", jstr(r->id));
		bad |= put(o, "name", jstr(r->id));
		bad |= put(o, "shortDescription", text_obj(r->summary));
		bad |= put(o, "fullDescription", text_obj(r->explanation));
		bad |= put(o, "help", help);
		help = NULL;
		bad |= put(o, "defaultConfiguration", cfg);
		cfg = NULL;
		bad |= put(o, "properties", props);
		props = NULL;
	}
	free(htext);
	free(hmd);
	json_decref(help);
	json_decref(cfg);
	json_decref(props);
	json_decref(tags);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A descriptor for a rule id that is not in the catalogue (cannot happen
 * for lint findings, which are renamed internal-unknown-rule; kept so that
 * every result names a rule GitHub knows). */
static json_t *bare_rule_json(const char *id)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	int bad = 0;
	bad |= put(o, "id", jstr(id));
	bad |= put(o, "name", jstr(id));
	bad |= put(o, "shortDescription", text_obj(id));
	bad |= put(o, "fullDescription", text_obj(id));
	bad |= put(o, "help", text_obj("not in the rule catalogue"));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ruleIndex of id, adding a bare descriptor when it is not in the
 * catalogue; -1 when out of memory. */
static int64_t rule_index(sarif_reporter *sr, const char *id)
{
	size_t n = wl_catalog_count(sr->cat);
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(wl_catalog_at(sr->cat, mid)->id, id);
		if (c == 0)
			return (int64_t)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	json_t *known = json_object_get(sr->extra, id);
	if (known)
		return (int64_t)json_integer_value(known);
	json_t *r = bare_rule_json(id);
	if (!r || json_array_append_new(sr->rules, r) != 0)
		return -1;
	int64_t idx = (int64_t)sr->rule_count++;
	if (json_object_set_new(sr->extra, id, json_integer(idx)) != 0)
		return -1;
	return idx;
}

/* -------------------------------------------------------------- results */

/* A URI reference for a file path: unreserved bytes and '/' as they are,
 * everything else percent-encoded (RFC 3986); leading "./" removed; an
 * absolute path becomes file:///... .  *relative tells which.  malloc'd. */
static char *path_uri(const char *path, bool *relative)
{
	while (path[0] == '.' && path[1] == '/') {
		path += 2;
		while (*path == '/')
			path++;
	}
	*relative = path[0] != '/';
	size_t n = strlen(path);
	char *s = malloc(n * 3 + 8);
	if (!s)
		return NULL;
	size_t at = 0;
	if (!*relative) {
		memcpy(s, "file://", 7);
		at = 7;
	}
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		unsigned char c = *p;
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
			    c == '.' || c == '_' || c == '~' || c == '/';
		if (keep) {
			s[at++] = (char)c;
		} else {
			s[at++] = '%';
			s[at++] = hex[c >> 4];
			s[at++] = hex[c & 15];
		}
	}
	s[at] = 0;
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

static uint64_t finding_hash(const char *rule, const char *cpath, const char *message)
{
	size_t n = wl_report_pattern(message, NULL, 0);
	char *pat = malloc(n + 1);
	uint64_t h = 0xcbf29ce484222325ULL;
	h = fnv1a(h, rule);
	h = fnv1a(h, cpath);
	if (pat) {
		wl_report_pattern(message, pat, n + 1);
		h = fnv1a(h, pat);
		free(pat);
	} else {
		h = fnv1a(h, message);
	}
	return h;
}

static json_t *location_json(const char *uri, bool relative, const wl_finding *x, const char *cpath)
{
	json_t *loc = json_object();
	json_t *phys = json_object();
	json_t *art = json_object();
	json_t *region = json_object();
	int bad = !loc || !phys || !art || !region;
	if (!bad) {
		bad |= put(art, "uri", jstr(uri));
		if (relative)
			bad |= put(art, "uriBaseId", jstr("%SRCROOT%"));
		bad |= put(region, "startLine", json_integer(1));
		bad |= put(region, "byteOffset", jint(x->offset));
		bad |= put(region, "byteLength", jint(x->length));
		bad |= put(phys, "artifactLocation", art);
		art = NULL;
		bad |= put(phys, "region", region);
		region = NULL;
		bad |= put(loc, "physicalLocation", phys);
		phys = NULL;
		if (cpath[0]) {
			json_t *logs = json_array();
			json_t *lg = json_object();
			bad |= !logs || !lg;
			if (!bad) {
				bad |= put(lg, "fullyQualifiedName", jstr(cpath));
				bad |= put(lg, "kind", jstr("object"));
				bad |= json_array_append(logs, lg);
			}
			json_decref(lg);
			bad |= put(loc, "logicalLocations", logs);
		}
	}
	json_decref(art);
	json_decref(region);
	json_decref(phys);
	if (bad) {
		json_decref(loc);
		return NULL;
	}
	return loc;
}

/* relatedLocations of a cross-file finding: the other file (its whole:
 * the finding's message names the object there). */
static json_t *related_json(const char *path)
{
	bool relative;
	char *uri = path_uri(path, &relative);
	json_t *arr = json_array();
	json_t *loc = json_object();
	json_t *phys = json_object();
	json_t *art = json_object();
	int bad = !uri || !arr || !loc || !phys || !art;
	if (!bad) {
		bad |= put(art, "uri", jstr(uri));
		if (relative)
			bad |= put(art, "uriBaseId", jstr("%SRCROOT%"));
		bad |= put(phys, "artifactLocation", art);
		art = NULL;
		bad |= put(loc, "id", json_integer(1));
		bad |= put(loc, "physicalLocation", phys);
		phys = NULL;
		bad |= put(loc, "message", text_obj("the other file of this cross-file finding"));
		bad |= json_array_append(arr, loc);
	}
	free(uri);
	json_decref(art);
	json_decref(phys);
	json_decref(loc);
	if (bad) {
		json_decref(arr);
		return NULL;
	}
	return arr;
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

/* The result of x; h is its fingerprint hash, k its occurrence (1-based)
 * among the file's findings with that hash. */
static json_t *result_json(sarif_reporter *sr, const wl_file_report *f, size_t i, const char *uri, bool relative,
			   uint64_t h, uint64_t k)
{
	const wl_finding *x = &f->findings[i];
	char buf[1024];
	const char *cpath = wl_file_report_chunk_path(f, i, buf, sizeof buf);
	int64_t idx = rule_index(sr, x->rule);
	json_t *o = json_object();
	json_t *locs = json_array();
	json_t *fp = json_object();
	int bad = idx < 0 || !o || !locs || !fp;
	if (!bad) {
		char fpbuf[48];
		snprintf(fpbuf, sizeof fpbuf, "%016llx:%llu", (unsigned long long)h, (unsigned long long)k);
		bad |= put(fp, "primaryLocationLineHash", jstr(fpbuf));
		bad |= json_array_append_new(locs, location_json(uri, relative, x, cpath));
		bad |= put(o, "ruleId", jstr(x->rule));
		bad |= put(o, "ruleIndex", json_integer(idx));
		bad |= put(o, "level", jstr(level_of(x->severity)));
		bad |= put(o, "message", text_obj(x->message));
		bad |= put(o, "locations", locs);
		locs = NULL;
		if (x->related)
			bad |= put(o, "relatedLocations", related_json(x->related));
		bad |= put(o, "partialFingerprints", fp);
		fp = NULL;
	}
	json_decref(locs);
	json_decref(fp);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int sarif_file(wl_reporter *r, const wl_file_report *f)
{
	sarif_reporter *sr = (sarif_reporter *)r;
	size_t n = f->findings_count;
	if (n == 0)
		return 0;
	bool relative;
	char *uri = path_uri(f->path, &relative);
	hash_slot *slots = malloc(n * sizeof *slots);
	uint64_t *occ = malloc(n * sizeof *occ);
	int bad = !uri || !slots || !occ;
	/* Equal hashes in one file are told apart by their occurrence :1, :2 ...
	 * in report order (as GitHub's own line hashes are). */
	for (size_t i = 0; !bad && i < n; i++) {
		const wl_finding *x = &f->findings[i];
		char buf[1024];
		const char *cpath = wl_file_report_chunk_path(f, i, buf, sizeof buf);
		slots[i].h = finding_hash(x->rule, cpath, x->message);
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
	for (size_t i = 0; !bad && i < n; i++) {
		json_t *x = result_json(sr, f, i, uri, relative, slots[i].h, occ[i]);
		bad = !x || json_array_append_new(sr->results, x) != 0;
	}
	free(occ);
	free(slots);
	free(uri);
	return bad ? -1 : 0;
}

/* Appends a toolExecutionNotification {level, message} to notes; nonzero
 * when out of memory. */
static int add_note(json_t *notes, const char *level, const char *msg)
{
	json_t *n = json_object();
	if (!n)
		return 1;
	int bad = put(n, "level", jstr(level));
	bad |= put(n, "message", text_obj(msg));
	return json_array_append_new(notes, n) != 0 || bad;
}

/* invocations[0]: executionSuccessful is false when a path could not be
 * read; stale baseline entries become toolExecutionNotifications. */
static json_t *invocation_json(const wl_report_summary *s)
{
	json_t *inv = json_object();
	json_t *notes = json_array();
	int bad = !inv || !notes;
	for (size_t i = 0; !bad && i < s->stale_count; i++) {
		const wl_report_stale *st = &s->stale[i];
		char msg[512];
		if (st->missing)
			snprintf(msg, sizeof msg, "stale baseline entry: %.200s [%.100s]: %llu recorded, the file no longer exists",
				 st->path, st->rule, (unsigned long long)st->recorded);
		else
			snprintf(msg, sizeof msg, "stale baseline entry: %.200s [%.100s]: %llu recorded, %llu found",
				 st->path, st->rule, (unsigned long long)st->recorded, (unsigned long long)st->found);
		json_t *n = json_object();
		bad = !n;
		if (!bad) {
			bad |= put(n, "level", jstr("note"));
			bad |= put(n, "message", text_obj(msg));
			bad |= json_array_append_new(notes, n);
		}
	}
	/* unreadable paths, the results over --max-findings (by default the
	 * 25,000 GitHub takes per run) and the per-rule caps: one note each */
	for (size_t i = 0; !bad && i < s->unreadable_count; i++) {
		char msg[600];
		snprintf(msg, sizeof msg, "%.500s: could not be read (not linted)", s->unreadable[i]);
		bad = add_note(notes, "error", msg);
	}
	if (!bad && s->totals.not_shown) {
		char msg[256];
		snprintf(msg, sizeof msg, "%llu more findings are not listed as results: at most %llu per run "
			 "(--max-findings)", (unsigned long long)s->totals.not_shown,
			 (unsigned long long)s->max_findings);
		bad = add_note(notes, "warning", msg);
	}
	if (!bad && s->totals.dropped) {
		char msg[256];
		snprintf(msg, sizeof msg, "%llu more findings are not listed as results: at most %d per rule and "
			 "file", (unsigned long long)s->totals.dropped, WL_FINDINGS_PER_RULE_MAX);
		bad = add_note(notes, "note", msg);
	}
	if (!bad) {
		bad |= put(inv, "executionSuccessful", json_boolean(s->totals.unreadable == 0));
		if (json_array_size(notes))
			bad |= put(inv, "toolExecutionNotifications", json_incref(notes));
	}
	json_decref(notes);
	if (bad) {
		json_decref(inv);
		return NULL;
	}
	return inv;
}

static int sarif_finish(wl_reporter *r, const wl_report_summary *s)
{
	sarif_reporter *sr = (sarif_reporter *)r;
	json_t *run = json_array_get(json_object_get(sr->root, "runs"), 0);
	json_t *invs = json_array();
	if (!run || !invs || json_array_append_new(invs, invocation_json(s)) != 0 ||
	    json_object_set_new(run, "invocations", invs) != 0)
		return -1;
	if (json_dumpf(sr->root, sr->out, JSON_INDENT(2)) != 0)
		return -1;
	fputc('\n', sr->out);
	if (fflush(sr->out) != 0 || ferror(sr->out))
		return -1;
	return 0;
}

static void sarif_destroy(wl_reporter *r)
{
	sarif_reporter *sr = (sarif_reporter *)r;
	json_decref(sr->root);
	json_decref(sr->extra);
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
	sr->out = out;
	sr->cat = cat;
	sr->root = json_object();
	sr->extra = json_object();
	json_t *runs = json_array();
	json_t *run = json_object();
	json_t *tool = json_object();
	json_t *driver = json_object();
	json_t *rules = json_array();
	json_t *results = json_array();
	int bad = !sr->root || !sr->extra || !runs || !run || !tool || !driver || !rules || !results;
	size_t n = cat ? wl_catalog_count(cat) : 0;
	for (size_t i = 0; !bad && i < n; i++)
		bad = json_array_append_new(rules, rule_json(wl_catalog_at(cat, i))) != 0;
	sr->rule_count = n;
	if (!bad) {
		bad |= put(driver, "name", jstr(W3DLINT_NAME));
		bad |= put(driver, "semanticVersion", jstr(W3DLINT_VERSION));
		bad |= put(driver, "version", jstr(W3DLINT_VERSION));
		bad |= json_object_set(driver, "rules", rules);
		bad |= json_object_set(tool, "driver", driver);
		bad |= json_object_set(run, "tool", tool);
		bad |= json_object_set(run, "results", results);
		bad |= json_array_append(runs, run);
		bad |= put(sr->root, "$schema", jstr("https://json.schemastore.org/sarif-2.1.0.json"));
		bad |= put(sr->root, "version", jstr("2.1.0"));
		bad |= json_object_set(sr->root, "runs", runs);
	}
	/* root holds them now (or everything goes away below). */
	json_decref(runs);
	json_decref(run);
	json_decref(tool);
	json_decref(driver);
	sr->rules = rules;
	sr->results = results;
	json_decref(rules);
	json_decref(results);
	if (bad) {
		sarif_destroy(&sr->base);
		return NULL;
	}
	return &sr->base;
}
