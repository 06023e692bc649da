/* arena.c - bump allocator; see arena.h. */
#include "arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_MIN ((size_t)64 * 1024)
#define ALIGN 16u

typedef struct block {
	struct block *next;
	size_t cap;
	size_t used;
	/* followed by cap bytes, aligned */
} block;

struct wl_arena {
	block *head;
	size_t limit;
	size_t total;
};

static unsigned char *block_data(block *b)
{
	return (unsigned char *)b + ((sizeof(block) + ALIGN - 1) & ~(size_t)(ALIGN - 1));
}

wl_arena *wl_arena_new(size_t limit_bytes)
{
	wl_arena *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->limit = limit_bytes ? limit_bytes : ((size_t)1 << 30);
	return a;
}

void wl_arena_free(wl_arena *a)
{
	if (!a)
		return;
	block *b = a->head;
	while (b) {
		block *n = b->next;
		free(b);
		b = n;
	}
	free(a);
}

void *wl_arena_alloc(wl_arena *a, size_t n)
{
	if (!a)
		return NULL;
	size_t need = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (need < n)
		return NULL; /* overflow */
	if (need == 0)
		need = ALIGN;
	if (need > a->limit - a->total)
		return NULL;
	block *b = a->head;
	if (!b || b->cap - b->used < need) {
		size_t cap = need > BLOCK_MIN ? need : BLOCK_MIN;
		size_t hdr = (sizeof(block) + ALIGN - 1) & ~(size_t)(ALIGN - 1);
		if (cap > SIZE_MAX - hdr)
			return NULL;
		block *nb = malloc(hdr + cap);
		if (!nb)
			return NULL;
		nb->cap = cap;
		nb->used = 0;
		if (b && b->cap - b->used >= BLOCK_MIN / 4 && need > BLOCK_MIN) {
			/* big one-off allocation: keep the current block on top */
			nb->next = b->next;
			b->next = nb;
		} else {
			nb->next = b;
			a->head = nb;
		}
		b = nb;
	}
	void *p = block_data(b) + b->used;
	b->used += need;
	a->total += need;
	memset(p, 0, n);
	return p;
}

void *wl_arena_array(wl_arena *a, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	return wl_arena_alloc(a, count * size);
}

char *wl_arena_strndup(wl_arena *a, const char *s, size_t n)
{
	char *p = wl_arena_alloc(a, n + 1);
	if (p && n)
		memcpy(p, s, n);
	return p;
}

char *wl_arena_vprintf(wl_arena *a, const char *fmt, va_list ap)
{
	char buf[256];
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(buf, sizeof buf, fmt, cp);
	va_end(cp);
	if (n < 0)
		return NULL;
	char *p = wl_arena_alloc(a, (size_t)n + 1);
	if (!p)
		return NULL;
	if ((size_t)n < sizeof buf)
		memcpy(p, buf, (size_t)n + 1);
	else
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *wl_arena_printf(wl_arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = wl_arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}

size_t wl_arena_used(const wl_arena *a)
{
	return a ? a->total : 0;
}
