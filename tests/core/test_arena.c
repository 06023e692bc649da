/* tests/core/test_arena.c - the shared memory cap of core/arena.c: arenas draw their
 * blocks from it, an allocation past it fails and marks the arena capped,
 * freeing an arena gives its blocks back; and the size syntax of
 * wl_mem_parse_size (--memory-cap, memory-cap). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/arena.h"
#include "core/chunk.h"
#include "core/w3d/w3d_format.h"

extern Suite *arena_suite(void);

START_TEST(cap_shared_by_arenas)
{
	uint64_t base = wl_mem_held();
	wl_mem_set_cap(base + ((uint64_t)1 << 20)); /* 1 MiB more than now */
	wl_arena *a = wl_arena_new(0), *b = wl_arena_new(0);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	/* a takes 600 KiB: b cannot take 600 KiB more, but a small block */
	ck_assert_ptr_nonnull(wl_arena_alloc(a, 600 << 10));
	ck_assert(!wl_arena_capped(a));
	ck_assert_ptr_null(wl_arena_alloc(b, 600 << 10));
	ck_assert(wl_arena_capped(b));
	ck_assert_ptr_nonnull(wl_arena_alloc(b, 100));
	ck_assert_uint_gt(wl_mem_held(), base + (600 << 10));
	/* a's blocks go back to the cap when it is freed */
	wl_arena_free(a);
	ck_assert_ptr_nonnull(wl_arena_alloc(b, 600 << 10));
	wl_arena_free(b);
	ck_assert_uint_eq(wl_mem_held(), base);
	wl_mem_set_cap(0);
	ck_assert_uint_eq(wl_mem_cap(), WL_MEM_CAP_DEFAULT);
}
END_TEST

START_TEST(cap_reached_by_reader)
{
	/* 100,000 empty chunks read under a cap smaller than their nodes: the
	 * document is marked out of memory, the arena capped, nothing crashes */
	size_t n = 100000;
	uint8_t *bytes = calloc(n, 8);
	ck_assert_ptr_nonnull(bytes);
	wl_mem_set_cap(wl_mem_held() + ((uint64_t)2 << 20));
	wl_doc *d = wl_doc_read(&w3d_format, "z.w3d", bytes, n * 8);
	ck_assert_ptr_nonnull(d);
	ck_assert(d->oom);
	ck_assert(wl_arena_capped(d->arena));
	ck_assert_uint_lt(d->chunk_count, n);
	wl_doc_free(d);
	/* under the default cap the same file is read whole */
	wl_mem_set_cap(0);
	d = wl_doc_read(&w3d_format, "z.w3d", bytes, n * 8);
	ck_assert(!d->oom);
	ck_assert_uint_eq(d->chunk_count, n);
	wl_doc_free(d);
	free(bytes);
}
END_TEST

START_TEST(parse_size)
{
	uint64_t v = 0;
	ck_assert_int_eq(wl_mem_parse_size("1048576", &v), 0);
	ck_assert_uint_eq(v, 1048576);
	ck_assert_int_eq(wl_mem_parse_size("512M", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)512 << 20);
	ck_assert_int_eq(wl_mem_parse_size("2GiB", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)2 << 30);
	ck_assert_int_eq(wl_mem_parse_size("3k", &v), 0);
	ck_assert_uint_eq(v, 3072);
	ck_assert_int_eq(wl_mem_parse_size("1T", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)1 << 40);
	static const char *const bad[] = { "", "0", "M", "-1", "1X", "1MM", "1 M", "99999999999999999999",
					   "20000000000T" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(wl_mem_parse_size(bad[i], &v) == -1, "'%s' accepted", bad[i]);
}
END_TEST

Suite *arena_suite(void)
{
	Suite *s = suite_create("arena");
	TCase *tc = tcase_create("arena");
	tcase_add_test(tc, cap_shared_by_arenas);
	tcase_add_test(tc, cap_reached_by_reader);
	tcase_add_test(tc, parse_size);
	suite_add_tcase(s, tc);
	return s;
}
