/*
 * config_read_custom.c - the custom-rules: entries of a configuration
 * (config.h, custom_rules.h): id, field, match / not-match patterns
 * (PCRE2, pattern.h), min / max, severity, message template, description.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_int.h"

#include "core/grow.h"

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
	if (!wl_grow((void **)&cfg->patterns, &cfg->patterns_cap, cfg->patterns_count + 1, sizeof *cfg->patterns))
		return wl_ydoc_fail(d, v, "out of memory");
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
		if (wl_cfg_read_severity(r, val[CK_SEVERITY], what, 1, &sev))
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
		c.message = wl_cfg_str(cfg->arena, wl_ydoc_text(d, val[CK_MESSAGE]));
		if (!c.message)
			return wl_ydoc_fail(d, item, "out of memory");
	}
	if (key[CK_DESCRIPTION]) {
		if (wl_ydoc_want_scalar(d, val[CK_DESCRIPTION], "description"))
			return -1;
		c.description = wl_cfg_str(cfg->arena, wl_ydoc_text(d, val[CK_DESCRIPTION]));
		if (!c.description)
			return wl_ydoc_fail(d, item, "out of memory");
	}
	c.id = wl_cfg_str(cfg->arena, id);
	c.origin = wl_cfg_origin(r, val[CK_ID]);
	if (!c.id || !c.origin)
		return wl_ydoc_fail(d, item, "out of memory");
	if (wl_cfg_grow(cfg->arena, (void **)&cfg->customs, cfg->customs_count, &cfg->customs_cap,
		 sizeof *cfg->customs))
		return wl_ydoc_fail(d, item, "out of memory");
	cfg->customs[cfg->customs_count++] = c;
	return 0;
}

int wl_cfg_read_customs(const reader *r, wl_ynode v)
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
