/*
 * check_aabtree.c - the AABTREE of each mesh (rules/aabtree.yaml; facts in
 * notes/w3d_reference.md §2.2, §3.D, §4.2-4.3).
 *
 * Rule ids reported here:
 *   aabtree-header-missing        A4: AABTREE_HEADER absent or not first
 *   aabtree-empty                 D1: the tree has no node
 *   aabtree-count-mismatch        D1: NodeCount / PolyCount vs the arrays
 *   aabtree-polycount-mismatch    D2: PolyCount vs the mesh NumTris
 *   aabtree-child-out-of-range    D3: child index >= nodes, or the node itself
 *   aabtree-cycle                 D3: a node reached twice (cycle or sharing)
 *   aabtree-unreachable-node      D3: a node not reachable from node 0
 *   aabtree-leaf-out-of-range     D4: leaf range past POLYINDICES
 *   aabtree-polyindex-out-of-range D4: a referenced entry >= triangle count
 *   aabtree-coverage              D5: a triangle in no leaf or in several
 *   aabtree-box-too-small         D6: a node box misses its subtree's vertices
 *   aabtree-not-canonical         D7: a sound tree whose nodes are not numbered
 *                                 in pre-order (front child first) or whose
 *                                 leaves' polygon ranges are not laid out in
 *                                 that order from slot 0, as the exporter's
 *                                 builder writes them (aabtreebuilder.cpp:
 *                                 632-655, 875-931)
 *
 * The traversal is iterative (explicit stack of at most 2 entries per node)
 * with a per-node state array, so a hostile tree cannot recurse or loop;
 * every node is entered at most once.  Leaf ranges are accumulated with a
 * difference array over the POLYINDICES slots, so the coverage count is
 * linear in nodes + slots + triangles even when leaf ranges overlap.
 */
#include <inttypes.h>
#include <math.h>

#include "checks.h"

void w3d_check_aabtree(wl_lint_ctx *ctx);

/* Node states of the traversal. */
enum { NODE_WHITE = 0, NODE_PENDING = 1, NODE_ON_PATH = 2, NODE_DONE = 3 };
#define EXIT_MARK 0x80000000u

#define BOX_TOLERANCE_DEFAULT 0.001

typedef struct tree_ctx {
	wl_lint_ctx *ctx;
	const w3d_mesh *m;
	const w3d_aabtree *t;
	size_t n;                 /* nodes present */
	uint64_t nodes_base;      /* payload offset of AABTREE_NODES */
	uint8_t *state;           /* n entries */
	uint32_t *diff;           /* poly slots + 1: leaf range starts/ends */
	/* box check (NULL when off) */
	w3d_vec3 *bmin, *bmax;    /* actual extents of each node's subtree */
	uint8_t *bset;            /* extents known */
	uint64_t box_budget;      /* leaf slots left to scan for extents */
	double tol;
	uint64_t nverts;          /* usable vertex count */
	/* D7, canonical layout: the next pre-order number and POLYINDICES
	 * slot, the first node that breaks them (SIZE_MAX: none) and how */
	size_t pre_next;
	uint64_t slot_next;
	size_t canon_node;
	bool canon_leaf;          /* a leaf's range, not its number */
	uint64_t canon_expected;  /* the number or slot it should have had */
	bool broken;              /* a child reference was refused */
} tree_ctx;

static uint64_t chunk_len(const wl_chunk *c)
{
	return (uint64_t)c->header_size + c->size;
}

static uint64_t node_off(const tree_ctx *tc, size_t i)
{
	return tc->nodes_base + (uint64_t)i * W3D_AABTREE_NODE_SIZE;
}

static void grow_box(w3d_vec3 *mn, w3d_vec3 *mx, const w3d_vec3 *a, const w3d_vec3 *b)
{
	if (a->x < mn->x) mn->x = a->x;
	if (a->y < mn->y) mn->y = a->y;
	if (a->z < mn->z) mn->z = a->z;
	if (b->x > mx->x) mx->x = b->x;
	if (b->y > mx->y) mx->y = b->y;
	if (b->z > mx->z) mx->z = b->z;
}

/* Leaf: clamp its range to the slots present, add it to the difference
 * array, and compute the extents of its triangles for the box check. */
static void visit_leaf(tree_ctx *tc, size_t i)
{
	const w3d_aabtree_node *nd = &tc->t->nodes[i];
	uint64_t p0 = nd->front_or_poly0 & ~W3D_AABTREE_LEAF_FLAG;
	uint64_t cnt = nd->back_or_poly_count;
	uint64_t slots = tc->t->poly_indices.count;
	if (p0 + cnt > slots) {
		wl_report(&tc->ctx->doc->findings, WLR_AABTREE_LEAF_OUT_OF_RANGE, tc->t->nodes_src,
			  (int64_t)i, node_off(tc, i) + 24, 8,
			  "leaf node %zu covers poly index slots %" PRIu64 "..%" PRIu64
			  ", but the tree has %" PRIu64 " poly indices",
			  i, p0, p0 + cnt, slots);
		if (p0 > slots)
			p0 = slots;
		cnt = slots - p0;
	}
	if (cnt && tc->diff) {
		tc->diff[p0]++;
		tc->diff[p0 + cnt]--;
	}
	if (!tc->bmin || cnt > tc->box_budget) {
		tc->box_budget = 0;
		return;
	}
	tc->box_budget -= cnt;
	const uint32_t *pi = tc->t->poly_indices.v;
	const w3d_vec3 *v = tc->m->vertices.v;
	w3d_vec3 mn = { INFINITY, INFINITY, INFINITY }, mx = { -INFINITY, -INFINITY, -INFINITY };
	bool any = false;
	for (uint64_t s = p0; s < p0 + cnt; s++) {
		uint32_t tri = pi[s];
		if (tri >= tc->m->triangle_count)
			continue;
		for (int k = 0; k < 3; k++) {
			uint32_t vi = tc->m->triangles[tri].vindex[k];
			if (vi >= tc->nverts)
				continue;
			grow_box(&mn, &mx, &v[vi], &v[vi]);
			any = true;
		}
	}
	if (any) {
		tc->bmin[i] = mn;
		tc->bmax[i] = mx;
		tc->bset[i] = 1;
	}
}

/* A child reference of internal node i: returns true when it may be entered. */
static bool child_ok(tree_ctx *tc, size_t i, uint32_t child, const char *which, uint64_t field)
{
	wl_findings *f = &tc->ctx->doc->findings;
	if (child >= tc->n || child == i) {
		if (child == i)
			wl_report(f, WLR_AABTREE_CHILD_OUT_OF_RANGE, tc->t->nodes_src, (int64_t)i, field, 4,
				  "node %zu %s child is the node itself", i, which);
		else
			wl_report(f, WLR_AABTREE_CHILD_OUT_OF_RANGE, tc->t->nodes_src, (int64_t)i, field, 4,
				  "node %zu %s child is %" PRIu32 ", but the tree has %zu nodes", i,
				  which, child, tc->n);
		tc->broken = true;
		return false;
	}
	uint8_t s = tc->state[child];
	if (s == NODE_ON_PATH) {
		wl_report(f, WLR_AABTREE_CYCLE, tc->t->nodes_src, (int64_t)i, field, 4,
			  "node %zu %s child %" PRIu32 " is one of its own ancestors (a cycle)", i,
			  which, child);
		tc->broken = true;
		return false;
	}
	if (s != NODE_WHITE) {
		wl_report(f, WLR_AABTREE_CYCLE, tc->t->nodes_src, (int64_t)i, field, 4,
			  "node %zu %s child %" PRIu32 " is already the child of another node (a "
			  "shared subtree)",
			  i, which, child);
		tc->broken = true;
		return false;
	}
	return true;
}

/* Post-order: the node's actual extents are the union of its children's;
 * compare with its stored box. */
static void leave_node(tree_ctx *tc, size_t i)
{
	tc->state[i] = NODE_DONE;
	if (!tc->bmin)
		return;
	const w3d_aabtree_node *nd = &tc->t->nodes[i];
	if (!w3d_aabtree_node_is_leaf(nd)) {
		uint32_t ch[2] = { nd->front_or_poly0, nd->back_or_poly_count };
		for (int k = 0; k < 2; k++) {
			if (ch[k] >= tc->n || ch[k] == i || !tc->bset[ch[k]])
				continue;
			if (!tc->bset[i]) {
				tc->bmin[i] = tc->bmin[ch[k]];
				tc->bmax[i] = tc->bmax[ch[k]];
				tc->bset[i] = 1;
			} else {
				grow_box(&tc->bmin[i], &tc->bmax[i], &tc->bmin[ch[k]], &tc->bmax[ch[k]]);
			}
		}
	}
	if (!tc->bset[i])
		return;
	const w3d_vec3 *a = &tc->bmin[i], *b = &tc->bmax[i];
	double tol = tc->tol;
	/* NaN compares false, so a NaN box is reported too. */
	if (nd->min.x <= a->x + tol && nd->min.y <= a->y + tol && nd->min.z <= a->z + tol &&
	    nd->max.x >= b->x - tol && nd->max.y >= b->y - tol && nd->max.z >= b->z - tol)
		return;
	wl_report(&tc->ctx->doc->findings, WLR_AABTREE_BOX_TOO_SMALL, tc->t->nodes_src, (int64_t)i,
		  node_off(tc, i), 24,
		  "node %zu box (%g %g %g)..(%g %g %g) does not contain its triangles' vertices "
		  "(%g %g %g)..(%g %g %g)",
		  i, (double)nd->min.x, (double)nd->min.y, (double)nd->min.z, (double)nd->max.x,
		  (double)nd->max.y, (double)nd->max.z, (double)a->x, (double)a->y, (double)a->z,
		  (double)b->x, (double)b->y, (double)b->z);
}

static void traverse(tree_ctx *tc)
{
	wl_arena *ar = tc->ctx->doc->arena;
	uint32_t *stack = wl_arena_array(ar, 2 * tc->n + 2, sizeof *stack);
	if (!stack) {
		tc->ctx->doc->oom = true;
		return;
	}
	size_t sp = 0;
	stack[sp++] = 0;
	tc->state[0] = NODE_PENDING;
	while (sp) {
		uint32_t e = stack[--sp];
		if (e & EXIT_MARK) {
			leave_node(tc, e & ~EXIT_MARK);
			continue;
		}
		size_t i = e;
		tc->state[i] = NODE_ON_PATH;
		stack[sp++] = (uint32_t)i | EXIT_MARK;
		const w3d_aabtree_node *nd = &tc->t->nodes[i];
		if (i != tc->pre_next && tc->canon_node == SIZE_MAX) {
			tc->canon_node = i;
			tc->canon_expected = tc->pre_next;
		}
		tc->pre_next++;
		if (w3d_aabtree_node_is_leaf(nd)) {
			uint32_t poly0 = nd->front_or_poly0 & ~W3D_AABTREE_LEAF_FLAG;
			if (poly0 != tc->slot_next && tc->canon_node == SIZE_MAX) {
				tc->canon_node = i;
				tc->canon_leaf = true;
				tc->canon_expected = tc->slot_next;
			}
			tc->slot_next = (uint64_t)poly0 + nd->back_or_poly_count;
			visit_leaf(tc, i);
			continue;
		}
		/* Push back first so the front subtree is entered first, as the
		 * engine does (aabtree.cpp:508-548). */
		uint32_t front = nd->front_or_poly0, back = nd->back_or_poly_count;
		bool fok = child_ok(tc, i, front, "front", node_off(tc, i) + 24);
		if (fok)
			tc->state[front] = NODE_PENDING;
		/* back == front is reported as a shared subtree by child_ok. */
		bool bok = child_ok(tc, i, back, "back", node_off(tc, i) + 28);
		if (bok) {
			tc->state[back] = NODE_PENDING;
			stack[sp++] = back;
		}
		if (fok)
			stack[sp++] = front;
	}
}

/* Coverage and poly index range, from the difference array of reached leaf
 * ranges.  ntri: triangle count used as the index bound. */
static void coverage(tree_ctx *tc, uint64_t ntri)
{
	wl_findings *f = &tc->ctx->doc->findings;
	const w3d_aabtree *t = tc->t;
	const w3d_mesh *m = tc->m;
	size_t slots = t->poly_indices.count;
	uint64_t pbase = t->poly_indices.src ? wl_chunk_payload_offset(t->poly_indices.src) : 0;
	bool cov = m->triangles_src && wl_lint_enabled(tc->ctx, WLR_AABTREE_COVERAGE);
	size_t nt = m->triangle_count;
	uint32_t *cover = NULL;
	uint8_t *seen = NULL;
	if (cov) {
		cover = wl_arena_array(tc->ctx->doc->arena, nt, sizeof *cover);
		seen = wl_arena_array(tc->ctx->doc->arena, nt, 1);
		if (!cover || !seen) {
			tc->ctx->doc->oom = true;
			return;
		}
	}
	uint32_t mult = 0;
	for (size_t s = 0; s < slots; s++) {
		mult += tc->diff[s];
		if (!mult)
			continue;
		uint32_t tri = t->poly_indices.v[s];
		if (tri >= ntri) {
			wl_report(f, WLR_AABTREE_POLYINDEX_OUT_OF_RANGE, t->poly_indices.src, (int64_t)s,
				  pbase + 4u * (uint64_t)s, 4,
				  "poly index %zu is %" PRIu32 ", but the mesh has %" PRIu64 " triangles",
				  s, tri, ntri);
			continue;
		}
		if (cover && tri < nt)
			cover[tri] = cover[tri] > UINT32_MAX - mult ? UINT32_MAX : cover[tri] + mult;
	}
	if (!cover)
		return;
	/* Second pass: report each multiply-referenced triangle once, at its
	 * second reference. */
	mult = 0;
	for (size_t s = 0; s < slots; s++) {
		mult += tc->diff[s];
		if (!mult)
			continue;
		uint32_t tri = t->poly_indices.v[s];
		if (tri >= ntri || tri >= nt || cover[tri] < 2 || seen[tri] == 2)
			continue;
		if (seen[tri] == 0 && mult < 2) {
			seen[tri] = 1;
			continue;
		}
		seen[tri] = 2;
		wl_report(f, WLR_AABTREE_COVERAGE, t->poly_indices.src, (int64_t)s, pbase + 4u * (uint64_t)s,
			  4, "triangle %" PRIu32 " is referenced %" PRIu32 " times by the leaves of the "
			  "tree of mesh '%s'",
			  tri, cover[tri], m->name);
	}
	uint64_t tbase = wl_chunk_payload_offset(m->triangles_src);
	for (size_t i = 0; i < nt && i < ntri; i++)
		if (!cover[i])
			wl_report(f, WLR_AABTREE_COVERAGE, m->triangles_src, (int64_t)i,
				  tbase + (uint64_t)i * W3D_TRI_SIZE, W3D_TRI_SIZE,
				  "triangle %zu of mesh '%s' is in no leaf of its tree: rays and "
				  "collisions never test it",
				  i, m->name);
}

static void check_tree(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	const w3d_aabtree *t = &m->aabtree;
	wl_findings *f = &ctx->doc->findings;
	const w3d_mesh_header *h = &m->header;
	bool counts = w3d_mesh_header_has_counts(h);

	/* A4: the header must be the first sub-chunk. */
	const wl_chunk *first = t->src->first_child;
	while (first && first->kind != WL_NODE_CHUNK)
		first = first->next;
	if (!t->header_src)
		wl_report(f, WLR_AABTREE_HEADER_MISSING, t->src, -1, t->src->offset, chunk_len(t->src),
			  "the tree of mesh '%s' has no header; the engine reads its first chunk as "
			  "the header",
			  m->name);
	else if (first && first != t->header_src)
		wl_report(f, WLR_AABTREE_HEADER_MISSING, first, -1, first->offset, chunk_len(first),
			  "the first chunk of the tree of mesh '%s' is %s, not the header; the engine "
			  "reads it as the header",
			  m->name, wl_chunk_name(ctx->doc, first));

	uint64_t hoff = t->header_src ? wl_chunk_payload_offset(t->header_src) : 0;
	if (t->header_src && t->header_src->size >= 8) {
		if (t->nodes_src ? t->node_array_count != t->node_count : t->node_count != 0) {
			const wl_chunk *c = t->nodes_src ? t->nodes_src : t->header_src;
			wl_report(f, WLR_AABTREE_COUNT_MISMATCH, c, -1, c->offset, chunk_len(c),
				  "the tree header of mesh '%s' says %" PRIu32 " nodes, but %zu are "
				  "present",
				  m->name, t->node_count, t->node_array_count);
		}
		if (t->poly_indices.src ? t->poly_indices.count != t->poly_count : t->poly_count != 0) {
			const wl_chunk *c = t->poly_indices.src ? t->poly_indices.src : t->header_src;
			wl_report(f, WLR_AABTREE_COUNT_MISMATCH, c, -1, c->offset, chunk_len(c),
				  "the tree header of mesh '%s' says %" PRIu32 " poly indices, but %zu "
				  "are present",
				  m->name, t->poly_count, t->poly_indices.count);
		}
		if (counts && t->poly_count != h->num_tris)
			wl_report(f, WLR_AABTREE_POLYCOUNT_MISMATCH, t->header_src, -1, hoff + 4, 4,
				  "the tree of mesh '%s' says %" PRIu32 " polygons, but the mesh has %" PRIu32
				  " triangles",
				  m->name, t->poly_count, h->num_tris);
	}
	if (t->node_array_count == 0) {
		const wl_chunk *c = t->nodes_src ? t->nodes_src : t->src;
		wl_report(f, WLR_AABTREE_EMPTY, c, -1, c->offset, chunk_len(c),
			  "the tree of mesh '%s' has no node; every query starts at node 0", m->name);
		return;
	}
	if (t->node_array_count >= EXIT_MARK)
		return; /* cannot happen below the arena limit */

	tree_ctx tc = { 0 };
	tc.ctx = ctx;
	tc.m = m;
	tc.t = t;
	tc.n = t->node_array_count;
	tc.nodes_base = wl_chunk_payload_offset(t->nodes_src);
	wl_arena *ar = ctx->doc->arena;
	tc.state = wl_arena_array(ar, tc.n, 1);
	tc.diff = wl_arena_array(ar, t->poly_indices.count + 1, sizeof *tc.diff);
	if (!tc.state || !tc.diff) {
		ctx->doc->oom = true;
		return;
	}
	/* Usable vertex and triangle bounds: the smaller of header and arrays. */
	uint64_t nv = m->vertices.count, ntri = m->triangles_src ? m->triangle_count : 0;
	if (counts && h->num_vertices < nv)
		nv = h->num_vertices;
	if (counts && (!m->triangles_src || h->num_tris < ntri))
		ntri = h->num_tris;
	tc.nverts = nv;
	/* Skins: the tree describes the bind pose while the vertices are bone
	 * relative (§3.B B9, §3.D D8), so their boxes are not compared. */
	bool skin = (h->attributes & 0x00FF0000u) == 0x00020000u || m->influences.src;
	if (!skin && m->vertices.src && m->triangles_src &&
	    wl_lint_enabled(ctx, WLR_AABTREE_BOX_TOO_SMALL)) {
		tc.bmin = wl_arena_array(ar, tc.n, sizeof *tc.bmin);
		tc.bmax = wl_arena_array(ar, tc.n, sizeof *tc.bmax);
		tc.bset = wl_arena_array(ar, tc.n, 1);
		if (!tc.bmin || !tc.bmax || !tc.bset) {
			ctx->doc->oom = true;
			return;
		}
		tc.box_budget = (uint64_t)t->poly_indices.count + m->triangle_count + 1024;
		tc.tol = wl_lint_param(ctx, WLR_AABTREE_BOX_TOO_SMALL, "tolerance");
	}
	tc.canon_node = SIZE_MAX;
	traverse(&tc);
	if (ctx->doc->oom)
		return;
	if (!tc.broken && tc.pre_next == tc.n && tc.canon_node != SIZE_MAX) {
		const w3d_aabtree_node *nd = &t->nodes[tc.canon_node];
		if (tc.canon_leaf)
			wl_report(f, WLR_AABTREE_NOT_CANONICAL, t->nodes_src, (int64_t)tc.canon_node,
				  node_off(&tc, tc.canon_node) + 24, 4,
				  "leaf %zu of the tree of mesh '%s' starts at poly index slot %" PRIu32
				  ", not %" PRIu64 ": leaf ranges are not laid out in pre-order",
				  tc.canon_node, m->name, nd->front_or_poly0 & ~W3D_AABTREE_LEAF_FLAG,
				  tc.canon_expected);
		else
			wl_report(f, WLR_AABTREE_NOT_CANONICAL, t->nodes_src, (int64_t)tc.canon_node,
				  node_off(&tc, tc.canon_node), W3D_AABTREE_NODE_SIZE,
				  "node %zu of the tree of mesh '%s' comes at position %zu in pre-order (front "
				  "child first): the nodes are not numbered in pre-order",
				  tc.canon_node, m->name, (size_t)tc.canon_expected);
	}
	for (size_t i = 0; i < tc.n; i++)
		if (tc.state[i] == NODE_WHITE)
			wl_report(f, WLR_AABTREE_UNREACHABLE_NODE, t->nodes_src, (int64_t)i, node_off(&tc, i),
				  W3D_AABTREE_NODE_SIZE,
				  "node %zu of the tree of mesh '%s' is not reachable from node 0", i,
				  m->name);
	if (t->poly_indices.src && (counts || m->triangles_src))
		coverage(&tc, ntri);
}

void w3d_check_aabtree(wl_lint_ctx *ctx)
{
	const w3d_model *model = ctx->model;
	if (!model)
		return;
	for (size_t i = 0; i < model->mesh_count; i++) {
		const w3d_mesh *m = model->meshes[i];
		if (m && m->aabtree.src)
			check_tree(ctx, m);
	}
}
