/* tests/fix/w3d/test_model.c - "an output with no model left is a refusal" (issue
 * 29 item 1): the driver's check (fix/driver.c check_model) through the
 * format hook wl_fix_format.model_left (fix/fix.h; B3D fix/b3d/fixers.c:
 * a NODE holding a MESH; P3D fix/p3d/fixers.c: an MLOD LOD read whole).
 * A damaged B3D whose salvage would keep only a BRUS is refused with the
 * reason and the original kept; a salvage that keeps a NODE with its MESH,
 * and a whole file that never had a mesh, are not. */
#include <check.h>
#include <string.h>

#include "fix/driver.h"
#include "fix/fix.h"
#include "tests/build/b3dbuild.h"
#include "tests/build/fix_util.h"
#include "tests/build/p3dbuild.h"
#include "tests/build/p3dlint.h"
#include "tests/build/reader_util.h"

extern Suite *fix_model_suite(void);

/* BB3D { BRUS (one brush), NODE "root" { the quad MESH } }; the NODE's
 * header offset goes to *node_at. */
static void brush_then_quad(wb *b, size_t *node_at)
{
	t_w3d_init(b);
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
	t_b3d_begin(b, "BRUS");
	t_w3d_u32(b, 0);
	t_b3d_brush(b, "skin", NULL, 0);
	t_b3d_end(b);
	*node_at = b->len;
	t_b3d_node_begin(b, "root", t_b3d_identity);
	t_b3d_quad_mesh(b, -1, 0, NULL);
	t_b3d_end(b);
	t_b3d_end(b);
}

/* The driver over the first n bytes of b (--unsafe). */
static void run_cut(const wb *b, size_t n, wl_fix_result *r)
{
	wl_fix_options o = { 0 };
	o.catalog = t_cat;
	o.unsafe = true;
	ck_assert_int_eq(wl_fix_run(&o, "t.b3d", b->data, n, r), 0);
}

/* Issue 29 (advtrains_platform_diag.b3d cut at 75 bytes: a BB3D holding
 * only a BRUS written with "0 findings left"): the file cut inside the
 * NODE (its name, its transform: the salvage keeps the BRUS only) or in
 * its MESH's brush id (a NODE without a MESH is kept): the repair is
 * refused ("no model left"), nothing changed. */
START_TEST(test_cut_leaves_no_model)
{
	wb b;
	size_t node_at;
	brush_then_quad(&b, &node_at);
	const size_t at[] = { node_at + 10, node_at + 30, node_at + 60 };
	wl_fix_result r;
	run_cut(&b, at[_i], &r);
	ck_assert(!r.verified);
	ck_assert_uint_ge(r.problem_count, 1);
	ck_assert_msg(strstr(r.problems[r.problem_count - 1], "no model left") != NULL, "%s",
		      r.problems[r.problem_count - 1]);
	wl_fix_result_free(&r);
	t_w3d_free(&b);
}
END_TEST

/* Near misses: a cut inside the TRIS (the MESH keeps its whole triangles:
 * a NODE with a MESH is left) is written; a whole NODE with no MESH whose
 * repeated keys a safe fixer drops is written (its input had no model
 * either and was not damaged). */
START_TEST(test_model_left_near_miss)
{
	wb b;
	size_t node_at;
	brush_then_quad(&b, &node_at);
	wl_fix_result r;
	run_cut(&b, b.len - 6, &r);
	ck_assert_msg(r.changed && r.verified, "%s", r.problem_count ? r.problems[0] : "");
	wl_fix_result_free(&r);
	t_w3d_free(&b);

	/* the second KEYS repeats frames 1 and 2 and keeps frame 3 (a KEYS
	 * whose every key repeats is left alone: it would be emptied) */
	static const int32_t frame[] = { 1, 2 }, frame3[] = { 1, 2, 3 };
	static const float pos[] = { 0, 0, 0, 1, 2, 3 }, pos3[] = { 0, 0, 0, 1, 2, 3, 4, 5, 6 };
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	t_b3d_node_begin(&b, "bone", t_b3d_identity);
	t_b3d_keys(&b, 1, frame, pos, 2);
	t_b3d_keys(&b, 1, frame3, pos3, 3);
	t_b3d_end(&b);
	t_b3d_end(&b);
	run_cut(&b, b.len, &r);
	ck_assert_msg(r.changed && r.verified, "%s", r.problem_count ? r.problems[0] : "");
	wl_fix_result_free(&r);
	t_w3d_free(&b);
}
END_TEST

/* The P3D side of the hook: an MLOD file's LOD read whole is a model; the
 * same file cut inside its only LOD holds none (the reason names it). */
START_TEST(test_p3d_model_left)
{
	static const float q[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
	t_p3d_face f[1] = { { 4, { 0, 1, 2, 3 }, "tex.paa", "mat.rvmat" } };
	wb b;
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 1);
	t_p3d_mlod_lod(&b, q, 4, T_P3D_UP, 4, f, 1, 1.0f);
	const char *why = NULL;
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert(wl_fix_model_left(d, &why));
	t_p3dlint_free(d);
	b.len -= 30;
	d = t_p3dlint_lint(&b);
	ck_assert(!wl_fix_model_left(d, &why));
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "LOD"));
	t_p3dlint_free(d);
	t_w3d_free(&b);
}
END_TEST

Suite *fix_model_suite(void)
{
	Suite *s = suite_create("fix_model");
	TCase *tc = tcase_create("fix_model");
	tcase_add_checked_fixture(tc, t_cat_setup, t_cat_teardown);
	tcase_add_loop_test(tc, test_cut_leaves_no_model, 0, 3);
	tcase_add_test(tc, test_model_left_near_miss);
	tcase_add_test(tc, test_p3d_model_left);
	suite_add_tcase(s, tc);
	return s;
}
