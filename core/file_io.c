/* file_io.c - reading a whole file; see file_io.h. */
#include "file_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int wl_read_file(const char *path, size_t limit, uint8_t **out, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return WL_READ_OPEN;
	size_t cap = 65536, n = 0;
	uint8_t *buf = malloc(cap);
	int rc = buf ? WL_READ_OK : WL_READ_NOMEM;
	while (rc == WL_READ_OK) {
		if (n == cap) {
			if (cap >= limit) {
				rc = WL_READ_BIG;
				break;
			}
			uint8_t *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
			if (!nb) {
				rc = WL_READ_NOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n, fp);
		n += got;
		if (got == 0)
			break;
	}
	int e = errno;
	if (rc == WL_READ_OK && ferror(fp))
		rc = WL_READ_IO;
	fclose(fp);
	if (rc == WL_READ_OK) {
		*out = buf;
		*len = n;
		return WL_READ_OK;
	}
	free(buf);
	errno = rc == WL_READ_BIG ? EFBIG : rc == WL_READ_NOMEM ? ENOMEM : e;
	return rc;
}
