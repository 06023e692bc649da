/* check_b3d_materials.c - the B3D TEXS and BRUS rules
 * (lint/b3d/check_materials.c): for each rule a case that fires at the exact
 * bytes, a near miss that does not, and one more defective element adding
 * exactly one more finding. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "b3dlint.h"

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
	wb_init(&b);
	b3b_begin(&b, "BB3D");
	wb_u32(&b, 1);
	at->texs = b.len;
	if (m->texs_tag) {
		b3b_begin(&b, m->texs_tag);
		for (int i = 0; i < m->ntex; i++)
			b3b_tex(&b, m->tex ? m->tex[i] : "t.png");
		b3b_end(&b);
	}
	at->brus = b.len;
	b3b_begin(&b, "BRUS");
	wb_u32(&b, (uint32_t)m->n_texs);
	for (int i = 0; i < m->nbrush; i++) {
		at->brush[i] = b.len;
		b3b_str(&b, "b");
		for (int k = 0; k < 4; k++)
			wb_f32(&b, 1);
		wb_f32(&b, m->shininess);
		wb_u32(&b, 1);
		wb_u32(&b, 0);
		for (int32_t k = 0; k < m->n_texs; k++)
			wb_u32(&b, (uint32_t)m->ids[k]);
	}
	b3b_end(&b);
	b3b_node_begin(&b, "n", b3b_identity);
	b3b_quad_mesh(&b, 0, 0, NULL);
	b3b_end(&b);
	b3b_end(&b);
	return b3l_take(&b);
}

static size_t count(const mat *m, const char *rule)
{
	mat_at at;
	wl_doc *d = build(m, &at);
	size_t n = ru_count(d, rule);
	b3l_free(d);
	return n;
}

START_TEST(textured_brush_is_clean)
{
	int32_t ids[] = { 0, -1 };
	mat m = { "TEXS", NULL, 1, 2, ids, 1, 0 };
	mat_at at;
	wl_doc *d = build(&m, &at);
	if (d->findings.count)
		b3l_dump(d);
	ck_assert_uint_eq(d->findings.count, 0);
	b3l_free(d);
}
END_TEST

START_TEST(texture_id_out_of_range)
{
	const char *r = "b3d-texture-id-out-of-range";
	int32_t ids[] = { 0, 1 };
	mat m = { "TEXS", NULL, 1, 2, ids, 1, 0 };
	mat_at at;
	wl_doc *d = build(&m, &at);
	ck_assert_uint_eq(ru_count(d, r), 1);
	/* brush: "b\0", 28 bytes, then id 0, id 1 */
	const wl_finding *f = ru_find_at(d, r, at.brush[0] + 2 + 28 + 4);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->length, 4);
	ck_assert_ptr_null(strstr(f->message, "renamed"));
	b3l_free(d);
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
	ck_assert_uint_eq(ru_count(d, r), 1);
	ck_assert_uint_eq(ru_count(d, "chunk-unknown"), 1);
	const wl_finding *f = ru_find_at(d, r, at.brush[0] + 2 + 28);
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(strstr(f->message, "'XXXX'"));
	b3l_free(d);
	m.texs_tag = NULL; /* no chunk at all: no hint */
	d = build(&m, &at);
	f = ru_find(d, r);
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_null(strstr(f->message, "renamed"));
	b3l_free(d);
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
	ck_assert_uint_eq(ru_count(d, r), 1);
	ck_assert_uint_eq(ru_count(d, layers), 0);
	const wl_finding *f = ru_find_at(d, r, at.brus + 8);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->length, 4);
	b3l_free(d);
	m.n_texs = -1;
	m.nbrush = 0;
	ck_assert_uint_eq(count(&m, r), 1);
	m.n_texs = 8; /* near miss: the spec's and Assimp's limit */
	m.nbrush = 1;
	ck_assert_uint_eq(count(&m, r), 0);
	d = build(&m, &at);
	b3l_one(d, layers, at.brus + 8, 0);
	b3l_free(d);
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
	ck_assert_uint_eq(ru_count(d, bs), 1);
	ck_assert_uint_eq(ru_count(d, abs), 0);
	const wl_finding *f = ru_find_at(d, bs, at.texs + 8);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->length, strlen(names[0]) + 1);
	b3l_free(d);
	m.ntex = 2;
	d = build(&m, &at);
	b3l_one(d, abs, at.texs + 8 + strlen(names[0]) + 1 + 28, 0);
	b3l_free(d);
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
	b3l_one(d, r, at.brush[0] + 2, 20);
	b3l_free(d);
	m.nbrush = 2;
	ck_assert_uint_eq(count(&m, r), 2);
}
END_TEST

START_TEST(non_finite_texture)
{
	const char *r = "b3d-float-not-finite";
	wb b;
	wb_init(&b);
	b3b_begin(&b, "BB3D");
	wb_u32(&b, 1);
	b3b_begin(&b, "TEXS");
	b3b_tex(&b, "a.png");
	size_t second = b.len;
	b3b_str(&b, "b.png");
	wb_u32(&b, 1);
	wb_u32(&b, 2);
	wb_f32(&b, 0);
	wb_f32(&b, 0);
	wb_f32(&b, INFINITY); /* x_scale */
	wb_f32(&b, 1);
	wb_f32(&b, 0);
	b3b_end(&b);
	b3b_end(&b);
	wl_doc *d = b3l_take(&b);
	const wl_finding *f = b3l_one(d, r, second + 6 + 8, 20);
	ck_assert_int_eq(f->element, 1);
	b3l_free(d);
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
