/*
 * config_cache.h - the configurations of a run, each file loaded once
 * (lint/config/config.h): what w3dlint's run (lint/run/run.c) and w3dfix's run
 * (fix/run.c) use to find the `.w3dlint.yaml` that governs a file, so that
 * both tools lint a file with the same configuration.  Not thread-safe:
 * one run fills it from one thread.
 */
#ifndef WL_LINT_CONFIG_CACHE_H
#define WL_LINT_CONFIG_CACHE_H

#include <stddef.h>
#include <stdio.h>

#include "lint/catalog.h"
#include "config.h"
#include "lint/run/stat_memo.h"

/* The configurations loaded so far: paths[i] (malloc'd) was loaded as
 * cfgs[i] (owned); count of each, room for cap.  Zero-initialise. */
typedef struct wl_config_cache {
	char **paths;
	wl_config **cfgs;
	size_t count, cap;
} wl_config_cache;

/**
 * The configuration of the file at path (the configuration file itself,
 * as wl_config_locate finds it) loaded with cat, from the cache or loaded
 * now and kept.  Returns 0 with *out set; -1 after writing the load error
 * (a line naming the file, the line and the column) to diag; -2 when out
 * of memory.
 */
int wl_config_cache_get(wl_config_cache *cc, const wl_catalog *cat, const char *path, wl_config **out,
			FILE *diag);

/**
 * The configuration that governs the model file file (the nearest
 * `.w3dlint.yaml` of its folder and the folders above, wl_config_locate;
 * memo may be NULL): 0 with *out set (NULL when there is none), or -1 / -2
 * as wl_config_cache_get.
 */
int wl_config_cache_for_file(wl_config_cache *cc, const wl_catalog *cat, const char *file, wl_stat_memo *memo,
			     wl_config **out, FILE *diag);

/** Frees every configuration of cc and its arrays (cc itself is the
 *  caller's); cc is left empty. */
void wl_config_cache_clear(wl_config_cache *cc);

#endif
