/*
 * safe_write.h - the one way the tools put a file on disk (w3dfix -o,
 * --in-place and --backup, w3dasm -o, w3ddump -o, w3dlint -o): atomic,
 * serialised between runs, respecting what is already there.
 *
 * A write goes through four steps:
 *
 *   wl_sw_lock     resolves the target, checks what is there, takes an
 *                  advisory flock(2) on it;
 *   (the caller may now read the target: an edit of a file reads it
 *                  here, under the lock, so two runs never lose an edit)
 *   wl_sw_open     makes the temporary file beside the target;
 *   wl_sw_write / wl_sw_stream   fill it;
 *   wl_sw_commit   copies the metadata, fsyncs, renames it over the
 *                  target, fsyncs the folder, drops the lock;
 *   wl_sw_abort    (instead of commit, or after a failed step) removes the
 *                  temporary file and drops the lock; the target is as it
 *                  was.
 *
 * What is there (the target after following symbolic links):
 *   - a symbolic link is followed (realpath(3)): the file it points to is
 *     written and the link stays.  A dangling link is refused (ENOENT);
 *   - only regular files are replaced: a folder, device, FIFO or socket is
 *     refused (WL_SW_NOTREG) before anything is created, so `-o /dev/null`
 *     never replaces the device node;
 *   - a file with more than one hard link is refused (WL_SW_LINKS) unless
 *     WL_SW_BREAK_LINKS: the rename would give this name a new file and
 *     leave the other names on the old content;
 *   - a file without any write permission bit (e.g. 0444) is refused
 *     (WL_SW_READONLY) unless WL_SW_READONLY_OK; with it the file is
 *     replaced and keeps its mode (0444 stays 0444);
 *   - the owner, group, permission bits (set-id bits included) and extended
 *     attributes - POSIX ACLs are the system.posix_acl_access and
 *     system.posix_acl_default attributes - of the file replaced are given
 *     to the new one where the process may (a user who is not root cannot
 *     give a file away: chown fails with EPERM and the new file is theirs;
 *     trusted.* and security.* names may be refused the same way).  What
 *     could not be kept is counted in wl_sw.meta_lost, not an error.
 *   - a new file gets create_mode less the umask.
 *
 * Locking: the lock is flock(LOCK_EX) on the target itself (on its folder
 * when the target cannot be opened for reading); after it is granted the
 * target is checked again to be the file locked (a run that replaced it
 * meanwhile renamed a new inode in place) and locking starts again on the
 * new one.  A target that does not exist is not locked (nothing to read,
 * and a folder lock would serialise every new file of the folder): the
 * commit gives the new file its name with link(2), which never replaces a
 * file, and when one appeared meanwhile locks it and replaces it as above.
 * Locks are advisory: they order runs of these tools, not other programs.
 *
 * The temporary file is an O_TMPFILE (no name until the commit links it as
 * TARGET.wltmp-XXXXXX just before the rename), so a run killed - even by
 * SIGKILL - leaves nothing behind, except in the instant between that link
 * and the rename, which leaves the name holding the whole new bytes.  The
 * temporary name cuts TARGET's own name to fit NAME_MAX (255 bytes) when
 * it would not.  Where the file system has no
 * O_TMPFILE (or the environment variable W3DLINT_NO_TMPFILE is set, for the
 * tests), a named TARGET.wltmp-XXXXXX is made with mkstemp, and
 * wl_sw_signals_init()'s handlers remove it on SIGTERM, SIGHUP and SIGINT.
 *
 * Errors: every function returns WL_SW_OK or a WL_SW_* code below 0, with
 * errno set for WL_SW_ERR (the errno of the call that failed: ENOSPC and
 * EFBIG for a full disk or a file size limit).  Nothing here prints;
 * wl_sw_message() words a failure.
 */
#ifndef WL_SAFE_WRITE_H
#define WL_SAFE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

/* wl_sw_lock flags. */
enum {
	WL_SW_BREAK_LINKS = 1u << 0, /* replace a file that has other hard links */
	WL_SW_READONLY_OK = 1u << 1, /* replace a file without write permission bits */
};

/* Results. */
enum {
	WL_SW_OK = 0,
	WL_SW_ERR = -1,      /* a system call failed; errno says why */
	WL_SW_NOTREG = -2,   /* the target is a folder, device, FIFO or socket */
	WL_SW_LINKS = -3,    /* the target has st_nlink > 1 (wl_sw.st) */
	WL_SW_READONLY = -4, /* the target has no write permission bit (wl_sw.st) */
};

/* The longest target path handled (longer: ENAMETOOLONG). */
#define WL_SW_PATH_MAX 4096

/* One write in progress.  Zero-initialise (or let wl_sw_lock do it); the
 * fields are read-only for callers. */
typedef struct wl_sw {
	char path[WL_SW_PATH_MAX];   /* the file written: target, links followed */
	bool through_link;          /* the target given was a symbolic link */
	bool existed;               /* path existed when locked; st is its status */
	struct stat st;
	unsigned flags;
	unsigned meta_lost;         /* owner/group/attributes that could not be kept */
	int lock_fd;                /* holds the flock; -1 none */
	int fd;                     /* the temporary file; -1 none */
	FILE *fp;                   /* wl_sw_stream's stream on fd, or NULL */
	bool anon;                  /* fd is an O_TMPFILE (no name yet) */
	int slot;                   /* its name's slot for the signal handlers, -1 none */
	char tmp[WL_SW_PATH_MAX + 32]; /* the temporary file's name, once it has one */
} wl_sw;

/**
 * Installs, once per process: SIGXFSZ ignored (a write past the file size
 * limit then fails with EFBIG and is reported instead of killing the
 * tool); handlers for SIGTERM, SIGHUP and SIGINT that remove the named
 * temporary files of writes in progress, then die of the signal as before.
 * Every tool calls it first thing.
 */
void wl_sw_signals_init(void);

/**
 * Resolves target (symbolic links followed), checks that it is a regular
 * file or does not exist (WL_SW_NOTREG) and takes the lock, waiting for
 * another run that holds it.  On success w->path is the file
 * to read and write and w->existed / w->st describe it as locked; on
 * failure nothing is held (wl_sw_abort is still safe to call) and w->path /
 * w->st say what was found.
 */
int wl_sw_lock(wl_sw *w, const char *target, unsigned flags);

/**
 * Checks that the file locked may be replaced - WL_SW_LINKS, WL_SW_READONLY
 * unless w's flags allow (see the header comment) - and makes the
 * temporary file in w->path's folder (after wl_sw_lock).
 * create_mode: the permission bits of a new file (the umask is applied);
 * a file replaced keeps its own.
 */
int wl_sw_open(wl_sw *w, mode_t create_mode);

/** Appends n bytes to the temporary file (retries short writes, EINTR). */
int wl_sw_write(wl_sw *w, const void *p, size_t n);

/**
 * A stdio stream on the temporary file, for writers that print (reports,
 * dumps); NULL (errno set) when fdopen fails.  Do not fclose it: commit
 * and abort do.  Write errors on it are found by wl_sw_commit.
 */
FILE *wl_sw_stream(wl_sw *w);

/**
 * Finishes the write: flushes the stream, copies owner, group, mode and
 * extended attributes of the file replaced (or sets create_mode), fsyncs,
 * renames the temporary file over w->path, fsyncs the folder and drops the
 * lock.  On failure the target is untouched and everything is cleaned up as
 * by wl_sw_abort.
 */
int wl_sw_commit(wl_sw *w);

/**
 * Keeps n bytes (the original of w->path, read under the lock) as a backup
 * beside it without replacing any file: PATH.bak when that name is free,
 * else the first free PATH.bak.1, PATH.bak.2, ... (up to 999; then EEXIST).
 * The name is claimed with link(2), which fails on an existing name, so
 * two runs cannot take the same one.  The backup gets the metadata of
 * w->path like a replacement does.  The name used (or tried last) goes to
 * name (cap bytes).  Call between wl_sw_lock and wl_sw_commit.
 */
int wl_sw_backup(wl_sw *w, const uint8_t *p, size_t n, char *name, size_t cap);

/** Removes the temporary file, closes everything, drops the lock.  Safe to
 * call at any point, twice, and after commit. */
void wl_sw_abort(wl_sw *w);

/**
 * The four steps at once for bytes in memory: lock, open, write, commit
 * (abort on failure).  w is filled as by the steps (w->path: the file
 * written).
 */
int wl_sw_write_file(wl_sw *w, const char *target, unsigned flags, mode_t create_mode, const void *p,
		     size_t n);

/**
 * Words a failure (rc from the functions above, errnum the errno it left,
 * w as it was left) as one line without newline: "TOOL: PATH: REASON" (PATH
 * in the escaped form of core/escape.h), e.g.
 *   w3dasm: /dev/null: not a regular file (a character device); not written
 *   w3dfix: m.w3d: has 2 hard links; not written (--break-links replaces this name only)
 *   w3dfix: m.w3d: read-only (mode 0444); not written (--force writes it and keeps the mode)
 *   w3ddump: out.txt: cannot write: No space left on device
 * hint_links / hint_readonly: the tool's option for the refusal, or NULL
 * when it has none.
 */
void wl_sw_message(char *buf, size_t cap, const char *tool, const char *path, const wl_sw *w, int rc,
		   int errnum, const char *hint_links, const char *hint_readonly);

#endif
