/* patch.c - b3d_fix_patch (fixers.h): replaces bytes of a B3D chunk at an
 * absolute input offset, in a container's fields (NODE transform, MESH
 * brush_id) or a data chunk's payload. */
#include "fixers.h"

#include <string.h>

int b3d_fix_patch(wl_doc *d, wl_chunk *c, uint64_t at, const uint8_t *bytes, size_t n, uint8_t *old)
{
	uint64_t start = wl_chunk_payload_offset(c);
	size_t len;
	const uint8_t *cur = c->container ? wl_edit_fields(d, c, &len) : wl_edit_payload(d, c, &len);
	if (c->kind != WL_NODE_CHUNK || !cur || at < start || at - start > len || n > len - (at - start))
		return -1;
	size_t k = (size_t)(at - start);
	uint8_t *q = wl_arena_alloc(d->arena, len);
	if (!q) {
		d->oom = true;
		return -1;
	}
	memcpy(q, cur, len);
	if (old)
		memcpy(old, q + k, n);
	memcpy(q + k, bytes, n);
	return c->container ? wl_edit_set_fields(d, c, q, len) : wl_edit_set_payload(d, c, q, len);
}
