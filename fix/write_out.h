/*
 * write_out.h - how w3dfix puts bytes on disk (fix/main_w3dfix.c): atomic
 * replacement through a temporary file, writing through symbolic links, and
 * backups that never overwrite an older one.
 *
 * Nothing here prints: every function returns 0 or -1 with errno set (the
 * errno of the call that failed: open, write, fsync, rename, link ...), and
 * the caller names the path in its message.
 */
#ifndef WL_FIX_WRITE_OUT_H
#define WL_FIX_WRITE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * Writes n bytes to target through a temporary file in target's folder
 * (TARGET.w3dfix-XXXXXX: same file system, so the rename is atomic), given
 * permission bits mode, fsync'ed, then renamed over target.  On failure the
 * temporary file is removed and target is untouched.  target must not be a
 * symbolic link the caller wants to keep (rename replaces the link itself):
 * resolve it first with wl_fix_resolve_link().
 */
int wl_fix_write_atomic(const char *target, const uint8_t *p, size_t n, mode_t mode);

/**
 * When path is a symbolic link (its last component; links in the folders
 * above it need nothing, a rename inside them lands in the real folder),
 * puts the file it finally points to (realpath(3), absolute) into buf and
 * sets *is_link; otherwise copies path into buf.  -1 when the link cannot be
 * resolved (ENOENT for a dangling one, ELOOP) or buf (cap bytes) is too
 * small (ENAMETOOLONG).
 */
int wl_fix_resolve_link(const char *path, char *buf, size_t cap, bool *is_link);

/**
 * Keeps n bytes (the original of path) as a backup beside path, never
 * replacing an existing file: PATH.bak when that name is free, else the
 * first free PATH.bak.1, PATH.bak.2, ... (so the oldest backup keeps the
 * plain name).  The name is claimed with link(2), which fails on an
 * existing name, so two runs at once cannot take the same one.  The name
 * used goes into name (cap bytes).  Gives up after 999 numbered names
 * (EEXIST).
 */
int wl_fix_write_backup(const char *path, const uint8_t *p, size_t n, mode_t mode, char *name,
			size_t cap);

#endif
