/* win32_int.h - what core/platform/win32.c gives win32_write.c. */
#ifndef WL_WIN32_INT_H
#define WL_WIN32_INT_H

#include <wchar.h>

/* s (UTF-8) as a malloc'd wide string; NULL with errno (EILSEQ for bytes
 * that are not UTF-8, ENOMEM). */
wchar_t *wl_w32_wide(const char *s);

/* The errno nearest to a Windows error code (GetLastError). */
int wl_w32_errno(unsigned long e);

#endif
