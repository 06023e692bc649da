/* tests/core/test_escape.c - the escaped form of strings read from a file
 * (core/escape.h): kept bytes, C escapes, invalid UTF-8 and C1 controls as
 * \xNN, the length contract of wl_escape, and that every escaped form
 * reads back to the raw bytes. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/platform.h"

/* Reads an escaped form back (the inverse described in escape.h). */
static size_t unescape(const char *e, char *out)
{
	size_t n = 0;
	while (*e) {
		if (e[0] == '\\' && e[1] == 'x') {
			out[n++] = (char)strtol((char[]){ e[2], e[3], 0 }, NULL, 16);
			e += 4;
		} else if (e[0] == '\\') {
			out[n++] = e[1] == 'n' ? '\n' : e[1] == 'r' ? '\r' : e[1] == 't' ? '\t' : e[1];
			e += 2;
		} else {
			out[n++] = *e++;
		}
	}
	return n;
}

static const struct {
	const char *in, *want;
} cases[] = {
	{ "BONE_B", "BONE_B" },
	{ "caf\xC3\xA9", "caf\xC3\xA9" },                  /* valid UTF-8 kept */
	{ "\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80" },        /* 4 bytes kept */
	{ "caf\xE9", "caf\\xe9" },                         /* Latin-1, not U+FFFD */
	{ "a\\b", "a\\\\b" },                              /* backslash doubled */
	{ "l1\nl2\tx\r", "l1\\nl2\\tx\\r" },
	{ "\x1B[2J", "\\x1b[2J" },                         /* terminal escape */
	{ "\x7F", "\\x7f" },
	{ "\xC2\x9B" "31m", "\\xc2\\x9b31m" },             /* C1 CSI */
	{ "\xC2\xA0", "\xC2\xA0" },                        /* U+00A0 kept */
	{ "\xC0\x80", "\\xc0\\x80" },                      /* overlong NUL */
	{ "\xED\xA0\x80", "\\xed\\xa0\\x80" },             /* surrogate */
	{ "x\xE2\x82", "x\\xe2\\x82" },                    /* cut short */
	{ "", "" },
};

START_TEST(escape_cases)
{
	const char *in = cases[_i].in;
	char got[64], back[64];
	size_t len = wl_escape(got, sizeof got, (const uint8_t *)in, strlen(in));
	ck_assert_str_eq(got, cases[_i].want);
	ck_assert_uint_eq(len, strlen(cases[_i].want));
	size_t n = unescape(got, back);
	ck_assert_uint_eq(n, strlen(in));
	ck_assert(memcmp(back, in, n) == 0);
	char *dup = wl_escape_dup(in);
	ck_assert_str_eq(dup, cases[_i].want);
	free(dup);
}
END_TEST

START_TEST(escape_cut_short)
{
	char small[5];
	size_t len = wl_escape(small, sizeof small, (const uint8_t *)"\x01\x02", 2);
	ck_assert_uint_eq(len, 8);
	ck_assert_str_eq(small, "\\x01");
	ck_assert_uint_eq(wl_escape(NULL, 0, (const uint8_t *)"ab\xFF", 3), 6);
}
END_TEST

/* wl_unescape reads every case's escaped form back to its raw bytes, and
 * leaves text with a backslash that starts no escape as it is. */
START_TEST(unescape_cases)
{
	const char *in = cases[_i].in;
	char back[64];
	size_t n = wl_unescape(back, cases[_i].want);
	ck_assert_uint_eq(n, strlen(in));
	ck_assert(memcmp(back, in, n + 1) == 0);
}
END_TEST

START_TEST(unescape_literal)
{
	char back[32];
	ck_assert_uint_eq(wl_unescape(back, "a\\qb\\x4"), 7); /* \q, \x4 without 2 digits */
	ck_assert_str_eq(back, "a\\qb\\x4");
	ck_assert_uint_eq(wl_unescape(back, "\\x41\\X\\xFf"), 4);
	ck_assert_str_eq(back, "A\\X\xff");
	ck_assert_uint_eq(wl_unescape(back, "trailing\\"), 9);
	ck_assert_str_eq(back, "trailing\\");
}
END_TEST

/* wl_esc: the same form as wl_escape, 4 results alive at once, and a name
 * whose form is longer than WL_ESC_MAX cut at a whole escape or sequence. */
START_TEST(esc_slots_and_cut)
{
	const char *a = wl_esc("a\x1b"), *b = wl_esc("\x1b[2J"), *c = wl_esc("caf\xC3\xA9"), *d = wl_esc(NULL);
	ck_assert_str_eq(a, "a\\x1b");
	ck_assert_str_eq(b, "\\x1b[2J");
	ck_assert_str_eq(c, "caf\xC3\xA9");
	ck_assert_str_eq(d, "(null)");
	/* long: 'x' then control bytes (4 escaped bytes each), then UTF-8 (2 each) */
	for (size_t lead = 0; lead < 4; lead++) {
		size_t n = WL_ESC_MAX / 2 + 16;
		char *s = malloc(n + 1);
		memset(s, 'x', lead);
		for (size_t i = lead; i + 1 < n; i += 2) {
			s[i] = (char)((i / 2) % 2 ? 0x1B : 0xC3);
			s[i + 1] = (char)((i / 2) % 2 ? 0x01 : 0xA9);
		}
		if ((n - lead) % 2)
			s[n - 1] = 'y';
		s[n] = 0;
		const char *e = wl_esc(s);
		size_t len = strlen(e);
		ck_assert_uint_le(len, WL_ESC_MAX);
		ck_assert_str_eq(e + len - 3, "...");
		/* what is left before "..." is a prefix of the full form ending
		 * at a piece's end: it reads back to a prefix of s */
		char *full = wl_escape_dup(s);
		ck_assert(strncmp(full, e, len - 3) == 0);
		char *back = malloc(len + 1);
		char *head = wl_os_strndup(e, len - 3);
		size_t m = wl_unescape(back, head);
		ck_assert(memcmp(back, s, m) == 0);
		char *again = malloc(4 * m + 1);
		wl_escape(again, 4 * m + 1, (const uint8_t *)back, m);
		ck_assert_str_eq(again, head); /* no cut piece */
		free(again);
		free(head);
		free(back);
		free(full);
		free(s);
	}
}
END_TEST

extern Suite *escape_suite(void);
Suite *escape_suite(void)
{
	Suite *s = suite_create("escape");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, escape_cases, 0, (int)(sizeof cases / sizeof cases[0]));
	tcase_add_test(tc, escape_cut_short);
	tcase_add_loop_test(tc, unescape_cases, 0, (int)(sizeof cases / sizeof cases[0]));
	tcase_add_test(tc, unescape_literal);
	tcase_add_test(tc, esc_slots_and_cut);
	suite_add_tcase(s, tc);
	return s;
}
