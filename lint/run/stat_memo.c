/* stat_memo.c - remembered stat(2) answers; see stat_memo.h.  An open
 * addressing table of path -> (exists, st_mode), FNV-1a hashed, kept at
 * most half full. */
#include "stat_memo.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/platform.h"

typedef struct answer {
	char *path; /* NULL: empty slot */
	mode_t mode;
	bool exists;
} answer;

struct wl_stat_memo {
	answer *slots;
	size_t cap, count; /* cap: a power of two */
};

wl_stat_memo *wl_stat_memo_new(void)
{
	wl_stat_memo *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->cap = 64;
	m->slots = calloc(m->cap, sizeof *m->slots);
	if (!m->slots) {
		free(m);
		return NULL;
	}
	return m;
}

void wl_stat_memo_free(wl_stat_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].path);
	free(m->slots);
	free(m);
}

static size_t hash(const char *s)
{
	uint64_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return (size_t)h;
}

/* The slot of path, or the empty slot where it belongs. */
static answer *find(const wl_stat_memo *m, const char *path)
{
	size_t i = hash(path) & (m->cap - 1);
	while (m->slots[i].path && strcmp(m->slots[i].path, path) != 0)
		i = (i + 1) & (m->cap - 1);
	return &m->slots[i];
}

/* Doubles the table; false when out of memory (the old one stays). */
static bool grow(wl_stat_memo *m)
{
	wl_stat_memo big = { calloc(m->cap * 2, sizeof *m->slots), m->cap * 2, m->count };
	if (!big.slots)
		return false;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].path)
			*find(&big, m->slots[i].path) = m->slots[i];
	free(m->slots);
	*m = big;
	return true;
}

/* stat(path): 0 and *mode, or -1.  fixed: unused (see stat_ci). */
static int stat_exact(const char *path, size_t fixed, mode_t *mode)
{
	(void)fixed;
	struct stat st;
	if (wl_os_stat(path, &st) != 0)
		return -1;
	*mode = st.st_mode;
	return 0;
}

int wl_path_resolve_ci(const char *path, size_t fixed, char *out, size_t cap)
{
	struct stat st;
	if (wl_os_stat(path, &st) == 0) {
		int w = snprintf(out, cap, "%s", path);
		return w >= 0 && (size_t)w < cap ? 0 : -1;
	}
	if (fixed == 0 || fixed >= cap || fixed > strlen(path))
		return -1;
	memcpy(out, path, fixed);
	out[fixed] = 0;
	size_t at = fixed;
	const char *p = path + fixed;
	while (*p == '/')
		p++;
	while (*p) {
		size_t n = strcspn(p, "/");
		wl_os_dir *d = wl_os_opendir(out);
		if (!d)
			return -1;
		bool found = false;
		for (const char *nm; !found && (nm = wl_os_readdir(d, NULL)) != NULL;)
			if (strlen(nm) == n && strncasecmp(nm, p, n) == 0) {
				int w = snprintf(out + at, cap - at, "/%s", nm);
				found = w > 0 && (size_t)w < cap - at;
				at += found ? (size_t)w : 0;
			}
		wl_os_closedir(d);
		if (!found)
			return -1;
		p += n;
		while (*p == '/')
			p++;
	}
	return 0;
}

/* stat(path) where the part after its first fixed bytes is matched folder
 * by folder in any letter case (wl_path_resolve_ci). */
static int stat_ci(const char *path, size_t fixed, mode_t *mode)
{
	char buf[PATH_MAX];
	if (wl_path_resolve_ci(path, fixed, buf, sizeof buf) != 0)
		return -1;
	return stat_exact(buf, 0, mode);
}

/* probe(path, fixed) remembered under key. */
static int remembered(wl_stat_memo *m, const char *key, const char *path, size_t fixed,
		      int (*probe)(const char *, size_t, mode_t *), mode_t *mode)
{
	if (!m)
		return probe(path, fixed, mode);
	answer *a = find(m, key);
	if (!a->path) {
		mode_t got = 0;
		bool exists = probe(path, fixed, &got) == 0;
		char *copy = strdup(key);
		if (copy && (2 * (m->count + 1) <= m->cap || grow(m))) {
			a = find(m, key);
			a->path = copy;
			a->mode = exists ? got : 0;
			a->exists = exists;
			m->count++;
		} else {
			free(copy);
			if (!exists)
				return -1;
			*mode = got;
			return 0;
		}
	}
	if (!a->exists)
		return -1;
	*mode = a->mode;
	return 0;
}

int wl_stat_memo_mode(wl_stat_memo *m, const char *path, mode_t *mode)
{
	return remembered(m, path, path, 0, stat_exact, mode);
}

int wl_stat_memo_mode_ci(wl_stat_memo *m, const char *dir, const char *rel, mode_t *mode)
{
	/* the key starts with a byte no path starts with, so the answer is
	 * kept apart from the exact stat of the same path */
	char key[PATH_MAX + 2];
	int n = snprintf(key, sizeof key, "\001%s/%s", dir, rel);
	if (n < 0 || (size_t)n >= sizeof key)
		return -1;
	return remembered(m, key, key + 1, strlen(dir), stat_ci, mode);
}

int wl_stat_memo_ask(wl_stat_memo *m, char tag, const char *dir, const char *rel,
		     int (*probe)(const char *path, size_t fixed, mode_t *out), mode_t *out)
{
	char key[PATH_MAX + 2];
	int n = snprintf(key, sizeof key, "%c%s/%s", tag, dir, rel);
	if (n < 0 || (size_t)n >= sizeof key || tag < 2 || tag > 31)
		return -1;
	return remembered(m, key, key + 1, strlen(dir), probe, out);
}
