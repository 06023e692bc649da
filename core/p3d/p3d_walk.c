/* p3d_walk.c - field-by-field walking over the cursor (p3d_walk.h). */
#include "p3d_walk.h"

#include <string.h>

p3d_walker p3d_walker_make(const uint8_t *file, uint64_t end, uint64_t from)
{
	p3d_walker w;
	memset(&w, 0, sizeof w);
	w.c = wl_cursor_make(file, (size_t)end, 0);
	w.c.pos = (size_t)from;
	return w;
}

void p3d_walker_stop(p3d_walker *w, p3d_stop why, const char *what, const char *text)
{
	if (w->stop)
		return;
	w->stop = why;
	w->what = what;
	w->why = text;
	w->at = w->c.pos;
}

void p3d_walker_stop_count(p3d_walker *w, const char *what, uint64_t at, uint64_t count,
			   uint64_t need, uint64_t left)
{
	if (w->stop)
		return;
	p3d_walker_stop(w, P3D_STOP_COUNT, what, NULL);
	w->at = at;
	w->count = count;
	w->need = need;
	w->left = left;
}

uint32_t p3d_count(p3d_walker *w, const char *what, uint64_t min)
{
	uint64_t at = w->c.pos;
	uint32_t n = p3d_u32(w, what);
	uint64_t left = wl_cursor_remaining(&w->c);
	if (w->stop || (uint64_t)n * min <= left)
		return n;
	p3d_walker_stop_count(w, what, at, n, (uint64_t)n * min, left);
	return 0;
}

bool p3d_need(p3d_walker *w, uint64_t n, const char *what)
{
	if (w->stop)
		return false;
	if (wl_cursor_remaining(&w->c) >= n)
		return true;
	p3d_walker_stop(w, P3D_STOP_END, what, NULL);
	return false;
}

uint8_t p3d_u8(p3d_walker *w, const char *what)
{
	return p3d_need(w, 1, what) ? wl_cursor_u8(&w->c) : 0;
}

uint32_t p3d_u32(p3d_walker *w, const char *what)
{
	return p3d_need(w, 4, what) ? wl_cursor_u32(&w->c) : 0;
}

void p3d_skip(p3d_walker *w, uint64_t n, const char *what)
{
	if (p3d_need(w, n, what))
		wl_cursor_skip(&w->c, (size_t)n);
}

const char *p3d_asciiz(p3d_walker *w, const char *what)
{
	if (w->stop)
		return NULL;
	const uint8_t *s = w->c.base + w->c.pos;
	const uint8_t *z = memchr(s, 0, wl_cursor_remaining(&w->c));
	if (!z) {
		p3d_walker_stop(w, P3D_STOP_NUL, what, NULL);
		return NULL;
	}
	wl_cursor_skip(&w->c, (size_t)(z - s) + 1);
	return (const char *)s;
}
