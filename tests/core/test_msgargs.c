/* tests/core/test_msgargs.c - messages formatted on demand (core/msgargs.h and
 * wl_finding_message in core/finding.h): the text made from captured
 * arguments is byte for byte vsnprintf's, for every conversion the checks
 * use (widths and precisions given and by '*', length modifiers, %%,
 * strings longer than the capture buffer, strings that are freed after the
 * capture); conversions that cannot be captured are refused; a lazy list
 * keeps arguments, not text, and its capped findings capture nothing. */
#include <check.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/finding.h"
#include "core/msgargs.h"

/* Captures fmt's arguments, then checks the formatted text against
 * vsnprintf's. */
static void same(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void same(const char *fmt, ...)
{
	va_list ap, cp;
	va_start(ap, fmt);
	va_copy(cp, ap);
	char want[4096];
	vsnprintf(want, sizeof want, fmt, cp);
	va_end(cp);
	size_t n = wl_msgargs_capture(NULL, 0, fmt, ap);
	ck_assert_uint_gt(n, 0);
	unsigned char *rec = malloc(n);
	ck_assert_ptr_nonnull(rec);
	ck_assert_uint_eq(wl_msgargs_capture(rec, n, fmt, ap), n);
	va_end(ap);
	ck_assert_uint_eq(wl_msgargs_size(rec), n);
	wl_msgbuf b = { 0 };
	ck_assert_int_eq(wl_msgargs_format(&b, fmt, rec), 0);
	ck_assert_msg(strcmp(b.text, want) == 0, "'%s': '%s', want '%s'", fmt, b.text, want);
	ck_assert_uint_eq(b.len, strlen(want));
	wl_msgbuf_free(&b);
	free(rec);
}

START_TEST(msgargs_match_vsnprintf)
{
	same("plain text, no conversion");
	same("100%% of %d%%", 42);
	same("pivot %u '%s' has parent %u, not lower than %u", 7u, "BONE_L", 9u, 7u);
	same("%d %i %hhd %hd %ld %lld %jd %zd %td", -1, 2, (signed char)-3, (short)-4, -5L, -6LL, (intmax_t)-7,
	     (ssize_t)-8, (ptrdiff_t)-9);
	same("%u %o %x %X %hhu %hu %lu %llu %ju %zu", 1u, 8u, 255u, 255u, (unsigned char)250, (unsigned short)65535,
	     4000000000UL, 18446744073709551615ULL, (uintmax_t)12, (size_t)13);
	same("0x%llx 0x%08" PRIX32 " %" PRIu64 " %" PRId32, 0xdeadbeefULL, (uint32_t)0xabc, (uint64_t)1 << 63,
	     INT32_MIN);
	same("%g %f %.3f %e %.2g %a %G %10.4f|%-10.2f|%+g", 0.1, 1.5, -2.0 / 3.0, 1e300, 123456.0, 0.5, 1e-10, 3.14159,
	     2.5, 1.0);
	same("%g %g %g", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0);
	same("[%5s] [%-5s] [%.2s] [%.0s] [%s]", "ab", "cd", "efgh", "ijk", "");
	same("[%*d] [%-*d] [%*d] [%.*s] [%.*s] [%*.*f]", 6, 42, 6, 42, -6, 42, 3, "abcdef", -1, "whole", 8, 2, 3.14159);
	same("%c%c %5c|%-3c|", 'a', 'b', 'c', 'd');
	same("%p %s", (void *)0x1234, "end");
	same("%#x %#o %05d % d %+d", 255u, 8u, 42, 7, 7);
	/* the conversions written without snprintf, at their limits */
	same("%d %i %u %lld %llu %zu %hhd %hhu %hd %hu", INT32_MIN, INT32_MAX, UINT32_MAX, (long long)INT64_MIN,
	     (unsigned long long)UINT64_MAX, (size_t)0, (signed char)-128, (unsigned char)255, (short)-32768,
	     (unsigned short)65535);
	same("%s%s|%s|", "", "a", "two words");
}
END_TEST

/* Starts f in arena a with lazy messages on (then turns them off again). */
static void lazy_init(wl_findings *f, wl_arena *a)
{
	wl_findings_lazy(1);
	wl_findings_init(f, a);
	wl_findings_lazy(0);
}

START_TEST(msgargs_long_and_copied_strings)
{
	/* a record larger than wl_report's 512-byte capture buffer */
	char big[3000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = 0;
	same("name '%s' is %zu bytes", big, strlen(big));
	/* the string is copied: freeing the source after the capture changes
	 * nothing; a precision copies only that many bytes */
	char *name = strdup("TANK_BODY");
	ck_assert_ptr_nonnull(name);
	wl_arena *a = wl_arena_new(0);
	ck_assert_ptr_nonnull(a);
	wl_findings f;
	lazy_init(&f, a);
	wl_finding *x = wl_report_named(&f, "r", NULL, -1, 0, 0, "mesh '%s' ('%.4s')", name, name);
	ck_assert_ptr_nonnull(x);
	ck_assert_ptr_null(x->message);
	memset(name, '#', strlen(name));
	free(name);
	wl_msgbuf b = { 0 };
	ck_assert_str_eq(wl_finding_message(x, &b), "mesh 'TANK_BODY' ('TANK')");
	wl_msgbuf_free(&b);
	wl_findings_release(&f);
	wl_arena_free(a);
}
END_TEST

/* The record size wl_msgargs_capture gives for fmt and the arguments. */
static size_t capture_size(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t n = wl_msgargs_capture(NULL, 0, fmt, ap);
	va_end(ap);
	return n;
}

START_TEST(msgargs_refuse_what_they_cannot_capture)
{
	ck_assert_uint_eq(capture_size("%1$d", 1), 0);
	ck_assert_uint_eq(capture_size("%Lf", (long double)1), 0);
	ck_assert_uint_eq(capture_size("%ls", L"wide"), 0);
	ck_assert_uint_eq(capture_size("%lc", (int)'w'), 0);
	ck_assert_uint_eq(capture_size("trailing %"), 0);
	/* near miss: the same without those */
	ck_assert_uint_gt(capture_size("%d %f %s %c", 1, 1.0, "s", 'c'), 0);
}
END_TEST

/* A lazy list: uncapturable formats are formatted at once; the cap only
 * counts; an eager list (the default) formats at once. */
START_TEST(findings_lazy_and_eager)
{
	wl_arena *a = wl_arena_new(0);
	ck_assert_ptr_nonnull(a);
	wl_findings lazy;
	lazy_init(&lazy, a);
	wl_findings eager;
	wl_findings_init(&eager, a);
	wl_finding *x = wl_report_named(&lazy, "r", NULL, -1, 0, 0, "value %Lg", (long double)2);
	ck_assert_ptr_nonnull(x);
	ck_assert_str_eq(x->message, "value 2");
	x = wl_report_named(&eager, "r", NULL, -1, 0, 0, "value %d", 3);
	ck_assert_str_eq(x->message, "value 3");
	ck_assert_ptr_null(x->args);
	size_t before = wl_arena_used(a);
	for (int i = 0; i < WL_FINDINGS_PER_RULE_MAX + 50; i++)
		wl_report_named(&lazy, "capped", NULL, -1, 0, 0, "element %d", i);
	size_t per = (wl_arena_used(a) - before) / WL_FINDINGS_PER_RULE_MAX;
	/* the 50 over the cap stored nothing: the arena grew by the kept ones
	 * only (one 16-byte-rounded record each) */
	ck_assert_uint_eq(wl_arena_used(a) - before, per * WL_FINDINGS_PER_RULE_MAX);
	ck_assert_uint_eq(wl_findings_dropped(&lazy, "capped"), 50);
	wl_msgbuf b = { 0 };
	ck_assert_str_eq(wl_finding_message(&lazy.items[lazy.count - 1], &b), "element 199");
	wl_msgbuf_free(&b);
	wl_findings_release(&lazy);
	wl_findings_release(&eager);
	wl_arena_free(a);
}
END_TEST

extern Suite *msgargs_suite(void);
Suite *msgargs_suite(void)
{
	Suite *s = suite_create("msgargs");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, msgargs_match_vsnprintf);
	tcase_add_test(tc, msgargs_long_and_copied_strings);
	tcase_add_test(tc, msgargs_refuse_what_they_cannot_capture);
	tcase_add_test(tc, findings_lazy_and_eager);
	suite_add_tcase(s, tc);
	return s;
}
