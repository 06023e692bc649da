/* decode_util.c - helpers shared by the W3D decoders; see decode_util.h. */
#include "decode_util.h"

#include <string.h>


wl_cursor w3d_payload_cursor(const wl_doc *doc, const wl_chunk *k)
{
	return wl_cursor_make(wl_chunk_payload(doc, k), (size_t)k->size, wl_chunk_payload_offset(k));
}

const uint8_t *w3d_payload_clamped(const wl_doc *doc, const wl_chunk *c, size_t *len)
{
	uint64_t off = wl_chunk_payload_offset(c);
	uint64_t n = c->size;
	if (off > doc->size) {
		*len = 0;
		return doc->bytes;
	}
	if (n > doc->size - off)
		n = doc->size - off;
	*len = (size_t)n;
	return doc->bytes + off;
}

void *w3d_alloc_decoded(wl_doc *doc, const void *init, size_t size)
{
	void *p = wl_arena_alloc(doc->arena, size);
	if (!p) {
		doc->oom = true;
		return NULL;
	}
	memcpy(p, init, size);
	return p;
}

void w3d_read_f32s(wl_cursor *cur, float *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = wl_cursor_f32(cur);
}

void *w3d_oom(wl_doc *doc)
{
	doc->oom = true;
	return NULL;
}

const wl_chunk *w3d_find_header(const wl_chunk *c, uint32_t id, bool *first)
{
	const wl_chunk *first_chunk = NULL;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (!first_chunk)
			first_chunk = k;
		if (k->id == id) {
			*first = k == first_chunk;
			return k;
		}
	}
	*first = false;
	return NULL;
}

void w3d_set_label(wl_doc *doc, wl_chunk *c, const char *name)
{
	if (name && name[0])
		wl_chunk_set_label(doc, c, name);
}

const char *w3d_label_from_field(wl_doc *doc, wl_chunk *c, const uint8_t *p, size_t n,
				 bool *terminated)
{
	const char *s = w3d_name_field(doc, p, n, terminated);
	w3d_set_label(doc, c, s);
	return s;
}

bool w3d_take_rest(wl_cursor *cur, const uint8_t **data, size_t *bytes, uint64_t *offset)
{
	if (cur->short_read)
		return false;
	if (offset)
		*offset = wl_cursor_offset(cur);
	*bytes = wl_cursor_remaining(cur);
	*data = wl_cursor_take(cur, *bytes);
	return true;
}

void *w3d_decode_records(wl_doc *doc, const wl_chunk *c, size_t rec_size, size_t elem_size,
			 w3d_record_fn fn, size_t *count)
{
	size_t len;
	const uint8_t *p = w3d_payload_clamped(doc, c, &len);
	size_t n = len / rec_size;
	unsigned char *v = wl_arena_array_raw(doc->arena, n, elem_size);
	if (!v) {
		doc->oom = true;
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		fn(v + i * elem_size, p + i * rec_size);
	*count = n;
	return v;
}

const char *w3d_name_field(wl_doc *doc, const uint8_t *p, size_t n, bool *terminated)
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
	return s;
}
