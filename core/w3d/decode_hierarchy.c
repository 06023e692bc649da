/* decode_hierarchy.c - HIERARCHY decoder and the shared name helper; see
 * hierarchy.h.  Layouts: notes/w3d_reference.md §2.3 (w3d_file.h:1290-1305). */
#include "hierarchy.h"

#include "core/cursor.h"
#include "decode_util.h"
#include "w3d_format.h"

w3d_hierarchy *w3d_decode_hierarchy(wl_doc *doc, wl_chunk *c)
{
	w3d_hierarchy *h = w3d_alloc_decoded(doc, &(w3d_hierarchy){ .src = c, .name = "" }, sizeof *h);
	if (!h)
		return NULL;
	h->header = w3d_find_header(c, W3D_CHUNK_HIERARCHY_HEADER, &h->header_first);
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->id == W3D_CHUNK_PIVOTS && !h->pivots_chunk)
			h->pivots_chunk = k;
		else if (k->id == W3D_CHUNK_PIVOT_FIXUPS && !h->fixups_chunk)
			h->fixups_chunk = k;
	}
	if (h->header) {
		const wl_chunk *k = h->header;
		wl_cursor cur = w3d_payload_cursor(doc, k);
		h->header_ok = k->size >= W3D_HIERARCHY_HEADER_SIZE;
		if (h->header_ok) {
			h->version = wl_cursor_u32(&cur);
			const uint8_t *nm = wl_cursor_take(&cur, 16);
			h->name = w3d_label_from_field(doc, c, nm, 16, &h->name_terminated);
			if (!h->name)
				return NULL;
			h->num_pivots = wl_cursor_u32(&cur);
			w3d_read_f32s(&cur, h->center, 3);
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
		wl_cursor cur = w3d_payload_cursor(doc, k);
		for (size_t i = 0; i < n; i++) {
			w3d_pivot *p = &h->pivots[i];
			const uint8_t *nm = wl_cursor_take(&cur, 16);
			if (!nm)
				break;
			p->name = w3d_name_field(doc, nm, 16, &p->name_terminated);
			if (!p->name)
				return NULL;
			p->parent = wl_cursor_u32(&cur);
			w3d_read_f32s(&cur, p->translation, 3);
			w3d_read_f32s(&cur, p->euler, 3);
			w3d_read_f32s(&cur, p->rotation, 4);
		}
	}
	if (h->fixups_chunk)
		h->fixup_count = (size_t)(h->fixups_chunk->size / W3D_PIVOT_FIXUP_SIZE);
	return h;
}
