/*
 * tests/lint/b3d/test_no_nodes.c - b3d-no-nodes (lint/b3d/check_no_nodes.c): a BB3D
 * with a BRUS and no NODE fires once, over the whole BB3D; the same file
 * with one empty NODE does not (that file is b3d-no-tris).
 */
#include <check.h>

#include "tests/build/b3dbuild.h"
#include "tests/build/b3dlint_util.h"
#include "core/finding.h"

extern Suite *b3d_no_nodes_suite(void);

/* BB3D { BRUS { "m" } [, NODE "root" {}] }. */
static void build(wb *b, int with_node)
{
	t_w3d_init(b);
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
	t_b3d_begin(b, "BRUS");
	t_w3d_u32(b, 0);
	t_b3d_brush(b, "m", NULL, 0);
	t_b3d_end(b);
	if (with_node) {
		t_b3d_node_begin(b, "root", t_b3d_identity);
		t_b3d_end(b);
	}
	t_b3d_end(b);
}

START_TEST(test_fires)
{
	wb b;
	build(&b, 0);
	wl_doc *d = t_b3dutil_lint(&b, NULL);
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-no-nodes"), 1);
	const wl_finding *f = t_b3dutil_find(d, "b3d-no-nodes", 0);
	ck_assert_uint_eq(f->offset, 0);
	ck_assert_uint_eq(f->length, b.len);
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-no-tris"), 0);
	t_b3dutil_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_near_miss)
{
	wb b;
	build(&b, 1);
	wl_doc *d = t_b3dutil_lint(&b, NULL);
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-no-nodes"), 0);
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-no-tris"), 1);
	t_b3dutil_free(d);
	t_w3d_free(&b);
}
END_TEST

Suite *b3d_no_nodes_suite(void)
{
	Suite *s = suite_create("b3d-no-nodes");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_fires);
	tcase_add_test(tc, test_near_miss);
	suite_add_tcase(s, tc);
	return s;
}
