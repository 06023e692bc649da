/*
 * sink_yaml.c - the line-oriented sinks (registry.h wl_tf_sink) of a
 * format's decoded keys, in two styles that share everything but four
 * details.  Names no format.
 *
 * Text form (wl_tf_yaml_keys, docs/textform.md): `key: value` lines, a list
 * as `key:` then one flow mapping ("- {a: 1, b: [0, 0]}") or flow sequence
 * ("- [0, 1, 2]") a record, the bytes after the last record as `tail:` hex.
 * Human dump (wl_tf_human_keys, w3ddump): the same lines, but a list says
 * how many records it has (`key: N element(s)`), a record is numbered
 * ("[3] {a: 1}") and only the first `show` are written (then "... N more"),
 * and the bytes after the last record are counted, not shown.
 * Names are quoted, or `!hex` when not printable ASCII, in both.
 */
#include <stdint.h>
#include <string.h>

#include "registry.h"

typedef struct line_sink {
	FILE *out;
	int indent;
	bool human;            /* the human dump's style */
	size_t show;           /* records written per list (human) */
	size_t index;          /* records of the current list so far */
	bool in_item, first;   /* inside a record; none of its values yet */
	bool hidden;           /* the current record is not written */
} line_sink;

/* The separator and key before a value: "key: " at the start of its own
 * line, or in a record ", key: " (mapping) / ", " (sequence) after the
 * first.  False when the value is not written. */
static bool lead(line_sink *y, const char *key)
{
	if (y->in_item && y->hidden)
		return false;
	if (!y->in_item)
		fprintf(y->out, "%*s", y->indent, "");
	else if (!y->first)
		fputs(", ", y->out);
	y->first = false;
	if (key)
		fprintf(y->out, "%s: ", key);
	return true;
}

static void end_line(line_sink *y)
{
	if (!y->in_item)
		fputc('\n', y->out);
}

static void s_value(void *ctx, const char *key, const wl_tf_field *f, const uint8_t *p, size_t count, bool seq)
{
	line_sink *y = ctx;
	if (!lead(y, key))
		return;
	if (!seq) {
		wl_tf_put_value(y->out, f, p);
	} else {
		size_t es = wl_tf_field_size(f);
		fputc('[', y->out);
		for (size_t i = 0; i < count; i++) {
			fputs(i ? ", " : "", y->out);
			wl_tf_put_value(y->out, f, p + i * es);
		}
		fputc(']', y->out);
	}
	end_line(y);
}

static void s_name(void *ctx, const char *key, const uint8_t *p, size_t n)
{
	line_sink *y = ctx;
	if (!lead(y, key))
		return;
	if (wl_tf_clean_text(p, n)) {
		wl_tf_put_quoted(y->out, p, n - 1);
	} else {
		fputs("!hex \"", y->out);
		for (size_t i = 0; i + 1 < n; i++)
			fprintf(y->out, i ? " %02x" : "%02x", p[i]);
		fputc('"', y->out);
	}
	end_line(y);
}

static void s_list(void *ctx, const char *key, bool begin, size_t count)
{
	line_sink *y = ctx;
	if (begin) {
		y->index = 0;
		fprintf(y->out, "%*s%s:", y->indent, "", key);
		if (y->human && count != SIZE_MAX)
			fprintf(y->out, " %zu element(s)", count);
		fputc('\n', y->out);
	} else if (y->human && y->index > y->show) {
		fprintf(y->out, "%*s  ... %zu more (--all shows every element)\n", y->indent, "",
			y->index - y->show);
	}
}

static void s_item(void *ctx, bool mapping, bool begin)
{
	line_sink *y = ctx;
	if (begin) {
		y->hidden = y->human && y->index >= y->show;
		if (y->hidden)
			;
		else if (y->human)
			fprintf(y->out, "%*s  [%zu] %c", y->indent, "", y->index, mapping ? '{' : '[');
		else
			fprintf(y->out, "%*s- %c", y->indent + 2, "", mapping ? '{' : '[');
		y->index++;
	} else if (!y->hidden) {
		fprintf(y->out, "%c\n", mapping ? '}' : ']');
	}
	y->in_item = begin;
	y->first = true;
}

static void s_tail(void *ctx, const uint8_t *p, size_t n)
{
	line_sink *y = ctx;
	if (y->human) {
		fprintf(y->out, "%*s(%zu byte(s) left over after the records)\n", y->indent, "", n);
		return;
	}
	fprintf(y->out, "%*stail: ", y->indent, "");
	wl_tf_put_hex(y->out, p, n, y->indent + 2, NULL);
	fputc('\n', y->out);
}

static bool line_keys(FILE *out, const wl_doc *d, const wl_chunk *c, int indent, bool human, size_t show)
{
	line_sink y = { out, indent, human, show, 0, false, false, false };
	wl_tf_sink s = { &y, s_value, s_name, s_list, s_item, s_tail };
	return wl_tf_decode(d, c, &s);
}

bool wl_tf_yaml_keys(FILE *out, const wl_doc *d, const wl_chunk *c, int indent)
{
	return line_keys(out, d, c, indent, false, SIZE_MAX);
}

bool wl_tf_human_keys(FILE *out, const wl_doc *d, const wl_chunk *c, int indent, size_t show)
{
	return line_keys(out, d, c, indent, true, show);
}
