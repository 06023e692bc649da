/* tests/lint/b3d/test_materials.c - the B3D TEXS and BRUS rules
 * (lint/b3d/check_materials.c): for each rule a case that fires at the exact
 * bytes, a near miss that does not, and one more defective element adding
 * exactly one more finding. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "tests/build/b3dlint.h"

/* A file with a TEXS of ntex entries (names from tex, "t.png" when NULL) or
 * a chunk of tag texs_tag in its place, then a BRUS of nbrush brushes with
 * n_texs ids each (ids), then the quad mesh using brush 0. */
typedef struct mat {
	const char *texs_tag;     /* "TEXS", "XXXX" or NULL (no chunk) */
	const char *const *tex;
	int ntex;
	int32_t n_texs;
	const int32_t *ids;       /* n_texs ids for every brush */
	int nbrush;
	float shininess;
} mat;

typedef struct mat_at {
	size_t texs, brus, brush[4];
} mat_at;

static wl_doc *build(const mat *m, mat_at *at)
{
	wb b;
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	at->texs = b.len;
	if (m->texs_tag) {
		t_b3d_begin(&b, m->texs_tag);
		for (int i = 0; i < m->ntex; i++)
			t_b3d_tex(&b, m->tex ? m->tex[i] : "t.png");
		t_b3d_end(&b);
	}
	at->brus = b.len;
	t_b3d_begin(&b, "BRUS");
	t_w3d_u32(&b, (uint32_t)m->n_texs);
	for (int i = 0; i < m->nbrush; i++) {
		at->brush[i] = b.len;
		t_b3d_str(&b, "b");
		for (int k = 0; k < 4; k++)
			t_w3d_f32(&b, 1);
		t_w3d_f32(&b, m->shininess);
		t_w3d_u32(&b, 1);
		t_w3d_u32(&b, 0);
		for (int32_t k = 0; k < m->n_texs; k++)
			t_w3d_u32(&b, (uint32_t)m->ids[k]);
	}
	t_b3d_end(&b);
	t_b3d_node_begin(&b, "n", t_b3d_identity);
	t_b3d_quad_mesh(&b, 0, 0, NULL);
	t_b3d_end(&b);
	t_b3d_end(&b);
	return t_b3dlint_take(&b);
}

static size_t count(const mat *m, const char *rule)
{
	mat_at at;
	wl_doc *d = build(m, &at);
	size_t n = t_count(d, rule);
	t_b3dlint_free(d);
	return n;
}

START_TEST(textured_brush_is_clean)
{
	int32_t ids[] = { 0, -1 };
	mat m = { "TEXS", NULL, 1, 2, ids, 1, 0 };
	mat_at at;
	wl_doc *d = build(&m, &at);
	if (d->findings.count)
		t_b3dlint_dump(d);
	ck_assert_uint_eq(d->findings.count, 0);
	t_b3dlint_free(d);
}
END_TEST

START_TEST(texture_id_out_of_range)
{
	const char *r = "b3d-texture-id-out-of-range";
	int32_t ids[] = { 0, 1 };
	mat m = { "TEXS", NULL, 1, 2, ids, 1, 0 };
	mat_at at;
	wl_doc *d = build(&m, &at);
	ck_assert_uint_eq(t_count(d, r), 1);
	/* brush: "b\0", 28 bytes, then id 0, id 1 */
	const wl_finding *f = t_find_at(d, r, at.brush[0] + 2 + 28 + 4);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->length, 4);
	ck_assert_ptr_null(strstr(f->message, "renamed"));
	t_b3dlint_free(d);
	m.ntex = 2; /* near miss: texture 1 now exists */
	ck_assert_uint_eq(count(&m, r), 0);
	ids[0] = -2;
	ck_assert_uint_eq(count(&m, r), 1);
	m.nbrush = 2; /* the same ids in one more brush */
	ck_assert_uint_eq(count(&m, r), 2);
}
END_TEST

START_TEST(texture_id_into_renamed_texs)
{
	const char *r = "b3d-texture-id-out-of-range";
	int32_t ids[] = { 0 };
	mat m = { "XXXX", NULL, 1, 1, ids, 1, 0 };
	mat_at at;
	wl_doc *d = build(&m, &at);
	ck_assert_uint_eq(t_count(d, r), 1);
	ck_assert_uint_eq(t_count(d, "chunk-unknown"), 1);
	const wl_finding *f = t_find_at(d, r, at.brush[0] + 2 + 28);
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(strstr(f->message, "'XXXX'"));
	t_b3dlint_free(d);
	m.texs_tag = NULL; /* no chunk at all: no hint */
	d = build(&m, &at);
	f = t_find(d, r);
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_null(strstr(f->message, "renamed"));
	t_b3dlint_free(d);
	ids[0] = -1;
	ck_assert_uint_eq(count(&m, r), 0);
}
END_TEST

START_TEST(brush_texture_count)
{
	const char *r = "b3d-brush-texture-count", *layers = "b3d-brush-texture-layers";
	int32_t ids[9] = { -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	mat m = { "TEXS", NULL, 1, 9, ids, 1, 0 };
	mat_at at;
	wl_doc *d = build(&m, &at);
	ck_assert_uint_eq(t_count(d, r), 1);
	ck_assert_uint_eq(t_count(d, layers), 0);
	const wl_finding *f = t_find_at(d, r, at.brus + 8);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->length, 4);
	t_b3dlint_free(d);
	m.n_texs = -1; /* its own rule: Irrlicht 1.8 hangs on it */
	m.nbrush = 0;
	ck_assert_uint_eq(count(&m, r), 0);
	ck_assert_uint_eq(count(&m, "b3d-brush-texture-negative"), 1);
	d = build(&m, &at);
	t_b3dlint_one(d, "b3d-brush-texture-negative", at.brus + 8, 0);
	t_b3dlint_free(d);
	m.n_texs = 8; /* near miss: the spec's and Assimp's limit */
	m.nbrush = 1;
	ck_assert_uint_eq(count(&m, r), 0);
	d = build(&m, &at);
	t_b3dlint_one(d, layers, at.brus + 8, 0);
	t_b3dlint_free(d);
	m.n_texs = 4; /* near miss: Luanti's 4 layers */
	ck_assert_uint_eq(count(&m, layers), 0);
}
END_TEST

START_TEST(texture_paths)
{
	const char *bs = "b3d-texture-path-backslash", *abs = "b3d-texture-path-absolute";
	const char *names[] = { "textures\\skin.png", "C:/work/skin.png", "D:\\x\\y.jpg", "/home/a.png" };
	mat m = { "TEXS", names, 1, 0, NULL, 1, 0 };
	mat_at at;
	wl_doc *d = build(&m, &at);
	ck_assert_uint_eq(t_count(d, bs), 1);
	ck_assert_uint_eq(t_count(d, abs), 0);
	const wl_finding *f = t_find_at(d, bs, at.texs + 8);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->length, strlen(names[0]) + 1);
	t_b3dlint_free(d);
	m.ntex = 2;
	d = build(&m, &at);
	t_b3dlint_one(d, abs, at.texs + 8 + strlen(names[0]) + 1 + 28, 0);
	t_b3dlint_free(d);
	m.ntex = 4;
	ck_assert_uint_eq(count(&m, bs), 2);
	ck_assert_uint_eq(count(&m, abs), 3);
	const char *clean[] = { "textures/skin.png", "skin:2.png" };
	m.tex = clean; /* near misses: forward slashes, a colon past the drive */
	m.ntex = 2;
	ck_assert_uint_eq(count(&m, bs) + count(&m, abs), 0);
}
END_TEST

START_TEST(non_finite_brush)
{
	const char *r = "b3d-float-not-finite";
	mat m = { "TEXS", NULL, 1, 0, NULL, 1, 0 };
	ck_assert_uint_eq(count(&m, r), 0);
	m.shininess = NAN;
	mat_at at;
	wl_doc *d = build(&m, &at);
	t_b3dlint_one(d, r, at.brush[0] + 2, 20);
	t_b3dlint_free(d);
	m.nbrush = 2;
	ck_assert_uint_eq(count(&m, r), 2);
}
END_TEST

START_TEST(non_finite_texture)
{
	const char *r = "b3d-float-not-finite";
	wb b;
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	t_b3d_begin(&b, "TEXS");
	t_b3d_tex(&b, "a.png");
	size_t second = b.len;
	t_b3d_str(&b, "b.png");
	t_w3d_u32(&b, 1);
	t_w3d_u32(&b, 2);
	t_w3d_f32(&b, 0);
	t_w3d_f32(&b, 0);
	t_w3d_f32(&b, INFINITY); /* x_scale */
	t_w3d_f32(&b, 1);
	t_w3d_f32(&b, 0);
	t_b3d_end(&b);
	t_b3d_end(&b);
	wl_doc *d = t_b3dlint_take(&b);
	const wl_finding *f = t_b3dlint_one(d, r, second + 6 + 8, 20);
	ck_assert_int_eq(f->element, 1);
	t_b3dlint_free(d);
}
END_TEST

extern Suite *b3d_materials_suite(void);
Suite *b3d_materials_suite(void)
{
	Suite *s = suite_create("b3d_materials");
	TCase *t = tcase_create("rules");
	tcase_add_test(t, textured_brush_is_clean);
	tcase_add_test(t, texture_id_out_of_range);
	tcase_add_test(t, texture_id_into_renamed_texs);
	tcase_add_test(t, brush_texture_count);
	tcase_add_test(t, texture_paths);
	tcase_add_test(t, non_finite_brush);
	tcase_add_test(t, non_finite_texture);
	suite_add_tcase(s, t);
	return s;
}
