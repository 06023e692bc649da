/* escape.c - the escaped form of strings read from a file; see escape.h. */
#include "escape.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

size_t wl_utf8_seq(const uint8_t *p, size_t n)
{
	uint8_t c = p[0];
	if (c < 0x80)
		return 1;
	size_t len;
	uint8_t lo = 0x80, hi = 0xBF;
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	} else {
		return 0;
	}
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return len;
}

/* The escape of byte c when it stands alone (control or not UTF-8) into
 * e (5 bytes); returns its length. */
static size_t escape_byte(char *e, uint8_t c)
{
	static const char hex[] = "0123456789abcdef";
	switch (c) {
	case '\\': memcpy(e, "\\\\", 2); return 2;
	case '\n': memcpy(e, "\\n", 2); return 2;
	case '\r': memcpy(e, "\\r", 2); return 2;
	case '\t': memcpy(e, "\\t", 2); return 2;
	default:
		e[0] = '\\';
		e[1] = 'x';
		e[2] = hex[c >> 4];
		e[3] = hex[c & 15];
		return 4;
	}
}

/* Calls emit(ctx, bytes, len) for each piece of the escaped form. */
typedef void (*emit_fn)(void *ctx, const char *p, size_t len);

static void escape_with(const uint8_t *s, size_t n, emit_fn emit, void *ctx)
{
	char e[8];
	size_t i = 0;
	while (i < n) {
		uint8_t c = s[i];
		size_t k = wl_utf8_seq(s + i, n - i);
		int plain = (k == 1 && c >= 0x20 && c != 0x7F && c != '\\') ||
			    (k > 1 && !(k == 2 && c == 0xC2 && s[i + 1] <= 0x9F));
		if (plain) {
			emit(ctx, (const char *)s + i, k);
			i += k;
		} else {
			size_t m = k > 1 ? k : 1; /* a C1 control: each of its bytes */
			for (size_t j = 0; j < m; j++)
				emit(ctx, e, escape_byte(e, s[i + j]));
			i += m;
		}
	}
}

typedef struct buf_ctx {
	char *out;
	size_t cap, len;
} buf_ctx;

static void emit_buf(void *ctx, const char *p, size_t len)
{
	buf_ctx *b = ctx;
	for (size_t i = 0; i < len; i++, b->len++)
		if (b->len + 1 < b->cap)
			b->out[b->len] = p[i];
}

size_t wl_escape(char *out, size_t cap, const uint8_t *s, size_t n)
{
	buf_ctx b = { out, cap, 0 };
	escape_with(s, n, emit_buf, &b);
	if (cap > 0)
		out[b.len < cap ? b.len : cap - 1] = 0;
	return b.len;
}

char *wl_escape_dup(const char *s)
{
	size_t n = strlen(s);
	size_t len = wl_escape(NULL, 0, (const uint8_t *)s, n);
	char *out = malloc(len + 1);
	if (out)
		wl_escape(out, len + 1, (const uint8_t *)s, n);
	return out;
}

static void emit_file(void *ctx, const char *p, size_t len)
{
	fwrite(p, 1, len, (FILE *)ctx);
}

void wl_escape_put(FILE *out, const uint8_t *s, size_t n)
{
	escape_with(s, n, emit_file, out);
}

/* The slots of wl_esc: 4 per thread, used in turn. */
#define ESC_SLOTS 4
static _Thread_local char esc_slot[ESC_SLOTS][WL_ESC_MAX + 4];
static _Thread_local unsigned esc_next;

typedef struct whole_ctx {
	char *out;
	size_t cap, len;
	bool cut;
} whole_ctx;

/* Appends whole pieces while they fit in cap - 4 bytes (room for "..."
 * and the NUL); from the first that does not, nothing more. */
static void emit_whole(void *ctx, const char *p, size_t len)
{
	whole_ctx *w = ctx;
	if (w->cut || w->len + len + 4 > w->cap) {
		w->cut = true;
		return;
	}
	memcpy(w->out + w->len, p, len);
	w->len += len;
}

const char *wl_esc(const char *s)
{
	char *out = esc_slot[esc_next++ % ESC_SLOTS];
	if (!s)
		s = "(null)";
	size_t n = strlen(s);
	if (wl_escape(out, WL_ESC_MAX + 1, (const uint8_t *)s, n) <= WL_ESC_MAX)
		return out;
	/* Too long: the whole pieces (escapes, UTF-8 sequences) that fit,
	 * then "...". */
	whole_ctx w = { out, WL_ESC_MAX + 1, 0, false };
	escape_with((const uint8_t *)s, n, emit_whole, &w);
	memcpy(out + w.len, "...", 4);
	return out;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t wl_unescape(char *out, const char *e)
{
	size_t n = 0;
	while (*e) {
		if (e[0] != '\\') {
			out[n++] = *e++;
			continue;
		}
		char c = e[1];
		int hi = c == 'x' ? hexval(e[2]) : -1, lo = hi >= 0 ? hexval(e[3]) : -1;
		if (c == '\\' || c == 'n' || c == 'r' || c == 't') {
			out[n++] = c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : '\\';
			e += 2;
		} else if (lo >= 0) {
			out[n++] = (char)(hi * 16 + lo);
			e += 4;
		} else {
			out[n++] = *e++;
		}
	}
	out[n] = 0;
	return n;
}
