/* json_out.c - streaming JSON writer; see json_out.h. */
#include "json_out.h"

#include <stdlib.h>
#include <string.h>

#include "core/escape.h"

void wl_jo_init(wl_json_out *w, FILE *out)
{
	w->out = out;
	w->depth = 0;
	w->after_key = false;
	w->oom = false;
	w->len = 0;
}

static void flush(wl_json_out *w)
{
	if (w->len && fwrite(w->buf, 1, w->len, w->out) != w->len)
		w->oom = true;
	w->len = 0;
}

static inline void put(wl_json_out *w, const char *s, size_t n)
{
	if (w->len + n > sizeof w->buf) {
		flush(w);
		if (n > sizeof w->buf) {
			if (fwrite(s, 1, n, w->out) != n)
				w->oom = true;
			return;
		}
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

static inline void put_c(wl_json_out *w, char c)
{
	if (w->len == sizeof w->buf)
		flush(w);
	w->buf[w->len++] = c;
}

/* A newline and two spaces per depth, in one copy. */
static void indent(wl_json_out *w, int depth)
{
	static const char nl[] = "\n                                                                "; /* 64 */
	size_t n = 1 + (size_t)depth * 2;
	if (n < sizeof nl) {
		put(w, nl, n);
		return;
	}
	put_c(w, '\n');
	for (n--; n > 0;) {
		size_t k = n < sizeof nl - 2 ? n : sizeof nl - 2;
		put(w, nl + 1, k);
		n -= k;
	}
}

/* Before a value or a key: the separator and indentation of a new member
 * of the innermost container (nothing after a key). */
static inline void member(wl_json_out *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	if (w->members[w->depth - 1]++)
		put_c(w, ',');
	indent(w, w->depth);
}

static void open_(wl_json_out *w, char c, char close)
{
	member(w);
	put_c(w, c);
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
	put_c(w, w->close[w->depth]);
}

/* Writes s[0..n) as a JSON string body: '"' and '\' escaped, control bytes
 * as \uXXXX (jansson's escapes; the escaped form has none). */
static void json_body(wl_json_out *w, const char *s, size_t n)
{
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(w, s + run, i - run);
		run = i + 1;
		char e[8];
		switch (c) {
		case '"': put(w, "\\\"", 2); break;
		case '\\': put(w, "\\\\", 2); break;
		case '\b': put(w, "\\b", 2); break;
		case '\f': put(w, "\\f", 2); break;
		case '\n': put(w, "\\n", 2); break;
		case '\r': put(w, "\\r", 2); break;
		case '\t': put(w, "\\t", 2); break;
		default:
			snprintf(e, sizeof e, "\\u%04X", c);
			put(w, e, 6);
			break;
		}
	}
	put(w, s + run, n - run);
}

void wl_jo_key(wl_json_out *w, const char *s)
{
	member(w);
	put_c(w, '"');
	json_body(w, s, strlen(s));
	put(w, "\": ", 3);
	w->after_key = true;
}

/* The escaped form (core/escape.h) of s[0..n) as a JSON string body. */
static void escaped_body(wl_json_out *w, const char *s, size_t n)
{
	char local[512];
	size_t e = wl_escape(local, sizeof local, (const uint8_t *)s, n);
	if (e < sizeof local) {
		json_body(w, local, e);
		return;
	}
	char *big = malloc(e + 1);
	if (!big) {
		w->oom = true;
		return;
	}
	wl_escape(big, e + 1, (const uint8_t *)s, n);
	json_body(w, big, e);
	free(big);
}

void wl_jo_str(wl_json_out *w, const char *s)
{
	member(w);
	put_c(w, '"');
	/* Printable ASCII without '\' is its own escaped form (only '"' needs
	 * a JSON escape); from the first other byte on, the rest goes through
	 * wl_escape (a run of printable ASCII ends every UTF-8 sequence, so
	 * escaping the rest alone gives the same bytes). */
	const char *run = s;
	const char *p = s;
	for (;; p++) {
		unsigned char c = (unsigned char)*p;
		if (c >= 0x20 && c < 0x7F && c != '\\' && c != '"')
			continue;
		put(w, run, (size_t)(p - run));
		if (c == '"') {
			put(w, "\\\"", 2);
			run = p + 1;
			continue;
		}
		if (c)
			escaped_body(w, p, strlen(p));
		break;
	}
	put_c(w, '"');
}

void wl_jo_int(wl_json_out *w, int64_t v)
{
	member(w);
	char d[24];
	size_t at = sizeof d;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do {
		d[--at] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		d[--at] = '-';
	put(w, d + at, sizeof d - at);
}

void wl_jo_uint(wl_json_out *w, uint64_t v)
{
	wl_jo_int(w, v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v);
}

void wl_jo_bool(wl_json_out *w, bool v)
{
	member(w);
	put(w, v ? "true" : "false", v ? 4 : 5);
}

void wl_jo_null(wl_json_out *w)
{
	member(w);
	put(w, "null", 4);
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

int wl_jo_finish(wl_json_out *w)
{
	put_c(w, '\n');
	flush(w);
	if (fflush(w->out) != 0)
		return -1;
	return wl_jo_status(w);
}

int wl_jo_retarget(wl_json_out *w, FILE *out)
{
	flush(w);
	if (fflush(w->out) != 0)
		w->oom = true;
	w->out = out;
	return wl_jo_status(w);
}
