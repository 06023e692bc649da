/*
 * file_io.h - reading a whole file into memory: the input files of the four
 * command-line tools (wl_read_input: one size limit, regular files only) and
 * the project's own files (configuration, baseline: wl_read_file).
 *
 * Nothing here prints or exits: errors come back as a return code and errno,
 * and wl_read_message() words them the same way in every tool.
 */
#ifndef WL_FILE_IO_H
#define WL_FILE_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The largest input file the tools read (w3dlint, w3dfix, w3ddump, w3dasm):
 * 1 GiB.  Each file is read whole into memory, and the parse of a file is
 * bounded by a multiple of its size (core/chunk.c arena limit), so this also
 * bounds the memory a file can cost. */
#define WL_INPUT_MAX_BYTES ((uint64_t)1 << 30)

/* wl_read_file() and wl_read_input() results.  errno is set on every failure. */
enum {
	WL_READ_OK = 0,
	WL_READ_OPEN = -1,   /* open failed; errno from open (ENOENT: no such file) */
	WL_READ_IO = -2,     /* a read failed, or a folder; errno EISDIR for a folder, else from the read */
	WL_READ_BIG = -3,    /* over the limit; errno EFBIG */
	WL_READ_NOMEM = -4,  /* out of memory; errno ENOMEM */
	WL_READ_NOTREG = -5, /* wl_read_input: not a regular file (FIFO, device, socket); errno EINVAL */
};

/**
 * Reads the whole file at path into a malloc'd buffer: *out (free() it) and
 * its length in *len, WL_READ_OK.  The buffer is not NUL-terminated.
 *
 * limit: the file is refused (WL_READ_BIG) when it holds `limit` bytes or
 * more; SIZE_MAX: no limit but the memory.  Any kind of file is read (a FIFO
 * blocks until its writer closes it): meant for files the user names as
 * configuration or baseline, not for the inputs (wl_read_input).
 *
 * On failure (a WL_READ_* code below 0, errno set as listed there) *out and
 * *len are untouched and nothing is left allocated.
 */
int wl_read_file(const char *path, size_t limit, uint8_t **out, size_t *len);

/**
 * Reads one input file of a tool, whole, into a malloc'd buffer *out of
 * *len bytes (free() it).  path "-" reads standard input: a regular file
 * there is checked as a named one; a pipe, FIFO, socket or terminal is read
 * up to the same limit, stopping at the first byte past it (so a pipe from
 * /dev/zero costs at most the limit); a device that is not a terminal
 * (`- < /dev/zero`) is refused like a named one, before any read.
 *
 * Refuses, before reading a byte:
 *   - a folder: WL_READ_IO, errno EISDIR;
 *   - anything but a regular file (a FIFO, a device such as /dev/zero, a
 *     socket): WL_READ_NOTREG, errno EINVAL.  The file is opened with
 *     O_NONBLOCK and checked with fstat, so a FIFO without a writer never
 *     blocks;
 *   - a file of more than WL_INPUT_MAX_BYTES: WL_READ_BIG, errno EFBIG,
 *     *size = its size.
 * A file (or standard input) that grows past the limit while it is read is
 * refused the same way, with *size = 0 (its size is not known).
 * *size is set on every return (0 when unknown); the other failures are as
 * for wl_read_file().
 */
int wl_read_input(const char *path, uint8_t **out, size_t *len, uint64_t *size);

/* wl_read_input_ex flags. */
enum {
	/* Sniff before reading whole (named files): when the format the file
	 * is taken for refuses it by its first bytes (core/format.h
	 * wl_format.refused_head: a .b3d without BB3D, a .p3d without ODOL or
	 * MLOD), only the first WL_DETECT_BYTES bytes are kept and the rest of
	 * the buffer is zeros.  A file over 1 MiB is sniffed first: only those
	 * bytes are read (untouched pages: no memory, no time, even for a
	 * 1000 MB file); a smaller one is read whole in one read(2) and
	 * sniffed then, with the same bytes as the result.  *len is still the file's size, so the reader's
	 * finding and the report name the whole file.  Only for callers that
	 * hand the bytes to the format's reader and nothing else (w3dlint);
	 * never for one that copies or prints them (w3dfix -o, w3ddump). */
	WL_READ_SNIFF = 1u << 0,
};

/** wl_read_input() with flags (WL_READ_*). */
int wl_read_input_ex(const char *path, unsigned flags, uint8_t **out, size_t *len, uint64_t *size);

/**
 * Words a failure of wl_read_input() (rc, the errno it left, the *size it
 * gave) as one line without newline into buf: "TOOL: PATH: REASON" (PATH in
 * the escaped form of core/escape.h), e.g.
 *   w3dfix: big.w3d: file is 3221225472 bytes, over the 1 GiB limit (1073741824 bytes); not read
 *   w3ddump: models: Is a directory
 *   w3dlint: pipe.w3d: not a regular file (a FIFO); not read
 * PATH "-" is named "<stdin>".  Thread-safe (strerror_r).
 */
void wl_read_message(char *buf, size_t cap, const char *tool, const char *path, int rc, int errnum, uint64_t size);

/**
 * The kind of file a mode (st_mode) describes, for messages: "a FIFO",
 * "a character device", "a block device", "a socket", "a folder",
 * "a symbolic link", "a regular file".  Static string.
 */
const char *wl_file_type_name(mode_t mode);

#endif
