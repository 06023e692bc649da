/* check_info.c - ODOL ModelInfo, its skeleton and the animations, as the
 * reader's walk recorded them (core/p3d/p3d_info.c; checks.h).  Run only
 * where that walk landed on the LOD table (p3d_model.info_walked).
 *   p3d-not-finite       a ModelInfo float field with a NaN or infinite
 *                        component (one finding per field)
 *   p3d-skeleton-parent  a bone whose non-empty parent names no bone of
 *                        the skeleton (compared without letter case, as
 *                        the engine's names are)
 *   p3d-animation-bone   an animation's bone index outside the skeleton
 *                        (-1: the class moves no bone of that LOD) */
#include <stdlib.h>
#include <string.h>

#include "checks.h"

static int name_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = (unsigned char)*a, y = (unsigned char)*b;
		x += (x >= 'A' && x <= 'Z') ? 32 : 0;
		y += (y >= 'A' && y <= 'Z') ? 32 : 0;
		if (x != y || !x)
			return x - y;
	}
}

static int ptr_cmp(const void *a, const void *b)
{
	return name_cmp(*(const char *const *)a, *(const char *const *)b);
}

static void floats(wl_lint_ctx *ctx, const p3d_model *m)
{
	wl_doc *d = ctx->doc;
	for (uint32_t i = 0; i < m->n_info_floats; i++) {
		const p3d_infofloat *f = &m->info_floats[i];
		float v;
		int k = wl_p3d_nonfinite(d->bytes + f->at, f->k, &v);
		if (k >= 0)
			wl_report(&d->findings, WLR_P3D_NOT_FINITE, f->node, -1, f->at, 4ull * f->k,
				  "ModelInfo's %s at 0x%llx has a non-finite component %d (%g)", f->what,
				  (unsigned long long)f->at, k, (double)v);
	}
}

static void parents(wl_lint_ctx *ctx, const p3d_model *m)
{
	wl_doc *d = ctx->doc;
	uint32_t n = m->n_skeleton_bones;
	if (!m->bone_names || !n)
		return;
	const char **sorted = malloc(n * sizeof *sorted);
	if (!sorted) {
		d->oom = true;
		return;
	}
	memcpy(sorted, m->bone_names, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, ptr_cmp);
	for (uint32_t i = 0; i < n; i++) {
		const char *p = m->bone_parents[i];
		if (!p[0] || bsearch(&p, sorted, n, sizeof *sorted, ptr_cmp))
			continue;
		wl_report(&d->findings, WLR_P3D_SKELETON_PARENT, m->skeleton_node, i, m->bone_parent_at[i],
			  strlen(p) + 1,
			  "skeleton bone %u (\"%.64s\") has parent \"%.64s\", which is no bone of the "
			  "skeleton",
			  (unsigned)i, m->bone_names[i], p);
	}
	free(sorted);
}

static void anim_bones(wl_lint_ctx *ctx, const p3d_model *m)
{
	for (uint32_t i = 0; i < m->n_anim_bones; i++) {
		const p3d_animbone *a = &m->anim_bones[i];
		if (a->bone == -1 || (a->bone >= 0 && (uint32_t)a->bone < m->n_skeleton_bones))
			continue;
		wl_report(&ctx->doc->findings, WLR_P3D_ANIMATION_BONE, m->anims_node, a->cls, a->at, 4,
			  "animation class %u uses bone %d in lod %u, but the skeleton has %u bones",
			  (unsigned)a->cls, (int)a->bone, (unsigned)a->lod,
			  (unsigned)m->n_skeleton_bones);
	}
}

void p3d_check_info(wl_lint_ctx *ctx)
{
	const p3d_model *m = ctx->model;
	if (!m || m->mlod || !m->info_walked)
		return;
	if (wl_lint_enabled(ctx, WLR_P3D_NOT_FINITE))
		floats(ctx, m);
	if (wl_lint_enabled(ctx, WLR_P3D_SKELETON_PARENT))
		parents(ctx, m);
	if (wl_lint_enabled(ctx, WLR_P3D_ANIMATION_BONE))
		anim_bones(ctx, m);
}
