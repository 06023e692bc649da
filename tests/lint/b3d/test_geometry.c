/* tests/lint/b3d/test_geometry.c - the B3D MESH, VRTS and TRIS rules
 * (lint/b3d/check_mesh.c, lint/b3d/check_vertices.c): for each rule a case
 * that fires at the exact bytes, a near miss that does not, and one more
 * defective element adding exactly one more finding. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "tests/build/b3dlint.h"

/* One NODE "n" holding one MESH; every count may be 0. */
typedef struct geo {
	int brushes;              /* BRUS entries (0: no BRUS chunk) */
	int32_t mesh_brush;
	int vrts;                 /* VRTS chunks */
	int32_t flags, sets, set_size;
	const float *v;           /* vertex floats (t_b3d_vrts layout) */
	size_t nv;
	int tris;                 /* TRIS chunks, each with the same triangles */
	int32_t tris_brush;
	const int32_t *idx;
	size_t nt;
} geo;

/* Offsets of what build() wrote. */
typedef struct geo_at {
	size_t mesh, vrts[4], tris[4];
} geo_at;

static const float quad[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
static const int32_t two[] = { 0, 1, 2, 0, 2, 3 };

static geo quad_geo(void)
{
	return (geo){ 0, -1, 1, 0, 0, 0, quad, 4, 1, -1, two, 2 };
}

static wl_doc *build(const geo *g, geo_at *at)
{
	wb b;
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	if (g->brushes) {
		t_b3d_begin(&b, "BRUS");
		t_w3d_u32(&b, 0);
		for (int i = 0; i < g->brushes; i++)
			t_b3d_brush(&b, "b", NULL, 0);
		t_b3d_end(&b);
	}
	t_b3d_node_begin(&b, "n", t_b3d_identity);
	at->mesh = b.len;
	t_b3d_begin(&b, "MESH");
	t_w3d_u32(&b, (uint32_t)g->mesh_brush);
	for (int i = 0; i < g->vrts; i++) {
		at->vrts[i] = b.len;
		t_b3d_vrts(&b, g->flags, g->sets, g->set_size, g->v, g->nv);
	}
	for (int i = 0; i < g->tris; i++) {
		at->tris[i] = b.len;
		t_b3d_tris(&b, g->tris_brush, g->idx, g->nt);
	}
	t_b3d_end(&b);
	t_b3d_end(&b);
	t_b3d_end(&b);
	return t_b3dlint_take(&b);
}

/* Lints g and returns the number of findings of rule. */
static size_t count(const geo *g, const char *rule)
{
	geo_at at;
	wl_doc *d = build(g, &at);
	size_t n = t_count(d, rule);
	t_b3dlint_free(d);
	return n;
}

START_TEST(quad_is_clean)
{
	geo g = quad_geo();
	geo_at at;
	wl_doc *d = build(&g, &at);
	if (d->findings.count)
		t_b3dlint_dump(d);
	ck_assert_uint_eq(d->findings.count, 0);
	t_b3dlint_free(d);
}
END_TEST

START_TEST(vertex_id_out_of_range)
{
	const char *r = "b3d-triangle-vertex-out-of-range";
	int32_t idx[] = { 0, 1, 2, 0, 2, 4 };
	geo g = quad_geo();
	g.idx = idx;
	geo_at at;
	wl_doc *d = build(&g, &at);
	const wl_finding *f = t_b3dlint_one(d, r, at.tris[0] + 8 + 4 + 12, 12);
	ck_assert_int_eq(f->element, 1);
	ck_assert_ptr_nonnull(strstr(f->message, "vertex id 4"));
	t_b3dlint_free(d);
	idx[5] = 3; /* near miss: the last vertex */
	ck_assert_uint_eq(count(&g, r), 0);
	idx[0] = -1; /* negative */
	ck_assert_uint_eq(count(&g, r), 1);
	idx[5] = 4; /* one more bad triangle */
	ck_assert_uint_eq(count(&g, r), 2);
	idx[1] = 7; /* a second bad id in the same triangle: still one */
	ck_assert_uint_eq(count(&g, r), 2);
}
END_TEST

START_TEST(degenerate_triangle)
{
	const char *r = "b3d-triangle-degenerate";
	int32_t idx[] = { 0, 1, 2, 0, 2, 2 };
	geo g = quad_geo();
	g.idx = idx;
	geo_at at;
	wl_doc *d = build(&g, &at);
	t_b3dlint_one(d, r, at.tris[0] + 8 + 4 + 12, 0);
	t_b3dlint_free(d);
	idx[5] = 3;
	ck_assert_uint_eq(count(&g, r), 0);
	idx[5] = 0;
	idx[1] = 0;
	ck_assert_uint_eq(count(&g, r), 2);
}
END_TEST

START_TEST(brush_id_out_of_range)
{
	const char *r = "b3d-brush-id-out-of-range";
	geo g = quad_geo();
	g.mesh_brush = 0; /* no BRUS at all */
	geo_at at;
	wl_doc *d = build(&g, &at);
	t_b3dlint_one(d, r, at.mesh + 8, 4);
	t_b3dlint_free(d);
	g.brushes = 1; /* brush 0 now exists */
	g.tris_brush = 0;
	ck_assert_uint_eq(count(&g, r), 0);
	g.tris_brush = 1;
	d = build(&g, &at);
	t_b3dlint_one(d, r, at.tris[0] + 8, 0);
	t_b3dlint_free(d);
	g.tris = 2; /* one more TRIS with the bad id */
	ck_assert_uint_eq(count(&g, r), 2);
	g.mesh_brush = -2;
	ck_assert_uint_eq(count(&g, r), 3);
}
END_TEST

START_TEST(mesh_without_vertices)
{
	const char *r = "b3d-mesh-no-vertices";
	geo g = quad_geo();
	g.nv = 0;
	g.tris = 0;
	geo_at at;
	wl_doc *d = build(&g, &at);
	t_b3dlint_one(d, r, at.vrts[0], 8 + 12);
	t_b3dlint_free(d);
	g.vrts = 0; /* no VRTS: the MESH itself */
	d = build(&g, &at);
	t_b3dlint_one(d, r, at.mesh, 0);
	t_b3dlint_free(d);
	g.vrts = 1;
	g.nv = 1;
	ck_assert_uint_eq(count(&g, r), 0);
}
END_TEST

START_TEST(mesh_without_tris)
{
	const char *r = "b3d-mesh-no-tris";
	geo g = quad_geo();
	g.tris = 0;
	geo_at at;
	wl_doc *d = build(&g, &at);
	t_b3dlint_one(d, r, at.mesh, 0);
	t_b3dlint_free(d);
	g.tris = 1;
	ck_assert_uint_eq(count(&g, r), 0);
}
END_TEST

/* A file cut right before the TRIS: the TRIS was lost, not left out, and
 * the reader's chunk findings already say so. */
START_TEST(cut_mesh_is_not_empty)
{
	wb b;
	t_w3d_init(&b);
	size_t vrts_at, tris_at;
	t_b3d_quad_model(&b, &vrts_at, &tris_at);
	b.len = tris_at;
	wl_doc *d = t_b3dlint_take(&b);
	ck_assert_uint_eq(t_count(d, "chunk-size-past-eof"), 3); /* MESH, NODE, BB3D */
	ck_assert_uint_eq(t_count(d, "b3d-mesh-no-tris"), 0);
	t_b3dlint_free(d);
	t_w3d_init(&b);
	t_b3d_quad_model(&b, &vrts_at, &tris_at);
	b.len = vrts_at + 8 + 12; /* the VRTS header and fields only */
	d = t_b3dlint_take(&b);
	ck_assert_uint_ge(t_count(d, "chunk-truncated"), 1); /* the VRTS and its parents */
	ck_assert_uint_eq(t_count(d, "b3d-mesh-no-vertices") + t_count(d, "b3d-mesh-no-tris"), 0);
	t_b3dlint_free(d);
}
END_TEST

START_TEST(empty_tris)
{
	const char *r = "b3d-tris-empty";
	geo g = quad_geo();
	g.nt = 0;
	geo_at at;
	wl_doc *d = build(&g, &at);
	t_b3dlint_one(d, r, at.tris[0], 12);
	t_b3dlint_free(d);
	g.tris = 2;
	ck_assert_uint_eq(count(&g, r), 2);
	g.nt = 1;
	ck_assert_uint_eq(count(&g, r), 0);
}
END_TEST

START_TEST(multiple_vrts)
{
	const char *r = "b3d-mesh-multiple-vrts";
	geo g = quad_geo();
	g.vrts = 2;
	geo_at at;
	wl_doc *d = build(&g, &at);
	t_b3dlint_one(d, r, at.vrts[1], 0);
	t_b3dlint_free(d);
	g.vrts = 3;
	ck_assert_uint_eq(count(&g, r), 2);
	g.vrts = 1;
	ck_assert_uint_eq(count(&g, r), 0);
}
END_TEST

/* Triangle ids may reach into a second VRTS, as Irrlicht appends it. */
START_TEST(vertex_ids_span_every_vrts)
{
	const char *r = "b3d-triangle-vertex-out-of-range";
	int32_t idx[] = { 0, 1, 2, 4, 5, 7 };
	geo g = quad_geo();
	g.idx = idx;
	g.vrts = 2;
	ck_assert_uint_eq(count(&g, r), 0);
	idx[5] = 8;
	ck_assert_uint_eq(count(&g, r), 1);
}
END_TEST

/* Each MESH counts from its own first vertex: the vertices of an earlier
 * MESH are not in range. */
START_TEST(vertex_ids_per_mesh)
{
	const char *r = "b3d-triangle-vertex-out-of-range";
	int32_t idx[] = { 0, 1, 4 };
	wb b;
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	t_b3d_node_begin(&b, "first", t_b3d_identity);
	t_b3d_quad_mesh(&b, -1, 0, NULL);
	t_b3d_end(&b);
	t_b3d_node_begin(&b, "second", t_b3d_identity);
	t_b3d_begin(&b, "MESH");
	t_w3d_u32(&b, (uint32_t)-1);
	t_b3d_vrts(&b, 0, 0, 0, quad, 4);
	size_t tris = b.len;
	t_b3d_tris(&b, -1, idx, 1);
	t_b3d_end(&b);
	t_b3d_end(&b);
	t_b3d_end(&b);
	wl_doc *d = t_b3dlint_take(&b);
	t_b3dlint_one(d, r, tris + 8 + 4, 12);
	t_b3dlint_free(d);
}
END_TEST

/* n vertices on a line, triangles (i, i+1, i+2) stepping by 3 so every
 * vertex is used once; the last triangle reuses vertex 0 when n % 3 != 0. */
static void strip(size_t n, float **v, int32_t **idx, size_t *nt)
{
	*v = calloc(3 * n, sizeof **v);
	*nt = (n + 2) / 3;
	*idx = calloc(3 * *nt, sizeof **idx);
	ck_assert(*v && *idx);
	for (size_t i = 0; i < n; i++)
		(*v)[3 * i] = (float)i;
	for (size_t i = 0; i < 3 * *nt; i++)
		(*idx)[i] = i < n ? (int32_t)i : (int32_t)(i - n);
}

START_TEST(too_many_vertices_in_one_tris)
{
	const char *r = "b3d-tris-too-many-vertices";
	float *v;
	int32_t *idx;
	size_t nt;
	strip(65537, &v, &idx, &nt);
	geo g = { 0, -1, 1, 0, 0, 0, v, 65537, 1, -1, idx, nt };
	geo_at at;
	wl_doc *d = build(&g, &at);
	ck_assert_uint_eq(t_count(d, r), 1);
	/* vertex 65536 (the 65537th) is corner 1 of triangle 21845 */
	ck_assert_ptr_nonnull(t_find_at(d, r, at.tris[0] + 8 + 4 + 12 * 21845));
	t_b3dlint_free(d);
	g.tris = 2; /* each TRIS set is a buffer of its own */
	ck_assert_uint_eq(count(&g, r), 2);
	free(v);
	free(idx);
	strip(65536, &v, &idx, &nt);
	g = (geo){ 0, -1, 1, 0, 0, 0, v, 65536, 1, -1, idx, nt };
	ck_assert_uint_eq(count(&g, r), 0);
	free(v);
	free(idx);
}
END_TEST

START_TEST(tex_coord_layout)
{
	const char *r = "b3d-tex-coord-layout";
	float v[4 * (3 + 8)] = { 0 };
	geo g = quad_geo();
	g.v = v;
	g.sets = 2; /* near miss: the most Irrlicht accepts */
	g.set_size = 3;
	ck_assert_uint_eq(count(&g, r), 0);
	g.sets = 3;
	g.set_size = 2;
	geo_at at;
	wl_doc *d = build(&g, &at);
	t_b3dlint_one(d, r, at.vrts[0] + 8 + 4, 8);
	t_b3dlint_free(d);
	g.sets = 1;
	g.set_size = 4;
	ck_assert_uint_eq(count(&g, r), 1);
	g.set_size = -1;
	ck_assert_uint_eq(count(&g, r), 1);
	g.vrts = 2; /* only the first VRTS of a MESH is read */
	ck_assert_uint_eq(count(&g, r), 1);
}
END_TEST

START_TEST(non_finite_vertex)
{
	const char *r = "b3d-float-not-finite";
	/* normals (flags 1) and one UV set of 2 */
	float v[4 * 8] = { 0 };
	for (int i = 0; i < 4; i++)
		v[8 * i + 5] = 1; /* nz */
	geo g = quad_geo();
	g.v = v;
	g.flags = 1;
	g.sets = 1;
	g.set_size = 2;
	ck_assert_uint_eq(count(&g, r), 0);
	v[8 * 2 + 1] = NAN; /* vertex 2's y */
	geo_at at;
	wl_doc *d = build(&g, &at);
	const wl_finding *f = t_b3dlint_one(d, r, at.vrts[0] + 8 + 12 + 2 * 32, 32);
	ck_assert_ptr_nonnull(strstr(f->message, "position"));
	t_b3dlint_free(d);
	v[8 * 3 + 7] = INFINITY; /* vertex 3's v */
	ck_assert_uint_eq(count(&g, r), 2);
	v[8 * 3 + 1] = NAN; /* the same vertex again: still one */
	ck_assert_uint_eq(count(&g, r), 2);
}
END_TEST

START_TEST(normals)
{
	const char *zero = "b3d-normal-zero", *unit = "b3d-normal-not-unit";
	float v[4 * 6] = { 0 };
	for (int i = 0; i < 4; i++)
		v[6 * i + 5] = 1;
	geo g = quad_geo();
	g.v = v;
	g.flags = 1;
	ck_assert_uint_eq(count(&g, zero) + count(&g, unit), 0);
	v[6 * 1 + 5] = 0; /* vertex 1: zero normal */
	geo_at at;
	wl_doc *d = build(&g, &at);
	ck_assert_uint_eq(t_count(d, zero), 1);
	ck_assert_uint_eq(t_count(d, unit), 0);
	const wl_finding *f = t_find_at(d, zero, at.vrts[0] + 8 + 12 + 24 + 12);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->length, 12);
	t_b3dlint_free(d);
	v[6 * 2 + 5] = 0;
	ck_assert_uint_eq(count(&g, zero), 2);
	v[6 * 3 + 5] = 1.005f; /* within the 1e-2 tolerance */
	ck_assert_uint_eq(count(&g, unit), 0);
	v[6 * 3 + 5] = 1.1f;
	d = build(&g, &at);
	t_b3dlint_one(d, unit, at.vrts[0] + 8 + 12 + 3 * 24 + 12, 0);
	t_b3dlint_free(d);
	v[6 * 0 + 5] = 0.5f;
	ck_assert_uint_eq(count(&g, unit), 2);
}
END_TEST

extern Suite *b3d_geometry_suite(void);
Suite *b3d_geometry_suite(void)
{
	Suite *s = suite_create("b3d_geometry");
	TCase *t = tcase_create("rules");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, quad_is_clean);
	tcase_add_test(t, vertex_id_out_of_range);
	tcase_add_test(t, degenerate_triangle);
	tcase_add_test(t, brush_id_out_of_range);
	tcase_add_test(t, mesh_without_vertices);
	tcase_add_test(t, mesh_without_tris);
	tcase_add_test(t, cut_mesh_is_not_empty);
	tcase_add_test(t, empty_tris);
	tcase_add_test(t, multiple_vrts);
	tcase_add_test(t, vertex_ids_span_every_vrts);
	tcase_add_test(t, vertex_ids_per_mesh);
	tcase_add_test(t, too_many_vertices_in_one_tris);
	tcase_add_test(t, tex_coord_layout);
	tcase_add_test(t, non_finite_vertex);
	tcase_add_test(t, normals);
	suite_add_tcase(s, t);
	return s;
}
