/*
 * main_w3ddump.c - w3ddump: the chunk tree of a W3D or B3D file, like
 * readelf: offsets, sizes, spec chunk names, recovery marks and decoded
 * fields (W3D from the struct tables, B3D through the text form's decode
 * hook, textform/registry.h wl_tf_sink)
 * (human text, --chunks for the tree only, --json for machines), or the
 * editable text form (--text, docs/textform.md) that w3dasm assembles back
 * into the same bytes.
 *
 * Exit status:
 *   0  dumped (also for damaged files: damage is shown, not an error)
 *   2  usage error, or a file that cannot be read or written
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/cursor.h"
#include "core/escape.h"
#include "core/archive/archive.h"
#include "core/file_io.h"
#include "core/filekind.h"
#include "core/format.h"
#include "core/chunk.h"
#include "textform/registry.h"
#include "textform/textform.h"
#include "archive_walk.h"
#include "opts.h"
#include "output.h"

#define EXIT_OK 0
#define EXIT_TROUBLE 2

/* Array elements shown per chunk in the human dump without --all. */
#define SHOW_ITEMS 8

typedef enum mode { MODE_HUMAN, MODE_CHUNKS, MODE_JSON, MODE_TEXT } mode;

typedef struct opts {
	mode mode;
	bool all;
	const char *output;
} opts;

enum { OPT_CHUNKS = WL_OPT_LONG_ONLY, OPT_JSON };

/* The option table: drives getopt_long, --help and --man (cli/opts.h).
 * --chunks and --json have no short letter: -c is --config and -j --jobs
 * in w3dlint. */
static const wl_opt OPTS[] = {
	{ "chunks", no_argument, OPT_CHUNKS, NULL, "the chunk tree only (no fields)" },
	{ "json", no_argument, OPT_JSON, NULL,
	  "one JSON document for machines (fields, tree, reader findings; keys described in docs/textform.md)" },
	{ "text", no_argument, 't', NULL,
	  "the editable text form (docs/textform.md; W3D and B3D files); `w3dasm` turns it back "
	  "into the same bytes" },
	{ "all", no_argument, 'a', NULL, "human dump: every array element, not only the first 8" },
	{ "output", required_argument, 'o', "FILE",
	  "write to FILE instead of standard output; a regular file only, replaced whole once the dump is "
	  "complete" },
	WL_OPT_COMMON,
};
#define OPT_COUNT (sizeof OPTS / sizeof OPTS[0])

static const wl_cli_doc DOC = {
	"w3ddump",
	"[OPTION]... FILE",
	"show the chunk tree and fields of a W3D, B3D or P3D file",
	"Show the chunk tree of a W3D, B3D or P3D (Arma ODOL/MLOD) file: offsets,\n"
	"sizes, spec chunk\n"
	"names, recovery marks for damaged parts, and decoded fields (names,\n"
	"counts, vectors; for B3D the keys of its text form: BB3D version, TEXS\n"
	"and BRUS entries, NODE transform, MESH brush, VRTS vertices, TRIS\n"
	"triangles, BONE weights, KEYS keys, ANIM frames and fps).  Damaged\n"
	"files are dumped as far as they can be read.  FILE may be ARCHIVE:PATH, a\n"
	"model entry of a BIG or PBO archive; an archive itself is listed (entries,\n"
	"archive findings; docs/archives.md).\n"
	"\n"
	"Human dump lines: OFFSET (hex, absolute) NAME (spec short name, or the id\n"
	"when unknown) id=ID size=PAYLOAD_BYTES, then marks: bit31 (bit 31 of the\n"
	"size field set), declared=N (the size field, when it differs), and the\n"
	"reader's recovery marks (truncated, clamped, extended, stray ...).",
	OPTS,
	OPT_COUNT,
	"  w3ddump tank.w3d\n"
	"  w3ddump --chunks tank.w3d\n"
	"  w3ddump --text tank.w3d > tank.txt && w3dasm tank.txt -o copy.w3d\n",
	"  0  dumped (also for damaged or garbage files)\n"
	"  2  usage error, or a file that cannot be read or written\n",
	NULL,
};

/* ------------------------------------------------------------ human */

static void human_marks(FILE *out, const wl_chunk *c)
{
	char m[160];
	if (c->kind == WL_NODE_CHUNK) {
		if (c->flag_bit)
			fputs(" bit31", out);
		if (c->declared_size != c->size)
			fprintf(out, " declared=%lu", (unsigned long)c->declared_size);
	}
	wl_tf_marks(m, sizeof m, c->recovery);
	if (m[0])
		fprintf(out, " [%s]", m);
}

/* One part of a record (a span of its view): VALUE, VALUES and TEXT on
 * one line, ITEMS one element a line (the first SHOW_ITEMS without all),
 * HEX as its size. */
static void human_span(FILE *out, const wl_tf_span *sp, const uint8_t *p, int indent, bool all)
{
	const wl_tf_part *pt = sp->part;
	const uint8_t *q = p + sp->at;
	wl_tf_field f = { pt->name, pt->type, 1, NULL };
	switch (pt->kind) {
	case WL_TF_PART_VALUE:
		fprintf(out, "%*s%s: ", indent, "", pt->name);
		wl_tf_put_value(out, &f, q);
		fputc('\n', out);
		return;
	case WL_TF_PART_VALUES:
		fprintf(out, "%*s%s: [", indent, "", pt->name);
		for (size_t i = 0; i < sp->count; i++) {
			fputs(i ? ", " : "", out);
			wl_tf_put_value(out, &f, q + i * sp->elem_size);
		}
		fputs("]\n", out);
		return;
	case WL_TF_PART_TEXT:
		fprintf(out, "%*s%s: \"", indent, "", pt->name);
		wl_escape_put(out, q, strnlen((const char *)q, sp->count));
		fprintf(out, "\" (%zu byte(s))\n", sp->count);
		return;
	case WL_TF_PART_HEX:
		fprintf(out, "%*s%s: %zu byte(s)\n", indent, "", pt->name, sp->count);
		return;
	default:
		break;
	}
	fprintf(out, "%*s%s: %zu element(s)\n", indent, "", pt->name, sp->count);
	size_t show = all || sp->count <= SHOW_ITEMS ? sp->count : SHOW_ITEMS;
	for (size_t i = 0; i < show; i++) {
		fprintf(out, "%*s  [%zu] ", indent, "", i);
		wl_tf_put_item(out, pt->elem, q + i * sp->elem_size, sp->width);
		fputc('\n', out);
	}
	if (show < sp->count)
		fprintf(out, "%*s  ... %zu more (--all shows every element)\n", indent, "",
			sp->count - show);
}

static void human_payload(FILE *out, const wl_doc *d, const wl_chunk *c, int indent, bool all)
{
	const uint8_t *p = wl_chunk_payload(d, c);
	size_t n = (size_t)c->size;
	wl_tf_view v = wl_tf_view_of(d, c);
	switch (v.form) {
	case WL_TF_FORM_HEX:
		return;
	case WL_TF_FORM_STRING:
		fprintf(out, "%*s\"", indent, "");
		wl_escape_put(out, p, n - 1);
		fputs("\"\n", out);
		return;
	case WL_TF_FORM_FIELDS: {
		size_t at = 0;
		for (size_t j = 0; j < v.st->field_count; j++) {
			const wl_tf_field *f = &v.st->fields[j];
			fprintf(out, "%*s%s: ", indent, "", f->name);
			wl_tf_put_value(out, f, p + at);
			fputc('\n', out);
			at += wl_tf_field_size(f);
		}
		if (v.st->rest && v.count)
			fprintf(out, "%*s%s: %zu element(s) of %zu byte(s)\n", indent, "",
				v.st->rest->name, v.count, v.elem_size);
		for (size_t i = 0; i < v.span_count; i++)
			human_span(out, &v.spans[i], p, indent, all);
		break;
	}
	case WL_TF_FORM_ITEMS: {
		size_t show = all || v.count <= SHOW_ITEMS ? v.count : SHOW_ITEMS;
		for (size_t i = 0; i < show; i++) {
			const uint8_t *e = p + i * v.elem_size;
			fprintf(out, "%*s[%zu]", indent, "", i);
			size_t at = 0;
			for (size_t j = 0; j < v.st->field_count; j++) {
				const wl_tf_field *f = &v.st->fields[j];
				if (v.st->field_count > 1)
					fprintf(out, " %s:", f->name);
				fputc(' ', out);
				wl_tf_put_value(out, f, e + at);
				at += wl_tf_field_size(f);
			}
			fputc('\n', out);
		}
		if (show < v.count)
			fprintf(out, "%*s... %zu more (--all shows every element)\n", indent, "",
				v.count - show);
		break;
	}
	}
	if (v.tail)
		fprintf(out, "%*s(%zu byte(s) left over after the fields)\n", indent, "", v.tail);
}

static void human_nodes(FILE *out, const wl_doc *d, const wl_chunk *parent, int depth,
			const opts *o)
{
	for (const wl_chunk *c = parent->first_child; c; c = c->next) {
		int ind = 2 * depth;
		if (c->kind == WL_NODE_GAP) {
			fprintf(out, "0x%08llX %*s(bytes) size=%llu", (unsigned long long)c->offset, ind,
				"", (unsigned long long)c->size);
			human_marks(out, c);
			fputc('\n', out);
			continue;
		}
		fprintf(out, "0x%08llX %*s%s id=0x%04lX size=%llu", (unsigned long long)c->offset,
			ind, "", wl_chunk_name(d, c), (unsigned long)c->id, (unsigned long long)c->size);
		if (!c->container && !c->type)
			fputs(" (unknown)", out);
		else if (!c->container) {
			wl_tf_view v = wl_tf_view_of(d, c);
			if (v.form == WL_TF_FORM_ITEMS)
				fprintf(out, " (%zu element%s)", v.count, v.count == 1 ? "" : "s");
		}
		human_marks(out, c);
		fputc('\n', out);
		if (c->container) {
			if (o->mode == MODE_HUMAN && c->fields)
				wl_tf_human_keys(out, d, c, 11 + ind + 4, o->all ? SIZE_MAX : SHOW_ITEMS);
			human_nodes(out, d, c, depth + 1, o);
		} else if (o->mode == MODE_HUMAN &&
			   !wl_tf_human_keys(out, d, c, 11 + ind + 4, o->all ? SIZE_MAX : SHOW_ITEMS)) {
			human_payload(out, d, c, 11 + ind + 4, o->all);
		}
	}
}

static void human_dump(FILE *out, const wl_doc *d, const char *path, const opts *o)
{
	fprintf(out, "%s: %llu bytes, %llu chunks\n", path, (unsigned long long)d->size,
		(unsigned long long)d->chunk_count);
	human_nodes(out, d, &d->root, 0, o);
	if (d->findings.count) {
		fprintf(out, "reader findings:\n");
		for (size_t i = 0; i < d->findings.count; i++) {
			const wl_finding *f = &d->findings.items[i];
			fprintf(out, "  0x%08llX %s: ", (unsigned long long)f->offset, f->rule);
			if (f->message)
				wl_escape_put(out, (const uint8_t *)f->message, strlen(f->message));
			fputc('\n', out);
		}
	}
}

/* ------------------------------------------------------------ JSON */

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

static json_t *json_nodes(const wl_doc *d, const wl_chunk *parent, const opts *o);

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

static json_t *json_escaped(const uint8_t *p, size_t n);

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

static json_t *hex_string(const uint8_t *p, size_t n);

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


static json_t *json_node(const wl_doc *d, const wl_chunk *c, const opts *o)
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
		json_object_set_new(j, "children", json_nodes(d, c, o));
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

static json_t *json_nodes(const wl_doc *d, const wl_chunk *parent, const opts *o)
{
	json_t *a = json_array();
	for (const wl_chunk *c = parent->first_child; c; c = c->next)
		json_array_append_new(a, json_node(d, c, o));
	return a;
}

static int json_dump(FILE *out, const wl_doc *d, const char *path, const opts *o)
{
	json_t *root = json_object();
	json_object_set_new(root, "tool", json_string("w3ddump"));
	json_object_set_new(root, "path", json_cstr(path));
	json_object_set_new(root, "size", json_integer((json_int_t)d->size));
	json_object_set_new(root, "chunks", json_nodes(d, &d->root, o));
	json_t *fs = json_array();
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		json_t *fj = json_object();
		json_object_set_new(fj, "rule", json_string(f->rule));
		json_object_set_new(fj, "offset", json_integer((json_int_t)f->offset));
		json_object_set_new(fj, "length", json_integer((json_int_t)f->length));
		json_object_set_new(fj, "message", f->message ? json_cstr(f->message) : json_null());
		json_array_append_new(fs, fj);
	}
	json_object_set_new(root, "findings", fs);
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc;
}

/* ------------------------------------------------------------ main */

/* An archive: its kind, its entries (data offset, bytes, path; packed
 * entries with their unpacked size) and its archive-* findings. */
static void dump_archive(FILE *out, const char *path, const wl_file_kind *kind, const uint8_t *bytes, size_t size)
{
	wl_archive_kind ak;
	wl_doc *d = wl_archive_kind_of(kind->id, &ak) ? wl_archive_read(ak, path, bytes, size, WL_ARCHIVE_FULL) : NULL;
	const wl_archive *a = d ? d->model : NULL;
	if (!a) {
		fprintf(out, "%s: %s\n", path, kind->title);
		wl_doc_free(d);
		return;
	}
	wl_findings_sort(&d->findings);
	fprintf(out, "%s: %s, %zu bytes, %zu entries", path, kind->title, size, a->count);
	if (a->prefix)
		fprintf(out, ", prefix '%s'", a->prefix);
	fputc('\n', out);
	for (size_t i = 0; i < a->count; i++) {
		const wl_archive_entry *e = &a->entries[i];
		fprintf(out, "  0x%08llX %10llu %s%s", (unsigned long long)e->offset, (unsigned long long)e->stored,
			e->path, e->readable ? "" : " (unreadable)");
		if (e->packed)
			fprintf(out, " (packed, %llu bytes unpacked)", (unsigned long long)e->size);
		fputc('\n', out);
	}
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		fprintf(out, "%s:0x%llX: %s [%s]\n", path, (unsigned long long)f->offset, f->message, f->rule);
	}
	wl_doc_free(d);
}

int main(int argc, char **argv)
{
	struct option longs[OPT_COUNT + 1];
	char shorts[2 * OPT_COUNT + 2];
	wl_cli_getopt_tables(&DOC, longs, shorts);
	wl_sw_signals_init();
	opts o = { MODE_HUMAN, false, NULL };
	int modes = 0, c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		switch (c) {
		case OPT_CHUNKS:
			o.mode = MODE_CHUNKS;
			modes++;
			break;
		case OPT_JSON:
			o.mode = MODE_JSON;
			modes++;
			break;
		case 't':
			o.mode = MODE_TEXT;
			modes++;
			break;
		case 'a':
			o.all = true;
			break;
		case 'o':
			o.output = optarg;
			break;
		default:
			return wl_cli_common_option(&DOC, c, argv);
		}
	}
	if (modes > 1 || optind != argc - 1) {
		fprintf(stderr, "w3ddump: %s\nTry 'w3ddump --help'.\n",
			modes > 1 ? "--chunks, --json and --text exclude each other"
			: optind >= argc ? "missing FILE"
					 : "only one FILE is allowed");
		return EXIT_TROUBLE;
	}
	const char *path = argv[optind];
	uint8_t *bytes = NULL;
	size_t size = 0;
	/* ARCHIVE:PATH names an archive's entry (cli/archive_walk.h). */
	struct stat st;
	wl_member *member = stat(path, &st) != 0 ? wl_member_find(path) : NULL;
	if (member) {
		char err[1400];
		int rc = wl_member_read("w3ddump", path, member, &bytes, &size, err, sizeof err);
		wl_member_free(member);
		if (rc != 0) {
			fprintf(stderr, "%s\n", err);
			return EXIT_TROUBLE;
		}
	} else if (wl_cli_read_input(&DOC, path, &bytes, &size) != 0) {
		return EXIT_TROUBLE;
	}
	/* An archive, image or text file (core/filekind.h) not named as a
	 * model: one line; an archive: its table (one named as a model is
	 * dumped as the bytes it is). */
	const wl_file_kind *kind =
		member || wl_format_by_extension(path) ? NULL : wl_file_kind_of(bytes, size, path);
	if (kind) {
		if (kind->archive)
			dump_archive(stdout, path, kind, bytes, size);
		else
			printf("%s: %s, not a model file\n", path, kind->title);
		free(bytes);
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_TROUBLE;
	}
	wl_doc *d = wl_format_read(wl_format_detect(bytes, size, path), path, bytes, size);
	if (!d || d->oom) {
		fprintf(stderr, "w3ddump: %s: out of memory\n", path);
		wl_doc_free(d);
		free(bytes);
		return EXIT_TROUBLE;
	}
	wl_findings_sort(&d->findings);
	wl_cli_out dest; /* cli/output.h: FILE whole or not at all */
	if (wl_cli_out_open(&DOC, &dest, o.output) != 0) {
		wl_doc_free(d);
		free(bytes);
		return EXIT_TROUBLE;
	}
	FILE *out = dest.fp;
	int rc = 0;
	switch (o.mode) {
	case MODE_TEXT:
		rc = wl_tf_write(out, d, path);
		break;
	case MODE_JSON:
		rc = json_dump(out, d, path, &o);
		break;
	default:
		human_dump(out, d, path, &o);
		break;
	}
	if (rc == 0)
		rc = wl_cli_out_close(&DOC, &dest);
	else
		fprintf(stderr, "w3ddump: %s: cannot write: %s\n", dest.name, strerror(errno ? errno : EIO));
	wl_cli_out_abort(&dest);
	wl_doc_free(d);
	free(bytes);
	return rc ? EXIT_TROUBLE : EXIT_OK;
}
