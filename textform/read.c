/*
 * textform_read.c - the assembler of the text form (textform.h,
 * docs/textform.md): YAML through core/yaml_doc.h to the bytes of the
 * format its "<format>-text" key names (registry.h).
 *
 * Every error names the offending node as "name:line:column: message" and
 * stops the assembly (the first error is reported).
 */
#include "textform.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"
#include "core/grow.h"
#include "core/yaml_doc.h"
#include "registry.h"

/* Chunk nesting accepted in the text (the reader's limit, plus the top). */
#define MAX_NEST (WL_MAX_DEPTH + 1)
/* Largest payload one size field can describe: bits 0..30 beside a
 * container bit (W3D), else 32 bits (B3D's int32 length, a negative one
 * pinned as its uint32 bits). */
#define MAX_PAYLOAD 0x7FFFFFFFu
#define MAX_PAYLOAD_NO_BIT 0xFFFFFFFFu
/* Fields per struct the assembler can hold (the largest table has 17). */
#define MAX_FIELDS 32
/* A context no schema entry uses: children of unknown or data chunks. */
#define NO_CTX UINT16_MAX

typedef struct wl_tf_asm {
	const wl_ydoc *y;
	wl_tf_bytes *out;
	const wl_format *fmt; /* from the "<format>-text" key (default: the first
	                       * registered format, W3D) */
	const wl_tf_format *tf; /* fmt's text form entry */
} asm_state;

/* ------------------------------------------------------------ output */

static int grow(asm_state *a, wl_ynode at, size_t more)
{
	wl_tf_bytes *b = a->out;
	if (more <= b->cap - b->len)
		return 0;
	if (more > SIZE_MAX / 2 - b->len)
		return wl_ydoc_fail(a->y, at, "output too large");
	if (!wl_grow((void **)&b->data, &b->cap, b->len + more, 1))
		return wl_ydoc_fail(a->y, at, "out of memory");
	return 0;
}

static int put(asm_state *a, wl_ynode at, const void *p, size_t n)
{
	if (grow(a, at, n))
		return -1;
	if (n)
		memcpy(a->out->data + a->out->len, p, n);
	a->out->len += n;
	return 0;
}

static int put_zeros(asm_state *a, wl_ynode at, size_t n)
{
	if (grow(a, at, n))
		return -1;
	memset(a->out->data + a->out->len, 0, n);
	a->out->len += n;
	return 0;
}

static void le(uint8_t *p, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* ------------------------------------------------------------ scalars */

static bool has_tag(const asm_state *a, wl_ynode n, const char *tag)
{
	return strcmp(wl_ydoc_tag(a->y, n), tag) == 0;
}

/* An integer: [+-]decimal or [+-]0x hex; *neg set for a leading '-'.
 * Returns 0, or -1 when s is not one or exceeds 64 bits. */
static int parse_uint(const char *s, uint64_t *out, bool *neg)
{
	*neg = false;
	if (*s == '-' || *s == '+')
		*neg = *s++ == '-';
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	uint64_t v = 0;
	for (; *s; s++) {
		int d;
		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (base == 16 && isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			return -1;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*out = v;
	return 0;
}

/* An integer scalar in [lo, hi] (lo may be negative); stored two's
 * complement in *out. */
static int want_int(asm_state *a, wl_ynode n, const char *what, int64_t lo, uint64_t hi,
		    uint64_t *out)
{
	if (wl_ydoc_want_scalar(a->y, n, what))
		return -1;
	const char *s = wl_ydoc_text(a->y, n);
	uint64_t v;
	bool neg;
	if (parse_uint(s, &v, &neg))
		return wl_ydoc_fail(a->y, n, "%s: expected an integer (decimal or 0x hex), not '%s'",
				    what, s);
	if (neg ? (lo >= 0 || v > (uint64_t)-(lo + 1) + 1) : v > hi)
		return wl_ydoc_fail(a->y, n, "%s: %s is out of range [%lld, %llu]", what, s,
				    (long long)lo, (unsigned long long)hi);
	*out = neg ? (uint64_t)0 - v : v;
	return 0;
}

/* A float scalar: a decimal number, .inf/-.inf/.nan, or !f32bits 0xHEX. */
static int want_f32(asm_state *a, wl_ynode n, const char *what, uint32_t *out)
{
	if (wl_ydoc_want_scalar(a->y, n, what))
		return -1;
	const char *s = wl_ydoc_text(a->y, n);
	if (has_tag(a, n, "!f32bits")) {
		uint64_t v;
		if (want_int(a, n, what, 0, UINT32_MAX, &v))
			return -1;
		*out = (uint32_t)v;
		return 0;
	}
	float f;
	double d;
	if (wl_ydoc_is_plain(a->y, n) && (!strcmp(s, ".inf") || !strcmp(s, "+.inf"))) {
		f = INFINITY;
	} else if (wl_ydoc_is_plain(a->y, n) && !strcmp(s, "-.inf")) {
		f = -INFINITY;
	} else if (wl_ydoc_is_plain(a->y, n) && !strcmp(s, ".nan")) {
		*out = 0x7FC00000u;
		return 0;
	} else if (wl_ydoc_number(a->y, n, &d) == 0) {
		f = strtof(s, NULL);
		if (isinf(f))
			return wl_ydoc_fail(a->y, n, "%s: %s does not fit a 32-bit float", what, s);
	} else {
		return wl_ydoc_fail(a->y, n,
				    "%s: expected a number, .inf, .nan or !f32bits 0x..., not '%s'",
				    what, s);
	}
	memcpy(out, &f, sizeof *out);
	return 0;
}

/* Hex bytes ("00 1a ff", whitespace ignored) appended to the output;
 * exactly `want` bytes unless want is SIZE_MAX. */
static int put_hex_text(asm_state *a, wl_ynode n, const char *what, size_t want)
{
	if (wl_ydoc_want_scalar(a->y, n, what))
		return -1;
	const char *s = wl_ydoc_text(a->y, n);
	size_t start = a->out->len, digits = 0;
	int hi = -1;
	for (const char *p = s; *p; p++) {
		if (isspace((unsigned char)*p))
			continue;
		if (!isxdigit((unsigned char)*p))
			return wl_ydoc_fail(a->y, n, "%s: '%c' is not a hex digit", what, *p);
		int d = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
		digits++;
		if (hi < 0) {
			hi = d;
			continue;
		}
		uint8_t byte = (uint8_t)(hi << 4 | d);
		hi = -1;
		if (put(a, n, &byte, 1))
			return -1;
	}
	if (hi >= 0)
		return wl_ydoc_fail(a->y, n, "%s: odd number of hex digits (%zu)", what, digits);
	size_t got = a->out->len - start;
	if (want != SIZE_MAX && got != want)
		return wl_ydoc_fail(a->y, n, "%s: %zu hex byte(s), expected %zu", what, got, want);
	return 0;
}

/* ------------------------------------------------------------ fields */

/* One element of type t from scalar n. */
static int put_elem(asm_state *a, wl_ynode n, const char *what, wl_tf_type t)
{
	uint8_t b[4];
	uint64_t v;
	size_t sz = wl_tf_type_size(t);
	switch (t) {
	case WL_TF_F32: {
		uint32_t bits = 0;
		if (want_f32(a, n, what, &bits))
			return -1;
		v = bits;
		break;
	}
	case WL_TF_I32:
		if (want_int(a, n, what, INT32_MIN, UINT32_MAX, &v))
			return -1;
		break;
	default:
		if (want_int(a, n, what, 0, sz == 1 ? 0xFFu : sz == 2 ? 0xFFFFu : 0xFFFFFFFFu, &v))
			return -1;
		break;
	}
	le(b, v, sz);
	return put(a, n, b, sz);
}

static int put_struct_map(asm_state *a, const wl_tf_struct *s, wl_ynode map, const char *what);

/* Field f (count elements; count 0 = a rest field with any count) from
 * node n, or zeros when n is 0. */
static int put_field(asm_state *a, wl_ynode n, const wl_tf_field *f)
{
	size_t size = wl_tf_field_size(f);
	if (!n)
		return put_zeros(a, 0, f->count ? size : 0);
	if (f->count && has_tag(a, n, "!hex"))
		return put_hex_text(a, n, f->name, size);
	if (f->type == WL_TF_STRUCT) {
		if (!f->sub)
			return wl_ydoc_fail(a->y, n, "%s: no layout", f->name);
		if (wl_ydoc_kind(a->y, n) != WL_Y_MAPPING)
			return wl_ydoc_fail(a->y, n, "%s: expected a mapping of the fields of %s", f->name,
					    f->sub->chunk);
		return put_struct_map(a, f->sub, n, f->name);
	}
	if (f->type == WL_TF_HEX)
		return put_hex_text(a, n, f->name, f->count ? size : SIZE_MAX);
	if (f->type == WL_TF_NAME) {
		if (wl_ydoc_want_scalar(a->y, n, f->name))
			return -1;
		size_t len = wl_ydoc_length(a->y, n);
		if (len > size)
			return wl_ydoc_fail(a->y, n, "%s: '%s' is %zu bytes, the field holds %zu",
					    f->name, wl_ydoc_text(a->y, n), len, size);
		if (put(a, n, wl_ydoc_text(a->y, n), len))
			return -1;
		return put_zeros(a, n, size - len);
	}
	if (f->count == 1)
		return put_elem(a, n, f->name, (wl_tf_type)f->type);
	if (wl_ydoc_kind(a->y, n) != WL_Y_SEQUENCE)
		return f->count ? wl_ydoc_fail(a->y, n, "%s: expected a sequence of %u values", f->name,
					       (unsigned)f->count)
				: wl_ydoc_fail(a->y, n, "%s: expected a sequence of values", f->name);
	size_t k = wl_ydoc_count(a->y, n);
	if (f->count && k != f->count)
		return wl_ydoc_fail(a->y, n, "%s: expected %u values, got %zu", f->name,
				    (unsigned)f->count, k);
	for (size_t i = 0; i < k; i++)
		if (put_elem(a, wl_ydoc_item(a->y, n, i), f->name, (wl_tf_type)f->type))
			return -1;
	return 0;
}

/* Index of field `key` in s, or -1. */
static int field_index(const wl_tf_struct *s, const char *key)
{
	for (size_t i = 0; i < s->field_count && i < MAX_FIELDS; i++)
		if (strcmp(s->fields[i].name, key) == 0)
			return (int)i;
	return -1;
}

/* The fields of s, in table order, from the values in fv (0: zeros). */
static int put_fields(asm_state *a, const wl_tf_struct *s, const wl_ynode *fv)
{
	for (size_t i = 0; i < s->field_count && i < MAX_FIELDS; i++)
		if (put_field(a, fv[i], &s->fields[i]))
			return -1;
	return 0;
}

/* The fields of s from mapping map (fields left out are zeros; a field
 * with count 0, the variable field of a part's element, is left out then).
 * what names the mapping in errors ("an item of PIVOTS", "Shader"). */
static int put_struct_map(asm_state *a, const wl_tf_struct *s, wl_ynode map, const char *what)
{
	wl_ynode fv[MAX_FIELDS] = { 0 };
	for (size_t i = 0; i < wl_ydoc_count(a->y, map); i++) {
		wl_ynode k = wl_ydoc_unique_key(a->y, map, i);
		if (!k)
			return -1;
		int fi = field_index(s, wl_ydoc_text(a->y, k));
		if (fi < 0)
			return wl_ydoc_fail(a->y, k, "unknown field '%s' in %s", wl_ydoc_text(a->y, k),
					    what);
		fv[fi] = wl_ydoc_value(a->y, map, i);
	}
	return put_fields(a, s, fv);
}

/* One element of an ARRAY chunk: the bare value for one-field structs,
 * else a mapping of field names. */
static int put_item(asm_state *a, const wl_tf_struct *s, wl_ynode item)
{
	if (s->field_count == 1)
		return put_field(a, item, &s->fields[0]);
	if (wl_ydoc_kind(a->y, item) != WL_Y_MAPPING)
		return wl_ydoc_fail(a->y, item, "an item of %s must be a mapping of its fields", s->chunk);
	char what[96];
	snprintf(what, sizeof what, "an item of %s", s->chunk);
	return put_struct_map(a, s, item, what);
}

/* ------------------------------------------- primitives for the hooks */

const wl_ydoc *wl_tf_asm_doc(const wl_tf_asm *a)
{
	return a->y;
}

const uint8_t *wl_tf_asm_bytes(const wl_tf_asm *a, size_t *len)
{
	*len = a->out->len;
	return a->out->data;
}

int wl_tf_asm_put(wl_tf_asm *a, wl_ynode at, const void *p, size_t n)
{
	return put(a, at, p, n);
}

void wl_tf_asm_poke(wl_tf_asm *a, size_t at, const void *p, size_t n)
{
	if (at <= a->out->len && n <= a->out->len - at)
		memcpy(a->out->data + at, p, n);
}

void wl_tf_asm_truncate(wl_tf_asm *a, size_t len)
{
	if (len <= a->out->len)
		a->out->len = len;
}

int wl_tf_asm_field(wl_tf_asm *a, wl_ynode n, const wl_tf_field *f)
{
	return put_field(a, n, f);
}

int wl_tf_asm_hex(wl_tf_asm *a, wl_ynode n, const char *what, size_t want)
{
	return put_hex_text(a, n, what, want);
}

/* ------------------------------------------------------------ parts */

/* Does part pt take YAML node n?  VALUES and ITEMS take sequences, the
 * others scalars (parts may share a key: see wl_tf_part). */
static bool part_takes(const asm_state *a, const wl_tf_part *pt, wl_ynode n)
{
	bool seq = wl_ydoc_kind(a->y, n) == WL_Y_SEQUENCE;
	return seq == (pt->kind == WL_TF_PART_VALUES || pt->kind == WL_TF_PART_ITEMS);
}

/* Index in s->parts of the part named key that takes node n: when no part
 * of that name takes it, the first part of that name (its error explains);
 * -1 when none has the name. */
static int part_index(const asm_state *a, const wl_tf_struct *s, const char *key, wl_ynode n)
{
	int first = -1;
	for (size_t i = 0; i < s->part_count && i < WL_TF_MAX_PARTS; i++) {
		if (strcmp(s->parts[i].name, key))
			continue;
		if (part_takes(a, &s->parts[i], n))
			return (int)i;
		if (first < 0)
			first = (int)i;
	}
	return first;
}

/* One element of an ITEMS part: a mapping of the element's fields. */
static int put_part_item(asm_state *a, const wl_tf_part *pt, wl_ynode item)
{
	if (wl_ydoc_kind(a->y, item) != WL_Y_MAPPING)
		return wl_ydoc_fail(a->y, item, "an item of %s must be a mapping of its fields", pt->name);
	char what[96];
	snprintf(what, sizeof what, "an item of %s", pt->name);
	return put_struct_map(a, pt->elem, item, what);
}

/* Part pt from node n. */
static int put_part(asm_state *a, const wl_tf_part *pt, wl_ynode n)
{
	const wl_ydoc *y = a->y;
	wl_tf_field f = { pt->name, pt->type, 1, NULL };
	switch (pt->kind) {
	case WL_TF_PART_VALUE:
		if (wl_ydoc_kind(y, n) != WL_Y_SCALAR)
			return wl_ydoc_fail(y, n, "%s: expected one value", pt->name);
		return put_field(a, n, &f);
	case WL_TF_PART_VALUES:
		if (wl_ydoc_kind(y, n) != WL_Y_SEQUENCE)
			return wl_ydoc_fail(y, n, "%s: expected a sequence of values", pt->name);
		for (size_t i = 0; i < wl_ydoc_count(y, n); i++)
			if (put_elem(a, wl_ydoc_item(y, n, i), pt->name, (wl_tf_type)pt->type))
				return -1;
		return 0;
	case WL_TF_PART_ITEMS:
		if (wl_ydoc_kind(y, n) != WL_Y_SEQUENCE)
			return wl_ydoc_fail(y, n, "%s: expected a sequence of items", pt->name);
		for (size_t i = 0; i < wl_ydoc_count(y, n); i++)
			if (put_part_item(a, pt, wl_ydoc_item(y, n, i)))
				return -1;
		return 0;
	case WL_TF_PART_TEXT:
		if (wl_ydoc_want_scalar(y, n, pt->name))
			return -1;
		if (has_tag(a, n, "!hex"))
			return put_hex_text(a, n, pt->name, SIZE_MAX);
		/* The text and its NUL. */
		return put(a, n, wl_ydoc_text(y, n), wl_ydoc_length(y, n) + 1);
	default:
		return put_hex_text(a, n, pt->name, SIZE_MAX);
	}
}

/* ------------------------------------------------------------ chunks */

/* The schema entry named name (short or full spec name): first in ctx,
 * then in any context. */
static const wl_chunk_type *type_by_name(const wl_format *f, uint16_t ctx, const char *name)
{
	size_t count;
	const wl_chunk_type *all = f->schema(&count);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < count; i++)
			if ((pass || all[i].ctx == ctx) &&
			    (!strcmp(all[i].short_name, name) || !strcmp(all[i].name, name)))
				return &all[i];
	return NULL;
}

static int put_nodes(asm_state *a, wl_ynode seq, uint16_t ctx, int depth, bool *had_chunk);

/* A four-character tag of printable ASCII ("SEQS") as its little-endian id
 * (formats whose ids are tags, wl_format.tag_ids). */
static bool tag_id(const char *name, uint32_t *id)
{
	if (strlen(name) != 4)
		return false;
	*id = 0;
	for (int i = 0; i < 4; i++) {
		unsigned char ch = (unsigned char)name[i];
		if (ch < 0x21 || ch > 0x7E)
			return false;
		*id |= (uint32_t)ch << (8 * i);
	}
	return true;
}

/* The reserved keys of a chunk mapping. */
typedef struct chunk_keys {
	wl_ynode chunk, size, bit, children, items, string, hex, tail, data, fields;
	bool own; /* a key of the format's hook (wl_tf_format.owns_key) */
	wl_ynode fv[MAX_FIELDS];
	wl_ynode pv[WL_TF_MAX_PARTS];
} chunk_keys;

static int put_chunk(asm_state *a, wl_ynode map, uint16_t ctx, int depth)
{
	const wl_ydoc *y = a->y;
	chunk_keys k;
	memset(&k, 0, sizeof k);
	for (size_t i = 0; i < wl_ydoc_count(y, map); i++) {
		wl_ynode key = wl_ydoc_key(y, map, i);
		if (wl_ydoc_kind(y, key) == WL_Y_SCALAR && !strcmp(wl_ydoc_text(y, key), "chunk"))
			k.chunk = wl_ydoc_value(y, map, i);
	}
	if (!k.chunk)
		return wl_ydoc_fail(y, map, "a node needs 'chunk: NAME' (or 'gap: HEX')");
	if (wl_ydoc_want_scalar(y, k.chunk, "chunk"))
		return -1;
	const char *name = wl_ydoc_text(y, k.chunk);
	uint64_t idv;
	bool neg;
	uint32_t id;
	const wl_chunk_type *t;
	if (parse_uint(name, &idv, &neg) == 0) {
		if (neg || idv > UINT32_MAX)
			return wl_ydoc_fail(y, k.chunk, "chunk id %s is out of range", name);
		id = (uint32_t)idv;
		t = a->fmt->lookup(ctx, id);
	} else {
		t = type_by_name(a->fmt, ctx, name);
		if (t) {
			id = t->id;
		} else if (a->fmt->tag_ids && tag_id(name, &id)) {
			t = a->fmt->lookup(ctx, id); /* an unknown tag: SEQS */
		} else {
			return wl_ydoc_fail(y, k.chunk,
					    "unknown chunk name '%s' (use a %s spec name or an id like 0x1234)",
					    name, a->fmt->title);
		}
	}
	const wl_tf_struct *st = t && !t->child_ctx ? wl_tf_find(a->tf, t->short_name) : NULL;
	bool own_keys = t && a->tf && a->tf->owns_key && a->tf->assemble_keys;

	for (size_t i = 0; i < wl_ydoc_count(y, map); i++) {
		wl_ynode key = wl_ydoc_unique_key(y, map, i);
		if (!key)
			return -1;
		const char *s = wl_ydoc_text(y, key);
		wl_ynode v = wl_ydoc_value(y, map, i);
		int fi, pi;
		if (!strcmp(s, "chunk"))
			continue;
		else if (!strcmp(s, "size"))
			k.size = v;
		else if (!strcmp(s, "container_bit"))
			k.bit = v;
		else if (!strcmp(s, "children"))
			k.children = v;
		else if (!strcmp(s, "items") && st && st->layout == WL_TF_ARRAY)
			k.items = v;
		else if (!strcmp(s, "string"))
			k.string = v;
		else if (!strcmp(s, "hex"))
			k.hex = v;
		else if (!strcmp(s, "tail"))
			k.tail = v;
		else if (!strcmp(s, "fields") && t && t->child_ctx && a->fmt->fields_size)
			k.fields = v;
		else if (own_keys && a->tf->owns_key(t, s))
			k.own = true;
		else if (st && st->layout == WL_TF_RECORD && st->rest && !strcmp(s, st->rest->name))
			k.data = v;
		else if (st && st->layout == WL_TF_RECORD && (fi = field_index(st, s)) >= 0)
			k.fv[fi] = v;
		else if (st && st->layout == WL_TF_RECORD && (pi = part_index(a, st, s, v)) >= 0)
			k.pv[pi] = v;
		else if (st)
			return wl_ydoc_fail(y, key, "unknown field '%s' in %s", s, st->chunk);
		else
			return wl_ydoc_fail(y, key, "unknown key '%s' in chunk %s%s", s, name,
					    t && t->child_ctx ? " (a container: use children)" : "");
	}
	bool is_container = t && t->child_ctx;
	bool fields = k.data != 0 || (k.own && !is_container);
	for (size_t i = 0; i < MAX_FIELDS; i++)
		fields = fields || k.fv[i] != 0;
	for (size_t i = 0; i < WL_TF_MAX_PARTS; i++)
		fields = fields || k.pv[i] != 0;
	/* A container's own fields go with its children. */
	bool nested = k.children || k.fields || (k.own && is_container);
	int forms = nested + (k.items != 0) + (k.string != 0) + (k.hex != 0) + fields;
	if (forms > 1)
		return wl_ydoc_fail(y, map,
				    "chunk %s: give only one of children, items, string, hex or fields",
				    name);

	size_t head = a->out->len;
	uint8_t hdr[8] = { 0 };
	if (put(a, map, hdr, sizeof hdr))
		return -1;
	bool had_chunk = false;
	if (nested && k.fields && k.own)
		return wl_ydoc_fail(y, k.fields, "chunk %s: give its fields as named keys or as "
					      "'fields: HEX', not both", name);
	if (nested && k.fields) {
		if (put_hex_text(a, k.fields, "fields", SIZE_MAX))
			return -1;
	} else if (nested && is_container && own_keys && a->tf->assemble_keys(a, t, map)) {
		return -1;
	}
	if (k.children) {
		if (depth >= MAX_NEST)
			return wl_ydoc_fail(y, k.children, "chunks nested deeper than %d levels", MAX_NEST);
		uint16_t cctx = t && t->child_ctx ? t->child_ctx : NO_CTX;
		if (put_nodes(a, k.children, cctx, depth + 1, &had_chunk))
			return -1;
	} else if (k.items) {
		if (wl_ydoc_kind(y, k.items) != WL_Y_SEQUENCE)
			return wl_ydoc_fail(y, k.items, "items must be a sequence");
		for (size_t i = 0; i < wl_ydoc_count(y, k.items); i++)
			if (put_item(a, st, wl_ydoc_item(y, k.items, i)))
				return -1;
	} else if (k.string) {
		if (wl_ydoc_kind(y, k.string) != WL_Y_SCALAR)
			return wl_ydoc_fail(y, k.string, "string must be a scalar");
		/* The text and its NUL (it may hold NULs of its own). */
		if (put(a, k.string, wl_ydoc_text(y, k.string), wl_ydoc_length(y, k.string) + 1))
			return -1;
	} else if (k.hex) {
		if (put_hex_text(a, k.hex, "hex", SIZE_MAX))
			return -1;
	} else if (fields && k.own) {
		if (a->tf->assemble_keys(a, t, map))
			return -1;
	} else if (fields) {
		if (put_fields(a, st, k.fv))
			return -1;
		if (k.data && put_field(a, k.data, st->rest))
			return -1;
		for (size_t i = 0; i < st->part_count && i < WL_TF_MAX_PARTS; i++)
			if (k.pv[i] && put_part(a, &st->parts[i], k.pv[i]))
				return -1;
	}
	if (k.tail && put_hex_text(a, k.tail, "tail", SIZE_MAX))
		return -1;

	size_t payload = a->out->len - head - sizeof hdr;
	bool has_bit = a->fmt->has_container_bit;
	uint64_t max = has_bit ? MAX_PAYLOAD : MAX_PAYLOAD_NO_BIT;
	if (payload > max)
		return wl_ydoc_fail(y, map, "chunk %s holds %zu bytes, more than a size field can say",
				    name, payload);
	uint64_t size = payload, bit = had_chunk && has_bit;
	if (k.size && want_int(a, k.size, "size", has_bit ? 0 : INT32_MIN, max, &size))
		return -1;
	size &= 0xFFFFFFFFu; /* a negative length: its two's complement bits */
	if (k.bit && !has_bit)
		return wl_ydoc_fail(y, k.bit, "container_bit: a %s chunk header has no container bit",
				    a->fmt->title);
	if (k.bit) {
		const char *s = wl_ydoc_text(y, k.bit);
		if (wl_ydoc_kind(y, k.bit) == WL_Y_SCALAR && (!strcmp(s, "true") || !strcmp(s, "false")))
			bit = s[0] == 't';
		else if (want_int(a, k.bit, "container_bit", 0, 1, &bit))
			return -1;
	}
	le(a->out->data + head, id, 4);
	le(a->out->data + head + 4, size | bit << 31, 4);
	return 0;
}

/* A sequence of chunk and gap nodes. */
static int put_nodes(asm_state *a, wl_ynode seq, uint16_t ctx, int depth, bool *had_chunk)
{
	const wl_ydoc *y = a->y;
	if (wl_ydoc_kind(y, seq) != WL_Y_SEQUENCE)
		return wl_ydoc_fail(y, seq, "expected a sequence of chunks ('- chunk: NAME')");
	for (size_t i = 0; i < wl_ydoc_count(y, seq); i++) {
		wl_ynode n = wl_ydoc_item(y, seq, i);
		if (wl_ydoc_kind(y, n) != WL_Y_MAPPING)
			return wl_ydoc_fail(y, n, "expected a chunk ('chunk: NAME') or a gap ('gap: HEX')");
		wl_ynode k0 = wl_ydoc_key(y, n, 0);
		if (wl_ydoc_count(y, n) >= 1 && !strcmp(wl_ydoc_text(y, k0), "gap")) {
			if (wl_ydoc_count(y, n) != 1)
				return wl_ydoc_fail(y, wl_ydoc_key(y, n, 1),
						    "a gap holds only 'gap: HEX', not '%s'",
						    wl_ydoc_text(y, wl_ydoc_key(y, n, 1)));
			if (put_hex_text(a, wl_ydoc_value(y, n, 0), "gap", SIZE_MAX))
				return -1;
			continue;
		}
		if (put_chunk(a, n, ctx, depth))
			return -1;
		*had_chunk = true;
	}
	return 0;
}

/* A "<format>-text" key: true, with *f the format it names (NULL when no
 * registered format has that name). */
static bool text_key_format(const char *key, const wl_format **f)
{
	size_t n = strlen(key);
	if (n < 6 || strcmp(key + n - 5, "-text") != 0)
		return false;
	char name[32];
	if (n - 5 >= sizeof name) {
		*f = NULL;
		return true;
	}
	memcpy(name, key, n - 5);
	name[n - 5] = 0;
	*f = wl_format_find(name);
	return true;
}

int wl_tf_assemble(const char *name, const char *text, size_t len, wl_tf_bytes *out, char *err,
		   size_t errcap)
{
	memset(out, 0, sizeof *out);
	wl_ydoc *y;
	if (wl_ydoc_load(name, text, len, err, errcap, &y))
		return -1;
	size_t nfmt;
	asm_state a = { y, out, wl_formats(&nfmt)[0], NULL };
	wl_ynode root = wl_ydoc_root(y), chunks = 0, whole = 0, whole_key = 0;
	int rc = 0;
	if (wl_ydoc_kind(y, root) != WL_Y_MAPPING) {
		rc = wl_ydoc_fail(y, root, "expected a mapping with 'w3d-text: %d' and 'chunks:'",
				  WL_TF_VERSION);
		goto done;
	}
	/* the format first (its "<format>-text" key), wherever it stands:
	 * the keys a format adds depend on it */
	for (size_t i = 0; i < wl_ydoc_count(y, root); i++) {
		const wl_format *f;
		wl_ynode key = wl_ydoc_key(y, root, i);
		if (wl_ydoc_kind(y, key) == WL_Y_SCALAR && text_key_format(wl_ydoc_text(y, key), &f) && f)
			a.fmt = f;
	}
	const wl_tf_format *tf = wl_tf_format_of(a.fmt);
	for (size_t i = 0; i < wl_ydoc_count(y, root) && !rc; i++) {
		wl_ynode key = wl_ydoc_unique_key(y, root, i);
		if (!key) {
			rc = -1;
			break;
		}
		const char *s = wl_ydoc_text(y, key);
		wl_ynode v = wl_ydoc_value(y, root, i);
		uint64_t ver;
		if (!strcmp(s, "chunks"))
			chunks = v;
		else if (tf && tf->doc_key && !strcmp(s, tf->doc_key))
			whole = v, whole_key = key;
		else if (text_key_format(s, &a.fmt))
			rc = !a.fmt ? wl_ydoc_fail(y, key, "unknown format in '%s'", s)
			     : want_int(&a, v, s, 0, UINT32_MAX, &ver) ? -1
			     : ver != WL_TF_VERSION
				     ? wl_ydoc_fail(y, v, "%s %llu is not supported (this is version %d)", s,
						    (unsigned long long)ver, WL_TF_VERSION)
				     : 0;
		else
			rc = wl_ydoc_fail(y, key, "unknown key '%s' (expected FORMAT-text, chunks)", s);
	}
	a.tf = wl_tf_format_of(a.fmt);
	if (!rc && whole && chunks)
		rc = wl_ydoc_fail(y, whole_key, "give '%s:' or 'chunks:', not both", a.tf->doc_key);
	if (!rc && whole) { /* the format's own text form (P3D: mlod:) */
		rc = a.tf->assemble_doc(&a, whole);
		goto done;
	}
	if (!rc && !chunks)
		rc = wl_ydoc_fail(y, root, "missing 'chunks:'");
	if (!rc && a.tf && !a.fmt->writable)
		rc = wl_ydoc_fail(y, root, "%s files are read-only in the chunk form: w3dasm does not write "
					   "them%s",
				  a.fmt->title, a.tf->doc_key ? " (an MLOD file's text form has 'mlod:')" : "");
	if (!rc && !a.tf)
		rc = wl_ydoc_fail(y, root, "the %s format has no text form", a.fmt->title);
	bool had = false;
	if (!rc && !(wl_ydoc_kind(y, chunks) == WL_Y_SCALAR && wl_ydoc_is_null(y, chunks)))
		rc = put_nodes(&a, chunks, 0, 1, &had);
done:
	wl_ydoc_free(y);
	if (rc) {
		free(out->data);
		memset(out, 0, sizeof *out);
	}
	return rc;
}
