/*
 * fix_aabtree.c - repairs of the AABTREE of each mesh (rules/aabtree.yaml,
 * lint/w3d/check_aabtree.c; facts in notes/w3d_reference.md §3.D, §4, §6).
 *
 * Safe:
 *   refit-aabtree    aabtree-box-too-small: every node box reached from the
 *                    root is recomputed bottom-up, keeping the topology
 *                    (the engine's Update_Bounding_Boxes_Recursive,
 *                    aabtree.cpp:1026-1120): a leaf gets the exact extents
 *                    of its triangles' vertices, an internal node the union
 *                    of its children.  A node without usable geometry (an
 *                    empty leaf) keeps its box.  Only trees whose links are
 *                    sound are refit (no aabtree-child-out-of-range or
 *                    aabtree-cycle finding on the tree): the others need a
 *                    rebuild.  Leaf ranges, triangle and vertex indices are
 *                    bounded exactly as the rule bounds them.
 * Unsafe (with --unsafe, or asked for by name: w3dfix --rebuild-aabtree):
 *   rebuild-aabtree  every aabtree-* rule: the tree is replaced by a fresh
 *                    build of core/w3d/aabtree_build.h (binned SAH, leaves
 *                    of at most 4 triangles, canonical pre-order layout,
 *                    tight boxes, header {NodeCount, PolyCount = NumTris,
 *                    Padding = 0}); the AABTREE then holds exactly
 *                    AABTREE_HEADER, AABTREE_POLYINDICES, AABTREE_NODES in
 *                    that order (aabtreebuilder.cpp:818-870).  With --unsafe
 *                    only trees with a finding are rebuilt.  Asked for by
 *                    name, every tree is rebuilt, except a tree with no
 *                    finding whose SAH cost (core/w3d/sah.h) is already at
 *                    or below the rebuilt one's, which is kept
 *                    (notes/lint_ux_anchors.md §6.5); and a mesh without a
 *                    tree gets one when the exporter would have written
 *                    one: NORMAL geometry, no vertex influences, at least 8
 *                    triangles (meshsave.cpp:85, 1648-1690, §3.D D8).
 *                    No tree is built for a mesh whose triangles name a
 *                    vertex that does not exist (triangle-index-out-of-
 *                    range), whose header NumTris differs from its
 *                    TRIANGLES, or that lacks VERTICES or TRIANGLES: the
 *                    findings stay and w3dfix reports them.
 * Both are deterministic and idempotent: a second run computes the same
 * bytes and makes no edit.  Every edit is noted (rule, chunk, old -> new).
 */
#include "fixers.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/aabtree_build.h"
#include "core/w3d/sah.h"

/* Geometry type field of the mesh header attributes (w3d_file.h). */
#define GEOMETRY_TYPE_MASK 0x00FF0000u
#define GEOMETRY_TYPE_NORMAL 0x00000000u
/* The exporter writes a tree for meshes of at least this many triangles
 * (MIN_AABTREE_POLYGONS, meshsave.cpp:85). */
#define MIN_AABTREE_POLYGONS 8

static const wl_rule_id tree_rules[] = {
	WLR_AABTREE_HEADER_MISSING,      WLR_AABTREE_EMPTY,
	WLR_AABTREE_COUNT_MISMATCH,      WLR_AABTREE_POLYCOUNT_MISMATCH,
	WLR_AABTREE_CHILD_OUT_OF_RANGE,  WLR_AABTREE_CYCLE,
	WLR_AABTREE_UNREACHABLE_NODE,    WLR_AABTREE_LEAF_OUT_OF_RANGE,
	WLR_AABTREE_POLYINDEX_OUT_OF_RANGE, WLR_AABTREE_COVERAGE,
	WLR_AABTREE_BOX_TOO_SMALL,       WLR_AABTREE_NOT_CANONICAL,
	WL_RULE_NONE
};

static const wl_rule_id refit_rules[] = { WLR_AABTREE_BOX_TOO_SMALL, WL_RULE_NONE };

static void put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put_f32(uint8_t *p, float f)
{
	uint32_t v;
	memcpy(&v, &f, 4);
	put_u32(p, v);
}

static void put_vec3(uint8_t *p, const w3d_vec3 *v)
{
	put_f32(p, v->x);
	put_f32(p + 4, v->y);
	put_f32(p + 8, v->z);
}

/* True when c is `anc` or lies beneath it. */
static bool beneath(const wl_chunk *c, const wl_chunk *anc)
{
	for (int d = 0; c && d <= WL_MAX_DEPTH + 2; c = c->parent, d++)
		if (c == anc)
			return true;
	return false;
}

/* The first finding (in list order) of one of `rules` about mesh m's tree
 * that the run's filter allows repairing; NULL when none.  A finding is
 * about the tree when its chunk lies in the AABTREE, or for
 * aabtree-coverage when it names a triangle of the mesh. */
static const wl_finding *tree_finding(const wl_fix_ctx *x, const w3d_mesh *m,
				      const wl_rule_id *rules)
{
	const wl_findings *f = &x->doc->findings;
	for (size_t i = 0; i < f->count; i++) {
		const wl_finding *fi = &f->items[i];
		if (fi->severity == WL_SEV_OFF || !fi->chunk)
			continue;
		bool mine = beneath(fi->chunk, m->aabtree.src) ||
			    (m->triangles_src && fi->chunk == m->triangles_src &&
			     fi->rule_id == WLR_AABTREE_COVERAGE);
		if (!mine)
			continue;
		for (const wl_rule_id *r = rules; *r; r++)
			if (fi->rule_id == *r && wl_fix_filter_allows(x->filter, wl_rule_name(*r)))
				return fi;
	}
	return NULL;
}

static bool tree_has(const wl_fix_ctx *x, const w3d_mesh *m, wl_rule_id rule)
{
	const wl_findings *f = &x->doc->findings;
	for (size_t i = 0; i < f->count; i++)
		if (f->items[i].rule_id == rule && f->items[i].chunk &&
		    beneath(f->items[i].chunk, m->aabtree.src))
			return true;
	return false;
}

/* Usable vertex count: the smaller of NumVertices and VERTICES (as the
 * rules bound vertex indices). */
static size_t usable_vertices(const w3d_mesh *m)
{
	size_t nv = m->vertices.count;
	if (w3d_mesh_header_has_counts(&m->header) && m->header.num_vertices < nv)
		nv = m->header.num_vertices;
	return nv;
}

/* The vertex indices of m's triangles as 3 per triangle (malloc'd). */
static uint32_t *flat_vindex(const w3d_mesh *m)
{
	uint32_t *v = malloc((m->triangle_count ? m->triangle_count : 1) * 3 * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < m->triangle_count; i++)
		for (int k = 0; k < 3; k++)
			v[3 * i + (size_t)k] = m->triangles[i].vindex[k];
	return v;
}

/* ---- refit-aabtree ---- */

/* Computes refit boxes for t's nodes reached from node 0; set[i] marks the
 * nodes that got one.  Iterative post-order; each node entered once.
 * Returns 0, or -1 when out of memory. */
static int refit_boxes(const w3d_mesh *m, const uint32_t *vindex, w3d_vec3 *bmin,
		       w3d_vec3 *bmax, uint8_t *set)
{
	const w3d_aabtree *t = &m->aabtree;
	size_t n = t->node_array_count;
	size_t nv = usable_vertices(m);
	uint8_t *seen = calloc(n, 1);
	uint32_t *stack = malloc((2 * n + 2) * sizeof *stack);
	if (!seen || !stack) {
		free(seen);
		free(stack);
		return -1;
	}
	const uint32_t EXIT = 0x80000000u;
	size_t sp = 0;
	stack[sp++] = 0;
	seen[0] = 1;
	while (sp) {
		uint32_t e = stack[--sp];
		size_t i = e & ~EXIT;
		const w3d_aabtree_node *nd = &t->nodes[i];
		if (e & EXIT) {
			/* internal node: union of its children's boxes */
			uint32_t ch[2] = { nd->front_or_poly0, nd->back_or_poly_count };
			for (int k = 0; k < 2; k++) {
				if (ch[k] >= n || ch[k] == i || !set[ch[k]])
					continue;
				if (!set[i]) {
					bmin[i] = bmin[ch[k]];
					bmax[i] = bmax[ch[k]];
					set[i] = 1;
					continue;
				}
				w3d_vec3 *a = &bmin[i], *b = &bmax[i];
				const w3d_vec3 *c = &bmin[ch[k]], *d = &bmax[ch[k]];
				if (c->x < a->x) a->x = c->x;
				if (c->y < a->y) a->y = c->y;
				if (c->z < a->z) a->z = c->z;
				if (d->x > b->x) b->x = d->x;
				if (d->y > b->y) b->y = d->y;
				if (d->z > b->z) b->z = d->z;
			}
			continue;
		}
		if (w3d_aabtree_node_is_leaf(nd)) {
			uint64_t slots = t->poly_indices.count;
			uint64_t p0 = nd->front_or_poly0 & ~W3D_AABTREE_LEAF_FLAG;
			uint64_t cnt = nd->back_or_poly_count;
			if (p0 > slots)
				p0 = slots;
			if (cnt > slots - p0)
				cnt = slots - p0;
			if (cnt && w3d_tri_box(m->vertices.v, nv, vindex, m->triangle_count,
					       t->poly_indices.v + p0, (size_t)cnt, &bmin[i], &bmax[i]))
				set[i] = 1;
			continue;
		}
		stack[sp++] = (uint32_t)i | EXIT;
		uint32_t ch[2] = { nd->back_or_poly_count, nd->front_or_poly0 };
		for (int k = 0; k < 2; k++)
			if (ch[k] < n && ch[k] != i && !seen[ch[k]]) {
				seen[ch[k]] = 1;
				stack[sp++] = ch[k];
			}
	}
	free(seen);
	free(stack);
	return 0;
}

static int refit_mesh(wl_fix_ctx *x, const w3d_mesh *m, const wl_finding *why)
{
	const w3d_aabtree *t = &m->aabtree;
	size_t n = t->node_array_count;
	if (!n || !t->nodes_src || n >= 0x80000000u || !m->vertices.src || !m->triangles_src)
		return 0;
	wl_chunk *nodes = wl_fix_mut(x->doc, t->nodes_src);
	if (!nodes)
		return 0;
	size_t len;
	const uint8_t *cur = wl_edit_payload(x->doc, nodes, &len);
	if (len < n * W3D_AABTREE_NODE_SIZE)
		return 0;
	w3d_vec3 *bmin = calloc(n, sizeof *bmin), *bmax = calloc(n, sizeof *bmax);
	uint8_t *set = calloc(n, 1);
	uint32_t *vindex = flat_vindex(m);
	uint8_t *out = malloc(len);
	int rc = 0;
	if (!bmin || !bmax || !set || !vindex || !out || refit_boxes(m, vindex, bmin, bmax, set)) {
		x->doc->oom = true;
		rc = -1;
		goto done;
	}
	memcpy(out, cur, len);
	size_t changed = 0, first = 0;
	for (size_t i = 0; i < n; i++) {
		if (!set[i])
			continue;
		uint8_t box[24];
		put_vec3(box, &bmin[i]);
		put_vec3(box + 12, &bmax[i]);
		uint8_t *at = out + i * W3D_AABTREE_NODE_SIZE;
		if (memcmp(at, box, sizeof box) == 0)
			continue;
		if (!changed)
			first = i;
		changed++;
		memcpy(at, box, sizeof box);
	}
	if (!changed)
		goto done;
	if (wl_edit_set_payload(x->doc, nodes, out, len) != 0 ||
	    wl_edit_note(x->doc, nodes, why->rule_id,
			 wl_chunk_payload_offset(nodes) + first * W3D_AABTREE_NODE_SIZE,
			 "node boxes of the tree of mesh '%s' refit to their triangles: %zu of %zu "
			 "nodes changed, first node %zu",
			 m->name, changed, n, first) != 0)
		rc = -1;
done:
	free(bmin);
	free(bmax);
	free(set);
	free(vindex);
	free(out);
	return rc;
}

static int refit_apply(wl_fix_ctx *x)
{
	const w3d_model *model = x->model;
	if (!model || !wl_fix_rule_wanted(x, WLR_AABTREE_BOX_TOO_SMALL))
		return 0;
	for (size_t i = 0; i < model->mesh_count; i++) {
		const w3d_mesh *m = model->meshes[i];
		if (!m || !m->aabtree.src)
			continue;
		const wl_finding *why = tree_finding(x, m, refit_rules);
		if (!why || tree_has(x, m, WLR_AABTREE_CHILD_OUT_OF_RANGE) ||
		    tree_has(x, m, WLR_AABTREE_CYCLE))
			continue;
		if (refit_mesh(x, m, why) != 0)
			return -1;
	}
	return 0;
}

extern const wl_fixer w3d_fix_refit_aabtree, w3d_fix_rebuild_aabtree;

const wl_fixer w3d_fix_refit_aabtree = {
	"refit-aabtree", false,
	"recompute AABTree node boxes from their triangles, keeping the topology", refit_apply
};

/* ---- rebuild-aabtree ---- */

/* The three payloads of a built tree. */
typedef struct tree_bytes {
	uint8_t header[W3D_AABTREE_HEADER_SIZE];
	uint8_t *poly;   /* 4 * poly_count */
	size_t poly_size;
	uint8_t *nodes;  /* 32 * node_count */
	size_t nodes_size;
} tree_bytes;

static int serialise(const w3d_aabtree_built *b, tree_bytes *tb)
{
	memset(tb, 0, sizeof *tb);
	put_u32(tb->header, b->node_count);
	put_u32(tb->header + 4, b->poly_count); /* Padding[6] stays 0 */
	tb->poly_size = (size_t)b->poly_count * 4;
	tb->nodes_size = (size_t)b->node_count * W3D_AABTREE_NODE_SIZE;
	tb->poly = malloc(tb->poly_size ? tb->poly_size : 1);
	tb->nodes = malloc(tb->nodes_size ? tb->nodes_size : 1);
	if (!tb->poly || !tb->nodes)
		return -1;
	for (uint32_t i = 0; i < b->poly_count; i++)
		put_u32(tb->poly + 4 * (size_t)i, b->poly_indices[i]);
	for (uint32_t i = 0; i < b->node_count; i++) {
		uint8_t *p = tb->nodes + (size_t)i * W3D_AABTREE_NODE_SIZE;
		put_vec3(p, &b->nodes[i].min);
		put_vec3(p + 12, &b->nodes[i].max);
		put_u32(p + 24, b->nodes[i].front_or_poly0);
		put_u32(p + 28, b->nodes[i].back_or_poly_count);
	}
	return 0;
}

/* Sets c's payload to p[0..n) unless it already is; *edited set when it
 * changed.  Returns 0 or -1. */
static int set_if_changed(wl_doc *d, wl_chunk *c, const uint8_t *p, size_t n, bool *edited)
{
	size_t len;
	const uint8_t *cur = wl_edit_payload(d, c, &len);
	if (len == n && (n == 0 || memcmp(cur, p, n) == 0))
		return 0;
	*edited = true;
	return wl_edit_set_payload(d, c, p, n);
}

/* Writes tb into the AABTREE container `tree`: when it holds exactly
 * HEADER, POLYINDICES, NODES (data chunks, nothing else) the payloads are
 * replaced where they differ; otherwise its content is replaced by the
 * three chunks. */
static int write_tree(wl_doc *d, wl_chunk *tree, const tree_bytes *tb, bool *edited)
{
	static const uint32_t ids[3] = { W3D_CHUNK_AABTREE_HEADER, W3D_CHUNK_AABTREE_POLYINDICES,
					 W3D_CHUNK_AABTREE_NODES };
	const uint8_t *pay[3] = { tb->header, tb->poly, tb->nodes };
	size_t size[3] = { sizeof tb->header, tb->poly_size, tb->nodes_size };
	wl_chunk *k = tree->first_child;
	bool canonical = true;
	for (int i = 0; i < 3; i++, k = k ? k->next : NULL)
		if (!k || k->kind != WL_NODE_CHUNK || k->id != ids[i] || k->container)
			canonical = false;
	if (k)
		canonical = false;
	if (canonical) {
		k = tree->first_child;
		for (int i = 0; i < 3; i++, k = k->next)
			if (set_if_changed(d, k, pay[i], size[i], edited) != 0)
				return -1;
		return 0;
	}
	*edited = true;
	while (tree->first_child)
		if (wl_edit_remove(d, tree->first_child) != 0)
			return -1;
	wl_chunk *after = NULL;
	for (int i = 0; i < 3; i++) {
		after = wl_edit_insert(d, tree, after, ids[i], pay[i], size[i]);
		if (!after)
			return -1;
	}
	return 0;
}

/* Builds the tree of m; *st gets the builder status (W3D_AABTREE_OK when
 * *b holds a tree).  Returns -1 only when out of memory. */
static int build_for(const w3d_mesh *m, w3d_aabtree_built *b, w3d_aabtree_status *st)
{
	memset(b, 0, sizeof *b);
	*st = W3D_AABTREE_EMPTY;
	if (!m->vertices.src || !m->triangles_src || !w3d_mesh_header_has_counts(&m->header) ||
	    m->header.num_tris != m->triangle_count)
		return 0;
	uint32_t *vindex = flat_vindex(m);
	if (!vindex)
		return -1;
	*st = w3d_aabtree_build(m->vertices.v, usable_vertices(m), vindex, m->triangle_count, NULL,
				b);
	free(vindex);
	return *st == W3D_AABTREE_NOMEM ? -1 : 0;
}

/* The last chunk (not gap) among parent's children, or NULL. */
static wl_chunk *last_chunk(wl_chunk *parent)
{
	wl_chunk *last = NULL;
	for (wl_chunk *k = parent->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK)
			last = k;
	return last;
}

static int rebuild_mesh(wl_fix_ctx *x, const w3d_mesh *m)
{
	const w3d_aabtree *t = &m->aabtree;
	const wl_finding *why = NULL;
	if (t->src) {
		why = tree_finding(x, m, tree_rules);
		if (!why && !x->forced)
			return 0;
		if (!t->src->container)
			return 0; /* not read as a container: cannot hold the new chunks */
	} else {
		uint32_t geo = m->header.attributes & GEOMETRY_TYPE_MASK;
		if (!x->forced || !m->src->container || !w3d_mesh_header_has_counts(&m->header) ||
		    geo != GEOMETRY_TYPE_NORMAL || m->influences.src || m->influences_ext.src ||
		    m->triangle_count < MIN_AABTREE_POLYGONS)
			return 0;
	}
	w3d_aabtree_built b;
	w3d_aabtree_status st;
	if (build_for(m, &b, &st) != 0) {
		x->doc->oom = true;
		return -1;
	}
	if (st != W3D_AABTREE_OK)
		return 0;
	int rc = 0;
	w3d_sah_stats old_s = { 0 }, new_s = { 0 };
	if (w3d_aabtree_sah(b.nodes, b.node_count, &new_s) != 0 ||
	    (t->src && t->node_array_count &&
	     w3d_aabtree_sah(t->nodes, t->node_array_count, &old_s) != 0)) {
		x->doc->oom = true;
		w3d_aabtree_built_free(&b);
		return -1;
	}
	/* A sound tree that is already at least as good is kept (§6.5). */
	if (t->src && !why && old_s.well_formed && old_s.sah <= new_s.sah) {
		w3d_aabtree_built_free(&b);
		return 0;
	}
	tree_bytes tb;
	bool edited = false;
	if (serialise(&b, &tb) != 0) {
		x->doc->oom = true;
		rc = -1;
		goto done;
	}
	wl_chunk *tree;
	if (t->src) {
		tree = wl_fix_mut(x->doc, t->src);
		if (!tree)
			goto done;
	} else {
		wl_chunk *mesh = wl_fix_mut(x->doc, m->src);
		if (!mesh)
			goto done;
		tree = wl_edit_insert_container(x->doc, mesh, last_chunk(mesh), W3D_CHUNK_AABTREE);
		if (!tree) {
			rc = -1;
			goto done;
		}
		edited = true;
	}
	if (write_tree(x->doc, tree, &tb, &edited) != 0) {
		rc = -1;
		goto done;
	}
	if (!edited)
		goto done;
	if (t->src)
		rc = old_s.well_formed
			     ? wl_edit_note(x->doc, tree, why ? why->rule_id : WL_RULE_NONE, tree->offset,
					    "rebuilt AABTree of mesh '%s': %zu -> %" PRIu32 " nodes, depth %" PRIu32
					    " -> %" PRIu32 ", SAH cost %.2f -> %.2f",
					    m->name, t->node_array_count, b.node_count, old_s.depth, b.depth,
					    old_s.sah, new_s.sah)
			     : wl_edit_note(x->doc, tree, why ? why->rule_id : WL_RULE_NONE, tree->offset,
					    "rebuilt AABTree of mesh '%s': %zu -> %" PRIu32 " nodes (the old "
					    "tree was malformed), depth %" PRIu32 ", SAH cost %.2f",
					    m->name, t->node_array_count, b.node_count, b.depth, new_s.sah);
	else
		rc = wl_edit_note(x->doc, tree, WL_RULE_NONE, tree->offset,
				  "added AABTree to mesh '%s': %" PRIu32 " nodes, depth %" PRIu32
				  ", SAH cost %.2f",
				  m->name, b.node_count, b.depth, new_s.sah);
done:
	free(tb.poly);
	free(tb.nodes);
	w3d_aabtree_built_free(&b);
	return rc;
}

static int rebuild_apply(wl_fix_ctx *x)
{
	const w3d_model *model = x->model;
	if (!model || (!x->unsafe && !x->forced))
		return 0;
	for (size_t i = 0; i < model->mesh_count; i++) {
		const w3d_mesh *m = model->meshes[i];
		if (m && m->src && rebuild_mesh(x, m) != 0)
			return -1;
	}
	return 0;
}

const wl_fixer w3d_fix_rebuild_aabtree = {
	"rebuild-aabtree", true,
	"rebuild the AABTree (binned SAH, canonical layout); by name also add missing trees",
	rebuild_apply
};
