/* check_mlod.c - the points, normals and faces of each MLOD LOD the reader
 * walked (checks.h; layout in core/p3d/p3d.h and p3d_mlod.c), read
 * through the cursor.
 *   p3d-face-vertex-count  a face with a vertex count other than 3 or 4
 *   p3d-face-index         a face's point or normal index >= its count
 *   p3d-not-finite         NaN or infinity in a point, normal or UV */
#include "checks.h"

/* n records of stride bytes from node's start: their first 3 floats. */
static void vectors(wl_lint_ctx *ctx, const wl_chunk *node, uint32_t n, uint32_t stride,
		    const char *what)
{
	const uint8_t *b = ctx->doc->bytes;
	if (!node || wl_p3d_all_finite(b + node->offset, n, stride, 3))
		return;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t at = node->offset + (uint64_t)stride * i;
		wl_p3d_report_finite(ctx, node, what, i, at, 12, b + at, 3);
	}
}

static void faces(wl_lint_ctx *ctx, const p3d_lod *l, bool counts, bool index, bool nan)
{
	wl_doc *d = ctx->doc;
	for (uint32_t i = 0; l->face_off && i < l->n_faces; i++) {
		uint64_t at = l->face_off[i] + (l->sp3x ? 32 : 0);
		wl_cursor c = wl_cursor_make(d->bytes + at, 72, at);
		uint32_t nv = wl_cursor_u32(&c);
		if (nv != 3 && nv != 4) {
			if (counts)
				wl_report(&d->findings, WLR_P3D_FACE_VERTEX_COUNT, l->faces, i, at, 4,
					  "face %u has %u vertices: a face has 3 or 4", (unsigned)i,
					  (unsigned)nv);
			continue;
		}
		for (uint32_t k = 0; k < nv; k++) {
			uint64_t v = wl_cursor_offset(&c);
			uint32_t pi = wl_cursor_u32(&c), ni = wl_cursor_u32(&c);
			wl_cursor_skip(&c, 8);
			if (index && pi >= l->n_points)
				wl_report(&d->findings, WLR_P3D_FACE_INDEX, l->faces, i, v, 4,
					  "face %u vertex %u uses point %u of %u", (unsigned)i,
					  (unsigned)k, (unsigned)pi, (unsigned)l->n_points);
			if (index && ni >= l->n_normals)
				wl_report(&d->findings, WLR_P3D_FACE_INDEX, l->faces, i, v + 4, 4,
					  "face %u vertex %u uses normal %u of %u", (unsigned)i,
					  (unsigned)k, (unsigned)ni, (unsigned)l->n_normals);
			if (nan)
				wl_p3d_report_finite(ctx, l->faces, "face uv of face", i, v + 8, 8,
						     d->bytes + v + 8, 2);
		}
	}
}

void p3d_check_mlod(wl_lint_ctx *ctx)
{
	const p3d_model *m = ctx->model;
	if (!m || !m->mlod || !m->lods)
		return;
	bool counts = wl_lint_enabled(ctx, WLR_P3D_FACE_VERTEX_COUNT);
	bool index = wl_lint_enabled(ctx, WLR_P3D_FACE_INDEX);
	bool nan = wl_lint_enabled(ctx, WLR_P3D_NOT_FINITE);
	for (uint32_t i = 0; i < m->n_res; i++) {
		const p3d_lod *l = &m->lods[i];
		if (nan) {
			vectors(ctx, l->points, l->n_points, 16, "point");
			vectors(ctx, l->normals, l->n_normals, 12, "normal");
		}
		faces(ctx, l, counts, index, nan);
	}
}
