/*
 * check_weights.c - bone weights per vertex (rules/b3d/skin.yaml).  Records
 * are bound to vertices the way Irrlicht and Luanti bind them (skin_bind.h);
 * records whose id falls outside that MESH are b3d-bone-vertex-out-of-range
 * (check_bone_ids.c) and are skipped here.  "Positive" means finite and
 * > 0: the weights Irrlicht (strength > 0) and Luanti (addWeight) keep.
 *
 *   per record (at its 8 bytes, element = record index):
 *   b3d-weight-not-finite        the weight is NaN or infinite
 *   b3d-weight-zero              the weight is 0 (off by default)
 *   b3d-weight-negative          the weight is below 0
 *   b3d-weight-duplicate-vertex  the record names a vertex that an earlier
 *                                record of the same BONE already gave a
 *                                positive weight (modlib's test)
 *   b3d-weight-unreferenced-vertex  the vertex is used by no triangle of the
 *                                MESH (any weight: Irrlicht checks the id
 *                                before the strength)
 *   per vertex (once, at the record named):
 *   b3d-weight-sum               the positive weights of a vertex differ
 *                                from 1 by more than `tolerance` (at the
 *                                vertex's first positive record)
 *   b3d-weight-over-4            a vertex has more than 4 positive weights
 *                                (at its 5th positive record: the vertex is
 *                                the defect, and the 5th is the first that
 *                                cannot have a slot)
 *   b3d-unweighted-vertex        a vertex used by a triangle of a skinned
 *                                MESH (one with at least one positive
 *                                weight) has no positive weight (at the
 *                                vertex's VRTS record)
 *
 * b3d_check_bones (check_bones.h) walks every BONE's records once for these
 * rules and those of check_bone_ids.c.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "check_bones.h"

/* What is known of one vertex of the MESH being checked (24 bytes: one
 * per vertex, zeroed per MESH).  Indices fit 32 bits: a file holds at
 * most WL_INPUT_MAX_BYTES (1 GiB), and a record at least 8 bytes. */
typedef struct vstate {
	double sum;          /* positive weights */
	uint32_t positive;   /* positive records */
	uint32_t seen_bone;  /* 1 + index of the last BONE that gave it a
	                        positive weight (duplicate test) */
	uint32_t first_bone; /* its first positive record: BONE index */
	uint32_t first_rec;  /* and record index */
} vstate;

typedef struct wctx {
	wl_lint_ctx *ctx;
	const b3d_model *m;
	const b3d_mesh *me;
	uint64_t span;
	const uint8_t *used;
	vstate *v;
	bool on_sum, on_over, on_unref, on_dup, on_zero, on_neg, on_nan, on_unweighted;
	bool on_oor, on_bind;
	bool weights;        /* some weight rule is on (v and used are needed) */
} wctx;

static void report_rec(const wctx *w, wl_rule_id rule, const b3d_bone *bo, size_t i, const char *fmt_tail,
		       int32_t vertex, float weight)
{
	wl_report(&w->ctx->doc->findings, rule, bo->src, (int64_t)i, b3d_record_offset(&bo->weights, i), 8,
		  "weight %zu of the BONE of NODE '%s' (vertex %" PRId32 " of MESH '%s', weight %g) %s", i,
		  b3d_node_label(bo->node), vertex, b3d_mesh_label(w->me), (double)weight, fmt_tail);
}

/* Record i (r, its vertex id inside w->me) of bone number bi. */
static void record(wctx *w, const b3d_bone *bo, size_t bi, size_t i, b3d_weight r)
{
	vstate *s = &w->v[r.vertex];
	if (w->on_unref && !b3d_bit(w->used, (uint64_t)r.vertex))
		report_rec(w, WLR_B3D_WEIGHT_UNREFERENCED_VERTEX, bo, i,
			   "is on a vertex no triangle of the MESH uses: Irrlicht and Luanti log \"Weight has "
			   "bad vertex id\" and drop it",
			   r.vertex, r.weight);
	/* Not positive and finite: zero (the common case in real files),
	 * negative, or NaN/infinite. */
	if (!(r.weight > 0 && r.weight <= FLT_MAX)) {
		if (r.weight == 0) {
			if (w->on_zero)
				report_rec(w, WLR_B3D_WEIGHT_ZERO, bo, i, "is zero: every reader drops it", r.vertex,
					   r.weight);
		} else if (r.weight < 0 && r.weight >= -FLT_MAX) {
			if (w->on_neg)
				report_rec(w, WLR_B3D_WEIGHT_NEGATIVE, bo, i,
					   "is negative: Irrlicht, Luanti and modlib drop it", r.vertex, r.weight);
		} else if (w->on_nan) {
			report_rec(w, WLR_B3D_WEIGHT_NOT_FINITE, bo, i, "is not a finite number", r.vertex,
				   r.weight);
		}
		return;
	}
	if (s->seen_bone == (uint32_t)(bi + 1) && w->on_dup)
		report_rec(w, WLR_B3D_WEIGHT_DUPLICATE_VERTEX, bo, i,
			   "names a vertex this BONE already weighted: modlib refuses the file (\"duplicate "
			   "vertex weight\"), Luanti applies both",
			   r.vertex, r.weight);
	s->seen_bone = (uint32_t)(bi + 1);
	if (s->positive == 0) {
		s->first_bone = (uint32_t)bi;
		s->first_rec = (uint32_t)i;
	}
	s->positive++;
	s->sum += r.weight;
	if (s->positive == 5 && w->on_over)
		report_rec(w, WLR_B3D_WEIGHT_OVER_4, bo, i,
			   "is the 5th positive weight of its vertex: Luanti keeps the 4 strongest, Assimp "
			   "the first 4",
			   r.vertex, r.weight);
}

static void per_vertex(wctx *w, double tol)
{
	const b3d_records *verts = w->me->vrts ? &w->me->vrts->verts : NULL;
	bool skinned = false;
	for (uint64_t v = 0; v < w->span && !skinned; v++)
		skinned = w->v[v].positive > 0;
	for (uint64_t v = 0; v < w->span; v++) {
		const vstate *s = &w->v[v];
		const b3d_bone *first = w->m->bones[s->first_bone];
		if (s->positive && w->on_sum && fabs(s->sum - 1.0) > tol)
			wl_report(&w->ctx->doc->findings, WLR_B3D_WEIGHT_SUM, first->src,
				  (int64_t)s->first_rec, b3d_record_offset(&first->weights, s->first_rec), 8,
				  "the %" PRIu32 " positive weight(s) of vertex %" PRIu64
				  " of MESH '%s' sum to %.6g, not 1 (tolerance %g): Luanti rescales them to 1, "
				  "Blitz3D and Assimp use them as they are",
				  s->positive, v, b3d_mesh_label(w->me), s->sum, tol);
		/* Only vertices of the first VRTS have a record to point at. */
		if (skinned && !s->positive && w->on_unweighted && b3d_bit(w->used, v) && verts &&
		    v < verts->count)
			wl_report(&w->ctx->doc->findings, WLR_B3D_UNWEIGHTED_VERTEX, verts->src, (int64_t)v,
				  b3d_record_offset(verts, (size_t)v), verts->size,
				  "vertex %" PRIu64 " of skinned MESH '%s' is used by a triangle but has no "
				  "positive bone weight: it stays where the bind pose puts it",
				  v, b3d_mesh_label(w->me));
	}
}

/* The BONEs bones[first..end) bound to w->me (NULL: no MESH before them;
 * Irrlicht binds a BONE to the last MESH before it, so in file order the
 * BONEs of one MESH are consecutive): one pass over their records. */
static void check_mesh(wctx *w, const b3d_model *m, size_t first, size_t end)
{
	bool any = false;
	for (size_t b = first; b < end && !any; b++)
		any = m->bones[b]->weights.count > 0;
	if (!any)
		return;
	if (w->on_bind)
		for (size_t b = first; b < end; b++)
			b3d_report_bone_binding(w->ctx, m->bones[b]);
	w->span = w->me ? b3d_irr_span(m, w->me) : 0;
	/* The weight rules stop at the first allocation failure, as a whole
	 * check would; the vertex ids are still checked. */
	bool weights = w->me && w->weights && !w->ctx->doc->findings.oom;
	uint8_t *used = NULL;
	w->v = NULL;
	if (weights) {
		w->v = calloc((size_t)w->span + 1, sizeof *w->v);
		used = b3d_used_vertices(w->me, w->span);
		w->used = used;
		if (!w->v || !used) {
			w->ctx->doc->findings.oom = 1;
			weights = false;
		}
	}
	for (size_t b = first; b < end; b++) {
		const b3d_bone *bo = m->bones[b];
		for (size_t i = 0; i < bo->weights.count; i++) {
			b3d_weight r = b3d_weight_at(bo, i);
			if (r.vertex < 0 || (uint64_t)r.vertex >= w->span) {
				if (w->on_oor)
					b3d_report_bone_vertex(w->ctx, bo, i, r.vertex, w->span);
			} else if (weights) {
				record(w, bo, b, i, r);
			}
		}
	}
	if (weights)
		per_vertex(w, wl_lint_param(w->ctx, WLR_B3D_WEIGHT_SUM, "tolerance"));
	free(w->v);
	free(used);
}

void b3d_check_bones(wl_lint_ctx *ctx)
{
	const b3d_model *m = ctx->model;
	wctx w = { .ctx = ctx, .m = m };
	w.on_oor = wl_lint_enabled(ctx, WLR_B3D_BONE_VERTEX_OUT_OF_RANGE);
	w.on_bind = wl_lint_enabled(ctx, WLR_B3D_BONE_BINDING_DIFFERS);
	w.on_sum = wl_lint_enabled(ctx, WLR_B3D_WEIGHT_SUM);
	w.on_over = wl_lint_enabled(ctx, WLR_B3D_WEIGHT_OVER_4);
	w.on_unref = wl_lint_enabled(ctx, WLR_B3D_WEIGHT_UNREFERENCED_VERTEX);
	w.on_dup = wl_lint_enabled(ctx, WLR_B3D_WEIGHT_DUPLICATE_VERTEX);
	w.on_zero = wl_lint_enabled(ctx, WLR_B3D_WEIGHT_ZERO);
	w.on_neg = wl_lint_enabled(ctx, WLR_B3D_WEIGHT_NEGATIVE);
	w.on_nan = wl_lint_enabled(ctx, WLR_B3D_WEIGHT_NOT_FINITE);
	w.on_unweighted = wl_lint_enabled(ctx, WLR_B3D_UNWEIGHTED_VERTEX);
	w.weights = w.on_sum || w.on_over || w.on_unref || w.on_dup || w.on_zero || w.on_neg || w.on_nan ||
		    w.on_unweighted;
	for (size_t b = 0, end; b < m->bone_count; b = end) {
		w.me = m->bones[b]->bind_irrlicht;
		for (end = b + 1; end < m->bone_count && m->bones[end]->bind_irrlicht == w.me; end++)
			;
		check_mesh(&w, m, b, end);
	}
}
