/* cli_walk.c - recursive collection of the files to lint; see cli_walk.h. */
#include "walk.h"
#include "core/grow.h"

#include <stdbool.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "core/filekind.h"
#include "core/format.h"
#include "core/path.h"
#include "core/platform.h"

/* Deeper trees than this are not entered (a guard, not a format limit). */
#define WALK_MAX_DEPTH 256

typedef struct dir_id {
	uint64_t dev;
	uint64_t ino;
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

/* Returns 1 when the directory path (whose stat is st) was visited before,
 * else records it. */
static int seen_before(walk *w, const char *path, const struct stat *st)
{
	wl_os_id id;
	if (wl_os_file_id(path, st, &id) != 0)
		return 0; /* no identity: entered (the depth limit still holds) */
	for (size_t i = 0; i < w->seen_count; i++)
		if (w->seen[i].dev == id.dev && w->seen[i].ino == id.ino)
			return 1;
	if (!wl_grow((void **)&w->seen, &w->seen_cap, w->seen_count + 1, sizeof *w->seen)) {
		w->oom = 1;
		return 1;
	}
	w->seen[w->seen_count].dev = id.dev;
	w->seen[w->seen_count].ino = id.ino;
	w->seen_count++;
	return 0;
}

/* dir + separator + name; the separator is the last one dir uses ('\\'
 * in a Windows path typed with it), else '/'. */
static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char sep = wl_path_sep_of(dir);
	int slash = a > 0 && !wl_os_is_sep(dir[a - 1]);
	char *s = malloc(a + (size_t)slash + b + 1);
	if (!s)
		return NULL;
	memcpy(s, dir, a);
	if (slash)
		s[a] = sep;
	memcpy(s + a + (size_t)slash, name, b + 1);
	return s;
}

/* One entry of a folder: its name and its type as the listing tells it
 * (WL_OS_DT_*; WL_OS_DT_UNKNOWN when the file system does not). */
typedef struct entry {
	char *name;
	unsigned char type;
} entry;

typedef struct entries {
	entry *items;
	size_t count, cap;
} entries;

static void entries_free(entries *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->items[i].name);
	free(l->items);
}

static int cmp_names(const void *x, const void *y)
{
	return strcmp(((const entry *)x)->name, ((const entry *)y)->name);
}

/* Reads dir's non-hidden entries, sorted by name; closes the directory
 * before returning so that recursion holds no descriptor. */
static int read_names(walk *w, const char *dir, entries *names)
{
	wl_os_dir *d = wl_os_opendir(dir);
	if (!d) {
		problem(w, dir, errno);
		return -1;
	}
	const char *nm;
	int kind;
	errno = 0;
	while ((nm = wl_os_readdir(d, &kind)) != NULL) {
		if (nm[0] == '.')
			continue;
		char *s = strdup(nm);
		if (!s || !wl_grow((void **)&names->items, &names->cap, names->count + 1, sizeof *names->items)) {
			free(s);
			w->oom = 1;
			break;
		}
		names->items[names->count].name = s;
		names->items[names->count++].type = (unsigned char)kind;
		errno = 0;
	}
	if (!w->oom && errno != 0)
		problem(w, dir, errno);
	wl_os_closedir(d);
	if (names->count > 1)
		qsort(names->items, names->count, sizeof names->items[0], cmp_names);
	return w->oom ? -1 : 0;
}

/* Is name one the walk lints (a model's or a known kind's extension)? */
static bool wanted(const char *name)
{
	return wl_format_by_extension(name) || wl_file_kind_by_extension(name);
}

static void walk_dir(walk *w, const char *dir, int depth)
{
	entries names = { 0 };
	if (read_names(w, dir, &names) < 0) {
		entries_free(&names);
		return;
	}
	for (size_t i = 0; i < names.count && !w->oom; i++) {
		const char *name = names.items[i].name;
		/* A regular file (d_type names the entry itself, so not a
		 * link) needs no stat: a system call less per file. */
		if (names.items[i].type == WL_OS_DT_REG && !wanted(name))
			continue;
		char *full = join(dir, name);
		if (!full) {
			w->oom = 1;
			break;
		}
		struct stat st;
		if (names.items[i].type == WL_OS_DT_REG) {
			st.st_mode = S_IFREG;
		} else if (wl_os_stat(full, &st) != 0) {
			/* An entry that cannot be followed - a dangling symbolic link
			 * (ENOENT), a looping one (ELOOP), no permission - is an
			 * unreadable path, unless it is a dangling link whose name
			 * the walk would never lint (readme.txt): that one is only
			 * named to the callback with errnum 0 (skipped). */
			int e = errno;
			if (e == ENOENT && !wl_format_by_extension(name)) {
				if (w->on_error)
					w->on_error(w->ud, full, 0);
			} else {
				problem(w, full, e);
			}
			free(full);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (depth < WALK_MAX_DEPTH && !seen_before(w, full, &st))
				walk_dir(w, full, depth + 1);
			free(full);
		} else if (S_ISREG(st.st_mode) && wanted(name)) {
			if (list_push(w->out, full) < 0) {
				free(full);
				w->oom = 1;
			}
		} else {
			free(full);
		}
	}
	entries_free(&names);
}

/* One folder's entries as read for wl_walk_memo. */
typedef struct memo_dir {
	char *dir;
	entries names; /* sorted; empty when the folder could not be read */
} memo_dir;

struct wl_walk_memo {
	memo_dir *dirs;
	size_t count, cap;
	size_t last; /* the folder asked last (named files come in runs) */
};

wl_walk_memo *wl_walk_memo_new(void)
{
	return calloc(1, sizeof(wl_walk_memo));
}

void wl_walk_memo_free(wl_walk_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->count; i++) {
		free(m->dirs[i].dir);
		entries_free(&m->dirs[i].names);
	}
	free(m->dirs);
	free(m);
}

/* The entries of folder dir (len bytes of a path), read on first use;
 * NULL when out of memory. */
static const entries *memo_entries(wl_walk_memo *m, const char *dir, size_t len)
{
	if (m->last < m->count && strlen(m->dirs[m->last].dir) == len && memcmp(m->dirs[m->last].dir, dir, len) == 0)
		return &m->dirs[m->last].names;
	for (size_t i = 0; i < m->count; i++)
		if (strlen(m->dirs[i].dir) == len && memcmp(m->dirs[i].dir, dir, len) == 0) {
			m->last = i;
			return &m->dirs[i].names;
		}
	if (!wl_grow((void **)&m->dirs, &m->cap, m->count + 1, sizeof *m->dirs))
		return NULL;
	memo_dir *d = &m->dirs[m->count];
	*d = (memo_dir){ wl_os_strndup(dir, len), { NULL, 0, 0 } };
	if (!d->dir)
		return NULL;
	/* A folder that cannot be read answers nothing: its files are
	 * stat'ed one by one, and their errors reported as before. */
	walk quiet = { NULL, NULL, NULL, 0, 0, NULL, 0, 0 };
	if (read_names(&quiet, d->dir, &d->names) < 0) {
		entries_free(&d->names);
		d->names = (entries){ NULL, 0, 0 };
	}
	m->last = m->count++;
	return &d->names;
}

/* Is path a regular file by its folder's listing (no stat of its own)?
 * Only a plain "folder/name" (or "name") whose entry the listing typed
 * WL_OS_DT_REG: anything else is left to stat. */
static bool memo_regular(wl_walk_memo *m, const char *path)
{
	if (!m)
		return false;
	const char *slash = wl_path_last_sep(path);
	const char *name = slash ? slash + 1 : path;
	if (!name[0] || name[0] == '.' || (!slash && wl_path_is_absolute(path)))
		return false; /* a file right under a root: left to stat */
	const entries *e = slash ? memo_entries(m, path, (size_t)(slash - path)) : memo_entries(m, ".", 1);
	if (!e || !e->count)
		return false;
	entry key = { (char *)(uintptr_t)name, 0 };
	const entry *hit = bsearch(&key, e->items, e->count, sizeof *e->items, cmp_names);
	return hit && hit->type == WL_OS_DT_REG;
}

size_t wl_walk_entry_host_len(const char *path)
{
	for (const char *colon = strchr(path, ':'); colon; colon = strchr(colon + 1, ':')) {
		size_t hl = (size_t)(colon - path);
		char *host = hl ? wl_os_strndup(path, hl) : NULL;
		struct stat st;
		bool file = host && wl_os_stat(host, &st) == 0 && S_ISREG(st.st_mode);
		free(host);
		if (file)
			return hl;
	}
	return 0;
}

int wl_walk_collect(const char *path, wl_pathlist *out, wl_walk_error_fn on_error, void *ud)
{
	return wl_walk_collect_memo(path, NULL, out, on_error, ud);
}

int wl_walk_collect_memo(const char *path, wl_walk_memo *memo, wl_pathlist *out, wl_walk_error_fn on_error,
			 void *ud)
{
	walk w = { out, on_error, ud, 0, 0, NULL, 0, 0 };
	struct stat st;
	if (strcmp(path, "-") == 0 || memo_regular(memo, path)) {
		/* standard input (read as a named file), or a regular file */
		char *s = strdup(path);
		if (!s || list_push(out, s) < 0) {
			free(s);
			w.oom = 1;
		}
	} else if (wl_os_stat(path, &st) != 0) {
		int e = errno;
		/* ARCHIVE:PATH (an archive's entry, as the reports name it):
		 * kept as it is; cli/archive_walk.h resolves it to the entry */
		if ((e == ENOENT || e == ENOTDIR) && wl_walk_entry_host_len(path)) {
			char *s = strdup(path);
			if (!s || list_push(out, s) < 0) {
				free(s);
				w.oom = 1;
			}
		} else {
			problem(&w, path, e);
		}
	} else if (S_ISDIR(st.st_mode)) {
		seen_before(&w, path, &st);
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
