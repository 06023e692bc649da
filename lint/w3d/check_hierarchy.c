/*
 * check_hierarchy.c - rules about HIERARCHY objects (HTree):
 *
 *   hierarchy-header-missing       no HIERARCHY_HEADER (A5)
 *   hierarchy-header-not-first     HIERARCHY_HEADER is not the first sub-chunk (A5)
 *   pivot-count-mismatch           header NumPivots != PIVOTS elements (E1)
 *   hierarchy-no-pivots            NumPivots 0 and no pivot record (version
 *                                  3.0 or later; REN htree.cpp Load_W3D,
 *                                  read_pivots and Base_Update use Pivot[0])
 *   pivot-fixup-count-mismatch     PIVOT_FIXUPS elements != NumPivots (E9)
 *   pivot-parent-out-of-range      ParentIdx >= pivot count and not 0xFFFFFFFF (E3)
 *   pivot-parent-order             ParentIdx not lower than the pivot's index (E3)
 *   pivot-root-not-first           pivot 0 is not the root (E2)
 *   pivot-multiple-roots           more than one pivot has ParentIdx 0xFFFFFFFF (E2)
 *   quaternion-not-normalized      |rotation| differs from 1 by more than
 *                                  the rule's `tolerance` (E4)
 *   quaternion-not-finite          a rotation component is NaN or infinite (E4)
 *   translation-not-finite         a translation component is NaN or infinite (E8)
 *
 * Offsets: pivot i is at PIVOTS payload + 60*i; ParentIdx at +16,
 * Translation at +20, Rotation at +44 (notes/w3d_reference.md §2.3).
 */
#include <math.h>

#include "checks.h"
#include "core/vec.h"

void w3d_check_hierarchy(wl_lint_ctx *ctx);

#define QUAT_TOL_DEFAULT 0.001

static void check_headers(wl_lint_ctx *ctx, const w3d_hierarchy *h)
{
	wl_findings *f = &ctx->doc->findings;
	const wl_chunk *c = h->src;
	if (!h->header) {
		wl_report(f, WLR_HIERARCHY_HEADER_MISSING, c, -1, c->offset, c->header_size,
			  "hierarchy has no hierarchy_header chunk; the engine rejects it");
		return;
	}
	if (!h->header_first) {
		const wl_chunk *k = c->first_child;
		while (k && k->kind != WL_NODE_CHUNK)
			k = k->next;
		if (k)
			wl_report(f, WLR_HIERARCHY_HEADER_NOT_FIRST, k, -1, k->offset, k->header_size + k->size,
				  "hierarchy '%s' starts with %s, not hierarchy_header", h->name,
				  wl_chunk_name(ctx->doc, k));
	}
}

static void check_counts(wl_lint_ctx *ctx, const w3d_hierarchy *h)
{
	wl_findings *f = &ctx->doc->findings;
	if (!h->header_ok)
		return;
	uint64_t field = wl_chunk_payload_offset(h->header) + 20;
	/* Below version 3.0 the engine adds a root pivot itself. */
	if (h->num_pivots == 0 && h->pivot_count == 0 && h->version >= 0x00030000u)
		wl_report(f, WLR_HIERARCHY_NO_PIVOTS, h->header, -1, field, 4,
			  "hierarchy '%s' has no pivot (NumPivots 0): the engine uses pivot 0, the root, "
			  "of every hierarchy", h->name);
	if (h->num_pivots != h->pivot_count)
		wl_report(f, WLR_PIVOT_COUNT_MISMATCH, h->header, -1, field, 4,
			  "hierarchy '%s' header says %u pivots but the pivots chunk holds %zu", h->name,
			  (unsigned)h->num_pivots, h->pivot_count);
	if (h->fixups_chunk && h->fixup_count != h->num_pivots)
		wl_report(f, WLR_PIVOT_FIXUP_COUNT_MISMATCH, h->fixups_chunk, -1,
			  wl_chunk_payload_offset(h->fixups_chunk), h->fixups_chunk->size,
			  "hierarchy '%s' has %zu pivot fixups for %u pivots", h->name, h->fixup_count,
			  (unsigned)h->num_pivots);
}

static void check_parents(wl_lint_ctx *ctx, const w3d_hierarchy *h)
{
	wl_findings *f = &ctx->doc->findings;
	const wl_chunk *pc = h->pivots_chunk;
	size_t n = h->pivot_count;
	if (!pc || n == 0)
		return;
	uint64_t base = wl_chunk_payload_offset(pc);
	size_t first_root = SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		if (h->pivots[i].parent == W3D_PIVOT_NO_PARENT) {
			first_root = i;
			break;
		}
	for (size_t i = 0; i < n; i++) {
		const w3d_pivot *p = &h->pivots[i];
		uint64_t off = base + (uint64_t)i * W3D_PIVOT_SIZE + W3D_PIVOT_PARENT_OFFSET;
		if (p->parent == W3D_PIVOT_NO_PARENT) {
			if (i != first_root)
				wl_report(f, WLR_PIVOT_MULTIPLE_ROOTS, pc, (int64_t)i, off, 4,
					  "pivot %zu '%s' is a second root (parent 0xffffffff); the first root is pivot %zu",
					  i, p->name, first_root);
			continue;
		}
		if (i == 0) {
			if (first_root != SIZE_MAX)
				wl_report(f, WLR_PIVOT_ROOT_NOT_FIRST, pc, 0, off, 4,
					  "pivot 0 '%s' has parent %u; the root is pivot %zu, not pivot 0",
					  p->name, (unsigned)p->parent, first_root);
			else
				wl_report(f, WLR_PIVOT_ROOT_NOT_FIRST, pc, 0, off, 4,
					  "pivot 0 '%s' has parent %u and no pivot is a root (parent 0xffffffff)",
					  p->name, (unsigned)p->parent);
			continue;
		}
		if (p->parent >= n)
			wl_report(f, WLR_PIVOT_PARENT_OUT_OF_RANGE, pc, (int64_t)i, off, 4,
				  "pivot %zu '%s' has parent %u, but the hierarchy has only %zu pivots", i,
				  p->name, (unsigned)p->parent, n);
		else if (p->parent >= i)
			wl_report(f, WLR_PIVOT_PARENT_ORDER, pc, (int64_t)i, off, 4,
				  "pivot %zu '%s' has parent %u, not lower than %zu", i, p->name,
				  (unsigned)p->parent, i);
	}
}

static void check_transforms(wl_lint_ctx *ctx, const w3d_hierarchy *h)
{
	wl_findings *f = &ctx->doc->findings;
	const wl_chunk *pc = h->pivots_chunk;
	if (!pc)
		return;
	double tol = wl_lint_param(ctx, WLR_QUATERNION_NOT_NORMALIZED, "tolerance");
	uint64_t base = wl_chunk_payload_offset(pc);
	for (size_t i = 0; i < h->pivot_count; i++) {
		const w3d_pivot *p = &h->pivots[i];
		uint64_t off = base + (uint64_t)i * W3D_PIVOT_SIZE;
		const float *t = p->translation, *q = p->rotation;
		if (!isfinite(t[0]) || !isfinite(t[1]) || !isfinite(t[2]))
			wl_report(f, WLR_TRANSLATION_NOT_FINITE, pc, (int64_t)i, off + 20, 12,
				  "pivot %zu '%s' translation (%g, %g, %g) is not finite", i, p->name,
				  (double)t[0], (double)t[1], (double)t[2]);
		if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2]) || !isfinite(q[3])) {
			wl_report(f, WLR_QUATERNION_NOT_FINITE, pc, (int64_t)i, off + W3D_PIVOT_ROTATION_OFFSET, 16,
				  "pivot %zu '%s' rotation (%g, %g, %g, %g) is not finite", i, p->name,
				  (double)q[0], (double)q[1], (double)q[2], (double)q[3]);
			continue;
		}
		double norm = wl_q4_len(q);
		if (fabs(norm - 1.0) > tol)
			wl_report(f, WLR_QUATERNION_NOT_NORMALIZED, pc, (int64_t)i, off + W3D_PIVOT_ROTATION_OFFSET, 16,
				  "pivot %zu '%s' rotation (%g, %g, %g, %g) has length %.6g, not 1", i,
				  p->name, (double)q[0], (double)q[1], (double)q[2], (double)q[3], norm);
	}
}

void w3d_check_hierarchy(wl_lint_ctx *ctx)
{
	const w3d_model *m = ctx->model;
	if (!m)
		return;
	for (size_t i = 0; i < m->hierarchy_count; i++) {
		const w3d_hierarchy *h = m->hierarchies[i];
		check_headers(ctx, h);
		check_counts(ctx, h);
		check_parents(ctx, h);
		check_transforms(ctx, h);
	}
}
