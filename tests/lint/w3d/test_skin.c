/* tests/lint/w3d/test_skin.c - the rules that relate objects of one file to each other
 * (lint/w3d/check_skin.c, check_hlod_lods.c, check_pivots.c,
 * check_channels.c): for each rule a case that fires (rule id and offset)
 * and a near miss, through wl_lint_bytes with the built-in catalogue. */
#include <check.h>
#include <float.h>
#include <math.h>

#include "tests/build/build_anim.h"
#include "tests/build/build_refs.h"
#include "tests/build/robust_util.h"

extern Suite *skin_suite(void);

static wb B;
static wl_doc *D;

static void lint(const char *path)
{
	D = t_ref_lint(&B, path);
}

static void done(void)
{
	t_ref_free(D);
	t_w3d_free(&B);
}

/* A skin mesh TANK.BODY whose vertex 2 uses bone, an HLOD TANK over it
 * with hierarchy hier (3 pivots, "" for none). */
static void skin_file(uint16_t bone, const char *hier, t_ref_mesh_at *mat, t_ref_hlod_at *hat)
{
	t_w3d_init(&B);
	if (hier[0])
		t_ref_hierarchy(&B, hier, 3, NULL, NULL, NULL);
	t_ref_mesh_opts o = t_ref_mesh_defaults();
	o.attributes = 0x00020000u;
	o.vertex_channels = 0x13;
	o.influences = true;
	o.bone_v2 = bone;
	t_ref_mesh(&B, &o, mat);
	t_ref_hlod_opts h = t_ref_hlod_defaults("TANK", hier);
	t_ref_hlod(&B, &h, hat);
}

START_TEST(skin_influences)
{
	t_ref_mesh_at at;
	t_ref_mesh_opts o = t_ref_mesh_defaults();
	o.attributes = 0x00020000u; /* skin without influences */
	t_w3d_init(&B);
	t_ref_mesh(&B, &o, &at);
	lint("tank.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "skin-influences-missing", at.header_data + 4));
	ck_assert_uint_eq(t_ref_count(D, "influences-without-skin"), 0);
	done();
	o.influences = true; /* near miss */
	t_w3d_init(&B);
	t_ref_mesh(&B, &o, &at);
	lint("tank.w3d");
	ck_assert_uint_eq(t_ref_count(D, "skin-influences-missing"), 0);
	done();
	o.attributes = 0; /* influences on a normal mesh */
	t_w3d_init(&B);
	t_ref_mesh(&B, &o, &at);
	lint("tank.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "influences-without-skin", at.infl_data - 8));
	done();
}
END_TEST

START_TEST(skin_bones)
{
	t_ref_mesh_at mat;
	t_ref_hlod_at hat;
	skin_file(3, "TANKSKL", &mat, &hat); /* 3 pivots: bone 3 is past the end */
	lint("tank.w3d");
	const wl_finding *f = t_ref_at(D, "skin-bone-out-of-range", mat.infl_data + 2 * 8);
	if (!f)
		t_ref_dump(D);
	ck_assert_ptr_nonnull(f);
	done();
	skin_file(2, "TANKSKL", &mat, &hat);
	lint("tank.w3d");
	ck_assert_uint_eq(t_ref_count(D, "skin-bone-out-of-range"), 0);
	done();
	skin_file(1, "", &mat, &hat); /* no hierarchy: the default one-pivot tree */
	lint("tank.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "skin-bone-out-of-range", mat.infl_data + 2 * 8));
	done();
}
END_TEST

START_TEST(hlod_bones_and_names)
{
	t_ref_hlod_at at;
	t_w3d_init(&B);
	t_ref_hierarchy(&B, "TANKSKL", 2, NULL, NULL, NULL);
	t_ref_hlod_opts h = t_ref_hlod_defaults("TANK", "TANKSKL");
	h.subs = 2;
	h.sub_names[1] = "TANK.TURRET";
	h.bones[1] = 2;
	t_ref_hlod(&B, &h, &at);
	lint("tank.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "hlod-bone-index-out-of-range", at.sub_data[0][1]));
	ck_assert_uint_eq(t_ref_count(D, "hlod-bone-index-out-of-range"), 1);
	ck_assert_uint_eq(t_ref_count(D, "hlod-hierarchy-name-case"), 0);
	done();
	h.bones[1] = 1;
	h.hierarchy = "TankSkl"; /* found, letter case differs */
	t_w3d_init(&B);
	t_ref_hierarchy(&B, "TANKSKL", 2, NULL, NULL, NULL);
	t_ref_hlod(&B, &h, &at);
	lint("tank.w3d");
	ck_assert_uint_eq(t_ref_count(D, "hlod-bone-index-out-of-range"), 0);
	ck_assert_ptr_nonnull(t_ref_at(D, "hlod-hierarchy-name-case", at.header_data + 24));
	done();
	/* proxies are checked too; no hierarchy name means one pivot */
	h = t_ref_hlod_defaults("TANK", "");
	h.proxies = 1;
	h.bones[0] = 1;
	t_w3d_init(&B);
	t_ref_hlod(&B, &h, &at);
	lint("tank.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "hlod-bone-index-out-of-range", at.proxy_data[0]));
	ck_assert_uint_eq(t_ref_count(D, "hlod-bone-index-out-of-range"), 2);
	done();
}
END_TEST

START_TEST(hlod_lod_order_and_version)
{
	t_ref_hlod_at at;
	t_ref_hlod_opts h = t_ref_hlod_defaults("TANK", "");
	h.lods = 3;
	h.screen[0] = 0.5f;
	h.screen[1] = 0.1f; /* smaller than array 0 */
	h.screen[2] = FLT_MAX;
	t_w3d_init(&B);
	t_ref_hlod(&B, &h, &at);
	lint("tank.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "hlod-lod-order", at.array_header_data[1] + 4));
	ck_assert_uint_eq(t_ref_count(D, "hlod-top-lod-screen-size"), 0);
	done();
	h.screen[1] = 2.0f;
	h.screen[2] = 100.0f; /* ordered, but the top is not FLT_MAX */
	h.version = 0x00020000;
	t_w3d_init(&B);
	t_ref_hlod(&B, &h, &at);
	lint("tank.w3d");
	ck_assert_uint_eq(t_ref_count(D, "hlod-lod-order"), 0);
	ck_assert_ptr_nonnull(t_ref_at(D, "hlod-top-lod-screen-size", at.array_header_data[2] + 4));
	ck_assert_ptr_nonnull(t_ref_at(D, "hlod-version", at.header_data));
	done();
	h = t_ref_hlod_defaults("TANK", "");
	t_w3d_init(&B);
	t_ref_hlod(&B, &h, &at);
	lint("tank.w3d");
	ck_assert_uint_eq(t_ref_count(D, "hlod-version"), 0);
	ck_assert_uint_eq(t_ref_count(D, "hlod-top-lod-screen-size"), 0);
	done();
}
END_TEST

START_TEST(pivot_names)
{
	size_t hd, pd;
	static const char *const dup[] = { "ROOTTRANSFORM", "ARM", "arm" };
	t_w3d_init(&B);
	t_ref_hierarchy(&B, "TANKSKL", 3, dup, &hd, &pd);
	lint("art/TankSkl.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "pivot-name-duplicate", pd + 2 * 60));
	ck_assert_uint_eq(t_ref_count(D, "pivot-name-duplicate"), 1);
	ck_assert_uint_eq(t_ref_count(D, "hierarchy-name-not-file-name"), 0);
	done();
	t_w3d_init(&B);
	t_ref_hierarchy(&B, "TANKSKL", 3, NULL, &hd, &pd);
	lint("art/tank.w3d");
	ck_assert_uint_eq(t_ref_count(D, "pivot-name-duplicate"), 0);
	ck_assert_ptr_nonnull(t_ref_at(D, "hierarchy-name-not-file-name", hd + 4));
	done();
}
END_TEST

START_TEST(channel_pivots_types_duplicates)
{
	size_t hd, ch[3], bit;
	static const uint16_t pivots[] = { 1, 3, 1 };
	static const uint16_t types[] = { 0, 0, 0 };
	t_w3d_init(&B);
	t_ref_hierarchy(&B, "TANKSKL", 3, NULL, NULL, NULL);
	t_ref_anim(&B, "MOVE", "TANKSKL", 4, 30, 3, pivots, types, 1, &hd, ch, &bit);
	lint("tankskl.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "anim-channel-pivot-out-of-range", ch[1] + 8));
	ck_assert_uint_eq(t_ref_count(D, "anim-channel-pivot-out-of-range"), 1);
	ck_assert_ptr_nonnull(t_ref_at(D, "anim-channel-duplicate", ch[2] + 8));
	ck_assert_uint_eq(t_ref_count(D, "anim-channel-duplicate"), 1);
	done();
	static const uint16_t pivots2[] = { 1, 2, 1 };
	static const uint16_t types2[] = { 0, 6, 3 };
	t_w3d_init(&B);
	t_ref_hierarchy(&B, "TANKSKL", 3, NULL, NULL, NULL);
	t_ref_anim(&B, "MOVE", "TANKSKL", 4, 0, 3, pivots2, types2, -1, &hd, ch, NULL);
	lint("tankskl.w3d");
	ck_assert_uint_eq(t_ref_count(D, "anim-channel-pivot-out-of-range"), 0);
	ck_assert_uint_eq(t_ref_count(D, "anim-channel-duplicate"), 0);
	ck_assert_ptr_nonnull(t_ref_at(D, "anim-channel-type-unknown", ch[2] + 6));
	ck_assert_uint_eq(t_ref_count(D, "anim-channel-type-unknown"), 1);
	ck_assert_ptr_nonnull(t_ref_at(D, "animation-frames-invalid", hd + 40));
	done();
	/* hierarchy in another file: no single-file finding */
	t_w3d_init(&B);
	t_ref_anim(&B, "MOVE", "TANKSKL", 4, 30, 3, pivots, types, -1, &hd, ch, NULL);
	lint("move.w3d");
	ck_assert_uint_eq(t_ref_count(D, "anim-channel-pivot-out-of-range"), 0);
	ck_assert_uint_eq(t_ref_count(D, "animation-frames-invalid"), 0);
	done();
}
END_TEST

START_TEST(compressed_keys)
{
	size_t hd, ch, bit;
	static const uint32_t bad_bits[] = { 0, 5, 5 };
	t_w3d_init(&B);
	t_ref_canim(&B, "RUN", "SKEL", 10, 0, 0, bad_bits, 3, 0, &hd, &ch, &bit);
	lint("run.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "bit-timecode-order", bit + 8 + 8));
	ck_assert_uint_eq(t_ref_count(D, "timecode-binary-flag-on-first"), 0);
	done();
	static const uint32_t flagged[] = { 0x80000000u, 5, 9 };
	t_w3d_init(&B);
	t_ref_canim(&B, "RUN", "SKEL", 10, 0, 0, flagged, 3, 0, &hd, &ch, &bit);
	lint("run.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "timecode-binary-flag-on-first", ch + 8));
	ck_assert_uint_eq(t_ref_count(D, "bit-timecode-order"), 0); /* the state bit is not a time */
	done();
	static const uint32_t late[] = { 1, 5, 9 };
	t_w3d_init(&B);
	t_ref_canim(&B, "RUN", "SKEL", 10, 0, 0, late, 3, 0, &hd, &ch, &bit);
	lint("run.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "bit-timecode-order", bit + 8));
	done();
	t_w3d_init(&B);
	t_ref_canim(&B, "RUN", "SKEL", 20, 1, 0, NULL, 0, -1.0f, &hd, &ch, NULL);
	lint("run.w3d");
	ck_assert_ptr_nonnull(t_ref_at(D, "adaptive-delta-scale-invalid", ch + 8));
	done();
	t_w3d_init(&B);
	t_ref_canim(&B, "RUN", "SKEL", 20, 1, 0, NULL, 0, 0.5f, &hd, &ch, NULL);
	lint("run.w3d");
	ck_assert_uint_eq(t_ref_count(D, "adaptive-delta-scale-invalid"), 0);
	done();
}
END_TEST

START_TEST(rule_lists_in_catalogue)
{
	ck_assert_uint_eq(t_anim_missing_from_catalogue(), 0);
}
END_TEST

START_TEST(mutations_are_safe)
{
	t_ref_mesh_at mat;
	t_ref_hlod_at hat;
	skin_file(1, "TANKSKL", &mat, &hat);
	static const uint16_t pivots[] = { 1, 2 };
	static const uint16_t types[] = { 0, 6 };
	t_ref_anim(&B, "MOVE", "TANKSKL", 4, 30, 2, pivots, types, 1, NULL, NULL, NULL);
	static const uint32_t keys[] = { 0, 3, 7 };
	t_ref_canim(&B, "RUN", "TANKSKL", 10, 0, 1, keys, 3, 0, NULL, NULL, NULL);
	t_robust_lint_variants(B.data, B.len, &(t_robust_opts){ t_ref_lint_bytes, t_ref_free, 777, 1500, NULL });
	t_w3d_free(&B);
}
END_TEST

Suite *skin_suite(void)
{
	const TTest *tests[] = {
		skin_influences, skin_bones, hlod_bones_and_names, hlod_lod_order_and_version, pivot_names,
		channel_pivots_types_duplicates, compressed_keys, rule_lists_in_catalogue,
		mutations_are_safe, NULL
	};
	return t_robust_suite_of("skin", "rules", 120, tests);
}
