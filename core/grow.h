/*
 * grow.h - a growing malloc'd array: the one doubling reallocation the
 * indexes of lint/ share.
 */
#ifndef WL_GROW_H
#define WL_GROW_H

#include <stdbool.h>
#include <stddef.h>

/**
 * Makes room for need elements of elem bytes in *p (capacity *cap
 * elements): doubles the capacity (from 16) until it is at least need and
 * reallocates.  True when the room is there; false, with *p and *cap
 * unchanged, when out of memory or when need x elem does not fit a size_t.
 */
bool wl_grow(void **p, size_t *cap, size_t need, size_t elem);

#endif
