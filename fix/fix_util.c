/* fix_util.c - helpers shared by the fixers (fix.h). */
#include "fix.h"

#include <stdlib.h>
#include <string.h>

wl_chunk *wl_fix_mut(wl_doc *d, const wl_chunk *c)
{
	const wl_chunk *chain[WL_MAX_DEPTH + 4];
	int n = 0;
	for (const wl_chunk *k = c; k && k->kind != WL_NODE_ROOT; k = k->parent) {
		if (n == (int)(sizeof chain / sizeof chain[0]))
			return NULL;
		chain[n++] = k;
	}
	wl_chunk *at = &d->root;
	for (int i = n - 1; i >= 0; i--) {
		wl_chunk *k = at->first_child;
		while (k && k != chain[i])
			k = k->next;
		if (!k)
			return NULL;
		at = k;
	}
	return at == &d->root ? NULL : at;
}

void wl_fix_put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

void wl_fix_put_f32(uint8_t *p, float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	wl_fix_put_u32(p, u);
}

uint8_t *wl_fix_payload_copy(wl_doc *d, wl_chunk *c, size_t *len)
{
	const uint8_t *cur = wl_edit_payload(d, c, len);
	uint8_t *buf = wl_arena_alloc(d->arena, *len);
	if (!buf) {
		d->oom = true;
		return NULL;
	}
	memcpy(buf, cur, *len);
	return buf;
}

int wl_fix_patch_u32(wl_doc *d, wl_chunk *c, size_t at, uint32_t v, uint32_t *old)
{
	size_t len;
	const uint8_t *p = wl_edit_payload(d, c, &len);
	if (c->kind != WL_NODE_CHUNK || c->container || len < 4 || at > len - 4)
		return -1;
	uint8_t *q = malloc(len);
	if (!q) {
		d->oom = true;
		return -1;
	}
	memcpy(q, p, len);
	if (old)
		*old = (uint32_t)q[at] | (uint32_t)q[at + 1] << 8 | (uint32_t)q[at + 2] << 16 |
		       (uint32_t)q[at + 3] << 24;
	wl_fix_put_u32(q + at, v);
	int rc = wl_edit_set_payload(d, c, q, len);
	free(q);
	return rc;
}
