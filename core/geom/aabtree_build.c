/* aabtree_build.c - deterministic binned-SAH AABTree builder (see
 * aabtree_build.h). */
#include "aabtree_build.h"

#include "sah.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One triangle: its vertex box, its centroid (finite, for binning) and its
 * index in the mesh. */
typedef struct prim {
	float mn[4], mx[4]; /* lane 3 is padding (0), for 4-wide min/max */
	float c[3];
	uint32_t id;
} prim;

/* A node still to be built: triangles prims[begin .. end). */
typedef struct task {
	uint32_t begin, end;
	uint32_t depth;   /* nodes on the path from the root, this one included */
	uint32_t parent;  /* UINT32_MAX for the root */
	uint32_t is_back; /* the parent's back child (else its front child) */
	float mn[4], mx[4];   /* box of the triangles (4 lanes, lane 3 = 0) */
	float cmn[4], cmx[4]; /* bounds of their centroids */
} task;

typedef struct bin {
	float mn[4], mx[4];
	uint32_t count;
} bin;

typedef struct sort_key {
	float key;
	uint32_t id;
	uint32_t pos;
} sort_key;

typedef struct builder {
	prim *p;          /* n prims, permuted in place as nodes split */
	prim *tmp;        /* n prims of scratch */
	sort_key *keys;   /* n keys of scratch (median splits) */
	uint32_t leaf;    /* max_leaf_polys */
	uint32_t bins;
	uint32_t sweep_max;
	uint32_t sah_leaf;
	uint32_t cur_bins; /* bins of the last choose_binned */
} builder;

static float sanitize(float v)
{
	if (v != v)
		return 0.0f;
	if (v > FLT_MAX)
		return FLT_MAX;
	if (v < -FLT_MAX)
		return -FLT_MAX;
	return v;
}

/* Grows mn/mx by v.  `v < m ? v : m` is false for NaN, so a NaN is
 * ignored; it compiles to branch-free minss/maxss. */
static inline void grow(float mn[3], float mx[3], const float v[3])
{
	for (int a = 0; a < 3; a++) {
		mn[a] = v[a] < mn[a] ? v[a] : mn[a];
		mx[a] = v[a] > mx[a] ? v[a] : mx[a];
	}
}

/* Grows the 4-lane box mn/mx by the 4-lane box bmn/bmx (lane 3 padding). */
static inline void grow_box(float mn[4], float mx[4], const float bmn[4], const float bmx[4])
{
	for (int a = 0; a < 4; a++) {
		mn[a] = bmn[a] < mn[a] ? bmn[a] : mn[a];
		mx[a] = bmx[a] > mx[a] ? bmx[a] : mx[a];
	}
}

static void box_empty(float mn[4], float mx[4])
{
	for (int a = 0; a < 3; a++) {
		mn[a] = INFINITY;
		mx[a] = -INFINITY;
	}
	mn[3] = mx[3] = 0.0f;
}

/* Surface area of mn..mx (an empty axis counts 0; NaN propagates), one
 * product per statement (no FMA contraction). */
static inline double area(const float mn[4], const float mx[4])
{
	double dx = (double)mx[0] - (double)mn[0];
	double dy = (double)mx[1] - (double)mn[1];
	double dz = (double)mx[2] - (double)mn[2];
	dx = dx < 0.0 ? 0.0 : dx;
	dy = dy < 0.0 ? 0.0 : dy;
	dz = dz < 0.0 ? 0.0 : dz;
	double x = dx * dy;
	double y = dy * dz;
	double z = dz * dx;
	double t = x + y;
	t = t + z;
	return 2.0 * t;
}

/* Cost of a split: A(L)*N(L) + A(R)*N(R). */
static double split_cost(double al, uint32_t nl, double ar, uint32_t nr)
{
	double l = al * (double)nl;
	double r = ar * (double)nr;
	return l + r;
}

/* Nodes on the longest path of a median-split subtree of n triangles. */
static uint32_t median_levels(uint64_t n, uint32_t leaf)
{
	uint32_t lv = 1;
	while (n > leaf) {
		n = n - n / 2; /* the larger (back) half */
		lv++;
	}
	return lv;
}

static int key_cmp(const void *a, const void *b)
{
	const sort_key *x = a, *y = b;
	if (x->key < y->key)
		return -1;
	if (x->key > y->key)
		return 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* Median split of prims[b .. e) along the axis of largest centroid extent
 * (lowest axis on ties), ordered by (centroid, triangle index). */
static uint32_t split_median(builder *B, uint32_t b, uint32_t e, const float cmn[3],
			     const float cmx[3])
{
	int axis = 0;
	double best = -1.0;
	for (int a = 0; a < 3; a++) {
		double ext = (double)cmx[a] - (double)cmn[a];
		if (ext > best) {
			best = ext;
			axis = a;
		}
	}
	uint32_t n = e - b;
	for (uint32_t i = 0; i < n; i++)
		B->keys[i] = (sort_key){ B->p[b + i].c[axis], B->p[b + i].id, b + i };
	qsort(B->keys, n, sizeof *B->keys, key_cmp);
	for (uint32_t i = 0; i < n; i++)
		B->tmp[i] = B->p[B->keys[i].pos];
	memcpy(B->p + b, B->tmp, (size_t)n * sizeof *B->p);
	return b + n / 2;
}

/* Bin of centroid coordinate c: floor((c - cmin) * scale) clamped to
 * 0 .. nb-1 (an overflow to infinity or a NaN lands in an end bin). */
static inline uint32_t bin_of(float c, float cmin, float scale, uint32_t nb)
{
	float d = c - cmin;
	float t = d * scale;
	if (!(t > 0.0f))
		return 0;
	if (t >= (float)nb)
		return nb - 1;
	return (uint32_t)t;
}

/* Binned SAH over prims[b .. e): fills *axis and *plane (bins 0..plane-1 go
 * front); returns 0 when no candidate with a finite cost exists. */
static int choose_binned(builder *B, uint32_t b, uint32_t e, const float cmn[3],
			 const float cmx[3], int *out_axis, uint32_t *out_plane, float *out_scale)
{
	/* Fewer bins for small nodes (at least 4 triangles per bin on
	 * average, at least 4 bins): the per-node cost of the bins would
	 * otherwise exceed the cost of the triangles. */
	uint32_t nb = (e - b) / 4;
	nb = nb < 4 ? 4 : nb > B->bins ? B->bins : nb;
	B->cur_bins = nb;
	bin bins[3][W3D_AABTREE_MAX_BINS];
	float scale[3];
	for (int a = 0; a < 3; a++) {
		double ext = (double)cmx[a] - (double)cmn[a];
		scale[a] = ext > 0.0 ? (float)((double)nb / ext) : 0.0f;
		for (uint32_t k = 0; k < nb; k++) {
			box_empty(bins[a][k].mn, bins[a][k].mx);
			bins[a][k].count = 0;
		}
	}
	for (uint32_t i = b; i < e; i++) {
		const prim *q = &B->p[i];
		for (int a = 0; a < 3; a++) {
			if (scale[a] == 0.0f)
				continue;
			bin *bn = &bins[a][bin_of(q->c[a], cmn[a], scale[a], nb)];
			bn->count++;
			grow_box(bn->mn, bn->mx, q->mn, q->mx);
		}
	}
	double best = INFINITY;
	int found = 0;
	for (int a = 0; a < 3; a++) {
		if (scale[a] == 0.0f)
			continue;
		double right_area[W3D_AABTREE_MAX_BINS];
		uint32_t right_count[W3D_AABTREE_MAX_BINS];
		float mn[4], mx[4];
		box_empty(mn, mx);
		uint32_t cnt = 0;
		double ra = 0.0;
		for (uint32_t k = nb - 1; k > 0; k--) {
			if (bins[a][k].count) { /* an empty bin changes nothing */
				grow_box(mn, mx, bins[a][k].mn, bins[a][k].mx);
				cnt += bins[a][k].count;
				ra = area(mn, mx);
			}
			right_area[k] = ra;
			right_count[k] = cnt;
		}
		box_empty(mn, mx);
		cnt = 0;
		for (uint32_t k = 1; k < nb; k++) {
			/* after an empty bin the cut is the same as the previous
			 * one, and equal costs never win */
			if (!bins[a][k - 1].count)
				continue;
			grow_box(mn, mx, bins[a][k - 1].mn, bins[a][k - 1].mx);
			cnt += bins[a][k - 1].count;
			if (right_count[k] == 0)
				break;
			double c = split_cost(area(mn, mx), cnt, right_area[k], right_count[k]);
			if (c < best) {
				best = c;
				*out_axis = a;
				*out_plane = k;
				*out_scale = scale[a];
				found = 1;
			}
		}
	}
	return found;
}

/* Box and centroid bounds of prims[b .. e) into t. */
static void bounds(const builder *B, uint32_t b, uint32_t e, task *t)
{
	box_empty(t->mn, t->mx);
	box_empty(t->cmn, t->cmx);
	for (uint32_t i = b; i < e; i++) {
		grow_box(t->mn, t->mx, B->p[i].mn, B->p[i].mx);
		grow(t->cmn, t->cmx, B->p[i].c);
	}
}

/* Stable partition of prims[b .. e) by bin < plane on axis; fills the
 * bounds of both sides into *front and *back on the way. */
static uint32_t partition_bins(builder *B, uint32_t b, uint32_t e, int axis, float cmin,
			       float scale, uint32_t plane, task *front, task *back)
{
	uint32_t w = b, r = 0;
	box_empty(front->mn, front->mx);
	box_empty(front->cmn, front->cmx);
	box_empty(back->mn, back->mx);
	box_empty(back->cmn, back->cmx);
	for (uint32_t i = b; i < e; i++) {
		const prim *q = &B->p[i];
		task *side;
		if (bin_of(q->c[axis], cmin, scale, B->cur_bins) < plane) {
			side = front;
			B->p[w++] = *q;
		} else {
			side = back;
			B->tmp[r++] = *q;
		}
		grow_box(side->mn, side->mx, q->mn, q->mx);
		grow(side->cmn, side->cmx, q->c);
	}
	memcpy(B->p + w, B->tmp, (size_t)r * sizeof *B->p);
	return w;
}

/* Every partition of prims[b .. e) (2 to 4 of them) into two non-empty
 * sides, the last element always on the right, in increasing bit-mask
 * order; like choose_sweep otherwise (exact: the best split of all). */
static uint32_t choose_small(builder *B, uint32_t b, uint32_t e, double *out_cost)
{
	uint32_t n = e - b;
	double best = INFINITY;
	uint32_t best_mask = 0;
	for (uint32_t mask = 1; mask < (1u << (n - 1)); mask++) {
		float lmn[4], lmx[4], rmn[4], rmx[4];
		box_empty(lmn, lmx);
		box_empty(rmn, rmx);
		uint32_t nl = 0;
		for (uint32_t i = 0; i < n; i++) {
			const prim *q = &B->p[b + i];
			if (mask >> i & 1) {
				grow_box(lmn, lmx, q->mn, q->mx);
				nl++;
			} else {
				grow_box(rmn, rmx, q->mn, q->mx);
			}
		}
		double c = split_cost(area(lmn, lmx), nl, area(rmn, rmx), n - nl);
		if (c < best) {
			best = c;
			best_mask = mask;
		}
	}
	if (!best_mask)
		return 0;
	uint32_t w = 0;
	for (int side = 1; side >= 0; side--)
		for (uint32_t i = 0; i < n; i++)
			if ((best_mask >> i & 1) == (uint32_t)side)
				B->tmp[w++] = B->p[b + i];
	memcpy(B->p + b, B->tmp, (size_t)n * sizeof *B->p);
	*out_cost = best;
	uint32_t nl = 0;
	for (uint32_t i = 0; i < n; i++)
		nl += best_mask >> i & 1;
	return b + nl;
}

/* A float as a uint32 with the same order (sign-magnitude to biased). */
static inline uint32_t sortable(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* Exact sweep over prims[b .. e) (2 to 64 of them).  Candidate orders per
 * axis: the centroids, and for nodes of at most SWEEP_EXTRA triangles also
 * the box minima and maxima (they separate e.g. two crossed quads, whose
 * centroids interleave on every axis); each order is sorted by (key,
 * position in the range), a total order.  Every cut of every order is
 * tried; on success the range is reordered by the best order, *out_cost
 * gets A(L)*N(L) + A(R)*N(R) and the split position is returned; 0 when
 * no candidate has a finite cost. */
#define SWEEP_EXTRA 8
static uint32_t choose_sweep(builder *B, uint32_t b, uint32_t e, double *out_cost)
{
	uint32_t n = e - b;
	if (n <= 4)
		return choose_small(B, b, e, out_cost);
	uint64_t ord[64], best_ord[64];
	double right_area[64];
	double best = INFINITY;
	uint32_t best_pos = 0;
	int kinds = n <= SWEEP_EXTRA ? 3 : 1;
	for (int kind = 0; kind < kinds; kind++)
		for (int a = 0; a < 3; a++) {
			for (uint32_t i = 0; i < n; i++) {
				const prim *q = &B->p[b + i];
				float k = kind == 0 ? q->c[a] : kind == 1 ? q->mn[a] : q->mx[a];
				uint64_t key = (uint64_t)sortable(k) << 32 | i;
				uint32_t j = i;
				while (j > 0 && ord[j - 1] > key) {
					ord[j] = ord[j - 1];
					j--;
				}
				ord[j] = key;
			}
			float mn[4], mx[4];
			box_empty(mn, mx);
			for (uint32_t i = n - 1; i > 0; i--) {
				const prim *q = &B->p[b + (uint32_t)ord[i]];
				grow_box(mn, mx, q->mn, q->mx);
				right_area[i] = area(mn, mx);
			}
			box_empty(mn, mx);
			int better = 0;
			for (uint32_t i = 1; i < n; i++) {
				const prim *q = &B->p[b + (uint32_t)ord[i - 1]];
				grow_box(mn, mx, q->mn, q->mx);
				double c = split_cost(area(mn, mx), i, right_area[i], n - i);
				if (c < best) {
					best = c;
					best_pos = i;
					better = 1;
				}
			}
			if (better)
				memcpy(best_ord, ord, n * sizeof *ord);
		}
	if (best_pos == 0)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		B->tmp[i] = B->p[b + (uint32_t)best_ord[i]];
	memcpy(B->p + b, B->tmp, (size_t)n * sizeof *B->p);
	*out_cost = best;
	return b + best_pos;
}

static void store_box(w3d_aabtree_node *nd, float mn[3], float mx[3])
{
	for (int a = 0; a < 3; a++)
		if (!(mn[a] <= mx[a]))
			mn[a] = mx[a] = 0.0f;
	nd->min = (w3d_vec3){ mn[0], mn[1], mn[2] };
	nd->max = (w3d_vec3){ mx[0], mx[1], mx[2] };
}

static void build(builder *B, uint32_t n, w3d_aabtree_built *out)
{
	task stack[2 * W3D_AABTREE_MAX_DEPTH + 4];
	size_t sp = 0;
	uint32_t nc = 0;
	stack[0] = (task){ 0, n, 1, UINT32_MAX, 0, { 0 }, { 0 }, { 0 }, { 0 } };
	bounds(B, 0, n, &stack[0]);
	sp = 1;
	while (sp) {
		task t = stack[--sp];
		uint32_t idx = nc++;
		w3d_aabtree_node *nd = &out->nodes[idx];
		if (t.parent != UINT32_MAX) {
			if (t.is_back)
				out->nodes[t.parent].back_or_poly_count = idx;
			else
				out->nodes[t.parent].front_or_poly0 = idx;
		}
		if (t.depth > out->depth)
			out->depth = t.depth;
		store_box(nd, t.mn, t.mx);
		uint32_t cnt = t.end - t.begin;
		uint32_t mid = 0;
		double cost = 0.0;
		task front = { t.begin, 0, t.depth + 1, idx, 0, { 0 }, { 0 }, { 0 }, { 0 } };
		task back = { 0, t.end, t.depth + 1, idx, 1, { 0 }, { 0 }, { 0 }, { 0 } };
		int have_bounds = 0;
		if (cnt <= B->leaf) {
			/* SAH termination below the leaf bound: split further only
			 * when C_inn*A + A(L)*N(L) + A(R)*N(R) < N*A (sah.h), and
			 * only when even a chain of 1-triangle splits keeps the
			 * depth bound. */
			double a = area(t.mn, t.mx);
			if (B->sah_leaf && cnt >= 2 && cnt <= 64 &&
			    t.depth + cnt - 1 <= W3D_AABTREE_MAX_DEPTH)
				mid = choose_sweep(B, t.begin, t.end, &cost);
			double inner = a * W3D_SAH_C_INNER;
			double split = inner + cost * W3D_SAH_C_TRI;
			double leaf = a * (double)cnt;
			leaf = leaf * W3D_SAH_C_TRI;
			if (!(mid > t.begin && mid < t.end && split < leaf)) {
				nd->front_or_poly0 = t.begin | W3D_AABTREE_LEAF_FLAG;
				nd->back_or_poly_count = cnt;
				if (cnt > out->max_leaf_polys)
					out->max_leaf_polys = cnt;
				continue;
			}
		} else if (cnt <= B->sweep_max) {
			mid = choose_sweep(B, t.begin, t.end, &cost);
		} else {
			int axis = 0;
			uint32_t plane = 0;
			float scale = 0.0f;
			if (choose_binned(B, t.begin, t.end, t.cmn, t.cmx, &axis, &plane, &scale)) {
				mid = partition_bins(B, t.begin, t.end, axis, t.cmn[axis], scale, plane,
						     &front, &back);
				have_bounds = 1;
			}
		}
		if (mid > t.begin && mid < t.end) {
			uint32_t big = mid - t.begin > t.end - mid ? mid - t.begin : t.end - mid;
			if (t.depth + median_levels(big, B->leaf) > W3D_AABTREE_MAX_DEPTH)
				mid = 0; /* keep the depth bound: median instead */
		}
		if (!(mid > t.begin && mid < t.end)) {
			mid = split_median(B, t.begin, t.end, t.cmn, t.cmx);
			have_bounds = 0;
		}
		front.end = mid;
		back.begin = mid;
		if (!have_bounds) {
			bounds(B, front.begin, front.end, &front);
			bounds(B, back.begin, back.end, &back);
		}
		/* Back first on the stack, so the front child is numbered next:
		 * front = parent + 1, pre-order (§4.1 step 7). */
		stack[sp++] = back;
		stack[sp++] = front;
	}
	out->node_count = nc;
}

static void params_of(const w3d_aabtree_params *pr, builder *B)
{
	B->leaf = pr && pr->max_leaf_polys ? pr->max_leaf_polys : W3D_AABTREE_DEFAULT_LEAF;
	B->bins = pr && pr->bins ? pr->bins : W3D_AABTREE_DEFAULT_BINS;
	if (B->bins < 2)
		B->bins = 2;
	if (B->bins > W3D_AABTREE_MAX_BINS)
		B->bins = W3D_AABTREE_MAX_BINS;
	B->sweep_max = pr && pr->sweep_max ? pr->sweep_max : W3D_AABTREE_DEFAULT_SWEEP;
	if (B->sweep_max > 64)
		B->sweep_max = 64;
	B->sah_leaf = !(pr && pr->no_sah_leaf);
}

w3d_aabtree_status w3d_aabtree_build(const w3d_vec3 *verts, size_t vertex_count,
				     const uint32_t *vindex, size_t tri_count,
				     const w3d_aabtree_params *params, w3d_aabtree_built *out)
{
	memset(out, 0, sizeof *out);
	if (tri_count == 0)
		return W3D_AABTREE_EMPTY;
	if (tri_count > W3D_AABTREE_MAX_TRIS)
		return W3D_AABTREE_TOO_BIG;
	for (size_t i = 0; i < 3 * tri_count; i++)
		if (vindex[i] >= vertex_count)
			return W3D_AABTREE_BAD_INDEX;
	uint32_t n = (uint32_t)tri_count;
	builder B;
	params_of(params, &B);
	B.p = malloc((size_t)n * sizeof *B.p);
	B.tmp = malloc((size_t)n * sizeof *B.tmp);
	B.keys = malloc((size_t)n * sizeof *B.keys);
	out->nodes = calloc(2 * (size_t)n - 1, sizeof *out->nodes);
	out->poly_indices = malloc((size_t)n * sizeof *out->poly_indices);
	if (!B.p || !B.tmp || !B.keys || !out->nodes || !out->poly_indices) {
		free(B.p);
		free(B.tmp);
		free(B.keys);
		w3d_aabtree_built_free(out);
		return W3D_AABTREE_NOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		prim *q = &B.p[i];
		box_empty(q->mn, q->mx);
		for (int k = 0; k < 3; k++) {
			const w3d_vec3 *v = &verts[vindex[3 * (size_t)i + (size_t)k]];
			float xyz[3] = { v->x, v->y, v->z };
			grow(q->mn, q->mx, xyz);
		}
		for (int a = 0; a < 3; a++) {
			float h1 = 0.5f * q->mn[a];
			float h2 = 0.5f * q->mx[a];
			q->c[a] = sanitize(h1 + h2);
		}
		q->id = i;
	}
	build(&B, n, out);
	for (uint32_t i = 0; i < n; i++)
		out->poly_indices[i] = B.p[i].id;
	out->poly_count = n;
	free(B.p);
	free(B.tmp);
	free(B.keys);
	return W3D_AABTREE_OK;
}

void w3d_aabtree_built_free(w3d_aabtree_built *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->poly_indices);
	memset(t, 0, sizeof *t);
}

const char *w3d_aabtree_status_name(w3d_aabtree_status s)
{
	switch (s) {
	case W3D_AABTREE_OK: return "ok";
	case W3D_AABTREE_NOMEM: return "out of memory";
	case W3D_AABTREE_BAD_INDEX: return "a triangle vertex index is out of range";
	case W3D_AABTREE_EMPTY: return "the mesh has no triangle";
	case W3D_AABTREE_TOO_BIG: return "the mesh has too many triangles";
	}
	return "unknown status";
}

size_t w3d_tri_box(const w3d_vec3 *verts, size_t vertex_count, const uint32_t *vindex,
		   size_t tri_count, const uint32_t *tris, size_t count, w3d_vec3 *out_min,
		   w3d_vec3 *out_max)
{
	float mn[4], mx[4];
	box_empty(mn, mx);
	size_t used = 0;
	for (size_t i = 0; i < count; i++) {
		if (tris[i] >= tri_count)
			continue;
		for (int k = 0; k < 3; k++) {
			uint32_t vi = vindex[3 * (size_t)tris[i] + (size_t)k];
			if (vi >= vertex_count)
				continue;
			float xyz[3] = { verts[vi].x, verts[vi].y, verts[vi].z };
			grow(mn, mx, xyz);
			used++;
		}
	}
	w3d_aabtree_node tmp;
	store_box(&tmp, mn, mx);
	*out_min = tmp.min;
	*out_max = tmp.max;
	return used;
}
