/* win32_fnmatch.c - wl_os_fnmatch (core/platform.h) where the C library
 * has no fnmatch(3): MinGW-w64's msvcrt.  The answers are glibc's for
 * flags 0 in the C locale (POSIX XCU 2.13.1 and its undefined corners as
 * glibc decides them), byte by byte: `*` and `?` match any byte, '/' and a
 * leading '.' included; `\` quotes the next byte, and a pattern ending in
 * a lone `\` matches nothing; a bracket `[...]` (`[!...]` and `[^...]` its
 * complement) takes ranges by byte value, `\` quoting, the classes
 * `[:alpha:]` ... of the C locale (an unknown class name matches
 * nothing), `[=c=]` and `[.c.]` of one byte; a `[` without its `]` is an
 * ordinary byte.  Checked against glibc's fnmatch over random patterns
 * (tests/core/test_platform.c holds the cases both must answer alike).
 * Pure C: no Windows header. */
#include "core/platform.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* A bracket's answer for one byte: */
enum { B_NO = 0, B_YES = 1, B_LITERAL = -1, B_FAIL = -2 };

/* true when byte c is in the C locale's class name. */
static int in_class(const char *name, unsigned char c, bool *known)
{
	static const struct {
		const char *name;
		int (*is)(int);
	} cls[] = {
		{ "alnum", isalnum }, { "alpha", isalpha }, { "blank", isblank }, { "cntrl", iscntrl },
		{ "digit", isdigit }, { "graph", isgraph }, { "lower", islower }, { "print", isprint },
		{ "punct", ispunct }, { "space", isspace }, { "upper", isupper }, { "xdigit", isxdigit },
	};
	for (size_t i = 0; i < sizeof cls / sizeof cls[0]; i++)
		if (strcmp(cls[i].name, name) == 0) {
			*known = true;
			/* the C locale: bytes past ASCII are in no class */
			return c < 0x80 && cls[i].is(c);
		}
	*known = false;
	return 0;
}

/* Skips the rest of a bracket whose byte matched, from p; the byte after
 * its ']', or NULL when the bracket has no end (its '[' is then a plain
 * byte) or, *fail set, holds a "[=" that is no "[=c=]" (glibc: the match
 * fails). */
static const unsigned char *skip_bracket(const unsigned char *p, bool *fail)
{
	*fail = false;
	unsigned c;
	while ((c = *p++) != ']') {
		if (c == 0)
			return NULL;
		if (c == '\\') {
			if (*p == 0)
				return NULL;
			p++;
		} else if (c == '[' && *p == ':') {
			/* a class name (a..y) ending in ":]", else a plain '[' */
			const unsigned char *q = p + 1;
			while (*q >= 'a' && *q < 'z')
				q++;
			if (*q == ':' && q[1] == ']')
				p = q + 2;
		} else if (c == '[' && *p == '=') {
			if (!p[1])
				return NULL;
			if (p[2] != '=' || p[3] != ']') {
				*fail = true;
				return NULL;
			}
			p += 4;
		} else if (c == '[' && *p == '.') {
			const unsigned char *q = p + 1;
			while (*q && !(*q == '.' && q[1] == ']'))
				q++;
			if (!*q)
				return NULL;
			p = q + 2;
		}
	}
	return p;
}

/* The collating symbol `[.c.]` at p (on the '['): its byte, p moved past
 * it; -1 when it does not end, -2 when it names more than one byte. */
static int collating(const unsigned char **pp)
{
	const unsigned char *p = *pp + 2, *start = p;
	while (*p && !(*p == '.' && p[1] == ']'))
		p++;
	if (!*p)
		return -1;
	if (p - start != 1)
		return -2;
	*pp = p + 2;
	return *start;
}

/* Matches byte fn against the bracket whose '[' is at pat; *end: the
 * pattern after its ']'. */
static int bracket(const unsigned char *pat, unsigned char fn, const unsigned char **end)
{
	const unsigned char *p = pat + 1;
	bool not = *p == '!' || *p == '^';
	if (not)
		p++;
	unsigned c = *p++;
	for (;;) {
		bool hit = false;
		if (c == 0)
			return B_LITERAL;
		if (c == '[' && *p == ':') {
			/* a class: its name in a..y (glibc's test), else the '['
			 * is a byte of the set */
			const unsigned char *q = p + 1;
			char name[16];
			size_t k = 0;
			while (*q >= 'a' && *q < 'z') {
				if (k < sizeof name - 1)
					name[k] = (char)*q;
				k++;
				q++;
			}
			if (*q == ':' && q[1] == ']') {
				bool known = false;
				name[k < sizeof name ? k : sizeof name - 1] = 0;
				hit = k < sizeof name && in_class(name, fn, &known);
				if (!known)
					return B_FAIL; /* no such class */
				p = q + 2;
				if (hit)
					goto matched;
				c = *p++;
				if (c == ']')
					break;
				continue;
			}
		} else if (c == '[' && *p == '=' && p[1] && p[2] == '=' && p[3] == ']') {
			hit = fn == p[1];
			p += 4;
			if (hit)
				goto matched;
			c = *p++;
			if (c == ']')
				break;
			continue;
		}
		/* one byte (or a collating symbol), maybe a range's start */
		unsigned lo;
		bool range; /* lo starts a range: lo itself is not tried */
		if (c == '\\') {
			if (*p == 0)
				return B_FAIL;
			lo = *p++;
			range = *p == '-' && p[1] && p[1] != ']';
		} else if (c == '[' && *p == '.') {
			p--;
			int k = collating(&p);
			if (k < 0)
				return B_FAIL;
			lo = (unsigned)k;
			range = *p == '-' && p[1]; /* glibc: "[[.a.]-]" holds '-', not 'a' */
		} else {
			lo = c;
			range = *p == '-' && p[1] && p[1] != ']';
		}
		if (!range && lo == fn)
			goto matched;
		if (*p == '-' && p[1] != ']') {
			/* a range (its end missing: the pattern fails, as glibc) */
			p++;
			unsigned hi = *p++;
			if (hi == '\\')
				hi = *p++;
			if (hi == 0)
				return B_FAIL;
			if (hi == '[' && *p == '.') {
				p--;
				int k = collating(&p);
				if (k < 0)
					return B_FAIL;
				hi = (unsigned)k;
			}
			if (lo <= fn && fn <= hi)
				goto matched;
		}
		c = *p++;
		if (c == ']')
			break;
	}
	*end = p;
	return not ? B_YES : B_NO;
matched:
	bool fail;
	*end = skip_bracket(p, &fail);
	if (!*end)
		return fail ? B_FAIL : B_LITERAL; /* no ']' after all: the '[' is a byte */
	return not ? B_NO : B_YES;
}

int wl_os_fnmatch(const char *pattern, const char *string)
{
	const unsigned char *pat = (const unsigned char *)pattern, *s = (const unsigned char *)string;
	const unsigned char *star = NULL, *resume = NULL;
	for (;;) {
		const unsigned char *next = pat;
		bool step = false;
		if (*pat == '*') {
			while (*pat == '*')
				pat++;
			star = pat;
			resume = s;
			continue;
		}
		if (*s) {
			if (*pat == '?') {
				next = pat + 1;
				step = true;
			} else if (*pat == '[') {
				int b = bracket(pat, *s, &next);
				if (b == B_LITERAL) {
					step = *s == '[';
					next = pat + 1;
				} else {
					step = b == B_YES;
				}
			} else if (*pat == '\\') {
				step = pat[1] && *s == pat[1];
				next = pat + 2;
			} else if (*pat) {
				step = *s == *pat;
				next = pat + 1;
			}
		} else if (!*pat) {
			return 0;
		}
		if (step) {
			pat = next;
			s++;
			continue;
		}
		if (!star || !*resume)
			return 1;
		pat = star;
		s = ++resume;
	}
}
