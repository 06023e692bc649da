/* tests/lint/b3d/test_skin.c - the B3D skinning rules (lint/b3d/check_bone_ids.c,
 * check_weights.c): for each rule a case that fires at the exact bytes, a
 * near miss, and one more defective element adding exactly one finding. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/build/b3dbuild.h"
#include "tests/build/build_anim.h"
#include "tests/build/b3dlint_util.h"
#include "tests/build/robust_util.h"

extern Suite *b3d_skin_suite(void);

typedef struct bone_spec {
	const int32_t *ids;
	const float *w;
	size_t n;
} bone_spec;

/* Where the meshes sit.  Every MESH is the quad plus vertex 4, which no
 * triangle uses (t_b3d_quad_mesh(b, -1, 1, ...)). */
enum {
	ONE_MESH,  /* root{MESH, NODE bone0{BONE}, ...}: every reader agrees */
	NESTED,    /* root{NODE a{MESH}, NODE body{MESH, NODE bone0{BONE}}}:
	              Blitz3D and Irrlicht bind body's MESH (global base 5),
	              Assimp global vertex 0 + id */
	SIBLING    /* root{MESH, NODE other{MESH}, NODE bone0{BONE}}: Blitz3D
	              binds root's MESH, Irrlicht other's */
};

/* Builds the layout with nb BONEs (each in its own NODE "boneI");
 * rec_at[i] is the offset of BONE i's first record, *vrts_at the VRTS
 * header of the MESH Irrlicht binds them to (both may be NULL). */
static void build(wb *b, int layout, const bone_spec *bones, size_t nb, size_t *rec_at, size_t *vrts_at)
{
	t_w3d_init(b);
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
	t_b3d_node_begin(b, "root", t_b3d_identity);
	if (layout == ONE_MESH) {
		t_b3d_quad_mesh(b, -1, 1, vrts_at);
	} else if (layout == NESTED) {
		t_b3d_node_begin(b, "a", t_b3d_identity);
		t_b3d_quad_mesh(b, -1, 1, NULL);
		t_b3d_end(b);
		t_b3d_node_begin(b, "body", t_b3d_identity);
		t_b3d_quad_mesh(b, -1, 1, vrts_at);
	} else {
		t_b3d_quad_mesh(b, -1, 1, NULL);
		t_b3d_node_begin(b, "other", t_b3d_identity);
		t_b3d_quad_mesh(b, -1, 1, vrts_at);
		t_b3d_end(b);
	}
	for (size_t i = 0; i < nb; i++) {
		char name[16];
		snprintf(name, sizeof name, "bone%zu", i);
		t_b3d_node_begin(b, name, t_b3d_identity);
		if (rec_at)
			rec_at[i] = b->len + 8;
		t_b3d_bone(b, bones[i].ids, bones[i].w, bones[i].n);
		t_b3d_end(b);
	}
	if (layout == NESTED)
		t_b3d_end(b);
	t_b3d_end(b);
	t_b3d_end(b);
}

/* Count of rule over the layout with the n BONEs of s. */
static size_t count_n(int layout, const bone_spec *s, size_t n, const char *rule)
{
	wb b;
	build(&b, layout, s, n, NULL, NULL);
	size_t c = t_b3dutil_count_of(&b, rule);
	t_w3d_free(&b);
	return c;
}

/* Asserts that rule fires exactly once over the layout with the n BONEs
 * of s, at record rec of BONE bone (offset, length, element), with a
 * message holding each of the NULL-terminated needles. */
static void expect_at(int layout, const bone_spec *s, size_t n, const char *rule, size_t bone, size_t rec,
		      const char *const *needles)
{
	wb b;
	size_t at[8];
	ck_assert_uint_le(n, 8);
	build(&b, layout, s, n, at, NULL);
	wl_doc *d = t_b3dutil_lint(&b, NULL);
	ck_assert_uint_eq(t_b3dutil_count(d, rule), 1);
	const wl_finding *f = t_b3dutil_find(d, rule, 0);
	ck_assert_uint_eq(f->offset, at[bone] + 8 * rec);
	ck_assert_uint_eq(f->length, 8);
	ck_assert_int_eq(f->element, (int64_t)rec);
	for (; needles && *needles; needles++)
		ck_assert_msg(strstr(f->message, *needles), "'%s' not in '%s'", *needles, f->message);
	t_b3dutil_free(d);
	t_w3d_free(&b);
}

static void expect1(const bone_spec *s, size_t n, const char *rule, size_t bone, size_t rec)
{
	expect_at(ONE_MESH, s, n, rule, bone, rec, NULL);
}

/* Count of rule over the ONE_MESH layout with one BONE. */
static size_t count1(const int32_t *ids, const float *w, size_t n, const char *rule)
{
	bone_spec s = { ids, w, n };
	return count_n(ONE_MESH, &s, 1, rule);
}

START_TEST(bone_vertex_out_of_range)
{
	static const int32_t ok[] = { 0, 1, 2, 3, 4 };
	static const float w[] = { 1, 1, 1, 1, 1 };
	ck_assert_uint_eq(count1(ok, w, 5, "b3d-bone-vertex-out-of-range"), 0);
	static const int32_t bad[] = { 0, 5, 1 };
	bone_spec s = { bad, w, 3 };
	expect_at(ONE_MESH, &s, 1, "b3d-bone-vertex-out-of-range", 0, 1,
		  (const char *const[]){ "MESH 'root'", "vertex 5", "Luanti refuses", NULL });
	/* one more: a negative id with nothing before the MESH wraps */
	static const int32_t bad2[] = { 0, 5, -1 };
	ck_assert_uint_eq(count1(bad2, w, 3, "b3d-bone-vertex-out-of-range"), 2);
}
END_TEST

START_TEST(bone_negative_id_reaches_earlier_mesh)
{
	static const int32_t ids[] = { -1, 0 };
	static const float w[] = { 1, 1 };
	bone_spec s = { ids, w, 2 };
	expect_at(NESTED, &s, 1, "b3d-bone-vertex-out-of-range", 0, 0,
		  (const char *const[]){ "earlier MESH", "MESH 'body'", NULL });
}
END_TEST

START_TEST(bone_before_any_mesh)
{
	/* root{NODE b{BONE}, MESH}: Blitz3D binds root's MESH, but Irrlicht and
	 * Luanti have read no vertex yet when the BONE comes */
	static const int32_t ids[] = { 0 };
	static const float w[] = { 1 };
	wb b;
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	t_b3d_node_begin(&b, "root", t_b3d_identity);
	t_b3d_node_begin(&b, "b", t_b3d_identity);
	size_t at = b.len + 8;
	t_b3d_bone(&b, ids, w, 1);
	t_b3d_end(&b);
	t_b3d_quad_mesh(&b, -1, 0, NULL);
	t_b3d_end(&b);
	t_b3d_end(&b);
	wl_doc *d = t_b3dutil_lint(&b, NULL);
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-bone-vertex-out-of-range"), 1);
	const wl_finding *f = t_b3dutil_find(d, "b3d-bone-vertex-out-of-range", 0);
	ck_assert_uint_eq(f->offset, at);
	ck_assert_ptr_nonnull(strstr(f->message, "no MESH comes before it"));
	t_b3dutil_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(bone_binding_differs)
{
	static const int32_t ids[] = { 0, 1 };
	static const float w[] = { 1, 1 };
	bone_spec two[2] = { { ids, w, 2 }, { ids, w, 2 } };
	for (int layout = ONE_MESH; layout <= SIBLING; layout++) {
		wb b;
		size_t at[2];
		build(&b, layout, two, 1, at, NULL);
		/* no target known: every reader counts */
		wl_doc *d = t_b3dutil_lint(&b, NULL);
		/* near miss: one MESH, every reader binds vertex id + 0 of it */
		ck_assert_uint_eq(t_b3dutil_count(d, "b3d-bone-binding-differs"), layout == ONE_MESH ? 0 : 1);
		if (layout != ONE_MESH) {
			const wl_finding *f = t_b3dutil_find(d, "b3d-bone-binding-differs", 0);
			ck_assert_uint_eq(f->offset, at[0] - 8);
			ck_assert_int_eq(f->element, -1);
			ck_assert_ptr_nonnull(strstr(f->message, layout == NESTED ? "Blitz3D to MESH 'body'"
										 : "Blitz3D to MESH 'root'"));
			/* NESTED: Irrlicht/Luanti bind body's MESH like Blitz3D, only
			 * Assimp (global vertex 0 + id) differs; SIBLING: Blitz3D binds
			 * root's MESH, which starts at global vertex 0 as Assimp's
			 * index does, and only Irrlicht/Luanti (other's MESH) differ */
			ck_assert_ptr_nonnull(strstr(f->message, layout == NESTED ? "in Assimp than"
										 : "in Irrlicht/Luanti than"));
			ck_assert((strstr(f->message, "Luanti to MESH 'other'") != NULL) == (layout == SIBLING));
		}
		t_b3dutil_free(d);
		t_w3d_free(&b);
		/* one more BONE chunk, one more finding (per chunk, not per record) */
		build(&b, layout, two, 2, NULL, NULL);
		ck_assert_uint_eq(t_b3dutil_count_of(&b, "b3d-bone-binding-differs"), layout == ONE_MESH ? 0 : 2);
		t_w3d_free(&b);
	}
	/* a BONE without records binds nothing */
	bone_spec none = { ids, w, 0 };
	ck_assert_uint_eq(count_n(SIBLING, &none, 1, "b3d-bone-binding-differs"), 0);
}
END_TEST

/* Count of b3d-bone-binding-differs over layout under the configuration's
 * target t. */
static size_t binding_under(int layout, const char *t)
{
	static const int32_t ids[] = { 0, 1 };
	static const float w[] = { 1, 1 };
	bone_spec s = { ids, w, 2 };
	char cfg[64];
	snprintf(cfg, sizeof cfg, "target: %s\n", t);
	wb b;
	build(&b, layout, &s, 1, NULL, NULL);
	wl_doc *d = t_b3dutil_lint(&b, cfg);
	size_t n = t_b3dutil_count(d, "b3d-bone-binding-differs");
	if (n && strcmp(t, "assimp") != 0)
		ck_assert_ptr_null(strstr(t_b3dutil_find(d, "b3d-bone-binding-differs", 0)->message, "Assimp"));
	t_b3dutil_free(d);
	t_w3d_free(&b);
	return n;
}

/* Under one target, only a BONE that target binds otherwise than Blitz3D:
 * the skinned MESH before its bones but after another MESH (NESTED, the
 * shipped Luanti layout) is quiet under luanti and irrlicht and fires under
 * assimp; a BONE after a sibling's MESH while Blitz3D binds the first MESH
 * (SIBLING) fires under luanti and irrlicht, not under assimp; blitz3d,
 * the reference, never differs. */
START_TEST(bone_binding_per_target)
{
	const char *const game[] = { "luanti", "irrlicht" };
	for (size_t i = 0; i < 2; i++) {
		ck_assert_uint_eq(binding_under(NESTED, game[i]), 0);
		ck_assert_uint_eq(binding_under(SIBLING, game[i]), 1);
		ck_assert_uint_eq(binding_under(ONE_MESH, game[i]), 0);
	}
	ck_assert_uint_eq(binding_under(NESTED, "assimp"), 1);
	ck_assert_uint_eq(binding_under(SIBLING, "assimp"), 0);
	ck_assert_uint_eq(binding_under(ONE_MESH, "assimp"), 0);
	ck_assert_uint_eq(binding_under(NESTED, "blitz3d"), 0);
	ck_assert_uint_eq(binding_under(SIBLING, "blitz3d"), 0);
}
END_TEST

/* `auto` with nothing in the layout: the game engines (luanti, irrlicht,
 * blitz3d), not Assimp, so a BONE only Assimp binds otherwise is quiet;
 * a Luanti layout gives luanti alone. */
START_TEST(auto_targets_are_the_games)
{
	static const int32_t ids[] = { 0, 1 };
	static const float w[] = { 1, 1 };
	bone_spec s = { ids, w, 2 };
	wl_target_mask games = 0, lu = (wl_target_mask)1 << wl_target_find("luanti"), got = 0;
	ck_assert_int_eq(wl_target_parse("luanti,irrlicht,blitz3d", &games, NULL, 0), 0);
	for (int layout = NESTED; layout <= SIBLING; layout++) {
		wb b;
		build(&b, layout, &s, 1, NULL, NULL);
		wl_doc *d = t_b3dutil_lint_layout(&b, 0, &got);
		ck_assert_uint_eq(got, games);
		ck_assert_uint_eq(t_b3dutil_count(d, "b3d-bone-binding-differs"), layout == SIBLING ? 1 : 0);
		t_b3dutil_free(d);
		d = t_b3dutil_lint_layout(&b, lu, &got);
		ck_assert_uint_eq(got, lu);
		t_b3dutil_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

START_TEST(weight_sum)
{
	static const int32_t v0[] = { 0, 1, 2, 3 };
	static const float half[] = { 0.5f, 1, 1, 1 };
	static const float part[] = { 0.4f, 1, 1, 1 };
	/* vertex 0 gets 0.5 + w[0] of a second bone */
	bone_spec near[2] = { { v0, half, 4 }, { v0, half, 1 } };
	bone_spec fire[2] = { { v0, half, 4 }, { v0, part, 1 } };
	wb b;
	size_t at[2];
	ck_assert_uint_eq(count_n(ONE_MESH, near, 2, "b3d-weight-sum"), 0);
	build(&b, ONE_MESH, fire, 2, at, NULL);
	wl_doc *d = t_b3dutil_lint(&b, NULL);
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-weight-sum"), 1);
	const wl_finding *f = t_b3dutil_find(d, "b3d-weight-sum", 0);
	ck_assert_uint_eq(f->offset, at[0]); /* the vertex's first record */
	ck_assert_int_eq(f->element, 0);
	ck_assert_ptr_nonnull(strstr(f->message, "sum to 0.9"));
	t_b3dutil_free(d);
	/* a tolerance of 0.2 accepts 0.9 */
	d = t_b3dutil_lint(&b, "rules:\n  b3d-weight-sum:\n    params:\n      tolerance: 0.2\n");
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-weight-sum"), 0);
	t_b3dutil_free(d);
	t_w3d_free(&b);
	/* weights follow the Irrlicht/Luanti binding: the last MESH, 'other' */
	bone_spec one = { v0, half, 1 };
	expect_at(SIBLING, &one, 1, "b3d-weight-sum", 0, 0, (const char *const[]){ "MESH 'other'", NULL });
	/* one more vertex off 1 (vertex 1 also gets 0.4 more) */
	bone_spec two[2] = { { v0, half, 4 }, { v0, part, 2 } };
	ck_assert_uint_eq(count_n(ONE_MESH, two, 2, "b3d-weight-sum"), 2);
}
END_TEST

START_TEST(weight_over_4)
{
	static const int32_t v[] = { 0, 1, 2, 3 };
	static const float w[] = { 0.2f, 0.25f, 1, 1 };
	bone_spec s[5];
	for (int i = 0; i < 5; i++)
		s[i] = (bone_spec){ v, w, i == 0 ? 4 : 1 };
	ck_assert_uint_eq(count_n(ONE_MESH, s, 4, "b3d-weight-over-4"), 0);
	expect1(s, 5, "b3d-weight-over-4", 4, 0);
	/* one more vertex with 5 weights */
	for (int i = 1; i < 5; i++)
		s[i].n = 2;
	ck_assert_uint_eq(count_n(ONE_MESH, s, 5, "b3d-weight-over-4"), 2);
}
END_TEST

START_TEST(weight_zero_negative_nan)
{
	static const int32_t v[] = { 0, 1, 2, 3 };
	const float w[] = { 1, 0, -0.5f, NAN };
	wb b;
	size_t at;
	bone_spec s = { v, w, 4 };
	build(&b, ONE_MESH, &s, 1, &at, NULL);
	wl_doc *d = t_b3dutil_lint(&b, NULL);
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-weight-zero"), 0); /* off by default */
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-weight-negative"), 1);
	ck_assert_uint_eq(t_b3dutil_find(d, "b3d-weight-negative", 0)->offset, at + 16);
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-weight-not-finite"), 1);
	ck_assert_uint_eq(t_b3dutil_find(d, "b3d-weight-not-finite", 0)->offset, at + 24);
	t_b3dutil_free(d);
	d = t_b3dutil_lint(&b, "rules:\n  b3d-weight-zero: info\n");
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-weight-zero"), 1);
	ck_assert_uint_eq(t_b3dutil_find(d, "b3d-weight-zero", 0)->offset, at + 8);
	t_b3dutil_free(d);
	t_w3d_free(&b);
	/* near miss: all positive and finite; one more of each adds one */
	const float ok[] = { 1, 1, 1, 1 };
	ck_assert_uint_eq(count1(v, ok, 4, "b3d-weight-negative") + count1(v, ok, 4, "b3d-weight-not-finite"), 0);
	const float more[] = { -1, 0, -0.5f, INFINITY };
	ck_assert_uint_eq(count1(v, more, 4, "b3d-weight-negative"), 2);
	const float more2[] = { NAN, 0, -0.5f, INFINITY };
	ck_assert_uint_eq(count1(v, more2, 4, "b3d-weight-not-finite"), 2);
}
END_TEST

START_TEST(weight_duplicate_vertex)
{
	static const int32_t v[] = { 0, 1, 0, 1, 2 };
	const float w[] = { 0.5f, 0, 0.5f, 1, 1 };
	/* vertex 0 twice with a positive first record: fires at record 2;
	 * vertex 1 after a zero record: modlib accepts it */
	bone_spec s = { v, w, 5 };
	expect1(&s, 1, "b3d-weight-duplicate-vertex", 0, 2);
	/* the same vertex in two BONEs is normal */
	bone_spec two[2] = { { v, w, 1 }, { v, w, 1 } };
	ck_assert_uint_eq(count_n(ONE_MESH, two, 2, "b3d-weight-duplicate-vertex"), 0);
	/* one more repeat */
	const float w2[] = { 0.5f, 0.5f, 0.5f, 1, 1 };
	ck_assert_uint_eq(count1(v, w2, 5, "b3d-weight-duplicate-vertex"), 2);
}
END_TEST

START_TEST(weight_unreferenced_vertex)
{
	static const int32_t v[] = { 0, 4, 3, 4 };
	const float w[] = { 1, 0, 1, 1 };
	bone_spec s = { v, w, 2 };
	expect1(&s, 1, "b3d-weight-unreferenced-vertex", 0, 1);
	ck_assert_uint_eq(count1(v, w, 1, "b3d-weight-unreferenced-vertex"), 0);
	ck_assert_uint_eq(count1(v, w, 4, "b3d-weight-unreferenced-vertex"), 2);
}
END_TEST

START_TEST(unweighted_vertex)
{
	static const int32_t v[] = { 0, 1, 2, 3, 4 };
	const float w[] = { 1, 1, 1, 1, 1 };
	/* all four used vertices weighted (vertex 4 is unused either way) */
	ck_assert_uint_eq(count1(v, w, 4, "b3d-unweighted-vertex"), 0);
	/* no weights at all: not a skinned mesh */
	ck_assert_uint_eq(count1(v, w, 0, "b3d-unweighted-vertex"), 0);
	const float zero[] = { 0, 0, 0, 0 };
	ck_assert_uint_eq(count1(v, zero, 4, "b3d-unweighted-vertex"), 0);
	wb b;
	size_t vrts;
	bone_spec s = { v, w, 3 };
	build(&b, ONE_MESH, &s, 1, NULL, &vrts);
	wl_doc *d = t_b3dutil_lint(&b, NULL);
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-unweighted-vertex"), 1);
	const wl_finding *f = t_b3dutil_find(d, "b3d-unweighted-vertex", 0);
	ck_assert_uint_eq(f->offset, vrts + 8 + 12 + 3 * 12);
	ck_assert_uint_eq(f->length, 12);
	ck_assert_int_eq(f->element, 3);
	t_b3dutil_free(d);
	t_w3d_free(&b);
	ck_assert_uint_eq(count1(v, w, 2, "b3d-unweighted-vertex"), 2);
}
END_TEST

START_TEST(skin_mutations_never_crash)
{
	static const int32_t v[] = { 0, 1, 2, 3, 4 };
	const float w[] = { 0.5f, 0.5f, 0, 1, 1 };
	bone_spec s[2] = { { v, w, 5 }, { v, w, 3 } };
	wb b;
	build(&b, NESTED, s, 2, NULL, NULL);
	t_robust_lint_variants(b.data, b.len, &(t_robust_opts){ t_b3dutil_lint_bytes, t_b3dutil_free, 4242, 400, NULL });
	t_w3d_free(&b);
}
END_TEST

START_TEST(skin_rules_in_catalogue)
{
	ck_assert_uint_eq(t_anim_missing_from_catalogue(), 0);
}
END_TEST

Suite *b3d_skin_suite(void)
{
	const TTest *const tests[] = { bone_vertex_out_of_range,
					      bone_negative_id_reaches_earlier_mesh,
					      bone_before_any_mesh,
					      bone_binding_differs,
					      bone_binding_per_target,
					      auto_targets_are_the_games,
					      weight_sum,
					      weight_over_4,
					      weight_zero_negative_nan,
					      weight_duplicate_vertex,
					      weight_unreferenced_vertex,
					      unweighted_vertex,
					      skin_mutations_never_crash,
					      skin_rules_in_catalogue,
					      NULL };
	return t_robust_suite_of("b3d_skin", "b3d_skin", 60, tests);
}
