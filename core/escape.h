/*
 * escape.h - the one escaped form of names and other strings read from a
 * file, used by every tool and report (text, JSON, SARIF, GitHub, w3ddump),
 * so that a name can neither move a terminal's cursor nor break a JSON or
 * UTF-8 consumer, and its raw bytes can still be recovered.
 *
 * The form (C-style, unambiguous):
 *   \\          a backslash
 *   \n \r \t    newline, carriage return, tab
 *   \xNN        (two lowercase hex digits) any other control byte (0x00-0x1F,
 *               0x7F), each byte of a sequence that is not valid UTF-8
 *               (Latin-1 names of old files, overlong forms, surrogates, a
 *               sequence cut short), and each byte of a C1 control
 *               (U+0080-U+009F, UTF-8 C2 80 .. C2 9F)
 *   otherwise   the byte itself: printable ASCII and valid UTF-8 are kept
 * Reading it back: \\ -> '\', \n \r \t, \xNN -> byte NN, anything else as is.
 */
#ifndef WL_ESCAPE_H
#define WL_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Length of the valid UTF-8 sequence at p (n bytes left, n >= 1): 1-4,
 *  or 0 when it is not valid (RFC 3629: no overlong forms, no surrogates,
 *  nothing above U+10FFFF). */
size_t wl_utf8_seq(const uint8_t *p, size_t n);

/**
 * Writes the escaped form of s[0..n) into out (cap bytes, always
 * NUL-terminated when cap > 0, cut short when too small) and returns the
 * length of the whole escaped form (not counting the NUL), like snprintf.
 * At most 4 * n bytes.
 */
size_t wl_escape(char *out, size_t cap, const uint8_t *s, size_t n);

/** The escaped form of the NUL-terminated s, malloc'd; NULL when out of
 *  memory. */
char *wl_escape_dup(const char *s);

/** Writes the escaped form of s[0..n) to out. */
void wl_escape_put(FILE *out, const uint8_t *s, size_t n);

/** Longest escaped form wl_esc returns whole (bytes, without the NUL):
 *  the escape of any path of up to PATH_MAX (4096) bytes. */
#define WL_ESC_MAX (4 * 4096)

/**
 * The escaped form of the NUL-terminated s (NULL: "(null)") for one
 * message: held in one of 4 thread-local buffers used in turn, so up to 4
 * calls may appear in one printf and each thread has its own.  A form
 * longer than WL_ESC_MAX is cut at the last whole escape or UTF-8
 * sequence before it and ends "..." (never a raw control byte or a cut
 * sequence).  Every tool prints paths, archive entry names and the PBO
 * prefix through this (or wl_escape_put) in its messages.
 */
const char *wl_esc(const char *s);

/**
 * Reads the escaped form e back into raw bytes: \\ -> '\', \n \r \t,
 * \xNN (two hex digits, either case) -> byte NN; a backslash followed by
 * anything else is kept as it is (text that was never escaped reads back
 * unchanged).  out has room for strlen(e) + 1 bytes; it is NUL-terminated
 * and the number of bytes before the NUL is returned (a \x00 gives a NUL
 * inside).  wl_unescape(wl_escape(s)) == s for every s.
 */
size_t wl_unescape(char *out, const char *e);

#endif
