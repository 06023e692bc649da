/*
 * pattern.h - regular expressions for the declarative rules of the user
 * configuration (config.h `custom-rules:`, `match:` and `not-match:`).
 *
 * The only interface to PCRE2 in w3dlint: <pcre2.h> is included by
 * pattern.c alone.  Patterns use the PCRE2 syntax (the 8-bit library,
 * pcre2-8), compiled once when the configuration is loaded:
 *
 *   - UTF-8 mode is off and cannot be switched on from inside a pattern
 *     (PCRE2_NEVER_UTF: "(*UTF)" is a compile error), because W3D name
 *     fields are raw bytes in no declared encoding.  One byte is one
 *     character; \w, \d and [[:alpha:]] are ASCII classes.
 *   - A match is a search (unanchored) over the subject's bytes; write
 *     ^...$ to require the whole name to match.  The subject is the raw
 *     bytes of a name field up to its first NUL (given with its length, so
 *     the pattern never sees the NUL or the padding after it).
 *   - Every match runs with a match limit (WL_PATTERN_MATCH_LIMIT steps) and
 *     a backtracking depth limit (WL_PATTERN_DEPTH_LIMIT), so a pathological
 *     pattern on a long hostile subject ends with an error instead of
 *     running for hours.
 *
 * A compiled pattern is immutable: several threads may match it at once
 * (each match allocates its own match data).
 */
#ifndef WL_PATTERN_H
#define WL_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* Limits handed to pcre2_set_match_limit / pcre2_set_depth_limit. */
#define WL_PATTERN_MATCH_LIMIT 1000000u
#define WL_PATTERN_DEPTH_LIMIT 10000u

typedef struct wl_pattern wl_pattern;

/**
 * Compiles the pattern src[0..len) (bytes; need not be NUL-terminated).
 * On success returns 0 and sets *out (free with wl_pattern_free).  On a
 * syntax error returns -1, sets *out to NULL, stores in *err_offset the
 * offset in bytes into src where PCRE2 stopped (pcre2_compile's erroroffset)
 * and writes PCRE2's message (e.g. "missing closing parenthesis") into
 * msg (msgcap bytes, NUL-terminated, truncated to fit).  Out of memory is
 * also -1, with *err_offset 0 and the message "out of memory".
 */
int wl_pattern_compile(const char *src, size_t len, wl_pattern **out, size_t *err_offset,
		       char *msg, size_t msgcap);

/**
 * Searches subject[0..len) (raw bytes) for the pattern.  Returns 1 when it
 * matches, 0 when it does not, and a negative PCRE2 error code when the
 * match could not be decided (limit reached, out of memory); describe the
 * code with wl_pattern_error.
 */
int wl_pattern_match(const wl_pattern *p, const uint8_t *subject, size_t len);

/** Writes PCRE2's message for a negative code returned by wl_pattern_match
 *  into buf (cap bytes, NUL-terminated). */
void wl_pattern_error(int code, char *buf, size_t cap);

/** The pattern text as compiled, NUL-terminated (a copy owned by p). */
const char *wl_pattern_source(const wl_pattern *p);

/** Releases the pattern.  NULL is allowed. */
void wl_pattern_free(wl_pattern *p);

#endif
