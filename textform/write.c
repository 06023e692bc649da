/*
 * textform_write.c - writes the text form of a document (textform.h,
 * docs/textform.md).  Every node of the reader's tree is written so that it
 * reproduces its own bytes; pins and hex cover whatever the tables cannot
 * describe exactly.
 */
#include "textform.h"

#include <string.h>

#include "core/escape.h"
#include "core/format.h"
#include "registry.h"

/* Scalars per line in a flow sequence of scalars. */
#define FLOW_PER_LINE 8

/* Would the assembler set bit 31 for c?  Exactly when c is written with
 * children and one of them is a chunk (wl_tf_assemble); never in a format
 * without the bit. */
static bool computed_bit(const wl_doc *d, const wl_chunk *c)
{
	if (!c->container || !d->format->has_container_bit)
		return false;
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK)
			return true;
	return false;
}

/* "@0x1A2B truncated clamped ..." for a node at offset with recovery bits
 * rec (the comment after a node's first line). */
static void marks_text(char *buf, size_t cap, uint64_t offset, uint16_t rec)
{
	int at = snprintf(buf, cap, "@0x%llX", (unsigned long long)offset);
	if (at > 0 && (size_t)at < cap && rec) {
		buf[at++] = ' ';
		wl_tf_marks(buf + at, cap - (size_t)at, rec);
	}
}

/* A flow sequence of n scalar elements of field f starting at p. */
static void put_flow(FILE *out, const wl_tf_field *f, const uint8_t *p, size_t n, int indent)
{
	wl_tf_field one = *f;
	one.count = 1;
	size_t es = wl_tf_field_size(&one);
	fputc('[', out);
	for (size_t i = 0; i < n; i++) {
		if (i && i % FLOW_PER_LINE == 0)
			fprintf(out, ",\n%*s", indent, "");
		else if (i)
			fputs(", ", out);
		wl_tf_put_value(out, &one, p + i * es);
	}
	fputc(']', out);
}

/* The items of an ARRAY chunk: n elements of s at p. */
static void put_items(FILE *out, const wl_tf_struct *s, const uint8_t *p, size_t n,
		      size_t elem_size, int indent)
{
	const wl_tf_field *f0 = &s->fields[0];
	if (s->field_count == 1 && f0->count == 1 && f0->type != WL_TF_NAME &&
	    f0->type != WL_TF_HEX) {
		fputs("items: ", out);
		put_flow(out, f0, p, n, indent + 4);
		fputc('\n', out);
		return;
	}
	fputs("items:\n", out);
	for (size_t i = 0; i < n; i++) {
		const uint8_t *e = p + i * elem_size;
		fprintf(out, "%*s- ", indent + 2, "");
		if (s->field_count == 1)
			wl_tf_put_value(out, f0, e);
		else
			wl_tf_put_struct(out, s, e);
		fputc('\n', out);
	}
}

/* The fields of struct s at p as block keys at indent: nested structs as
 * block mappings one level deeper. */
static void put_fields_block(FILE *out, const wl_tf_struct *s, const uint8_t *p, int indent)
{
	size_t at = 0;
	for (size_t j = 0; j < s->field_count; j++) {
		const wl_tf_field *f = &s->fields[j];
		if (f->type == WL_TF_STRUCT && f->sub) {
			fprintf(out, "%*s%s:\n", indent, "", f->name);
			put_fields_block(out, f->sub, p + at, indent + 2);
		} else {
			fprintf(out, "%*s%s: ", indent, "", f->name);
			wl_tf_put_value(out, f, p + at);
			fputc('\n', out);
		}
		at += wl_tf_field_size(f);
	}
}

/* One part of a record (a span of its view) at indent. */
static void put_span(FILE *out, const wl_tf_span *sp, const uint8_t *p, int indent)
{
	const wl_tf_part *pt = sp->part;
	const uint8_t *q = p + sp->at;
	fprintf(out, "%*s%s:%s", indent, "", pt->name, pt->kind == WL_TF_PART_ITEMS ? "" : " ");
	switch (pt->kind) {
	case WL_TF_PART_VALUE:
	case WL_TF_PART_VALUES: {
		wl_tf_field f = { pt->name, pt->type, 1, NULL };
		if (pt->kind == WL_TF_PART_VALUE)
			wl_tf_put_value(out, &f, q);
		else
			put_flow(out, &f, q, sp->count, indent + 2);
		break;
	}
	case WL_TF_PART_ITEMS:
		for (size_t i = 0; i < sp->count; i++) {
			fprintf(out, "\n%*s- ", indent + 2, "");
			wl_tf_put_item(out, pt->elem, q + i * sp->elem_size, sp->width);
		}
		break;
	case WL_TF_PART_TEXT:
		if (wl_tf_clean_text(q, sp->count)) {
			wl_tf_put_quoted(out, q, sp->count - 1); /* before the final NUL */
			break;
		}
		fputs("!hex ", out);
		wl_tf_put_hex(out, q, sp->count, indent + 2, NULL);
		break;
	default:
		wl_tf_put_hex(out, q, sp->count, indent + 2, NULL);
		break;
	}
	fputc('\n', out);
}

/* The payload keys of data chunk c at indent. */
static void put_payload(FILE *out, const wl_doc *d, const wl_chunk *c, int indent)
{
	const uint8_t *p = wl_chunk_payload(d, c);
	size_t n = (size_t)c->size;
	wl_tf_view v = wl_tf_view_of(d, c);
	const char *pad = "";
	switch (v.form) {
	case WL_TF_FORM_HEX:
		fprintf(out, "%*shex: ", indent, pad);
		wl_tf_put_hex(out, p, n, indent + 2, NULL);
		fputc('\n', out);
		return;
	case WL_TF_FORM_STRING:
		fprintf(out, "%*sstring: ", indent, pad);
		wl_tf_put_quoted(out, p, n - 1); /* before the final NUL */
		fputc('\n', out);
		return;
	case WL_TF_FORM_FIELDS: {
		size_t at = v.head;
		put_fields_block(out, v.st, p, indent);
		if (v.st->rest) {
			const wl_tf_field *r = v.st->rest;
			fprintf(out, "%*s%s: ", indent, pad, r->name);
			if (r->type == WL_TF_HEX)
				wl_tf_put_hex(out, p + at, v.count, indent + 2, NULL);
			else
				put_flow(out, r, p + at, v.count, indent + 2);
			fputc('\n', out);
		}
		for (size_t i = 0; i < v.span_count; i++)
			put_span(out, &v.spans[i], p, indent);
		break;
	}
	case WL_TF_FORM_ITEMS:
		fprintf(out, "%*s", indent, pad);
		put_items(out, v.st, p, v.count, v.elem_size, indent);
		break;
	}
	if (v.tail) {
		fprintf(out, "%*stail: ", indent, pad);
		wl_tf_put_hex(out, p + n - v.tail, v.tail, indent + 2, NULL);
		fputc('\n', out);
	}
}

static void put_nodes(FILE *out, const wl_doc *d, const wl_chunk *parent, int indent);

static void put_chunk(FILE *out, const wl_doc *d, const wl_chunk *c, int indent)
{
	const wl_format *f = d->format;
	if (c->type)
		fprintf(out, "%*s- chunk: %s", indent, "", c->type->short_name);
	else if (f->tag_ids)
		fprintf(out, "%*s- chunk: 0x%08lX", indent, "", (unsigned long)c->id);
	else
		fprintf(out, "%*s- chunk: 0x%04lX", indent, "", (unsigned long)c->id);
	char note[160];
	marks_text(note, sizeof note, c->offset, c->recovery);
	if (!c->type && f->tag_ids)
		fprintf(out, "  # %s %s\n", f->id_name(c->id), note);
	else
		fprintf(out, "  # %s\n", note);
	int in = indent + 2;
	if (c->declared_size != c->size && f->has_container_bit)
		fprintf(out, "%*ssize: %lu  # %llu byte(s) follow\n", in, "",
			(unsigned long)c->declared_size, (unsigned long long)c->size);
	else if (c->declared_size != c->size) /* a signed length: as its int32 value */
		fprintf(out, "%*ssize: %ld  # %llu byte(s) follow\n", in, "",
			(long)(int32_t)c->declared_size, (unsigned long long)c->size);
	if ((bool)c->flag_bit != computed_bit(d, c))
		fprintf(out, "%*scontainer_bit: %d\n", in, "", c->flag_bit ? 1 : 0);
	const wl_tf_format *tf = wl_tf_format_of(f);
	bool hook = tf && tf->write_keys && c->type;
	if (c->container) {
		if (f->fields_size && !(hook && tf->write_keys(out, d, c, in))) {
			fprintf(out, "%*sfields: ", in, "");
			wl_tf_put_hex(out, wl_chunk_payload(d, c), (size_t)c->fields, in + 2, NULL);
			fputc('\n', out);
		}
		if (!c->first_child) {
			fprintf(out, "%*schildren: []\n", in, "");
			return;
		}
		fprintf(out, "%*schildren:\n", in, "");
		put_nodes(out, d, c, in + 2);
		return;
	}
	if (hook && !c->type->child_ctx && tf->write_keys(out, d, c, in))
		return;
	put_payload(out, d, c, in);
}

static void put_nodes(FILE *out, const wl_doc *d, const wl_chunk *parent, int indent)
{
	for (const wl_chunk *k = parent->first_child; k; k = k->next) {
		if (k->kind == WL_NODE_GAP) {
			char note[160];
			marks_text(note, sizeof note, k->offset, k->recovery);
			fprintf(out, "%*s- gap: ", indent, "");
			wl_tf_put_hex(out, d->bytes + k->offset, (size_t)k->size, indent + 4, note);
			fputc('\n', out);
		} else {
			put_chunk(out, d, k, indent);
		}
	}
}

int wl_tf_write(FILE *out, const wl_doc *d, const char *source)
{
	const wl_tf_format *tf = wl_tf_format_of(d->format);
	int own = tf && tf->write_doc ? tf->write_doc(out, d, source) : 0;
	if (own)
		return own < 0 ? -1 : 0;
	if (d->format->writable)
		fprintf(out, "# %s text form (docs/textform.md); `w3dasm FILE -o OUT.%s` assembles it.\n",
			d->format->title, d->format->name);
	else
		fprintf(out, "# %s text form (docs/textform.md), read-only: w3dasm does not write %s "
			     "files.\n",
			d->format->title, d->format->name);
	if (source) {
		fputs("# source: ", out);
		wl_escape_put(out, (const uint8_t *)source, strlen(source)); /* core/escape.h */
		fprintf(out, " (%llu bytes)\n", (unsigned long long)d->size);
	}
	fprintf(out, "%s-text: %d\n", d->format->name, WL_TF_VERSION);
	if (!d->root.first_child) {
		fputs("chunks: []\n", out);
	} else {
		fputs("chunks:\n", out);
		put_nodes(out, d, &d->root, 2);
	}
	fflush(out);
	return ferror(out) ? -1 : 0;
}
