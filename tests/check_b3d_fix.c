/* check_b3d_fix.c - the B3D fixers (fix/b3d/) through the driver
 * (fix/driver.h): before/after, verification, idempotence, and the shared
 * structural fixers on B3D files. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "../core/b3d/model.h"
#include "../fix/driver.h"
#include "b3dbuild.h"

extern Suite *b3d_fix_suite(void);

static wl_catalog *CAT;

static void setup(void)
{
	char err[256];
	CAT = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(CAT != NULL, "%s", err);
}

static void teardown(void)
{
	wl_catalog_free(CAT);
	CAT = NULL;
}

static size_t findings_of(const uint8_t *p, size_t n, const char *rule)
{
	wl_doc *d = wl_lint_bytes(CAT, NULL, "t.b3d", p, n);
	ck_assert_ptr_nonnull(d);
	size_t k = 0;
	for (size_t i = 0; i < d->findings.count; i++)
		k += strcmp(d->findings.items[i].rule, rule) == 0;
	wl_doc_free(d);
	return k;
}

/* The quad model with `extra` stray bytes at the end of its TRIS. */
static void quad_with_slack(wb *b, size_t extra)
{
	static const float quad[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
	static const int32_t idx[] = { 0, 1, 2, 0, 2, 3 };
	b3b_begin(b, "BB3D");
	wb_u32(b, 1);
	b3b_node_begin(b, "root", b3b_identity);
	b3b_begin(b, "MESH");
	wb_u32(b, (uint32_t)-1);
	b3b_vrts(b, 0, 0, 0, quad, 4);
	b3b_begin(b, "TRIS");
	wb_u32(b, (uint32_t)-1);
	for (size_t i = 0; i < 6; i++)
		wb_u32(b, (uint32_t)idx[i]);
	wb_zeros(b, extra);
	b3b_end(b);
	b3b_end(b);
	b3b_end(b);
	b3b_end(b);
}

START_TEST(test_trim_record_slack)
{
	wb b;
	wb_init(&b);
	quad_with_slack(&b, 5);
	ck_assert_uint_eq(findings_of(b.data, b.len, "b3d-record-slack"), 1);
	wl_fix_options o = { 0 };
	o.catalog = CAT;
	/* Safe run: the unsafe fixer does not run. */
	wl_fix_result r;
	ck_assert_int_eq(wl_fix_run(&o, "t.b3d", b.data, b.len, &r), 0);
	ck_assert(!r.changed);
	wl_fix_result_free(&r);
	o.unsafe = true;
	ck_assert_int_eq(wl_fix_run(&o, "t.b3d", b.data, b.len, &r), 0);
	ck_assert(r.changed);
	ck_assert(r.verified);
	ck_assert_uint_eq(r.out_len, b.len - 5);
	ck_assert_uint_eq(findings_of(r.out, r.out_len, "b3d-record-slack"), 0);
	/* The output is the same model as the file without the slack. */
	wb clean;
	wb_init(&clean);
	quad_with_slack(&clean, 0);
	ck_assert_uint_eq(r.out_len, clean.len);
	ck_assert(memcmp(r.out, clean.data, clean.len) == 0);
	/* Idempotent: a second run changes nothing. */
	wl_fix_result r2;
	ck_assert_int_eq(wl_fix_run(&o, "t.b3d", r.out, r.out_len, &r2), 0);
	ck_assert(!r2.changed);
	wl_fix_result_free(&r2);
	wl_fix_result_free(&r);
	wb_free(&clean);
	wb_free(&b);
}
END_TEST

START_TEST(test_trailing_bytes_on_b3d)
{
	wb b;
	wb_init(&b);
	b3b_quad_model(&b, NULL, NULL);
	size_t good = b.len;
	wb_zeros(&b, 3);
	ck_assert_uint_eq(findings_of(b.data, b.len, "trailing-bytes"), 1);
	wl_fix_options o = { 0 };
	o.catalog = CAT;
	wl_fix_result r;
	ck_assert_int_eq(wl_fix_run(&o, "t.b3d", b.data, b.len, &r), 0);
	ck_assert(r.changed && r.verified);
	ck_assert_uint_eq(r.out_len, good);
	ck_assert(memcmp(r.out, b.data, good) == 0);
	wl_fix_result_free(&r);
	/* Near miss: the clean file is left alone. */
	ck_assert_int_eq(wl_fix_run(&o, "t.b3d", b.data, good, &r), 0);
	ck_assert(!r.changed);
	wl_fix_result_free(&r);
	wb_free(&b);
}
END_TEST

START_TEST(test_container_size_on_b3d)
{
	/* BB3D's length one byte short: its NODE ends past it, the whole file
	 * tiles: the reader extends BB3D (container-size-too-small or
	 * chunk-size-past-eof) and container-sizes repairs the length. */
	wb b;
	wb_init(&b);
	b3b_quad_model(&b, NULL, NULL);
	uint32_t len = (uint32_t)(b.len - 8);
	const uint8_t bad[4] = { (uint8_t)(len + 7), (uint8_t)((len + 7) >> 8), 0, 0 };
	memcpy(b.data + 4, bad, 4);
	wl_fix_options o = { 0 };
	o.catalog = CAT;
	wl_fix_result r;
	ck_assert_int_eq(wl_fix_run(&o, "t.b3d", b.data, b.len, &r), 0);
	ck_assert(r.changed && r.verified);
	ck_assert_uint_eq(r.out[4] | r.out[5] << 8, len);
	wl_fix_result_free(&r);
	wb_free(&b);
}
END_TEST

Suite *b3d_fix_suite(void)
{
	Suite *s = suite_create("b3d_fix");
	TCase *tc = tcase_create("b3d_fix");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_trim_record_slack);
	tcase_add_test(tc, test_trailing_bytes_on_b3d);
	tcase_add_test(tc, test_container_size_on_b3d);
	suite_add_tcase(s, tc);
	return s;
}
