/* check_lods.c - the ODOL LOD address table (checks.h): where the reader
 * located it (core/p3d/p3d_odol.c), its LODs must not overlap, should tile
 * without gaps and are stored in descending resolution.
 *   p3d-lod-overlap  a LOD starts before the LOD stored before it ends
 *   p3d-lod-gap      bytes between two LODs that belong to neither
 *   p3d-lod-order    a LOD stored after one of lower resolution */
#include <stdlib.h>

#include "checks.h"

/* The LODs in file order (by start, then table index): n pointers. */
static int by_start(const void *a, const void *b)
{
	const p3d_lod *x = *(const p3d_lod *const *)a, *y = *(const p3d_lod *const *)b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x < y ? -1 : x > y ? 1 : 0;
}

void p3d_check_lods(wl_lint_ctx *ctx)
{
	const p3d_model *m = ctx->model;
	wl_doc *d = ctx->doc;
	if (!m || m->mlod || !m->table_found)
		return;
	uint32_t n = m->n_lods;
	const p3d_lod **o = wl_arena_array(d->arena, n, sizeof *o);
	if (!o)
		return;
	for (uint32_t i = 0; i < n; i++)
		o[i] = &m->lods[i];
	qsort(o, n, sizeof *o, by_start);
	const uint64_t starts = m->table_off, ends = m->table_off + 4ull * n;
	for (uint32_t k = 1; k < n; k++) {
		const p3d_lod *a = o[k - 1], *b = o[k];
		unsigned ia = (unsigned)(a - m->lods), ib = (unsigned)(b - m->lods);
		if (b->start < a->end)
			wl_report(&d->findings, WLR_P3D_LOD_OVERLAP, m->table, ib, starts + 4ull * ib, 4,
				  "lod %u starts at 0x%X, inside lod %u (0x%X to 0x%X)", ib,
				  (unsigned)b->start, ia, (unsigned)a->start, (unsigned)a->end);
		else if (b->start > a->end)
			wl_report(&d->findings, WLR_P3D_LOD_GAP, m->table, ia, ends + 4ull * ia, 4,
				  "lod %u ends at 0x%X but the next lod (%u) starts at 0x%X: %u bytes "
				  "belong to no lod",
				  ia, (unsigned)a->end, ib, (unsigned)b->start,
				  (unsigned)(b->start - a->end));
		if (b->resolution > a->resolution)
			wl_report(&d->findings, WLR_P3D_LOD_ORDER, m->table, ib, starts + 4ull * ib, 4,
				  "lod %u (resolution %g) is stored after lod %u (resolution %g): lods are "
				  "stored from the highest resolution value down",
				  ib, (double)b->resolution, ia, (double)a->resolution);
	}
}
