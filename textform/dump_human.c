/*
 * dump_human.c - the human dump of w3ddump (dump.h wl_tf_dump_human):
 * one line per chunk or gap, the decoded fields below it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "core/escape.h"
#include "core/chunk.h"
#include "core/platform.h"
#include "dump.h"
#include "registry.h"
#include "textform.h"

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
 * one line, ITEMS one element a line (the first WL_TF_DUMP_SHOW_ITEMS without all),
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
	size_t show = all || sp->count <= WL_TF_DUMP_SHOW_ITEMS ? sp->count : WL_TF_DUMP_SHOW_ITEMS;
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
		size_t show = all || v.count <= WL_TF_DUMP_SHOW_ITEMS ? v.count : WL_TF_DUMP_SHOW_ITEMS;
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

/* The chunks and gaps under parent, depth levels deep; fields: each
 * chunk's decoded fields too (the human dump; not --chunks). */
static void human_nodes(FILE *out, const wl_doc *d, const wl_chunk *parent, int depth, bool fields, bool all)
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
			if (fields && c->fields)
				wl_tf_human_keys(out, d, c, 11 + ind + 4, all ? SIZE_MAX : WL_TF_DUMP_SHOW_ITEMS);
			human_nodes(out, d, c, depth + 1, fields, all);
		} else if (fields &&
			   !wl_tf_human_keys(out, d, c, 11 + ind + 4, all ? SIZE_MAX : WL_TF_DUMP_SHOW_ITEMS)) {
			human_payload(out, d, c, 11 + ind + 4, all);
		}
	}
}

/* A scalar of the decoded model (its strings are escaped already). */
static void human_scalar(FILE *out, const json_t *j)
{
	if (json_is_string(j))
		fprintf(out, "\"%s\"", json_string_value(j));
	else if (json_is_integer(j))
		fprintf(out, "%lld", (long long)json_integer_value(j));
	else if (json_is_real(j))
		fprintf(out, "%.9g", json_real_value(j));
	else if (json_is_true(j) || json_is_false(j))
		fputs(json_is_true(j) ? "true" : "false", out);
	else
		fputs("null", out);
}

/* A short vector (up to 4 numbers) is written on one line. */
static bool human_short(const json_t *j)
{
	if (!json_is_array(j) || json_array_size(j) > 4 || !json_array_size(j))
		return false;
	for (size_t i = 0; i < json_array_size(j); i++)
		if (!json_is_number(json_array_get(j, i)))
			return false;
	return true;
}

static void human_value(FILE *out, json_t *j, int ind, bool all);

/* key: value at ind (key NULL: an array element's "[i]" written by the
 * caller). */
static void human_member(FILE *out, const char *key, json_t *j, int ind, bool all)
{
	fprintf(out, "%*s%s:", ind, "", key);
	human_value(out, j, ind, all);
}

static void human_value(FILE *out, json_t *j, int ind, bool all)
{
	if (json_is_object(j)) {
		fputc('\n', out);
		const char *k;
		json_t *v;
		json_object_foreach(j, k, v)
			human_member(out, k, v, ind + 2, all);
	} else if (human_short(j)) {
		for (size_t i = 0; i < json_array_size(j); i++) {
			fputs(i ? ", " : " [", out);
			human_scalar(out, json_array_get(j, i));
		}
		fputs("]\n", out);
	} else if (json_is_array(j)) {
		size_t n = json_array_size(j);
		fprintf(out, " %zu element%s\n", n, n == 1 ? "" : "s");
		size_t show = all ? n : (n < WL_TF_DUMP_SHOW_ITEMS ? n : WL_TF_DUMP_SHOW_ITEMS);
		for (size_t i = 0; i < show; i++) {
			char k[24];
			snprintf(k, sizeof k, "[%zu]", i);
			human_member(out, k, json_array_get(j, i), ind + 2, all);
		}
		if (show < n)
			fprintf(out, "%*s... %zu more (--all shows every element)\n", ind + 2, "", n - show);
	} else {
		fputc(' ', out);
		human_scalar(out, j);
		fputc('\n', out);
	}
}

/* The format's own text form of d (wl_tf_format.write_doc) into *buf, or
 * 0 when it has none for d (P3D: an ODOL or damaged file); -1 on error. */
static int own_text(const wl_tf_format *tf, const wl_doc *d, char **buf, size_t *len)
{
	*buf = NULL;
	if (!tf || !tf->write_doc)
		return 0;
	wl_os_memstream ms;
	FILE *mem = wl_os_memstream_open(&ms);
	if (!mem)
		return -1;
	int rc = tf->write_doc(mem, d, "");
	if (wl_os_memstream_close(&ms, buf, len) != 0)
		rc = -1;
	if (rc != 1) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

int wl_tf_dump_diff(FILE *out, const wl_doc *d)
{
	const wl_tf_format *tf = wl_tf_format_of(d->format);
	char *buf = NULL;
	size_t len = 0;
	/* a format's own text form (MLOD: a point, face or tag a line) comes
	 * first; else its decoded model; else the chunk form */
	int own = own_text(tf, d, &buf, &len);
	if (own < 0)
		return -1;
	if (!own && tf && tf->model) {
		json_t *model = tf->model(d, false);
		if (!model)
			return -1;
		human_member(out, "model", model, 0, true);
		json_decref(model);
		return ferror(out) ? -1 : 0;
	}
	int rc = 0;
	if (!own) {
		wl_os_memstream ms;
		FILE *mem = wl_os_memstream_open(&ms);
		if (!mem)
			return -1;
		rc = wl_tf_write(mem, d, "");
		if (wl_os_memstream_close(&ms, &buf, &len) != 0)
			rc = -1;
	}
	for (char *line = buf, *nl; rc == 0 && line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		if (n && line[0] == '#')
			continue; /* the header comments: tool, source path and size */
		size_t keep = n;
		for (size_t i = 0; i + 7 <= n; i++)
			if (!memcmp(line + i, "  # @0x", 7)) {
				keep = i;
				break;
			}
		fwrite(line, 1, keep, out);
		fputc('\n', out);
	}
	free(buf);
	return rc || ferror(out) ? -1 : 0;
}

void wl_tf_dump_human(FILE *out, const wl_doc *d, const char *path, bool fields, bool all)
{
	fprintf(out, "%s: %llu bytes, %llu chunks\n", wl_esc(path), (unsigned long long)d->size,
		(unsigned long long)d->chunk_count);
	human_nodes(out, d, &d->root, 0, fields, all);
	const wl_tf_format *tf = wl_tf_format_of(d->format);
	json_t *model = fields && tf && tf->model ? tf->model(d, true) : NULL;
	if (model)
		human_member(out, "model", model, 0, all);
	json_decref(model);
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
