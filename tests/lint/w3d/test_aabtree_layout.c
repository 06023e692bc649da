/* tests/lint/w3d/test_aabtree_layout.c - rule aabtree-not-canonical (lint/w3d/check_aabtree.c,
 * notes/w3d_reference.md D7) over trees made by the project's builder
 * (core/w3d/aabtree_build.c), which writes the canonical layout, and the
 * same trees renumbered or with their leaf ranges moved:
 *
 *   - the builder's tree: no finding (near miss);
 *   - node numbers mirrored (every index i > 0 becomes n - i, so the back
 *     child comes before the front one): fires at the first node out of
 *     pre-order, and the tree stays sound (no structural finding);
 *   - the POLYINDICES slots of the leaves reversed: fires at the first leaf
 *     whose range does not start where the previous one ended;
 *   - a broken tree (a cycle): only the structural rule, no layout finding;
 *   - rebuild-aabtree (unsafe) turns the mirrored tree canonical. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/aabtree_build.h"
#include "fix/fix.h"
#include "tests/build/reader_util.h"
#include "tests/build/w3dbuild.h"

extern Suite *aabtree_layout_suite(void);

#define RULE "aabtree-not-canonical"
#define GRID 6 /* GRID x GRID squares, two triangles each */

typedef struct grid_mesh {
	w3d_vec3 v[(GRID + 1) * (GRID + 1)];
	uint32_t idx[GRID * GRID * 6];
	size_t nv, nt;
} grid_mesh;

static void grid(grid_mesh *g)
{
	g->nv = 0;
	for (int y = 0; y <= GRID; y++)
		for (int x = 0; x <= GRID; x++)
			g->v[g->nv++] = (w3d_vec3){ (float)x, (float)y, (float)((x * y) % 3) };
	g->nt = 0;
	for (uint32_t y = 0; y < GRID; y++)
		for (uint32_t x = 0; x < GRID; x++) {
			uint32_t a = y * (GRID + 1) + x, b = a + 1, c = a + GRID + 1, d = c + 1;
			uint32_t t[6] = { a, b, d, a, d, c };
			memcpy(&g->idx[3 * g->nt], t, sizeof t);
			g->nt += 2;
		}
}

/* Lints a mesh with tree t; returns the document (caller frees it and
 * *copy) and the AABTREE_NODES payload offset in *nodes. */
static wl_doc *lint_tree(const wl_catalog *cat, const grid_mesh *g, const w3d_aabtree_built *t, uint8_t **copy,
			 size_t *nodes)
{
	wb b;
	t_w3d_init(&b);
	t_w3d_mesh_with_tree(&b, "GRID", "", g->v, g->nv, g->idx, g->nt, t);
	/* the nodes array is the last chunk: its payload ends the buffer */
	*nodes = b.len - (size_t)t->node_count * W3D_AABTREE_NODE_SIZE;
	*copy = t_copy(b.data, b.len);
	wl_doc *d = wl_lint_bytes(cat, NULL, "grid.w3d", *copy, b.len);
	ck_assert_ptr_nonnull(d);
	t_w3d_free(&b);
	return d;
}

static size_t structural(const wl_doc *d)
{
	static const char *const rules[] = { "aabtree-child-out-of-range", "aabtree-cycle", "aabtree-unreachable-node",
					     "aabtree-leaf-out-of-range", "aabtree-coverage", "aabtree-box-too-small",
					     NULL };
	size_t n = 0;
	for (const char *const *r = rules; *r; r++)
		n += t_count(d, *r);
	return n;
}

/* A copy of t with node i renamed map[i] (children remapped). */
static w3d_aabtree_built renumber(const w3d_aabtree_built *t, const uint32_t *map)
{
	w3d_aabtree_built r = *t;
	r.nodes = malloc(t->node_count * sizeof *r.nodes);
	r.poly_indices = malloc(t->poly_count * sizeof *r.poly_indices);
	ck_assert(r.nodes && r.poly_indices);
	memcpy(r.poly_indices, t->poly_indices, t->poly_count * sizeof *r.poly_indices);
	for (uint32_t i = 0; i < t->node_count; i++) {
		w3d_aabtree_node n = t->nodes[i];
		if (!w3d_aabtree_node_is_leaf(&n)) {
			n.front_or_poly0 = map[n.front_or_poly0];
			n.back_or_poly_count = map[n.back_or_poly_count];
		}
		r.nodes[map[i]] = n;
	}
	return r;
}

/* The catalogue, the grid mesh and the builder's tree of it. */
static wl_catalog *setup(grid_mesh *g, w3d_aabtree_built *t)
{
	char err[256];
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(cat != NULL, "%s", err);
	grid(g);
	ck_assert_int_eq(w3d_aabtree_build(g->v, g->nv, g->idx, g->nt, NULL, t), W3D_AABTREE_OK);
	return cat;
}

START_TEST(builder_tree_is_canonical_renumbered_is_not)
{
	grid_mesh g;
	w3d_aabtree_built t;
	wl_catalog *cat = setup(&g, &t);
	ck_assert_uint_ge(t.node_count, 7);
	uint8_t *copy;
	size_t nodes;
	wl_doc *d = lint_tree(cat, &g, &t, &copy, &nodes);
	ck_assert_uint_eq(t_count(d, RULE), 0);
	ck_assert_uint_eq(structural(d), 0);
	wl_doc_free(d);
	free(copy);

	/* mirrored numbers: root 0 stays, i becomes n - i */
	uint32_t *map = malloc(t.node_count * sizeof *map);
	ck_assert_ptr_nonnull(map);
	map[0] = 0;
	for (uint32_t i = 1; i < t.node_count; i++)
		map[i] = t.node_count - i;
	w3d_aabtree_built m = renumber(&t, map);
	d = lint_tree(cat, &g, &m, &copy, &nodes);
	ck_assert_uint_eq(structural(d), 0);
	ck_assert_uint_eq(t_count(d, RULE), 1);
	/* pre-order visits 0 then the root's front child, now numbered
	 * map[1] = n - 1: the first node out of place */
	size_t first = map[t.nodes[0].front_or_poly0];
	ck_assert_uint_ne(first, 1);
	const wl_finding *f = t_find(d, RULE);
	ck_assert_int_eq(f->element, (int64_t)first);
	ck_assert_uint_eq(f->offset, nodes + first * W3D_AABTREE_NODE_SIZE);
	ck_assert_int_eq(f->severity, WL_SEV_INFO);
	wl_doc_free(d);
	free(copy);

	/* rebuild-aabtree writes the canonical layout back */
	wb b;
	t_w3d_init(&b);
	t_w3d_mesh_with_tree(&b, "GRID", "", g.v, g.nv, g.idx, g.nt, &m);
	copy = t_copy(b.data, b.len);
	d = wl_lint_bytes(cat, NULL, "grid.w3d", copy, b.len);
	size_t count;
	const wl_fixer *const *fx = wl_fixers(&count);
	const wl_fixer *rebuild = NULL;
	for (size_t i = 0; i < count; i++)
		if (strcmp(fx[i]->id, "rebuild-aabtree") == 0)
			rebuild = fx[i];
	ck_assert_ptr_nonnull(rebuild);
	wl_fix_ctx x = { .doc = d, .model = d->model, .catalog = cat, .unsafe = true };
	ck_assert_int_eq(rebuild->apply(&x), 0);
	ck_assert_uint_gt(wl_edit_count(d), 0);
	uint8_t *out;
	size_t len;
	ck_assert_int_eq(wl_doc_write(d, &out, &len), 0);
	wl_doc_free(d);
	free(copy);
	copy = t_copy(out, len);
	d = wl_lint_bytes(cat, NULL, "grid.w3d", copy, len);
	ck_assert_uint_eq(t_count(d, RULE), 0);
	ck_assert_uint_eq(structural(d), 0);
	wl_doc_free(d);
	free(copy);
	free(out);
	t_w3d_free(&b);
	w3d_aabtree_built_free(&m);
	free(map);
	w3d_aabtree_built_free(&t);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(leaf_ranges_out_of_order_and_broken_trees)
{
	grid_mesh g;
	w3d_aabtree_built t;
	wl_catalog *cat = setup(&g, &t);

	/* leaves keep their numbers; their slot ranges are laid out from the
	 * end of POLYINDICES backwards (the slots' contents move with them) */
	w3d_aabtree_built r = t;
	r.nodes = malloc(t.node_count * sizeof *r.nodes);
	r.poly_indices = malloc(t.poly_count * sizeof *r.poly_indices);
	ck_assert(r.nodes && r.poly_indices);
	memcpy(r.nodes, t.nodes, t.node_count * sizeof *r.nodes);
	uint32_t end = t.poly_count;
	size_t first_leaf = SIZE_MAX, leaves = 0;
	for (uint32_t i = 0; i < t.node_count; i++) {
		w3d_aabtree_node *n = &r.nodes[i];
		if (!w3d_aabtree_node_is_leaf(n))
			continue;
		uint32_t p0 = n->front_or_poly0 & ~W3D_AABTREE_LEAF_FLAG, cnt = n->back_or_poly_count;
		end -= cnt;
		memcpy(&r.poly_indices[end], &t.poly_indices[p0], cnt * sizeof *r.poly_indices);
		n->front_or_poly0 = end | W3D_AABTREE_LEAF_FLAG;
		if (first_leaf == SIZE_MAX)
			first_leaf = i;
		leaves++;
	}
	ck_assert_uint_ge(leaves, 2);
	uint8_t *copy;
	size_t nodes;
	wl_doc *d = lint_tree(cat, &g, &r, &copy, &nodes);
	ck_assert_uint_eq(structural(d), 0);
	ck_assert_uint_eq(t_count(d, RULE), 1);
	const wl_finding *f = t_find(d, RULE);
	/* the builder numbers in pre-order, so the first leaf in index order is
	 * the first one visited; its range no longer starts at slot 0 */
	ck_assert_int_eq(f->element, (int64_t)first_leaf);
	ck_assert_uint_eq(f->offset, nodes + first_leaf * W3D_AABTREE_NODE_SIZE + 24);
	wl_doc_free(d);
	free(copy);
	w3d_aabtree_built_free(&r);

	/* broken: the root's back child points at the root's front child (a
	 * shared subtree); the structural rule speaks, the layout rule not */
	w3d_aabtree_node saved = t.nodes[0];
	t.nodes[0].back_or_poly_count = t.nodes[0].front_or_poly0;
	d = lint_tree(cat, &g, &t, &copy, &nodes);
	ck_assert_uint_gt(t_count(d, "aabtree-cycle"), 0);
	ck_assert_uint_eq(t_count(d, RULE), 0);
	wl_doc_free(d);
	free(copy);
	t.nodes[0] = saved;
	w3d_aabtree_built_free(&t);
	wl_catalog_free(cat);
}
END_TEST

Suite *aabtree_layout_suite(void)
{
	Suite *s = suite_create("aabtree_layout");
	TCase *tc = tcase_create("aabtree_layout");
	tcase_add_test(tc, builder_tree_is_canonical_renumbered_is_not);
	tcase_add_test(tc, leaf_ranges_out_of_order_and_broken_trees);
	suite_add_tcase(s, tc);
	return s;
}
