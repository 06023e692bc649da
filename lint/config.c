/*
 * config.c - user configuration (.w3dlint.yaml, see config.h), read through
 * yaml_doc.h (libyaml's document API) and checked against the rule catalogue.
 *
 * Every string and record lives in one arena owned by the configuration;
 * compiled patterns (pattern.h) are listed in it and released by
 * wl_config_free.  A file named by `extends` is read into the same
 * configuration before the keys of the file naming it, so the later file
 * overrides what it inherits (the merge rules are in config.h).  Error
 * messages are "name:line:column: message" with 1-based line and column,
 * written by yaml_doc.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/file_io.h"
#include "core/yaml_doc.h"
#include "suggest.h"

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
	size_t params_count, params_cap;
} rule_override;

/* A list of globs (fnmatch patterns over rule ids). */
typedef struct glob_list {
	const char **items;
	size_t count, cap;
} glob_list;

/* One per-path-ignores entry. */
typedef struct path_ignore {
	const char *dir;              /* absolute folder of the declaring file */
	const char *pattern;          /* normalised path glob, relative to dir */
	glob_list rules;              /* rule-id globs turned off there */
} path_ignore;

struct wl_config {
	wl_arena *arena;
	const char *path;             /* "" for parsed text */
	wl_severity fail_on;
	uint64_t memory_cap;          /* memory-cap in bytes, 0 when not set */
	rule_override *rules;
	size_t rules_count, rules_cap;
	bool has_select;
	glob_list select;
	glob_list extend_select;      /* adds to select; turns rules on */
	glob_list ignore;
	wl_target_mask target;        /* target: (0: auto) */
	const char **base;            /* base: folders, absolute or joined */
	size_t base_count, base_cap;
	path_ignore *paths;
	size_t paths_count, paths_cap;
	wl_custom_rule *customs;
	size_t customs_count, customs_cap;
	wl_pattern **patterns;        /* malloc-owned list, freed with the config */
	size_t patterns_count, patterns_cap;
};

/* The files being read, innermost first (for extends cycles). */
typedef struct load_frame {
	const char *real;             /* realpath, or the absolute name */
	const char *shown;            /* the name used in messages */
	const struct load_frame *up;  /* the file that extends this one */
} load_frame;

/* State of one document being read. */
typedef struct reader {
	const wl_ydoc *doc; /* its name and error buffer too */
	const wl_catalog *cat;
	wl_config *cfg;
	const char *dir;              /* absolute folder of this file (arena) */
	const load_frame *frame;      /* this file */
	int depth;                    /* 0 for the file given to load/parse */
	char *err;
	size_t errcap;
} reader;

static int parse_into(wl_config *cfg, const wl_catalog *cat, const char *name, const char *text,
		      size_t len, char *err, size_t errcap, const load_frame *frame, int depth);

/* ------------------------------------------------------------- helpers */

/* Makes room for one more element of size bytes in *items (count used, *cap
 * allocated; arena arrays grow by copying).  Returns 0, or -1 when out of
 * memory. */
static int grow(wl_arena *a, void **items, size_t count, size_t *cap, size_t size)
{
	if (count < *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 4;
	void *n = wl_arena_array(a, ncap, size);
	if (!n)
		return -1;
	if (count)
		memcpy(n, *items, count * size);
	*items = n;
	*cap = ncap;
	return 0;
}

static char *arena_str(wl_arena *a, const char *s)
{
	return wl_arena_strndup(a, s, strlen(s));
}

/* Normalises an absolute path in place: no repeated '/', no "." segment,
 * ".." removes the previous segment (never above "/"), no trailing '/'. */
static void normalize_path(char *s)
{
	char *w = s;
	const char *r = s;
	while (*r) {
		while (*r == '/')
			r++;
		if (!*r)
			break;
		const char *e = strchr(r, '/');
		size_t n = e ? (size_t)(e - r) : strlen(r);
		if (n == 1 && r[0] == '.') {
			/* skip */
		} else if (n == 2 && r[0] == '.' && r[1] == '.') {
			while (w > s && *(w - 1) != '/')
				w--;
			if (w > s)
				w--; /* the '/' before the removed segment */
		} else {
			*w++ = '/';
			memmove(w, r, n);
			w += n;
		}
		r += n;
	}
	if (w == s)
		*w++ = '/';
	*w = 0;
}

/*
 * The absolute form of path (malloc-owned, NULL when out of memory):
 * realpath() when path exists; else realpath() of its folder plus its last
 * segment; else path made absolute with the working directory and
 * normalised lexically.
 */
static char *absolute_path(const char *path)
{
	char *rp = realpath(path, NULL);
	if (rp)
		return rp;
	size_t n = strlen(path);
	const char *slash = strrchr(path, '/');
	if (slash && slash[1]) {
		char *dir = malloc(n + 2);
		if (!dir)
			return NULL;
		size_t dn = (size_t)(slash - path);
		memcpy(dir, path, dn);
		dir[dn] = 0;
		if (dn == 0)
			strcpy(dir, "/");
		char *rd = realpath(dir, NULL);
		free(dir);
		if (rd) {
			size_t rn = strlen(rd);
			char *out = malloc(rn + strlen(slash) + 1);
			if (out) {
				memcpy(out, rd, rn);
				strcpy(out + (rn == 1 ? 0 : rn), slash);
				normalize_path(out);
			}
			free(rd);
			return out;
		}
	}
	char cwd[PATH_MAX];
	const char *base = path[0] == '/' ? "" : (getcwd(cwd, sizeof cwd) ? cwd : "/");
	char *out = malloc(strlen(base) + n + 2);
	if (!out)
		return NULL;
	sprintf(out, "%s/%s", base, path);
	normalize_path(out);
	return out;
}

/* The absolute folder of file (see absolute_path), in the arena. */
static const char *folder_of(wl_arena *a, const char *file)
{
	size_t n = strlen(file);
	char *dir = malloc(n + 2);
	if (!dir)
		return NULL;
	memcpy(dir, file, n + 1);
	char *slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = 0;
	else
		*slash = 0;
	char *abs = absolute_path(dir);
	free(dir);
	if (!abs)
		return NULL;
	const char *out = arena_str(a, abs);
	free(abs);
	return out;
}

char *wl_config_file_key(const char *path)
{
	return path ? absolute_path(path) : NULL;
}

static bool has_glob_meta(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static bool glob_any(const glob_list *l, const char *id)
{
	for (size_t i = 0; i < l->count; i++)
		if (fnmatch(l->items[i], id, 0) == 0)
			return true;
	return false;
}

/* A path glob split into NUL-terminated segments. */
typedef struct segs {
	char *buf;
	const char **seg;
	size_t count;
} segs;

static int split_segments(const char *s, segs *out)
{
	size_t n = strlen(s), count = 1;
	for (size_t i = 0; i < n; i++)
		count += s[i] == '/';
	out->buf = malloc(n + 1);
	out->seg = malloc(count * sizeof *out->seg);
	out->count = 0;
	if (!out->buf || !out->seg) {
		free(out->buf);
		free(out->seg);
		return -1;
	}
	memcpy(out->buf, s, n + 1);
	char *p = out->buf;
	for (;;) {
		char *e = strchr(p, '/');
		if (e)
			*e = 0;
		if (*p)
			out->seg[out->count++] = p;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/*
 * Dynamic programming over (pattern segment, path segment): reach[j] is
 * true when the pattern segments seen so far can match exactly the first j
 * path segments.  "**" matches zero or more whole segments; every other
 * segment is an fnmatch() pattern for one segment.  O(pattern x path)
 * fnmatch calls, so several "**" cannot make it exponential.
 */
int wl_path_glob_match(const char *pattern, const char *path)
{
	if (!pattern || !path)
		return 0;
	segs p, s;
	if (split_segments(pattern, &p))
		return 0;
	if (split_segments(path, &s)) {
		free(p.buf);
		free(p.seg);
		return 0;
	}
	bool *reach = calloc(s.count + 1, sizeof *reach);
	bool *next = calloc(s.count + 1, sizeof *next);
	int matched = 0;
	if (reach && next) {
		reach[0] = true;
		for (size_t i = 0; i < p.count; i++) {
			if (strcmp(p.seg[i], "**") == 0) {
				bool any = false;
				for (size_t j = 0; j <= s.count; j++) {
					any = any || reach[j];
					next[j] = any;
				}
			} else {
				next[0] = false;
				for (size_t j = 1; j <= s.count; j++)
					next[j] = reach[j - 1] && fnmatch(p.seg[i], s.seg[j - 1], 0) == 0;
			}
			bool *t = reach;
			reach = next;
			next = t;
		}
		/* A match of the first j >= 1 segments is the file itself or a
		 * folder holding it. */
		for (size_t j = 1; j <= s.count && !matched; j++)
			matched = reach[j];
	}
	free(reach);
	free(next);
	free(p.buf);
	free(p.seg);
	free(s.buf);
	free(s.seg);
	return matched;
}

/* Does per-path entry e govern the file with absolute path key? */
static bool path_applies(const path_ignore *e, const char *key)
{
	size_t dn = strlen(e->dir);
	const char *rel;
	if (strcmp(e->dir, "/") == 0) {
		if (key[0] != '/')
			return false;
		rel = key + 1;
	} else {
		if (strncmp(key, e->dir, dn) != 0 || key[dn] != '/')
			return false;
		rel = key + dn + 1;
	}
	return wl_path_glob_match(e->pattern, rel) != 0;
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

const wl_custom_rule *wl_config_custom_find(const wl_config *cfg, const char *id)
{
	if (!cfg || !id)
		return NULL;
	for (size_t i = 0; i < cfg->customs_count; i++)
		if (strcmp(cfg->customs[i].id, id) == 0)
			return &cfg->customs[i];
	return NULL;
}

/* Is id a rule of the catalogue or a custom rule read so far? */
static bool known_rule(const reader *r, const char *id)
{
	return wl_catalog_find(r->cat, id) || wl_config_custom_find(r->cfg, id);
}

/* Fails at node n with "WHAT: unknown rule id 'ID'" (no "WHAT: " when what
 * is NULL), and "; did you mean 'NEAREST'?" when a rule or custom rule id is
 * a typo or two away. */
static int unknown_rule(const reader *r, wl_ynode n, const char *what, const char *id)
{
	wl_suggest s;
	wl_suggest_init(&s, id);
	for (size_t i = 0; i < wl_catalog_count(r->cat); i++)
		wl_suggest_offer(&s, wl_catalog_at(r->cat, i)->id);
	for (size_t i = 0; i < r->cfg->customs_count; i++)
		wl_suggest_offer(&s, r->cfg->customs[i].id);
	return wl_ydoc_fail(r->doc, n, "%s%sunknown rule id '%s'%s%s%s", what ? what : "", what ? ": " : "", id,
			    s.best ? "; did you mean '" : "", s.best ? s.best : "", s.best ? "'?" : "");
}

/* Does glob match some rule of the catalogue or a custom rule? */
static bool glob_matches_some(const reader *r, const char *glob)
{
	for (size_t i = 0; i < wl_catalog_count(r->cat); i++)
		if (fnmatch(glob, wl_catalog_at(r->cat, i)->id, 0) == 0)
			return true;
	for (size_t i = 0; i < r->cfg->customs_count; i++)
		if (fnmatch(glob, r->cfg->customs[i].id, 0) == 0)
			return true;
	return false;
}

/* "name:line:column" of node n, in the arena. */
static const char *origin_of(const reader *r, wl_ynode n)
{
	return wl_arena_printf(r->cfg->arena, "%s:%lu:%lu", wl_ydoc_name(r->doc),
			       wl_ydoc_line(r->doc, n), wl_ydoc_column(r->doc, n));
}

/* ------------------------------------------------------------- readers */

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

/* rules.ID.params: a mapping of parameter name to number.  A parameter set
 * again (by a file extending another) replaces the earlier value. */
static int read_params(const reader *r, wl_ynode v, const char *id, rule_override *o)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_is_null(d, v))
		return 0;
	if (wl_ydoc_kind(d, v) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, v, "rule '%s': params must be a mapping of parameter "
				    "name to number", id);
	size_t n = wl_ydoc_count(d, v);
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
		param_override *po = NULL;
		for (size_t i = 0; i < o->params_count && !po; i++)
			if (strcmp(o->params[i].name, name) == 0)
				po = &o->params[i];
		if (!po) {
			if (grow(r->cfg->arena, (void **)&o->params, o->params_count, &o->params_cap,
				 sizeof *o->params))
				return wl_ydoc_fail(d, k, "out of memory");
			po = &o->params[o->params_count];
			po->name = arena_str(r->cfg->arena, name);
			if (!po->name)
				return wl_ydoc_fail(d, k, "out of memory");
			o->params_count++;
		}
		po->value = x;
	}
	return 0;
}

/* One entry of rules: ID: severity, or ID: {severity, params}.  An id set
 * again (by a file extending another) updates the earlier entry. */
static int read_rule(const reader *r, wl_ynode k, wl_ynode v)
{
	const wl_ydoc *d = r->doc;
	wl_config *cfg = r->cfg;
	const char *id = wl_ydoc_text(d, k);
	if (r->cat && !known_rule(r, id))
		return unknown_rule(r, k, NULL, id);
	rule_override *o = (rule_override *)(uintptr_t)find_override(cfg, id);
	if (!o) {
		if (grow(cfg->arena, (void **)&cfg->rules, cfg->rules_count, &cfg->rules_cap,
			 sizeof *cfg->rules))
			return wl_ydoc_fail(d, k, "out of memory");
		o = &cfg->rules[cfg->rules_count];
		memset(o, 0, sizeof *o);
		o->id = arena_str(cfg->arena, id);
		if (!o->id)
			return wl_ydoc_fail(d, k, "out of memory");
		o->severity = -1;
		cfg->rules_count++;
	}
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
	for (size_t i = 0; i < wl_ydoc_count(d, v); i++) {
		wl_ynode k = wl_ydoc_unique_key(d, v, i);
		if (!k)
			return -1;
		if (read_rule(r, k, wl_ydoc_value(d, v, i)))
			return -1;
	}
	return 0;
}

/* Appends the rule-id globs of v (a sequence of scalars, or one scalar) to
 * l.  what names the setting in messages.  With a catalogue, a glob
 * without wildcards must be a known rule id and a glob with wildcards must
 * match at least one. */
static int read_globs(const reader *r, wl_ynode v, const char *what, glob_list *l)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_is_null(d, v))
		return 0;
	bool one = wl_ydoc_kind(d, v) == WL_Y_SCALAR;
	if (!one && wl_ydoc_kind(d, v) != WL_Y_SEQUENCE)
		return wl_ydoc_fail(d, v, "%s must be a list of rule ids or globs", what);
	size_t n = one ? 1 : wl_ydoc_count(d, v);
	for (size_t i = 0; i < n; i++) {
		wl_ynode it = one ? v : wl_ydoc_item(d, v, i);
		if (wl_ydoc_want_scalar(d, it, what))
			return -1;
		const char *g = wl_ydoc_text(d, it);
		if (!g[0])
			return wl_ydoc_fail(d, it, "%s: empty rule id", what);
		if (r->cat && !has_glob_meta(g) && !known_rule(r, g))
			return unknown_rule(r, it, what, g);
		if (r->cat && has_glob_meta(g) && !glob_matches_some(r, g))
			return wl_ydoc_fail(d, it, "%s: pattern '%s' matches no rule id", what, g);
		if (grow(r->cfg->arena, (void **)&l->items, l->count, &l->cap, sizeof *l->items))
			return wl_ydoc_fail(d, it, "out of memory");
		l->items[l->count] = arena_str(r->cfg->arena, g);
		if (!l->items[l->count])
			return wl_ydoc_fail(d, it, "out of memory");
		l->count++;
	}
	return 0;
}

/* Normalises a per-path glob: "./" and "/" prefixes and a trailing '/' are
 * dropped, repeated '/' collapsed, and a glob without '/' is prefixed with
 * "**" + "/" so it matches at any depth.  Returns NULL (and writes why) for
 * an empty glob or one with a ".." segment. */
static const char *normalise_glob(const reader *r, wl_ynode n, const char *g)
{
	size_t len = strlen(g);
	char *buf = wl_arena_alloc(r->cfg->arena, len + 4);
	if (!buf) {
		wl_ydoc_fail(r->doc, n, "out of memory");
		return NULL;
	}
	char *w = buf;
	memcpy(w, "**/", 3);
	w += 3;
	const char *p = g;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *e = strchr(p, '/');
		size_t sn = e ? (size_t)(e - p) : strlen(p);
		if (sn == 2 && p[0] == '.' && p[1] == '.') {
			wl_ydoc_fail(r->doc, n, "per-path-ignores: '%s': '..' is not allowed (paths are "
				     "relative to the configuration's folder and stay inside it)", g);
			return NULL;
		}
		if (!(sn == 1 && p[0] == '.')) {
			if (w > buf + 3)
				*w++ = '/';
			memcpy(w, p, sn);
			w += sn;
		}
		p += sn;
	}
	*w = 0;
	if (w == buf + 3) {
		wl_ydoc_fail(r->doc, n, "per-path-ignores: empty path pattern '%s'", g);
		return NULL;
	}
	/* Anchored at the folder: a '/' inside the glob, or a leading "/" or
	 * "./"; otherwise the glob matches a name at any depth. */
	bool anchored = strchr(buf + 3, '/') != NULL || g[0] == '/' ||
			(g[0] == '.' && g[1] == '/');
	return anchored ? buf + 3 : buf;
}

/* per-path-ignores: a mapping of path glob to a list of rule-id globs. */
static int read_path_ignores(const reader *r, wl_ynode v)
{
	const wl_ydoc *d = r->doc;
	wl_config *cfg = r->cfg;
	if (wl_ydoc_is_null(d, v))
		return 0;
	if (wl_ydoc_kind(d, v) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, v, "'per-path-ignores' must be a mapping of path pattern to a "
				    "list of rule ids or globs");
	for (size_t i = 0; i < wl_ydoc_count(d, v); i++) {
		wl_ynode k = wl_ydoc_unique_key(d, v, i);
		if (!k)
			return -1;
		const char *pat = normalise_glob(r, k, wl_ydoc_text(d, k));
		if (!pat)
			return -1;
		if (grow(cfg->arena, (void **)&cfg->paths, cfg->paths_count, &cfg->paths_cap,
			 sizeof *cfg->paths))
			return wl_ydoc_fail(d, k, "out of memory");
		path_ignore *e = &cfg->paths[cfg->paths_count];
		memset(e, 0, sizeof *e);
		e->dir = r->dir;
		e->pattern = pat;
		char what[300];
		snprintf(what, sizeof what, "per-path-ignores '%s'", wl_ydoc_text(d, k));
		if (read_globs(r, wl_ydoc_value(d, v, i), what, &e->rules))
			return -1;
		cfg->paths_count++;
	}
	return 0;
}

/* Is s "custom-" followed by lower-case letters and digits in groups
 * joined by single hyphens? */
static bool custom_id_ok(const char *s)
{
	size_t pn = strlen(WL_CUSTOM_PREFIX);
	if (strncmp(s, WL_CUSTOM_PREFIX, pn) != 0 || strlen(s) > WL_CUSTOM_ID_MAX)
		return false;
	const char *p = s + pn;
	if (!*p)
		return false;
	bool prev_hyphen = true; /* no hyphen first */
	for (; *p; p++) {
		if (*p == '-') {
			if (prev_hyphen)
				return false;
			prev_hyphen = true;
		} else if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) {
			prev_hyphen = false;
		} else {
			return false;
		}
	}
	return !prev_hyphen;
}

/* Writes the field names ("a, b, ...") into buf. */
static void list_fields(char *buf, size_t cap)
{
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = 0; i < wl_custom_field_count() && at < cap; i++) {
		int n = snprintf(buf + at, cap - at, "%s%s", i ? ", " : "", wl_custom_field_at(i)->name);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

/* Compiles the pattern of node v into *out; the configuration keeps it. */
static int read_pattern(const reader *r, wl_ynode v, const char *what, const wl_pattern **out)
{
	const wl_ydoc *d = r->doc;
	wl_config *cfg = r->cfg;
	if (wl_ydoc_want_scalar(d, v, what))
		return -1;
	if (cfg->patterns_count == cfg->patterns_cap) {
		size_t ncap = cfg->patterns_cap ? cfg->patterns_cap * 2 : 8;
		wl_pattern **n = realloc(cfg->patterns, ncap * sizeof *n);
		if (!n)
			return wl_ydoc_fail(d, v, "out of memory");
		cfg->patterns = n;
		cfg->patterns_cap = ncap;
	}
	wl_pattern *p;
	size_t off;
	char msg[256];
	if (wl_pattern_compile(wl_ydoc_text(d, v), wl_ydoc_length(d, v), &p, &off, msg, sizeof msg))
		return wl_ydoc_fail(d, v, "bad pattern at offset %zu: %s", off, msg);
	cfg->patterns[cfg->patterns_count++] = p;
	*out = p;
	return 0;
}

/* A number scalar for min/max. */
static int read_bound(const reader *r, wl_ynode v, const char *id, const char *key, double *out)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_kind(d, v) != WL_Y_SCALAR || wl_ydoc_number(d, v, out))
		return wl_ydoc_fail(d, v, "custom rule '%s': %s: '%s' is not a number", id, key,
				    wl_ydoc_text(d, v));
	return 0;
}

enum { CK_ID, CK_FIELD, CK_SEVERITY, CK_MATCH, CK_NOT_MATCH, CK_MIN, CK_MAX, CK_MESSAGE,
       CK_DESCRIPTION, CK_COUNT };
static const char *const custom_keys[CK_COUNT] = {
	"id", "field", "severity", "match", "not-match", "min", "max", "message", "description",
};

/* One item of custom-rules. */
static int read_custom(const reader *r, wl_ynode item)
{
	const wl_ydoc *d = r->doc;
	wl_config *cfg = r->cfg;
	if (wl_ydoc_kind(d, item) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, item, "a custom rule must be a mapping (keys: id, field, "
				    "match, not-match, min, max, severity, message, description)");
	wl_ynode key[CK_COUNT] = { 0 }, val[CK_COUNT] = { 0 };
	for (size_t i = 0; i < wl_ydoc_count(d, item); i++) {
		wl_ynode k = wl_ydoc_unique_key(d, item, i);
		if (!k)
			return -1;
		size_t c = 0;
		while (c < CK_COUNT && strcmp(custom_keys[c], wl_ydoc_text(d, k)) != 0)
			c++;
		if (c == CK_COUNT)
			return wl_ydoc_fail(d, k, "custom rule: unknown key '%s' (expected id, field, "
					    "match, not-match, min, max, severity, message or "
					    "description)", wl_ydoc_text(d, k));
		key[c] = k;
		val[c] = wl_ydoc_value(d, item, i);
	}
	if (!key[CK_ID])
		return wl_ydoc_fail(d, item, "custom rule: missing key 'id'");
	if (wl_ydoc_want_scalar(d, val[CK_ID], "custom rule id"))
		return -1;
	const char *id = wl_ydoc_text(d, val[CK_ID]);
	if (!custom_id_ok(id))
		return wl_ydoc_fail(d, val[CK_ID], "custom rule id '%s' must be '%s' followed by "
				    "kebab-case (a-z, 0-9, single hyphens; at most %d characters)",
				    id, WL_CUSTOM_PREFIX, WL_CUSTOM_ID_MAX);
	if (wl_catalog_find(r->cat, id))
		return wl_ydoc_fail(d, val[CK_ID], "custom rule id '%s' is a rule of the catalogue", id);
	const wl_custom_rule *prev = wl_config_custom_find(cfg, id);
	if (prev)
		return wl_ydoc_fail(d, val[CK_ID], "custom rule '%s' is already defined at %s", id,
				    prev->origin);
	if (!key[CK_FIELD])
		return wl_ydoc_fail(d, item, "custom rule '%s': missing key 'field'", id);
	if (wl_ydoc_want_scalar(d, val[CK_FIELD], "field"))
		return -1;
	wl_custom_rule c;
	memset(&c, 0, sizeof c);
	c.severity = WL_SEV_WARNING;
	c.field = wl_custom_field_find(wl_ydoc_text(d, val[CK_FIELD]));
	if (!c.field) {
		char known[1024];
		list_fields(known, sizeof known);
		return wl_ydoc_fail(d, val[CK_FIELD], "custom rule '%s': unknown field '%s' (known "
				    "fields: %s)", id, wl_ydoc_text(d, val[CK_FIELD]), known);
	}
	const char *fname = c.field->name;
	bool is_name = c.field->kind == WL_FIELD_NAME;
	/* Conditions that do not fit the field's kind. */
	static const int name_only[] = { CK_MATCH, CK_NOT_MATCH }, number_only[] = { CK_MIN, CK_MAX };
	for (size_t i = 0; i < 2; i++) {
		int k = is_name ? number_only[i] : name_only[i];
		if (key[k])
			return wl_ydoc_fail(d, key[k], "custom rule '%s': '%s' does not apply to %s field "
					    "'%s' (use %s)", id, custom_keys[k],
					    is_name ? "name" : "number", fname,
					    is_name ? "match or not-match" : "min or max");
	}
	if (is_name && !key[CK_MATCH] && !key[CK_NOT_MATCH])
		return wl_ydoc_fail(d, item, "custom rule '%s': name field '%s' needs match or "
				    "not-match", id, fname);
	if (!is_name && !key[CK_MIN] && !key[CK_MAX])
		return wl_ydoc_fail(d, item, "custom rule '%s': number field '%s' needs min or max",
				    id, fname);
	char what[160];
	snprintf(what, sizeof what, "custom rule '%s'", id);
	if (key[CK_SEVERITY]) {
		int sev;
		if (read_severity(r, val[CK_SEVERITY], what, 1, &sev))
			return -1;
		c.severity = (wl_severity)sev;
	}
	if (key[CK_MATCH] && read_pattern(r, val[CK_MATCH], "match", &c.match))
		return -1;
	if (key[CK_NOT_MATCH] && read_pattern(r, val[CK_NOT_MATCH], "not-match", &c.not_match))
		return -1;
	if (key[CK_MIN]) {
		if (read_bound(r, val[CK_MIN], id, "min", &c.min))
			return -1;
		c.has_min = true;
	}
	if (key[CK_MAX]) {
		if (read_bound(r, val[CK_MAX], id, "max", &c.max))
			return -1;
		c.has_max = true;
		if (c.has_min && c.max < c.min)
			return wl_ydoc_fail(d, val[CK_MAX], "custom rule '%s': max %g is below min %g",
					    id, c.max, c.min);
	}
	if (key[CK_MESSAGE]) {
		if (wl_ydoc_want_scalar(d, val[CK_MESSAGE], "message"))
			return -1;
		char bad[40];
		if (wl_custom_message_check(wl_ydoc_text(d, val[CK_MESSAGE]), bad, sizeof bad))
			return wl_ydoc_fail(d, val[CK_MESSAGE], "custom rule '%s': message: unknown "
					    "placeholder '%s' (known: {rule}, {field}, {value}, "
					    "{object}; {{ for a brace)", id, bad);
		c.message = arena_str(cfg->arena, wl_ydoc_text(d, val[CK_MESSAGE]));
		if (!c.message)
			return wl_ydoc_fail(d, item, "out of memory");
	}
	if (key[CK_DESCRIPTION]) {
		if (wl_ydoc_want_scalar(d, val[CK_DESCRIPTION], "description"))
			return -1;
		c.description = arena_str(cfg->arena, wl_ydoc_text(d, val[CK_DESCRIPTION]));
		if (!c.description)
			return wl_ydoc_fail(d, item, "out of memory");
	}
	c.id = arena_str(cfg->arena, id);
	c.origin = origin_of(r, val[CK_ID]);
	if (!c.id || !c.origin)
		return wl_ydoc_fail(d, item, "out of memory");
	if (grow(cfg->arena, (void **)&cfg->customs, cfg->customs_count, &cfg->customs_cap,
		 sizeof *cfg->customs))
		return wl_ydoc_fail(d, item, "out of memory");
	cfg->customs[cfg->customs_count++] = c;
	return 0;
}

static int read_customs(const reader *r, wl_ynode v)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_is_null(d, v))
		return 0;
	if (wl_ydoc_kind(d, v) != WL_Y_SEQUENCE)
		return wl_ydoc_fail(d, v, "'custom-rules' must be a list of rules");
	for (size_t i = 0; i < wl_ydoc_count(d, v); i++)
		if (read_custom(r, wl_ydoc_item(d, v, i)))
			return -1;
	return 0;
}

/* ------------------------------------------------------------- extends */

/* Reads the file at path into a malloc'd buffer (*out, *out_len).  On
 * error returns -1 with a description ("cannot open: <why>" ...) in why. */
static int read_text(const char *path, char **out, size_t *out_len, char *why, size_t whycap)
{
	*out = NULL;
	*out_len = 0;
	uint8_t *buf;
	size_t len;
	int rc = wl_read_file(path, CONFIG_MAX_BYTES, &buf, &len);
	switch (rc) {
	case WL_READ_OK:
		*out = (char *)buf;
		*out_len = len;
		return 0;
	case WL_READ_OPEN:
		snprintf(why, whycap, "cannot open: %s", strerror(errno));
		break;
	case WL_READ_BIG:
		snprintf(why, whycap, "larger than %zu bytes", CONFIG_MAX_BYTES);
		break;
	case WL_READ_NOMEM:
		snprintf(why, whycap, "out of memory");
		break;
	default:
		snprintf(why, whycap, "cannot read: %s", strerror(errno));
		break;
	}
	return -1;
}

/* Writes "a -> b -> ... -> again" (the cycle closed by again) into buf. */
static void describe_cycle(const load_frame *f, const char *real, const char *again, char *buf,
			   size_t cap)
{
	const load_frame *chain[WL_CONFIG_EXTENDS_MAX + 2];
	size_t n = 0;
	for (const load_frame *p = f; p && n < WL_CONFIG_EXTENDS_MAX + 1; p = p->up) {
		chain[n++] = p;
		if (strcmp(p->real, real) == 0)
			break;
	}
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = n; i-- > 0 && at < cap;) {
		int w = snprintf(buf + at, cap - at, "%s -> ", chain[i]->shown);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	if (at < cap)
		snprintf(buf + at, cap - at, "%s", again);
}

/* One file named by extends (node v). */
static int read_extend_one(const reader *r, wl_ynode v)
{
	const wl_ydoc *d = r->doc;
	wl_config *cfg = r->cfg;
	if (wl_ydoc_want_scalar(d, v, "extends"))
		return -1;
	const char *rel = wl_ydoc_text(d, v);
	if (!rel[0])
		return wl_ydoc_fail(d, v, "extends: empty path");
	const char *shown = rel[0] == '/' ? arena_str(cfg->arena, rel)
					  : wl_arena_printf(cfg->arena, "%s%s%s", r->dir,
							    strcmp(r->dir, "/") == 0 ? "" : "/", rel);
	if (!shown)
		return wl_ydoc_fail(d, v, "out of memory");
	if (r->depth >= WL_CONFIG_EXTENDS_MAX)
		return wl_ydoc_fail(d, v, "extends: chain deeper than %d files", WL_CONFIG_EXTENDS_MAX);
	char *real = realpath(shown, NULL);
	if (!real)
		return wl_ydoc_fail(d, v, "extends: cannot open '%s': %s", shown, strerror(errno));
	for (const load_frame *p = r->frame; p; p = p->up) {
		if (strcmp(p->real, real) == 0) {
			char chain[2048];
			describe_cycle(r->frame, real, shown, chain, sizeof chain);
			free(real);
			return wl_ydoc_fail(d, v, "extends cycle: %s", chain);
		}
	}
	char *text, why[256];
	size_t len;
	if (read_text(real, &text, &len, why, sizeof why)) {
		free(real);
		return wl_ydoc_fail(d, v, "extends: '%s': %s", shown, why);
	}
	const char *real_kept = arena_str(cfg->arena, real);
	free(real);
	if (!real_kept) {
		free(text);
		return wl_ydoc_fail(d, v, "out of memory");
	}
	load_frame frame = { real_kept, shown, r->frame };
	int rc = parse_into(cfg, r->cat, shown, text, len, r->err, r->errcap, &frame, r->depth + 1);
	free(text);
	return rc;
}

/* extends: a path or a list of paths, relative to this file's folder, read
 * in order before the rest of this file. */
static int read_extends(const reader *r, wl_ynode v)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_is_null(d, v))
		return 0;
	if (wl_ydoc_kind(d, v) == WL_Y_SEQUENCE) {
		for (size_t i = 0; i < wl_ydoc_count(d, v); i++)
			if (read_extend_one(r, wl_ydoc_item(d, v, i)))
				return -1;
		return 0;
	}
	return read_extend_one(r, v);
}

/* ---------------------------------------------------------------- root */

enum { RK_EXTENDS, RK_CUSTOM, RK_RULES, RK_SELECT, RK_IGNORE, RK_PATHS, RK_FAIL_ON, RK_EXTEND_SELECT,
       RK_TARGET, RK_BASE, RK_MEMORY_CAP, RK_COUNT };
static const char *const root_keys[RK_COUNT] = {
	"extends", "custom-rules", "rules", "select", "ignore", "per-path-ignores", "fail-on", "extend-select",
	"target", "base", "memory-cap",
};
#define ROOT_KEYS_TEXT \
	"extends, custom-rules, rules, select, extend-select, ignore, per-path-ignores, fail-on, target, base or memory-cap"

/* target: a target name or a list of them (target.h). */
static int read_target(const reader *r, wl_ynode v)
{
	const wl_ydoc *d = r->doc;
	bool one = wl_ydoc_kind(d, v) == WL_Y_SCALAR;
	if (!one && wl_ydoc_kind(d, v) != WL_Y_SEQUENCE)
		return wl_ydoc_fail(d, v, "target must be a target name or a list of them");
	wl_target_mask m = 0;
	size_t n = one ? 1 : wl_ydoc_count(d, v);
	for (size_t i = 0; i < n; i++) {
		wl_ynode it = one ? v : wl_ydoc_item(d, v, i);
		if (wl_ydoc_want_scalar(d, it, "target"))
			return -1;
		wl_target_mask t;
		char bad[64];
		if (wl_target_parse(wl_ydoc_text(d, it), &t, bad, sizeof bad))
			return wl_ydoc_fail(d, it, "unknown target '%s' (auto, any, %s)", bad, wl_target_names());
		m |= t;
	}
	r->cfg->target = m;
	return 0;
}

/* base: a folder or a list of them, relative to this file's folder. */
static int read_base(const reader *r, wl_ynode v)
{
	const wl_ydoc *d = r->doc;
	bool one = wl_ydoc_kind(d, v) == WL_Y_SCALAR;
	if (!one && wl_ydoc_kind(d, v) != WL_Y_SEQUENCE)
		return wl_ydoc_fail(d, v, "base must be a folder or a list of folders");
	wl_config *cfg = r->cfg;
	size_t n = one ? 1 : wl_ydoc_count(d, v);
	for (size_t i = 0; i < n; i++) {
		wl_ynode it = one ? v : wl_ydoc_item(d, v, i);
		if (wl_ydoc_want_scalar(d, it, "base"))
			return -1;
		const char *p = wl_ydoc_text(d, it);
		if (!p[0])
			return wl_ydoc_fail(d, it, "base: empty folder name");
		size_t len = strlen(r->dir) + strlen(p) + 2;
		char *full = wl_arena_alloc(cfg->arena, len);
		if (!full || grow(cfg->arena, (void **)&cfg->base, cfg->base_count, &cfg->base_cap, sizeof *cfg->base))
			return wl_ydoc_fail(d, it, "out of memory");
		snprintf(full, len, "%s%s%s", p[0] == '/' ? "" : r->dir, p[0] == '/' ? "" : "/", p);
		cfg->base[cfg->base_count++] = full;
	}
	return 0;
}

/* The keys are read in a fixed order, whatever their order in the file:
 * extends (the inherited settings come first), custom-rules (so that the
 * other keys may name custom rules), then the rest. */
static int read_root(const reader *r, wl_ynode root)
{
	const wl_ydoc *d = r->doc;
	if (wl_ydoc_is_null(d, root))
		return 0;
	if (wl_ydoc_kind(d, root) != WL_Y_MAPPING)
		return wl_ydoc_fail(d, root, "a configuration must be a mapping (keys: " ROOT_KEYS_TEXT ")");
	wl_ynode val[RK_COUNT] = { 0 };
	for (size_t i = 0; i < wl_ydoc_count(d, root); i++) {
		wl_ynode k = wl_ydoc_unique_key(d, root, i);
		if (!k)
			return -1;
		size_t c = 0;
		while (c < RK_COUNT && strcmp(root_keys[c], wl_ydoc_text(d, k)) != 0)
			c++;
		if (c == RK_COUNT)
			return wl_ydoc_fail(d, k, "unknown key '%s' (expected " ROOT_KEYS_TEXT ")",
					    wl_ydoc_text(d, k));
		val[c] = wl_ydoc_value(d, root, i);
	}
	wl_config *cfg = r->cfg;
	if (val[RK_EXTENDS] && read_extends(r, val[RK_EXTENDS]))
		return -1;
	if (val[RK_CUSTOM] && read_customs(r, val[RK_CUSTOM]))
		return -1;
	if (val[RK_RULES] && read_rules(r, val[RK_RULES]))
		return -1;
	if (val[RK_SELECT]) {
		/* A file's select replaces the one it inherits. */
		glob_list l = { 0 };
		if (read_globs(r, val[RK_SELECT], "select", &l))
			return -1;
		cfg->select = l;
		cfg->has_select = l.count > 0;
	}
	if (val[RK_EXTEND_SELECT] && read_globs(r, val[RK_EXTEND_SELECT], "extend-select", &cfg->extend_select))
		return -1;
	if (val[RK_IGNORE] && read_globs(r, val[RK_IGNORE], "ignore", &cfg->ignore))
		return -1;
	if (val[RK_TARGET] && read_target(r, val[RK_TARGET]))
		return -1;
	if (val[RK_BASE] && read_base(r, val[RK_BASE]))
		return -1;
	if (val[RK_PATHS] && read_path_ignores(r, val[RK_PATHS]))
		return -1;
	if (val[RK_FAIL_ON]) {
		int sev;
		if (read_severity(r, val[RK_FAIL_ON], "fail-on", 0, &sev))
			return -1;
		cfg->fail_on = (wl_severity)sev;
	}
	if (val[RK_MEMORY_CAP]) {
		if (wl_ydoc_want_scalar(r->doc, val[RK_MEMORY_CAP], "memory-cap"))
			return -1;
		const char *t = wl_ydoc_text(r->doc, val[RK_MEMORY_CAP]);
		if (wl_mem_parse_size(t, &cfg->memory_cap))
			return wl_ydoc_fail(r->doc, val[RK_MEMORY_CAP],
					    "memory-cap: bad size '%s' (expected bytes, or a count with K, M, G "
					    "or T, e.g. 512M)", t);
	}
	return 0;
}

/* Parses text (the file name, as shown in messages, the innermost of
 * frame) into cfg; returns 0 or -1 with err filled.  An empty text is an
 * empty configuration. */
static int parse_into(wl_config *cfg, const wl_catalog *cat, const char *name, const char *text,
		      size_t len, char *err, size_t errcap, const load_frame *frame, int depth)
{
	const char *dir = folder_of(cfg->arena, name);
	if (!dir)
		return wl_yaml_errorf(err, errcap, name, 1, 1, "out of memory");
	wl_ydoc *doc;
	if (wl_ydoc_load(name, text, len, err, errcap, &doc))
		return -1;
	reader r = { doc, cat, cfg, dir, frame, depth, err, errcap };
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
	cfg->path = arena_str(cfg->arena, path);
	if (!cfg->path) {
		wl_config_free(cfg);
		return NULL;
	}
	return cfg;
}

/* Parses text named name as the outermost file of a configuration. */
static wl_config *parse_top(const wl_catalog *cat, const char *path, const char *name,
			    const char *text, size_t len, char *err, size_t errcap)
{
	wl_config *cfg = config_new(path);
	char *real = cfg ? absolute_path(name) : NULL;
	if (!real) {
		if (err && errcap)
			wl_yaml_errorf(err, errcap, name, 1, 1, "out of memory");
		wl_config_free(cfg);
		return NULL;
	}
	load_frame top = { real, name, NULL };
	int rc = parse_into(cfg, cat, name, text, len, err, errcap, &top, 0);
	free(real);
	if (rc) {
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
	return parse_top(cat, "", name, text ? text : "", text ? text_len : 0, err, errcap);
}

wl_config *wl_config_load(const wl_catalog *cat, const char *path, char *err, size_t errcap)
{
	if (err && errcap)
		err[0] = 0;
	char *text, why[256];
	size_t len;
	if (read_text(path, &text, &len, why, sizeof why)) {
		if (err && errcap)
			snprintf(err, errcap, "%s: %s", path, why);
		return NULL;
	}
	wl_config *cfg = parse_top(cat, path, path, text, len, err, errcap);
	free(text);
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
		if (wl_path_parent(dir) != 0)
			break;
	}
	free(probe);
	free(dir);
	return found;
}

int wl_path_parent(char *dir)
{
	char *up = strrchr(dir, '/');
	if (!up || strcmp(dir, "/") == 0)
		return -1;
	if (up == dir)
		up[1] = 0;
	else
		*up = 0;
	return 0;
}

void wl_config_free(wl_config *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < cfg->patterns_count; i++)
		wl_pattern_free(cfg->patterns[i]);
	free(cfg->patterns);
	wl_arena_free(cfg->arena);
	free(cfg);
}

/* The engine's own rules: never turned off by select. */
static bool engine_rule(const char *rule)
{
	return strcmp(rule, wl_rule_name(WLR_OUT_OF_MEMORY)) == 0 || strcmp(rule, wl_rule_name(WLR_INTERNAL_UNKNOWN_RULE)) == 0;
}

/* Does a list of globs (CLI, count n) match id? */
static bool globs_match(const char *const *g, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (fnmatch(g[i], id, 0) == 0)
			return true;
	return false;
}

wl_severity wl_config_severity_for(const wl_config *cfg, const wl_cli_rules *cli, const wl_catalog *cat,
				   const char *rule, const char *file_key, wl_target_mask targets)
{
	if (!rule)
		return WL_SEV_ERROR;
	wl_severity s;
	const rule_override *o = find_override(cfg, rule);
	const wl_custom_rule *c;
	const wl_rule_def *def = NULL;
	/* Named by a select glob: turned on even when outside the default
	 * set or off for the file's targets. */
	bool named = (cli && (globs_match(cli->select, cli->select_count, rule) ||
			      globs_match(cli->extend_select, cli->extend_count, rule))) ||
		     (cfg && (glob_any(&cfg->select, rule) || glob_any(&cfg->extend_select, rule)));
	if (o && o->severity >= 0) {
		s = (wl_severity)o->severity;
	} else if ((c = wl_config_custom_find(cfg, rule)) != NULL) {
		s = c->severity;
	} else if ((def = wl_catalog_find(cat, rule)) != NULL) {
		/* targets 0 (a library caller that knows none): every rule at
		 * its default severity, opt-in ones included */
		s = def->opt_in && targets ? WL_SEV_OFF : wl_rule_target_severity(def, targets);
		if (s == WL_SEV_OFF && named)
			s = def->severity;
	} else {
		s = WL_SEV_ERROR;
	}
	if (s == WL_SEV_OFF)
		return s;
	if (!engine_rule(rule)) {
		if (cli && cli->select_count) {
			if (!globs_match(cli->select, cli->select_count, rule) &&
			    !globs_match(cli->extend_select, cli->extend_count, rule))
				return WL_SEV_OFF;
		} else if (cfg && cfg->has_select && !glob_any(&cfg->select, rule) &&
			   !glob_any(&cfg->extend_select, rule) &&
			   !(cli && globs_match(cli->extend_select, cli->extend_count, rule))) {
			return WL_SEV_OFF;
		}
	}
	if (cli && globs_match(cli->ignore, cli->ignore_count, rule))
		return WL_SEV_OFF;
	if (!cfg)
		return s;
	if (glob_any(&cfg->ignore, rule))
		return WL_SEV_OFF;
	if (file_key && file_key[0] == '/')
		for (size_t i = 0; i < cfg->paths_count; i++)
			if (glob_any(&cfg->paths[i].rules, rule) && path_applies(&cfg->paths[i], file_key))
				return WL_SEV_OFF;
	return s;
}

wl_severity wl_config_severity_at(const wl_config *cfg, const wl_catalog *cat, const char *rule,
				  const char *file_key)
{
	return wl_config_severity_for(cfg, NULL, cat, rule, file_key, 0);
}

wl_target_mask wl_config_target(const wl_config *cfg)
{
	return cfg ? cfg->target : 0;
}

size_t wl_config_base_count(const wl_config *cfg)
{
	return cfg ? cfg->base_count : 0;
}

const char *wl_config_base_at(const wl_config *cfg, size_t i)
{
	return cfg && i < cfg->base_count ? cfg->base[i] : NULL;
}

wl_severity wl_config_severity(const wl_config *cfg, const wl_catalog *cat, const char *rule)
{
	return wl_config_severity_at(cfg, cat, rule, NULL);
}

bool wl_config_has_path_ignores(const wl_config *cfg)
{
	return cfg && cfg->paths_count > 0;
}

/* The configuration's value of rule's parameter param, or NULL. */
static const double *override_param(const wl_config *cfg, const char *rule, const char *param)
{
	const rule_override *o = find_override(cfg, rule);
	if (o && param)
		for (size_t i = 0; i < o->params_count; i++)
			if (strcmp(o->params[i].name, param) == 0)
				return &o->params[i].value;
	return NULL;
}

double wl_config_param_named(const wl_config *cfg, const wl_catalog *cat, const char *rule, const char *param,
			     double fallback)
{
	const double *v = override_param(cfg, rule, param);
	return v ? *v : wl_catalog_param(cat, rule, param, fallback);
}

double wl_config_param(const wl_config *cfg, const wl_catalog *cat, wl_rule_id rule, const char *param)
{
	const double *v = override_param(cfg, wl_rule_name(rule), param);
	if (v)
		return *v;
	const wl_rule_def *r = wl_catalog_rule(cat, rule);
	const wl_param_def *p = wl_rule_param(r ? r : wl_catalog_rule(wl_catalog_builtin(), rule), param);
	return p ? p->def : NAN;
}

wl_severity wl_config_fail_on(const wl_config *cfg)
{
	return cfg ? cfg->fail_on : WL_SEV_ERROR;
}

uint64_t wl_config_memory_cap(const wl_config *cfg)
{
	return cfg ? cfg->memory_cap : 0;
}

const char *wl_config_path(const wl_config *cfg)
{
	return cfg ? cfg->path : "";
}

size_t wl_config_custom_count(const wl_config *cfg)
{
	return cfg ? cfg->customs_count : 0;
}

const wl_custom_rule *wl_config_custom_at(const wl_config *cfg, size_t i)
{
	return cfg && i < cfg->customs_count ? &cfg->customs[i] : NULL;
}
