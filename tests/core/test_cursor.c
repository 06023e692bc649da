/* tests/core/test_cursor.c - the bounds-checked cursor (core/cursor.h). */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "core/cursor.h"

START_TEST(test_le_values)
{
	const uint8_t p[] = { 0x01, 0x02, 0x03, 0x04, 0xFE, 0xFF, 0x00, 0x00, 0x80, 0x3F };
	wl_cursor c = wl_cursor_make(p, sizeof p, 100);
	ck_assert_uint_eq(wl_cursor_u32(&c), 0x04030201u);
	ck_assert_uint_eq(wl_cursor_u16(&c), 0xFFFEu);
	ck_assert_uint_eq(wl_cursor_offset(&c), 106);
	float f = wl_cursor_f32(&c);
	ck_assert(f == 1.0f); /* bytes 00 00 80 3F are binary32 1.0 */
	ck_assert(!c.short_read);
	ck_assert_uint_eq(wl_cursor_remaining(&c), 0);
	ck_assert_uint_eq(c.pos, sizeof p);
}
END_TEST

START_TEST(test_u8_and_bytes)
{
	const uint8_t p[] = { 0xAA, 'h', 'i', '!' };
	wl_cursor c = wl_cursor_make(p, sizeof p, 0);
	ck_assert_uint_eq(wl_cursor_u8(&c), 0xAA);
	char s[3];
	wl_cursor_bytes(&c, s, 3);
	ck_assert(memcmp(s, "hi!", 3) == 0);
	ck_assert(!c.short_read);
}
END_TEST

START_TEST(test_short_u32_returns_zero)
{
	const uint8_t p[] = { 1, 2, 3 };
	wl_cursor c = wl_cursor_make(p, sizeof p, 0);
	ck_assert_uint_eq(wl_cursor_u32(&c), 0);
	ck_assert(c.short_read);
	ck_assert_uint_eq(c.pos, 0); /* nothing consumed by a failed read */
	ck_assert_uint_eq(wl_cursor_remaining(&c), sizeof p);
}
END_TEST

START_TEST(test_short_read_is_sticky)
{
	const uint8_t p[] = { 7, 8, 9, 10, 11 };
	wl_cursor c = wl_cursor_make(p, sizeof p, 0);
	ck_assert_uint_eq(wl_cursor_u32(&c), 0x0A090807u);
	ck_assert_uint_eq(wl_cursor_u16(&c), 0); /* 1 byte left: short */
	ck_assert(c.short_read);
	/* One byte remains, but the cursor stays failed. */
	ck_assert_uint_eq(wl_cursor_u8(&c), 0);
	ck_assert(c.short_read);
	ck_assert_uint_eq(c.pos, 4);
	ck_assert(wl_cursor_f32(&c) == 0.0f);
	ck_assert(!wl_cursor_skip(&c, 1));
}
END_TEST

START_TEST(test_each_reader_past_end)
{
	const uint8_t p[] = { 0xFF, 0xFF, 0xFF };
	for (int which = 0; which < 5; which++) {
		wl_cursor c = wl_cursor_make(p, 1, 0); /* a view of 1 byte */
		(void)wl_cursor_u8(&c);
		ck_assert(!c.short_read);
		switch (which) {
		case 0: ck_assert_uint_eq(wl_cursor_u8(&c), 0); break;
		case 1: ck_assert_uint_eq(wl_cursor_u16(&c), 0); break;
		case 2: ck_assert_uint_eq(wl_cursor_u32(&c), 0); break;
		case 3: ck_assert(wl_cursor_f32(&c) == 0.0f); break;
		default: ck_assert(!wl_cursor_skip(&c, 1)); break;
		}
		ck_assert_msg(c.short_read, "reader %d did not set short_read", which);
		ck_assert_uint_eq(c.pos, 1);
	}
}
END_TEST

START_TEST(test_bytes_short_zero_fills)
{
	const uint8_t p[] = { 1, 2 };
	wl_cursor c = wl_cursor_make(p, sizeof p, 0);
	uint8_t dst[4] = { 9, 9, 9, 9 };
	wl_cursor_bytes(&c, dst, sizeof dst);
	ck_assert(c.short_read);
	for (size_t i = 0; i < sizeof dst; i++)
		ck_assert_uint_eq(dst[i], 0);
}
END_TEST

START_TEST(test_take_huge_and_zero)
{
	const uint8_t p[] = { 1, 2, 3, 4 };
	wl_cursor c = wl_cursor_make(p, sizeof p, 0);
	ck_assert_ptr_eq(wl_cursor_take(&c, 0), p); /* zero bytes always fit */
	ck_assert(wl_cursor_skip(&c, 2));
	ck_assert_ptr_null(wl_cursor_take(&c, SIZE_MAX)); /* no overflow in the check */
	ck_assert(c.short_read);
	ck_assert_uint_eq(c.pos, 2);
}
END_TEST

START_TEST(test_empty_view)
{
	wl_cursor c = wl_cursor_make(NULL, 0, 42);
	ck_assert_uint_eq(wl_cursor_remaining(&c), 0);
	ck_assert_uint_eq(wl_cursor_offset(&c), 42);
	ck_assert_uint_eq(wl_cursor_u8(&c), 0);
	ck_assert(c.short_read);
}
END_TEST

START_TEST(test_le_helpers)
{
	const uint8_t p[] = { 0x78, 0x56, 0x34, 0x12 };
	ck_assert_uint_eq(wl_le16(p), 0x5678u);
	ck_assert_uint_eq(wl_le32(p), 0x12345678u);
	const uint8_t m[] = { 0x00, 0x00, 0xC0, 0xBF };
	ck_assert(wl_lef32(m) == -1.5f);
}
END_TEST

START_TEST(test_offset_tracks_origin)
{
	const uint8_t p[16] = { 0 };
	wl_cursor c = wl_cursor_make(p + 8, 8, 0x1008);
	ck_assert(wl_cursor_skip(&c, 5));
	ck_assert_uint_eq(wl_cursor_offset(&c), 0x100D);
	ck_assert_uint_eq(wl_cursor_remaining(&c), 3);
}
END_TEST

/* wl_lef32_all_finite against isfinite on each value: every count up to
 * 20 (the vector lanes, the 8-value blocks and the tail), every position
 * of one non-finite value, and the finite values next to them; an
 * unaligned start. */
START_TEST(test_all_finite_each_position)
{
	static const uint32_t bad[] = { 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFFFFFFFu, 0x7F800001u };
	static const uint32_t good[] = { 0x7F7FFFFFu, 0xFF7FFFFFu, 0x00000000u, 0x80000000u, 0x3F800000u,
					 0x007FFFFFu, 0x00000001u };
	uint8_t buf[1 + 4 * 20];
	for (size_t n = 0; n <= 20; n++) {
		for (size_t g = 0; g < sizeof good / sizeof *good; g++) {
			for (size_t i = 0; i < n; i++) {
				uint32_t v = good[(g + i) % (sizeof good / sizeof *good)];
				for (int k = 0; k < 4; k++)
					buf[1 + 4 * i + (size_t)k] = (uint8_t)(v >> (8 * k));
			}
			ck_assert_msg(wl_lef32_all_finite(buf + 1, n), "n %zu finite", n);
			for (size_t at = 0; at < n; at++)
				for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
					uint8_t keep[4];
					memcpy(keep, buf + 1 + 4 * at, 4);
					for (int k = 0; k < 4; k++)
						buf[1 + 4 * at + (size_t)k] = (uint8_t)(bad[b] >> (8 * k));
					ck_assert_msg(!wl_lef32_all_finite(buf + 1, n), "n %zu, 0x%08x at %zu", n,
						      (unsigned)bad[b], at);
					/* one value fewer: the bad one left out when last */
					if (at == n - 1)
						ck_assert(wl_lef32_all_finite(buf + 1, n - 1));
					memcpy(buf + 1 + 4 * at, keep, 4);
				}
		}
	}
}
END_TEST

/* Declared here for -Wmissing-prototypes (written so that the suite list
 * generator, which matches definitions at the start of a line, skips it). */
extern Suite *cursor_suite(void);

Suite *cursor_suite(void)
{
	Suite *s = suite_create("cursor");
	TCase *tc = tcase_create("cursor");
	tcase_add_test(tc, test_le_values);
	tcase_add_test(tc, test_u8_and_bytes);
	tcase_add_test(tc, test_short_u32_returns_zero);
	tcase_add_test(tc, test_short_read_is_sticky);
	tcase_add_test(tc, test_each_reader_past_end);
	tcase_add_test(tc, test_bytes_short_zero_fills);
	tcase_add_test(tc, test_take_huge_and_zero);
	tcase_add_test(tc, test_empty_view);
	tcase_add_test(tc, test_le_helpers);
	tcase_add_test(tc, test_offset_tracks_origin);
	tcase_add_test(tc, test_all_finite_each_position);
	suite_add_tcase(s, tc);
	return s;
}
