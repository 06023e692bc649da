/* stat_memo.c - remembered stat(2) answers; see stat_memo.h.  An open
 * addressing table of path -> (exists, st_mode), FNV-1a hashed, kept at
 * most half full. */
#include "stat_memo.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

int wl_stat_memo_mode(wl_stat_memo *m, const char *path, mode_t *mode)
{
	struct stat st;
	if (!m) {
		if (stat(path, &st) != 0)
			return -1;
		*mode = st.st_mode;
		return 0;
	}
	answer *a = find(m, path);
	if (!a->path) {
		bool exists = stat(path, &st) == 0;
		char *copy = strdup(path);
		if (copy && (2 * (m->count + 1) <= m->cap || grow(m))) {
			a = find(m, path);
			a->path = copy;
			a->mode = exists ? st.st_mode : 0;
			a->exists = exists;
			m->count++;
		} else {
			free(copy);
			if (!exists)
				return -1;
			*mode = st.st_mode;
			return 0;
		}
	}
	if (!a->exists)
		return -1;
	*mode = a->mode;
	return 0;
}
