/*
 * dump_json.c - the JSON dump of w3ddump (dump.h wl_tf_dump_json): one
 * jansson object per chunk, the format's decoded keys through a JSON sink
 * (registry.h wl_tf_sink).
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "core/escape.h"
#include "core/chunk.h"
#include "dump.h"
#include "registry.h"
#include "textform.h"

static json_t *hex_string(const uint8_t *p, size_t n)
{
	char *s = malloc(2 * n + 1);
	if (!s)
		return json_null();
	for (size_t i = 0; i < n; i++)
		snprintf(s + 2 * i, 3, "%02x", p[i]);
	s[2 * n] = 0;
	json_t *j = json_string(s);
	free(s);
	return j ? j : json_null();
}

static json_t *json_elem(wl_tf_type t, const uint8_t *p)
{
	switch (t) {
	case WL_TF_U8:
	case WL_TF_X8:
		return json_integer(p[0]);
	case WL_TF_U16:
	case WL_TF_X16:
		return json_integer(wl_le16(p));
	case WL_TF_I32:
		return json_integer((int32_t)wl_le32(p));
	case WL_TF_F32: {
		float f = wl_lef32(p);
		if (isfinite(f))
			return json_real((double)f);
		char b[32];
		snprintf(b, sizeof b, "f32bits:0x%08lX", (unsigned long)wl_le32(p));
		return json_string(b);
	}
	default:
		return json_integer(wl_le32(p));
	}
}

static json_t *json_struct(const wl_tf_struct *s, const uint8_t *p);

/* A JSON string of p[0..n) in the escaped form of core/escape.h (names,
 * texts, messages: bytes that are not UTF-8 become \xNN, so the raw bytes
 * can be read back); null when out of memory. */
static json_t *json_escaped(const uint8_t *p, size_t n)
{
	size_t len = wl_escape(NULL, 0, p, n);
	char *e = malloc(len + 1);
	json_t *j = NULL;
	if (e) {
		wl_escape(e, len + 1, p, n);
		j = json_stringn(e, len);
		free(e);
	}
	return j ? j : json_null();
}

static json_t *json_cstr(const char *s)
{
	return json_escaped((const uint8_t *)s, strlen(s));
}

/* A field value: number, array of numbers, string (names: the text before
 * the NUL, escaped), hex string, or object (nested structs). */
static json_t *json_field(const wl_tf_field *f, const uint8_t *p, size_t count)
{
	if (f->type == WL_TF_STRUCT)
		return f->sub ? json_struct(f->sub, p) : json_object();
	if (f->type == WL_TF_NAME)
		return json_escaped(p, strnlen((const char *)p, count));
	if (f->type == WL_TF_HEX)
		return hex_string(p, count);
	if (count == 1)
		return json_elem((wl_tf_type)f->type, p);
	json_t *a = json_array();
	size_t es = wl_tf_type_size((wl_tf_type)f->type);
	for (size_t i = 0; i < count; i++)
		json_array_append_new(a, json_elem((wl_tf_type)f->type, p + i * es));
	return a;
}

/* The fields of s at p as an object; a field with count 0 (the variable
 * field of a part's element) has width elements. */
static json_t *json_struct_w(const wl_tf_struct *s, const uint8_t *p, size_t width)
{
	json_t *o = json_object();
	size_t at = 0;
	for (size_t j = 0; j < s->field_count; j++) {
		const wl_tf_field *f = &s->fields[j];
		if (f->count) {
			json_object_set_new(o, f->name, json_field(f, p + at, f->count));
			at += wl_tf_field_size(f);
			continue;
		}
		json_t *a = json_array();
		size_t es = wl_tf_field_size(f);
		for (size_t i = 0; i < width; i++, at += es)
			json_array_append_new(a, json_elem((wl_tf_type)f->type, p + at));
		json_object_set_new(o, f->name, a);
	}
	return o;
}

static json_t *json_struct(const wl_tf_struct *s, const uint8_t *p)
{
	return json_struct_w(s, p, 0);
}

/* A part of a record: number (VALUE), array of numbers (VALUES), array of
 * objects (ITEMS), string or hex string (TEXT), hex string (HEX). */
static json_t *json_span(const wl_tf_span *sp, const uint8_t *p)
{
	const wl_tf_part *pt = sp->part;
	const uint8_t *q = p + sp->at;
	switch (pt->kind) {
	case WL_TF_PART_VALUE:
		return json_elem((wl_tf_type)pt->type, q);
	case WL_TF_PART_VALUES: {
		json_t *a = json_array();
		for (size_t i = 0; i < sp->count; i++)
			json_array_append_new(a, json_elem((wl_tf_type)pt->type, q + i * sp->elem_size));
		return a;
	}
	case WL_TF_PART_ITEMS: {
		json_t *a = json_array();
		for (size_t i = 0; i < sp->count; i++)
			json_array_append_new(a, json_struct_w(pt->elem, q + i * sp->elem_size, sp->width));
		return a;
	}
	case WL_TF_PART_TEXT:
		return json_escaped(q, strnlen((const char *)q, sp->count));
	default:
		return hex_string(q, sp->count);
	}
}

static json_t *json_nodes(const wl_doc *d, const wl_chunk *parent);

/* The JSON sink (textform/registry.h): a format's decoded keys (B3D) as
 * one object: values as numbers or arrays, names as strings, lists as
 * arrays of objects (mapping records) or of arrays (sequence records), the
 * bytes after the last record as "tail" (hex).  Every record, like the
 * JSON dump's items. */
enum { JSON_DEPTH = 4 };
typedef struct json_sink {
	json_t *stack[JSON_DEPTH]; /* stack[0]: the object; then list, record */
	int top;
} json_sink;

static void j_put(json_sink *j, const char *key, json_t *v)
{
	json_t *at = j->stack[j->top];
	if (json_is_array(at))
		json_array_append_new(at, v);
	else
		json_object_set_new(at, key ? key : "", v);
}

static void j_value(void *ctx, const char *key, const wl_tf_field *f, const uint8_t *p, size_t count, bool seq)
{
	json_sink *j = ctx;
	if (!seq) {
		j_put(j, key, json_elem((wl_tf_type)f->type, p));
		return;
	}
	json_t *a = json_array();
	for (size_t i = 0; i < count; i++)
		json_array_append_new(a, json_elem((wl_tf_type)f->type, p + i * wl_tf_field_size(f)));
	j_put(j, key, a);
}


static void j_name(void *ctx, const char *key, const uint8_t *p, size_t n)
{
	j_put(ctx, key, json_escaped(p, n - 1));
}

static void j_push(json_sink *j, const char *key, json_t *v)
{
	if (j->top + 1 >= JSON_DEPTH) { /* deeper than any layout: not kept */
		json_decref(v);
		return;
	}
	j_put(j, key, v); /* the container keeps its reference */
	j->stack[++j->top] = v;
}

static void j_list(void *ctx, const char *key, bool begin, size_t count)
{
	json_sink *j = ctx;
	(void)count;
	if (begin)
		j_push(j, key, json_array());
	else if (j->top > 0)
		j->top--;
}

static void j_item(void *ctx, bool mapping, bool begin)
{
	json_sink *j = ctx;
	if (begin)
		j_push(j, NULL, mapping ? json_object() : json_array());
	else if (j->top > 0)
		j->top--;
}


static void j_tail(void *ctx, const uint8_t *p, size_t n)
{
	j_put(ctx, "tail", hex_string(p, n));
}

/* The decoded keys of c as an object, or NULL when its format does not
 * decode them. */
static json_t *json_decoded(const wl_doc *d, const wl_chunk *c)
{
	json_sink j = { { json_object() }, 0 };
	wl_tf_sink s = { &j, j_value, j_name, j_list, j_item, j_tail };
	if (wl_tf_decode(d, c, &s))
		return j.stack[0];
	json_decref(j.stack[0]);
	return NULL;
}

static json_t *json_node(const wl_doc *d, const wl_chunk *c)
{
	json_t *j = json_object();
	char m[160];
	json_object_set_new(j, "kind", json_string(c->kind == WL_NODE_GAP ? "gap" : "chunk"));
	json_object_set_new(j, "offset", json_integer((json_int_t)c->offset));
	json_object_set_new(j, "size", json_integer((json_int_t)c->size));
	wl_tf_marks(m, sizeof m, c->recovery);
	json_t *marks = json_array();
	for (char *t = strtok(m, " "); t; t = strtok(NULL, " "))
		json_array_append_new(marks, json_string(t));
	json_object_set_new(j, "recovery", marks);
	if (c->kind == WL_NODE_GAP)
		return j;
	json_object_set_new(j, "id", json_integer(c->id));
	json_object_set_new(j, "name", c->type ? json_string(c->type->short_name) : json_null());
	json_object_set_new(j, "header_size", json_integer(c->header_size));
	json_object_set_new(j, "declared_size", json_integer(c->declared_size));
	json_object_set_new(j, "container_bit", json_boolean(c->flag_bit));
	json_t *decoded = c->container && !c->fields ? NULL : json_decoded(d, c);
	if (c->container) {
		if (decoded)
			json_object_set_new(j, "fields", decoded);
		json_object_set_new(j, "children", json_nodes(d, c));
		return j;
	}
	if (decoded) { /* the format's own keys, "tail" included */
		json_object_set_new(j, "form", json_string("decoded"));
		json_object_set_new(j, "fields", decoded);
		return j;
	}
	const uint8_t *p = wl_chunk_payload(d, c);
	size_t n = (size_t)c->size;
	wl_tf_view v = wl_tf_view_of(d, c);
	static const char *const forms[] = { "hex", "string", "fields", "items" };
	json_object_set_new(j, "form", json_string(forms[v.form]));
	if (v.form == WL_TF_FORM_STRING)
		json_object_set_new(j, "string", json_escaped(p, n - 1));
	if (v.form == WL_TF_FORM_FIELDS) {
		json_object_set_new(j, "fields", json_struct(v.st, p));
		if (v.st->rest)
			json_object_set_new(j, v.st->rest->name,
					    v.st->rest->type == WL_TF_HEX
						    ? hex_string(p + v.head, v.count)
						    : json_field(v.st->rest, p + v.head, v.count));
		for (size_t i = 0; i < v.span_count; i++)
			json_object_set_new(j, v.spans[i].part->name, json_span(&v.spans[i], p));
	}
	if (v.form == WL_TF_FORM_ITEMS) {
		json_t *items = json_array();
		for (size_t i = 0; i < v.count; i++)
			json_array_append_new(items, json_struct(v.st, p + i * v.elem_size));
		json_object_set_new(j, "items", items);
	}
	json_object_set_new(j, "tail_size", json_integer((json_int_t)v.tail));
	return j;
}

static json_t *json_nodes(const wl_doc *d, const wl_chunk *parent)
{
	json_t *a = json_array();
	for (const wl_chunk *c = parent->first_child; c; c = c->next)
		json_array_append_new(a, json_node(d, c));
	return a;
}

struct json_t *wl_tf_findings_json(const wl_doc *d)
{
	json_t *fs = json_array();
	for (size_t i = 0; fs && i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		json_t *fj = json_object();
		json_object_set_new(fj, "rule", json_string(f->rule));
		json_object_set_new(fj, "offset", json_integer((json_int_t)f->offset));
		json_object_set_new(fj, "length", json_integer((json_int_t)f->length));
		json_object_set_new(fj, "message", f->message ? json_cstr(f->message) : json_null());
		json_array_append_new(fs, fj);
	}
	return fs ? fs : json_null();
}

int wl_tf_dump_json(FILE *out, const wl_doc *d, const char *path)
{
	json_t *root = json_object();
	json_object_set_new(root, "tool", json_string("w3ddump"));
	json_object_set_new(root, "path", json_cstr(path));
	json_object_set_new(root, "size", json_integer((json_int_t)d->size));
	json_object_set_new(root, "chunks", json_nodes(d, &d->root));
	const wl_tf_format *tf = wl_tf_format_of(d->format);
	if (tf && tf->model)
		json_object_set_new(root, "model", tf->model(d, true));
	json_object_set_new(root, "findings", wl_tf_findings_json(d));
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc;
}
