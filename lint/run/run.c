/* run.c - a lint run's set-up and end (run.h): the configurations of the
 * files (loaded once per file, looked up once per folder), the base
 * folders, the memory cap, the summary and --write-baseline. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "run_int.h"

#include "core/escape.h"
#include "core/grow.h"
#include "core/platform.h"

wl_run *wl_run_new(const wl_catalog *cat, const wl_run_opts *o, bool *failed)
{
	*failed = false;
	wl_run *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->o = *o;
	r->cat = cat;
	char err[1024] = "";
	if (o->config) {
		r->forced = wl_config_load(cat, o->config, err, sizeof err);
		if (!r->forced) {
			fprintf(o->diag, "%s\n", wl_esc(err[0] ? err : o->config)); /* the configuration's words are raw */
			*failed = true;
			wl_run_free(r);
			return NULL;
		}
	}
	const char *bl = o->baseline ? o->baseline : o->write_baseline;
	if (bl) {
		r->recording = o->write_baseline != NULL;
		r->baseline = wl_baseline_load(bl, r->recording, err, sizeof err);
		if (!r->baseline) {
			fprintf(o->diag, "w3dlint: %s\n", err[0] ? err : wl_esc(bl)); /* err: escaped (baseline.h) */
			*failed = true;
			wl_run_free(r);
			return NULL;
		}
	}
	return r;
}

void wl_run_free(wl_run *r)
{
	if (!r)
		return;
	wl_run_xref_free(r);
	wl_config_cache_clear(&r->cache);
	free(r->file_cfg);
	free(r->file_layout);
	wl_run_strings_free(&r->unreadable);
	wl_run_strings_free(&r->base_dirs);
	wl_config_free(r->forced);
	wl_baseline_free(r->baseline);
	free(r);
}

/* A file of the run by its folder, for wl_run_set_files. */
typedef struct dir_ix {
	const char *path; /* the file (an entry: its archive) */
	size_t dir_len;   /* bytes of its folder ("a/b" of "a/b/c.w3d") */
	bool slash;       /* the path names a folder ("/c.w3d" vs "c.w3d") */
	size_t index;
} dir_ix;

static int cmp_dir_ix(const void *x, const void *y)
{
	const dir_ix *a = x, *b = y;
	if (a->slash != b->slash)
		return a->slash ? 1 : -1;
	size_t n = a->dir_len < b->dir_len ? a->dir_len : b->dir_len;
	int c = memcmp(a->path, b->path, n);
	if (c == 0 && a->dir_len != b->dir_len)
		c = a->dir_len < b->dir_len ? -1 : 1;
	if (c == 0 && a->index != b->index)
		c = a->index < b->index ? -1 : 1;
	return c;
}

/* first[i]: the first file of the run (in file order) in the folder of
 * file i (i itself when it is the first).  NULL when out of memory. */
static size_t *first_in_folder(const wl_run_item *items, size_t n)
{
	dir_ix *ix = malloc((n ? n : 1) * sizeof *ix);
	size_t *first = malloc((n ? n : 1) * sizeof *first);
	if (!ix || !first) {
		free(ix);
		free(first);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		const char *path = items[i].host;
		const char *slash = strrchr(path, '/');
		ix[i] = (dir_ix){ path, slash ? (size_t)(slash - path) : 0, slash != NULL, i };
	}
	qsort(ix, n, sizeof *ix, cmp_dir_ix);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && ix[j].slash == ix[i].slash && ix[j].dir_len == ix[i].dir_len &&
			    memcmp(ix[j].path, ix[i].path, ix[i].dir_len) == 0;
		     j++)
			first[ix[j].index] = ix[i].index;
	}
	free(ix);
	return first;
}

int wl_run_set_files(wl_run *r, const wl_run_item *items, size_t n)
{
	r->files = items;
	r->nfiles = n;
	r->file_cfg = calloc(n ? n : 1, sizeof *r->file_cfg);
	r->file_layout = calloc(n ? n : 1, sizeof *r->file_layout);
	/* Both depend only on the file's folder: looked up once per folder
	 * (each a climb of stat calls up to the root), in file order. */
	size_t *first = first_in_folder(items, n);
	if (!r->file_cfg || !r->file_layout || !first) {
		free(first);
		return -2;
	}
	/* The folders share their parents: each probe is asked once. */
	wl_stat_memo *memo = wl_stat_memo_new();
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const char *path = items[i].host; /* an entry: its archive */
		const char *slash = strrchr(path, '/');
		size_t dir_len = slash ? (size_t)(slash - path) : 0;
		if (first[i] != i) {
			r->file_cfg[i] = r->file_cfg[first[i]];
			r->file_layout[i] = r->file_layout[first[i]];
			continue;
		}
		r->file_layout[i] = wl_target_layout_memo(path, memo);
		if (r->o.verbose && r->file_layout[i]) {
			char names[256];
			char *dir = wl_os_strndup(dir_len ? path : ".", dir_len ? dir_len : 1);
			fprintf(wl_run_diag(r), "w3dlint: %s: the mod's layout names the targets %s\n", wl_esc(dir),
				wl_target_mask_names(r->file_layout[i], names, sizeof names));
			free(dir);
		}
		if (r->forced) {
			r->file_cfg[i] = r->forced;
			continue;
		}
		rc = wl_config_cache_for_file(&r->cache, r->cat, path, memo, &r->file_cfg[i], wl_run_diag(r));
	}
	wl_stat_memo_free(memo);
	free(first);
	return rc;
}

/* Adds dir to the base folders unless it is there already. */
static int add_base_dir(wl_run *r, const char *dir)
{
	for (size_t i = 0; i < r->base_dirs.count; i++)
		if (strcmp(r->base_dirs.items[i], dir) == 0)
			return 0;
	return wl_run_strings_add(&r->base_dirs, dir);
}

int wl_run_base_dirs(wl_run *r, const char *const **dirs, size_t *n)
{
	for (size_t i = 0; i < r->o.nbases; i++)
		if (add_base_dir(r, r->o.bases[i]) != 0)
			return -1;
	for (size_t i = 0; i < wl_config_base_count(r->forced); i++)
		if (add_base_dir(r, wl_config_base_at(r->forced, i)) != 0)
			return -1;
	for (size_t c = 0; c < r->cache.count; c++)
		for (size_t i = 0; i < wl_config_base_count(r->cache.cfgs[c]); i++)
			if (add_base_dir(r, wl_config_base_at(r->cache.cfgs[c], i)) != 0)
				return -1;
	*dirs = (const char *const *)r->base_dirs.items;
	*n = r->base_dirs.count;
	return 0;
}

void wl_run_set_base_files(wl_run *r, const char *const *files, size_t n)
{
	r->base_files = files;
	r->nbase_files = n;
}

uint64_t wl_run_memory_cap(const wl_run *r, uint64_t given)
{
	if (given)
		return given;
	uint64_t cap = 0;
	for (size_t i = 0; i < r->nfiles; i++) {
		uint64_t c = wl_config_memory_cap(r->file_cfg[i]);
		if (c && (!cap || c < cap))
			cap = c;
	}
	return cap;
}

void wl_run_start(wl_run *r, wl_reporter *rep, bool bare, bool hide_infos, uint64_t max_findings)
{
	r->rep = rep;
	r->bare = bare;
	r->hide_infos = hide_infos;
	r->max_findings = max_findings;
}

int wl_run_finish(wl_run *r, const char *dest)
{
	wl_report_summary sum = { r->totals, r->o.baseline, NULL, 0, r->max_findings, r->hide_infos,
				  (const char *const *)r->unreadable.items, r->unreadable.count };
	wl_report_stale *stale = NULL;
	if (r->xref && !(sum.unresolved = wl_run_unresolved(r))) {
		fprintf(wl_run_diag(r), "w3dlint: out of memory counting the references no file defines\n");
		return -1;
	}
	if (r->o.baseline) {
		size_t n = wl_baseline_stale(r->baseline, &stale);
		if (n == (size_t)-1) {
			fprintf(wl_run_diag(r), "w3dlint: out of memory comparing with the baseline\n");
			return -1;
		}
		sum.stale = stale;
		sum.stale_count = n;
	}
	int rc = wl_reporter_finish(r->rep, &sum);
	free(stale);
	if (rc != 0) {
		fprintf(wl_run_diag(r), "w3dlint: %s: cannot write the report: %s\n", wl_esc(dest),
			errno ? strerror(errno) : "out of memory");
		return -1;
	}
	if (r->recording) {
		char err[1024] = "";
		size_t skipped = 0;
		FILE *diag = r->o.diag;
		if (wl_baseline_save(r->baseline, &skipped, err, sizeof err) != 0) {
			fprintf(diag, "w3dlint: cannot write the baseline: %s\n", err);
			return -1;
		}
		fprintf(diag, "w3dlint: %s: recorded %" PRIu64 " %s in %" PRIu64 " %s\n", wl_esc(r->o.write_baseline),
			r->totals.baselined, r->totals.baselined == 1 ? "finding" : "findings", r->recorded_files,
			r->recorded_files == 1 ? "file" : "files");
		if (skipped)
			fprintf(diag, "w3dlint: %s: %zu entries left out: out of memory\n", wl_esc(r->o.write_baseline),
				skipped);
	}
	return 0;
}

int wl_run_status(const wl_run *r)
{
	if (r->trouble)
		return 2;
	return r->failed ? 1 : 0;
}

bool wl_run_holds(const wl_run *r)
{
	return r->held != NULL;
}
