/*
 * cli_walk.h - the front end's file collection: turns the PATH arguments of
 * w3dlint into the list of files to lint, in a deterministic order:
 * arguments in the order given, directory contents sorted.
 *
 * A file named explicitly is always collected, whatever its extension, and
 * "-" (standard input) is collected as it is (core/file_io.h reads it).  A
 * directory is walked recursively: its entries are visited in byte order
 * (strcmp), hidden entries (names starting with '.') are skipped, symbolic
 * links are followed, and a directory already visited (same device and
 * inode, e.g. through a symlink loop) is not entered again.  Inside
 * directories only files with the extension of a registered format
 * (wl_format_by_extension, core/format.h) or of an archive (.big, .pbo:
 * core/filekind.h wl_file_kind_by_extension) are kept; archives are
 * expanded into their model entries by cli/archive_walk.h.
 *
 * A path that does not exist but reads ARCHIVE:PATH, ARCHIVE a file, is kept
 * as it is: an archive entry named as the reports name it
 * (wl_walk_entry_host_len; resolved by cli/archive_walk.h).
 *
 * Problems (a missing path, an unreadable directory, an entry of a folder
 * that stat() cannot follow: a looping symbolic link, or a dangling one
 * whose name has a model extension) are reported through
 * the caller's callback with the path and errno; the walk goes on with the
 * remaining paths so that one bad argument still shows every other problem.
 */
#ifndef WL_CLI_WALK_H
#define WL_CLI_WALK_H

#include <stdbool.h>
#include <stddef.h>

struct wl_member;

typedef struct wl_pathlist {
	char **items;   /* malloc-owned strings */
	size_t count, cap;
	/* Per item, the archive entry it names (cli/archive_walk.h), or NULL
	 * for a file; NULL as a whole until archives are expanded.  Each is one
	 * malloc'd block, freed by wl_pathlist_free. */
	struct wl_member **members;
	/* Per item, true for an archive whose table was read when expanding
	 * (cli/archive_walk.h wl_pathlist_archive); NULL until then. */
	bool *archives;
} wl_pathlist;

/** Called once per problem with the path and its errno value; also, with
 *  errnum 0, for a dangling symbolic link whose name the walk would not
 *  lint (skipped: not a problem, not counted). */
typedef void (*wl_walk_error_fn)(void *ud, const char *path, int errnum);

/**
 * When path is not a file but reads ARCHIVE:PATH with ARCHIVE a regular
 * file (the name every report gives an archive's entry, cli/archive_walk.h;
 * the first ':' after which that holds), the length of ARCHIVE in bytes;
 * else 0.
 * wl_walk_collect keeps such a path as an item (no problem reported) for
 * wl_walk_expand_archives to resolve.
 */
size_t wl_walk_entry_host_len(const char *path);

/**
 * Appends the files found under path to out, in walk order.  Returns the
 * number of problems reported through on_error (0 when all went well), or
 * -1 when out of memory.
 */
int wl_walk_collect(const char *path, wl_pathlist *out, wl_walk_error_fn on_error, void *ud);

/*
 * Many named files: the folders' listings remembered (wl_walk_memo), so that
 * a named file that its folder's readdir types as a regular file needs no
 * stat of its own (one readdir per folder instead of one stat per file:
 * a shell glob of model files, or a pre-commit list).  Anything else (a folder, a
 * link, a hidden or missing name, an unreadable folder) is stat'ed as
 * wl_walk_collect does, with the same problems reported.  A listing is
 * taken when first needed and kept until wl_walk_memo_free.
 */
typedef struct wl_walk_memo wl_walk_memo;

/** A new memo (NULL when out of memory: pass NULL, it means none). */
wl_walk_memo *wl_walk_memo_new(void);
void wl_walk_memo_free(wl_walk_memo *m);

/** wl_walk_collect with the folders' listings of memo (NULL: none). */
int wl_walk_collect_memo(const char *path, wl_walk_memo *memo, wl_pathlist *out, wl_walk_error_fn on_error,
			 void *ud);

/** Frees the strings and the array; leaves an empty list. */
void wl_pathlist_free(wl_pathlist *l);

#endif
