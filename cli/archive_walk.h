/*
 * archive_walk.h - archives as folders in the tools' file lists: each
 * archive of a collected list (cli/walk.h) is followed by its model
 * entries, named ARCHIVE:PATH ("mod.big:Art/W3D/tank.w3d", '/' separators),
 * which the tools read and report like files.
 *
 * An archive is a file core/filekind.h knows as one (BIGF, BIG4, a PBO
 * header; .big or .pbo by name).  Its table is read here
 * (core/archive/archive.h, WL_ARCHIVE_TABLE: offsets and sizes checked);
 * its model entries are those whose path has the extension of a registered
 * model format (core/format.h) and whose bytes lie in the file (and, when
 * packed, unpack).  A damaged
 * archive keeps its readable entries; its damage is reported by linting
 * the archive itself (lint/lint.h wl_lint_archive).
 */
#ifndef WL_ARCHIVE_WALK_H
#define WL_ARCHIVE_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "core/archive/archive.h"
#include "core/archive/model_entry.h"
#include "lint/lint.h"
#include "walk.h"

/* One archive entry in a file list (one malloc'd block). */
typedef struct wl_member {
	const char *host;        /* the archive's path: the list's item, borrowed */
	char *owned_host;        /* wl_member_find: host, malloc'd; else NULL */
	wl_archive_entry entry;  /* name, path: in this block; node NULL */
} wl_member;

/**
 * Inserts after each archive of l its model entries (items "HOST:PATH",
 * members set).  Files that cannot be read are left for the tool to report.
 * A list is expanded once (a second call does nothing).  Returns 0, or -1
 * when out of memory (l is then unchanged).
 */
int wl_walk_expand_archives(wl_pathlist *l);

/** The archive entry item i names, or NULL for a file. */
const wl_member *wl_pathlist_member(const wl_pathlist *l, size_t i);

/** True when item i is an archive whose entries were expanded (its table
 *  read; it may have no model entry). */
bool wl_pathlist_archive(const wl_pathlist *l, size_t i);

/**
 * Reads archive item (wl_pathlist_archive) for its own checks (lint/lint.h
 * wl_lint_archive) from only the bytes they need (core/archive/archive.h
 * wl_archive_read_table: a BIG's table, a PBO whole): *bytes (malloc'd),
 * *have the bytes held, *size the file's size in bytes.  Returns 0, or -1
 * with "TOOL: ITEM: REASON" in err (nothing to free).
 */
int wl_archive_item_read(const char *tool, const char *item, uint8_t **bytes, uint64_t *have, uint64_t *size,
			 char *err, size_t errcap);

/** The file on disk of item i: its archive for an entry, else the item. */
const char *wl_pathlist_host(const wl_pathlist *l, size_t i);

/**
 * Reads the bytes of entry m (core/archive/archive.h wl_archive_load) into
 * *out (malloc'd, *len bytes).  Returns 0, or -1 with "TOOL: ITEM: cannot
 * read the archive entry: REASON" in err.
 */
int wl_member_read(const char *tool, const char *item, const wl_member *m, uint8_t **out, size_t *len, char *err,
		   size_t errcap);

/**
 * The model entry an item "ARCHIVE:PATH" names (a tool's argument that is
 * not a file): ARCHIVE is the first file on disk before a ':', PATH
 * compared with letter case ignored and '\' as '/'.  A malloc'd member
 * whose host is malloc'd too: free it with wl_member_free.  NULL when there
 * is no such entry (or out of memory).
 */
wl_member *wl_member_find(const char *item);

/** Frees a member of wl_member_find. */
void wl_member_free(wl_member *m);

#endif
