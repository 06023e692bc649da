/*
 * catalog.c - the rule catalogue (see catalog.h), read with libyaml's
 * document API.
 *
 * Every string of the catalogue (ids, summaries, parameter names ...) lives
 * in one arena owned by the catalogue; the rule records live in a malloc'd
 * array kept sorted by id, so wl_catalog_find is a binary search and
 * wl_catalog_at walks the rules in id order.
 *
 * A document is validated completely before any of its rules joins the
 * catalogue: on error the catalogue holds exactly the rules it held before
 * (strings already copied stay in the arena until wl_catalog_free).
 *
 * Error messages are "name:line:column: message" with 1-based line and
 * column (libyaml marks are 0-based).
 */
#include "catalog.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "../core/arena.h"

/* Layout of scripts/embed-rules.sh's generated table. */
struct wl_embedded_file {
	const char *name;
	const char *text;
	size_t len;
};
extern const struct wl_embedded_file wl_embedded_rules[];
extern const size_t wl_embedded_rules_count;

/* A rule plus where it was defined, for duplicate-id messages. */
typedef struct rule_slot {
	wl_rule_def def;
	unsigned long line, column; /* 1-based position of its "id" value */
} rule_slot;

struct wl_catalog {
	wl_arena *arena;  /* every string and parameter array */
	rule_slot *rules; /* sorted by id */
	size_t count, cap;
};

static const char *const categories[] = {
	"chunk", "count", "index", "geometry", "hierarchy", "animation",
	"aabtree", "material", "name", "reference", "quality",
};
#define CATEGORIES_LIST \
	"chunk, count, index, geometry, hierarchy, animation, aabtree, material, name, reference, quality"

static const char *const fixables[] = { "safe", "unsafe", "no" };

/* State of one document being read. */
typedef struct reader {
	yaml_document_t *doc;
	const char *name; /* for messages */
	wl_arena *arena;
	char *err;
	size_t errcap;
} reader;

static int fail_at(const reader *r, yaml_mark_t m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Writes "name:line:column: message" to r->err; returns -1. */
static int fail_at(const reader *r, yaml_mark_t m, const char *fmt, ...)
{
	if (!r->err || r->errcap == 0)
		return -1;
	int n = snprintf(r->err, r->errcap, "%s:%lu:%lu: ", r->name, (unsigned long)m.line + 1,
			 (unsigned long)m.column + 1);
	if (n >= 0 && (size_t)n < r->errcap) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(r->err + n, r->errcap - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Line and column (0-based) of byte offset off in text, for libyaml reader
 * errors, which report an offset instead of a mark. */
static yaml_mark_t mark_of_offset(const char *text, size_t len, size_t off)
{
	yaml_mark_t m = { 0, 0, 0 };
	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			m.line++;
			m.column = 0;
		} else {
			m.column++;
		}
	}
	m.index = off;
	return m;
}

/* Reports a libyaml parser error as "malformed YAML". */
static int fail_parser(const reader *r, const yaml_parser_t *p, const char *text, size_t len)
{
	yaml_mark_t m = p->problem_mark;
	if (p->error == YAML_READER_ERROR)
		m = mark_of_offset(text, len, p->problem_offset);
	if (p->error == YAML_MEMORY_ERROR)
		return fail_at(r, m, "out of memory while reading YAML");
	if (p->context)
		return fail_at(r, m, "malformed YAML: %s %s", p->problem ? p->problem : "error",
			       p->context);
	return fail_at(r, m, "malformed YAML: %s", p->problem ? p->problem : "error");
}

static yaml_node_t *node_at(const reader *r, int index)
{
	return yaml_document_get_node(r->doc, index);
}

static const char *scalar_text(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* An empty plain scalar, "~" or "null": an absent value. */
static int is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	const char *s = scalar_text(n);
	return s[0] == 0 || strcmp(s, "~") == 0 || strcmp(s, "null") == 0;
}

/* Requires a scalar without NUL bytes; what names the value in messages. */
static int want_scalar(const reader *r, const yaml_node_t *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE)
		return fail_at(r, n->start_mark, "%s must be a scalar, not a %s", what,
			       n->type == YAML_MAPPING_NODE ? "mapping" : "sequence");
	if (strlen(scalar_text(n)) != n->data.scalar.length)
		return fail_at(r, n->start_mark, "%s contains a NUL character", what);
	return 0;
}

/* A plain decimal number: [+-]digits[.digits][(e|E)[+-]digits] (no hex,
 * inf or nan, which strtod would also take). */
static int parse_number(const char *s, double *out)
{
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	int digits = 0;
	while (isdigit((unsigned char)*p)) {
		p++;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			p++;
			digits++;
		}
	}
	if (!digits)
		return -1;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p)
		return -1;
	char *end;
	double v = strtod(s, &end);
	if (*end || v != v || v > 1.7e308 || v < -1.7e308)
		return -1;
	*out = v;
	return 0;
}

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
static const char *copy_text(const reader *r, const yaml_node_t *n)
{
	size_t len = n->data.scalar.length;
	const char *s = scalar_text(n);
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return wl_arena_strndup(r->arena, s, len);
}

static int fail_oom(const reader *r, const yaml_node_t *n)
{
	return fail_at(r, n->start_mark, "out of memory");
}

/* Finds s in a table of n names; returns the table's copy or NULL. */
static const char *lookup_name(const char *const *table, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(table[i], s) == 0)
			return table[i];
	return NULL;
}

/* Checks that key k (a scalar) was not already seen in this mapping. */
static int check_dup_key(const reader *r, const yaml_node_t *map, const yaml_node_pair_t *upto,
			 const yaml_node_t *k)
{
	for (const yaml_node_pair_t *q = map->data.mapping.pairs.start; q < upto; q++) {
		const yaml_node_t *prev = node_at(r, q->key);
		if (prev && prev->type == YAML_SCALAR_NODE && strcmp(scalar_text(prev), scalar_text(k)) == 0)
			return fail_at(r, k->start_mark, "duplicate key '%s' (first at line %lu)",
				       scalar_text(k), (unsigned long)prev->start_mark.line + 1);
	}
	return 0;
}

/* The key of a mapping pair: a scalar, unique in the mapping. */
static const yaml_node_t *pair_key(const reader *r, const yaml_node_t *map, const yaml_node_pair_t *p)
{
	const yaml_node_t *k = node_at(r, p->key);
	if (!k) {
		fail_at(r, map->start_mark, "internal: mapping key missing");
		return NULL;
	}
	if (want_scalar(r, k, "a key") || check_dup_key(r, map, p, k))
		return NULL;
	return k;
}

/* One element of a rule's params sequence. */
static int read_param(const reader *r, const yaml_node_t *n, const char *rule_id,
		      wl_param_def *out, const wl_param_def *prev, size_t prev_count)
{
	if (n->type != YAML_MAPPING_NODE)
		return fail_at(r, n->start_mark, "rule '%s': a parameter must be a mapping "
			       "with name, default and description", rule_id);
	const yaml_node_t *name = NULL, *def = NULL;
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = pair_key(r, n, p);
		const yaml_node_t *v = node_at(r, p->value);
		if (!k || !v)
			return -1;
		const char *key = scalar_text(k);
		if (strcmp(key, "name") == 0) {
			if (want_scalar(r, v, "parameter name"))
				return -1;
			if (!is_param_name(scalar_text(v)))
				return fail_at(r, v->start_mark, "rule '%s': bad parameter name '%s' "
					       "(lower-case letters, digits, '-' and '_')",
					       rule_id, scalar_text(v));
			for (size_t i = 0; i < prev_count; i++)
				if (strcmp(prev[i].name, scalar_text(v)) == 0)
					return fail_at(r, v->start_mark, "rule '%s': duplicate parameter '%s'",
						       rule_id, scalar_text(v));
			if (!(out->name = copy_text(r, v)))
				return fail_oom(r, v);
			name = v;
		} else if (strcmp(key, "default") == 0) {
			if (v->type != YAML_SCALAR_NODE)
				return fail_at(r, v->start_mark, "rule '%s': parameter default must be a number",
					       rule_id);
			if (v->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
			    parse_number(scalar_text(v), &out->def))
				return fail_at(r, v->start_mark, "rule '%s': parameter default '%s' is not a number",
					       rule_id, scalar_text(v));
			def = v;
		} else if (strcmp(key, "description") == 0) {
			if (want_scalar(r, v, "parameter description"))
				return -1;
			if (!(out->description = copy_text(r, v)))
				return fail_oom(r, v);
		} else {
			return fail_at(r, k->start_mark, "rule '%s': unknown parameter key '%s' "
				       "(expected name, default or description)", rule_id, key);
		}
	}
	if (!name)
		return fail_at(r, n->start_mark, "rule '%s': parameter is missing required key 'name'", rule_id);
	if (!def)
		return fail_at(r, n->start_mark, "rule '%s': parameter '%s' is missing required key 'default'",
			       rule_id, out->name);
	if (!out->description)
		out->description = "";
	return 0;
}

static int read_params(const reader *r, const yaml_node_t *v, const char *rule_id, wl_rule_def *def)
{
	if (is_null(v))
		return 0;
	if (v->type != YAML_SEQUENCE_NODE)
		return fail_at(r, v->start_mark, "rule '%s': params must be a sequence of mappings", rule_id);
	size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	wl_param_def *ps = wl_arena_array(r->arena, n ? n : 1, sizeof *ps);
	if (!ps)
		return fail_oom(r, v);
	for (size_t i = 0; i < n; i++) {
		const yaml_node_t *item = node_at(r, v->data.sequence.items.start[i]);
		if (!item || read_param(r, item, rule_id, &ps[i], ps, i))
			return -1;
	}
	def->params = ps;
	def->params_count = n;
	return 0;
}

enum {
	K_ID, K_CATEGORY, K_SEVERITY, K_FIXABLE, K_SUMMARY, K_EXPLANATION, K_PARAMS, K__COUNT
};
static const char *const rule_keys[K__COUNT] = {
	"id", "category", "severity", "fixable", "summary", "explanation", "params",
};

/* One element of the rules sequence. */
static int read_rule(const reader *r, const yaml_node_t *n, rule_slot *out)
{
	if (n->type != YAML_MAPPING_NODE)
		return fail_at(r, n->start_mark, "a rule must be a mapping (id, category, severity, "
			       "fixable, summary, explanation, params)");
	const yaml_node_t *seen[K__COUNT] = { 0 };
	/* The id first, so that every other message can name the rule. */
	const char *id = "?";
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = node_at(r, p->key);
		const yaml_node_t *v = node_at(r, p->value);
		if (k && v && k->type == YAML_SCALAR_NODE && strcmp(scalar_text(k), "id") == 0 &&
		    v->type == YAML_SCALAR_NODE) {
			id = scalar_text(v);
			break;
		}
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = pair_key(r, n, p);
		const yaml_node_t *v = node_at(r, p->value);
		if (!k || !v)
			return -1;
		const char *key = scalar_text(k);
		int which = -1;
		for (int i = 0; i < K__COUNT; i++)
			if (strcmp(key, rule_keys[i]) == 0)
				which = i;
		if (which < 0)
			return fail_at(r, k->start_mark, "rule '%s': unknown key '%s' (expected id, category, "
				       "severity, fixable, summary, explanation or params)", id, key);
		seen[which] = v;
		if (which == K_PARAMS) {
			if (read_params(r, v, id, &out->def))
				return -1;
			continue;
		}
		if (want_scalar(r, v, key))
			return -1;
		const char *s = scalar_text(v);
		switch (which) {
		case K_ID:
			if (!is_kebab(s))
				return fail_at(r, v->start_mark, "rule id '%s' is not kebab-case (lower-case "
					       "letters and digits joined by single '-')", s);
			if (!(out->def.id = copy_text(r, v)))
				return fail_oom(r, v);
			out->line = (unsigned long)v->start_mark.line + 1;
			out->column = (unsigned long)v->start_mark.column + 1;
			break;
		case K_CATEGORY:
			out->def.category = lookup_name(categories, sizeof categories / sizeof *categories, s);
			if (!out->def.category)
				return fail_at(r, v->start_mark, "rule '%s': unknown category '%s' (expected one "
					       "of " CATEGORIES_LIST ")", id, s);
			break;
		case K_SEVERITY: {
			int sev = wl_severity_parse(s);
			if (sev < 0)
				return fail_at(r, v->start_mark, "rule '%s': bad severity '%s' (expected error, "
					       "warning, info or off)", id, s);
			out->def.severity = (wl_severity)sev;
			break;
		}
		case K_FIXABLE:
			out->def.fixable = lookup_name(fixables, sizeof fixables / sizeof *fixables, s);
			if (!out->def.fixable)
				return fail_at(r, v->start_mark, "rule '%s': bad fixable value '%s' (expected "
					       "safe, unsafe or no)", id, s);
			break;
		case K_SUMMARY:
		case K_EXPLANATION: {
			const char *t = copy_text(r, v);
			if (!t)
				return fail_oom(r, v);
			if (!t[0])
				return fail_at(r, v->start_mark, "rule '%s': %s is empty", id, key);
			if (which == K_SUMMARY)
				out->def.summary = t;
			else
				out->def.explanation = t;
			break;
		}
		default:
			break;
		}
	}
	for (int i = 0; i < K_PARAMS; i++)
		if (!seen[i]) {
			if (i == K_ID)
				return fail_at(r, n->start_mark, "rule is missing required key 'id'");
			return fail_at(r, n->start_mark, "rule '%s' is missing required key '%s'", id,
				       rule_keys[i]);
		}
	return 0;
}

static int cmp_slot(const void *a, const void *b)
{
	return strcmp(((const rule_slot *)a)->def.id, ((const rule_slot *)b)->def.id);
}

static rule_slot *find_slot(const wl_catalog *cat, const char *id)
{
	if (!cat || !id || !cat->count)
		return NULL;
	rule_slot key;
	key.def.id = id;
	return bsearch(&key, cat->rules, cat->count, sizeof *cat->rules, cmp_slot);
}

/* Reads the root mapping {rules: [...]} into new slots (*out, *out_count,
 * malloc'd) and checks the ids against each other and against cat. */
static int read_root(const reader *r, const wl_catalog *cat, const yaml_node_t *root,
		     rule_slot **out, size_t *out_count)
{
	if (root->type != YAML_MAPPING_NODE)
		return fail_at(r, root->start_mark, "a catalogue must be a mapping with one key, 'rules'");
	const yaml_node_t *rules = NULL;
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = pair_key(r, root, p);
		if (!k)
			return -1;
		if (strcmp(scalar_text(k), "rules") != 0)
			return fail_at(r, k->start_mark, "unknown key '%s' (a catalogue has one key, 'rules')",
				       scalar_text(k));
		rules = node_at(r, p->value);
	}
	if (!rules)
		return fail_at(r, root->start_mark, "missing required key 'rules'");
	if (is_null(rules))
		return 0;
	if (rules->type != YAML_SEQUENCE_NODE)
		return fail_at(r, rules->start_mark, "'rules' must be a sequence of rule mappings");
	size_t n = (size_t)(rules->data.sequence.items.top - rules->data.sequence.items.start);
	if (n == 0)
		return 0;
	rule_slot *slots = calloc(n, sizeof *slots);
	if (!slots)
		return fail_oom(r, rules);
	for (size_t i = 0; i < n; i++) {
		const yaml_node_t *item = node_at(r, rules->data.sequence.items.start[i]);
		if (!item || read_rule(r, item, &slots[i]))
			goto fail;
		slots[i].def.source_file = r->name;
		/* Duplicate ids: the message points at both id values. */
		yaml_mark_t at = { 0, slots[i].line - 1, slots[i].column - 1 };
		const rule_slot *dup = find_slot(cat, slots[i].def.id);
		if (dup) {
			fail_at(r, at, "duplicate rule id '%s' (first defined at %s:%lu:%lu)",
				slots[i].def.id, dup->def.source_file, dup->line, dup->column);
			goto fail;
		}
		for (size_t j = 0; j < i; j++)
			if (strcmp(slots[j].def.id, slots[i].def.id) == 0) {
				fail_at(r, at, "duplicate rule id '%s' (first defined at %s:%lu:%lu)",
					slots[i].def.id, r->name, slots[j].line, slots[j].column);
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
	reader r = { NULL, name, cat->arena, err, errcap };
	const char *stored = wl_arena_strndup(cat->arena, name, strlen(name));
	yaml_mark_t zero = { 0, 0, 0 };
	if (!stored)
		return fail_at(&r, zero, "out of memory");
	r.name = stored;

	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser))
		return fail_at(&r, zero, "out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	yaml_document_t doc;
	memset(&doc, 0, sizeof doc);
	if (!yaml_parser_load(&parser, &doc)) {
		fail_parser(&r, &parser, text, len);
		yaml_parser_delete(&parser);
		return -1;
	}
	r.doc = &doc;
	int rc = 0;
	rule_slot *slots = NULL;
	size_t n = 0;
	const yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (!root) {
		rc = fail_at(&r, zero, "empty catalogue (expected a mapping with key 'rules')");
	} else {
		/* A second document in the same text is an error. */
		yaml_document_t more;
		memset(&more, 0, sizeof more);
		if (!yaml_parser_load(&parser, &more)) {
			rc = fail_parser(&r, &parser, text, len);
		} else {
			const yaml_node_t *extra = yaml_document_get_root_node(&more);
			if (extra)
				rc = fail_at(&r, extra->start_mark, "only one YAML document is allowed");
			yaml_document_delete(&more);
		}
		if (rc == 0)
			rc = read_root(&r, cat, root, &slots, &n);
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (rc || n == 0)
		return rc;
	if (cat->count + n > cat->cap) {
		size_t cap = cat->cap ? cat->cap : 64;
		while (cap < cat->count + n)
			cap *= 2;
		rule_slot *grown = realloc(cat->rules, cap * sizeof *grown);
		if (!grown) {
			free(slots);
			return fail_at(&r, zero, "out of memory");
		}
		cat->rules = grown;
		cat->cap = cap;
	}
	memcpy(cat->rules + cat->count, slots, n * sizeof *slots);
	cat->count += n;
	free(slots);
	qsort(cat->rules, cat->count, sizeof *cat->rules, cmp_slot);
	return 0;
}

static wl_catalog *catalog_new(void)
{
	wl_catalog *cat = calloc(1, sizeof *cat);
	if (!cat)
		return NULL;
	cat->arena = wl_arena_new(0);
	if (!cat->arena) {
		free(cat);
		return NULL;
	}
	return cat;
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
		*cat = catalog_new();
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

wl_catalog *wl_catalog_load_builtin(char *err, size_t errcap)
{
	wl_catalog *cat = catalog_new();
	if (!cat) {
		if (err && errcap)
			snprintf(err, errcap, "(builtin catalogue):1:1: out of memory");
		return NULL;
	}
	for (size_t i = 0; i < wl_embedded_rules_count; i++) {
		const struct wl_embedded_file *f = &wl_embedded_rules[i];
		if (wl_catalog_add_yaml(&cat, f->name, f->text, f->len, err, errcap)) {
			wl_catalog_free(cat);
			return NULL;
		}
	}
	return cat;
}

void wl_catalog_free(wl_catalog *cat)
{
	if (!cat)
		return;
	free(cat->rules);
	wl_arena_free(cat->arena);
	free(cat);
}

const wl_rule_def *wl_catalog_find(const wl_catalog *cat, const char *id)
{
	const rule_slot *s = find_slot(cat, id);
	return s ? &s->def : NULL;
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

static const wl_param_def *param_def(const wl_catalog *cat, const char *rule, const char *param)
{
	const wl_rule_def *r = wl_catalog_find(cat, rule);
	if (!r || !param)
		return NULL;
	for (size_t i = 0; i < r->params_count; i++)
		if (strcmp(r->params[i].name, param) == 0)
			return &r->params[i];
	return NULL;
}

double wl_catalog_param(const wl_catalog *cat, const char *rule, const char *param, double fallback)
{
	const wl_param_def *p = param_def(cat, rule, param);
	return p ? p->def : fallback;
}
