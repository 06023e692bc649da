/*
 * config.c - user configuration (.w3dlint.yaml, see config.h), read with
 * libyaml's document API and checked against the rule catalogue.
 *
 * Every string and override record lives in one arena owned by the
 * configuration, released by wl_config_free.  Error messages are
 * "name:line:column: message" with 1-based line and column (libyaml marks
 * are 0-based).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "../core/arena.h"

#define CONFIG_NAME ".w3dlint.yaml"
#define CONFIG_MAX_BYTES ((size_t)16 * 1024 * 1024) /* a config file is small */

typedef struct param_override {
	const char *name;
	double value;
} param_override;

typedef struct rule_override {
	const char *id;
	int severity;                 /* wl_severity, or -1: not overridden */
	param_override *params;
	size_t params_count;
} rule_override;

struct wl_config {
	wl_arena *arena;
	const char *path;             /* "" for parsed text */
	wl_severity fail_on;
	rule_override *rules;
	size_t rules_count;
};

/* State of one document being read. */
typedef struct reader {
	yaml_document_t *doc;
	const char *name;
	const wl_catalog *cat;
	wl_config *cfg;
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

/* Line and column (0-based) of byte offset off, for libyaml reader errors,
 * which report an offset instead of a mark. */
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

static int want_scalar(const reader *r, const yaml_node_t *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE)
		return fail_at(r, n->start_mark, "%s must be a scalar, not a %s", what,
			       n->type == YAML_MAPPING_NODE ? "mapping" : "sequence");
	if (strlen(scalar_text(n)) != n->data.scalar.length)
		return fail_at(r, n->start_mark, "%s contains a NUL character", what);
	return 0;
}

/* A plain decimal number: [+-]digits[.digits][(e|E)[+-]digits]. */
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

/* The key of a mapping pair: a scalar, not already used in the mapping. */
static const yaml_node_t *pair_key(const reader *r, const yaml_node_t *map, const yaml_node_pair_t *p)
{
	const yaml_node_t *k = node_at(r, p->key);
	if (!k || !node_at(r, p->value)) {
		fail_at(r, map->start_mark, "internal: incomplete mapping pair");
		return NULL;
	}
	if (want_scalar(r, k, "a key"))
		return NULL;
	for (const yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
		const yaml_node_t *prev = node_at(r, q->key);
		if (prev && prev->type == YAML_SCALAR_NODE && strcmp(scalar_text(prev), scalar_text(k)) == 0) {
			fail_at(r, k->start_mark, "duplicate key '%s' (first at line %lu)", scalar_text(k),
				(unsigned long)prev->start_mark.line + 1);
			return NULL;
		}
	}
	return k;
}

static int pair_count(const yaml_node_t *map)
{
	return (int)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
}

/* A severity scalar; what names the setting in messages. */
static int read_severity(const reader *r, const yaml_node_t *v, const char *what, int allow_off,
			 int *out)
{
	if (want_scalar(r, v, what))
		return -1;
	int sev = wl_severity_parse(scalar_text(v));
	if (sev < 0 || (!allow_off && sev == WL_SEV_OFF))
		return fail_at(r, v->start_mark, "%s: bad severity '%s' (expected error, warning, info%s)",
			       what, scalar_text(v), allow_off ? " or off" : "");
	*out = sev;
	return 0;
}

/* Writes the names of a rule's parameters ("a, b") into buf. */
static void list_params(const wl_rule_def *def, char *buf, size_t cap)
{
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = 0; i < def->params_count && at < cap; i++) {
		int n = snprintf(buf + at, cap - at, "%s%s", i ? ", " : "", def->params[i].name);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

/* rules.ID.params: a mapping of parameter name to number. */
static int read_params(const reader *r, const yaml_node_t *v, const char *id, rule_override *o)
{
	if (is_null(v))
		return 0;
	if (v->type != YAML_MAPPING_NODE)
		return fail_at(r, v->start_mark, "rule '%s': params must be a mapping of parameter "
			       "name to number", id);
	int n = pair_count(v);
	o->params = wl_arena_array(r->cfg->arena, n ? (size_t)n : 1, sizeof *o->params);
	if (!o->params)
		return fail_at(r, v->start_mark, "out of memory");
	const wl_rule_def *def = wl_catalog_find(r->cat, id);
	for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = pair_key(r, v, p);
		if (!k)
			return -1;
		const yaml_node_t *val = node_at(r, p->value);
		const char *name = scalar_text(k);
		if (r->cat) {
			size_t i = 0;
			while (def && i < def->params_count && strcmp(def->params[i].name, name) != 0)
				i++;
			if (!def || i == def->params_count) {
				char known[512];
				if (def && def->params_count) {
					list_params(def, known, sizeof known);
					return fail_at(r, k->start_mark, "rule '%s' has no parameter '%s' "
						       "(its parameters: %s)", id, name, known);
				}
				return fail_at(r, k->start_mark, "rule '%s' has no parameter '%s' "
					       "(it takes no parameters)", id, name);
			}
		}
		double x;
		if (val->type != YAML_SCALAR_NODE)
			return fail_at(r, val->start_mark, "rule '%s': parameter '%s' must be a number",
				       id, name);
		if (val->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || parse_number(scalar_text(val), &x))
			return fail_at(r, val->start_mark, "rule '%s': parameter '%s': '%s' is not a number",
				       id, name, scalar_text(val));
		param_override *po = &o->params[o->params_count++];
		po->name = wl_arena_strndup(r->cfg->arena, name, strlen(name));
		if (!po->name)
			return fail_at(r, k->start_mark, "out of memory");
		po->value = x;
	}
	return 0;
}

/* One entry of rules: ID: severity, or ID: {severity, params}. */
static int read_rule(const reader *r, const yaml_node_t *k, const yaml_node_t *v, rule_override *o)
{
	const char *id = scalar_text(k);
	if (r->cat && !wl_catalog_find(r->cat, id))
		return fail_at(r, k->start_mark, "unknown rule id '%s'", id);
	o->id = wl_arena_strndup(r->cfg->arena, id, strlen(id));
	if (!o->id)
		return fail_at(r, k->start_mark, "out of memory");
	o->severity = -1;
	if (v->type == YAML_SCALAR_NODE) {
		char what[160];
		snprintf(what, sizeof what, "rule '%s'", id);
		return read_severity(r, v, what, 1, &o->severity);
	}
	if (v->type != YAML_MAPPING_NODE)
		return fail_at(r, v->start_mark, "rule '%s': expected a severity or a mapping with "
			       "severity and params", id);
	for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
		const yaml_node_t *key = pair_key(r, v, p);
		if (!key)
			return -1;
		const yaml_node_t *val = node_at(r, p->value);
		if (strcmp(scalar_text(key), "severity") == 0) {
			char what[160];
			snprintf(what, sizeof what, "rule '%s'", id);
			if (read_severity(r, val, what, 1, &o->severity))
				return -1;
		} else if (strcmp(scalar_text(key), "params") == 0) {
			if (read_params(r, val, id, o))
				return -1;
		} else {
			return fail_at(r, key->start_mark, "rule '%s': unknown key '%s' (expected severity "
				       "or params)", id, scalar_text(key));
		}
	}
	return 0;
}

static int read_rules(const reader *r, const yaml_node_t *v)
{
	if (is_null(v))
		return 0;
	if (v->type != YAML_MAPPING_NODE)
		return fail_at(r, v->start_mark, "'rules' must be a mapping of rule id to settings");
	int n = pair_count(v);
	r->cfg->rules = wl_arena_array(r->cfg->arena, n ? (size_t)n : 1, sizeof *r->cfg->rules);
	if (!r->cfg->rules)
		return fail_at(r, v->start_mark, "out of memory");
	for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = pair_key(r, v, p);
		if (!k)
			return -1;
		if (read_rule(r, k, node_at(r, p->value), &r->cfg->rules[r->cfg->rules_count]))
			return -1;
		r->cfg->rules_count++;
	}
	return 0;
}

static int read_root(const reader *r, const yaml_node_t *root)
{
	if (is_null(root))
		return 0;
	if (root->type != YAML_MAPPING_NODE)
		return fail_at(r, root->start_mark, "a configuration must be a mapping (keys: rules, fail-on)");
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = pair_key(r, root, p);
		if (!k)
			return -1;
		const yaml_node_t *v = node_at(r, p->value);
		const char *key = scalar_text(k);
		if (strcmp(key, "rules") == 0) {
			if (read_rules(r, v))
				return -1;
		} else if (strcmp(key, "fail-on") == 0) {
			int sev;
			if (read_severity(r, v, "fail-on", 0, &sev))
				return -1;
			r->cfg->fail_on = (wl_severity)sev;
		} else {
			return fail_at(r, k->start_mark, "unknown key '%s' (expected rules or fail-on)", key);
		}
	}
	return 0;
}

/* Parses text into cfg; returns 0 or -1 with err filled. */
static int parse_into(wl_config *cfg, const wl_catalog *cat, const char *name, const char *text,
		      size_t len, char *err, size_t errcap)
{
	reader r = { NULL, name, cat, cfg, err, errcap };
	yaml_mark_t zero = { 0, 0, 0 };
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
	const yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (root) {
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
			rc = read_root(&r, root);
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}

static wl_config *config_new(const char *path)
{
	wl_config *cfg = calloc(1, sizeof *cfg);
	if (!cfg)
		return NULL;
	cfg->arena = wl_arena_new(0);
	if (!cfg->arena) {
		free(cfg);
		return NULL;
	}
	cfg->fail_on = WL_SEV_ERROR;
	cfg->path = wl_arena_strndup(cfg->arena, path, strlen(path));
	if (!cfg->path) {
		wl_config_free(cfg);
		return NULL;
	}
	return cfg;
}

/* cat may be NULL: rule ids and parameter names are then not checked. */
wl_config *wl_config_parse(const wl_catalog *cat, const char *name, const char *text,
			   size_t text_len, char *err, size_t errcap)
{
	if (err && errcap)
		err[0] = 0;
	if (!name)
		name = "(config)";
	wl_config *cfg = config_new("");
	if (!cfg) {
		if (err && errcap)
			snprintf(err, errcap, "%s:1:1: out of memory", name);
		return NULL;
	}
	if (parse_into(cfg, cat, name, text ? text : "", text ? text_len : 0, err, errcap)) {
		wl_config_free(cfg);
		return NULL;
	}
	return cfg;
}

wl_config *wl_config_load(const wl_catalog *cat, const char *path, char *err, size_t errcap)
{
	if (err && errcap)
		err[0] = 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (err && errcap)
			snprintf(err, errcap, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	int too_big = 0, read_error = 0;
	while (buf) {
		if (len == cap) {
			if (cap >= CONFIG_MAX_BYTES) {
				too_big = 1;
				break;
			}
			char *grown = realloc(buf, cap * 2);
			if (!grown) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = grown;
			cap *= 2;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0) {
			read_error = ferror(f);
			break;
		}
	}
	int saved = errno;
	fclose(f);
	if (!buf || too_big || read_error) {
		if (err && errcap) {
			if (!buf)
				snprintf(err, errcap, "%s: out of memory", path);
			else if (too_big)
				snprintf(err, errcap, "%s: larger than %zu bytes", path, CONFIG_MAX_BYTES);
			else
				snprintf(err, errcap, "%s: cannot read: %s", path, strerror(saved));
		}
		free(buf);
		return NULL;
	}
	wl_config *cfg = config_new(path);
	if (!cfg) {
		if (err && errcap)
			snprintf(err, errcap, "%s: out of memory", path);
		free(buf);
		return NULL;
	}
	if (parse_into(cfg, cat, path, buf, len, err, errcap)) {
		wl_config_free(cfg);
		cfg = NULL;
	}
	free(buf);
	return cfg;
}

/* Does dir/name exist (any kind of file)?  want_file: only regular files. */
static int has_entry(const char *dir, const char *name, int want_file, char *buf, size_t cap)
{
	int n = snprintf(buf, cap, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", name);
	if (n < 0 || (size_t)n >= cap)
		return 0;
	struct stat st;
	if (stat(buf, &st) != 0)
		return 0;
	return want_file ? S_ISREG(st.st_mode) : 1;
}

/*
 * Walks up from file_path's directory (resolved with realpath, so ".." and
 * symbolic links are followed first).  In each directory .w3dlint.yaml (a
 * regular file) is looked for before .git (a directory, or a file as in
 * submodules and worktrees), so a repository root's own configuration is
 * found.  A path naming a directory starts the walk there.  A result that
 * does not fit in outcap bytes counts as not found.
 */
int wl_config_locate(const char *file_path, char *out, size_t outcap)
{
	if (out && outcap)
		out[0] = 0;
	if (!file_path || !out || outcap == 0)
		return 0;
	/* The directory part of file_path ("." when it has none); a directory
	 * given as file_path is its own starting point. */
	size_t plen = strlen(file_path);
	char *dirpart = malloc(plen + 2);
	if (!dirpart)
		return 0;
	memcpy(dirpart, file_path, plen + 1);
	struct stat st;
	if (stat(file_path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		char *slash = strrchr(dirpart, '/');
		if (!slash)
			strcpy(dirpart, ".");
		else if (slash == dirpart)
			dirpart[1] = 0;
		else
			*slash = 0;
	}
	char *dir = realpath(dirpart, NULL);
	free(dirpart);
	if (!dir)
		return 0;
	size_t cap = strlen(dir) + sizeof CONFIG_NAME + 8;
	char *probe = malloc(cap);
	int found = 0;
	while (probe) {
		if (has_entry(dir, CONFIG_NAME, 1, probe, cap)) {
			if (strlen(probe) < outcap) {
				memcpy(out, probe, strlen(probe) + 1);
				found = 1;
			}
			break;
		}
		if (has_entry(dir, ".git", 0, probe, cap) || strcmp(dir, "/") == 0)
			break; /* the repository root, or the file system root */
		char *up = strrchr(dir, '/');
		if (!up)
			break;
		if (up == dir)
			up[1] = 0;
		else
			*up = 0;
	}
	free(probe);
	free(dir);
	return found;
}

void wl_config_free(wl_config *cfg)
{
	if (!cfg)
		return;
	wl_arena_free(cfg->arena);
	free(cfg);
}

static const rule_override *find_override(const wl_config *cfg, const char *rule)
{
	if (!cfg || !rule)
		return NULL;
	for (size_t i = 0; i < cfg->rules_count; i++)
		if (strcmp(cfg->rules[i].id, rule) == 0)
			return &cfg->rules[i];
	return NULL;
}

wl_severity wl_config_severity(const wl_config *cfg, const wl_catalog *cat, const char *rule)
{
	const rule_override *o = find_override(cfg, rule);
	if (o && o->severity >= 0)
		return (wl_severity)o->severity;
	const wl_rule_def *def = rule ? wl_catalog_find(cat, rule) : NULL;
	return def ? def->severity : WL_SEV_ERROR;
}

double wl_config_param(const wl_config *cfg, const wl_catalog *cat, const char *rule,
		       const char *param, double fallback)
{
	const rule_override *o = find_override(cfg, rule);
	if (o && param)
		for (size_t i = 0; i < o->params_count; i++)
			if (strcmp(o->params[i].name, param) == 0)
				return o->params[i].value;
	return wl_catalog_param(cat, rule, param, fallback);
}

wl_severity wl_config_fail_on(const wl_config *cfg)
{
	return cfg ? cfg->fail_on : WL_SEV_ERROR;
}

const char *wl_config_path(const wl_config *cfg)
{
	return cfg ? cfg->path : "";
}
