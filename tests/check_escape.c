/* check_escape.c - the escaped form of strings read from a file
 * (core/escape.h): kept bytes, C escapes, invalid UTF-8 and C1 controls as
 * \xNN, the length contract of wl_escape, and that every escaped form
 * reads back to the raw bytes. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"

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

extern Suite *escape_suite(void);
Suite *escape_suite(void)
{
	Suite *s = suite_create("escape");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, escape_cases, 0, (int)(sizeof cases / sizeof cases[0]));
	tcase_add_test(tc, escape_cut_short);
	suite_add_tcase(s, tc);
	return s;
}
