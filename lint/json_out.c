/* json_out.c - streaming JSON writer; see json_out.h. */
#include "json_out.h"

#include <stdlib.h>
#include <string.h>

#include "../core/escape.h"

void wl_jo_init(wl_json_out *w, FILE *out)
{
	memset(w, 0, sizeof *w);
	w->out = out;
}

static void indent(wl_json_out *w, int depth)
{
	static const char spaces[] = "                                ";
	fputc('\n', w->out);
	size_t n = (size_t)depth * 2;
	while (n > 0) {
		size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
		fwrite(spaces, 1, k, w->out);
		n -= k;
	}
}

/* Before a value or a key: the separator and indentation of a new member
 * of the innermost container (nothing after a key). */
static void member(wl_json_out *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	if (w->members[w->depth - 1]++)
		fputc(',', w->out);
	indent(w, w->depth);
}

static void open_(wl_json_out *w, char c, char close)
{
	member(w);
	fputc(c, w->out);
	if (w->depth == WL_JSON_OUT_DEPTH) {
		w->oom = true;
		return;
	}
	w->close[w->depth] = close;
	w->members[w->depth++] = 0;
}

void wl_jo_object(wl_json_out *w)
{
	open_(w, '{', '}');
}

void wl_jo_array(wl_json_out *w)
{
	open_(w, '[', ']');
}

void wl_jo_end(wl_json_out *w)
{
	if (w->depth == 0) {
		w->oom = true;
		return;
	}
	w->depth--;
	if (w->members[w->depth])
		indent(w, w->depth);
	fputc(w->close[w->depth], w->out);
}

/* Writes s[0..n) as a JSON string body: '"' and '\' escaped, control bytes
 * as \uXXXX (jansson's escapes; the escaped form has none). */
static void json_body(FILE *out, const char *s, size_t n)
{
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		fwrite(s + run, 1, i - run, out);
		run = i + 1;
		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default: fprintf(out, "\\u%04X", c); break;
		}
	}
	fwrite(s + run, 1, n - run, out);
}

void wl_jo_key(wl_json_out *w, const char *s)
{
	member(w);
	fputc('"', w->out);
	json_body(w->out, s, strlen(s));
	fputs("\": ", w->out);
	w->after_key = true;
}

void wl_jo_str(wl_json_out *w, const char *s)
{
	member(w);
	fputc('"', w->out);
	/* printable ASCII without '\' is its own escaped form */
	size_t n = 0;
	bool plain = true;
	for (; s[n]; n++) {
		unsigned char c = (unsigned char)s[n];
		if (c < 0x20 || c >= 0x7F || c == '\\')
			plain = false;
	}
	if (plain) {
		json_body(w->out, s, n);
	} else {
		char local[512];
		size_t e = wl_escape(local, sizeof local, (const uint8_t *)s, n);
		if (e < sizeof local) {
			json_body(w->out, local, e);
		} else {
			char *big = malloc(e + 1);
			if (big) {
				wl_escape(big, e + 1, (const uint8_t *)s, n);
				json_body(w->out, big, e);
				free(big);
			} else {
				w->oom = true;
			}
		}
	}
	fputc('"', w->out);
}

void wl_jo_int(wl_json_out *w, int64_t v)
{
	member(w);
	fprintf(w->out, "%lld", (long long)v);
}

void wl_jo_uint(wl_json_out *w, uint64_t v)
{
	wl_jo_int(w, v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v);
}

void wl_jo_bool(wl_json_out *w, bool v)
{
	member(w);
	fputs(v ? "true" : "false", w->out);
}

void wl_jo_null(wl_json_out *w)
{
	member(w);
	fputs("null", w->out);
}

void wl_jo_kstr(wl_json_out *w, const char *key, const char *s)
{
	wl_jo_key(w, key);
	wl_jo_str(w, s);
}

void wl_jo_kuint(wl_json_out *w, const char *key, uint64_t v)
{
	wl_jo_key(w, key);
	wl_jo_uint(w, v);
}

int wl_jo_status(const wl_json_out *w)
{
	return w->oom || ferror(w->out) ? -1 : 0;
}
