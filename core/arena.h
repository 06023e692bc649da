/*
 * arena.h - one bump allocator per linted file.
 *
 * Every object the reader, the decoders and the checks create for one file
 * (chunk nodes, decoded arrays, finding messages) lives in that file's arena
 * and is released at once by wl_arena_free().  There are no per-object frees.
 *
 * Allocation sizes are always computed by the caller with overflow checks
 * (wl_arena_array does the multiply itself).  A request larger than the
 * arena's limit (default 1 GiB in total) fails like out-of-memory, so a
 * hostile count can never exhaust the machine.
 *
 * Nothing here prints or exits.
 */
#ifndef WL_ARENA_H
#define WL_ARENA_H

#include <stddef.h>
#include <stdarg.h>

typedef struct wl_arena wl_arena;

/** Creates an empty arena; NULL when out of memory. limit_bytes caps the
 *  total bytes it may hand out (0 = 1 GiB). */
wl_arena *wl_arena_new(size_t limit_bytes);

/** Releases the arena and everything allocated from it. NULL is allowed. */
void wl_arena_free(wl_arena *a);

/** Returns n zeroed bytes aligned to 16, or NULL when out of memory or over
 *  the limit.  n == 0 returns a valid unique pointer. */
void *wl_arena_alloc(wl_arena *a, size_t n);

/** Zeroed array of count elements of size bytes; NULL on overflow of
 *  count*size, out of memory or over the limit. */
void *wl_arena_array(wl_arena *a, size_t count, size_t size);

/** Copies n bytes of s and appends a NUL; NULL when out of memory. */
char *wl_arena_strndup(wl_arena *a, const char *s, size_t n);

/** printf into the arena; NULL when out of memory. */
char *wl_arena_printf(wl_arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *wl_arena_vprintf(wl_arena *a, const char *fmt, va_list ap);

/** Bytes handed out so far (for benchmarks and limits). */
size_t wl_arena_used(const wl_arena *a);

#endif
