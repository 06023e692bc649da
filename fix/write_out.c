/* write_out.c - atomic writes, symbolic links and backups; see write_out.h. */
#include "write_out.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes the bytes to a new temporary file named after base (its name goes
 * to tmp, cap bytes), with mode, fsync'ed and closed. */
static int write_temp(const char *base, const uint8_t *p, size_t n, mode_t mode, char *tmp,
		      size_t cap)
{
	if (snprintf(tmp, cap, "%s.w3dfix-XXXXXX", base) >= (int)cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	int fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(fd, p + done, n - done);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		done += (size_t)w;
	}
	if (fchmod(fd, mode) != 0 || fsync(fd) != 0)
		goto fail;
	int rc = close(fd);
	fd = -1;
	if (rc == 0)
		return 0;
fail:;
	int e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = e;
	return -1;
}

int wl_fix_write_atomic(const char *target, const uint8_t *p, size_t n, mode_t mode)
{
	char tmp[PATH_MAX + 32];
	if (write_temp(target, p, n, mode, tmp, sizeof tmp) != 0)
		return -1;
	if (rename(tmp, target) == 0)
		return 0;
	int e = errno;
	unlink(tmp);
	errno = e;
	return -1;
}

int wl_fix_resolve_link(const char *path, char *buf, size_t cap, bool *is_link)
{
	struct stat st;
	*is_link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
	if (!*is_link) {
		if (snprintf(buf, cap, "%s", path) >= (int)cap) {
			errno = ENAMETOOLONG;
			return -1;
		}
		return 0;
	}
	char *real = realpath(path, NULL);
	if (!real)
		return -1;
	int rc = 0;
	if (snprintf(buf, cap, "%s", real) >= (int)cap) {
		errno = ENAMETOOLONG;
		rc = -1;
	}
	free(real);
	return rc;
}

int wl_fix_write_backup(const char *path, const uint8_t *p, size_t n, mode_t mode, char *name,
			size_t cap)
{
	char tmp[PATH_MAX + 32];
	snprintf(name, cap, "%s.bak", path); /* named in the caller's message on failure */
	if (write_temp(path, p, n, mode, tmp, sizeof tmp) != 0)
		return -1;
	int rc = -1;
	for (unsigned k = 0; k < 1000; k++) {
		int len = k ? snprintf(name, cap, "%s.bak.%u", path, k) : snprintf(name, cap, "%s.bak", path);
		if (len >= (int)cap) {
			errno = ENAMETOOLONG;
			break;
		}
		if (link(tmp, name) == 0) {
			rc = 0;
			break;
		}
		if (errno == EPERM || errno == ENOSYS || errno == EOPNOTSUPP) {
			/* no hard links here (e.g. FAT): take the name if it is free */
			struct stat st;
			if (lstat(name, &st) == 0)
				continue;
			rc = errno == ENOENT && rename(tmp, name) == 0 ? 0 : -1;
			break;
		}
		if (errno != EEXIST)
			break;
	}
	int e = errno;
	unlink(tmp);
	errno = e;
	return rc;
}
