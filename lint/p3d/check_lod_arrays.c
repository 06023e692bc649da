/* check_lod_arrays.c - the per-vertex arrays and float fields of each
 * walked ODOL LOD (checks.h), on the LOD's view (core/p3d/p3d_lodview.h).
 *   p3d-vertex-array-size a per-vertex array whose count is not the LOD's
 *                         vertex count (clip flags, UV sets, positions,
 *                         normals; ST coordinates and vertex bone refs
 *                         when present)
 *   p3d-not-finite        the bounds (once the named selections were
 *                         read), UV ranges, float UVs (below v45),
 *                         positions, float normals (below v45): one per
 *                         element, at the element in a raw block, at the
 *                         block in a compressed one
 *   p3d-rest-size         sizeOfRestData differs from what the LOD's table
 *                         end gives (core/p3d/p3d_lod.c) */
#include <stdio.h>

#include "checks.h"

static const wl_chunk *rest_node(const p3d_lodview *x)
{
	return x->rest ? x->rest : x->lod;
}

static void size(wl_lint_ctx *ctx, const p3d_lodview *x, const char *what, const p3d_array *a)
{
	if (!a->read || x->vertices == UINT32_MAX || a->n == x->vertices)
		return;
	wl_report(&ctx->doc->findings, WLR_P3D_VERTEX_ARRAY_SIZE, rest_node(x), -1, a->at, 4,
		  "the lod's %s array has %u entries but the lod has %u vertices", what,
		  (unsigned)a->n, (unsigned)x->vertices);
}

/* Each element (elem bytes of floats) of a kept array: its filled
 * element, or every element at its span. */
static void finite(wl_lint_ctx *ctx, const p3d_lodview *x, const char *what, const p3d_array *a,
		   uint32_t elem)
{
	if (!a->data || wl_p3d_all_finite(a->data, a->fill ? 1 : a->n, elem, elem / 4))
		return;
	if (a->fill) {
		wl_p3d_report_finite(ctx, rest_node(x), what, 0, a->bl.offset, elem, a->data, elem / 4);
		return;
	}
	for (uint32_t e = 0; e < a->n; e++) {
		uint64_t off, len;
		p3d_elem_span(&a->bl, x->v, e, elem, &off, &len);
		wl_p3d_report_finite(ctx, rest_node(x), what, e, off, len,
				     a->data + (uint64_t)elem * e, elem / 4);
	}
}

static void lod(wl_lint_ctx *ctx, const p3d_lodview *x, bool sizes, bool nan)
{
	const uint8_t *b = ctx->doc->bytes;
	if (nan && x->selections_read && x->bounds_off)
		for (uint32_t e = 0; e < 10; e++)
			wl_p3d_report_finite(ctx, x->head ? x->head : x->lod,
					     "bounding min, max, centre and radius", e,
					     x->bounds_off + 4ull * e, 4, b + x->bounds_off + 4ull * e, 1);
	if (sizes && x->v >= 50)
		size(ctx, x, "clip flags", &x->clip);
	uint32_t i = 0;
	for (const p3d_uvview *u = x->uvs; u; u = u->next, i++) {
		char what[40];
		snprintf(what, sizeof what, "uv set %u range", (unsigned)i);
		if (nan && u->range_off)
			wl_p3d_report_finite(ctx, rest_node(x), what, 0, u->range_off, 16,
					     b + u->range_off, 4);
		snprintf(what, sizeof what, "uv set %u uv", (unsigned)i);
		if (nan)
			finite(ctx, x, what, &u->uv, 8);
		if (sizes)
			size(ctx, x, what, &u->uv);
	}
	const p3d_array *p = &x->positions;
	bool pos_ok = !nan || !p->data || wl_p3d_all_finite(p->data, p->n, 12, 3);
	for (uint32_t e = 0; !pos_ok && e < p->n; e++)
		wl_p3d_report_finite(ctx, x->lod, "vertex position", e, p->bl.offset, p->bl.length,
				     p->data + 12ull * e, 3);
	if (sizes)
		size(ctx, x, "positions", p);
	if (nan)
		finite(ctx, x, "normal", &x->normals, x->v >= 45 ? 4 : 12);
	if (!sizes)
		return;
	size(ctx, x, "normals", &x->normals);
	if (x->st.n)
		size(ctx, x, "st coordinates", &x->st);
	if (x->bone_refs.n)
		size(ctx, x, "vertex bone refs", &x->bone_refs);
}

void p3d_check_lod_arrays(wl_lint_ctx *ctx)
{
	const p3d_model *m = ctx->model;
	if (!m || m->mlod || !m->in_file)
		return;
	bool sizes = wl_lint_enabled(ctx, WLR_P3D_VERTEX_ARRAY_SIZE);
	bool nan = wl_lint_enabled(ctx, WLR_P3D_NOT_FINITE);
	bool rest = wl_lint_enabled(ctx, WLR_P3D_REST_SIZE);
	for (uint32_t i = 0; i < m->n_lods; i++) {
		const p3d_lodview *x = m->in_file[i]->view;
		if (!x)
			continue;
		lod(ctx, x, sizes, nan);
		if (rest && x->rest_read && x->rest_size != x->rest_expect)
			wl_report(&ctx->doc->findings, WLR_P3D_REST_SIZE, x->lod, -1, x->rest_at, 4,
				  "the lod's sizeOfRestData is %u but the lod's end (0x%llx) gives %llu",
				  (unsigned)x->rest_size, (unsigned long long)wl_chunk_end(x->lod),
				  (unsigned long long)x->rest_expect);
	}
}
