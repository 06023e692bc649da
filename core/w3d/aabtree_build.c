/* aabtree_build.c - deterministic binned-SAH AABTree builder (see
 * aabtree_build.h). */
#include "aabtree_build.h"

#include "sah.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define AAB_SSE 1
#else
#define AAB_SSE 0
#endif

/* One triangle: its vertex box, its centroid (finite, for binning) and its
 * index in the mesh (in lane 3 of the centroid, so a prim is 48 bytes and
 * all three vectors load as 4 lanes; lane 3 is masked off before any
 * arithmetic). */
typedef struct prim {
	float mn[4], mx[4]; /* lane 3 is padding (0), for 4-wide min/max */
	union {
		float c[4];
		uint32_t cu[4]; /* cu[3]: the triangle index */
	};
} prim;
#define PRIM_ID(q) ((q)->cu[3])

/* A node still to be built: triangles prims[begin .. end). */
typedef struct task {
	uint32_t begin, end;
	uint32_t depth;   /* nodes on the path from the root, this one included */
	uint32_t parent;  /* UINT32_MAX for the root */
	uint32_t is_back; /* the parent's back child (else its front child) */
	float mn[4], mx[4];   /* box of the triangles (4 lanes, lane 3 = 0) */
	float cmn[4], cmx[4]; /* bounds of their centroids (lane 3 unused) */
} task;

typedef struct sort_key {
	float key;
	uint32_t id;
	uint32_t pos;
} sort_key;

/* All scratch of one build lives in one allocation. */
typedef struct builder {
	prim *p;          /* n prims, permuted in place as nodes split */
	prim *tmp;        /* n prims of scratch */
	sort_key *keys;   /* n keys of scratch (median splits) */
	uint8_t *binidx;  /* 4 per prim: its bin per axis (last choose_binned) */
	uint32_t leaf;    /* max_leaf_polys */
	uint32_t bins;
	uint32_t sweep_max;
	uint32_t sah_leaf;
} builder;

#if !AAB_SSE
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
#endif

/* Grows mn/mx by v.  `v < m ? v : m` is false for NaN, so a NaN is
 * ignored; it compiles to branch-free minss/maxss. */
static inline void grow(float mn[3], float mx[3], const float v[3])
{
	for (int a = 0; a < 3; a++) {
		mn[a] = v[a] < mn[a] ? v[a] : mn[a];
		mx[a] = v[a] > mx[a] ? v[a] : mx[a];
	}
}

/* Grows the 4-lane box mn/mx by the 4-lane box bmn/bmx (lane 3 padding).
 * minps/maxps compute exactly `b < m ? b : m` and `b > m ? b : m`. */
static inline void grow_box(float mn[4], float mx[4], const float bmn[4], const float bmx[4])
{
#if AAB_SSE
	_mm_storeu_ps(mn, _mm_min_ps(_mm_loadu_ps(bmn), _mm_loadu_ps(mn)));
	_mm_storeu_ps(mx, _mm_max_ps(_mm_loadu_ps(bmx), _mm_loadu_ps(mx)));
#else
	for (int a = 0; a < 4; a++) {
		mn[a] = bmn[a] < mn[a] ? bmn[a] : mn[a];
		mx[a] = bmx[a] > mx[a] ? bmx[a] : mx[a];
	}
#endif
}

/* Box of the union of two 4-lane boxes, into omn/omx. */
static inline void union_box(float omn[4], float omx[4], const float amn[4], const float amx[4],
			     const float bmn[4], const float bmx[4])
{
#if AAB_SSE
	_mm_storeu_ps(omn, _mm_min_ps(_mm_loadu_ps(bmn), _mm_loadu_ps(amn)));
	_mm_storeu_ps(omx, _mm_max_ps(_mm_loadu_ps(bmx), _mm_loadu_ps(amx)));
#else
	for (int a = 0; a < 4; a++) {
		omn[a] = bmn[a] < amn[a] ? bmn[a] : amn[a];
		omx[a] = bmx[a] > amx[a] ? bmx[a] : amx[a];
	}
#endif
}

static void box_empty(float mn[4], float mx[4])
{
	for (int a = 0; a < 3; a++) {
		mn[a] = INFINITY;
		mx[a] = -INFINITY;
	}
	mn[3] = mx[3] = 0.0f;
}

/* Half the surface area of mn..mx in single precision: dx*dy + dy*dz +
 * dz*dx, summed in that order (an empty axis counts 0; NaN propagates).
 * Half areas order every comparison exactly as areas do (x2 is exact).
 * The SSE and the scalar code do the same IEEE single operations in the
 * same order, one per statement (no FMA contraction): same result. */
static inline float harea(const float mn[4], const float mx[4])
{
#if AAB_SSE
	__m128 d = _mm_sub_ps(_mm_loadu_ps(mx), _mm_loadu_ps(mn));
	d = _mm_max_ps(_mm_setzero_ps(), d); /* 0 > d ? 0 : d, NaN kept */
	__m128 r = _mm_shuffle_ps(d, d, _MM_SHUFFLE(3, 0, 2, 1));
	__m128 p = _mm_mul_ps(d, r); /* dx*dy, dy*dz, dz*dx */
	__m128 t = _mm_add_ss(p, _mm_shuffle_ps(p, p, _MM_SHUFFLE(1, 1, 1, 1)));
	t = _mm_add_ss(t, _mm_movehl_ps(p, p));
	return _mm_cvtss_f32(t);
#else
	float dx = mx[0] - mn[0];
	float dy = mx[1] - mn[1];
	float dz = mx[2] - mn[2];
	dx = dx < 0.0f ? 0.0f : dx;
	dy = dy < 0.0f ? 0.0f : dy;
	dz = dz < 0.0f ? 0.0f : dz;
	float x = dx * dy;
	float y = dy * dz;
	float z = dz * dx;
	float t = x + y;
	t = t + z;
	return t;
#endif
}

/* Cost of a split: A(L)*N(L) + A(R)*N(R) (half areas). */
static inline float split_cost(float al, uint32_t nl, float ar, uint32_t nr)
{
	float l = al * (float)nl;
	float r = ar * (float)nr;
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
		B->keys[i] = (sort_key){ B->p[b + i].c[axis], PRIM_ID(&B->p[b + i]), b + i };
	qsort(B->keys, n, sizeof *B->keys, key_cmp);
	for (uint32_t i = 0; i < n; i++)
		B->tmp[i] = B->p[B->keys[i].pos];
	memcpy(B->p + b, B->tmp, (size_t)n * sizeof *B->p);
	return b + n / 2;
}

#if !AAB_SSE
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
#endif

/* Binned SAH over prims[b .. e): fills *axis and *plane (bins 0..plane-1 go
 * front) and the bin of every prim on every axis (B->binidx, for
 * partition_bins); returns 0 when no candidate with a finite cost exists. */
static int choose_binned(builder *B, uint32_t b, uint32_t e, const float cmn[4],
			 const float cmx[4], int *out_axis, uint32_t *out_plane)
{
	/* Fewer bins for small nodes (at least 4 triangles per bin on
	 * average, at least 4 bins): the per-node cost of the bins would
	 * otherwise exceed the cost of the triangles. */
	uint32_t nb = (e - b) / 4;
	nb = nb < 4 ? 4 : nb > B->bins ? B->bins : nb;
	/* bin boxes, [axis][bin][lane] */
	float bmn[3][W3D_AABTREE_MAX_BINS][4], bmx[3][W3D_AABTREE_MAX_BINS][4];
	uint32_t bcnt[3][W3D_AABTREE_MAX_BINS];
	float scale[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
	for (int a = 0; a < 3; a++) {
		double ext = (double)cmx[a] - (double)cmn[a];
		scale[a] = ext > 0.0 ? (float)((double)nb / ext) : 0.0f;
		for (uint32_t k = 0; k < nb; k++) {
			box_empty(bmn[a][k], bmx[a][k]);
			bcnt[a][k] = 0;
		}
	}
	uint8_t *bi = B->binidx;
#if AAB_SSE
	{
		/* bin_of on 4 lanes: max(t, 0) maps NaN and t <= 0 to 0
		 * (maxps returns its second operand on NaN), min(., nb-1)
		 * clamps, truncation is the floor of a non-negative value. */
		const __m128 vmin = _mm_setr_ps(cmn[0], cmn[1], cmn[2], 0.0f);
		const __m128 vscale = _mm_loadu_ps(scale);
		const __m128 vtop = _mm_set1_ps((float)(nb - 1));
		const __m128 mask3 = _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0));
		for (uint32_t i = b; i < e; i++) {
			const prim *q = &B->p[i];
			__m128 c = _mm_and_ps(_mm_loadu_ps(q->c), mask3);
			__m128 d = _mm_sub_ps(c, vmin);
			__m128 t = _mm_mul_ps(d, vscale);
			t = _mm_min_ps(_mm_max_ps(t, _mm_setzero_ps()), vtop);
			__m128i k = _mm_cvttps_epi32(t);
			uint32_t k0 = (uint32_t)_mm_cvtsi128_si32(k);
			uint32_t k1 = (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(k, 0x55));
			uint32_t k2 = (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(k, 0xAA));
			uint8_t *o = bi + 4 * (size_t)i;
			o[0] = (uint8_t)k0;
			o[1] = (uint8_t)k1;
			o[2] = (uint8_t)k2;
			__m128 pmn = _mm_loadu_ps(q->mn), pmx = _mm_loadu_ps(q->mx);
			_mm_storeu_ps(bmn[0][k0], _mm_min_ps(pmn, _mm_loadu_ps(bmn[0][k0])));
			_mm_storeu_ps(bmx[0][k0], _mm_max_ps(pmx, _mm_loadu_ps(bmx[0][k0])));
			_mm_storeu_ps(bmn[1][k1], _mm_min_ps(pmn, _mm_loadu_ps(bmn[1][k1])));
			_mm_storeu_ps(bmx[1][k1], _mm_max_ps(pmx, _mm_loadu_ps(bmx[1][k1])));
			_mm_storeu_ps(bmn[2][k2], _mm_min_ps(pmn, _mm_loadu_ps(bmn[2][k2])));
			_mm_storeu_ps(bmx[2][k2], _mm_max_ps(pmx, _mm_loadu_ps(bmx[2][k2])));
			bcnt[0][k0]++;
			bcnt[1][k1]++;
			bcnt[2][k2]++;
		}
	}
#else
	for (uint32_t i = b; i < e; i++) {
		const prim *q = &B->p[i];
		uint8_t *o = bi + 4 * (size_t)i;
		for (int a = 0; a < 3; a++) {
			uint32_t k = bin_of(q->c[a], cmn[a], scale[a], nb);
			o[a] = (uint8_t)k;
			grow_box(bmn[a][k], bmx[a][k], q->mn, q->mx);
			bcnt[a][k]++;
		}
	}
#endif
	float best = INFINITY;
	int found = 0;
	for (int a = 0; a < 3; a++) {
		if (scale[a] == 0.0f)
			continue;
		float right_area[W3D_AABTREE_MAX_BINS];
		uint32_t right_count[W3D_AABTREE_MAX_BINS];
		float mn[4], mx[4];
		box_empty(mn, mx);
		uint32_t cnt = 0;
		float ra = 0.0f;
		for (uint32_t k = nb - 1; k > 0; k--) {
			if (bcnt[a][k]) { /* an empty bin changes nothing */
				grow_box(mn, mx, bmn[a][k], bmx[a][k]);
				cnt += bcnt[a][k];
				ra = harea(mn, mx);
			}
			right_area[k] = ra;
			right_count[k] = cnt;
		}
		box_empty(mn, mx);
		cnt = 0;
		for (uint32_t k = 1; k < nb; k++) {
			/* after an empty bin the cut is the same as the previous
			 * one, and equal costs never win */
			if (!bcnt[a][k - 1])
				continue;
			grow_box(mn, mx, bmn[a][k - 1], bmx[a][k - 1]);
			cnt += bcnt[a][k - 1];
			if (right_count[k] == 0)
				break;
			float c = split_cost(harea(mn, mx), cnt, right_area[k], right_count[k]);
			if (c < best) {
				best = c;
				*out_axis = a;
				*out_plane = k;
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
		/* lane 3 of a centroid is the index: reset below */
		grow_box(t->cmn, t->cmx, B->p[i].c, B->p[i].c);
	}
	t->cmn[3] = t->cmx[3] = 0.0f;
}

/* Stable partition of prims[b .. e) by bin < plane on axis (the bins
 * choose_binned stored); fills the bounds of both sides into *front and
 * *back on the way. */
static uint32_t partition_bins(builder *B, uint32_t b, uint32_t e, int axis, uint32_t plane,
			       task *front, task *back)
{
	uint32_t w = b, r = 0;
	float fmn[4], fmx[4], fcmn[4], fcmx[4];
	float kmn[4], kmx[4], kcmn[4], kcmx[4];
	box_empty(fmn, fmx);
	box_empty(fcmn, fcmx);
	box_empty(kmn, kmx);
	box_empty(kcmn, kcmx);
	const uint8_t *bi = B->binidx + axis;
	for (uint32_t i = b; i < e; i++) {
		const prim *q = &B->p[i];
		if (bi[4 * (size_t)i] < plane) {
			grow_box(fmn, fmx, q->mn, q->mx);
			grow_box(fcmn, fcmx, q->c, q->c);
			if (w != i)
				B->p[w] = *q;
			w++;
		} else {
			grow_box(kmn, kmx, q->mn, q->mx);
			grow_box(kcmn, kcmx, q->c, q->c);
			B->tmp[r++] = *q;
		}
	}
	memcpy(B->p + w, B->tmp, (size_t)r * sizeof *B->p);
	/* lane 3 of a centroid holds an index: the centroid bounds use lanes
	 * 0..2 only */
	memcpy(front->mn, fmn, sizeof fmn);
	memcpy(front->mx, fmx, sizeof fmx);
	memcpy(back->mn, kmn, sizeof kmn);
	memcpy(back->mx, kmx, sizeof kmx);
	for (int a = 0; a < 3; a++) {
		front->cmn[a] = fcmn[a];
		front->cmx[a] = fcmx[a];
		back->cmn[a] = kcmn[a];
		back->cmx[a] = kcmx[a];
	}
	front->cmn[3] = front->cmx[3] = back->cmn[3] = back->cmx[3] = 0.0f;
	return w;
}

/* Every partition of prims[b .. e) (2 to 4 of them) into two non-empty
 * sides, the last element always on the right, in increasing bit-mask
 * order; like choose_sweep otherwise (exact: the best split of all).  The
 * boxes of all subsets are built once, each from a smaller one. */
static uint32_t choose_small(builder *B, uint32_t b, uint32_t e, float *out_cost)
{
	uint32_t n = e - b;
	uint32_t full = (1u << n) - 1;
	float smn[16][4], smx[16][4];
	for (uint32_t m = 1; m <= full; m++) {
		uint32_t low = m & (0u - m), rest = m & (m - 1);
		uint32_t i = low == 1 ? 0 : low == 2 ? 1 : low == 4 ? 2 : 3;
		const prim *q = &B->p[b + i];
		if (rest)
			union_box(smn[m], smx[m], smn[rest], smx[rest], q->mn, q->mx);
		else {
			memcpy(smn[m], q->mn, sizeof smn[m]);
			memcpy(smx[m], q->mx, sizeof smx[m]);
		}
	}
	static const uint8_t pop[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };
	float best = INFINITY;
	uint32_t best_mask = 0;
	for (uint32_t mask = 1; mask < (1u << (n - 1)); mask++) {
		uint32_t nl = pop[mask];
		float c = split_cost(harea(smn[mask], smx[mask]), nl,
				     harea(smn[full ^ mask], smx[full ^ mask]), n - nl);
		if (c < best) {
			best = c;
			best_mask = mask;
		}
	}
	if (!best_mask)
		return 0;
	prim t[4];
	uint32_t w = 0;
	for (int side = 1; side >= 0; side--)
		for (uint32_t i = 0; i < n; i++)
			if ((best_mask >> i & 1) == (uint32_t)side)
				t[w++] = B->p[b + i];
	memcpy(B->p + b, t, (size_t)n * sizeof *B->p);
	*out_cost = best;
	return b + pop[best_mask];
}

/* A float as a uint32 with the same order (sign-magnitude to biased). */
static inline uint32_t sortable(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* perm[r] = i for the rank r of key[i] in the order (key, i), i < n;
 * for n <= 8, key[n .. 8) must hold INT32_MAX. */
static void rank_sort(const int32_t *key, uint32_t n, uint8_t *perm)
{
#if AAB_SSE
	if (n <= 8) {
		const int32_t *k8 = key; /* padded to 8 by the caller */
		const __m128i k0 = _mm_loadu_si128((const __m128i *)(const void *)k8);
		const __m128i k1 = _mm_loadu_si128((const __m128i *)(const void *)(k8 + 4));
		const __m128i lane0 = _mm_setr_epi32(0, 1, 2, 3), lane1 = _mm_setr_epi32(4, 5, 6, 7);
		for (uint32_t i = 0; i < n; i++) {
			__m128i ki = _mm_set1_epi32(key[i]), vi = _mm_set1_epi32((int)i);
			/* key[j] < key[i], or equal and j < i (j >= n never) */
			__m128i c0 = _mm_or_si128(_mm_cmpgt_epi32(ki, k0),
						  _mm_and_si128(_mm_cmpeq_epi32(ki, k0),
								_mm_cmpgt_epi32(vi, lane0)));
			__m128i c1 = _mm_or_si128(_mm_cmpgt_epi32(ki, k1),
						  _mm_and_si128(_mm_cmpeq_epi32(ki, k1),
								_mm_cmpgt_epi32(vi, lane1)));
			__m128i s = _mm_add_epi32(c0, c1);
			s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
			s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
			perm[-_mm_cvtsi128_si32(s)] = (uint8_t)i;
		}
		return;
	}
#endif
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = 0;
		for (uint32_t j = 0; j < n; j++)
			r += key[j] < key[i] || (key[j] == key[i] && j < i);
		perm[r] = (uint8_t)i;
	}
}

/* Exact sweep over prims[b .. e) (2 to 64 of them).  Candidate orders per
 * axis: for nodes of at most SWEEP_EXTRA triangles the box minima (they
 * separate e.g. two crossed quads, whose centroids interleave on every
 * axis; on the corpus they do as well as centroids, minima and maxima
 * together, at a third of the cost), above that the centroids; each order
 * is sorted by (key, position in the range), a total order.  Every cut of
 * every order is tried; on success the range is reordered by the best
 * order, *out_cost gets A(L)*N(L) + A(R)*N(R) (half areas) and the split
 * position is returned; 0 when no candidate has a finite cost.
 * Work saved without changing the result (equal costs never win):
 *   - A(L)*N(L) never decreases along an order and A(R)*N(R) >= 0, so
 *     once A(L)*N(L) >= the best cost (or is NaN: then every later cost
 *     is infinite or NaN) no later cut of that order can win, and A(R) is
 *     only computed for a cut that A(L)*N(L) alone does not rule out. */
#define SWEEP_EXTRA 8
static uint32_t choose_sweep(builder *B, uint32_t b, uint32_t e, float *out_cost)
{
	uint32_t n = e - b;
	if (n <= 4)
		return choose_small(B, b, e, out_cost);
	uint8_t perm[64], best_ord[64];
	float smn[64][4], smx[64][4];          /* boxes of perm[i .. n) */
	float best = INFINITY;
	uint32_t best_pos = 0;
	const prim *P = B->p + b;
	/* keys[axis][i], padded with INT32_MAX to 8 (rank_sort) */
	int32_t keys[3][64];
	for (int a = 0; a < 3; a++)
		for (uint32_t i = n; i < 8; i++)
			keys[a][i] = INT32_MAX;
	for (uint32_t i = 0; i < n; i++) {
		const float *v = n <= SWEEP_EXTRA ? P[i].mn : P[i].c;
#if AAB_SSE
		/* sortable() with the top bit flipped (signed order), 4 lanes:
		 * u ^ ((u >> 31) & 0x7FFFFFFF) */
		__m128i u = _mm_castps_si128(_mm_loadu_ps(v));
		__m128i m = _mm_and_si128(_mm_srai_epi32(u, 31), _mm_set1_epi32(INT32_MAX));
		int32_t k4[4];
		_mm_storeu_si128((__m128i *)(void *)k4, _mm_xor_si128(u, m));
		keys[0][i] = k4[0];
		keys[1][i] = k4[1];
		keys[2][i] = k4[2];
#else
		for (int a = 0; a < 3; a++)
			keys[a][i] = (int32_t)(sortable(v[a]) ^ 0x80000000u);
#endif
	}
	for (int a = 0; a < 3; a++) {
			rank_sort(keys[a], n, perm);
			float mn[4], mx[4];
			box_empty(mn, mx);
			for (uint32_t i = n - 1; i > 0; i--) {
				const prim *q = &P[perm[i]];
				grow_box(mn, mx, q->mn, q->mx);
				memcpy(smn[i], mn, sizeof mn);
				memcpy(smx[i], mx, sizeof mx);
			}
			box_empty(mn, mx);
			int better = 0;
			for (uint32_t i = 1; i < n; i++) {
				const prim *q = &P[perm[i - 1]];
				grow_box(mn, mx, q->mn, q->mx);
				float l = harea(mn, mx) * (float)i;
				if (!(l < best))
					break;
				float r = harea(smn[i], smx[i]) * (float)(n - i);
				float c = l + r;
				if (c < best) {
					best = c;
					best_pos = i;
					better = 1;
				}
			}
			if (better)
				memcpy(best_ord, perm, n);
		}
	if (best_pos == 0)
		return 0;
	prim t[64];
	for (uint32_t i = 0; i < n; i++)
		t[i] = P[best_ord[i]];
	memcpy(B->p + b, t, (size_t)n * sizeof *B->p);
	*out_cost = best;
	return b + best_pos;
}

/* Every side of a split contains the boxes of its triangles, so
 * A(L)*N(L) + A(R)*N(R) >= the sum of the triangles' own box areas.  When
 * that sum already reaches `need` ((N-1)*A, the most a split may cost to
 * beat the leaf: C_inn*A + cost < N*A) no split can win and the sweep is
 * skipped.  The 1e-4 relative margin covers the rounding of both sides, so
 * the test never skips a split the sweep would take; NaN never skips. */
static int split_hopeless(const builder *B, uint32_t b, uint32_t e, float need)
{
	float lb = 0.0f;
	for (uint32_t i = b; i < e; i++)
		lb = lb + harea(B->p[i].mn, B->p[i].mx);
	float lbm = lb * (float)W3D_SAH_C_TRI;
	lbm = lbm * 0.9999f;
	return lbm >= need;
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
		float cost = 0.0f;
		task front = { t.begin, 0, t.depth + 1, idx, 0, { 0 }, { 0 }, { 0 }, { 0 } };
		task back = { 0, t.end, t.depth + 1, idx, 1, { 0 }, { 0 }, { 0 }, { 0 } };
		int have_bounds = 0;
		if (cnt <= B->leaf) {
			/* SAH termination below the leaf bound: split further only
			 * when C_inn*A + A(L)*N(L) + A(R)*N(R) < N*A (sah.h), and
			 * only when even a chain of 1-triangle splits keeps the
			 * depth bound. */
			float a = harea(t.mn, t.mx);
			float inner = a * (float)W3D_SAH_C_INNER;
			float leaf = a * (float)cnt;
			leaf = leaf * (float)W3D_SAH_C_TRI;
			if (B->sah_leaf && cnt >= 2 && cnt <= 64 &&
			    t.depth + cnt - 1 <= W3D_AABTREE_MAX_DEPTH &&
			    !split_hopeless(B, t.begin, t.end, leaf - inner))
				mid = choose_sweep(B, t.begin, t.end, &cost);
			float split = inner + cost * (float)W3D_SAH_C_TRI;
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
			if (choose_binned(B, t.begin, t.end, t.cmn, t.cmx, &axis, &plane)) {
				mid = partition_bins(B, t.begin, t.end, axis, plane, &front, &back);
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
	/* One scratch arena: prims, their copy, the median keys, the bins. */
	size_t np = (size_t)n * sizeof(prim);
	size_t nk = (size_t)n * sizeof(sort_key);
	void *arena = malloc(2 * np + nk + 4 * (size_t)n);
	/* every node is written (box, and both links or leaf fields) */
	out->nodes = malloc((2 * (size_t)n - 1) * sizeof *out->nodes);
	out->poly_indices = malloc((size_t)n * sizeof *out->poly_indices);
	if (!arena || !out->nodes || !out->poly_indices) {
		free(arena);
		w3d_aabtree_built_free(out);
		return W3D_AABTREE_NOMEM;
	}
	B.p = arena;
	B.tmp = B.p + n;
	B.keys = (sort_key *)(void *)(B.tmp + n);
	B.binidx = (uint8_t *)(B.keys + n);
#if AAB_SSE
	const __m128 vinf = _mm_setr_ps(INFINITY, INFINITY, INFINITY, 0.0f);
	const __m128 vninf = _mm_setr_ps(-INFINITY, -INFINITY, -INFINITY, 0.0f);
	const __m128 vhalf = _mm_set1_ps(0.5f);
	const __m128 vbig = _mm_set1_ps(FLT_MAX), vnbig = _mm_set1_ps(-FLT_MAX);
#endif
	for (uint32_t i = 0; i < n; i++) {
		prim *q = &B.p[i];
		const uint32_t *vi = vindex + 3 * (size_t)i;
#if AAB_SSE
		/* as the scalar code below, lane by lane: minps/maxps are
		 * `v < m ? v : m` and `v > m ? v : m` (NaN ignored); the
		 * centroid clamp max(c, -FLT_MAX), min(., FLT_MAX), NaN -> 0
		 * (cmpord mask) is sanitize() */
		const w3d_vec3 *v0 = &verts[vi[0]], *v1 = &verts[vi[1]], *v2 = &verts[vi[2]];
		__m128 p0 = _mm_setr_ps(v0->x, v0->y, v0->z, 0.0f);
		__m128 p1 = _mm_setr_ps(v1->x, v1->y, v1->z, 0.0f);
		__m128 p2 = _mm_setr_ps(v2->x, v2->y, v2->z, 0.0f);
		__m128 mn = _mm_min_ps(p0, vinf), mx = _mm_max_ps(p0, vninf);
		mn = _mm_min_ps(p1, mn);
		mx = _mm_max_ps(p1, mx);
		mn = _mm_min_ps(p2, mn);
		mx = _mm_max_ps(p2, mx);
		__m128 c = _mm_add_ps(_mm_mul_ps(vhalf, mn), _mm_mul_ps(vhalf, mx));
		__m128 ord = _mm_cmpord_ps(c, c);
		c = _mm_min_ps(_mm_max_ps(c, vnbig), vbig);
		c = _mm_and_ps(c, ord);
		_mm_storeu_ps(q->mn, mn);
		_mm_storeu_ps(q->mx, mx);
		_mm_storeu_ps(q->c, c);
#else
		box_empty(q->mn, q->mx);
		for (int k = 0; k < 3; k++) {
			const w3d_vec3 *v = &verts[vi[k]];
			float xyz[3] = { v->x, v->y, v->z };
			grow(q->mn, q->mx, xyz);
		}
		for (int a = 0; a < 3; a++) {
			float h1 = 0.5f * q->mn[a];
			float h2 = 0.5f * q->mx[a];
			q->c[a] = sanitize(h1 + h2);
		}
#endif
		PRIM_ID(q) = i;
	}
	build(&B, n, out);
	for (uint32_t i = 0; i < n; i++)
		out->poly_indices[i] = PRIM_ID(&B.p[i]);
	out->poly_count = n;
	free(arena);
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
