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
 * Every arena of the process also draws its blocks from one shared memory
 * cap (wl_mem_set_cap; default WL_MEM_CAP_DEFAULT): the files being read at
 * once by parallel workers together never hold more than the cap in their
 * arenas, whatever their number.  An allocation that would pass it fails
 * like out-of-memory and marks the arena (wl_arena_capped), so the caller
 * can say that the cap, not the machine, stopped it.  A message
 * (wl_arena_printf) that the cap or the arena's limit refuses is served from
 * a 512-byte reserve inside the arena while that lasts, so the finding that
 * reports the cap still holds its message.
 *
 * Nothing here prints or exits.
 */
#ifndef WL_ARENA_H
#define WL_ARENA_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "platform/printf.h"

/* Default shared memory cap: 2 GiB. */
#define WL_MEM_CAP_DEFAULT ((uint64_t)2 << 30)

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

/** wl_arena_array without the zeroing, for a caller that writes every
 *  byte before reading any (decoders filling whole records). */
void *wl_arena_array_raw(wl_arena *a, size_t count, size_t size);

/** Copies n bytes of s and appends a NUL; NULL when out of memory. */
char *wl_arena_strndup(wl_arena *a, const char *s, size_t n);

/** printf into the arena; NULL when out of memory. */
char *wl_arena_printf(wl_arena *a, const char *fmt, ...)
	__attribute__((format(WL_PRINTF_FMT, 2, 3)));
char *wl_arena_vprintf(wl_arena *a, const char *fmt, va_list ap)
	__attribute__((format(WL_PRINTF_FMT, 2, 0)));

/** Bytes handed out so far (for benchmarks and limits). */
size_t wl_arena_used(const wl_arena *a);

/** True once an allocation of a failed because the shared cap was reached
 *  (not its own limit, not malloc). */
bool wl_arena_capped(const wl_arena *a);

/** True once a request was refused because it would pass the arena's own
 *  limit (wl_arena_new's limit_bytes). */
bool wl_arena_limited(const wl_arena *a);

/** The arena's own limit in bytes. */
size_t wl_arena_limit(const wl_arena *a);

/** Raises a's own limit to limit_bytes (never lowers it): for a document
 *  whose memory is bounded by another measure than its byte count (an
 *  archive's table: per record, core/archive/archive.c). */
void wl_arena_raise_limit(wl_arena *a, size_t limit_bytes);

/**
 * Sets the memory cap shared by all arenas of the process, in bytes of
 * arena blocks (0: WL_MEM_CAP_DEFAULT).  Set it before arenas are made in
 * several threads; arenas already holding blocks keep them.
 */
void wl_mem_set_cap(uint64_t bytes);

/** The shared cap in bytes. */
uint64_t wl_mem_cap(void);

/** Bytes of arena blocks held now by all arenas (for benchmarks, tests). */
uint64_t wl_mem_held(void);

/**
 * Parses a memory size: a decimal count of bytes with an optional suffix
 * K, M, G or T (binary: 1024, 1024^2 ...; an optional trailing B or iB, any
 * letter case), e.g. "512M", "2GiB", "1048576".  0 on success, -1 for
 * anything else, zero or an overflow.
 */
int wl_mem_parse_size(const char *s, uint64_t *out);

#endif
