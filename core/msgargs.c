/* msgargs.c - printf arguments captured now, formatted later; see
 * msgargs.h. */
#include "msgargs.h"

#include "core/grow.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* Length modifiers. */
enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T };

/* Argument classes. */
enum { ARG_BAD, ARG_SIGNED, ARG_UNSIGNED, ARG_DOUBLE, ARG_CHAR, ARG_STRING, ARG_POINTER };

/* One conversion specification, fmt[start..end). */
typedef struct spec {
	const char *flags;    /* flag characters */
	size_t nflags;
	const char *width;    /* digits, or NULL */
	size_t nwidth;
	const char *prec;     /* digits after '.', or NULL (nprec 0 with
			       * has_prec: "." alone, precision 0) */
	size_t nprec;
	int width_star, prec_star, has_prec;
	int len;
	char conv;
	int cls;
} spec;

static size_t digits(const char *p)
{
	size_t n = 0;
	while (p[n] >= '0' && p[n] <= '9')
		n++;
	return n;
}

/* Parses the specification after a '%' at p; returns the character after
 * it.  s->cls is ARG_BAD for a conversion that is not captured. */
static const char *parse(const char *p, spec *s)
{
	memset(s, 0, sizeof *s);
	/* positional %N$ is not captured */
	size_t d = digits(p);
	if (d && p[d] == '$')
		return p + d;
	s->flags = p;
	while (*p && strchr("-+ #0'I", *p))
		p++;
	s->nflags = (size_t)(p - s->flags);
	if (*p == '*') {
		s->width_star = 1;
		p++;
	} else if ((d = digits(p)) != 0) {
		s->width = p;
		s->nwidth = d;
		p += d;
	}
	if (*p == '.') {
		p++;
		s->has_prec = 1;
		if (*p == '*') {
			s->prec_star = 1;
			p++;
		} else {
			s->prec = p;
			s->nprec = digits(p);
			p += s->nprec;
		}
	}
	switch (*p) {
	case 'h': s->len = p[1] == 'h' ? LEN_HH : LEN_H; p += p[1] == 'h' ? 2 : 1; break;
	case 'l': s->len = p[1] == 'l' ? LEN_LL : LEN_L; p += p[1] == 'l' ? 2 : 1; break;
	case 'j': s->len = LEN_J; p++; break;
	case 'z': s->len = LEN_Z; p++; break;
	case 't': s->len = LEN_T; p++; break;
	case 'L': return p; /* long double: not captured */
	default: break;
	}
	s->conv = *p;
	switch (*p) {
	case 'd': case 'i': s->cls = ARG_SIGNED; break;
	case 'u': case 'o': case 'x': case 'X': s->cls = ARG_UNSIGNED; break;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
		s->cls = s->len == LEN_NONE || s->len == LEN_L ? ARG_DOUBLE : ARG_BAD;
		break;
	case 'c': s->cls = s->len == LEN_NONE ? ARG_CHAR : ARG_BAD; break;
	case 's': s->cls = s->len == LEN_NONE ? ARG_STRING : ARG_BAD; break;
	case 'p': s->cls = s->len == LEN_NONE ? ARG_POINTER : ARG_BAD; break;
	default: return *p ? p + 1 : p; /* %n, %m, unknown: not captured */
	}
	return p + 1;
}

/* ------------------------------------------------------------- capture */

typedef struct writer {
	unsigned char *rec;
	size_t cap, at;
} writer;

static void put(writer *w, const void *v, size_t n)
{
	if (w->at + n <= w->cap)
		memcpy(w->rec + w->at, v, n);
	w->at += n;
}

static void put64(writer *w, uint64_t v)
{
	put(w, &v, 8);
}

static void put_string(writer *w, const char *s, int prec)
{
	if (!s) {
		put64(w, UINT64_MAX);
		return;
	}
	size_t n = prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s);
	put64(w, (uint64_t)n);
	put(w, s, n);
	static const char zeros[8] = { 0 };
	put(w, zeros, 8 - (n & 7)); /* the NUL and the padding */
}

static uint64_t signed_arg(int len, va_list *ap)
{
	switch (len) {
	case LEN_L: return (uint64_t)(int64_t)va_arg(*ap, long);
	case LEN_LL: return (uint64_t)(int64_t)va_arg(*ap, long long);
	case LEN_J: return (uint64_t)(int64_t)va_arg(*ap, intmax_t);
	case LEN_Z: return (uint64_t)(int64_t)va_arg(*ap, ssize_t);
	case LEN_T: return (uint64_t)(int64_t)va_arg(*ap, ptrdiff_t);
	default: return (uint64_t)(int64_t)va_arg(*ap, int);
	}
}

static uint64_t unsigned_arg(int len, va_list *ap)
{
	switch (len) {
	case LEN_L: return (uint64_t)va_arg(*ap, unsigned long);
	case LEN_LL: return (uint64_t)va_arg(*ap, unsigned long long);
	case LEN_J: return (uint64_t)va_arg(*ap, uintmax_t);
	case LEN_Z: return (uint64_t)va_arg(*ap, size_t);
	case LEN_T: return (uint64_t)va_arg(*ap, ptrdiff_t);
	default: return (uint64_t)va_arg(*ap, unsigned);
	}
}

/* Captures with ap passed by pointer (a va_list may be an array type). */
static size_t capture(writer *w, const char *fmt, va_list *ap)
{
	uint32_t zero = 0;
	put(w, &zero, 4);
	put(w, &zero, 4);
	for (const char *p = fmt; (p = strchr(p, '%')) != NULL;) {
		p++;
		if (*p == '%') {
			p++;
			continue;
		}
		spec s;
		p = parse(p, &s);
		if (s.cls == ARG_BAD)
			return 0;
		int prec = -1;
		if (s.width_star)
			put64(w, (uint64_t)(int64_t)va_arg(*ap, int));
		if (s.prec_star) {
			prec = va_arg(*ap, int);
			put64(w, (uint64_t)(int64_t)prec);
		} else if (s.has_prec) {
			prec = s.nprec ? atoi(s.prec) : 0;
		}
		switch (s.cls) {
		case ARG_SIGNED: put64(w, signed_arg(s.len, ap)); break;
		case ARG_UNSIGNED: put64(w, unsigned_arg(s.len, ap)); break;
		case ARG_CHAR: put64(w, (uint64_t)(int64_t)va_arg(*ap, int)); break;
		case ARG_POINTER: put64(w, (uint64_t)(uintptr_t)va_arg(*ap, void *)); break;
		case ARG_DOUBLE: {
			double v = va_arg(*ap, double);
			put(w, &v, 8);
			break;
		}
		default: put_string(w, va_arg(*ap, const char *), prec); break;
		}
	}
	if (w->at > UINT32_MAX)
		return 0;
	uint32_t size = (uint32_t)w->at;
	if (w->cap >= 4)
		memcpy(w->rec, &size, 4);
	return w->at;
}

size_t wl_msgargs_capture(void *rec, size_t cap, const char *fmt, va_list ap)
{
	writer w = { rec, cap, 0 };
	va_list cp;
	va_copy(cp, ap);
	size_t n = capture(&w, fmt, &cp);
	va_end(cp);
	return n;
}

size_t wl_msgargs_size(const void *rec)
{
	uint32_t n;
	memcpy(&n, rec, 4);
	return n;
}

/* -------------------------------------------------------------- format */

void wl_msgbuf_free(wl_msgbuf *b)
{
	free(b->text);
	memset(b, 0, sizeof *b);
}

/* Room for n more bytes and the NUL. */
static int reserve(wl_msgbuf *b, size_t n)
{
	if (n >= SIZE_MAX - b->len)
		return -1;
	return wl_grow((void **)&b->text, &b->cap, b->len + n + 1, 1) ? 0 : -1;
}

static int append(wl_msgbuf *b, const char *s, size_t n)
{
	if (reserve(b, n) != 0)
		return -1;
	memcpy(b->text + b->len, s, n);
	b->len += n;
	b->text[b->len] = 0;
	return 0;
}

typedef struct reader {
	const unsigned char *rec;
	size_t at;
} reader;

static uint64_t get64(reader *r)
{
	uint64_t v;
	memcpy(&v, r->rec + r->at, 8);
	r->at += 8;
	return v;
}

/* The formats are the checks' literals, checked at compile time by the
 * format attribute of wl_report; here each conversion is replayed on its
 * own, with its captured value converted back to the type it was passed
 * as. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* snprintf of one conversion appended to b. */
#define APPEND_ONE(b, spec, value)                                                       \
	do {                                                                             \
		for (;;) {                                                               \
			size_t room_ = (b)->cap - (b)->len;                              \
			int n_ = snprintf((b)->text + (b)->len, room_, spec, value);     \
			if (n_ < 0)                                                      \
				return -1;                                               \
			if ((size_t)n_ < room_) {                                        \
				(b)->len += (size_t)n_;                                  \
				break;                                                   \
			}                                                                \
			if (reserve(b, (size_t)n_) != 0)                                 \
				return -1;                                               \
		}                                                                        \
	} while (0)

/* The value of a signed or unsigned conversion as printf sees it: the
 * captured 64 bits converted to the argument's type (and, for hh and h, to
 * char or short, as printf does). */
static int64_t signed_value(int len, uint64_t u)
{
	int64_t v = (int64_t)u;
	switch (len) {
	case LEN_HH: return (signed char)v;
	case LEN_H: return (short)v;
	case LEN_L: return (long)v;
	case LEN_LL: return (long long)v;
	case LEN_J: return (intmax_t)v;
	case LEN_Z: return (ssize_t)v;
	case LEN_T: return (ptrdiff_t)v;
	default: return (int)v;
	}
}

static uint64_t unsigned_value(int len, uint64_t u)
{
	switch (len) {
	case LEN_HH: return (unsigned char)u;
	case LEN_H: return (unsigned short)u;
	case LEN_L: return (unsigned long)u;
	case LEN_LL: return (unsigned long long)u;
	case LEN_J: return (uintmax_t)u;
	case LEN_Z: return (size_t)u;
	case LEN_T: return (uint64_t)(ptrdiff_t)u;
	default: return (unsigned)u;
	}
}

/* Appends a plain %s, %d, %i or %u (no flags, width or precision) without
 * snprintf: the same text, the most common conversions of the messages.
 * Returns 1 when done, 0 when the conversion is not one of those, -1 when
 * out of memory. */
static int format_plain(wl_msgbuf *b, const spec *s, reader *r)
{
	if (s->nflags || s->width || s->width_star || s->has_prec)
		return 0;
	if (s->cls == ARG_STRING) {
		reader at = *r;
		uint64_t n = get64(&at);
		if (n == UINT64_MAX)
			return 0; /* NULL: printf's own text */
		r->at = at.at + (size_t)n + 8 - (size_t)(n & 7);
		return append(b, (const char *)r->rec + at.at, (size_t)n) == 0 ? 1 : -1;
	}
	if (s->conv != 'd' && s->conv != 'i' && s->conv != 'u')
		return 0;
	uint64_t u = get64(r);
	bool neg = false;
	if (s->cls == ARG_SIGNED) {
		int64_t v = signed_value(s->len, u);
		neg = v < 0;
		u = neg ? 0 - (uint64_t)v : (uint64_t)v;
	} else {
		u = unsigned_value(s->len, u);
	}
	char d[24];
	size_t at = sizeof d;
	do {
		d[--at] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (neg)
		d[--at] = '-';
	return append(b, d + at, sizeof d - at) == 0 ? 1 : -1;
}

static int format_one(wl_msgbuf *b, const char *sp, const spec *s, reader *r)
{
	if (reserve(b, 32) != 0)
		return -1;
	switch (s->cls) {
	case ARG_SIGNED: {
		int64_t v = (int64_t)get64(r);
		switch (s->len) {
		case LEN_L: APPEND_ONE(b, sp, (long)v); break;
		case LEN_LL: APPEND_ONE(b, sp, (long long)v); break;
		case LEN_J: APPEND_ONE(b, sp, (intmax_t)v); break;
		case LEN_Z: APPEND_ONE(b, sp, (ssize_t)v); break;
		case LEN_T: APPEND_ONE(b, sp, (ptrdiff_t)v); break;
		default: APPEND_ONE(b, sp, (int)v); break;
		}
		break;
	}
	case ARG_UNSIGNED: {
		uint64_t v = get64(r);
		switch (s->len) {
		case LEN_L: APPEND_ONE(b, sp, (unsigned long)v); break;
		case LEN_LL: APPEND_ONE(b, sp, (unsigned long long)v); break;
		case LEN_J: APPEND_ONE(b, sp, (uintmax_t)v); break;
		case LEN_Z: APPEND_ONE(b, sp, (size_t)v); break;
		case LEN_T: APPEND_ONE(b, sp, (ptrdiff_t)v); break;
		default: APPEND_ONE(b, sp, (unsigned)v); break;
		}
		break;
	}
	case ARG_CHAR: APPEND_ONE(b, sp, (int)(int64_t)get64(r)); break;
	case ARG_POINTER: APPEND_ONE(b, sp, (void *)(uintptr_t)get64(r)); break;
	case ARG_DOUBLE: {
		uint64_t bits = get64(r);
		double v;
		memcpy(&v, &bits, 8);
		APPEND_ONE(b, sp, v);
		break;
	}
	default: {
		uint64_t n = get64(r);
		const char *str = NULL;
		if (n != UINT64_MAX) {
			str = (const char *)r->rec + r->at;
			r->at += (size_t)n + 8 - (size_t)(n & 7);
		}
		APPEND_ONE(b, sp, str);
		break;
	}
	}
	return 0;
}

#pragma GCC diagnostic pop

int wl_msgargs_format(wl_msgbuf *b, const char *fmt, const void *rec)
{
	reader r = { rec, 8 };
	if (reserve(b, 0) != 0)
		return -1;
	b->text[b->len] = 0;
	const char *p = fmt;
	for (;;) {
		const char *pc = strchr(p, '%');
		size_t lit = pc ? (size_t)(pc - p) : strlen(p);
		if (lit && append(b, p, lit) != 0)
			return -1;
		if (!pc)
			return 0;
		p = pc + 1;
		if (*p == '%') {
			if (append(b, "%", 1) != 0)
				return -1;
			p++;
			continue;
		}
		spec s;
		p = parse(p, &s);
		int plain = format_plain(b, &s, &r);
		if (plain < 0)
			return -1;
		if (plain)
			continue;
		/* The specification with '*' replaced by the captured numbers:
		 * a negative width is the '-' flag, a negative precision none. */
		char sp[64];
		size_t at = 0;
		sp[at++] = '%';
		if (s.nflags > 16)
			return -1;
		memcpy(sp + at, s.flags, s.nflags);
		at += s.nflags;
		if (s.width_star) {
			int64_t w = (int64_t)get64(&r);
			if (w < 0) {
				sp[at++] = '-';
				w = -w;
			}
			at += (size_t)snprintf(sp + at, sizeof sp - at, "%lld", (long long)w);
		} else if (s.nwidth) {
			if (s.nwidth > 10)
				return -1;
			memcpy(sp + at, s.width, s.nwidth);
			at += s.nwidth;
		}
		if (s.prec_star) {
			int64_t pr = (int64_t)get64(&r);
			if (pr >= 0)
				at += (size_t)snprintf(sp + at, sizeof sp - at, ".%lld", (long long)pr);
		} else if (s.has_prec) {
			if (s.nprec > 10)
				return -1;
			sp[at++] = '.';
			memcpy(sp + at, s.prec, s.nprec);
			at += s.nprec;
		}
		static const char *const lens[] = { "", "hh", "h", "l", "ll", "j", "z", "t" };
		size_t ln = strlen(lens[s.len]);
		memcpy(sp + at, lens[s.len], ln);
		at += ln;
		sp[at++] = s.conv;
		sp[at] = 0;
		if (format_one(b, sp, &s, &r) != 0)
			return -1;
	}
}
