/* safe_write_int.h - what core/safe_write.c gives the platforms' halves of
 * the atomic write (core/platform/posix_write.c, win32_write.c). */
#ifndef WL_SAFE_WRITE_INT_H
#define WL_SAFE_WRITE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "safe_write.h"

/* src into dst (cap bytes); -1 with ENAMETOOLONG when it does not fit. */
int wl_sw_copy_path(char *dst, size_t cap, const char *src);

/* The temporary name of path: PATH.wltmp-TAG beside it.  When that name
 * would pass 255 bytes the file's own name is cut so that it fits, so that
 * a file with a long name can still be written.  -1 when the whole path
 * does not fit in cap. */
int wl_sw_tmp_name(char *buf, size_t cap, const char *path, const char *tag);

/* The platform's: forgets w's named temporary file (removing it first
 * when remove_it), freeing its slot for the interrupt handlers
 * (core/platform/posix_write.c, win32_write.c). */
void wl_sw_tmp_forget(wl_sw *w, bool remove_it);

/* Closes w's temporary file (its stream, or its descriptor) and forgets
 * it; errno kept. */
void wl_sw_close_fd(wl_sw *w);

/* Gives the backup b, its temporary file written, the first free name of
 * PATH.bak, PATH.bak.1, ..., PATH.bak.999 through claim, which never
 * replaces a file (-1 with EEXIST when the name is taken); the name used
 * (or tried last) goes to name (cap bytes).  0, or -1 with errno. */
int wl_sw_backup_claim(const char *path, char *name, size_t cap, wl_sw *b, int (*claim)(wl_sw *b, const char *name));

#endif
