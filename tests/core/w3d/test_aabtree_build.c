/*
 * tests/core/w3d/test_aabtree_build.c - the AABTree builder (core/w3d/aabtree_build.h),
 * the SAH measure (core/w3d/sah.h) and the fixers of fix/w3d/fix_aabtree.c.
 *
 * Builder: on random meshes the built tree passes every rule of
 * lint/w3d/check_aabtree.c (written into a W3D file and linted), is canonical
 * (pre-order, front = parent + 1, contiguous pre-order leaf ranges, tight
 * boxes computed here independently), holds every triangle once, keeps the
 * leaf bound and the depth bound, is byte-identical when built twice, and
 * costs no more SAH than a plain object-median tree built here.  Edge
 * cases: 0 and 1 triangle, bad indices, coincident triangles, NaN and
 * infinite vertices, an exponential layout.
 * Fixers: before/after on a defect, a near miss that makes no edit, and a
 * second run that makes no edit (idempotence).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/aabtree_build.h"
#include "core/w3d/sah.h"
#include "core/w3d/model.h"
#include "fix/fix.h"
#include "lint/lint.h"
#include "tests/build/build_mesh.h"
#include "tests/build/robust_util.h"
#include "tests/build/w3dbuild.h"

extern Suite *aabtree_build_suite(void);

extern const wl_fixer w3d_fix_refit_aabtree, w3d_fix_rebuild_aabtree;

/* ---- random meshes (a local LCG: the same numbers on every machine) ---- */

typedef struct mesh_in {
	w3d_vec3 *v;
	size_t nv;
	uint32_t *idx;  /* 3 per triangle */
	size_t nt;
} mesh_in;

static uint32_t rng_next(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static float rng_unit(uint32_t *s)
{
	return (float)rng_next(s) / (float)(1u << 24);
}

static void mesh_free(mesh_in *m)
{
	free(m->v);
	free(m->idx);
	memset(m, 0, sizeof *m);
}

/* nt small triangles; kind 0: uniform soup in a unit cube; 1: clusters
 * ("props" around 12 centres plus a large ground plane). */
static mesh_in random_mesh(size_t nt, uint32_t seed, int kind)
{
	mesh_in m = { 0 };
	m.nt = nt;
	m.nv = 3 * nt;
	m.v = malloc((m.nv ? m.nv : 1) * sizeof *m.v);
	m.idx = malloc((m.nv ? m.nv : 1) * sizeof *m.idx);
	ck_assert_ptr_nonnull(m.v);
	ck_assert_ptr_nonnull(m.idx);
	uint32_t s = seed;
	float cx[12], cy[12], cz[12];
	for (int k = 0; k < 12; k++) {
		cx[k] = 100.0f * rng_unit(&s);
		cy[k] = 100.0f * rng_unit(&s);
		cz[k] = 5.0f * rng_unit(&s);
	}
	for (size_t i = 0; i < nt; i++) {
		float bx, by, bz, r;
		if (kind == 0) {
			bx = rng_unit(&s);
			by = rng_unit(&s);
			bz = rng_unit(&s);
			r = 0.05f;
		} else if (i % 4 == 0) {
			bx = 100.0f * rng_unit(&s);
			by = 100.0f * rng_unit(&s);
			bz = 0.0f;
			r = 6.0f;
		} else {
			int k = (int)(rng_next(&s) % 12);
			bx = cx[k] + 2.0f * rng_unit(&s);
			by = cy[k] + 2.0f * rng_unit(&s);
			bz = cz[k] + 2.0f * rng_unit(&s);
			r = 0.3f;
		}
		for (int k = 0; k < 3; k++) {
			m.v[3 * i + (size_t)k] = (w3d_vec3){ bx + r * rng_unit(&s), by + r * rng_unit(&s),
							     kind == 1 && i % 4 == 0 ? 0.0f
										     : bz + r * rng_unit(&s) };
			m.idx[3 * i + (size_t)k] = (uint32_t)(3 * i + (size_t)k);
		}
	}
	return m;
}

static w3d_aabtree_built build_ok(const mesh_in *m, const w3d_aabtree_params *p)
{
	w3d_aabtree_built b;
	ck_assert_int_eq(w3d_aabtree_build(m->v, m->nv, m->idx, m->nt, p, &b), W3D_AABTREE_OK);
	return b;
}

/* ---- the mesh + tree as a W3D file ---- */

static void write_mesh(wb *b, const mesh_in *m, const w3d_aabtree_built *t)
{
	t_w3d_mesh_with_tree(b, "BODY", "TREE", m->v, m->nv, m->idx, m->nt, t);
}

static size_t count_prefix(const wl_doc *d, const char *prefix)
{
	size_t k = 0;
	for (size_t i = 0; i < d->findings.count; i++)
		if (strncmp(d->findings.items[i].rule, prefix, strlen(prefix)) == 0)
			k++;
	return k;
}

/* Lints the mesh with tree t through the rule checks; returns the number
 * of aabtree-* findings. */
static size_t tree_findings(const mesh_in *m, const w3d_aabtree_built *t)
{
	wb b;
	t_w3d_init(&b);
	write_mesh(&b, m, t);
	wl_doc *d = t_mesh_lint(&b);
	size_t k = count_prefix(d, "aabtree-");
	if (k)
		t_mesh_dump(d);
	t_mesh_free(d);
	t_w3d_free(&b);
	return k;
}

/* ---- independent structure checks ---- */

/* Exact vertex extents of the triangles of slots [p0, p0+cnt), NaN
 * coordinates ignored, empty axes 0..0. */
static void extents(const mesh_in *m, const uint32_t *pi, uint32_t p0, uint32_t cnt, float mn[3],
		    float mx[3])
{
	for (int a = 0; a < 3; a++) {
		mn[a] = INFINITY;
		mx[a] = -INFINITY;
	}
	for (uint32_t s = p0; s < p0 + cnt; s++)
		for (int k = 0; k < 3; k++) {
			const w3d_vec3 *v = &m->v[m->idx[3 * (size_t)pi[s] + (size_t)k]];
			float c[3] = { v->x, v->y, v->z };
			for (int a = 0; a < 3; a++) {
				if (c[a] < mn[a])
					mn[a] = c[a];
				if (c[a] > mx[a])
					mx[a] = c[a];
			}
		}
	for (int a = 0; a < 3; a++)
		if (!(mn[a] <= mx[a]))
			mn[a] = mx[a] = 0.0f;
}

static int same_float(float a, float b)
{
	return memcmp(&a, &b, sizeof a) == 0 || (a == 0.0f && b == 0.0f);
}

/* Walks the tree recursively over the node numbering: node i's subtree is
 * [i, end); checks front = i + 1, back = end of the front subtree, leaf
 * ranges in pre-order (*next_slot), tight boxes, leaf bound.  Returns the
 * end of i's subtree. */
static uint32_t check_canon(const mesh_in *m, const w3d_aabtree_built *t, uint32_t i,
			    uint32_t *next_slot, uint32_t max_leaf, uint32_t depth,
			    uint32_t *max_depth)
{
	ck_assert_uint_lt(i, t->node_count);
	if (depth > *max_depth)
		*max_depth = depth;
	const w3d_aabtree_node *n = &t->nodes[i];
	uint32_t end;
	float mn[3], mx[3];
	if (w3d_aabtree_node_is_leaf(n)) {
		uint32_t p0 = n->front_or_poly0 & ~W3D_AABTREE_LEAF_FLAG;
		ck_assert_uint_eq(p0, *next_slot);
		ck_assert_uint_ge(n->back_or_poly_count, 1);
		ck_assert_uint_le(n->back_or_poly_count, max_leaf);
		*next_slot = p0 + n->back_or_poly_count;
		ck_assert_uint_le(*next_slot, t->poly_count);
		extents(m, t->poly_indices, p0, n->back_or_poly_count, mn, mx);
		end = i + 1;
	} else {
		uint32_t first = *next_slot;
		ck_assert_uint_eq(n->front_or_poly0, i + 1);
		uint32_t fend = check_canon(m, t, i + 1, next_slot, max_leaf, depth + 1, max_depth);
		ck_assert_uint_eq(n->back_or_poly_count, fend);
		end = check_canon(m, t, fend, next_slot, max_leaf, depth + 1, max_depth);
		extents(m, t->poly_indices, first, *next_slot - first, mn, mx);
	}
	ck_assert(same_float(n->min.x, mn[0]) && same_float(n->min.y, mn[1]) &&
		  same_float(n->min.z, mn[2]));
	ck_assert(same_float(n->max.x, mx[0]) && same_float(n->max.y, mx[1]) &&
		  same_float(n->max.z, mx[2]));
	return end;
}

static void check_tree(const mesh_in *m, const w3d_aabtree_built *t, uint32_t max_leaf)
{
	ck_assert_uint_eq(t->poly_count, m->nt);
	ck_assert_uint_le(t->node_count, 2 * m->nt - 1);
	/* one reference per triangle: a permutation */
	uint8_t *seen = calloc(m->nt, 1);
	ck_assert_ptr_nonnull(seen);
	for (uint32_t i = 0; i < t->poly_count; i++) {
		ck_assert_uint_lt(t->poly_indices[i], m->nt);
		ck_assert_uint_eq(seen[t->poly_indices[i]], 0);
		seen[t->poly_indices[i]] = 1;
	}
	free(seen);
	uint32_t slot = 0, depth = 0;
	ck_assert_uint_eq(check_canon(m, t, 0, &slot, max_leaf, 1, &depth), t->node_count);
	ck_assert_uint_eq(slot, t->poly_count);
	ck_assert_uint_eq(depth, t->depth);
	ck_assert_uint_le(depth, W3D_AABTREE_MAX_DEPTH);
}

/* Builds m's tree with p (NULL: defaults), checks it with check_tree
 * (leaf bound max_leaf) and lints it clean; frees the tree and m. */
static void assert_good_tree(mesh_in *m, const w3d_aabtree_params *p, uint32_t max_leaf)
{
	w3d_aabtree_built t = build_ok(m, p);
	check_tree(m, &t, max_leaf);
	ck_assert_uint_eq(tree_findings(m, &t), 0);
	w3d_aabtree_built_free(&t);
	mesh_free(m);
}

/* ---- builder tests ---- */

START_TEST(random_trees_are_valid_and_canonical)
{
	static const size_t sizes[] = { 1, 2, 3, 5, 16, 17, 100, 1000, 5000 };
	for (int kind = 0; kind < 2; kind++)
		for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
			mesh_in m = random_mesh(sizes[s], 7u + (uint32_t)s, kind);
			assert_good_tree(&m, NULL, W3D_AABTREE_DEFAULT_LEAF);
		}
}
END_TEST

START_TEST(leaf_size_parameter)
{
	mesh_in m = random_mesh(777, 3, 1);
	for (uint32_t leaf = 1; leaf <= 9; leaf += 4) {
		w3d_aabtree_params p = { .max_leaf_polys = leaf };
		w3d_aabtree_built t = build_ok(&m, &p);
		check_tree(&m, &t, leaf);
		ck_assert_uint_le(t.max_leaf_polys, leaf);
		if (leaf == 1)
			ck_assert_uint_eq(t.node_count, 2 * m.nt - 1);
		w3d_aabtree_built_free(&t);
	}
	mesh_free(&m);
}
END_TEST

START_TEST(deterministic)
{
	mesh_in m = random_mesh(3000, 11, 1);
	w3d_aabtree_built a = build_ok(&m, NULL);
	/* the same input at other addresses */
	mesh_in c = m;
	c.v = malloc(m.nv * sizeof *c.v);
	c.idx = malloc(m.nv * sizeof *c.idx);
	ck_assert_ptr_nonnull(c.v);
	ck_assert_ptr_nonnull(c.idx);
	memcpy(c.v, m.v, m.nv * sizeof *c.v);
	memcpy(c.idx, m.idx, m.nv * sizeof *c.idx);
	w3d_aabtree_built b = build_ok(&c, NULL);
	ck_assert_uint_eq(a.node_count, b.node_count);
	ck_assert_mem_eq(a.nodes, b.nodes, a.node_count * sizeof *a.nodes);
	ck_assert_mem_eq(a.poly_indices, b.poly_indices, a.poly_count * sizeof *a.poly_indices);
	w3d_aabtree_built_free(&a);
	w3d_aabtree_built_free(&b);
	mesh_free(&c);
	mesh_free(&m);
}
END_TEST

/* A plain object-median tree (longest centroid axis, split at the middle
 * element), leaves <= 4, in the canonical encoding: the baseline. */
typedef struct med_ctx {
	const mesh_in *m;
	uint32_t *order;
	w3d_aabtree_node *nodes;
	uint32_t count;
	int axis;
} med_ctx;

static med_ctx *g_med; /* qsort has no context argument */

static float centroid(const mesh_in *m, uint32_t tri, int axis)
{
	float s = 0;
	for (int k = 0; k < 3; k++) {
		const w3d_vec3 *v = &m->v[m->idx[3 * (size_t)tri + (size_t)k]];
		s += axis == 0 ? v->x : axis == 1 ? v->y : v->z;
	}
	return s / 3.0f;
}

static int med_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	float cx = centroid(g_med->m, x, g_med->axis), cy = centroid(g_med->m, y, g_med->axis);
	if (cx != cy)
		return cx < cy ? -1 : 1;
	return (x > y) - (x < y);
}

static uint32_t med_build(med_ctx *c, uint32_t b, uint32_t e)
{
	uint32_t idx = c->count++;
	w3d_aabtree_node *n = &c->nodes[idx];
	float mn[3], mx[3], cmn[3] = { INFINITY, INFINITY, INFINITY },
			   cmx[3] = { -INFINITY, -INFINITY, -INFINITY };
	extents(c->m, c->order, b, e - b, mn, mx);
	n->min = (w3d_vec3){ mn[0], mn[1], mn[2] };
	n->max = (w3d_vec3){ mx[0], mx[1], mx[2] };
	if (e - b <= 4) {
		n->front_or_poly0 = b | W3D_AABTREE_LEAF_FLAG;
		n->back_or_poly_count = e - b;
		return idx;
	}
	for (uint32_t i = b; i < e; i++)
		for (int a = 0; a < 3; a++) {
			float v = centroid(c->m, c->order[i], a);
			cmn[a] = v < cmn[a] ? v : cmn[a];
			cmx[a] = v > cmx[a] ? v : cmx[a];
		}
	c->axis = 0;
	for (int a = 1; a < 3; a++)
		if (cmx[a] - cmn[a] > cmx[c->axis] - cmn[c->axis])
			c->axis = a;
	g_med = c;
	qsort(c->order + b, e - b, sizeof *c->order, med_cmp);
	uint32_t mid = b + (e - b) / 2;
	c->nodes[idx].front_or_poly0 = med_build(c, b, mid);
	c->nodes[idx].back_or_poly_count = med_build(c, mid, e);
	return idx;
}

START_TEST(sah_not_worse_than_median)
{
	for (uint32_t seed = 1; seed <= 6; seed++) {
		mesh_in m = random_mesh(2000 + 500 * seed, seed, (int)(seed % 2));
		med_ctx c = { &m, malloc(m.nt * sizeof(uint32_t)),
			      calloc(2 * m.nt, sizeof(w3d_aabtree_node)), 0, 0 };
		ck_assert_ptr_nonnull(c.order);
		ck_assert_ptr_nonnull(c.nodes);
		for (uint32_t i = 0; i < m.nt; i++)
			c.order[i] = i;
		med_build(&c, 0, (uint32_t)m.nt);
		w3d_sah_stats med, bin;
		ck_assert_int_eq(w3d_aabtree_sah(c.nodes, c.count, &med), 0);
		ck_assert(med.well_formed);
		w3d_aabtree_built t = build_ok(&m, NULL);
		ck_assert_int_eq(w3d_aabtree_sah(t.nodes, t.node_count, &bin), 0);
		ck_assert(bin.well_formed);
		ck_assert_msg(bin.sah <= med.sah, "seed %u: binned SAH %g > median SAH %g", seed,
			      bin.sah, med.sah);
		w3d_aabtree_built_free(&t);
		free(c.order);
		free(c.nodes);
		mesh_free(&m);
	}
}
END_TEST

START_TEST(edge_cases)
{
	w3d_aabtree_built t;
	w3d_vec3 v[3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 2 } };
	uint32_t idx[3] = { 0, 1, 2 };
	/* 0 triangles: no tree */
	ck_assert_int_eq(w3d_aabtree_build(v, 3, idx, 0, NULL, &t), W3D_AABTREE_EMPTY);
	ck_assert_ptr_null(t.nodes);
	/* a vertex index past the array: refused */
	uint32_t bad[3] = { 0, 1, 3 };
	ck_assert_int_eq(w3d_aabtree_build(v, 3, bad, 1, NULL, &t), W3D_AABTREE_BAD_INDEX);
	ck_assert_ptr_null(t.nodes);
	/* 1 triangle: one leaf holding it, box = its vertex extents */
	ck_assert_int_eq(w3d_aabtree_build(v, 3, idx, 1, NULL, &t), W3D_AABTREE_OK);
	ck_assert_uint_eq(t.node_count, 1);
	ck_assert_uint_eq(t.depth, 1);
	ck_assert_uint_eq(t.nodes[0].front_or_poly0, W3D_AABTREE_LEAF_FLAG);
	ck_assert_uint_eq(t.nodes[0].back_or_poly_count, 1);
	ck_assert(t.nodes[0].max.x == 1 && t.nodes[0].max.y == 1 && t.nodes[0].max.z == 2);
	ck_assert(t.nodes[0].min.x == 0 && t.nodes[0].min.y == 0 && t.nodes[0].min.z == 0);
	w3d_aabtree_built_free(&t);
}
END_TEST

START_TEST(coincident_triangles)
{
	/* 1000 copies of one triangle: every centroid coincides, splits fall
	 * back to the median and the leaf bound still holds. */
	mesh_in m = random_mesh(1000, 5, 0);
	for (size_t i = 0; i < m.nv; i++)
		m.v[i] = m.v[i % 3];
	assert_good_tree(&m, NULL, W3D_AABTREE_DEFAULT_LEAF);
}
END_TEST

START_TEST(non_finite_vertices)
{
	mesh_in m = random_mesh(300, 9, 0);
	m.v[5].x = NAN;
	m.v[40] = (w3d_vec3){ NAN, NAN, NAN };
	m.v[41] = (w3d_vec3){ NAN, NAN, NAN };
	m.v[42] = (w3d_vec3){ NAN, NAN, NAN };
	m.v[100].y = INFINITY;
	m.v[200].z = -INFINITY;
	assert_good_tree(&m, NULL, W3D_AABTREE_DEFAULT_LEAF);
}
END_TEST

START_TEST(depth_bound_on_exponential_layout)
{
	/* Triangles at x = 1.0001^i: SAH keeps peeling off the far end; the
	 * depth bound must hold anyway. */
	size_t n = 60000;
	mesh_in m = random_mesh(n, 1, 0);
	for (size_t i = 0; i < n; i++) {
		float x = (float)pow(1.0007, (double)i);
		for (int k = 0; k < 3; k++)
			m.v[3 * i + (size_t)k] = (w3d_vec3){ x + (float)k * 1e-3f * x, (float)k, 0 };
	}
	w3d_aabtree_params p = { .max_leaf_polys = 1 };
	w3d_aabtree_built t = build_ok(&m, &p);
	ck_assert_uint_le(t.depth, W3D_AABTREE_MAX_DEPTH);
	check_tree(&m, &t, 1);
	w3d_aabtree_built_free(&t);
	mesh_free(&m);
}
END_TEST

/* ---- SAH ---- */

START_TEST(sah_hand_computed)
{
	/* root (0,0,0)..(2,1,1): area 2(2+1+2) = 10; leaves (0,0,0)..(1,1,1)
	 * and (1,0,0)..(2,1,1): area 6 each, with 1 and 2 polygons.
	 * SAH = (10 + 6*1 + 6*2) / 10 = 2.8. */
	w3d_aabtree_node n[3] = {
		{ { 0, 0, 0 }, { 2, 1, 1 }, 1, 2 },
		{ { 0, 0, 0 }, { 1, 1, 1 }, W3D_AABTREE_LEAF_FLAG | 0, 1 },
		{ { 1, 0, 0 }, { 2, 1, 1 }, W3D_AABTREE_LEAF_FLAG | 1, 2 },
	};
	w3d_sah_stats s;
	ck_assert_int_eq(w3d_aabtree_sah(n, 3, &s), 0);
	ck_assert(s.well_formed);
	ck_assert_double_eq_tol(s.sah, 2.8, 1e-12);
	ck_assert_uint_eq(s.node_count, 3);
	ck_assert_uint_eq(s.leaf_count, 2);
	ck_assert_uint_eq(s.depth, 2);
	ck_assert_uint_eq(s.max_leaf_polys, 2);
	/* near miss: the same tree with a cycle back to the root */
	n[0].back_or_poly_count = 0;
	ck_assert_int_eq(w3d_aabtree_sah(n, 3, &s), 0);
	ck_assert(!s.well_formed);
	ck_assert_uint_eq(s.node_count, 2);
	/* out of range, and no node at all */
	n[0].back_or_poly_count = 99;
	ck_assert_int_eq(w3d_aabtree_sah(n, 3, &s), 0);
	ck_assert(!s.well_formed);
	ck_assert_int_eq(w3d_aabtree_sah(n, 0, &s), 0);
	ck_assert(!s.well_formed);
	ck_assert_uint_eq(s.node_count, 0);
}
END_TEST

/* ---- fixers ---- */

static wl_catalog *g_cat;

static wl_catalog *catalog(void)
{
	if (!g_cat) {
		char err[256];
		g_cat = wl_catalog_load_builtin(err, sizeof err);
		ck_assert_msg(g_cat != NULL, "%s", err);
	}
	return g_cat;
}

typedef struct fix_run {
	size_t edits;
	uint8_t *out;   /* malloc'd output */
	size_t out_len;
} fix_run;

/* Lints bytes, applies one fixer (unsafe / forced as given), writes. */
static fix_run run_fixer(const wl_fixer *fx, const uint8_t *p, size_t n, bool unsafe, bool forced)
{
	wl_doc *d = wl_lint_bytes(catalog(), NULL, "t.w3d", p, n);
	ck_assert_ptr_nonnull(d);
	wl_fix_ctx x = { 0 };
	x.doc = d;
	x.model = d->model;
	x.catalog = catalog();
	x.unsafe = unsafe;
	x.forced = forced;
	ck_assert_int_eq(fx->apply(&x), 0);
	fix_run r = { wl_edit_count(d), NULL, 0 };
	ck_assert_int_eq(wl_doc_write(d, &r.out, &r.out_len), 0);
	wl_doc_free(d);
	return r;
}

static wl_doc *lint(const uint8_t *p, size_t n)
{
	wl_doc *d = wl_lint_bytes(catalog(), NULL, "t.w3d", p, n);
	ck_assert_ptr_nonnull(d);
	return d;
}

static size_t count_rule(const wl_doc *d, const char *rule)
{
	size_t k = 0;
	for (size_t i = 0; i < d->findings.count; i++)
		k += strcmp(d->findings.items[i].rule, rule) == 0;
	return k;
}

static int has_at(const wl_doc *d, const char *rule, uint64_t off)
{
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(d->findings.items[i].rule, rule) == 0 && d->findings.items[i].offset == off)
			return 1;
	return 0;
}

/* Applies fx again to r's output: no edit, same bytes. */
static void assert_idempotent(const wl_fixer *fx, const fix_run *r, bool unsafe, bool forced)
{
	fix_run again = run_fixer(fx, r->out, r->out_len, unsafe, forced);
	ck_assert_uint_eq(again.edits, 0);
	ck_assert_uint_eq(again.out_len, r->out_len);
	ck_assert_mem_eq(again.out, r->out, r->out_len);
	free(again.out);
}

/* Starts b with the canonical mesh + AABTREE of build_mesh.h
 * (AABTREE_HEADER after the POLYINDICES when header_late); fills *lay. */
static void tree_mesh(wb *b, t_mesh_layout *lay, int header_late)
{
	t_mesh_opts o = { .aabtree = 1, .aab_header_late = header_late };
	t_w3d_init(b);
	t_mesh_write_mesh(b, &o, lay);
}

/* Asserts that p[0..n) lints with no aabtree-* finding. */
static void assert_tree_clean(const uint8_t *p, size_t n)
{
	wl_doc *d = lint(p, n);
	ck_assert_uint_eq(count_prefix(d, "aabtree-"), 0);
	wl_doc_free(d);
}

/* Asserts that fx (unsafe / forced as given) makes no edit on b and writes
 * it back unchanged. */
static void assert_no_edit(const wl_fixer *fx, const wb *b, bool unsafe, bool forced)
{
	fix_run r = run_fixer(fx, b->data, b->len, unsafe, forced);
	ck_assert_uint_eq(r.edits, 0);
	ck_assert_uint_eq(r.out_len, b->len);
	ck_assert_mem_eq(r.out, b->data, b->len);
	free(r.out);
}

/* Starts b with tree_mesh() whose node 2 (leaf, triangle 1) has max.x
 * 1 -> 0.5: too small; returns the offset of node 2. */
static size_t small_box_mesh(wb *b, t_mesh_layout *lay)
{
	tree_mesh(b, lay, 0);
	size_t node2 = lay->aab_nodes_data + 2 * 32;
	t_w3d_patch_f32(b, node2 + 12, 0.5f);
	return node2;
}

START_TEST(refit_fixes_small_box)
{
	t_mesh_layout lay;
	wb b;
	size_t node2 = small_box_mesh(&b, &lay);
	wl_doc *d = lint(b.data, b.len);
	ck_assert(has_at(d, "aabtree-box-too-small", node2));
	wl_doc_free(d);

	fix_run r = run_fixer(&w3d_fix_refit_aabtree, b.data, b.len, false, false);
	ck_assert_uint_eq(r.edits, 1);
	ck_assert_uint_eq(r.out_len, b.len); /* same sizes: only box bytes change */
	assert_tree_clean(r.out, r.out_len);
	/* the box is the exact extent of triangle 1 (0,2,3): (0,0,0)..(1,1,0);
	 * the topology bytes are untouched */
	float f;
	memcpy(&f, r.out + node2 + 12, 4);
	ck_assert(f == 1.0f);
	ck_assert_mem_eq(r.out + node2 + 24, b.data + node2 + 24, 8);
	assert_idempotent(&w3d_fix_refit_aabtree, &r, false, false);
	free(r.out);

	/* near miss: a sound tree is not touched */
	t_w3d_patch_f32(&b, node2 + 12, 1.0f);
	assert_no_edit(&w3d_fix_refit_aabtree, &b, false, false);
	t_w3d_free(&b);
}
END_TEST

START_TEST(refit_leaves_broken_links_to_rebuild)
{
	t_mesh_layout lay;
	wb b;
	small_box_mesh(&b, &lay);
	t_w3d_patch_u32(&b, lay.aab_nodes_data + 28, 7); /* root back child 7: out of range */
	assert_no_edit(&w3d_fix_refit_aabtree, &b, false, false);
	t_w3d_free(&b);
}
END_TEST

START_TEST(rebuild_repairs_structure)
{
	t_mesh_layout lay;
	wb b;
	tree_mesh(&b, &lay, 0);
	size_t back0 = lay.aab_nodes_data + 28;
	t_w3d_patch_u32(&b, back0, 0); /* root back child = root: a cycle */
	wl_doc *d = lint(b.data, b.len);
	ck_assert(has_at(d, "aabtree-child-out-of-range", back0));
	wl_doc_free(d);

	/* without --unsafe nothing happens */
	assert_no_edit(&w3d_fix_rebuild_aabtree, &b, false, false);

	fix_run r = run_fixer(&w3d_fix_rebuild_aabtree, b.data, b.len, true, false);
	ck_assert_uint_eq(r.edits, 1);
	assert_tree_clean(r.out, r.out_len);
	assert_idempotent(&w3d_fix_rebuild_aabtree, &r, true, false);
	assert_idempotent(&w3d_fix_rebuild_aabtree, &r, true, true);
	free(r.out);

	/* near miss: the sound tree, unsafe but not forced: no edit */
	t_w3d_patch_u32(&b, back0, 2);
	assert_no_edit(&w3d_fix_rebuild_aabtree, &b, true, false);
	t_w3d_free(&b);
}
END_TEST

START_TEST(rebuild_reorders_header_first)
{
	t_mesh_layout lay;
	wb b;
	tree_mesh(&b, &lay, 1);
	wl_doc *d = lint(b.data, b.len);
	ck_assert_uint_eq(count_rule(d, "aabtree-header-missing"), 1);
	wl_doc_free(d);
	fix_run r = run_fixer(&w3d_fix_rebuild_aabtree, b.data, b.len, true, false);
	ck_assert_uint_ge(r.edits, 1);
	assert_tree_clean(r.out, r.out_len);
	assert_idempotent(&w3d_fix_rebuild_aabtree, &r, true, true);
	free(r.out);
	t_w3d_free(&b);
}
END_TEST

START_TEST(forced_rebuild_adds_missing_tree)
{
	mesh_in m = random_mesh(40, 21, 1);
	wb b;
	t_w3d_init(&b);
	write_mesh(&b, &m, NULL);
	/* only when asked by name */
	assert_no_edit(&w3d_fix_rebuild_aabtree, &b, true, false);
	fix_run r = run_fixer(&w3d_fix_rebuild_aabtree, b.data, b.len, true, true);
	ck_assert_uint_eq(r.edits, 1);
	ck_assert_uint_gt(r.out_len, b.len);
	assert_tree_clean(r.out, r.out_len);
	wl_doc *d = lint(r.out, r.out_len);
	const w3d_model *mo = d->model;
	ck_assert_uint_eq(mo->mesh_count, 1);
	const w3d_aabtree *t = &mo->meshes[0]->aabtree;
	ck_assert_ptr_nonnull(t->src);
	ck_assert_uint_eq(t->poly_count, m.nt);
	/* the tree written is the builder's */
	w3d_aabtree_built bt = build_ok(&m, NULL);
	ck_assert_uint_eq(t->node_array_count, bt.node_count);
	ck_assert_mem_eq(t->nodes, bt.nodes, bt.node_count * sizeof *bt.nodes);
	w3d_aabtree_built_free(&bt);
	wl_doc_free(d);
	assert_idempotent(&w3d_fix_rebuild_aabtree, &r, false, true);
	free(r.out);
	t_w3d_free(&b);
	mesh_free(&m);

	/* near miss: 7 triangles (under the exporter's 8): no tree added */
	m = random_mesh(7, 21, 1);
	t_w3d_init(&b);
	write_mesh(&b, &m, NULL);
	mesh_free(&m);
	assert_no_edit(&w3d_fix_rebuild_aabtree, &b, true, true);
	t_w3d_free(&b);
}
END_TEST

START_TEST(rebuild_skips_bad_triangle_indices)
{
	mesh_in m = random_mesh(40, 22, 0);
	w3d_aabtree_built t = build_ok(&m, NULL);
	t.nodes[0].back_or_poly_count = 0; /* broken tree */
	m.idx[7] = (uint32_t)m.nv + 5;     /* and a bad vertex index */
	wb b;
	t_w3d_init(&b);
	write_mesh(&b, &m, &t);
	wl_doc *d = lint(b.data, b.len);
	ck_assert_uint_eq(count_rule(d, "triangle-index-out-of-range"), 1);
	ck_assert_uint_ge(count_prefix(d, "aabtree-"), 1);
	wl_doc_free(d);
	assert_no_edit(&w3d_fix_rebuild_aabtree, &b, true, true);
	t_w3d_free(&b);
	w3d_aabtree_built_free(&t);
	mesh_free(&m);
}
END_TEST

static void free_catalog(void)
{
	wl_catalog_free(g_cat);
	g_cat = NULL;
}

Suite *aabtree_build_suite(void)
{
	const TTest *builder[] = {
		random_trees_are_valid_and_canonical, leaf_size_parameter, deterministic,
		sah_not_worse_than_median, edge_cases, coincident_triangles, non_finite_vertices,
		depth_bound_on_exponential_layout, sah_hand_computed, NULL
	};
	const TTest *fixers[] = {
		refit_fixes_small_box, refit_leaves_broken_links_to_rebuild, rebuild_repairs_structure,
		rebuild_reorders_header_first, forced_rebuild_adds_missing_tree,
		rebuild_skips_bad_triangle_indices, NULL
	};
	Suite *s = suite_create("aabtree_build");
	t_robust_add_tests(s, "builder", 60, builder);
	tcase_add_checked_fixture(t_robust_add_tests(s, "fixers", 0, fixers), NULL, free_catalog);
	return s;
}
