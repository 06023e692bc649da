/* tests/lint/b3d/test_nodes.c - the B3D version and NODE rules
 * (lint/b3d/check_nodes.c): for each rule a case that fires at the exact
 * bytes, a near miss that does not, and one more defective element adding
 * exactly one more finding. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/build/b3dlint.h"

/* BB3D of version v holding NODEs named names[0..n) in a chain (each the
 * child of the one before) with transform t[i]; *at[i] = NODE offsets. */
static wl_doc *chain(int32_t v, const char *const *names, const t_b3d_xform *t, size_t n, size_t *at)
{
	wb b;
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, (uint32_t)v);
	for (size_t i = 0; i < n; i++) {
		at[i] = b.len;
		t_b3d_node_begin(&b, names[i], t[i]);
	}
	for (size_t i = 0; i < n; i++)
		t_b3d_end(&b);
	t_b3d_end(&b);
	return t_b3dlint_take(&b);
}

static const char *const abc[] = { "a", "b", "c", "d" };
static const t_b3d_xform ids4[4] = {
	{ { 0, 0, 0 }, { 1, 1, 1 }, { 1, 0, 0, 0 } },
	{ { 0, 0, 0 }, { 1, 1, 1 }, { 1, 0, 0, 0 } },
	{ { 0, 0, 0 }, { 1, 1, 1 }, { 1, 0, 0, 0 } },
	{ { 0, 0, 0 }, { 1, 1, 1 }, { 1, 0, 0, 0 } },
};

static size_t count(int32_t v, const char *const *names, const t_b3d_xform *t, size_t n, const char *rule)
{
	size_t at[4];
	wl_doc *d = chain(v, names, t, n, at);
	size_t c = t_count(d, rule);
	t_b3dlint_free(d);
	return c;
}

START_TEST(version)
{
	const char *r = "b3d-version";
	size_t at[4];
	wl_doc *d = chain(2, abc, ids4, 1, at);
	t_b3dlint_one(d, r, 8, 4);
	t_b3dlint_free(d);
	ck_assert_uint_eq(count(1, abc, ids4, 1, r), 0);
	ck_assert_uint_eq(count(0, abc, ids4, 1, r), 1);
}
END_TEST

START_TEST(rotation_not_unit)
{
	const char *r = "b3d-node-rotation-not-unit";
	t_b3d_xform t[4];
	memcpy(t, ids4, sizeof t);
	t[1].rot[0] = 0; /* near miss: |q| = 1.0005, within 1e-3 */
	t[1].rot[1] = 1.0005f;
	ck_assert_uint_eq(count(1, abc, t, 3, r), 0);
	t[1].rot[1] = 1.1f;
	size_t at[4];
	wl_doc *d = chain(1, abc, t, 3, at);
	ck_assert_uint_eq(t_count(d, r), 1);
	/* NODE header 8, name "b\0", position 12, scale 12 */
	const wl_finding *f = t_find_at(d, r, at[1] + 8 + 2 + 24);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->length, 16);
	t_b3dlint_free(d);
	t[2].rot[0] = 0; /* a zero quaternion */
	ck_assert_uint_eq(count(1, abc, t, 3, r), 2);
}
END_TEST

START_TEST(non_finite_transform)
{
	const char *r = "b3d-float-not-finite";
	t_b3d_xform t[4];
	memcpy(t, ids4, sizeof t);
	ck_assert_uint_eq(count(1, abc, t, 3, r), 0);
	t[0].scale[2] = INFINITY;
	size_t at[4];
	wl_doc *d = chain(1, abc, t, 3, at);
	ck_assert_uint_eq(t_count(d, r), 1);
	ck_assert_uint_eq(t_count(d, "b3d-node-rotation-not-unit"), 0);
	const wl_finding *f = t_find_at(d, r, at[0] + 8 + 2);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->length, 40);
	t_b3dlint_free(d);
	t[2].rot[3] = NAN; /* the rotation: not also a not-unit finding */
	d = chain(1, abc, t, 3, at);
	ck_assert_uint_eq(t_count(d, r), 2);
	ck_assert_uint_eq(t_count(d, "b3d-node-rotation-not-unit"), 0);
	t_b3dlint_free(d);
}
END_TEST

START_TEST(duplicate_names)
{
	const char *r = "b3d-duplicate-node-name";
	const char *names[] = { "arm", "leg", "arm", "arm" };
	size_t at[4];
	wl_doc *d = chain(1, names, ids4, 3, at);
	const wl_finding *f = t_b3dlint_one(d, r, at[2] + 8, 4);
	char first[32];
	snprintf(first, sizeof first, "offset %zu", at[0]);
	ck_assert_ptr_nonnull(strstr(f->message, first));
	t_b3dlint_free(d);
	ck_assert_uint_eq(count(1, names, ids4, 4, r), 2);
	const char *near[] = { "arm", "arm.001", "Arm", "ar" };
	ck_assert_uint_eq(count(1, near, ids4, 4, r), 0);
}
END_TEST

/* One NODE holding the given children: 'M' a MESH (quad), 'B' an empty
 * BONE; *at[i] = offset of child i. */
static wl_doc *kinds(const char *children, size_t *at)
{
	wb b;
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	t_b3d_node_begin(&b, "n", t_b3d_identity);
	for (size_t i = 0; children[i]; i++) {
		at[i] = b.len;
		if (children[i] == 'M')
			t_b3d_quad_mesh(&b, -1, 0, NULL);
		else
			t_b3d_bone(&b, NULL, NULL, 0);
	}
	t_b3d_end(&b);
	t_b3d_end(&b);
	return t_b3dlint_take(&b);
}

START_TEST(kind_conflict)
{
	const char *r = "b3d-node-kind-conflict";
	size_t at[4];
	wl_doc *d = kinds("MB", at);
	t_b3dlint_one(d, r, at[1], 8);
	t_b3dlint_free(d);
	d = kinds("MBM", at);
	ck_assert_uint_eq(t_count(d, r), 2);
	t_b3dlint_free(d);
	d = kinds("BB", at);
	ck_assert_uint_eq(t_count(d, r), 1);
	t_b3dlint_free(d);
	d = kinds("M", at);
	ck_assert_uint_eq(t_count(d, r), 0);
	t_b3dlint_free(d);
}
END_TEST

extern Suite *b3d_nodes_suite(void);
Suite *b3d_nodes_suite(void)
{
	Suite *s = suite_create("b3d_nodes");
	TCase *t = tcase_create("rules");
	tcase_add_test(t, version);
	tcase_add_test(t, rotation_not_unit);
	tcase_add_test(t, non_finite_transform);
	tcase_add_test(t, duplicate_names);
	tcase_add_test(t, kind_conflict);
	suite_add_tcase(s, t);
	return s;
}
