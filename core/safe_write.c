/* safe_write.c - the parts of core/safe_write.h that every platform
 * shares: the temporary file's name, appending bytes, the stream, the four
 * steps at once and the wording of a failure.  Locking, the temporary
 * file and the replace are the platform's (core/platform/posix_write.c,
 * win32_write.c). */
#include "safe_write.h"
#include "safe_write_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "file_io.h"
#include "path.h"
#include "platform.h"

int wl_sw_copy_path(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);
	if (n >= cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dst, src, n + 1);
	return 0;
}

/* The temporary name of path: PATH.wltmp-TAG beside it.  When that name
 * would pass NAME_MAX (255 bytes) the file's own name is cut so that it
 * fits, so that a file with a long name can still be written.  -1 when
 * the whole path does not fit in cap. */
int wl_sw_tmp_name(char *buf, size_t cap, const char *path, const char *tag)
{
	const char *slash = wl_path_last_sep(path);
	if (!slash && wl_os_path_root(path) > 0)
		slash = path + wl_os_path_root(path) - 1;
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0, base = strlen(path) - dir;
	size_t extra = strlen(".wltmp-") + strlen(tag);
	if (base + extra > 255)
		base = 255 - extra;
	int n = snprintf(buf, cap, "%.*s.wltmp-%s", (int)(dir + base), path, tag);
	return n >= 0 && (size_t)n < cap ? 0 : -1;
}

void wl_sw_close_fd(wl_sw *w)
{
	int e = errno;
	if (w->fp)
		fclose(w->fp);
	else if (w->fd >= 0)
		close(w->fd);
	w->fp = NULL;
	w->fd = -1;
	errno = e;
}

void wl_sw_abort(wl_sw *w)
{
	int e = errno;
	wl_sw_close_fd(w);
	wl_sw_tmp_forget(w, true);
	if (w->lock_fd >= 0)
		close(w->lock_fd); /* drops the lock (flock, LockFileEx) */
	w->lock_fd = -1;
	errno = e;
}

int wl_sw_backup_claim(const char *path, char *name, size_t cap, wl_sw *b, int (*claim)(wl_sw *b, const char *name))
{
	for (unsigned k = 0; k < 1000; k++) {
		int len = k ? snprintf(name, cap, "%s.bak.%u", path, k) : snprintf(name, cap, "%s.bak", path);
		if (len < 0 || len >= (int)cap) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (claim(b, name) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

int wl_sw_write(wl_sw *w, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n > 0) {
		ssize_t k = write(w->fd, b, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return WL_SW_ERR;
		b += k;
		n -= (size_t)k;
	}
	return WL_SW_OK;
}

FILE *wl_sw_stream(wl_sw *w)
{
	if (!w->fp)
		w->fp = fdopen(w->fd, "w");
	return w->fp;
}

int wl_sw_write_file(wl_sw *w, const char *target, unsigned flags, mode_t create_mode, const void *p,
		     size_t n)
{
	int rc = wl_sw_lock(w, target, flags);
	if (rc == WL_SW_OK)
		rc = wl_sw_open(w, create_mode);
	if (rc == WL_SW_OK)
		rc = wl_sw_write(w, p, n);
	if (rc == WL_SW_OK)
		return wl_sw_commit(w);
	int e = errno;
	wl_sw_abort(w);
	errno = e;
	return rc;
}

void wl_sw_message(char *buf, size_t cap, const char *tool, const char *path, const wl_sw *w, int rc,
		   int errnum, const char *hint_links, const char *hint_readonly)
{
	char hint[160] = "";
	struct stat st;
	const char *shown = wl_esc(path);
	switch (rc) {
	case WL_SW_NOTREG:
		snprintf(buf, cap, "%s: %s: not a regular file (%s); not written", tool, shown,
			 wl_file_type_name(w->st.st_mode));
		break;
	case WL_SW_LINKS:
		if (hint_links)
			snprintf(hint, sizeof hint, " (%s gives this name a new file; the other names keep the old one)",
				 hint_links);
		snprintf(buf, cap, "%s: %s: has %ju hard links; not written%s", tool, shown, (uintmax_t)w->st.st_nlink,
			 hint);
		break;
	case WL_SW_READONLY:
		if (hint_readonly)
			snprintf(hint, sizeof hint, " (%s writes it and keeps the mode)", hint_readonly);
		snprintf(buf, cap, "%s: %s: read-only (mode %04o); not written%s", tool, shown,
			 (unsigned)(w->st.st_mode & 07777), hint);
		break;
	default:
		if (errnum == ENOENT && wl_os_lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			snprintf(buf, cap, "%s: %s: a dangling symbolic link; not written", tool, shown);
		else
			snprintf(buf, cap, "%s: %s: cannot write: %s", tool, shown, strerror(errnum));
		break;
	}
}
