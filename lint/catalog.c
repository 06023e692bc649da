/*
 * catalog.c - the rule catalogue (see catalog.h), read through yaml_doc.h
 * (libyaml's document API).
 *
 * Every string of the catalogue (ids, summaries, parameter names ...) lives
 * in one arena owned by the catalogue; the rule records live in an array
 * kept sorted by id, so wl_catalog_find is a binary search and
 * wl_catalog_at walks the rules in id order.  The array is malloc'd, or
 * borrowed: the built-in catalogue's pre-built table (catalog_table.h),
 * copied before a document is added to it.
 *
 * A document is validated completely before any of its rules joins the
 * catalogue: on error the catalogue holds exactly the rules it held before
 * (strings already copied stay in the arena until wl_catalog_free).
 *
 * Error messages are "name:line:column: message" with 1-based line and
 * column, written by yaml_doc.
 */
#include "catalog.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/format.h"
#include "core/grow.h"
#include "core/yaml_doc.h"
#include "catalog_table.h"


typedef wl_catalog_slot rule_slot;

struct wl_catalog {
	wl_arena *arena;        /* every string and parameter array; NULL until a
				 * document is added */
	const rule_slot *rules; /* sorted by id: owned, or a borrowed table */
	rule_slot *owned;       /* rules when malloc'd (cap slots), else NULL */
	size_t count, cap;
	/* by_handle[h]: 1 + the index in rules of the rule of handle h
	 * (core/rule_ids.h), 0 when the catalogue lacks it. */
	uint32_t by_handle[WL_RULES_END];
};

static const char *const categories[] = {
	"chunk", "count", "index", "geometry", "hierarchy", "animation",
	"aabtree", "material", "name", "reference", "quality",
};
#define CATEGORIES_LIST \
	"chunk, count, index, geometry, hierarchy, animation, aabtree, material, name, reference, quality"

static const char *const fixables[] = { "safe", "unsafe", "none" };


/* State of one document being read. */
typedef struct reader {
	const wl_ydoc *doc; /* its name and error buffer too */
	wl_arena *arena;
	const char *format;           /* the file's format: key ("" none) */
	const char *const *sources;   /* the file's sources: key */
	size_t sources_count;
} reader;

/* Kebab-case: [a-z][a-z0-9]*(-[a-z0-9]+)*. */
static int is_kebab(const char *s)
{
	if (!islower((unsigned char)*s))
		return 0;
	for (const char *p = s; *p; p++) {
		if (*p == '-') {
			if (p[1] == 0 || p[1] == '-')
				return 0;
		} else if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p)) {
			return 0;
		}
	}
	return 1;
}

/* Parameter names: [a-z][a-z0-9_-]*. */
static int is_param_name(const char *s)
{
	if (!islower((unsigned char)*s))
		return 0;
	for (const char *p = s; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_' && *p != '-')
			return 0;
	return 1;
}

/* Copies a scalar into the arena, dropping trailing white space (folded
 * block scalars end with a newline). */
static const char *copy_text(const reader *r, wl_ynode n)
{
	size_t len = wl_ydoc_length(r->doc, n);
	const char *s = wl_ydoc_text(r->doc, n);
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return wl_arena_strndup(r->arena, s, len);
}

static int fail_oom(const reader *r, wl_ynode n)
{
	return wl_ydoc_fail(r->doc, n, "out of memory");
}

/* Finds s in a table of n names; returns the table's copy or NULL. */
static const char *lookup_name(const char *const *table, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(table[i], s) == 0)
			return table[i];
	return NULL;
}

/* `fixable:` also takes the older spellings of none: "no" (quoted, as the
 * catalogue wrote it before), and a plain no or false, which YAML 1.1
 * readers take for the boolean.  All are stored as "none". */
static const char *fixable_value(const char *s)
{
	if (strcmp(s, "no") == 0 || strcmp(s, "false") == 0)
		return "none";
	return lookup_name(fixables, sizeof fixables / sizeof *fixables, s);
}

/* One element of a rule's params sequence. */
static int read_param(const reader *r, wl_ynode n, const char *rule_id, wl_param_def *out,
		      const wl_param_def *prev, size_t prev_count)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_kind(d, n) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, n, "rule '%s': a parameter must be a mapping "
				    "with name, default and description", rule_id);
	wl_ynode name = 0, def = 0;
	for (size_t i = 0; i < wl_ydoc_count(d, n); i++) {
		wl_ynode k = wl_ydoc_unique_key(d, n, i), v = wl_ydoc_value(d, n, i);
		if (!k)
			return -1;
		const char *key = wl_ydoc_text(d, k), *s = wl_ydoc_text(d, v);
		if (strcmp(key, "name") == 0) {
			if (wl_ydoc_want_scalar(d, v, "parameter name"))
				return -1;
			if (!is_param_name(s))
				return wl_ydoc_fail(d, v, "rule '%s': bad parameter name '%s' "
						    "(lower-case letters, digits, '-' and '_')", rule_id, s);
			for (size_t j = 0; j < prev_count; j++)
				if (strcmp(prev[j].name, s) == 0)
					return wl_ydoc_fail(d, v, "rule '%s': duplicate parameter '%s'",
							    rule_id, s);
			if (!(out->name = copy_text(r, v)))
				return fail_oom(r, v);
			name = v;
		} else if (strcmp(key, "default") == 0) {
			if (wl_ydoc_kind(d, v) != WL_Y_SCALAR)
				return wl_ydoc_fail(d, v, "rule '%s': parameter default must be a number",
						    rule_id);
			if (wl_ydoc_number(d, v, &out->def))
				return wl_ydoc_fail(d, v, "rule '%s': parameter default '%s' is not a number",
						    rule_id, s);
			def = v;
		} else if (strcmp(key, "description") == 0) {
			if (wl_ydoc_want_scalar(d, v, "parameter description"))
				return -1;
			if (!(out->description = copy_text(r, v)))
				return fail_oom(r, v);
		} else {
			return wl_ydoc_fail(d, k, "rule '%s': unknown parameter key '%s' "
					    "(expected name, default or description)", rule_id, key);
		}
	}
	if (!name)
		return wl_ydoc_fail(d, n, "rule '%s': parameter is missing required key 'name'", rule_id);
	if (!def)
		return wl_ydoc_fail(d, n, "rule '%s': parameter '%s' is missing required key 'default'",
				    rule_id, out->name);
	if (!out->description)
		out->description = "";
	return 0;
}

static int read_params(const reader *r, wl_ynode v, const char *rule_id, wl_rule_def *def)
{
	if (wl_ydoc_is_null(r->doc, v))
		return 0;
	if (wl_ydoc_kind(r->doc, v) != WL_Y_SEQUENCE)
		return wl_ydoc_fail(r->doc, v, "rule '%s': params must be a sequence of mappings", rule_id);
	size_t n = wl_ydoc_count(r->doc, v);
	wl_param_def *ps = wl_arena_array(r->arena, n ? n : 1, sizeof *ps);
	if (!ps)
		return fail_oom(r, v);
	for (size_t i = 0; i < n; i++) {
		wl_ynode item = wl_ydoc_item(r->doc, v, i);
		if (!item || read_param(r, item, rule_id, &ps[i], ps, i))
			return -1;
	}
	def->params = ps;
	def->params_count = n;
	return 0;
}

enum {
	K_ID, K_CATEGORY, K_SEVERITY, K_FIXABLE, K_SUMMARY, K_EXPLANATION, K_PARAMS, K_FORMAT, K_SOURCES,
	K_TARGETS, K_OPT_IN, K_CHECK, K_FIXERS, K__COUNT
};
static const char *const rule_keys[K__COUNT] = {
	"id", "category", "severity", "fixable", "summary", "explanation", "params", "format", "sources",
	"targets", "opt-in", "check", "fixers",
};
#define RULE_KEYS_TEXT \
	"id, category, severity, fixable, summary, explanation, params, format, sources, targets, " \
	"opt-in, check or fixers"

/* A check name: lower-case letters, digits and '_', starting with a letter. */
static int is_check_name(const char *s)
{
	if (!islower((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* A check: or fixers: key's value: one name or a sequence of names, each
 * valid for ok (is_check_name, is_kebab); what names one in messages. */
static int read_names(const reader *r, wl_ynode v, const char *id, const char *what,
		      int (*ok)(const char *), const char *const **out, size_t *count)
{
	const wl_ydoc *d = r->doc;
	bool seq = wl_ydoc_kind(d, v) == WL_Y_SEQUENCE;
	size_t n = seq ? wl_ydoc_count(d, v) : 1;
	if (!n)
		return wl_ydoc_fail(d, v, "rule '%s': an empty %s list", id, what);
	const char **ss = wl_arena_array(r->arena, n, sizeof *ss);
	if (!ss)
		return fail_oom(r, v);
	for (size_t i = 0; i < n; i++) {
		wl_ynode it = seq ? wl_ydoc_item(d, v, i) : v;
		if (!it || wl_ydoc_want_scalar(d, it, what))
			return -1;
		if (!ok(wl_ydoc_text(d, it)))
			return wl_ydoc_fail(d, it, "rule '%s': bad %s name '%s'", id, what,
					    wl_ydoc_text(d, it));
		if (!(ss[i] = copy_text(r, it)))
			return fail_oom(r, it);
	}
	*out = ss;
	*count = n;
	return 0;
}

/* A format: key's value: a registered format name. */
static int read_format(const reader *r, wl_ynode v, const char **out)
{
	if (wl_ydoc_want_scalar(r->doc, v, "format"))
		return -1;
	const wl_format *f = wl_format_find(wl_ydoc_text(r->doc, v));
	if (!f)
		return wl_ydoc_fail(r->doc, v, "unknown format '%s'", wl_ydoc_text(r->doc, v));
	*out = f->name;
	return 0;
}

/* A sources: key's value: a sequence of non-empty strings. */
static int read_sources(const reader *r, wl_ynode v, const char *const **out, size_t *count)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_kind(d, v) != WL_Y_SEQUENCE)
		return wl_ydoc_fail(d, v, "sources must be a sequence of strings");
	size_t n = wl_ydoc_count(d, v);
	const char **ss = wl_arena_array(r->arena, n ? n : 1, sizeof *ss);
	if (!ss)
		return fail_oom(r, v);
	for (size_t i = 0; i < n; i++) {
		wl_ynode it = wl_ydoc_item(d, v, i);
		if (!it || wl_ydoc_want_scalar(d, it, "source"))
			return -1;
		if (!(ss[i] = copy_text(r, it)))
			return fail_oom(r, it);
		if (!ss[i][0])
			return wl_ydoc_fail(d, it, "empty source");
	}
	*out = ss;
	*count = n;
	return 0;
}

/* A rule's targets: mapping, target name -> severity (after its format is
 * known). */
static int read_targets(const reader *r, wl_ynode v, const char *id, wl_rule_def *def)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_kind(d, v) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, v, "rule '%s': targets must be a mapping of target names to "
				    "severities", id);
	for (size_t i = 0; i < wl_ydoc_count(d, v); i++) {
		wl_ynode k = wl_ydoc_unique_key(d, v, i), sv = wl_ydoc_value(d, v, i);
		if (!k || wl_ydoc_want_scalar(d, sv, "target severity"))
			return -1;
		int t = wl_target_find(wl_ydoc_text(d, k));
		if (t < 0 || !(def->targets & ((wl_target_mask)1 << t)))
			return wl_ydoc_fail(d, k, "rule '%s': '%s' is not a target of format %s (%s)", id,
					    wl_ydoc_text(d, k), def->format[0] ? def->format : "any",
					    wl_target_names());
		int sev = wl_severity_parse(wl_ydoc_text(d, sv));
		if (sev < 0)
			return wl_ydoc_fail(d, sv, "rule '%s': bad severity '%s' (expected error, warning, "
					    "info or off)", id, wl_ydoc_text(d, sv));
		def->target_severity[t] = (wl_severity)sev;
	}
	return 0;
}

/* One element of the rules sequence. */
static int read_rule(const reader *r, wl_ynode n, rule_slot *out)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_kind(d, n) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, n, "a rule must be a mapping (id, category, severity, "
				    "fixable, summary, explanation, params)");
	wl_ynode seen[K__COUNT] = { 0 };
	/* The id first, so that every other message can name the rule. */
	const char *id = "?";
	for (size_t i = 0; i < wl_ydoc_count(d, n); i++) {
		wl_ynode k = wl_ydoc_key(d, n, i), v = wl_ydoc_value(d, n, i);
		if (wl_ydoc_kind(d, k) == WL_Y_SCALAR && strcmp(wl_ydoc_text(d, k), "id") == 0 &&
		    wl_ydoc_kind(d, v) == WL_Y_SCALAR) {
			id = wl_ydoc_text(d, v);
			break;
		}
	}
	for (size_t i = 0; i < wl_ydoc_count(d, n); i++) {
		wl_ynode k = wl_ydoc_unique_key(d, n, i), v = wl_ydoc_value(d, n, i);
		if (!k)
			return -1;
		const char *key = wl_ydoc_text(d, k);
		int which = -1;
		for (int j = 0; j < K__COUNT; j++)
			if (strcmp(key, rule_keys[j]) == 0)
				which = j;
		if (which < 0)
			return wl_ydoc_fail(d, k, "rule '%s': unknown key '%s' (expected " RULE_KEYS_TEXT ")",
					    id, key);
		seen[which] = v;
		if (which == K_PARAMS) {
			if (read_params(r, v, id, &out->def))
				return -1;
			continue;
		}
		if (which == K_SOURCES) {
			if (read_sources(r, v, &out->def.sources, &out->def.sources_count))
				return -1;
			continue;
		}
		if (which == K_CHECK || which == K_FIXERS) {
			bool chk = which == K_CHECK;
			if (read_names(r, v, id, chk ? "check" : "fixer", chk ? is_check_name : is_kebab,
				       chk ? &out->def.checks : &out->def.fixers,
				       chk ? &out->def.checks_count : &out->def.fixers_count))
				return -1;
			continue;
		}
		if (which == K_TARGETS)
			continue; /* after the severity and the format */
		if (wl_ydoc_want_scalar(d, v, key))
			return -1;
		const char *s = wl_ydoc_text(d, v);
		switch (which) {
		case K_ID:
			if (!is_kebab(s))
				return wl_ydoc_fail(d, v, "rule id '%s' is not kebab-case (lower-case "
						    "letters and digits joined by single '-')", s);
			if (!(out->def.id = copy_text(r, v)))
				return fail_oom(r, v);
			out->line = wl_ydoc_line(d, v);
			out->column = wl_ydoc_column(d, v);
			break;
		case K_CATEGORY:
			out->def.category = lookup_name(categories, sizeof categories / sizeof *categories, s);
			if (!out->def.category)
				return wl_ydoc_fail(d, v, "rule '%s': unknown category '%s' (expected one "
						    "of " CATEGORIES_LIST ")", id, s);
			break;
		case K_SEVERITY: {
			int sev = wl_severity_parse(s);
			if (sev < 0)
				return wl_ydoc_fail(d, v, "rule '%s': bad severity '%s' (expected error, "
						    "warning, info or off)", id, s);
			out->def.severity = (wl_severity)sev;
			break;
		}
		case K_FIXABLE:
			out->def.fixable = fixable_value(s);
			if (!out->def.fixable)
				return wl_ydoc_fail(d, v, "rule '%s': bad fixable value '%s' (expected "
						    "none, safe or unsafe)", id, s);
			break;
		case K_SUMMARY:
		case K_EXPLANATION: {
			const char *t = copy_text(r, v);
			if (!t)
				return fail_oom(r, v);
			if (!t[0])
				return wl_ydoc_fail(d, v, "rule '%s': %s is empty", id, key);
			if (which == K_SUMMARY)
				out->def.summary = t;
			else
				out->def.explanation = t;
			break;
		}
		case K_FORMAT:
			if (read_format(r, v, &out->def.format))
				return -1;
			break;
		case K_OPT_IN:
			if (strcmp(s, "true") != 0 && strcmp(s, "false") != 0)
				return wl_ydoc_fail(d, v, "rule '%s': opt-in must be true or false", id);
			out->def.opt_in = strcmp(s, "true") == 0;
			break;
		default:
			break;
		}
	}
	if (!seen[K_FORMAT])
		out->def.format = r->format;
	if (!seen[K_SOURCES]) {
		out->def.sources = r->sources;
		out->def.sources_count = r->sources_count;
	}
	out->def.targets = wl_target_format_mask(out->def.format);
	for (size_t t = 0; t < WL_TARGETS_MAX; t++)
		out->def.target_severity[t] = out->def.severity;
	if (seen[K_TARGETS] && read_targets(r, seen[K_TARGETS], id, &out->def))
		return -1;
	for (int i = 0; i < K_PARAMS; i++)
		if (!seen[i]) {
			if (i == K_ID)
				return wl_ydoc_fail(d, n, "rule is missing required key 'id'");
			return wl_ydoc_fail(d, n, "rule '%s' is missing required key '%s'", id,
					    rule_keys[i]);
		}
	return 0;
}

static int cmp_slot(const void *a, const void *b)
{
	return strcmp(((const rule_slot *)a)->def.id, ((const rule_slot *)b)->def.id);
}

static const rule_slot *find_slot(const wl_catalog *cat, const char *id)
{
	if (!cat || !id || !cat->count)
		return NULL;
	rule_slot key;
	key.def.id = id;
	return bsearch(&key, cat->rules, cat->count, sizeof *cat->rules, cmp_slot);
}

/* Reads the root mapping {rules: [...]} into new slots (*out, *out_count,
 * malloc'd) and checks the ids against each other and against cat. */
static int read_root(reader *r, const wl_catalog *cat, wl_ynode root, rule_slot **out,
		     size_t *out_count)
{
	const wl_ydoc *d = r->doc;
	const char *name = wl_ydoc_name(d);
	if (wl_ydoc_kind(d, root) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, root, "a catalogue must be a mapping with the key 'rules' "
				    "(and optionally format and sources)");
	wl_ynode rules = 0;
	for (size_t i = 0; i < wl_ydoc_count(d, root); i++) {
		wl_ynode k = wl_ydoc_unique_key(d, root, i), v = wl_ydoc_value(d, root, i);
		if (!k)
			return -1;
		const char *key = wl_ydoc_text(d, k);
		if (strcmp(key, "format") == 0) {
			if (read_format(r, v, &r->format))
				return -1;
		} else if (strcmp(key, "sources") == 0) {
			if (read_sources(r, v, &r->sources, &r->sources_count))
				return -1;
		} else if (strcmp(key, "rules") == 0) {
			rules = v;
		} else {
			return wl_ydoc_fail(d, k, "unknown key '%s' (a catalogue has the keys rules, format "
					    "and sources)", key);
		}
	}
	if (!rules)
		return wl_ydoc_fail(d, root, "missing required key 'rules'");
	if (wl_ydoc_is_null(d, rules))
		return 0;
	if (wl_ydoc_kind(d, rules) != WL_Y_SEQUENCE)
		return wl_ydoc_fail(d, rules, "'rules' must be a sequence of rule mappings");
	size_t n = wl_ydoc_count(d, rules);
	if (n == 0)
		return 0;
	rule_slot *slots = calloc(n, sizeof *slots);
	if (!slots)
		return fail_oom(r, rules);
	for (size_t i = 0; i < n; i++) {
		wl_ynode item = wl_ydoc_item(d, rules, i);
		if (!item || read_rule(r, item, &slots[i]))
			goto fail;
		slots[i].def.source_file = name;
		/* Duplicate ids: the message points at both id values. */
		const rule_slot *dup = find_slot(cat, slots[i].def.id);
		if (dup) {
			wl_ydoc_fail_at(d, slots[i].line, slots[i].column,
					"duplicate rule id '%s' (first defined at %s:%lu:%lu)",
					slots[i].def.id, dup->def.source_file, dup->line, dup->column);
			goto fail;
		}
		for (size_t j = 0; j < i; j++)
			if (strcmp(slots[j].def.id, slots[i].def.id) == 0) {
				wl_ydoc_fail_at(d, slots[i].line, slots[i].column,
						"duplicate rule id '%s' (first defined at %s:%lu:%lu)",
						slots[i].def.id, name, slots[j].line, slots[j].column);
				goto fail;
			}
	}
	*out = slots;
	*out_count = n;
	return 0;
fail:
	free(slots);
	return -1;
}

/* Parses text into a document and reads it; on success appends the new
 * rules (sorted) to cat. */
static int add_document(wl_catalog *cat, const char *name, const char *text, size_t len,
			char *err, size_t errcap)
{
	if (!cat->arena && !(cat->arena = wl_arena_new(0)))
		return wl_yaml_errorf(err, errcap, name, 1, 1, "out of memory");
	const char *stored = wl_arena_strndup(cat->arena, name, strlen(name));
	if (!stored)
		return wl_yaml_errorf(err, errcap, name, 1, 1, "out of memory");
	wl_ydoc *doc;
	if (wl_ydoc_load(stored, text, len, err, errcap, &doc))
		return -1;
	reader r = { doc, cat->arena, "", NULL, 0 };
	rule_slot *slots = NULL;
	size_t n = 0;
	int rc;
	if (!wl_ydoc_root(doc))
		rc = wl_ydoc_fail_at(doc, 1, 1, "empty catalogue (expected a mapping with key 'rules')");
	else
		rc = read_root(&r, cat, wl_ydoc_root(doc), &slots, &n);
	wl_ydoc_free(doc);
	if (rc || n == 0)
		return rc;
	if (cat->count + n > cat->cap || !cat->owned) {
		/* A borrowed table is copied into the first owned array. */
		rule_slot *owned = cat->owned;
		size_t cap = owned ? cat->cap : 0;
		if (!wl_grow((void **)&owned, &cap, cat->count + n, sizeof *owned)) {
			free(slots);
			return wl_yaml_errorf(err, errcap, stored, 1, 1, "out of memory");
		}
		if (!cat->owned && cat->count)
			memcpy(owned, cat->rules, cat->count * sizeof *owned);
		cat->rules = cat->owned = owned;
		cat->cap = cap;
	}
	memcpy(cat->owned + cat->count, slots, n * sizeof *slots);
	cat->count += n;
	free(slots);
	qsort(cat->owned, cat->count, sizeof *cat->owned, cmp_slot);
	memset(cat->by_handle, 0, sizeof cat->by_handle);
	for (size_t i = 0; i < cat->count; i++) {
		wl_rule_id h = wl_rule_lookup(cat->rules[i].def.id);
		if (h != WL_RULE_NONE)
			cat->by_handle[h] = (uint32_t)(i + 1);
	}
	return 0;
}

wl_catalog *wl_catalog_wrap(const wl_catalog_slot *slots, size_t count, const uint32_t *by_handle)
{
	wl_catalog *cat = calloc(1, sizeof *cat);
	if (!cat)
		return NULL;
	cat->rules = slots;
	cat->count = count;
	if (by_handle)
		memcpy(cat->by_handle, by_handle, sizeof cat->by_handle);
	return cat;
}

const wl_catalog_slot *wl_catalog_slot_at(const wl_catalog *cat, size_t i)
{
	return cat && i < cat->count ? &cat->rules[i] : NULL;
}

const uint32_t *wl_catalog_by_handle(const wl_catalog *cat)
{
	return cat ? cat->by_handle : NULL;
}

int wl_catalog_add_yaml(wl_catalog **cat, const char *name, const char *text, size_t text_len,
			char *err, size_t errcap)
{
	if (!name)
		name = "(catalogue)";
	if (err && errcap)
		err[0] = 0;
	if (!cat || (!text && text_len)) {
		if (err && errcap)
			snprintf(err, errcap, "%s:1:1: no catalogue text", name);
		return -1;
	}
	int created = 0;
	if (!*cat) {
		*cat = wl_catalog_wrap(NULL, 0, NULL);
		if (!*cat) {
			if (err && errcap)
				snprintf(err, errcap, "%s:1:1: out of memory", name);
			return -1;
		}
		created = 1;
	}
	int rc = add_document(*cat, name, text ? text : "", text_len, err, errcap);
	if (rc && created) {
		wl_catalog_free(*cat);
		*cat = NULL;
	}
	return rc;
}

void wl_catalog_free(wl_catalog *cat)
{
	if (!cat)
		return;
	free(cat->owned);
	wl_arena_free(cat->arena);
	free(cat);
}

const wl_rule_def *wl_catalog_find(const wl_catalog *cat, const char *id)
{
	const rule_slot *s = find_slot(cat, id);
	return s ? &s->def : NULL;
}

size_t wl_catalog_index(const wl_catalog *cat, const char *id)
{
	const rule_slot *s = find_slot(cat, id);
	return s ? (size_t)(s - cat->rules) : SIZE_MAX;
}

const wl_rule_def *wl_catalog_rule(const wl_catalog *cat, wl_rule_id rule)
{
	if (!cat || (unsigned)rule >= WL_RULES_END || !cat->by_handle[rule])
		return NULL;
	return &cat->rules[cat->by_handle[rule] - 1].def;
}

size_t wl_catalog_count(const wl_catalog *cat)
{
	return cat ? cat->count : 0;
}

const wl_rule_def *wl_catalog_at(const wl_catalog *cat, size_t i)
{
	if (!cat || i >= cat->count)
		return NULL;
	return &cat->rules[i].def;
}

wl_severity wl_rule_target_severity(const wl_rule_def *r, wl_target_mask m)
{
	wl_target_mask on = m & r->targets;
	if (!on)
		return r->severity;
	wl_severity s = WL_SEV_OFF;
	for (size_t t = 0; t < WL_TARGETS_MAX; t++)
		if ((on & ((wl_target_mask)1 << t)) && r->target_severity[t] > s)
			s = r->target_severity[t];
	return s;
}

bool wl_rule_in_default_set(const wl_rule_def *r)
{
	return !r->opt_in && wl_rule_target_severity(r, r->targets) != WL_SEV_OFF;
}

const wl_param_def *wl_rule_param(const wl_rule_def *r, const char *param)
{
	if (!r || !param)
		return NULL;
	for (size_t i = 0; i < r->params_count; i++)
		if (strcmp(r->params[i].name, param) == 0)
			return &r->params[i];
	return NULL;
}

double wl_catalog_param(const wl_catalog *cat, const char *rule, const char *param, double fallback)
{
	const wl_param_def *p = wl_rule_param(wl_catalog_find(cat, rule), param);
	return p ? p->def : fallback;
}
