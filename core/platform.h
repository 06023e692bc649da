/*
 * platform.h - the operating system behind one interface (issue 27).
 *
 * Every call the tools make to the operating system that differs between
 * Linux (and the other POSIX systems, and Emscripten) and Windows goes
 * through the functions here; one file per platform implements them:
 * core/platform/posix.c and core/platform/win32.c (the Makefile's PLATFORM
 * picks one: `posix` by default, `win32` for `make windows`).  The atomic
 * write (core/safe_write.h) has one implementation per platform too
 * (core/platform/posix_write.c, win32_write.c).  No other file tests the
 * platform: its conditionals live in core/platform/ alone.
 *
 * What stays standard C or POSIX on both: stdio on an open FILE, read(2),
 * close(2) and fstat(2) on a descriptor this layer opened, pthreads
 * (MinGW-w64's winpthreads, linked statically), getopt_long (MinGW-w64's),
 * strcasecmp.
 *
 * Text: every path and name crossing this interface is UTF-8, in both
 * directions.  On Windows the layer converts to and from UTF-16 and calls
 * the wide-character API (`_wopen`, `FindFirstFileW`, ...); a name Windows
 * holds that is not valid UTF-16 (a lone surrogate) is given as WTF-8,
 * which the escaping of core/escape.h then shows as \xNN bytes.  Paths may
 * use `\` or `/` on Windows; the layer passes them on as given.
 *
 * Errors: functions returning int give 0 on success and -1 with errno set
 * on failure (Windows errors mapped to the nearest errno: ENOENT, EACCES,
 * EEXIST, ENOTDIR, ENAMETOOLONG, EIO); pointer-returning ones give NULL
 * with errno set.
 */
#ifndef WL_PLATFORM_H
#define WL_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The file kinds a C library may not name (S_ISLNK, S_ISSOCK, S_ISBLK on
 * MinGW-w64): core/platform/stat_kinds.h. */
#include "platform/stat_kinds.h"

/* ------------------------------------------------------------- start-up */

/**
 * Called first thing by every tool's main: on Windows replaces *argv by
 * the command line read with GetCommandLineW, converted to UTF-8 (the
 * arguments main() receives there are in the ANSI code page and lose
 * characters outside it), sets the console's output code page to UTF-8 and
 * puts stdin/stdout/stderr in binary mode (no CR added before LF: reports
 * are byte-identical to Linux's).  On POSIX it leaves everything as it is.
 * The strings given live until the process ends.
 */
void wl_os_start(int *argc, char ***argv);

/** Tunes the C library's allocator for a run over many files (glibc:
 * larger mmap and trim thresholds; elsewhere nothing). */
void wl_os_tune_malloc(void);

/** Processors available to this process (at least 1). */
unsigned wl_os_cpus(void);

/* ---------------------------------------------------------------- files */

/**
 * Opens path for reading; returns a descriptor for read(2)/fstat(2)/
 * close(2) or -1 with errno.  nonblock: open without blocking on a FIFO
 * that has no writer (POSIX O_NONBLOCK; Windows has no such files and
 * ignores it).  The descriptor is not inherited by child processes and
 * reads bytes as they are (Windows: _O_BINARY).
 */
int wl_os_open_read(const char *path, bool nonblock);

/** Makes reads of fd block again (after wl_os_open_read(..., true) on a
 * regular file whose file system honours O_NONBLOCK: EAGAIN).  -1 when it
 * cannot (then EAGAIN stays an error). */
int wl_os_fd_blocking(int fd);

/** pread(2): up to n bytes of fd from offset off (bytes) without moving
 * the file position (Windows: ReadFile with an OVERLAPPED offset); the
 * count read (0 at the end), or -1 with errno. */
ssize_t wl_os_pread(int fd, void *buf, size_t n, uint64_t off);

/** fopen(3) of a UTF-8 path; "b" is implied on Windows. */
FILE *wl_os_fopen(const char *path, const char *mode);

/** stat(2) / lstat(2) of a UTF-8 path.  st_size is 64-bit on every
 * platform (the build defines _FILE_OFFSET_BITS=64 for Windows).  On
 * Windows lstat reports a symbolic link or junction (a name-surrogate
 * reparse point) as S_IFLNK; st_dev/st_ino identify no file there (see
 * wl_os_file_id). */
int wl_os_stat(const char *path, struct stat *st);
int wl_os_lstat(const char *path, struct stat *st);

/* The identity of a file: two names of one file give equal ids. */
typedef struct wl_os_id {
	uint64_t dev, ino;
} wl_os_id;

/** The identity of the file at path, whose wl_os_stat is st.  POSIX:
 * st_dev and st_ino.  Windows: the volume serial number and the 64-bit
 * file index (GetFileInformationByHandle; MinGW's st_ino has 16 bits).
 * -1 with errno when it cannot be had. */
int wl_os_file_id(const char *path, const struct stat *st, wl_os_id *id);

/** true when fd is a terminal (Windows: a console). */
bool wl_os_isatty(int fd);

/** The width in columns of the terminal on fd, or 0 when unknown. */
int wl_os_term_cols(int fd);

/**
 * The absolute path of path with every symbolic link, `.` and `..`
 * resolved (realpath(3); Windows: GetFinalPathNameByHandleW without the
 * `\\?\` prefix), malloc'd; NULL with errno (ENOENT when path does not
 * exist).
 */
char *wl_os_realpath(const char *path);

/** The current folder (UTF-8) into buf (cap bytes); NULL with errno
 * (ERANGE when it does not fit). */
char *wl_os_getcwd(char *buf, size_t cap);

/** Creates the folder path (mode 0777 less the umask on POSIX). */
int wl_os_mkdir(const char *path);

/** remove(3) of a UTF-8 path: a file, or an empty folder. */
int wl_os_remove(const char *path);

/** true when c separates folders in a path: '/' everywhere, also '\\' on
 * Windows. */
bool wl_os_is_sep(char c);

/**
 * The length in bytes of path's root, 0 for a relative path.  POSIX: 1
 * for a path starting with '/'.  Windows: "C:\\" or "C:/" 3, "C:" 2 (a
 * drive's current folder), "\\\\server\\share\\" (either separator) up to
 * and with the separator after the share, a leading '\\' or '/' 1.
 * core/path.h builds the portable path operations on it.
 */
size_t wl_os_path_root(const char *path);

/* -------------------------------------------------------------- folders */

/* The kind of a folder entry as the folder listing gives it, without a
 * stat: WL_OS_DT_UNKNOWN when the file system does not say (then stat). */
enum { WL_OS_DT_UNKNOWN = 0, WL_OS_DT_REG, WL_OS_DT_DIR, WL_OS_DT_LNK, WL_OS_DT_OTHER };

typedef struct wl_os_dir wl_os_dir;

/** Opens the folder path for listing; NULL with errno. */
wl_os_dir *wl_os_opendir(const char *path);

/**
 * The next entry of d: its name (UTF-8, valid until the next call) and
 * kind (WL_OS_DT_*, may be NULL).  "." and ".." are listed like any entry
 * (callers skip them).  NULL at the end (errno unchanged) or on an error.
 */
const char *wl_os_readdir(wl_os_dir *d, int *kind);

void wl_os_closedir(wl_os_dir *d);

/* ----------------------------------------------------------------- text */

/**
 * 0 when string matches the shell pattern pat, else non-zero: fnmatch(3)
 * with no flags (`*` and `?` match any character, '/' included; `[...]`
 * a set, `[!...]` its complement, ranges `a-z`; `\` quotes the next
 * character).  The same answers on every platform (unit test
 * tests/core/test_platform.c).
 */
int wl_os_fnmatch(const char *pat, const char *string);

/** strndup(3) (MinGW-w64 lacks it): the first n bytes of s, at most up to
 * its NUL, as a new string; NULL when out of memory. */
char *wl_os_strndup(const char *s, size_t n);

/** strerror_r(3) into buf: the message of errno value e. */
void wl_os_strerror(int e, char *buf, size_t cap);

/**
 * A stream writing into memory (open_memstream(3)): wl_os_memstream_open
 * gives a FILE to print to; wl_os_memstream_close closes it and gives the
 * bytes written (*buf malloc'd and NUL-terminated, *len without the NUL),
 * or -1 (nothing to free) when a write or the close failed.  Windows has
 * no open_memstream: there the stream is a temporary file read back.
 */
typedef struct wl_os_memstream {
	FILE *f;
	char *buf;
	size_t len;
} wl_os_memstream;

FILE *wl_os_memstream_open(wl_os_memstream *m);
int wl_os_memstream_close(wl_os_memstream *m, char **buf, size_t *len);

/* --------------------------------------------------------------- memory */

/**
 * n bytes aligned to align bytes (0: malloc's own alignment; else a power
 * of two, at least sizeof(void *)), freed with wl_os_aligned_free (never
 * free(): Windows's _aligned_malloc needs its own); NULL when out of
 * memory.
 */
void *wl_os_aligned_alloc(size_t align, size_t n);
void wl_os_aligned_free(void *p);

/** Asks for [p, p+n) to be backed by large pages where the system grants
 * them (Linux: MADV_HUGEPAGE); nothing elsewhere.  Never fails. */
void wl_os_advise_huge(void *p, size_t n);

/** Faults in the whole pages of [p, p+n), about to be written front to
 * back, with one call (Linux 5.14: MADV_POPULATE_WRITE); nothing where the
 * system has no such call.  Never fails. */
void wl_os_prefault(void *p, size_t n);

#endif
