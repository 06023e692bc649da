/* stat_kinds.h - part of the platform layer (core/platform.h): the file
 * kinds a C library may not name.  MinGW-w64's <sys/stat.h> has no symbolic
 * links or sockets; the values POSIX systems use are given here, so that a
 * layer reporting a reparse point as a link (core/platform/win32.c
 * wl_os_lstat) can say so and callers test S_ISLNK on every platform. */
#ifndef WL_PLATFORM_STAT_KINDS_H
#define WL_PLATFORM_STAT_KINDS_H

#include <sys/stat.h>

#ifndef S_IFLNK
#define S_IFLNK 0120000
#endif
#ifndef S_ISLNK
#define S_ISLNK(m) (((m) & S_IFMT) == S_IFLNK)
#endif
#ifndef S_IFSOCK
#define S_IFSOCK 0140000
#endif
#ifndef S_ISSOCK
#define S_ISSOCK(m) (((m) & S_IFMT) == S_IFSOCK)
#endif
#ifndef S_IFBLK
#define S_IFBLK 0060000
#endif
#ifndef S_ISBLK
#define S_ISBLK(m) (((m) & S_IFMT) == S_IFBLK)
#endif

#endif
