/* config_cache.c - the configurations of a run, each loaded once
 * (config_cache.h). */
#include "config_cache.h"

#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/grow.h"

int wl_config_cache_get(wl_config_cache *cc, const wl_catalog *cat, const char *path, wl_config **out,
			FILE *diag)
{
	for (size_t i = 0; i < cc->count; i++) {
		if (strcmp(cc->paths[i], path) == 0) {
			*out = cc->cfgs[i];
			return 0;
		}
	}
	char err[1024] = "";
	wl_config *cfg = wl_config_load(cat, path, err, sizeof err);
	if (!cfg) {
		fprintf(diag, "%s\n", wl_esc(err[0] ? err : path));
		return -1;
	}
	size_t cp = cc->cap, cf = cc->cap; /* parallel arrays: one capacity */
	if (!wl_grow((void **)&cc->paths, &cp, cc->count + 1, sizeof *cc->paths) ||
	    !wl_grow((void **)&cc->cfgs, &cf, cc->count + 1, sizeof *cc->cfgs)) {
		wl_config_free(cfg);
		return -2;
	}
	cc->cap = cf;
	char *copy = strdup(path);
	if (!copy) {
		wl_config_free(cfg);
		return -2;
	}
	cc->paths[cc->count] = copy;
	cc->cfgs[cc->count] = cfg;
	cc->count++;
	*out = cfg;
	return 0;
}

int wl_config_cache_for_file(wl_config_cache *cc, const wl_catalog *cat, const char *file, wl_stat_memo *memo,
			     wl_config **out, FILE *diag)
{
	char where[4096];
	*out = NULL;
	if (wl_config_locate_memo(file, where, sizeof where, memo) != 1)
		return 0;
	return wl_config_cache_get(cc, cat, where, out, diag);
}

void wl_config_cache_clear(wl_config_cache *cc)
{
	for (size_t i = 0; i < cc->count; i++) {
		free(cc->paths[i]);
		wl_config_free(cc->cfgs[i]);
	}
	free(cc->paths);
	free(cc->cfgs);
	memset(cc, 0, sizeof *cc);
}
