/* decode_hlod.c - HLOD and BOX decoders; see hierarchy.h.  Layouts:
 * notes/w3d_reference.md §2.7 and §2.9 (w3d_file.h:1979-1997, 2029-2037).
 *
 * Real files with a wrong HLOD size (RotWK) are recovered by the chunk
 * reader: the HLOD is extended (WL_REC_EXTENDED) or cut at the end of the
 * file (WL_REC_PAST_EOF) and its arrays stay its children.  For robustness
 * against other recoveries, HLOD_SUB_OBJECT chunks found directly under the
 * HLOD (unknown there) are attached to the array that precedes them. */
#include "hierarchy.h"

#include "core/cursor.h"
#include "decode_util.h"
#include "w3d_format.h"

/* Sub-objects that belong to the array chunk arr: its own children plus
 * stray HLOD-level sub-objects that follow it. */
static size_t count_subs(const wl_chunk *arr)
{
	size_t n = 0;
	for (const wl_chunk *k = arr->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && k->id == W3D_CHUNK_HLOD_SUB_OBJECT)
			n++;
	for (const wl_chunk *k = arr->next; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->id != W3D_CHUNK_HLOD_SUB_OBJECT)
			break;
		n++;
	}
	return n;
}

static bool decode_sub(wl_doc *doc, const wl_chunk *k, w3d_hlod_sub_object *s)
{
	wl_cursor cur = w3d_payload_cursor(doc, k);
	s->src = k;
	s->name = "";
	s->bone_index = wl_cursor_u32(&cur);
	const uint8_t *nm = wl_cursor_take(&cur, 32);
	s->ok = nm != NULL;
	if (nm) {
		s->name = w3d_name_field(doc, nm, 32, &s->name_terminated);
		if (!s->name)
			return false;
	}
	return true;
}

static bool decode_array(wl_doc *doc, const wl_chunk *arr, w3d_hlod_array *a)
{
	a->src = arr;
	a->kind = arr->id == W3D_CHUNK_HLOD_LOD_ARRAY ? W3D_HLOD_LOD
		  : arr->id == W3D_CHUNK_HLOD_AGGREGATE_ARRAY ? W3D_HLOD_AGGREGATE
							       : W3D_HLOD_PROXY;
	size_t n = count_subs(arr);
	a->subs = wl_arena_array(doc->arena, n ? n : 1, sizeof *a->subs);
	if (!a->subs)
		return false;
	a->header = w3d_find_header(arr, W3D_CHUNK_HLOD_SUB_OBJECT_ARRAY_HEADER, &a->header_first);
	if (a->header) {
		wl_cursor cur = w3d_payload_cursor(doc, a->header);
		a->model_count = wl_cursor_u32(&cur);
		a->max_screen_size = wl_cursor_f32(&cur);
		a->header_ok = !cur.short_read;
	}
	for (const wl_chunk *k = arr->first_child; k && a->sub_count < n; k = k->next) {
		if (k->kind == WL_NODE_CHUNK && k->id == W3D_CHUNK_HLOD_SUB_OBJECT &&
		    !decode_sub(doc, k, &a->subs[a->sub_count++]))
			return false;
	}
	for (const wl_chunk *k = arr->next; k && a->sub_count < n; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->id != W3D_CHUNK_HLOD_SUB_OBJECT)
			break;
		if (!decode_sub(doc, k, &a->subs[a->sub_count++]))
			return false;
	}
	return true;
}

w3d_hlod *w3d_decode_hlod(wl_doc *doc, wl_chunk *c)
{
	w3d_hlod *h = w3d_alloc_decoded(doc, &(w3d_hlod){ .src = c, .name = "", .hierarchy_name = "" },
					sizeof *h);
	if (!h)
		return NULL;
	size_t nl = 0, na = 0, np = 0;
	h->header = w3d_find_header(c, W3D_CHUNK_HLOD_HEADER, &h->header_first);
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->id == W3D_CHUNK_HLOD_LOD_ARRAY)
			nl++;
		else if (k->id == W3D_CHUNK_HLOD_AGGREGATE_ARRAY)
			na++;
		else if (k->id == W3D_CHUNK_HLOD_PROXY_ARRAY)
			np++;
	}
	h->lods = wl_arena_array(doc->arena, nl ? nl : 1, sizeof *h->lods);
	h->aggregates = wl_arena_array(doc->arena, na ? na : 1, sizeof *h->aggregates);
	h->proxies = wl_arena_array(doc->arena, np ? np : 1, sizeof *h->proxies);
	if (!h->lods || !h->aggregates || !h->proxies)
		return w3d_oom(doc);
	if (h->header && h->header->size >= W3D_HLOD_HEADER_SIZE) {
		wl_cursor cur = w3d_payload_cursor(doc, h->header);
		h->version = wl_cursor_u32(&cur);
		h->lod_count = wl_cursor_u32(&cur);
		const uint8_t *n1 = wl_cursor_take(&cur, 16);
		const uint8_t *n2 = wl_cursor_take(&cur, 16);
		h->name = w3d_name_field(doc, n1, 16, NULL);
		h->hierarchy_name = w3d_name_field(doc, n2, 16, NULL);
		if (!h->name || !h->hierarchy_name)
			return w3d_oom(doc);
		h->header_ok = true;
		w3d_set_label(doc, c, h->name);
	}
	/* LOD arrays are contiguous when they directly follow the header with
	 * nothing but LOD arrays in between (A6); stray sub-objects attached
	 * to an array do not break the run. */
	h->lods_contiguous = true;
	int state = 0; /* 0 before the header, 1 in the LOD run, 2 after it */
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k == h->header) {
			state = 1;
		} else if (k->id == W3D_CHUNK_HLOD_LOD_ARRAY) {
			if (state != 1)
				h->lods_contiguous = false;
			if (!decode_array(doc, k, &h->lods[h->lod_array_count++]))
				return w3d_oom(doc);
		} else if (k->id != W3D_CHUNK_HLOD_SUB_OBJECT) {
			if (state == 1)
				state = 2;
			if (k->id == W3D_CHUNK_HLOD_AGGREGATE_ARRAY) {
				if (!decode_array(doc, k, &h->aggregates[h->aggregate_count++]))
					return w3d_oom(doc);
			} else if (k->id == W3D_CHUNK_HLOD_PROXY_ARRAY) {
				if (!decode_array(doc, k, &h->proxies[h->proxy_count++]))
					return w3d_oom(doc);
			}
		}
	}
	return h;
}

w3d_box *w3d_decode_box(wl_doc *doc, wl_chunk *c)
{
	w3d_box *b = w3d_alloc_decoded(doc, &(w3d_box){ .src = c, .name = "" }, sizeof *b);
	if (!b)
		return NULL;
	wl_cursor cur = w3d_payload_cursor(doc, c);
	b->version = wl_cursor_u32(&cur);
	b->attributes = wl_cursor_u32(&cur);
	const uint8_t *nm = wl_cursor_take(&cur, 32);
	for (int i = 0; i < 3; i++)
		b->color[i] = wl_cursor_u8(&cur);
	(void)wl_cursor_u8(&cur);
	w3d_read_f32s(&cur, b->center, 3);
	w3d_read_f32s(&cur, b->extent, 3);
	b->ok = !cur.short_read;
	if (nm) {
		b->name = w3d_label_from_field(doc, c, nm, 32, &b->name_terminated);
		if (!b->name)
			return NULL;
	}
	return b;
}

size_t w3d_hlod_sub_object_count(const w3d_hlod *h)
{
	size_t n = 0;
	for (size_t i = 0; i < h->lod_array_count; i++)
		n += h->lods[i].sub_count;
	return n;
}
