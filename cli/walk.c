/* cli_walk.c - recursive collection of the files to lint; see cli_walk.h. */
#include "walk.h"
#include "core/grow.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "core/filekind.h"
#include "core/format.h"

/* Deeper trees than this are not entered (a guard, not a format limit). */
#define WALK_MAX_DEPTH 256

typedef struct dir_id {
	dev_t dev;
	ino_t ino;
} dir_id;

typedef struct walk {
	wl_pathlist *out;
	wl_walk_error_fn on_error;
	void *ud;
	int problems;
	int oom;
	dir_id *seen;
	size_t seen_count, seen_cap;
} walk;

static void problem(walk *w, const char *path, int errnum)
{
	w->problems++;
	if (w->on_error)
		w->on_error(w->ud, path, errnum);
}

static int list_push(wl_pathlist *l, char *s)
{
	if (!wl_grow((void **)&l->items, &l->cap, l->count + 1, sizeof *l->items))
		return -1;
	l->items[l->count++] = s;
	return 0;
}

void wl_pathlist_free(wl_pathlist *l)
{
	for (size_t i = 0; i < l->count; i++) {
		free(l->items[i]);
		if (l->members)
			free(l->members[i]);
	}
	free(l->items);
	free(l->members);
	free(l->archives);
	l->members = NULL;
	l->archives = NULL;
	l->items = NULL;
	l->count = l->cap = 0;
}

/* Returns 1 when the directory was visited before, else records it. */
static int seen_before(walk *w, const struct stat *st)
{
	for (size_t i = 0; i < w->seen_count; i++)
		if (w->seen[i].dev == st->st_dev && w->seen[i].ino == st->st_ino)
			return 1;
	if (!wl_grow((void **)&w->seen, &w->seen_cap, w->seen_count + 1, sizeof *w->seen)) {
		w->oom = 1;
		return 1;
	}
	w->seen[w->seen_count].dev = st->st_dev;
	w->seen[w->seen_count].ino = st->st_ino;
	w->seen_count++;
	return 0;
}

static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	int slash = a > 0 && dir[a - 1] != '/';
	char *s = malloc(a + (size_t)slash + b + 1);
	if (!s)
		return NULL;
	memcpy(s, dir, a);
	if (slash)
		s[a] = '/';
	memcpy(s + a + (size_t)slash, name, b + 1);
	return s;
}

static int cmp_names(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Reads the names of dir's non-hidden entries, sorted; closes the
 * directory before returning so that recursion holds no descriptor. */
static int read_names(walk *w, const char *dir, wl_pathlist *names)
{
	DIR *d = opendir(dir);
	if (!d) {
		problem(w, dir, errno);
		return -1;
	}
	struct dirent *e;
	errno = 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char *s = strdup(e->d_name);
		if (!s || list_push(names, s) < 0) {
			free(s);
			w->oom = 1;
			break;
		}
		errno = 0;
	}
	if (!w->oom && errno != 0)
		problem(w, dir, errno);
	closedir(d);
	if (names->count > 1)
		qsort(names->items, names->count, sizeof names->items[0], cmp_names);
	return w->oom ? -1 : 0;
}

static void walk_dir(walk *w, const char *dir, int depth)
{
	wl_pathlist names = { 0 };
	if (read_names(w, dir, &names) < 0) {
		wl_pathlist_free(&names);
		return;
	}
	for (size_t i = 0; i < names.count && !w->oom; i++) {
		char *full = join(dir, names.items[i]);
		if (!full) {
			w->oom = 1;
			break;
		}
		struct stat st;
		if (stat(full, &st) != 0) {
			/* An entry that cannot be followed - a dangling symbolic link
			 * (ENOENT), a looping one (ELOOP), no permission - is an
			 * unreadable path, unless it is a dangling link whose name
			 * the walk would never lint (readme.txt): that one is only
			 * named to the callback with errnum 0 (skipped). */
			int e = errno;
			if (e == ENOENT && !wl_format_by_extension(names.items[i])) {
				if (w->on_error)
					w->on_error(w->ud, full, 0);
			} else {
				problem(w, full, e);
			}
			free(full);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (depth < WALK_MAX_DEPTH && !seen_before(w, &st))
				walk_dir(w, full, depth + 1);
			free(full);
		} else if (S_ISREG(st.st_mode) &&
			   (wl_format_by_extension(names.items[i]) || wl_file_kind_by_extension(names.items[i]))) {
			if (list_push(w->out, full) < 0) {
				free(full);
				w->oom = 1;
			}
		} else {
			free(full);
		}
	}
	wl_pathlist_free(&names);
}

int wl_walk_collect(const char *path, wl_pathlist *out, wl_walk_error_fn on_error, void *ud)
{
	walk w = { out, on_error, ud, 0, 0, NULL, 0, 0 };
	struct stat st;
	if (strcmp(path, "-") == 0) { /* standard input: read as a named file */
		char *s = strdup(path);
		if (!s || list_push(out, s) < 0) {
			free(s);
			w.oom = 1;
		}
	} else if (stat(path, &st) != 0) {
		problem(&w, path, errno);
	} else if (S_ISDIR(st.st_mode)) {
		seen_before(&w, &st);
		walk_dir(&w, path, 0);
	} else {
		char *s = strdup(path);
		if (!s || list_push(out, s) < 0) {
			free(s);
			w.oom = 1;
		}
	}
	free(w.seen);
	return w.oom ? -1 : w.problems;
}
