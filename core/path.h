/*
 * path.h - folder paths taken apart the same way on every platform (issue
 * 27): separators and roots as core/platform.h tells them ('/' on POSIX;
 * '/' and '\' on Windows, with drive letters and \\server\share roots).
 * Paths are UTF-8 byte strings; nothing here touches the file system.
 */
#ifndef WL_PATH_H
#define WL_PATH_H

#include <stdbool.h>
#include <stddef.h>

/** The last separator of path at or after its root, or NULL when it has
 * none there ("C:/" has none: its '/' belongs to the root). */
const char *wl_path_last_sep(const char *path);

/** true when path is a root and nothing more: "/", "C:/", "\\srv\share\". */
bool wl_path_is_root(const char *path);

/** true when path names a file by an absolute path (it has a root). */
bool wl_path_is_absolute(const char *path);

/**
 * Cuts path to its folder in place: "a/b" -> "a", "/b" -> "/", "C:/b" ->
 * "C:/", "b" -> "." (path must have room for 2 bytes).  A root stays as it
 * is.
 */
void wl_path_to_folder(char *path);

/**
 * Cuts the last segment off the folder path dir in place ("/a/b" -> "/a",
 * "/a" -> "/", "C:/a" -> "C:/"); -1 (dir unchanged) for a root or a path
 * without a separator.
 */
int wl_path_parent(char *dir);

/**
 * Normalises an absolute path in place: its root kept, then segments
 * joined by '/' (on Windows '\' becomes '/'), no repeated separator, no "."
 * segment, ".." removing the previous segment (never the root), no
 * trailing separator.  A path without a root gets "/" (POSIX's root);
 * then, or for a root without a separator ("C:"), s needs room for one
 * byte more than its length.
 */
void wl_path_normalize(char *s);

/** The separator to join a name to path with: the last one path uses
 * ('\\' in a Windows path typed with it), else '/'. */
char wl_path_sep_of(const char *path);

/**
 * A malloc'd copy of path with the platform's separators written '/' (on
 * Windows '\\' becomes '/'; on POSIX the copy is the path): the form URIs
 * and CI annotations take (SARIF artifactLocation.uri, GitHub's file=).
 * NULL when out of memory.
 */
char *wl_path_slashes(const char *path);

#endif
