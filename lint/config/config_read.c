/*
 * config_read.c - user configuration (.w3dlint.yaml, see config.h), read through
 * yaml_doc.h (libyaml's document API) and checked against the rule catalogue.
 *
 * Every string and record lives in one arena owned by the configuration;
 * compiled patterns (pattern.h) are listed in it and released by
 * wl_config_free.  A file named by `extends` is read into the same
 * configuration before the keys of the file naming it, so the later file
 * overrides what it inherits (the merge rules are in config.h).  Error
 * messages are "name:line:column: message" with 1-based line and column,
 * written by yaml_doc.  The custom-rules: entries: config_read_custom.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file_io.h"
#include "core/path.h"
#include "core/platform.h"
#include "config_int.h"
#include "suggest.h"

static int parse_into(wl_config *cfg, const wl_catalog *cat, const char *name, const char *text,
		      size_t len, char *err, size_t errcap, const load_frame *frame, int depth);

/* The absolute folder of file (see absolute_path), in the arena. */
static const char *folder_of(wl_arena *a, const char *file)
{
	size_t n = strlen(file);
	char *dir = malloc(n + 2);
	if (!dir)
		return NULL;
	memcpy(dir, file, n + 1);
	wl_path_to_folder(dir);
	char *abs = wl_cfg_absolute_path(dir);
	free(dir);
	if (!abs)
		return NULL;
	const char *out = wl_cfg_str(a, abs);
	free(abs);
	return out;
}

static bool has_glob_meta(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
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
		if (wl_os_fnmatch(glob, wl_catalog_at(r->cat, i)->id) == 0)
			return true;
	for (size_t i = 0; i < r->cfg->customs_count; i++)
		if (wl_os_fnmatch(glob, r->cfg->customs[i].id) == 0)
			return true;
	return false;
}

/* ------------------------------------------------------------- readers */

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
			if (wl_cfg_grow(r->cfg->arena, (void **)&o->params, o->params_count, &o->params_cap,
				 sizeof *o->params))
				return wl_ydoc_fail(d, k, "out of memory");
			po = &o->params[o->params_count];
			po->name = wl_cfg_str(r->cfg->arena, name);
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
	rule_override *o = (rule_override *)(uintptr_t)wl_cfg_find_override(cfg, id);
	if (!o) {
		if (wl_cfg_grow(cfg->arena, (void **)&cfg->rules, cfg->rules_count, &cfg->rules_cap,
			 sizeof *cfg->rules))
			return wl_ydoc_fail(d, k, "out of memory");
		o = &cfg->rules[cfg->rules_count];
		memset(o, 0, sizeof *o);
		o->id = wl_cfg_str(cfg->arena, id);
		if (!o->id)
			return wl_ydoc_fail(d, k, "out of memory");
		o->severity = -1;
		cfg->rules_count++;
	}
	char what[160];
	snprintf(what, sizeof what, "rule '%s'", id);
	if (wl_ydoc_kind(d, v) == WL_Y_SCALAR)
		return wl_cfg_read_severity(r, v, what, 1, &o->severity);
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
			if (wl_cfg_read_severity(r, val, what, 1, &o->severity))
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
		if (wl_cfg_grow(r->cfg->arena, (void **)&l->items, l->count, &l->cap, sizeof *l->items))
			return wl_ydoc_fail(d, it, "out of memory");
		l->items[l->count] = wl_cfg_str(r->cfg->arena, g);
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
		if (wl_cfg_grow(cfg->arena, (void **)&cfg->paths, cfg->paths_count, &cfg->paths_cap,
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
	const char *shown = wl_path_is_absolute(rel) ? wl_cfg_str(cfg->arena, rel)
						     : wl_arena_printf(cfg->arena, "%s%s%s", r->dir,
								       wl_path_is_root(r->dir) ? "" : "/", rel);
	if (!shown)
		return wl_ydoc_fail(d, v, "out of memory");
	if (r->depth >= WL_CONFIG_EXTENDS_MAX)
		return wl_ydoc_fail(d, v, "extends: chain deeper than %d files", WL_CONFIG_EXTENDS_MAX);
	char *real = wl_os_realpath(shown);
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
	const char *real_kept = wl_cfg_str(cfg->arena, real);
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
		if (!full || wl_cfg_grow(cfg->arena, (void **)&cfg->base, cfg->base_count, &cfg->base_cap, sizeof *cfg->base))
			return wl_ydoc_fail(d, it, "out of memory");
		bool abs = wl_path_is_absolute(p);
		snprintf(full, len, "%s%s%s", abs ? "" : r->dir, abs || wl_path_is_root(r->dir) ? "" : "/", p);
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
	if (val[RK_CUSTOM] && wl_cfg_read_customs(r, val[RK_CUSTOM]))
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
		if (wl_cfg_read_severity(r, val[RK_FAIL_ON], "fail-on", 0, &sev))
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
	cfg->path = wl_cfg_str(cfg->arena, path);
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
	char *real = cfg ? wl_cfg_absolute_path(name) : NULL;
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
