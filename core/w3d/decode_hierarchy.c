/* decode_hierarchy.c - HIERARCHY decoder and the shared name helper; see
 * hierarchy.h.  Layouts: notes/w3d_reference.md §2.3 (w3d_file.h:1290-1305). */
#include "hierarchy.h"

#include "../cursor.h"
#include "w3d_format.h"

const char *w3d_hier_name_field(wl_doc *doc, const uint8_t *p, size_t n, bool *terminated)
{
	size_t len = 0;
	while (len < n && p[len])
		len++;
	if (terminated)
		*terminated = len < n;
	char *s = wl_arena_strndup(doc->arena, (const char *)p, len);
	if (!s) {
		doc->oom = true;
		return NULL;
	}
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7E)
			s[i] = '?';
	return s;
}

static void read_vec3(wl_cursor *cur, float v[3])
{
	for (int i = 0; i < 3; i++)
		v[i] = wl_cursor_f32(cur);
}

w3d_hierarchy *w3d_decode_hierarchy(wl_doc *doc, wl_chunk *c)
{
	w3d_hierarchy *h = wl_arena_alloc(doc->arena, sizeof *h);
	if (!h) {
		doc->oom = true;
		return NULL;
	}
	h->src = c;
	h->name = "";
	c->decoded = h;
	const wl_chunk *first = NULL;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (!first)
			first = k;
		if (k->id == W3D_CHUNK_HIERARCHY_HEADER && !h->header)
			h->header = k;
		else if (k->id == W3D_CHUNK_PIVOTS && !h->pivots_chunk)
			h->pivots_chunk = k;
		else if (k->id == W3D_CHUNK_PIVOT_FIXUPS && !h->fixups_chunk)
			h->fixups_chunk = k;
	}
	h->header_first = h->header && h->header == first;
	if (h->header) {
		const wl_chunk *k = h->header;
		wl_cursor cur = wl_cursor_make(wl_chunk_payload(doc, k), (size_t)k->size, wl_chunk_payload_offset(k));
		h->header_ok = k->size >= W3D_HIERARCHY_HEADER_SIZE;
		if (h->header_ok) {
			h->version = wl_cursor_u32(&cur);
			const uint8_t *nm = wl_cursor_take(&cur, 16);
			h->name = w3d_hier_name_field(doc, nm, 16, &h->name_terminated);
			if (!h->name)
				return NULL;
			h->num_pivots = wl_cursor_u32(&cur);
			read_vec3(&cur, h->center);
			if (h->name[0])
				c->label = h->name;
		}
	}
	if (h->pivots_chunk) {
		const wl_chunk *k = h->pivots_chunk;
		size_t n = (size_t)(k->size / W3D_PIVOT_SIZE);
		h->pivots = wl_arena_array(doc->arena, n ? n : 1, sizeof *h->pivots);
		if (!h->pivots) {
			doc->oom = true;
			return NULL;
		}
		h->pivot_count = n;
		wl_cursor cur = wl_cursor_make(wl_chunk_payload(doc, k), (size_t)k->size, wl_chunk_payload_offset(k));
		for (size_t i = 0; i < n; i++) {
			w3d_pivot *p = &h->pivots[i];
			const uint8_t *nm = wl_cursor_take(&cur, 16);
			if (!nm)
				break;
			p->name = w3d_hier_name_field(doc, nm, 16, &p->name_terminated);
			if (!p->name)
				return NULL;
			p->parent = wl_cursor_u32(&cur);
			read_vec3(&cur, p->translation);
			read_vec3(&cur, p->euler);
			for (int j = 0; j < 4; j++)
				p->rotation[j] = wl_cursor_f32(&cur);
		}
	}
	if (h->fixups_chunk)
		h->fixup_count = (size_t)(h->fixups_chunk->size / W3D_PIVOT_FIXUP_SIZE);
	return h;
}
