/* xref.c - the cross-file checks of a linted folder (xref.h): one index per
 * format of lint/registry.c that has cross-file rules, and the walk of
 * texture folders. */
#include "xref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/platform.h"

#include "registry.h"

/* Folders deeper than this are not entered by the texture walk. */
#define MAX_SCAN_DEPTH 64
/* Room for the formats of the registry. */
#define MAX_FORMATS 8

struct wl_xref {
	size_t count;                        /* formats with an index */
	const wl_lint_format *fmt[MAX_FORMATS];
	void *index[MAX_FORMATS];
};

wl_xref *wl_xref_new(void)
{
	wl_xref *x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	size_t n;
	const wl_lint_format *const *all = wl_lint_formats(&n);
	for (size_t i = 0; i < n && x->count < MAX_FORMATS; i++) {
		if (!all[i]->xref)
			continue;
		void *ix = all[i]->xref->create();
		if (!ix) {
			wl_xref_free(x);
			return NULL;
		}
		x->fmt[x->count] = all[i];
		x->index[x->count++] = ix;
	}
	return x;
}

void wl_xref_free(wl_xref *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->count; i++)
		x->fmt[i]->xref->destroy(x->index[i]);
	free(x);
}

int wl_xref_add(wl_xref *x, const char *path, const wl_doc *doc)
{
	if (!x || !path || !doc)
		return -1;
	for (size_t i = 0; i < x->count; i++)
		if (strcmp(x->fmt[i]->format, doc->format->name) == 0)
			return x->fmt[i]->xref->add(x->index[i], path, doc);
	return 0;
}

/* Offers path to every index: 1 when one took it, 0 when none, -1 on OOM. */
static int offer(wl_xref *x, const char *path)
{
	int taken = 0;
	for (size_t i = 0; i < x->count; i++) {
		int r = x->fmt[i]->xref->add_texture_file(x->index[i], path);
		if (r < 0)
			return -1;
		if (r > 0)
			taken = 1;
	}
	return taken;
}

int wl_xref_add_texture_file(wl_xref *x, const char *path)
{
	if (!x || !path)
		return -1;
	return offer(x, path) < 0 ? -1 : 0;
}

int wl_xref_add_archive(wl_xref *x, const char *path, const wl_doc *doc)
{
	if (!x || !path || !doc || !doc->model)
		return -1;
	const wl_archive *a = doc->model;
	for (size_t k = 0; k < a->count; k++) {
		if (!a->entries[k].readable)
			continue;
		for (size_t i = 0; i < x->count; i++)
			if (x->fmt[i]->xref->add_entry &&
			    x->fmt[i]->xref->add_entry(x->index[i], path, a, &a->entries[k]) < 0)
				return -1;
	}
	return 0;
}

static long scan_dir(wl_xref *x, const char *dir, int depth)
{
	if (depth > MAX_SCAN_DEPTH)
		return 0;
	wl_os_dir *d = wl_os_opendir(dir);
	if (!d)
		return depth == 0 ? -1 : 0;
	long found = 0;
	const char *nm;
	while ((nm = wl_os_readdir(d, NULL)) != NULL) {
		if (!strcmp(nm, ".") || !strcmp(nm, ".."))
			continue;
		size_t need = strlen(dir) + strlen(nm) + 2;
		char *p = malloc(need);
		if (!p) {
			found = -1;
			break;
		}
		snprintf(p, need, "%s/%s", dir, nm);
		struct stat st;
		if (wl_os_lstat(p, &st) == 0) {
			long r = 0;
			if (S_ISDIR(st.st_mode))
				r = scan_dir(x, p, depth + 1);
			else if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
				r = offer(x, p);
			if (r < 0) {
				/* out of memory: a folder below the root that cannot
				 * be opened gives 0, not -1 */
				free(p);
				found = -1;
				break;
			}
			found += r;
		}
		free(p);
	}
	wl_os_closedir(d);
	return found;
}

long wl_xref_scan_textures(wl_xref *x, const char *root)
{
	if (!x || !root)
		return -1;
	return scan_dir(x, root, 0);
}

int wl_xref_set_scope(wl_xref *x, const char *scope)
{
	if (!x || !scope)
		return -1;
	for (size_t i = 0; i < x->count; i++)
		if (x->fmt[i]->xref->set_scope && x->fmt[i]->xref->set_scope(x->index[i], scope) != 0)
			return -1;
	return 0;
}

long wl_xref_check(wl_xref *x, wl_xref_emit_fn emit, void *user)
{
	if (!x)
		return -1;
	long total = 0;
	for (size_t i = 0; i < x->count; i++) {
		long n = x->fmt[i]->xref->check(x->index[i], emit, user);
		if (n < 0)
			return -1;
		total += n;
	}
	return total;
}
