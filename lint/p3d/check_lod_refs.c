/* check_lod_refs.c - the indices inside each walked ODOL LOD that refer to
 * its other parts or to the skeleton (checks.h), on the LOD's view
 * (core/p3d/p3d_lodview.h: layout and sources).  Every finding is one
 * defective element at its bytes; for an element inside a compressed
 * block, at the block, with the element's index in the message.
 *   p3d-selection-index   a named selection's face, section or vertex
 *                         index past the LOD's count
 *   p3d-selection-weights a selection's weights that are not one per
 *                         selected vertex
 *   p3d-proxy-index       a proxy's named selection, bone or section index
 *                         past the LOD's count
 *   p3d-bone-index        a subskeleton bone past the skeleton, a
 *                         skeleton-to-subskeleton link or a vertex bone
 *                         reference past the subskeleton
 *   p3d-bone-links-count  a skeleton-to-subskeleton table without one
 *                         entry per skeleton bone
 * The proxies and the subskeleton are checked once the named selections
 * were read (the proxies name them). */
#include "checks.h"

typedef struct rc {
	wl_lint_ctx *ctx;
	const p3d_model *m;
	const p3d_lodview *x;
	bool bones;            /* p3d-bone-index is on */
} rc;

static const wl_chunk *rest_node(const p3d_lodview *x)
{
	return x->rest ? x->rest : x->lod;
}

static const wl_chunk *head_node(const p3d_lodview *x)
{
	return x->head ? x->head : x->lod;
}

/* Selection s's index array a (what: "faces", "sections" (i32),
 * "vertices") against limit. */
static void sel_array(rc *r, uint32_t s, const char *what, const p3d_array *a, uint32_t elem,
		      uint32_t limit)
{
	if (!a->data || limit == UINT32_MAX)
		return;
	bool sign = what[0] == 's';
	wl_cursor c = wl_cursor_make(a->data, (size_t)a->n * elem, 0);
	for (uint32_t j = 0; j < a->n; j++) {
		uint32_t val = elem == 4 ? wl_cursor_u32(&c) : wl_cursor_u16(&c);
		if (sign ? (int32_t)val >= 0 && val < limit : val < limit)
			continue;
		uint64_t off, len;
		p3d_elem_span(&a->bl, r->x->v, j, elem, &off, &len);
		wl_report(&r->ctx->doc->findings, WLR_P3D_SELECTION_INDEX, rest_node(r->x), s, off, len,
			  "named selection %u's %s entry %u is %lld but the lod has %u %s", (unsigned)s,
			  what, (unsigned)j, sign ? (long long)(int32_t)val : (long long)val,
			  (unsigned)limit, what);
	}
}

static void selections(rc *r)
{
	const p3d_lodview *x = r->x;
	bool index = wl_lint_enabled(r->ctx, WLR_P3D_SELECTION_INDEX);
	bool weights = wl_lint_enabled(r->ctx, WLR_P3D_SELECTION_WEIGHTS);
	uint32_t isz = x->v >= 69 ? 4 : 2, s = 0;
	for (const p3d_selview *v = x->sels; v; v = v->next, s++) {
		if (index) {
			sel_array(r, s, "faces", &v->faces, isz, x->n_faces);
			sel_array(r, s, "sections", &v->sections, 4, x->n_sections);
			sel_array(r, s, "vertices", &v->vertices, isz, x->vertices);
		}
		uint32_t n = v->weights.n;
		if (weights && v->weights.read && n && n != v->vertices.n)
			wl_report(&r->ctx->doc->findings, WLR_P3D_SELECTION_WEIGHTS, rest_node(x), s,
				  v->weights.at, 4, "named selection %u has %u weights for its %u vertices",
				  (unsigned)s, (unsigned)n, (unsigned)v->vertices.n);
	}
}

/* A signed index that must be -1 (when none is allowed) or below n. */
static bool index_ok(int32_t v, uint32_t n, bool none)
{
	return (none && v == -1) || (v >= 0 && (uint32_t)v < n);
}

static void proxy(rc *r, uint32_t i)
{
	const p3d_lodview *x = r->x;
	const p3d_proxyrec *p = &x->proxies[i];
	wl_findings *f = &r->ctx->doc->findings;
	if (!index_ok(p->sel, x->n_selections, false))
		wl_report(f, WLR_P3D_PROXY_INDEX, head_node(x), i, p->off, 4,
			  "proxy %u names selection %d but the lod has %u named selections",
			  (unsigned)i, (int)p->sel, (unsigned)x->n_selections);
	/* A skeleton bone, not a subskeleton one: real Arma 2 vehicles (suv,
	 * man_hero) bind proxies to bones past their LOD's subskeleton. */
	if (r->m->skeleton_read && !index_ok(p->bone, r->m->n_skeleton_bones, true))
		wl_report(f, WLR_P3D_PROXY_INDEX, head_node(x), i, p->off + 4, 4,
			  "proxy %u is bound to bone %d but the skeleton has %u bones (-1: none)",
			  (unsigned)i, (int)p->bone, (unsigned)r->m->n_skeleton_bones);
	if (x->v >= 40 && !index_ok(p->section, x->n_sections, true))
		wl_report(f, WLR_P3D_PROXY_INDEX, head_node(x), i, p->off + 8, 4,
			  "proxy %u is in section %d but the lod has %u sections", (unsigned)i,
			  (int)p->section, (unsigned)x->n_sections);
}

/* SubSkeletonsToSkeleton (items) and SkeletonToSubSkeleton (links). */
static void subskeleton(rc *r)
{
	const p3d_model *m = r->m;
	const p3d_lodview *x = r->x;
	wl_doc *d = r->ctx->doc;
	wl_cursor c = wl_cursor_make(d->bytes + x->items_off, 4ull * x->n_items, x->items_off);
	for (uint32_t k = 0; r->bones && m->skeleton_read && k < x->n_items; k++) {
		uint64_t at = wl_cursor_offset(&c);
		uint32_t bone = wl_cursor_u32(&c);
		if (bone >= m->n_skeleton_bones)
			wl_report(&d->findings, WLR_P3D_BONE_INDEX, head_node(x), k, at, 4,
				  "subskeleton bone %u is skeleton bone %u but the skeleton has %u bones",
				  (unsigned)k, (unsigned)bone, (unsigned)m->n_skeleton_bones);
	}
	/* SkeletonToSubSkeleton has one entry per skeleton bone (so in every
	 * corpus LOD whose skeleton was read); the engine indexes it by
	 * skeleton bone.  A LOD with no subskeleton at all (no entry either
	 * way) is not animated and is left alone. */
	if (m->skeleton_read && x->n_links != m->n_skeleton_bones && (x->n_links || x->n_items) &&
	    wl_lint_enabled(r->ctx, WLR_P3D_BONE_LINKS_COUNT))
		wl_report(&d->findings, WLR_P3D_BONE_LINKS_COUNT, head_node(x), -1, x->links_off, 4,
			  "the lod's skeleton-to-subskeleton table has %u entries but the skeleton has "
			  "%u bones", (unsigned)x->n_links, (unsigned)m->n_skeleton_bones);
	if (!r->bones || !x->n_links)
		return;
	c = wl_cursor_make(d->bytes, (size_t)d->size, 0);
	c.pos = (size_t)x->links_off + 4;
	for (uint32_t i = 0; i < x->n_links; i++) {
		uint32_t n = wl_cursor_u32(&c);
		for (uint32_t k = 0; k < n; k++) {
			uint64_t at = wl_cursor_offset(&c);
			uint32_t sub = wl_cursor_u32(&c);
			if (sub >= x->n_items)
				wl_report(&d->findings, WLR_P3D_BONE_INDEX, head_node(x), i, at, 4,
					  "skeleton bone %u links to subskeleton bone %u but the "
					  "subskeleton has %u bones",
					  (unsigned)i, (unsigned)sub, (unsigned)x->n_items);
		}
	}
}

/* The AnimationRTWeight of element e at rt: i32 n; {u8 bone, weight}[4]. */
static void rt_weight(rc *r, const uint8_t *rt, uint32_t e, const p3d_array *a, uint32_t elem,
		      const char *what)
{
	wl_cursor c = wl_cursor_make(rt, 12, 0);
	int32_t n = (int32_t)wl_cursor_u32(&c);
	for (int32_t k = 0; k < n && k < 4; k++) {
		uint32_t bone = wl_cursor_u8(&c);
		wl_cursor_skip(&c, 1);
		if (bone < r->x->n_items)
			continue;
		uint64_t off, len;
		p3d_elem_span(&a->bl, r->x->v, e, elem, &off, &len);
		wl_report(&r->ctx->doc->findings, WLR_P3D_BONE_INDEX, rest_node(r->x), e, off, len,
			  "%s %u weight %d uses subskeleton bone %u but the subskeleton has %u bones",
			  what, (unsigned)e, (int)k, (unsigned)bone, (unsigned)r->x->n_items);
	}
}

/* Vertex bone refs (12 bytes) and neighbour refs (32: two refs at +4 and
 * +20). */
static void bone_refs(rc *r, const p3d_array *a, uint32_t elem)
{
	for (uint32_t e = 0; a->data && e < a->n; e++) {
		const uint8_t *p = a->data + (uint64_t)elem * e;
		if (elem == 12) {
			rt_weight(r, p, e, a, elem, "vertex bone ref");
		} else {
			rt_weight(r, p + 4, e, a, elem, "neighbour bone ref (a)");
			rt_weight(r, p + 20, e, a, elem, "neighbour bone ref (b)");
		}
	}
}

void p3d_check_lod_refs(wl_lint_ctx *ctx)
{
	const p3d_model *m = ctx->model;
	if (!m || m->mlod || !m->in_file)
		return;
	bool proxies = wl_lint_enabled(ctx, WLR_P3D_PROXY_INDEX);
	for (uint32_t i = 0; i < m->n_lods; i++) {
		rc r = { ctx, m, m->in_file[i]->view, wl_lint_enabled(ctx, WLR_P3D_BONE_INDEX) };
		if (!r.x)
			continue;
		selections(&r);
		if (r.x->selections_read) {
			for (uint32_t p = 0; proxies && p < r.x->n_proxies; p++)
				proxy(&r, p);
			subskeleton(&r);
		}
		if (r.bones) {
			bone_refs(&r, &r.x->bone_refs, 12);
			bone_refs(&r, &r.x->neighbours, 32);
		}
	}
}
