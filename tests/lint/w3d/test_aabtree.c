/* tests/lint/w3d/test_aabtree.c - the rules of lint/w3d/check_aabtree.c on the 3-node tree of
 * tests/build/build_mesh.c: for each rule a case that fires (rule id and offset)
 * and a near miss that does not. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/model.h"
#include "tests/build/build_mesh.h"
#include "tests/build/robust_util.h"

/* Node i field offsets inside AABTREE_NODES. */
#define NODE(lay, i) ((lay).aab_nodes_data + 32u * (unsigned)(i))
#define FRONT(lay, i) (NODE(lay, i) + 24)
#define BACK(lay, i) (NODE(lay, i) + 28)

typedef struct patch {
	int kind;      /* 0 u32, 1 f32 */
	size_t off;
	uint32_t u;
	float f;
} patch;

/* Builds the mesh (with a tree) from o, applies the patches, lints. */
static wl_doc *run(const t_mesh_opts *o0, t_mesh_layout *lay, const patch *p, size_t np)
{
	t_mesh_opts o = *o0;
	o.aabtree = 1;
	wb b;
	t_w3d_init(&b);
	t_mesh_write_mesh(&b, &o, lay);
	/* The layout is known only after writing: patches name offsets
	 * relative to it through the callers' second call; see rerun. */
	for (size_t i = 0; i < np; i++) {
		if (p[i].kind == 0)
			t_w3d_patch_u32(&b, p[i].off, p[i].u);
		else
			t_w3d_patch_f32(&b, p[i].off, p[i].f);
	}
	wl_doc *d = t_mesh_lint(&b);
	t_w3d_free(&b);
	return d;
}

/* The layout of the tree mesh built with o (offsets for patches). */
static t_mesh_layout layout_of(const t_mesh_opts *o0)
{
	t_mesh_opts o = *o0;
	o.aabtree = 1;
	t_mesh_layout lay;
	wb b;
	t_w3d_init(&b);
	t_mesh_write_mesh(&b, &o, &lay);
	t_w3d_free(&b);
	return lay;
}

static wl_doc *run1(const t_mesh_opts *o, t_mesh_layout *lay, size_t off, uint32_t v)
{
	patch p = { 0, off, v, 0 };
	return run(o, lay, &p, 1);
}

static const t_mesh_opts plain = { 0 };

START_TEST(valid_tree_is_clean)
{
	t_mesh_layout lay;
	wl_doc *d = run(&plain, &lay, NULL, 0);
	if (d->findings.count)
		t_mesh_dump(d);
	ck_assert_uint_eq(d->findings.count, 0);
	t_mesh_free(d);
}
END_TEST

START_TEST(header_missing)
{
	t_mesh_opts o = { .aab_header_late = 1 };
	t_mesh_layout lay;
	wl_doc *d = run(&o, &lay, NULL, 0);
	ck_assert(t_mesh_has(d, "aabtree-header-missing", lay.aab_poly));
	t_mesh_free(d);
	d = run(&plain, &lay, NULL, 0);
	ck_assert_uint_eq(t_mesh_count(d, "aabtree-header-missing"), 0);
	t_mesh_free(d);
	/* no header at all: reported at the AABTREE chunk */
	wb b;
	t_w3d_init(&b);
	t_w3d_begin(&b, W3D_CHUNK_MESH);
	t_w3d_begin(&b, W3D_CHUNK_MESH_HEADER3);
	t_w3d_zeros(&b, W3D_MESH_HEADER3_SIZE);
	t_w3d_end(&b);
	size_t aab = b.len;
	t_w3d_begin(&b, W3D_CHUNK_AABTREE);
	t_w3d_begin(&b, W3D_CHUNK_AABTREE_NODES);
	t_w3d_zeros(&b, 24);
	t_w3d_u32(&b, W3D_AABTREE_LEAF_FLAG);
	t_w3d_u32(&b, 0);
	t_w3d_end(&b);
	t_w3d_end(&b);
	t_w3d_end(&b);
	d = t_mesh_lint(&b);
	ck_assert(t_mesh_has(d, "aabtree-header-missing", aab));
	t_mesh_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(cycle_and_sharing)
{
	t_mesh_layout lay = layout_of(&plain);
	/* node 2 becomes internal with front = root (cycle), back = 1 (shared) */
	patch p[2] = { { 0, FRONT(lay, 2), 0, 0 }, { 0, BACK(lay, 2), 1, 0 } };
	wl_doc *d = run(&plain, &lay, p, 2);
	ck_assert(t_mesh_has(d, "aabtree-cycle", FRONT(lay, 2)));
	ck_assert(t_mesh_has(d, "aabtree-cycle", BACK(lay, 2)));
	ck_assert_uint_eq(t_mesh_count(d, "aabtree-cycle"), 2);
	t_mesh_free(d);
	/* root: front and back both 1 */
	d = run1(&plain, &lay, BACK(lay, 0), 1);
	ck_assert(t_mesh_has(d, "aabtree-cycle", BACK(lay, 0)));
	ck_assert(t_mesh_has(d, "aabtree-unreachable-node", NODE(lay, 2)));
	t_mesh_free(d);
	/* near miss: front and back swapped is still a tree; its only finding
	 * is that node 2 now comes first in pre-order (the layout rule) */
	patch q[2] = { { 0, FRONT(lay, 0), 2, 0 }, { 0, BACK(lay, 0), 1, 0 } };
	d = run(&plain, &lay, q, 2);
	ck_assert_uint_eq(t_mesh_count(d, "aabtree-cycle"), 0);
	ck_assert_uint_eq(d->findings.count, 1);
	ck_assert(t_mesh_has(d, "aabtree-not-canonical", NODE(lay, 2)));
	t_mesh_free(d);
}
END_TEST

/* The rule cases (t_mesh_run_steps on the tree mesh), one check per case.
 * N(i, k): byte k of node i; FRONT / BACK: its child or leaf fields. */
#define N(i, k) T_MESH_AT(aab_nodes_data, 32u * (i) + (k))
#define FRONT_AT(i) N(i, 24)
#define BACK_AT(i) N(i, 28)
#define SET(at, v) { T_MESH_U32, at, (v), 0 }
#define SETF(at, v) { T_MESH_F32, at, 0, (v) }

typedef struct tree_case {
	const char *name;
	t_mesh_step steps[6];
} tree_case;

static const tree_case cases[] = {
	{ "empty", {
		{ "aabtree-empty", 1, T_MESH_AT(aab_nodes, 0), .o = { .aab_no_nodes = 1 } },
		{ "aabtree-count-mismatch", 0, .again = 1 },
		/* one node */
		{ "aabtree-empty", 0, .o = { .aab_no_nodes = 1, .aab_extra_nodes = 1 } },
	} },
	{ "count_mismatch", {
		{ "aabtree-count-mismatch", 1, T_MESH_AT(aab_nodes, 0), .p = { SET(T_MESH_AT(aab_header_data, 0), 4) } },
		{ "aabtree-count-mismatch", 1, T_MESH_AT(aab_poly, 0), .p = { SET(T_MESH_AT(aab_header_data, 4), 3) } },
		/* header follows: 5 and 5 */
		{ "aabtree-count-mismatch", 0, .o = { .aab_extra_nodes = 2 } },
	} },
	{ "polycount_mismatch", {
		/* mesh: 3 triangles, tree: 2 */
		{ "aabtree-polycount-mismatch", 1, T_MESH_AT(aab_header_data, 4), .o = { .extra_tris = 1 } },
		/* the third triangle is in no leaf */
		{ "aabtree-coverage", 1, T_MESH_AT(tris_data, 64), .again = 1 },
		{ "aabtree-polycount-mismatch", 0 },
	} },
	{ "child_out_of_range", {
		{ "aabtree-child-out-of-range", 1, BACK_AT(0), 1, .p = { SET(BACK_AT(0), 3) } },
		/* itself */
		{ "aabtree-child-out-of-range", 1, FRONT_AT(0), .p = { SET(FRONT_AT(0), 0) } },
		{ "aabtree-child-out-of-range", 1, BACK_AT(0), .p = { SET(BACK_AT(0), 0x7FFFFFFF) } },
		/* near miss: node 3 exists */
		{ "aabtree-child-out-of-range", 0, .o = { .aab_extra_nodes = 1 }, .p = { SET(BACK_AT(0), 3) } },
		{ "aabtree-unreachable-node", 1, N(2, 0), .again = 1 },
	} },
	{ "unreachable", {
		{ "aabtree-unreachable-node", 1, N(3, 0), 1, .o = { .aab_extra_nodes = 1 } },
		{ "aabtree-unreachable-node", 0 },
	} },
	{ "leaf_out_of_range", {
		/* slots 1..3 of 2 */
		{ "aabtree-leaf-out-of-range", 1, FRONT_AT(2), .p = { SET(BACK_AT(2), 2) } },
		{ "aabtree-leaf-out-of-range", 1, FRONT_AT(2),
		  .p = { SET(FRONT_AT(2), W3D_AABTREE_LEAF_FLAG | 0x7FFFFFFF) } },
		/* near miss: leaf 1 covers slots 0..2, exactly the array */
		{ "aabtree-leaf-out-of-range", 0, .p = { SET(BACK_AT(1), 2) } },
		/* tri 1 twice */
		{ "aabtree-coverage", 1, T_MESH_AT(aab_poly_data, 4), .again = 1 },
	} },
	{ "polyindex_out_of_range", {
		{ "aabtree-polyindex-out-of-range", 1, T_MESH_AT(aab_poly_data, 4),
		  .p = { SET(T_MESH_AT(aab_poly_data, 4), 2) } },
		{ "aabtree-polyindex-out-of-range", 0, .p = { SET(T_MESH_AT(aab_poly_data, 4), 1) } },
		/* near miss: a bad entry no leaf refers to is never read */
		{ "aabtree-polyindex-out-of-range", 0,
		  .p = { SET(T_MESH_AT(aab_poly_data, 4), 99), SET(BACK_AT(2), 0) } },
	} },
	{ "coverage", {
		/* tri 0 twice, tri 1 never */
		{ "aabtree-coverage", 1, T_MESH_AT(aab_poly_data, 4), 2, .p = { SET(T_MESH_AT(aab_poly_data, 4), 0) } },
		{ "aabtree-coverage", 1, T_MESH_AT(tris_data, 32), .again = 1 },
		/* near miss: the slots swapped still cover each triangle once */
		{ "aabtree-coverage", 0,
		  .p = { SET(T_MESH_AT(aab_poly_data, 0), 1), SET(T_MESH_AT(aab_poly_data, 4), 0) } },
	} },
	{ "box_too_small", {
		/* leaf 1 max.x */
		{ "aabtree-box-too-small", 1, N(1, 0), 1, .p = { SETF(N(1, 12), 0.5f) } },
		/* root min.y */
		{ "aabtree-box-too-small", 1, N(0, 0), .p = { SETF(N(0, 4), 0.1f) } },
		/* near miss: within the default tolerance of 0.001 */
		{ "aabtree-box-too-small", 0, .p = { SETF(N(1, 12), 0.9995f) } },
		/* near miss: a larger box is fine */
		{ "aabtree-box-too-small", 0, .p = { SETF(N(1, 12), 5.0f) } },
	} },
};

START_TEST(rule_cases)
{
	t_mesh_run_steps(cases[_i].name, cases[_i].steps, 1);
}
END_TEST

/* Random node fields: no crash, no hang, bounded findings. */
START_TEST(hostile_trees)
{
	t_mesh_opts o = { .aabtree = 1, .aab_extra_nodes = 29 };
	t_mesh_layout lay;
	wb b;
	t_w3d_init(&b);
	t_mesh_write_mesh(&b, &o, &lay);
	srand(777);
	for (int round = 0; round < 2000; round++) {
		for (int i = 0; i < 32; i++) {
			uint32_t f = (uint32_t)rand() % 40, k = (uint32_t)rand() % 40;
			if (rand() % 2)
				f |= W3D_AABTREE_LEAF_FLAG;
			if (rand() % 16 == 0)
				k = (uint32_t)rand() << 16;
			t_w3d_patch_u32(&b, FRONT(lay, i), f);
			t_w3d_patch_u32(&b, BACK(lay, i), k);
		}
		t_w3d_patch_u32(&b, lay.aab_poly_data, (uint32_t)rand() % 4);
		wl_doc *d = t_mesh_lint(&b);
		ck_assert_ptr_nonnull(d);
		t_mesh_free(d);
	}
	t_w3d_free(&b);
}
END_TEST

/* A long chain 0 -> 1 -> ... -> n-1: iterative traversal, no recursion. */
START_TEST(deep_chain)
{
	const uint32_t n = 200000;
	wb b;
	t_w3d_init(&b);
	t_w3d_begin(&b, W3D_CHUNK_MESH);
	t_w3d_begin(&b, W3D_CHUNK_MESH_HEADER3);
	t_w3d_zeros(&b, 40);
	t_w3d_u32(&b, 0);
	t_w3d_u32(&b, 0);
	t_w3d_zeros(&b, W3D_MESH_HEADER3_SIZE - 48);
	t_w3d_end(&b);
	t_w3d_begin(&b, W3D_CHUNK_AABTREE);
	t_w3d_begin(&b, W3D_CHUNK_AABTREE_HEADER);
	t_w3d_u32(&b, n);
	t_w3d_u32(&b, 0);
	t_w3d_zeros(&b, 24);
	t_w3d_end(&b);
	t_w3d_begin(&b, W3D_CHUNK_AABTREE_NODES);
	for (uint32_t i = 0; i < n; i++) {
		t_w3d_zeros(&b, 24);
		/* front = next node, back = the node after that (shared) */
		t_w3d_u32(&b, i + 1 < n ? i + 1 : W3D_AABTREE_LEAF_FLAG);
		t_w3d_u32(&b, i + 2 < n ? i + 2 : 0);
	}
	t_w3d_end(&b);
	t_w3d_end(&b);
	t_w3d_end(&b);
	wl_doc *d = t_mesh_lint(&b);
	ck_assert_uint_eq(t_mesh_count(d, "aabtree-unreachable-node"), 0);
	ck_assert_uint_gt(t_mesh_count(d, "aabtree-cycle"), 0);
	t_mesh_free(d);
	t_w3d_free(&b);
}
END_TEST

extern Suite *aabtree_suite(void);
Suite *aabtree_suite(void)
{
	const TTest *tests[] = {
		valid_tree_is_clean, header_missing, cycle_and_sharing, hostile_trees, deep_chain, NULL
	};
	Suite *s = t_robust_suite_of("aabtree", "aabtree", 60, tests);
	t_robust_add_loop(s, "aabtree_rules", 60, rule_cases, (int)(sizeof cases / sizeof cases[0]));
	return s;
}
