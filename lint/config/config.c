/*
 * config.c - the queries of a configuration (config.h): the effective
 * severity of a rule for a file (select, ignore, per-path ignores, targets,
 * the command line), parameters, fail-on, memory-cap, target:, base:,
 * custom rules; and freeing it.  Reading: config_read.c; paths:
 * config_path.c; discovery: config_locate.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "core/platform.h"

#include "config_int.h"

static bool glob_any(const glob_list *l, const char *id)
{
	for (size_t i = 0; i < l->count; i++)
		if (wl_os_fnmatch(l->items[i], id) == 0)
			return true;
	return false;
}

/* Does per-path entry e govern the file with absolute path key? */
static bool path_applies(const path_ignore *e, const char *key)
{
	size_t dn = strlen(e->dir);
	const char *rel;
	if (wl_path_is_root(e->dir)) {
		if (strncmp(key, e->dir, dn) != 0)
			return false;
		rel = key + dn;
	} else {
		if (strncmp(key, e->dir, dn) != 0 || key[dn] != '/')
			return false;
		rel = key + dn + 1;
	}
	return wl_path_glob_match(e->pattern, rel) != 0;
}

const rule_override *wl_cfg_find_override(const wl_config *cfg, const char *rule)
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
		if (wl_os_fnmatch(g[i], id) == 0)
			return true;
	return false;
}

wl_severity wl_config_severity_for(const wl_config *cfg, const wl_cli_rules *cli, const wl_catalog *cat,
				   const char *rule, const char *file_key, wl_target_mask targets)
{
	if (!rule)
		return WL_SEV_ERROR;
	wl_severity s;
	const rule_override *o = wl_cfg_find_override(cfg, rule);
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
	if (file_key && wl_path_is_absolute(file_key))
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
	const rule_override *o = wl_cfg_find_override(cfg, rule);
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
