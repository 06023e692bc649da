/* tests/lint/test_xref.c - the cross-file index (lint/xref.c): several in-memory
 * files of one "folder" are linted, added to the index and checked; each
 * rule has a case that fires (rule, path, related path, offset) and a near
 * miss. */
#include <check.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint/xref.h"
#include "tests/build/build_anim.h"
#include "tests/build/build_refs.h"
#include "tests/build/robust_util.h"

extern Suite *xref_suite(void);

/* The findings of one check, copied. */
typedef struct got {
	char path[64], related[64], rule[48], cpath[128], message[512];
	uint64_t offset, length;
} got;

static got G[64];
static size_t NG;

static void collect(void *user, const wl_xref_finding *f)
{
	(void)user;
	if (NG >= sizeof G / sizeof G[0])
		return;
	got *g = &G[NG++];
	snprintf(g->path, sizeof g->path, "%s", f->path);
	snprintf(g->related, sizeof g->related, "%s", f->related ? f->related : "");
	snprintf(g->rule, sizeof g->rule, "%s", wl_rule_name(f->rule));
	snprintf(g->cpath, sizeof g->cpath, "%s", f->chunk_path);
	snprintf(g->message, sizeof g->message, "%s", f->message);
	g->offset = f->offset;
	g->length = f->length;
}

static void add(wl_xref *x, wb *b, const char *path)
{
	wl_doc *d = t_ref_lint(b, path);
	ck_assert_int_eq(wl_xref_add(x, path, d), 0);
	t_ref_free(d); /* the index keeps copies */
	t_w3d_free(b);
}

static long check(wl_xref *x)
{
	NG = 0;
	long n = wl_xref_check(x, collect, NULL);
	ck_assert_int_eq(n, (long)NG);
	return n;
}

static const got *find(const char *rule, const char *path)
{
	for (size_t i = 0; i < NG; i++)
		if (!strcmp(G[i].rule, rule) && !strcmp(G[i].path, path))
			return &G[i];
	return NULL;
}

/* Asserts a finding of rule in path at offset; returns it. */
static const got *expect_at(const char *rule, const char *path, uint64_t offset)
{
	const got *g = find(rule, path);
	ck_assert_msg(g != NULL, "no %s in %s", rule, path);
	ck_assert_msg(g->offset == offset, "%s in %s at %llu, expected %llu", rule, path,
		      (unsigned long long)g->offset, (unsigned long long)offset);
	return g;
}

static size_t count(const char *rule)
{
	size_t n = 0;
	for (size_t i = 0; i < NG; i++)
		n += !strcmp(G[i].rule, rule);
	return n;
}

/* The first finding of rule at offset, or NULL. */
static const got *find_at(const char *rule, uint64_t offset)
{
	for (size_t i = 0; i < NG; i++)
		if (!strcmp(G[i].rule, rule) && G[i].offset == offset)
			return &G[i];
	return NULL;
}

/* A skinned mesh: vertex 2 uses bone (the others bone 0). */
static void skinned(t_ref_mesh_opts *o, uint16_t bone)
{
	o->attributes = 0x00020000u;
	o->influences = true;
	o->bone_v2 = bone;
}

/* The offsets in the last mesh and HLOD written by tank_file() or
 * skin_in_one_file(). */
static t_ref_mesh_at MAT;
static t_ref_hlod_at HAT;

/* One file: hierarchy TANKSKL (2 pivots), mesh TANK.BODY skinned to bone,
 * HLOD TANK on TANKSKL. */
static void skin_in_one_file(wb *b, uint16_t bone)
{
	t_w3d_init(b);
	t_ref_hierarchy(b, "TANKSKL", 2, NULL, NULL, NULL);
	t_ref_mesh_opts o = t_ref_mesh_defaults();
	skinned(&o, bone);
	t_ref_mesh(b, &o, &MAT);
	t_ref_hlod_opts h = t_ref_hlod_defaults("TANK", "TANKSKL");
	t_ref_hlod(b, &h, &HAT);
}

/* The bytes of mod/tank.w3d: mesh TANK.BODY (skin when bone > 0, vertex 2
 * uses bone) with texture tex, and HLOD TANK (hierarchy hier) using sub. */
static void tank_wb(wb *b, const char *hier, const char *sub, uint32_t sub_bone, uint16_t bone, const char *tex)
{
	t_w3d_init(b);
	t_ref_mesh_opts o = t_ref_mesh_defaults();
	if (bone) {
		skinned(&o, bone);
		o.vertex_channels = 0x13;
	}
	o.texture_name = tex;
	t_ref_mesh(b, &o, &MAT);
	t_ref_hlod_opts h = t_ref_hlod_defaults("TANK", hier);
	h.sub_names[0] = sub;
	h.bones[0] = sub_bone;
	t_ref_hlod(b, &h, &HAT);
}

/* Adds tank_wb's file to x as mod/tank.w3d. */
static void tank_file(wl_xref *x, const char *hier, const char *sub, uint32_t sub_bone, uint16_t bone,
		      const char *tex)
{
	wb b;
	tank_wb(&b, hier, sub, sub_bone, bone, tex);
	add(x, &b, "mod/tank.w3d");
}

static void skeleton_file(wl_xref *x, const char *path, const char *name, unsigned pivots)
{
	wb b;
	t_w3d_init(&b);
	t_ref_hierarchy(&b, name, pivots, NULL, NULL, NULL);
	add(x, &b, path);
}

/* path: animation name on hier, 4 frames, channels on pivots[i] of
 * types[i] (i < n); offsets as t_ref_anim. */
static void anim_file(wl_xref *x, const char *path, const char *name, const char *hier, unsigned n,
		      const uint16_t *pivots, const uint16_t *types, size_t *header_data, size_t *ch_data)
{
	wb b;
	t_w3d_init(&b);
	t_ref_anim(&b, name, hier, 4, 30, n, pivots, types, -1, header_data, ch_data, NULL);
	add(x, &b, path);
}

START_TEST(consistent_folder_is_clean)
{
	wl_xref *x = wl_xref_new();
	ck_assert_ptr_nonnull(x);
	tank_file(x, "TANKSKL", "tank.body", 1, 2, "Tank.TGA");
	skeleton_file(x, "mod/skl/tankskl.w3d", "TANKSKL", 3);
	static const uint16_t pivots[] = { 2 };
	static const uint16_t types[] = { 0 };
	anim_file(x, "mod/anim/move.w3d", "MOVE", "TankSkl", 1, pivots, types, NULL, NULL);
	/* the texture exists as .dds in another letter case */
	ck_assert_int_eq(wl_xref_add_texture_file(x, "mod/textures/TANK.dds"), 0);
	ck_assert_int_eq(check(x), 0);
	wl_xref_free(x);
}
END_TEST

START_TEST(missing_references)
{
	wl_xref *x = wl_xref_new();
	tank_file(x, "TANKSKL", "TANK.GUN", 0, 0, "tank.tga");
	static const uint16_t pivots[] = { 0 };
	static const uint16_t types[] = { 0 };
	size_t hd;
	anim_file(x, "mod/move.w3d", "MOVE", "OTHERSKL", 1, pivots, types, &hd, NULL);
	ck_assert_int_eq(wl_xref_add_texture_file(x, "mod/other.tga"), 0);
	ck_assert_int_eq(wl_xref_add_texture_file(x, "mod/readme.txt"), 0); /* ignored */
	check(x);
	const got *g = expect_at("reference-mesh-missing", "mod/tank.w3d", HAT.sub_data[0][0] + 4);
	ck_assert_str_eq(g->related, "");
	ck_assert_ptr_nonnull(strstr(g->message, "TANK.GUN"));
	expect_at("reference-hierarchy-missing", "mod/tank.w3d", HAT.header_data + 24);
	expect_at("reference-hierarchy-missing", "mod/move.w3d", hd + 20);
	g = expect_at("reference-texture-missing", "mod/tank.w3d", MAT.tex_name);
	ck_assert_str_eq(g->cpath, "MESH[TANK.BODY]/TEXTURES/TEXTURE/TEXTURE_NAME");
	ck_assert_uint_eq(NG, 4);
	wl_xref_free(x);
}
END_TEST

START_TEST(texture_check_needs_texture_files)
{
	wl_xref *x = wl_xref_new();
	tank_file(x, "", "TANK.BODY", 0, 0, "tank.tga");
	ck_assert_int_eq(check(x), 0); /* no texture file recorded: not checked */
	ck_assert_int_eq(wl_xref_add_texture_file(x, "a/b/TANK.TGA"), 0);
	ck_assert_int_eq(check(x), 0);
	wl_xref_free(x);
}
END_TEST

START_TEST(pivots_across_files)
{
	wl_xref *x = wl_xref_new();
	skeleton_file(x, "mod/skl.w3d", "SKL", 3);
	static const uint16_t pivots[] = { 1, 3 };
	static const uint16_t types[] = { 0, 1 };
	size_t ch[2];
	anim_file(x, "mod/move.w3d", "MOVE", "SKL", 2, pivots, types, NULL, ch);
	static const uint16_t ok_pivots[] = { 2 };
	anim_file(x, "mod/idle.w3d", "IDLE", "SKL", 1, ok_pivots, types, NULL, NULL);
	check(x);
	const got *g = expect_at("reference-hierarchy-too-few-pivots", "mod/move.w3d", ch[1] + 8);
	ck_assert_str_eq(g->related, "mod/skl.w3d");
	ck_assert_uint_eq(count("reference-hierarchy-too-few-pivots"), 1); /* idle is fine */
	wl_xref_free(x);
}
END_TEST

START_TEST(bones_across_files)
{
	wl_xref *x = wl_xref_new();
	/* HLOD bone 3 and skin bone 2 against a 2-pivot skeleton in another file */
	tank_file(x, "TANKSKL", "TANK.BODY", 3, 2, "tank.tga");
	skeleton_file(x, "mod/tankskl.w3d", "TANKSKL", 2);
	check(x);
	ck_assert_uint_eq(count("reference-bone-out-of-range"), 2);
	const got *g = find_at("reference-bone-out-of-range", HAT.sub_data[0][0]);
	ck_assert_ptr_nonnull(g);
	ck_assert_str_eq(g->related, "mod/tankskl.w3d");
	g = find_at("reference-bone-out-of-range", MAT.infl_data + 16);
	ck_assert_ptr_nonnull(g);
	ck_assert_str_eq(g->path, "mod/tank.w3d");
	ck_assert_str_eq(g->related, "mod/tankskl.w3d");
	ck_assert_str_eq(g->cpath, "MESH[TANK.BODY]/VERTEX_INFLUENCES[2]");
	wl_xref_free(x);
	/* one more vertex on bone 2 (vertex 3): one more finding, at its bytes */
	x = wl_xref_new();
	wb t;
	tank_wb(&t, "TANKSKL", "TANK.BODY", 3, 2, "tank.tga");
	t_w3d_patch_u32(&t, MAT.infl_data + 24, 2);
	add(x, &t, "mod/tank.w3d");
	skeleton_file(x, "mod/tankskl.w3d", "TANKSKL", 2);
	check(x);
	ck_assert_uint_eq(count("reference-bone-out-of-range"), 3);
	ck_assert_ptr_nonnull(find_at("reference-bone-out-of-range", MAT.infl_data + 24));
	wl_xref_free(x);
	/* near miss: 4 pivots */
	x = wl_xref_new();
	tank_file(x, "TANKSKL", "TANK.BODY", 3, 2, "tank.tga");
	skeleton_file(x, "mod/tankskl.w3d", "TANKSKL", 4);
	check(x);
	ck_assert_uint_eq(count("reference-bone-out-of-range"), 0);
	wl_xref_free(x);
	/* all in one file: left to the single-file rules */
	x = wl_xref_new();
	wb b;
	skin_in_one_file(&b, 5);
	add(x, &b, "mod/one.w3d");
	check(x);
	ck_assert_uint_eq(count("reference-bone-out-of-range"), 0);
	wl_xref_free(x);
}
END_TEST

START_TEST(duplicates)
{
	wl_xref *x = wl_xref_new();
	skeleton_file(x, "mod/b/skl.w3d", "SKL", 3);
	skeleton_file(x, "mod/a/skl.w3d", "skl", 3);
	skeleton_file(x, "mod/c/other.w3d", "OTHER", 3);
	check(x);
	ck_assert_uint_eq(count("duplicate-definition"), 1);
	const got *g = expect_at("duplicate-definition", "mod/b/skl.w3d", 0);
	ck_assert_str_eq(g->related, "mod/a/skl.w3d"); /* order-independent: sorted by path */
	wl_xref_free(x);
	/* a mesh defined twice in one file is not a cross-file duplicate */
	x = wl_xref_new();
	wb b;
	t_w3d_init(&b);
	t_ref_mesh_opts o = t_ref_mesh_defaults();
	t_ref_mesh_at mat;
	t_ref_mesh(&b, &o, &mat);
	t_ref_mesh(&b, &o, &mat);
	add(x, &b, "mod/twice.w3d");
	check(x);
	ck_assert_uint_eq(count("duplicate-definition"), 0);
	wl_xref_free(x);
}
END_TEST

START_TEST(scan_textures_walks_the_tree)
{
	char root[] = "/tmp/w3dlint-xref-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	char p[256];
	snprintf(p, sizeof p, "%s/Art", root);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof p, "%s/Art/Tank.DDS", root);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	snprintf(p, sizeof p, "%s/notes.txt", root);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	wl_xref *x = wl_xref_new();
	ck_assert_int_eq(wl_xref_scan_textures(x, root), 1);
	tank_file(x, "", "TANK.BODY", 0, 0, "tank.tga");
	ck_assert_int_eq(check(x), 0);
	tank_file(x, "", "TANK.BODY", 0, 0, "track.tga");
	check(x);
	ck_assert_uint_eq(count("reference-texture-missing"), 1);
	wl_xref_free(x);
	ck_assert_int_eq(wl_xref_scan_textures(NULL, root), -1);
	x = wl_xref_new();
	snprintf(p, sizeof p, "%s/missing", root);
	ck_assert_int_eq(wl_xref_scan_textures(x, p), -1);
	wl_xref_free(x);
	snprintf(p, sizeof p, "%s/Art/Tank.DDS", root);
	unlink(p);
	snprintf(p, sizeof p, "%s/notes.txt", root);
	unlink(p);
	snprintf(p, sizeof p, "%s/Art", root);
	rmdir(p);
	rmdir(root);
}
END_TEST

START_TEST(rules_in_catalogue)
{
	ck_assert_uint_eq(t_anim_missing_from_catalogue(), 0);
}
END_TEST

/* Every mutated file is added to one index; the check must stay safe. */
static wl_xref *FUZZ;

static wl_doc *lint_and_add(const uint8_t *p, size_t n)
{
	wl_doc *d = t_ref_lint_bytes(p, n);
	wl_xref_add(FUZZ, "fuzz.w3d", d);
	return d;
}

START_TEST(mutations_are_safe)
{
	FUZZ = wl_xref_new();
	wb b;
	skin_in_one_file(&b, 1);
	static const uint16_t pivots[] = { 1 };
	static const uint16_t types[] = { 6 };
	t_ref_anim(&b, "MOVE", "TANKSKL", 3, 30, 1, pivots, types, 0, NULL, NULL, NULL);
	t_robust_lint_variants(b.data, b.len, &(t_robust_opts){ lint_and_add, t_ref_free, 99, 800, NULL });
	wl_xref_add_texture_file(FUZZ, "x.tga");
	NG = 0;
	ck_assert_int_ge(wl_xref_check(FUZZ, collect, NULL), 0);
	wl_xref_free(FUZZ);
	t_w3d_free(&b);
}
END_TEST

Suite *xref_suite(void)
{
	const TTest *tests[] = {
		consistent_folder_is_clean, missing_references, texture_check_needs_texture_files,
		pivots_across_files, bones_across_files, duplicates, scan_textures_walks_the_tree,
		rules_in_catalogue, mutations_are_safe, NULL
	};
	return t_robust_suite_of("xref", "rules", 300, tests);
}
