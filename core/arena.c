/* arena.c - bump allocator; see arena.h. */
#include "arena.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

#define BLOCK_MIN ((size_t)64 * 1024)
/* Blocks grow with what the arena holds (as much again: the sizes double),
 * up to BLOCK_MAX, so a large document takes few blocks; from HUGE_MIN they
 * are aligned to and advised as transparent huge pages (one page fault per
 * 2 MiB instead of per 4 KiB: most of the time of a file of many tiny
 * chunks was the kernel's).  Doubling from 64 KiB reaches HUGE_MIN after
 * 2 MiB, so a 1 MB input (about 8 MB of chunk nodes when its chunks are
 * empty) lives mostly in huge pages too: with blocks growing by half of
 * what was held and huge pages from 4 MiB, its CPU time per MB was 2.3-3x
 * that of a 10 or 50 MB input (make bench, tests/bench_scale.sh; the first
 * write to each fresh 4 KiB page costs, even after MADV_POPULATE_WRITE, on
 * a virtual machine).  A huge block's pages are faulted in only as they are
 * written, so the unused tail of the last block costs address space and
 * the shared cap's count (held), not memory. */
#define BLOCK_MAX ((size_t)32 << 20)
#define HUGE_MIN ((size_t)2 << 20)
#define HUGE_PAGE ((size_t)2 << 20)
#define ALIGN 16u
#define RESERVE 512u

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
	uint64_t held;  /* bytes of blocks drawn from the shared cap */
	bool capped;
	bool limited;   /* a request was refused by limit */
	/* Served only once the cap or the limit refused a request, so that
	 * the finding that says so can still hold its message. */
	size_t reserve_used;
	_Alignas(16) unsigned char reserve[RESERVE];
};

/* The shared cap and what all arenas hold of it. */
static _Atomic uint64_t mem_cap = WL_MEM_CAP_DEFAULT;
static _Atomic uint64_t mem_held;

void wl_mem_set_cap(uint64_t bytes)
{
	atomic_store(&mem_cap, bytes ? bytes : WL_MEM_CAP_DEFAULT);
}

uint64_t wl_mem_cap(void)
{
	return atomic_load(&mem_cap);
}

uint64_t wl_mem_held(void)
{
	return atomic_load(&mem_held);
}

/* Draws n bytes from the shared cap; false when it would pass the cap. */
static bool draw(uint64_t n)
{
	uint64_t cap = atomic_load(&mem_cap);
	uint64_t cur = atomic_load(&mem_held);
	do {
		if (n > cap || cur > cap - n)
			return false;
	} while (!atomic_compare_exchange_weak(&mem_held, &cur, cur + n));
	return true;
}

int wl_mem_parse_size(const char *s, uint64_t *out)
{
	if (!s || !isdigit((unsigned char)*s))
		return -1;
	uint64_t v = 0;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	unsigned shift = 0;
	switch (toupper((unsigned char)*s)) {
	case 'K': shift = 10; break;
	case 'M': shift = 20; break;
	case 'G': shift = 30; break;
	case 'T': shift = 40; break;
	default: break;
	}
	if (shift) {
		s++;
		if (*s == 'i' || *s == 'I')
			s++;
		if (*s == 'b' || *s == 'B')
			s++;
	} else if (*s == 'b' || *s == 'B') {
		s++;
	}
	if (*s || v == 0 || v > UINT64_MAX >> shift)
		return -1;
	*out = v << shift;
	return 0;
}

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
		wl_os_aligned_free(b);
		b = n;
	}
	atomic_fetch_sub(&mem_held, a->held);
	free(a);
}

/* Fault in the whole pages of a new block [p, p + n) with one system call
 * (MADV_POPULATE_WRITE, Linux 5.14) instead of one page fault per 4 KiB
 * page as the block fills: blocks are filled front to back, so the pages
 * are written anyway, and a fault costs more than the zeroing it brings
 * (make bench, tests/bench_scale.sh: a 1 MB file of empty chunks took three
 * times the CPU per MB of a 10 MB one, which gets huge pages).  Where the
 * kernel lacks it the call fails and the pages fault as before. */
static void populate(void *p, size_t n)
{
	wl_os_prefault(p, n);
}

/* n zeroed bytes (need rounded up) from the reserve, or NULL. */
static void *from_reserve(wl_arena *a, size_t n, size_t need)
{
	if (need > RESERVE - a->reserve_used)
		return NULL;
	void *p = a->reserve + a->reserve_used;
	a->reserve_used += need;
	memset(p, 0, n);
	return p;
}

/* wl_arena_alloc; with use_reserve, a request refused by the cap or the
 * limit is served from the reserve when it fits; zero: the bytes are
 * zeroed (always when from the reserve). */
static void *alloc(wl_arena *a, size_t n, bool use_reserve, bool zero)
{
	if (!a)
		return NULL;
	size_t need = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (need < n)
		return NULL; /* overflow */
	if (need == 0)
		need = ALIGN;
	if (need > a->limit - a->total) {
		a->limited = true;
		return use_reserve ? from_reserve(a, n, need) : NULL;
	}
	block *b = a->head;
	if (!b || b->cap - b->used < need) {
		size_t grow = (size_t)(a->held);
		if (grow > BLOCK_MAX)
			grow = BLOCK_MAX;
		/* no block larger than what the limit still allows */
		size_t room = a->limit - a->total;
		if (grow > room)
			grow = room;
		if (grow < BLOCK_MIN)
			grow = BLOCK_MIN;
		size_t cap = need > grow ? need : grow;
		size_t hdr = (sizeof(block) + ALIGN - 1) & ~(size_t)(ALIGN - 1);
		if (cap > SIZE_MAX - hdr - HUGE_PAGE)
			return NULL;
		bool huge = cap == grow && cap >= HUGE_MIN;
		if (huge) /* whole huge pages */
			cap = ((hdr + cap + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1)) - hdr;
		if (!draw(hdr + cap)) {
			a->capped = true;
			return use_reserve ? from_reserve(a, n, need) : NULL;
		}
		block *nb = NULL;
		if (huge) {
			nb = wl_os_aligned_alloc(HUGE_PAGE, hdr + cap);
			if (nb)
				wl_os_advise_huge(nb, hdr + cap);
		} else {
			nb = wl_os_aligned_alloc(0, hdr + cap);
			if (nb)
				populate(nb, hdr + cap);
		}
		if (!nb) {
			atomic_fetch_sub(&mem_held, hdr + cap);
			return NULL;
		}
		a->held += hdr + cap;
		nb->cap = cap;
		nb->used = 0;
		if (b && b->cap - b->used >= BLOCK_MIN / 4 && need > grow) {
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
	if (zero)
		memset(p, 0, n);
	return p;
}

void *wl_arena_alloc(wl_arena *a, size_t n)
{
	return alloc(a, n, false, true);
}

void *wl_arena_array(wl_arena *a, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	return wl_arena_alloc(a, count * size);
}

void *wl_arena_array_raw(wl_arena *a, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	return alloc(a, count * size, false, false);
}

char *wl_arena_strndup(wl_arena *a, const char *s, size_t n)
{
	char *p = alloc(a, n + 1, false, false);
	if (!p)
		return NULL;
	if (n)
		memcpy(p, s, n);
	p[n] = 0;
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
	char *p = alloc(a, (size_t)n + 1, true, false); /* written whole below */
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

bool wl_arena_capped(const wl_arena *a)
{
	return a && a->capped;
}

bool wl_arena_limited(const wl_arena *a)
{
	return a && a->limited;
}

size_t wl_arena_limit(const wl_arena *a)
{
	return a ? a->limit : 0;
}

void wl_arena_raise_limit(wl_arena *a, size_t limit_bytes)
{
	if (a && limit_bytes > a->limit)
		a->limit = limit_bytes;
}
