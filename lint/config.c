/*
 * config.c - user configuration (.w3dlint.yaml, see config.h), read through
 * yaml_doc.h (libyaml's document API) and checked against the rule catalogue.
 *
 * Every string and override record lives in one arena owned by the
 * configuration, released by wl_config_free.  Error messages are
 * "name:line:column: message" with 1-based line and column, written by
 * yaml_doc.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/arena.h"
#include "yaml_doc.h"

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
	const wl_ydoc *doc; /* its name and error buffer too */
	const wl_catalog *cat;
	wl_config *cfg;
} reader;

/* A severity scalar; what names the setting in messages. */
static int read_severity(const reader *r, wl_ynode v, const char *what, int allow_off, int *out)
{
	if (wl_ydoc_want_scalar(r->doc, v, what))
		return -1;
	int sev = wl_severity_parse(wl_ydoc_text(r->doc, v));
	if (sev < 0 || (!allow_off && sev == WL_SEV_OFF))
		return wl_ydoc_fail(r->doc, v, "%s: bad severity '%s' (expected error, warning, info%s)",
				    what, wl_ydoc_text(r->doc, v), allow_off ? " or off" : "");
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
static int read_params(const reader *r, wl_ynode v, const char *id, rule_override *o)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_is_null(d, v))
		return 0;
	if (wl_ydoc_kind(d, v) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, v, "rule '%s': params must be a mapping of parameter "
				    "name to number", id);
	size_t n = wl_ydoc_count(d, v);
	o->params = wl_arena_array(r->cfg->arena, n ? n : 1, sizeof *o->params);
	if (!o->params)
		return wl_ydoc_fail(d, v, "out of memory");
	const wl_rule_def *def = wl_catalog_find(r->cat, id);
	for (size_t j = 0; j < n; j++) {
		wl_ynode k = wl_ydoc_unique_key(d, v, j);
		if (!k)
			return -1;
		wl_ynode val = wl_ydoc_value(d, v, j);
		const char *name = wl_ydoc_text(d, k);
		if (r->cat) {
			size_t i = 0;
			while (def && i < def->params_count && strcmp(def->params[i].name, name) != 0)
				i++;
			if (!def || i == def->params_count) {
				char known[512];
				if (def && def->params_count) {
					list_params(def, known, sizeof known);
					return wl_ydoc_fail(d, k, "rule '%s' has no parameter '%s' "
							    "(its parameters: %s)", id, name, known);
				}
				return wl_ydoc_fail(d, k, "rule '%s' has no parameter '%s' "
						    "(it takes no parameters)", id, name);
			}
		}
		double x;
		if (wl_ydoc_kind(d, val) != WL_Y_SCALAR)
			return wl_ydoc_fail(d, val, "rule '%s': parameter '%s' must be a number", id, name);
		if (wl_ydoc_number(d, val, &x))
			return wl_ydoc_fail(d, val, "rule '%s': parameter '%s': '%s' is not a number",
					    id, name, wl_ydoc_text(d, val));
		param_override *po = &o->params[o->params_count++];
		po->name = wl_arena_strndup(r->cfg->arena, name, strlen(name));
		if (!po->name)
			return wl_ydoc_fail(d, k, "out of memory");
		po->value = x;
	}
	return 0;
}

/* One entry of rules: ID: severity, or ID: {severity, params}. */
static int read_rule(const reader *r, wl_ynode k, wl_ynode v, rule_override *o)
{
	const wl_ydoc *d = r->doc;
	const char *id = wl_ydoc_text(d, k);
	if (r->cat && !wl_catalog_find(r->cat, id))
		return wl_ydoc_fail(d, k, "unknown rule id '%s'", id);
	o->id = wl_arena_strndup(r->cfg->arena, id, strlen(id));
	if (!o->id)
		return wl_ydoc_fail(d, k, "out of memory");
	o->severity = -1;
	char what[160];
	snprintf(what, sizeof what, "rule '%s'", id);
	if (wl_ydoc_kind(d, v) == WL_Y_SCALAR)
		return read_severity(r, v, what, 1, &o->severity);
	if (wl_ydoc_kind(d, v) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, v, "rule '%s': expected a severity or a mapping with "
				    "severity and params", id);
	for (size_t i = 0; i < wl_ydoc_count(d, v); i++) {
		wl_ynode key = wl_ydoc_unique_key(d, v, i);
		if (!key)
			return -1;
		wl_ynode val = wl_ydoc_value(d, v, i);
		const char *s = wl_ydoc_text(d, key);
		if (strcmp(s, "severity") == 0) {
			if (read_severity(r, val, what, 1, &o->severity))
				return -1;
		} else if (strcmp(s, "params") == 0) {
			if (read_params(r, val, id, o))
				return -1;
		} else {
			return wl_ydoc_fail(d, key, "rule '%s': unknown key '%s' (expected severity "
					    "or params)", id, s);
		}
	}
	return 0;
}

static int read_rules(const reader *r, wl_ynode v)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_is_null(d, v))
		return 0;
	if (wl_ydoc_kind(d, v) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, v, "'rules' must be a mapping of rule id to settings");
	size_t n = wl_ydoc_count(d, v);
	r->cfg->rules = wl_arena_array(r->cfg->arena, n ? n : 1, sizeof *r->cfg->rules);
	if (!r->cfg->rules)
		return wl_ydoc_fail(d, v, "out of memory");
	for (size_t i = 0; i < n; i++) {
		wl_ynode k = wl_ydoc_unique_key(d, v, i);
		if (!k)
			return -1;
		if (read_rule(r, k, wl_ydoc_value(d, v, i), &r->cfg->rules[r->cfg->rules_count]))
			return -1;
		r->cfg->rules_count++;
	}
	return 0;
}

static int read_root(const reader *r, wl_ynode root)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_is_null(d, root))
		return 0;
	if (wl_ydoc_kind(d, root) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, root, "a configuration must be a mapping (keys: rules, fail-on)");
	for (size_t i = 0; i < wl_ydoc_count(d, root); i++) {
		wl_ynode k = wl_ydoc_unique_key(d, root, i);
		if (!k)
			return -1;
		wl_ynode v = wl_ydoc_value(d, root, i);
		const char *key = wl_ydoc_text(d, k);
		if (strcmp(key, "rules") == 0) {
			if (read_rules(r, v))
				return -1;
		} else if (strcmp(key, "fail-on") == 0) {
			int sev;
			if (read_severity(r, v, "fail-on", 0, &sev))
				return -1;
			r->cfg->fail_on = (wl_severity)sev;
		} else {
			return wl_ydoc_fail(d, k, "unknown key '%s' (expected rules or fail-on)", key);
		}
	}
	return 0;
}

/* Parses text into cfg; returns 0 or -1 with err filled.  An empty text
 * is an empty configuration. */
static int parse_into(wl_config *cfg, const wl_catalog *cat, const char *name, const char *text,
		      size_t len, char *err, size_t errcap)
{
	wl_ydoc *doc;
	if (wl_ydoc_load(name, text, len, err, errcap, &doc))
		return -1;
	reader r = { doc, cat, cfg };
	int rc = wl_ydoc_root(doc) ? read_root(&r, wl_ydoc_root(doc)) : 0;
	wl_ydoc_free(doc);
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
