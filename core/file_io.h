/*
 * file_io.h - reading a whole file into memory, for the command-line tools
 * and the baseline (one loop instead of one per program).
 *
 * Nothing here prints or exits: errors come back as a return code and errno,
 * and the caller words the message.
 */
#ifndef WL_FILE_IO_H
#define WL_FILE_IO_H

#include <stddef.h>
#include <stdint.h>

/* wl_read_file() results.  errno is set on every failure. */
enum {
	WL_READ_OK = 0,
	WL_READ_OPEN = -1,  /* fopen failed; errno from fopen (ENOENT: no such file) */
	WL_READ_IO = -2,    /* a read failed; errno from the read (EISDIR for a folder, EIO ...) */
	WL_READ_BIG = -3,   /* the file holds `limit` bytes or more; errno EFBIG */
	WL_READ_NOMEM = -4, /* out of memory; errno ENOMEM */
};

/**
 * Reads the whole file at path (binary mode) into a malloc'd buffer: *out
 * (free() it) and its length in *len, WL_READ_OK.  The buffer starts at
 * 64 KiB and doubles while the file goes on; it is not NUL-terminated.
 *
 * limit: the file is refused (WL_READ_BIG) once it holds `limit` bytes or
 * more - precisely, when a full buffer of `limit` bytes or more would have to
 * grow - so with `limit` a power of two >= 64 KiB every file shorter than
 * `limit` is read.  SIZE_MAX: no limit but the memory.
 *
 * On failure (a WL_READ_* code below 0, errno set as listed there) *out and
 * *len are untouched and nothing is left allocated.
 */
int wl_read_file(const char *path, size_t limit, uint8_t **out, size_t *len);

#endif
