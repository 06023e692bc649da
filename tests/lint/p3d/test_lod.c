/* tests/lint/p3d/test_lod.c - the rules inside one ODOL LOD (lint/p3d/check_lod_*.c)
 * on LODs built by tests/build/p3dbuild_lod.c: each rule fires on its defect,
 * one more defective element adds one more finding, and the near miss
 * (the clean LOD of full()) is silent. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/p3d/p3d.h"
#include "core/p3d/p3d_lodview.h"
#include "lint/lint.h"
#include "lint/p3d/checks.h"
#include "tests/build/p3dbuild_info.h"
#include "tests/build/p3dbuild_lod.h"
#include "tests/build/reader_util.h"

extern Suite *p3d_lod_suite(void);

static const t_p3d_face FACES[2] = { { 4, { 0, 1, 2, 3 } }, { 3, { 0, 1, 2, 0 } } };
static const uint32_t ITEMS[2] = { 0, 1 };
static const uint32_t LINKS[2] = { 0, 1 };
static const t_p3dlod_proxy PROXY[1] = { { 0, -1, 1 } };
static const uint32_t SEL_FACES[2] = { 0, 1 };
static const int32_t SEL_SECS[2] = { 0, 1 };
static const uint32_t SEL_VERTS[2] = { 0, 3 };
static const t_p3dlod_rt REFS[4] = { { 1, { 0 } }, { 2, { 0, 1 } }, { 0, { 9 } }, { 1, { 1, 9 } } };

/* One test LOD: its spec, sections and selection, and the offsets built. */
typedef struct lc {
	t_p3dlod_spec s;
	t_p3dlod_section sec[2];
	t_p3dlod_sel sel;
	t_p3dlod_at at;
} lc;

/* A clean LOD: 4 vertices, a quad and a triangle in two sections (the
 * quad's allocation is (1 + 4) x isz bytes), 2 textures, 1 material, one
 * selection, a proxy, a 2-bone subskeleton and bone refs whose unused
 * slots hold 9.  The caller may change any of it. */
static void full(uint32_t v, lc *c)
{
	t_p3dlod_spec *s = &c->s;
	t_p3dlod_section *sec = c->sec;
	t_p3dlod_sel *sel = &c->sel;
	uint32_t isz = v >= 69 ? 4 : 2;
	memset(c, 0, sizeof *c);
	s->nverts = 4;
	s->faces = FACES;
	s->nfaces = 2;
	s->proxies = PROXY;
	s->n_proxies = 1;
	s->items = ITEMS;
	s->n_items = 2;
	s->links = LINKS;
	s->n_links = 2;
	s->n_textures = 2;
	s->n_materials = 1;
	sec[0] = (t_p3dlod_section){ 0, 5 * isz, 1, 0 };
	sec[1] = (t_p3dlod_section){ 5 * isz, 9 * isz, -1, -1 };
	s->sections = sec;
	s->n_sections = 2;
	*sel = (t_p3dlod_sel){ SEL_FACES, 2, SEL_SECS, 2, SEL_VERTS, 2, 2 };
	s->sels = sel;
	s->n_sels = 1;
	s->refs = REFS;
	s->n_refs = 4;
}

/* Lints b as x.p3d; the tree must tile the file, every finding lie in it
 * and the LOD be walked to its end. */
static wl_doc *lint(const wb *b)
{
	wl_doc *d = wl_lint_bytes(t_cat, NULL, "x.p3d", b->data, b->len);
	ck_assert_ptr_nonnull(d);
	const char *why = t_tiling_error(d);
	ck_assert_msg(why == NULL, "%s", why ? why : "");
	why = t_findings_bounds_error(d);
	ck_assert_msg(why == NULL, "%s", why ? why : "");
	ck_assert(((const p3d_model *)d->model)->lods[0].walked);
	return d;
}

/* Builds c at v with a skeleton of n_bones bones (names b0..b7). */
static wl_doc *build_skeleton(uint32_t v, lc *c, uint32_t n_bones)
{
	static const char *const bones[] = { "b0", "", "b1", "b0", "b2", "b0", "b3", "b0",
					     "b4", "b0", "b5", "b0", "b6", "b0", "b7", "b0" };
	t_p3dinfo_info info = { .bbox_min = { -1e9f, -1e9f, -1e9f }, .bbox_max = { 1e9f, 1e9f, 1e9f },
			   .bones = bones, .n_bones = n_bones };
	wb b;
	t_p3d_layout lay;
	t_p3dinfo_next = &info;
	t_p3dlod_odol(&b, v, &c->s, &c->at, &lay);
	wl_doc *d = lint(&b);
	t_w3d_free(&b);
	return d;
}

/* Builds c at v with a skeleton of one bone per skeleton-to-subskeleton
 * entry (at most 8: the skeleton checks then run, and stay silent) and
 * lints it. */
static wl_doc *build(uint32_t v, lc *c)
{
	return build_skeleton(v, c, c->s.n_links < 8 ? c->s.n_links : 8);
}

/* Builds c at v: rule reports n findings, one of them at *field + plus
 * (an offset of c->at, as built) unless field is NULL. */
static void expect(uint32_t v, lc *c, const char *rule, size_t n, const size_t *field,
		   uint64_t plus)
{
	wl_doc *d = build(v, c);
	ck_assert_msg(t_count(d, rule) == n, "v%u: %zu %s, not %zu", v, t_count(d, rule), rule,
		      n);
	ck_assert(!field || t_find_at(d, rule, *field + plus) != NULL);
	wl_doc_free(d);
}

static const uint32_t VERSIONS[] = { 40, 48, 50, 59, 68, 70, 73 };
#define NV (sizeof VERSIONS / sizeof VERSIONS[0])

START_TEST(test_clean_lod)
{
	for (size_t k = 0; k < NV; k++) {
		lc c;
		full(VERSIONS[k], &c);
		wl_doc *d = build(VERSIONS[k], &c);
		for (size_t i = 0; i < d->findings.count; i++)
			ck_abort_msg("v%u: %s: %s", VERSIONS[k], d->findings.items[i].rule,
				     d->findings.items[i].message);
		wl_doc_free(d);
	}
}
END_TEST

START_TEST(test_face_allocation)
{
	lc c;
	full(70, &c);
	c.s.alloc_delta = 4;
	expect(70, &c, "p3d-face-allocation", 1, &c.at.alloc, 0);
}
END_TEST

START_TEST(test_section_faces)
{
	for (size_t k = 0; k < NV; k++) {
		uint32_t v = VERSIONS[k];
		lc c;
		full(v, &c);
		c.sec[0].to -= 1; /* inside the quad */
		c.sec[1].from -= 1;
		wl_doc *d = build(v, &c);
		ck_assert_uint_eq(t_count(d, "p3d-section-faces"), 2);
		ck_assert(t_find_at(d, "p3d-section-faces", c.at.section[0]) != NULL);
		ck_assert(t_find_at(d, "p3d-section-faces", c.at.section[1]) != NULL);
		ck_assert_uint_eq(t_count(d, "p3d-section-order"), 0);
		wl_doc_free(d);
		full(v, &c);
		c.sec[1].to += v >= 69 ? 4 : 2; /* past the faces */
		expect(v, &c, "p3d-section-faces", 1, &c.at.section[1], 0);
		full(v, &c);
		c.sec[1].to = c.sec[1].from; /* reversed: from the end back to the triangle */
		c.sec[1].from = 9 * (v >= 69 ? 4 : 2);
		expect(v, &c, "p3d-section-faces", 1, &c.at.section[1], 0);
	}
}
END_TEST

START_TEST(test_section_order)
{
	lc c;
	full(50, &c);
	c.sec[1].from = 0; /* overlaps the first */
	expect(50, &c, "p3d-section-order", 1, &c.at.section[1], 0);
	full(50, &c);
	c.sec[0].from = 10; /* a gap before the first (the triangle) */
	c.sec[1].to = 10;
	c.sec[1].from = 0;
	/* the first starts at 10, not 0; the second at 0, not 18; it ends at
	 * 10, not 18 */
	expect(50, &c, "p3d-section-order", 3, NULL, 0);
	full(50, &c);
	c.s.n_sections = 1; /* the triangle in no section */
	c.sel.n_secs = 1;
	c.s.proxies = NULL;
	c.s.n_proxies = 0;
	expect(50, &c, "p3d-section-order", 1, &c.at.section[0], 4);
	c.s.n_sections = 0;
	c.sel.n_secs = 0;
	expect(50, &c, "p3d-section-order", 1, &c.at.faces, 9 + 7);
}
END_TEST

START_TEST(test_section_texture_material)
{
	lc c;
	full(68, &c);
	c.sec[0].tex = 2;
	expect(68, &c, "p3d-section-texture", 1, &c.at.section[0], 20);
	c.sec[1].tex = -2;
	expect(68, &c, "p3d-section-texture", 2, NULL, 0);
	full(68, &c);
	c.sec[0].mat = 1;
	expect(68, &c, "p3d-section-material", 1, &c.at.section[0], 26);
	c.sec[1].mat = -2;
	expect(68, &c, "p3d-section-material", 2, NULL, 0);
}
END_TEST

START_TEST(test_selection_index)
{
	for (size_t k = 0; k < NV; k++) {
		uint32_t v = VERSIONS[k], isz = v >= 69 ? 4 : 2, flag = v >= 64 ? 1 : 0;
		lc c;
		full(v, &c);
		const uint32_t faces[3] = { 2, 0, 1 };
		const int32_t secs[2] = { 0, 2 };
		const uint32_t verts[3] = { 0, 4, 3 };
		c.sel.faces = faces;
		c.sel.n_faces = 3;
		c.sel.secs = secs;
		c.sel.verts = verts;
		c.sel.n_verts = 3;
		c.sel.n_weights = 3;
		wl_doc *d = build(v, &c);
		ck_assert_uint_eq(t_count(d, "p3d-selection-index"), 3);
		ck_assert(t_find_at(d, "p3d-selection-index", c.at.sel_faces[0] + 4 + flag));
		ck_assert(t_find_at(d, "p3d-selection-index", c.at.sel_secs[0] + 4 + flag + 4));
		ck_assert(t_find_at(d, "p3d-selection-index", c.at.sel_verts[0] + 4 + flag + isz));
		wl_doc_free(d);
		const int32_t secs2[2] = { -1, 2 }; /* one more */
		c.sel.secs = secs2;
		expect(v, &c, "p3d-selection-index", 4, NULL, 0);
	}
}
END_TEST

/* Inside a compressed block (LZO below v64 from 1024 bytes): one finding
 * per bad entry, at the block, the entry's index in the message. */
START_TEST(test_selection_index_compressed)
{
	static uint32_t verts[600];
	for (uint32_t i = 0; i < 600; i++)
		verts[i] = i % 4;
	verts[7] = 4;
	verts[500] = 60000;
	lc c;
	full(50, &c);
	c.sel.verts = verts;
	c.sel.n_verts = 600;
	c.sel.n_weights = 600;
	wl_doc *d = build(50, &c);
	ck_assert_uint_eq(t_count(d, "p3d-selection-index"), 2);
	const wl_finding *f = t_find(d, "p3d-selection-index");
	ck_assert_uint_eq(f->offset, c.at.sel_verts[0] + 4);
	ck_assert_uint_lt(f->length, 1200); /* the LZO block, not raw */
	ck_assert_ptr_nonnull(strstr(f->message, "entry 7 "));
	wl_doc_free(d);
}
END_TEST

START_TEST(test_selection_weights)
{
	lc c;
	full(73, &c);
	c.sel.n_weights = 3;
	expect(73, &c, "p3d-selection-weights", 1, &c.at.sel_weights[0], 0);
	c.sel.n_weights = 0; /* none is allowed */
	expect(73, &c, "p3d-selection-weights", 0, NULL, 0);
}
END_TEST

START_TEST(test_proxy_index)
{
	lc c;
	full(59, &c);
	t_p3dlod_proxy px[2] = { { 1, -1, 1 }, { 0, -1, -1 } };
	c.s.proxies = px;
	c.s.n_proxies = 2;
	expect(59, &c, "p3d-proxy-index", 1, &c.at.proxy_sel[0], 0);
	px[1].section = 2;
	expect(59, &c, "p3d-proxy-index", 2, &c.at.proxy_sel[1], 8);
}
END_TEST

/* The skeleton's bone count comes from ModelInfo (p3d_info.c): the file
 * is built with a 4-bone skeleton (silent), then the rules run again on a
 * view of the linted LOD with a model whose skeleton has 3 bones. */
START_TEST(test_skeleton_bones)
{
	lc c;
	full(73, &c);
	const uint32_t items[2] = { 2, 3 };
	c.s.items = items;
	wb b; /* kept until the end: the rules read the linted bytes */
	t_p3d_layout lay;
	/* The file's skeleton has 4 bones: its subskeleton (2, 3) is in range. */
	static const char *const bones[] = { "b0", "", "b1", "b0", "b2", "b0", "b3", "b0" };
	t_p3dinfo_info info = { .bbox_min = { -1e9f, -1e9f, -1e9f }, .bbox_max = { 1e9f, 1e9f, 1e9f },
			   .bones = bones, .n_bones = 4 };
	t_p3dinfo_next = &info;
	t_p3dlod_odol(&b, 73, &c.s, &c.at, &lay);
	wl_doc *d = lint(&b);
	ck_assert(((const p3d_model *)d->model)->skeleton_read);
	ck_assert_uint_eq(t_count(d, "p3d-bone-index"), 0);
	/* The same LOD against a 3-bone skeleton: subskeleton bone 3 is out. */
	p3d_model m = *(const p3d_model *)d->model;
	m.skeleton_read = true;
	m.n_skeleton_bones = 3;
	p3d_proxyrec px[2] = { { c.at.proxy_sel[0], 0, 2, -1 }, { c.at.proxy_sel[0], 0, 3, -1 } };
	p3d_lodview x = *m.in_file[0]->view;
	x.proxies = px;
	x.n_proxies = 2;
	p3d_lod lod = *m.in_file[0];
	lod.view = &x;
	p3d_lod *order[1] = { &lod };
	m.in_file = order;
	m.n_lods = 1;
	wl_lint_ctx ctx = { d, &m, t_cat, NULL, NULL };
	p3d_check_lod_refs(&ctx);
	ck_assert_uint_eq(t_count(d, "p3d-bone-index"), 1);
	ck_assert(t_find_at(d, "p3d-bone-index", c.at.items + 4));
	ck_assert_uint_eq(t_count(d, "p3d-proxy-index"), 1);
	ck_assert(t_find_at(d, "p3d-proxy-index", c.at.proxy_sel[0] + 4));
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_bone_links_count)
{
	const char *r = "p3d-bone-links-count";
	lc c;
	full(73, &c);
	/* 2 entries, a skeleton of 2 bones: silent */
	wl_doc *d = build_skeleton(73, &c, 2);
	ck_assert_uint_eq(t_count(d, r), 0);
	wl_doc_free(d);
	/* a skeleton of 3 bones: the table is one short, at its count */
	d = build_skeleton(73, &c, 3);
	ck_assert_uint_eq(t_count(d, r), 1);
	ck_assert(t_find_at(d, r, c.at.links - 8));
	wl_doc_free(d);
	/* a skeleton of 1 bone: one entry too many */
	d = build_skeleton(73, &c, 1);
	ck_assert_uint_eq(t_count(d, r), 1);
	wl_doc_free(d);
	/* a LOD with no subskeleton at all (not animated): silent */
	c.s.n_items = 0;
	c.s.n_links = 0;
	c.s.n_proxies = 0;
	c.s.n_refs = 0;
	d = build_skeleton(73, &c, 3);
	ck_assert_uint_eq(t_count(d, r), 0);
	wl_doc_free(d);
}
END_TEST

START_TEST(test_bone_refs)
{
	for (size_t k = 0; k < NV; k++) {
		uint32_t v = VERSIONS[k], flag = v >= 64 ? 1 : 0;
		lc c;
		full(v, &c);
		const uint32_t links[2] = { 0, 2 };
		c.s.links = links;
		t_p3dlod_rt refs[4];
		memcpy(refs, REFS, sizeof refs);
		refs[1].bone[1] = 2;
		c.s.refs = refs;
		wl_doc *d = build(v, &c);
		ck_assert_uint_eq(t_count(d, "p3d-bone-index"), 2);
		ck_assert(t_find_at(d, "p3d-bone-index", c.at.links + 8));
		ck_assert(t_find_at(d, "p3d-bone-index", c.at.refs + 4 + flag + 12));
		wl_doc_free(d);
		refs[3].n = 2; /* its second slot (9) is used now */
		expect(v, &c, "p3d-bone-index", 3, NULL, 0);
	}
}
END_TEST

START_TEST(test_not_finite)
{
	lc c;
	full(50, &c);
	float bounds[10] = { 0 }, range[4] = { 0, 0, 1, 1 };
	bounds[3] = NAN;
	range[2] = INFINITY;
	c.s.bounds = bounds;
	c.s.uv_range = range;
	wl_doc *d = build(50, &c);
	ck_assert_uint_eq(t_count(d, "p3d-not-finite"), 2);
	ck_assert(t_find_at(d, "p3d-not-finite", c.at.bounds + 12));
	ck_assert(t_find_at(d, "p3d-not-finite", c.at.uv_range));
	wl_doc_free(d);
	bounds[9] = INFINITY;
	expect(50, &c, "p3d-not-finite", 3, NULL, 0);
	/* below v45: float normals and UVs (raw condensed arrays) */
	float nrm[4][3] = { { 0 } }, uv[4][2] = { { 0 } };
	nrm[2][1] = NAN;
	uv[3][0] = -INFINITY;
	full(40, &c);
	c.s.normals = &nrm[0][0];
	c.s.uvs = &uv[0][0];
	d = build(40, &c);
	ck_assert_uint_eq(t_count(d, "p3d-not-finite"), 2);
	ck_assert(t_find_at(d, "p3d-not-finite", c.at.normals + 5 + 24));
	ck_assert(t_find_at(d, "p3d-not-finite", c.at.uvs + 5 + 24));
	wl_doc_free(d);
	nrm[0][0] = INFINITY;
	expect(40, &c, "p3d-not-finite", 3, NULL, 0);
}
END_TEST

START_TEST(test_vertex_array_size)
{
	for (size_t k = 0; k < NV; k++) {
		uint32_t v = VERSIONS[k];
		lc c;
		full(v, &c);
		wb b;
		t_p3d_layout lay;
		t_p3dlod_odol(&b, v, &c.s, &c.at, &lay);
		/* filled condensed arrays: the count changes, not the bytes */
		t_w3d_patch_u32(&b, c.at.normals, 3);
		wl_doc *d = lint(&b);
		ck_assert_uint_eq(t_count(d, "p3d-vertex-array-size"), 1);
		ck_assert_int_eq(t_offset(d, "p3d-vertex-array-size"), (int64_t)c.at.normals);
		wl_doc_free(d);
		t_w3d_patch_u32(&b, c.at.uvs, 5);
		d = lint(&b);
		ck_assert_uint_eq(t_count(d, "p3d-vertex-array-size"), 2);
		wl_doc_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

Suite *p3d_lod_suite(void)
{
	Suite *s = suite_create("p3d_lod");
	TCase *tc = tcase_create("rules");
	tcase_add_checked_fixture(tc, t_cat_setup, t_cat_teardown);
	tcase_add_test(tc, test_clean_lod);
	tcase_add_test(tc, test_face_allocation);
	tcase_add_test(tc, test_section_faces);
	tcase_add_test(tc, test_section_order);
	tcase_add_test(tc, test_section_texture_material);
	tcase_add_test(tc, test_selection_index);
	tcase_add_test(tc, test_selection_index_compressed);
	tcase_add_test(tc, test_selection_weights);
	tcase_add_test(tc, test_proxy_index);
	tcase_add_test(tc, test_skeleton_bones);
	tcase_add_test(tc, test_bone_refs);
	tcase_add_test(tc, test_bone_links_count);
	tcase_add_test(tc, test_not_finite);
	tcase_add_test(tc, test_vertex_array_size);
	suite_add_tcase(s, tc);
	return s;
}
