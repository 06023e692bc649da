/* safe_write_int.h - what core/safe_write.c gives the platforms' halves of
 * the atomic write (core/platform/posix_write.c, win32_write.c). */
#ifndef WL_SAFE_WRITE_INT_H
#define WL_SAFE_WRITE_INT_H

#include <stddef.h>

/* src into dst (cap bytes); -1 with ENAMETOOLONG when it does not fit. */
int wl_sw_copy_path(char *dst, size_t cap, const char *src);

/* The temporary name of path: PATH.wltmp-TAG beside it.  When that name
 * would pass 255 bytes the file's own name is cut so that it fits, so that
 * a file with a long name can still be written.  -1 when the whole path
 * does not fit in cap. */
int wl_sw_tmp_name(char *buf, size_t cap, const char *path, const char *tag);

#endif
