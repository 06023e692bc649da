/* tests/core/p3d/test_mlod.c - the MLOD walk of SP3X (Operation Flashpoint) LODs
 * beside P3DM ones, its element rules at their bytes, the DayZ embedded
 * material of version 16 in ODOL LODs (core/p3d/p3d_mlod.c, p3d_lod.c),
 * and the ODOL versions and compression kinds of the fuzz seeds, on files
 * built by tests/build/p3dbuild.h and tests/build/p3dbuild_mlod.h. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/p3d/p3d.h"
#include "lint/lint.h"
#include "tests/build/p3dbuild_mlod.h"
#include "tests/build/reader_util.h"

extern Suite *p3d_mlod_suite(void);

/* Lints b as x.p3d: a P3D document whose tree tiles the file, every
 * finding inside it. */
static wl_doc *lint(const wb *b)
{
	return t_lint_checked(t_cat, "x.p3d", "p3d", b->data, b->len);
}

static const float QUAD[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
static const float UV[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };

/* SP3X face size: texture[32], nVerts, 4 x 16, flags (104). */
#define SP3X_FACE 104u

/* An MLOD of an SP3X LOD (faces f, points pts) then a P3DM LOD;
 * *faces = the SP3X LOD's first face. */
static void sp3x_file(wb *b, const float (*pts)[3], const t_p3d_face *f, uint32_t nf, size_t *faces)
{
	t_w3d_init(b);
	t_p3d_mlod_begin(b, 2);
	*faces = t_p3d_sp3x_lod(b, pts, 4, T_P3D_UP, 4, f, UV, nf, 1.0f);
	t_p3d_mlod_lod(b, QUAD, 4, T_P3D_UP, 4, f, nf, 1e15f); /* Memory */
}

START_TEST(test_sp3x_walk)
{
	t_p3d_face f[2] = { { 4, { 0, 1, 2, 3 } }, { 3, { 0, 1, 2, 0 } } };
	wb b;
	size_t faces;
	sp3x_file(&b, QUAD, f, 2, &faces);
	wl_doc *d = lint(&b);
	ck_assert_msg(d->findings.count == 0, "%zu findings", d->findings.count);
	const p3d_model *m = d->model;
	ck_assert(m->lods[0].walked && m->lods[1].walked);
	ck_assert_uint_eq(m->lods[0].n_faces, 2);
	ck_assert(m->lods[0].resolution == 1.0f && m->lods[1].resolution == 1e15f);
	ck_assert_uint_eq(m->lods[1].start, m->lods[0].end);
	wl_chunk *fn = t_chunk_at(d, faces, P3D_NODE_FACES);
	ck_assert_ptr_nonnull(fn);
	ck_assert_uint_eq(fn->size, 2 * SP3X_FACE);
	/* the 64-byte tag names: TAGG, #Mass# (64 + 4 + 4), #EndOfFile# */
	wl_chunk *tags = t_chunk_at(d, faces + 2 * SP3X_FACE, P3D_NODE_TAGS);
	ck_assert_ptr_nonnull(tags);
	ck_assert_uint_eq(tags->size, 4 + 72 + 68);
	wl_doc_free(d);
	/* without its #EndOfFile# (renamed): the tag list runs to the end */
	memcpy(b.data + faces + 2 * SP3X_FACE + 4 + 72, "#EndOfFilX", 10);
	d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-mlod-no-eof-tag"), 1);
	ck_assert(!((const p3d_model *)d->model)->lods[0].walked);
	wl_doc_free(d);
	t_w3d_free(&b);
	/* cut in the second face */
	sp3x_file(&b, QUAD, f, 2, &faces);
	b.len = faces + SP3X_FACE + 50;
	d = lint(&b);
	ck_assert_int_eq(t_offset(d, "p3d-truncated"), (int64_t)(faces + SP3X_FACE));
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

/* The element rules in an SP3X LOD: one finding per defect at its bytes,
 * one more defect one more finding, near misses silent. */
START_TEST(test_sp3x_elements)
{
	t_p3d_face f[2] = { { 4, { 0, 1, 2, 3 } }, { 3, { 0, 1, 2, 0 } } };
	wb b;
	size_t faces;
	/* vertex count 5: at the count, after the 32-byte texture name */
	f[1].n = 5;
	sp3x_file(&b, QUAD, f, 2, &faces);
	wl_doc *d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-face-vertex-count"), 2); /* both lods */
	ck_assert_ptr_nonnull(t_find_at(d, "p3d-face-vertex-count", faces + SP3X_FACE + 32));
	wl_doc_free(d);
	t_w3d_free(&b);
	f[1].n = 3;
	/* point index 4 of 4 in the triangle's vertex 1; 3 is the near miss */
	f[1].idx[1] = 3;
	sp3x_file(&b, QUAD, f, 2, &faces);
	d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-face-index"), 0);
	wl_doc_free(d);
	t_w3d_free(&b);
	f[1].idx[1] = 4;
	sp3x_file(&b, QUAD, f, 2, &faces);
	d = lint(&b);
	/* point and normal (same index) in each lod */
	ck_assert_uint_eq(t_count(d, "p3d-face-index"), 4);
	uint64_t v1 = faces + SP3X_FACE + 32 + 4 + 16;
	ck_assert_ptr_nonnull(t_find_at(d, "p3d-face-index", v1));
	ck_assert_ptr_nonnull(t_find_at(d, "p3d-face-index", v1 + 4));
	ck_assert_int_eq(t_find_at(d, "p3d-face-index", v1)->element, 1);
	wl_doc_free(d);
	/* one more bad point index: one more finding */
	t_w3d_patch_u32(&b, faces + SP3X_FACE + 32 + 4 + 32, 9);
	d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-face-index"), 5);
	wl_doc_free(d);
	t_w3d_free(&b);
	f[1].idx[1] = 1;
	/* a NaN point, then a NaN UV, in the SP3X LOD */
	float pts[4][3];
	memcpy(pts, QUAD, sizeof pts);
	pts[2][2] = NAN;
	sp3x_file(&b, (const float (*)[3])pts, f, 2, &faces);
	d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-not-finite"), 1);
	ck_assert_ptr_nonnull(t_find_at(d, "p3d-not-finite", 12 + 28 + 2 * 16));
	wl_doc_free(d);
	t_w3d_free(&b);
	sp3x_file(&b, QUAD, f, 2, &faces);
	uint64_t uv = faces + 32 + 4 + 16 * 2 + 8; /* face 0, vertex 2, u */
	float inf = INFINITY;
	memcpy(b.data + uv, &inf, 4);
	d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-not-finite"), 1);
	ck_assert_ptr_nonnull(t_find_at(d, "p3d-not-finite", uv));
	wl_doc_free(d);
	memcpy(b.data + uv + 16 + 4, &inf, 4); /* vertex 3's v: one more */
	d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-not-finite"), 2);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

/* A NaN normal in a P3DM LOD: one finding per normal, at the normal. */
START_TEST(test_p3dm_normals)
{
	t_p3d_face f[1] = { { 3, { 0, 1, 2, 0 } } };
	float nrm[4][3];
	memcpy(nrm, QUAD, sizeof nrm);
	wb b;
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 1);
	t_p3d_mlod_lod(&b, QUAD, 4, (const float (*)[3])nrm, 4, f, 1, 1.0f);
	wl_doc *d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-not-finite"), 0);
	wl_doc_free(d);
	t_w3d_free(&b);
	nrm[1][0] = NAN;
	nrm[3][2] = -INFINITY;
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 1);
	t_p3d_mlod_lod(&b, QUAD, 4, (const float (*)[3])nrm, 4, f, 1, 1.0f);
	d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-not-finite"), 2);
	uint64_t normals = 12 + 28 + 4 * 16;
	ck_assert_int_eq(t_find_at(d, "p3d-not-finite", normals + 12)->element, 1);
	ck_assert_int_eq(t_find_at(d, "p3d-not-finite", normals + 36)->element, 3);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

/* p3d-normal-not-unit: a finite normal whose length is off 1 by more than
 * the tolerance (0.001), in P3DM and SP3X LODs, one finding per normal at
 * its 12 bytes naming the first face vertex using it; a length within the
 * tolerance is a near miss, a NaN normal p3d-not-finite's. */
START_TEST(test_normal_not_unit)
{
	t_p3d_face f[1] = { { 4, { 0, 1, 2, 3 } } };
	float nrm[5][3];
	memcpy(nrm, T_P3D_UP, sizeof nrm);
	nrm[1][2] = 1.0009f; /* near miss */
	nrm[0][2] = -1.0f;   /* unit, pointing away: not this rule's */
	wb b;
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 1);
	t_p3d_mlod_lod(&b, QUAD, 4, (const float (*)[3])nrm, 4, f, 1, 1.0f);
	wl_doc *d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-normal-not-unit"), 0);
	wl_doc_free(d);
	t_w3d_free(&b);
	uint64_t normals = 12 + 28 + 4 * 16;
	nrm[2][2] = 2.0f; /* fires */
	nrm[3][0] = NAN;  /* p3d-not-finite's */
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 1);
	t_p3d_mlod_lod(&b, QUAD, 4, (const float (*)[3])nrm, 4, f, 1, 1.0f);
	d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-normal-not-unit"), 1);
	const wl_finding *x = t_find_at(d, "p3d-normal-not-unit", normals + 24);
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(x->element, 2);
	ck_assert_uint_eq(x->length, 12);
	ck_assert_ptr_nonnull(strstr(x->message, "face 0 vertex 2 uses it"));
	ck_assert_uint_eq(t_count(d, "p3d-not-finite"), 1);
	wl_doc_free(d);
	t_w3d_free(&b);
	/* one more: a zero normal, and an unused long one (5 normals) */
	nrm[3][0] = 0;
	nrm[3][2] = 0;
	nrm[4][0] = 1.0f;
	nrm[4][1] = 1.0f;
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 1);
	t_p3d_mlod_lod(&b, QUAD, 4, (const float (*)[3])nrm, 5, f, 1, 1.0f);
	d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-normal-not-unit"), 3);
	ck_assert_int_eq(t_find_at(d, "p3d-normal-not-unit", normals + 36)->element, 3);
	x = t_find_at(d, "p3d-normal-not-unit", normals + 48);
	ck_assert_ptr_nonnull(strstr(x->message, "no face uses it"));
	wl_doc_free(d);
	t_w3d_free(&b);
	/* SP3X: the same normals */
	memcpy(nrm, T_P3D_UP, sizeof nrm);
	nrm[1][1] = 0.5f; /* length 1.118 */
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 1);
	t_p3d_sp3x_lod(&b, QUAD, 4, (const float (*)[3])nrm, 4, f, UV, 1, 1.0f);
	d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-normal-not-unit"), 1);
	ck_assert_int_eq(t_find_at(d, "p3d-normal-not-unit", normals + 12)->element, 1);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

static const float RES1[] = { 1.0f };

/* A one-LOD ODOL of version v whose LOD embeds materials of the versions
 * mvs (n of them); *mat = the offset of the first material's version. */
static void odol_materials(wb *b, uint32_t v, const uint32_t *mvs, uint32_t n, uint32_t stages,
			   t_p3d_layout *at, size_t *mat)
{
	wb m;
	t_w3d_init(&m);
	for (uint32_t i = 0; i < n; i++)
		t_p3d_material(&m, mvs[i], i ? "" : "x.bisurf", stages, 1);
	t_p3d_face f[1] = { { 3, { 0, 1, 2, 0 } } };
	t_p3d_lod l = { .nverts = 4, .pos = QUAD, .faces = f, .nfaces = 1, .nmats = n,
		      .mats = m.data, .mats_len = m.len };
	t_w3d_init(b);
	t_p3d_odol(b, v, 1, RES1, &l, 0, at);
	/* the materials follow the materials count, before the edges */
	*mat = at->faces[0] - 10 - 8 - m.len + 8;
	t_w3d_free(&m);
}

/* Every version gate, both compression kinds (BI LZSS below v44, LZO1X
 * from v44) on both sides of the 1024-byte rule (below v64) or flagged
 * (from v64), as the fuzz seeds have them: walked with no finding. */
START_TEST(test_versions_walk)
{
	static float many[86][3];
	for (int i = 0; i < 86; i++) {
		many[i][0] = (float)(i % 7);
		many[i][1] = (float)i * 0.25f;
	}
	static const float res[2] = { 2.0f, 1.0f };
	static const uint32_t versions[] = { 40, 43, 44, 48, 53, 63, 64, 69, 75 };
	t_p3d_face f[1] = { { 3, { 0, 1, 2, 0 } } };
	for (size_t k = 0; k < sizeof versions / sizeof versions[0]; k++) {
		uint32_t v = versions[k];
		const t_p3d_lod l[2] = { { 86, (const float (*)[3])many, f, 1, 0, v >= 64 },
				       { 85, (const float (*)[3])many, f, 1, 0, 0 } };
		wb b;
		t_p3d_layout at;
		t_w3d_init(&b);
		t_p3d_odol(&b, v, 2, res, l, 0, &at);
		wl_doc *d = lint(&b);
		ck_assert_msg(d->findings.count == 0, "v%u: %zu findings", v, d->findings.count);
		const p3d_model *m = d->model;
		ck_assert(m->lods[0].walked && m->lods[1].walked);
		/* 86 x 12 = 1032 bytes compressed; 85 x 12 = 1020 raw */
		ck_assert_uint_lt(at.lod_end[0] - at.positions[0], 1032);
		ck_assert_uint_gt(at.lod_end[1] - at.positions[1], 1020);
		wl_doc_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

START_TEST(test_material_dayz)
{
	wb b;
	t_p3d_layout at;
	size_t mat;
	/* version 10, 11 (Arma) and 16 (DayZ), 0 to 10 stages: walked */
	static const uint32_t known[] = { 10, 11, 16 };
	for (uint32_t stages = 0; stages <= 10; stages += 5) {
		odol_materials(&b, 53, known, 3, stages, &at, &mat);
		wl_doc *d = lint(&b);
		ck_assert_msg(d->findings.count == 0, "%u stages: %zu findings (%s)", stages,
			      d->findings.count,
			      d->findings.count ? d->findings.items[0].message : "");
		ck_assert(((const p3d_model *)d->model)->lods[0].walked);
		wl_doc_free(d);
		t_w3d_free(&b);
	}
	/* versions 12 and 20: not known, one finding each at the version,
	 * the walk stops at the first */
	static const uint32_t unknown[] = { 12, 20 };
	for (int k = 0; k < 2; k++) {
		odol_materials(&b, 53, &unknown[k], 1, 2, &at, &mat);
		wl_doc *d = lint(&b);
		ck_assert_uint_eq(t_count(d, "p3d-material-version"), 1);
		ck_assert_int_eq(t_offset(d, "p3d-material-version"), (int64_t)mat);
		ck_assert_uint_eq(t_count(d, "p3d-lod-walk"), 0);
		ck_assert(!((const p3d_model *)d->model)->lods[0].walked);
		wl_doc_free(d);
		t_w3d_free(&b);
	}
	/* a version 16 material stored with version 11's layout (56 bytes
	 * short): the walk does not land on the LOD's end */
	static const uint32_t v11[] = { 11 };
	odol_materials(&b, 53, v11, 1, 2, &at, &mat);
	t_w3d_patch_u32(&b, mat, 16);
	wl_doc *d = lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-material-version"), 0);
	ck_assert_uint_eq(t_count(d, "p3d-lod-walk") + t_count(d, "p3d-block-decode"), 1);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

Suite *p3d_mlod_suite(void)
{
	Suite *s = suite_create("p3d_mlod");
	TCase *tc = tcase_create("p3d_mlod");
	tcase_add_checked_fixture(tc, t_cat_setup, t_cat_teardown);
	tcase_add_test(tc, test_sp3x_walk);
	tcase_add_test(tc, test_sp3x_elements);
	tcase_add_test(tc, test_p3dm_normals);
	tcase_add_test(tc, test_normal_not_unit);
	tcase_add_test(tc, test_versions_walk);
	tcase_add_test(tc, test_material_dayz);
	suite_add_tcase(s, tc);
	return s;
}
