/*
 * fix_weights.c - fix-weights (unsafe): the bone weights of each vertex as
 * Luanti uses them at load (irr/src/SkinnedMesh.cpp: at most 4 weights per
 * vertex, the strongest, rescaled to sum 1), written back into the BONE
 * chunks, so the model looks the same in Luanti and every other reader gets
 * that skin.  Unsafe because Blitz3D and Assimp draw the weights as
 * stored, so the repair moves vertices there, and under Irrlicht 1.8.5 the
 * oracle (tests/oracle/compare.py) sees the repaired pose differ on some
 * corpus files.  Where every target rescales
 * (Luanti) the rules it repairs are off, so a target-dependent safety would
 * be safe only where it has nothing to do:
 *   b3d-weight-zero, b3d-weight-negative  the record is removed from its
 *                                          BONE (every reader drops it)
 *   b3d-weight-over-4                      the records after the 4 strongest
 *                                          of the vertex are removed (equal
 *                                          weights: the earlier in file order
 *                                          stays), and the 4 rescaled to 1
 *   b3d-weight-sum                         the vertex's weights are rescaled
 *                                          to sum 1 when their sum is more
 *                                          than the rule's tolerance from 1
 * (rules/b3d/skin.yaml.)  Vertices and sums are those of the rules
 * (lint/b3d/check_weights.c, core/b3d/skin_bind.h): a BONE binds to the
 * last MESH before it in file order, the BONEs of one MESH are consecutive
 * and one vertex's records are spread over them; the sums are computed
 * here, not read from the findings, which keep only the first
 * WL_FINDINGS_PER_RULE_MAX of a rule.  Records with a vertex id
 * outside the MESH or a weight that is not finite are other rules' and are
 * kept as they are, as are the bytes after the last whole record.
 */
#include "fixers.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "core/b3d/skin_bind.h"

/* One positive weight of the group being repaired. */
typedef struct entry {
	uint32_t vertex;
	float weight;
	size_t rec; /* index over the group's records (file order) */
} entry;

static int strongest_first(const void *a, const void *b)
{
	const entry *x = a, *y = b;
	if (x->vertex != y->vertex)
		return x->vertex < y->vertex ? -1 : 1;
	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return x->rec < y->rec ? -1 : x->rec > y->rec;
}

typedef struct group {
	const b3d_model *m;
	size_t first, end;   /* m->bones[first..end) */
	size_t records;      /* over them */
	uint64_t span;
	bool drop_zero, drop_neg, trim, rescale;
	double tolerance;     /* b3d-weight-sum's parameter */
	wl_rule_id note_rule; /* the first wanted rule: what the edits repair */
} group;

/* What happens to each record r: kept as it is (act[r] KEEP), removed
 * (DROP) or given weight w[r] (SET). */
enum { KEEP, DROP, SET };
typedef struct plan {
	uint8_t *act;
	float *w;
	double *sum; /* per vertex: its positive weights, summed in file order
	              * as b3d-weight-sum sums them (lint/b3d/check_weights.c) */
} plan;

/* Fills p for g; 0, or -1 out of memory. */
static int plan_group(const group *g, plan *p)
{
	entry *e = malloc((g->records ? g->records : 1) * sizeof *e);
	if (!e)
		return -1;
	size_t n = 0, rec = 0;
	for (size_t b = g->first; b < g->end; b++) {
		const b3d_bone *bo = g->m->bones[b];
		for (size_t i = 0; i < bo->weights.count; i++, rec++) {
			b3d_weight r = b3d_weight_at(bo, i);
			if (r.vertex < 0 || (uint64_t)r.vertex >= g->span || !isfinite(r.weight))
				continue;
			if (r.weight <= 0) {
				p->act[rec] = (r.weight == 0 ? g->drop_zero : g->drop_neg) ? DROP : KEEP;
				continue;
			}
			e[n++] = (entry){ (uint32_t)r.vertex, r.weight, rec };
			p->sum[r.vertex] += r.weight;
		}
	}
	qsort(e, n, sizeof *e, strongest_first);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && e[j].vertex == e[i].vertex; j++)
			;
		size_t kept = g->trim && j - i > 4 ? 4 : j - i;
		uint32_t v = e[i].vertex;
		/* every vertex the rule reports, not only the findings kept
		 * (a list keeps WL_FINDINGS_PER_RULE_MAX of a rule) */
		bool rescale = kept < j - i || (g->rescale && fabs(p->sum[v] - 1.0) > g->tolerance);
		for (size_t k = i + kept; k < j; k++)
			p->act[e[k].rec] = DROP;
		double sum = 0;
		for (size_t k = i; k < i + kept; k++)
			sum += e[k].weight;
		for (size_t k = i; rescale && sum > 0 && k < i + kept; k++) {
			p->act[e[k].rec] = SET;
			p->w[e[k].rec] = (float)(e[k].weight / sum);
		}
	}
	free(e);
	return 0;
}

/* Rewrites the BONE chunks of g whose records change. */
static int apply_plan(wl_doc *d, const group *g, const plan *p)
{
	size_t rec = 0;
	for (size_t b = g->first; b < g->end; b++) {
		const b3d_bone *bo = g->m->bones[b];
		const b3d_records *r = &bo->weights;
		size_t n = r->count, kept = 0, changed = 0, base = rec;
		rec += n;
		wl_chunk *c = wl_fix_mut(d, bo->src);
		size_t len;
		const uint8_t *cur = c ? wl_edit_payload(d, c, &len) : NULL;
		uint64_t at = r->offset - wl_chunk_payload_offset(bo->src);
		if (!cur || at > len || n * 8 > len - at)
			continue;
		uint8_t *out = wl_arena_alloc(d->arena, len);
		if (!out) {
			d->oom = true;
			return -1;
		}
		memcpy(out, cur, (size_t)at);
		size_t o = (size_t)at;
		for (size_t i = 0; i < n; i++) {
			const uint8_t *src = cur + at + 8 * i;
			if (p->act[base + i] == DROP) {
				changed++;
				continue;
			}
			memcpy(out + o, src, 8);
			if (p->act[base + i] == SET)
				wl_fix_put_f32(out + o + 4, p->w[base + i]);
			changed += memcmp(out + o, src, 8) != 0;
			o += 8;
			kept++;
		}
		size_t tail = len - (size_t)at - n * 8;
		memcpy(out + o, cur + at + n * 8, tail);
		if (!changed)
			continue;
		if (wl_edit_set_payload(d, c, out, o + tail) != 0)
			return -1;
		if (wl_edit_note(d, c, g->note_rule, r->offset,
				 "weights: %zu record(s) -> %zu (%zu changed or removed: non-positive, beyond the "
				 "4 strongest, rescaled to sum 1)",
				 n, kept, changed) != 0)
			return -1;
	}
	return 0;
}

static int repair_group(wl_doc *d, const group *g)
{
	plan p = { calloc(g->records + 1, sizeof *p.act), calloc(g->records + 1, sizeof *p.w),
		   calloc((size_t)g->span + 1, sizeof *p.sum) };
	int rc = -1;
	if (p.act && p.w && p.sum && plan_group(g, &p) == 0)
		rc = apply_plan(d, g, &p);
	if (rc != 0 && !d->oom)
		d->oom = true;
	free(p.act);
	free(p.w);
	free(p.sum);
	return rc;
}

static int apply(wl_fix_ctx *x)
{
	wl_doc *d = x->doc;
	const b3d_model *m = d->model;
	group g = { m, 0, 0, 0, 0, wl_fix_rule_wanted(x, WLR_B3D_WEIGHT_ZERO),
		    wl_fix_rule_wanted(x, WLR_B3D_WEIGHT_NEGATIVE), wl_fix_rule_wanted(x, WLR_B3D_WEIGHT_OVER_4),
		    wl_fix_rule_wanted(x, WLR_B3D_WEIGHT_SUM), WL_RULE_NONE };
	if (!m || !(g.drop_zero || g.drop_neg || g.trim || g.rescale))
		return 0;
	g.tolerance = wl_config_param(x->config, x->catalog, WLR_B3D_WEIGHT_SUM, "tolerance");
	g.note_rule = g.rescale ? WLR_B3D_WEIGHT_SUM
		      : g.trim   ? WLR_B3D_WEIGHT_OVER_4
		      : g.drop_neg ? WLR_B3D_WEIGHT_NEGATIVE
				   : WLR_B3D_WEIGHT_ZERO;
	for (size_t b = 0; b < m->bone_count; b = g.end) {
		const b3d_mesh *me = m->bones[b]->bind_irrlicht;
		g.first = b;
		g.records = 0;
		for (g.end = b; g.end < m->bone_count && m->bones[g.end]->bind_irrlicht == me; g.end++)
			g.records += m->bones[g.end]->weights.count;
		if (!me || !g.records)
			continue;
		g.span = b3d_irr_span(m, me);
		if (repair_group(d, &g) != 0)
			return -1;
	}
	return 0;
}

const wl_fixer b3d_fix_fix_weights = {
	"fix-weights", true,
	"drop non-positive bone weights, keep the 4 strongest per vertex and rescale them to sum 1 (as Luanti loads them)",
	apply
};
