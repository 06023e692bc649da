/* printf.h - the archetype of the format attribute of printf-like
 * functions (part of the platform layer, core/platform.h): MinGW-w64's C99
 * printf (gnu_printf, which the Windows build asks for with
 * __USE_MINGW_ANSI_STDIO, so %zu and %lld are checked as they run) where
 * its <stdio.h> names one, else printf. */
#ifndef WL_PLATFORM_PRINTF_H
#define WL_PLATFORM_PRINTF_H

#include <stdio.h>

#ifdef __MINGW_PRINTF_FORMAT
#define WL_PRINTF_FMT __MINGW_PRINTF_FORMAT
#else
#define WL_PRINTF_FMT printf
#endif

#endif
