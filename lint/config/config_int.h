/*
 * config_int.h - what the files of the configuration share (config.h):
 * the configuration's records, the reader's state, and the helpers of
 * more than one of them.  config_path.c: absolute paths and path globs;
 * config_read.c: the YAML document read into a configuration (rules,
 * globs, per-path ignores, extends, the root keys); config_read_custom.c:
 * its custom-rules: entries; config_locate.c: finding .w3dlint.yaml;
 * config.c: the queries.  Not a public header.
 */
#ifndef WL_CONFIG_INT_H
#define WL_CONFIG_INT_H

#include "core/arena.h"
#include "core/yaml_doc.h"
#include "config.h"

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

/** Makes room for one more element of size bytes in *items (count used,
 *  *cap allocated; arena arrays grow by copying).  Returns 0, or -1 when
 *  out of memory. */
int wl_cfg_grow(wl_arena *a, void **items, size_t count, size_t *cap, size_t size);

/** The rules: entry of rule in cfg, or NULL. */
const rule_override *wl_cfg_find_override(const wl_config *cfg, const char *rule);

/** A copy of s in the arena (NULL when out of memory). */
char *wl_cfg_str(wl_arena *a, const char *s);

/**
 * The absolute form of path (malloc-owned, NULL when out of memory):
 * realpath() when path exists; else realpath() of its folder plus its last
 * segment; else path made absolute with the working directory and
 * normalised lexically.
 */
char *wl_cfg_absolute_path(const char *path);

/** "name:line:column" of node n, in the configuration's arena. */
const char *wl_cfg_origin(const reader *r, wl_ynode n);

/** A severity scalar; what names the setting in messages.  allow_off: off
 *  is accepted.  0, or -1 after wl_ydoc_fail. */
int wl_cfg_read_severity(const reader *r, wl_ynode v, const char *what, int allow_off, int *out);

/** The custom-rules: list (config_read_custom.c).  0, or -1 after
 *  wl_ydoc_fail. */
int wl_cfg_read_customs(const reader *r, wl_ynode v);

#endif
