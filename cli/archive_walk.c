/* archive_walk.c - archives expanded into their model entries in a file
 * list (archive_walk.h). */
#include "archive_walk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/file_io.h"
#include "core/filekind.h"
#include "core/format.h"
#include "core/grow.h"
#include "core/platform.h"

/* True when the first bytes of path are an archive's magic, or its name
 * says archive: then it is worth reading whole.  A file named like a model
 * is linted as one, never walked as an archive (w3dlint gives one whose
 * bytes are not a model file-not-a-model): it is not opened here, which
 * saves the walk three system calls per model file before any lint. */
static int maybe_archive(const char *path)
{
	if (wl_file_kind_by_extension(path))
		return 1;
	if (wl_format_by_extension(path))
		return 0;
	int fd = wl_os_open_read(path, true);
	if (fd < 0)
		return 0;
	uint8_t b[5];
	ssize_t n = read(fd, b, sizeof b);
	close(fd);
	return n == 5 && (memcmp(b, "BIGF", 4) == 0 || memcmp(b, "BIG4", 4) == 0 || memcmp(b, "\0sreV", 5) == 0);
}

typedef struct list {
	char **items;
	wl_member **members;
	bool *archives;
	size_t count, cap;
} list;

static int push(list *l, char *item, wl_member *m)
{
	size_t ci = l->cap, cm = l->cap, ca = l->cap; /* parallel arrays: one capacity */
	if (!wl_grow((void **)&l->items, &ci, l->count + 1, sizeof *l->items) ||
	    !wl_grow((void **)&l->members, &cm, l->count + 1, sizeof *l->members) ||
	    !wl_grow((void **)&l->archives, &ca, l->count + 1, sizeof *l->archives))
		return -1;
	l->cap = ca;
	l->items[l->count] = item;
	l->members[l->count] = m;
	l->archives[l->count] = false;
	l->count++;
	return 0;
}

/* One block: the member, its item "HOST:PATH", the entry's name and path,
 * and when own_host a copy of host that the member points to (an entry
 * named as an argument, whose archive is not an item of the list). */
static int push_entry(list *l, const char *host, const wl_archive_entry *e, bool own_host)
{
	size_t hl = strlen(host), nl = strlen(e->name), pl = strlen(e->path);
	size_t extra = own_host ? hl + 1 : 0;
	wl_member *m = malloc(sizeof *m + (hl + 1 + pl + 1) + (nl + 1) + (pl + 1) + extra);
	if (!m)
		return -1;
	char *item = (char *)(m + 1), *name = item + hl + 1 + pl + 1, *path = name + nl + 1;
	memcpy(item, host, hl);
	item[hl] = ':';
	memcpy(item + hl + 1, e->path, pl + 1);
	memcpy(name, e->name, nl + 1);
	memcpy(path, e->path, pl + 1);
	if (own_host) {
		char *h = path + pl + 1;
		memcpy(h, host, hl + 1);
		host = h;
	}
	m->host = host;
	m->owned_host = NULL;
	m->entry = *e;
	m->entry.name = name;
	m->entry.path = path;
	m->entry.node = NULL;
	char *dup = strdup(item);
	if (!dup || push(l, dup, m) < 0) {
		free(dup);
		free(m);
		return -1;
	}
	return 0;
}

/* Appends the model entries of the archive at host to l; *is_archive:
 * host is one.  Reads what the table needs (core/archive/archive.h
 * wl_archive_read_table: a BIG's table only). */
static int expand_one(list *l, const char *host, bool *is_archive)
{
	uint8_t *bytes = NULL;
	uint64_t len = 0, have;
	*is_archive = false;
	if (wl_archive_read_table(host, &bytes, &len, &have) != WL_READ_OK)
		return 0; /* the tool reports it when it reads the archive */
	const wl_file_kind *k = wl_file_kind_of(bytes, have, host);
	wl_archive_kind ak;
	int rc = 0;
	if (k && wl_archive_kind_of(k->id, &ak)) {
		*is_archive = true;
		/* An archive whose table cannot be held (its reader's limit, the
		 * memory cap) adds no entry here; its own lint says why, and the
		 * run goes on with the other paths. */
		wl_doc *d = wl_archive_read_head(ak, host, bytes, have, len, WL_ARCHIVE_TABLE);
		const wl_archive *a = d && !d->oom ? d->model : NULL;
		for (size_t i = 0; a && rc == 0 && i < a->count; i++) {
			const wl_archive_entry *e = &a->entries[i];
			if (wl_archive_model_entry(e, bytes))
				rc = push_entry(l, host, e, false);
		}
		wl_doc_free(d);
	}
	free(bytes);
	return rc;
}

int wl_walk_expand_archives(wl_pathlist *pl)
{
	if (pl->members)
		return 0; /* expanded already */
	list l = { 0 };
	int rc = 0;
	/* items that name an entry (ARCHIVE:PATH arguments, cli/walk.h),
	 * replaced by the entry's own item once the list is done */
	bool *named = calloc(pl->count ? pl->count : 1, sizeof *named);
	if (!named)
		return -1;
	for (size_t i = 0; i < pl->count && rc == 0; i++) {
		wl_member *arg = NULL;
		struct stat st;
		if (wl_walk_entry_host_len(pl->items[i]) && wl_os_stat(pl->items[i], &st) != 0 &&
		    (arg = wl_member_find(pl->items[i])) != NULL) {
			rc = push_entry(&l, arg->host, &arg->entry, true);
			wl_member_free(arg);
			named[i] = rc == 0;
			continue;
		}
		rc = push(&l, pl->items[i], NULL);
		size_t at = l.count - 1;
		bool is_archive = false;
		if (rc == 0 && maybe_archive(pl->items[i]))
			rc = expand_one(&l, pl->items[i], &is_archive);
		if (rc == 0)
			l.archives[at] = is_archive;
	}
	if (rc != 0 || !l.items) {
		/* the items stay with pl; the entries made here go */
		for (size_t k = 0; k < l.count; k++)
			if (l.members[k]) {
				free(l.items[k]);
				free(l.members[k]);
			}
		free(l.items);
		free(l.members);
		free(l.archives);
		free(named);
		return rc;
	}
	for (size_t i = 0; i < pl->count; i++)
		if (named[i])
			free(pl->items[i]);
	free(named);
	free(pl->items);
	pl->items = l.items;
	pl->members = l.members;
	pl->archives = l.archives;
	pl->count = pl->cap = l.count;
	return 0;
}

const wl_member *wl_pathlist_member(const wl_pathlist *l, size_t i)
{
	return l->members ? l->members[i] : NULL;
}

bool wl_pathlist_archive(const wl_pathlist *l, size_t i)
{
	return l->archives && l->archives[i];
}

int wl_archive_item_read(const char *tool, const char *item, uint8_t **bytes, uint64_t *have, uint64_t *size,
			 char *err, size_t errcap)
{
	int rc = wl_archive_read_table(item, bytes, size, have);
	if (rc == WL_READ_OK)
		return 0;
	wl_read_message(err, errcap, tool, item, rc, errno, *size);
	return -1;
}

const char *wl_pathlist_host(const wl_pathlist *l, size_t i)
{
	const wl_member *m = wl_pathlist_member(l, i);
	return m ? m->host : l->items[i];
}

int wl_member_read(const char *tool, const char *item, const wl_member *m, uint8_t **out, size_t *len, char *err,
		   size_t errcap)
{
	char why[256];
	if (wl_archive_load(m->host, &m->entry, out, len, why, sizeof why) == 0)
		return 0;
	snprintf(err, errcap, "%s: %s: cannot read the archive entry: %s", tool, wl_esc(item), wl_esc(why));
	return -1;
}

/* Entry paths as the games look them up: letter case ignored, '\\' the
 * same as '/' (the table's paths use '/' already; an argument may not). */
static bool same_path(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = *a == '\\' ? '/' : tolower((unsigned char)*a);
		int y = *b == '\\' ? '/' : tolower((unsigned char)*b);
		if (x != y)
			return false;
		if (!x)
			return true;
	}
}

wl_member *wl_member_find(const char *item)
{
	for (const char *colon = strchr(item, ':'); colon; colon = strchr(colon + 1, ':')) {
		size_t hl = (size_t)(colon - item);
		char *host = malloc(hl + 1);
		if (!host)
			return NULL;
		memcpy(host, item, hl);
		host[hl] = 0;
		struct stat st;
		if (wl_os_stat(host, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(host);
			continue;
		}
		list l = { 0 };
		wl_member *found = NULL;
		bool is_archive;
		if (expand_one(&l, host, &is_archive) == 0)
			for (size_t k = 0; k < l.count; k++)
				if (!found && same_path(l.members[k]->entry.path, colon + 1)) {
					found = l.members[k];
					l.members[k] = NULL;
				}
		for (size_t k = 0; k < l.count; k++) {
			free(l.items[k]);
			free(l.members[k]);
		}
		free(l.items);
		free(l.members);
		free(l.archives);
		if (found) {
			found->owned_host = host; /* = found->host */
			return found;
		}
		free(host);
	}
	return NULL;
}

void wl_member_free(wl_member *m)
{
	if (m) {
		free(m->owned_host);
		free(m);
	}
}
