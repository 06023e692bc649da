/*
 * msgargs.h - printf arguments captured now, formatted later.
 *
 * A finding's message is formatted only when a report shows or writes it
 * (core/finding.h); until then the finding keeps its format string (static
 * storage: a literal) and a record of its arguments.  Capturing walks the
 * format once and stores each argument in a packed, self-contained record:
 * numbers by value, strings copied (up to their %.Ns precision), so the
 * record stays valid after the document that the strings came from is
 * freed, and can be moved with memcpy (wl_msgargs_size bytes).
 *
 * Record layout (host byte order, read and written with memcpy, so it needs
 * no alignment): a uint32 total size, a uint32 0, then one 8-byte item per
 * argument in the order the format consumes them ('*' widths and
 * precisions first): a signed or unsigned integer widened to 64 bits, a
 * double, a pointer value, or for %s the string length (UINT64_MAX for a
 * NULL pointer) followed by the bytes and a NUL, padded to 8.
 *
 * Formatting replays the format one conversion at a time with snprintf, so
 * the text is byte for byte what vsnprintf(fmt, original arguments) gives.
 * Conversions that cannot be captured by value (%n, %m, %lc, %ls, %L...,
 * positional %N$) make capture fail; the caller formats at once instead.
 */
#ifndef WL_MSGARGS_H
#define WL_MSGARGS_H

#include <stdarg.h>
#include <stddef.h>

/* A growing text buffer for formatted messages.  Zero-initialise it;
 * wl_msgbuf_free releases it.  text is NUL-terminated (len bytes). */
typedef struct wl_msgbuf {
	char *text;
	size_t len, cap;
} wl_msgbuf;

void wl_msgbuf_free(wl_msgbuf *b);

/**
 * Captures the arguments ap of fmt into rec (cap bytes).  Returns the size
 * of the whole record, which may exceed cap: then rec holds nothing usable
 * and the caller captures again (from a va_copy) into a buffer of that
 * size.  Returns 0 when fmt has a conversion that cannot be captured.
 */
size_t wl_msgargs_capture(void *rec, size_t cap, const char *fmt, va_list ap);

/** Bytes of a record made by wl_msgargs_capture. */
size_t wl_msgargs_size(const void *rec);

/**
 * Appends fmt formatted with the arguments in rec to b.  Returns 0, or -1
 * when out of memory (b then holds a truncated text).
 */
int wl_msgargs_format(wl_msgbuf *b, const char *fmt, const void *rec);

#endif
