/*
 * report_count.c - the counting reporter of report.h: each file's counts by
 * path, for w3dfix (cli/lint_pass.h).  Files arrive in report order; the
 * table is sorted by path on the first lookup.
 */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "report.h"

typedef struct counted {
	char *path;
	size_t order;        /* report order: the first of a path wins */
	wl_report_counts counts;
} counted;

typedef struct count_reporter {
	wl_reporter base;
	counted *files;
	size_t count, cap;
	bool sorted;
} count_reporter;

static int count_file(wl_reporter *base, const wl_file_report *f)
{
	count_reporter *r = (count_reporter *)base;
	char *path = strdup(f->path);
	if (!path || !wl_grow((void **)&r->files, &r->cap, r->count + 1, sizeof *r->files)) {
		free(path);
		return -1;
	}
	r->files[r->count] = (counted){ path, r->count, f->counts };
	r->count++;
	r->sorted = false;
	return 0;
}

static int count_finish(wl_reporter *base, const wl_report_summary *s)
{
	(void)base;
	(void)s;
	return 0;
}

static void count_destroy(wl_reporter *base)
{
	count_reporter *r = (count_reporter *)base;
	for (size_t i = 0; i < r->count; i++)
		free(r->files[i].path);
	free(r->files);
	free(r);
}

wl_reporter *wl_report_count_new(void)
{
	count_reporter *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->base = (wl_reporter){ count_file, count_finish, count_destroy };
	return &r->base;
}

static int by_path(const void *x, const void *y)
{
	const counted *a = x, *b = y;
	int c = strcmp(a->path, b->path);
	return c ? c : (a->order > b->order) - (a->order < b->order);
}

const wl_report_counts *wl_report_count_of(wl_reporter *base, const char *path)
{
	count_reporter *r = (count_reporter *)base;
	if (!r || !path)
		return NULL;
	if (!r->sorted) {
		qsort(r->files, r->count, sizeof *r->files, by_path);
		r->sorted = true;
	}
	size_t lo = 0, hi = r->count;
	while (lo < hi) { /* the first entry not below path */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(r->files[mid].path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->count && strcmp(r->files[lo].path, path) == 0 ? &r->files[lo].counts : NULL;
}
