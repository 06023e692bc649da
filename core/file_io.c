/* file_io.c - reading a whole file; see file_io.h. */
#include "file_io.h"

#include "escape.h"
#include "format.h"
#include "platform.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads fd to its end, accepting at most max bytes: WL_READ_BIG (with
 * *seen = 0, the size being unknown) once more arrive.  hint: the expected size (0 unknown);
 * the first buffer holds hint + 1 bytes so that reaching the end needs no
 * growth.  A regular file (hint = its size from fstat) is at its end once
 * a read asked for more than it had left and hint bytes have come: no
 * further read(2) that returns 0.  A read refused with EAGAIN (a file
 * system that honours the O_NONBLOCK of the open on a regular file) clears
 * the flag and retries.  Leaves fd open. */
static int read_fd(int fd, uint64_t hint, uint64_t max, uint8_t **out, size_t *len, uint64_t *seen)
{
	uint64_t first = hint < 65536 ? 65536 : hint + 1;
	if (first > max + 1)
		first = max + 1;
	size_t cap = (size_t)first, n = 0;
	uint8_t *buf = malloc(cap);
	if (!buf) {
		errno = ENOMEM;
		return WL_READ_NOMEM;
	}
	for (;;) {
		if (n == cap) {
			if ((uint64_t)cap > max) {
				free(buf);
				*seen = 0;
				errno = EFBIG;
				return WL_READ_BIG;
			}
			uint64_t ncap = (uint64_t)cap * 2;
			if (ncap > max + 1)
				ncap = max + 1;
			uint8_t *nb = ncap > SIZE_MAX ? NULL : realloc(buf, (size_t)ncap);
			if (!nb) {
				free(buf);
				errno = ENOMEM;
				return WL_READ_NOMEM;
			}
			buf = nb;
			cap = (size_t)ncap;
		}
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN && wl_os_fd_blocking(fd) == 0)
			continue;
		if (got < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return WL_READ_IO;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (hint && n == hint && n < cap)
			break;
	}
	*out = buf;
	*len = n;
	*seen = n;
	return WL_READ_OK;
}

int wl_read_file(const char *path, size_t limit, uint8_t **out, size_t *len)
{
	int fd = wl_os_open_read(path, false);
	if (fd < 0)
		return WL_READ_OPEN;
	struct stat st;
	bool stated = fstat(fd, &st) == 0;
	if (stated && S_ISDIR(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return WL_READ_IO;
	}
	uint64_t hint = stated && S_ISREG(st.st_mode) && st.st_size > 0 ? (uint64_t)st.st_size : 0;
	uint64_t seen;
	int rc = limit == 0 ? WL_READ_BIG : read_fd(fd, hint, (uint64_t)limit - 1, out, len, &seen);
	int e = rc == WL_READ_BIG ? EFBIG : errno;
	close(fd);
	errno = e;
	return rc;
}

/* WL_READ_SNIFF: when the format of the file at fd (size bytes, named
 * path) refuses it by its first bytes, the buffer holds those and zeros
 * after them (calloc: pages never touched cost no memory).  Returns 1 when
 * it did so, 0 when the file is to be read whole (fd rewound), -1 on a
 * read error. */
static int sniff(int fd, const char *path, uint64_t size, uint8_t **out, size_t *len)
{
	uint8_t head[WL_DETECT_BYTES];
	size_t n = 0, want = size < sizeof head ? (size_t)size : sizeof head;
	while (n < want) {
		ssize_t got = read(fd, head + n, want - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (n == want && wl_format_read_extent(head, size, path) < size) {
		uint8_t *buf = calloc(1, (size_t)size);
		if (buf) {
			memcpy(buf, head, n);
			*out = buf;
			*len = (size_t)size;
			return 1;
		}
	}
	return lseek(fd, 0, SEEK_SET) == 0 ? 0 : -1;
}

/* Files up to this size are read whole before WL_READ_SNIFF looks at
 * their first bytes (one read(2) instead of a read of the head, a seek and
 * a read of the rest); larger ones are sniffed first. */
#define SNIFF_AFTER_READ ((uint64_t)1 << 20)

/* WL_READ_SNIFF after a whole read of a file of size bytes (its stat size;
 * buf holds *len bytes, at least the first WL_DETECT_BYTES of them, and has
 * room for size + 1): when the format refuses it
 * by its first bytes, the buffer becomes what sniff() gives, those bytes
 * and zeros up to size. */
static void refuse_read(const char *path, uint64_t size, uint8_t *buf, size_t *len)
{
	size_t want = size < WL_DETECT_BYTES ? (size_t)size : WL_DETECT_BYTES;
	if (*len < want || wl_format_read_extent(buf, size, path) >= size)
		return;
	memset(buf + want, 0, (size_t)size - want);
	*len = (size_t)size;
}

int wl_read_input(const char *path, uint8_t **out, size_t *len, uint64_t *size)
{
	return wl_read_input_ex(path, 0, out, len, size);
}

int wl_read_input_ex(const char *path, unsigned flags, uint8_t **out, size_t *len, uint64_t *size)
{
	*size = 0;
	bool in = strcmp(path, "-") == 0;
	/* O_NONBLOCK: opening a FIFO without a writer must not block; the
	 * type is checked before any read. */
	int fd = in ? STDIN_FILENO : wl_os_open_read(path, true);
	if (fd < 0)
		return WL_READ_OPEN;
	struct stat st;
	int rc = WL_READ_OK, e = 0;
	if (in && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) &&
	    !((S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) && !wl_os_isatty(fd))) {
		/* a pipe, FIFO, socket or terminal: read up to the limit */
		return read_fd(fd, 0, WL_INPUT_MAX_BYTES, out, len, size);
	}
	if (fstat(fd, &st) != 0) {
		rc = WL_READ_IO;
		e = errno;
	} else if (S_ISDIR(st.st_mode)) {
		rc = WL_READ_IO;
		e = EISDIR;
	} else if (!S_ISREG(st.st_mode)) {
		rc = WL_READ_NOTREG;
		e = EINVAL;
	} else if ((uint64_t)st.st_size > WL_INPUT_MAX_BYTES) {
		rc = WL_READ_BIG;
		e = EFBIG;
		*size = (uint64_t)st.st_size;
	} else {
		/* A regular file: the O_NONBLOCK of the open means nothing to
		 * its reads (read_fd clears it on an EAGAIN).  A small one is
		 * read whole and then sniffed; a large one sniffed first. */
		uint64_t fsize = (uint64_t)st.st_size;
		bool sniffing = !in && (flags & WL_READ_SNIFF) && fsize > 0;
		int s = sniffing && fsize > SNIFF_AFTER_READ ? sniff(fd, path, fsize, out, len) : 0;
		if (s == 1)
			*size = fsize;
		else if (s == 0)
			rc = read_fd(fd, fsize, WL_INPUT_MAX_BYTES, out, len, size);
		else
			rc = WL_READ_IO;
		e = errno;
		if (rc == WL_READ_OK && s == 0 && sniffing && fsize <= SNIFF_AFTER_READ)
			refuse_read(path, fsize, *out, len);
	}
	if (!in)
		close(fd);
	errno = e;
	return rc;
}

const char *wl_file_type_name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	case S_IFDIR: return "a folder";
	case S_IFLNK: return "a symbolic link";
	case S_IFREG: return "a regular file";
	default: return "an unknown kind of file";
	}
}

/* The kind of a non-regular file, for the message. */
static const char *kind_of(const char *path, char *buf, size_t cap)
{
	struct stat st;
	if ((strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) : wl_os_stat(path, &st)) != 0)
		return "not a regular file";
	snprintf(buf, cap, "not a regular file (%s)", wl_file_type_name(st.st_mode));
	return buf;
}

void wl_read_message(char *buf, size_t cap, const char *tool, const char *path, int rc, int errnum, uint64_t size)
{
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : wl_esc(path);
	char kind[64];
	if (rc == WL_READ_BIG && size > 0)
		snprintf(buf, cap, "%s: %s: file is %" PRIu64 " bytes, over the 1 GiB limit (%" PRIu64 " bytes); not read",
			 tool, name, size, WL_INPUT_MAX_BYTES);
	else if (rc == WL_READ_BIG)
		snprintf(buf, cap, "%s: %s: more than the 1 GiB limit (%" PRIu64 " bytes); not read", tool, name,
			 WL_INPUT_MAX_BYTES);
	else if (rc == WL_READ_NOTREG)
		snprintf(buf, cap, "%s: %s: %s; not read", tool, name, kind_of(path, kind, sizeof kind));
	else if (rc == WL_READ_NOMEM)
		snprintf(buf, cap, "%s: %s: out of memory reading the file", tool, name);
	else {
		char e[128];
		wl_os_strerror(errnum, e, sizeof e);
		snprintf(buf, cap, "%s: %s: %s", tool, name, e);
	}
}
