/*
 * view.c - how the dumps split a data chunk's payload by a struct table
 * (textform.h wl_tf_classify_table): hex, string, a record with its rest
 * array and parts, or an array of elements, and the bytes left over.  The
 * table comes from the format's text form entry (registry.h); names no
 * format.
 */
#include "textform.h"

#include <string.h>

#include "core/cursor.h"

bool wl_tf_clean_text(const uint8_t *p, size_t n)
{
	if (n == 0 || p[n - 1] != 0)
		return false;
	for (size_t i = 0; i + 1 < n; i++) {
		uint8_t c = p[i];
		if (!((c >= 0x20 && c < 0x7F) || c == '\t' || c == '\n' || c == '\r'))
			return false;
	}
	return true;
}

/* Field fi of record s read from p (the record is present) as an unsigned
 * count; 0 for a field that is not a number. */
static uint64_t field_count_value(const wl_tf_struct *s, int fi, const uint8_t *p)
{
	size_t at = 0;
	for (int j = 0; j < fi; j++)
		at += wl_tf_field_size(&s->fields[j]);
	switch (s->fields[fi].type) {
	case WL_TF_U8:
	case WL_TF_X8:
		return p[at];
	case WL_TF_U16:
	case WL_TF_X16:
		return wl_le16(p + at);
	case WL_TF_U32:
	case WL_TF_X32:
		return wl_le32(p + at);
	default:
		return 0;
	}
}

/* Splits the bytes after a record's fixed fields and rest, from v->head +
 * rest, into the parts the dump writes in context `in` (see wl_tf_part). */
static void split_parts(wl_tf_view *v, const uint8_t *p, size_t n, size_t at, unsigned in)
{
	const wl_tf_struct *s = v->st;
	for (size_t i = 0; i < s->part_count && v->span_count < WL_TF_MAX_PARTS; i++) {
		const wl_tf_part *pt = &s->parts[i];
		if (!(pt->in & in))
			continue;
		size_t avail = n - at, es = 1, width = 0;
		uint64_t want = UINT64_MAX;
		if (pt->count_of >= 0 && (size_t)pt->count_of < s->field_count)
			want = field_count_value(s, pt->count_of, p) + pt->count_add;
		switch (pt->kind) {
		case WL_TF_PART_VALUE:
			want = 1;
			es = wl_tf_type_size((wl_tf_type)pt->type);
			break;
		case WL_TF_PART_VALUES:
			es = wl_tf_type_size((wl_tf_type)pt->type);
			break;
		case WL_TF_PART_ITEMS:
			if (!pt->elem)
				return;
			if (pt->width_of >= 0 && (size_t)pt->width_of < s->field_count)
				width = (size_t)field_count_value(s, pt->width_of, p);
			es = 0;
			for (size_t j = 0; j < pt->elem->field_count; j++) {
				const wl_tf_field *f = &pt->elem->fields[j];
				es += f->count ? wl_tf_field_size(f) : width * wl_tf_field_size(f);
			}
			if (es == 0)
				return; /* an element of no bytes: nothing to count */
			break;
		default: /* TEXT, HEX: bytes */
			break;
		}
		size_t fit = avail / es;
		size_t k = want < fit ? (size_t)want : fit;
		if (k) {
			wl_tf_span *sp = &v->spans[v->span_count++];
			sp->part = pt;
			sp->at = at;
			sp->count = k;
			sp->elem_size = es;
			sp->width = width;
			at += k * es;
		}
		if (k < want && want != UINT64_MAX)
			break; /* fewer than the count says: the rest is tail */
	}
	v->tail = n - at;
}

wl_tf_view wl_tf_classify_table(const wl_chunk_type *t, const wl_tf_struct *s, const uint8_t *p,
				size_t n, unsigned in)
{
	wl_tf_view v;
	memset(&v, 0, sizeof v);
	v.form = WL_TF_FORM_HEX;
	if (!t || t->child_ctx || (t->flags & WL_TYPE_OPAQUE))
		return v;
	if (t->flags & WL_TYPE_STRING) {
		if (wl_tf_clean_text(p, n))
			v.form = WL_TF_FORM_STRING;
		return v;
	}
	if (!s)
		return v;
	size_t size = wl_tf_struct_size(s);
	if (s->layout == WL_TF_ARRAY) {
		if (size == 0 || n < size)
			return v;
		v.form = WL_TF_FORM_ITEMS;
		v.st = s;
		v.elem_size = size;
		v.count = n / size;
		v.tail = n % size;
		return v;
	}
	if (n < size)
		return v;
	v.form = WL_TF_FORM_FIELDS;
	v.st = s;
	v.head = size;
	if (s->rest) {
		v.elem_size = wl_tf_field_size(s->rest);
		v.count = (n - size) / v.elem_size;
	}
	v.tail = n - size - v.count * v.elem_size;
	if (s->part_count)
		split_parts(&v, p, n, size + v.count * v.elem_size, in);
	return v;
}
