/*
 * tests/lint/b3d/test_no_tris.c - b3d-no-tris (lint/b3d/check_no_tris.c): a NODE
 * whose MESH has VRTS and no TRIS fires once, over the whole BB3D (beside
 * b3d-mesh-no-tris at the MESH); a second MESH with a TRIS is the near miss
 * (the MESH without TRIS is still reported by b3d-mesh-no-tris), and so is
 * a TRIS that holds no triangle (Assimp still makes a mesh of it).
 */
#include <check.h>

#include "tests/build/b3dbuild.h"
#include "tests/build/b3dlint_util.h"
#include "core/finding.h"

extern Suite *b3d_no_tris_suite(void);

static const float TRI[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0 };
static const int32_t IDX[] = { 0, 1, 2 };

/* BB3D { NODE "a" { MESH { VRTS } } [, NODE "b" { MESH { VRTS, TRIS
 * (tris triangles) } }] }. */
static void build(wb *b, int second, size_t tris)
{
	t_w3d_init(b);
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
	t_b3d_node_begin(b, "a", t_b3d_identity);
	t_b3d_begin(b, "MESH");
	t_w3d_u32(b, (uint32_t)-1);
	t_b3d_vrts(b, 0, 0, 0, TRI, 3);
	t_b3d_end(b);
	t_b3d_end(b);
	if (second) {
		t_b3d_node_begin(b, "b", t_b3d_identity);
		t_b3d_begin(b, "MESH");
		t_w3d_u32(b, (uint32_t)-1);
		t_b3d_vrts(b, 0, 0, 0, TRI, 3);
		t_b3d_tris(b, -1, IDX, tris);
		t_b3d_end(b);
		t_b3d_end(b);
	}
	t_b3d_end(b);
}

static size_t count(int second, size_t tris, const char *rule)
{
	wb b;
	build(&b, second, tris);
	wl_doc *d = t_b3dutil_lint(&b, NULL);
	size_t n = t_b3dutil_count(d, rule);
	t_b3dutil_free(d);
	t_w3d_free(&b);
	return n;
}

START_TEST(test_fires)
{
	wb b;
	build(&b, 0, 0);
	wl_doc *d = t_b3dutil_lint(&b, NULL);
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-no-tris"), 1);
	const wl_finding *f = t_b3dutil_find(d, "b3d-no-tris", 0);
	ck_assert_uint_eq(f->offset, 0);
	ck_assert_uint_eq(f->length, b.len);
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-mesh-no-tris"), 1);
	t_b3dutil_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_near_miss)
{
	ck_assert_uint_eq(count(1, 1, "b3d-no-tris"), 0);
	ck_assert_uint_eq(count(1, 1, "b3d-mesh-no-tris"), 1);
	ck_assert_uint_eq(count(1, 0, "b3d-no-tris"), 0);
	ck_assert_uint_eq(count(1, 0, "b3d-tris-empty"), 1);
}
END_TEST

Suite *b3d_no_tris_suite(void)
{
	Suite *s = suite_create("b3d-no-tris");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_fires);
	tcase_add_test(tc, test_near_miss);
	suite_add_tcase(s, tc);
	return s;
}
