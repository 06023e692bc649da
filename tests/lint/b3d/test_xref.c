/* tests/lint/b3d/test_xref.c - the B3D cross-file index (lint/b3d/xref.c) through
 * lint/xref.h: TEXS file names against the image files offered to it. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "lint/xref.h"
#include "tests/build/b3dbuild.h"
#include "tests/build/build_refs.h"

extern Suite *b3d_xref_suite(void);

static char RULE[64][48];
static uint64_t OFF[64];
static size_t NG;

static void collect(void *user, const wl_xref_finding *f)
{
	(void)user;
	if (NG < 64) {
		snprintf(RULE[NG], sizeof RULE[NG], "%s", wl_rule_name(f->rule));
		OFF[NG] = f->offset;
	}
	NG++;
}

/* A B3D file whose TEXS names the n files of names; *name_at gets the
 * offset of the last name. */
static void model_with_textures(wb *b, const char *const *names, size_t n, size_t *name_at)
{
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
	t_b3d_begin(b, "TEXS");
	for (size_t i = 0; i < n; i++) {
		*name_at = b->len;
		t_b3d_tex(b, names[i]);
	}
	t_b3d_end(b);
	t_b3d_node_begin(b, "root", t_b3d_identity);
	t_b3d_quad_mesh(b, -1, 0, NULL);
	t_b3d_end(b);
	t_b3d_end(b);
}

/* Lints the model, adds it and the image files to a new index, checks. */
static long run(const char *const *names, size_t n, const char *const *images, size_t ni,
		size_t *name_at)
{
	wb b;
	t_w3d_init(&b);
	model_with_textures(&b, names, n, name_at);
	wl_doc *d = t_ref_lint(&b, "mob.b3d");
	wl_xref *x = wl_xref_new();
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(wl_xref_add(x, "mob.b3d", d), 0);
	t_ref_free(d);
	for (size_t i = 0; i < ni; i++)
		ck_assert_int_eq(wl_xref_add_texture_file(x, images[i]), 0);
	NG = 0;
	long found = wl_xref_check(x, collect, NULL);
	ck_assert_int_eq(found, (long)NG);
	wl_xref_free(x);
	t_w3d_free(&b);
	return found;
}

START_TEST(test_missing_texture_fires)
{
	const char *names[] = { "tex\\Skin.PNG", "missing.png" };
	const char *images[] = { "mod/textures/skin.png", "mod/readme.txt" };
	size_t at;
	ck_assert_int_eq(run(names, 2, images, 2, &at), 1);
	ck_assert_str_eq(RULE[0], wl_rule_name(WLR_B3D_TEXTURE_FILE_MISSING));
	ck_assert_uint_eq(OFF[0], at);
	/* One more missing name, one more finding. */
	const char *more[] = { "tex\\Skin.PNG", "missing.png", "gone.jpg" };
	ck_assert_int_eq(run(more, 3, images, 2, &at), 2);
}
END_TEST

START_TEST(test_near_misses)
{
	const char *names[] = { "tex/skin.png" };
	const char *images[] = { "a/b/SKIN.png" };
	size_t at;
	/* found, in any letter case and folder */
	ck_assert_int_eq(run(names, 1, images, 1, &at), 0);
	/* a folder with no image at all: nothing is said */
	const char *none[] = { "a/notes.txt" };
	ck_assert_int_eq(run(names, 1, none, 1, &at), 0);
}
END_TEST

Suite *b3d_xref_suite(void)
{
	Suite *s = suite_create("b3d_xref");
	TCase *tc = tcase_create("b3d_xref");
	tcase_add_test(tc, test_missing_texture_fires);
	tcase_add_test(tc, test_near_misses);
	suite_add_tcase(s, tc);
	return s;
}
