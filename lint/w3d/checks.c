/* checks.c - the registry of W3D checks (see checks.h). */
#include "checks.h"

#include "custom_fields.h"
#include "targets.h"
#include "xref.h"

void w3d_check_mesh(wl_lint_ctx *ctx);      /* check_mesh.c */
void w3d_check_aabtree(wl_lint_ctx *ctx);   /* check_aabtree.c */
void w3d_check_hierarchy(wl_lint_ctx *ctx); /* check_hierarchy.c */
void w3d_check_animation(wl_lint_ctx *ctx); /* check_animation.c */
void w3d_check_hlod(wl_lint_ctx *ctx);      /* check_hlod.c */
void w3d_check_geometry(wl_lint_ctx *ctx);  /* check_geometry.c */
void w3d_check_materials(wl_lint_ctx *ctx);  /* check_materials.c */
void w3d_check_mesh_flags(wl_lint_ctx *ctx); /* check_mesh_flags.c */
void w3d_check_skin(wl_lint_ctx *ctx);       /* check_skin.c */
void w3d_check_pivots(wl_lint_ctx *ctx);     /* check_pivots.c */
void w3d_check_channels(wl_lint_ctx *ctx);   /* check_channels.c */
void w3d_check_hlod_lods(wl_lint_ctx *ctx);  /* check_hlod_lods.c */
void w3d_check_objects(wl_lint_ctx *ctx);    /* check_objects.c */
void w3d_check_strings(wl_lint_ctx *ctx);    /* check_strings.c */
void w3d_check_pivot_euler(wl_lint_ctx *ctx); /* check_pivot_euler.c */
void w3d_check_anim_loop(wl_lint_ctx *ctx);  /* check_anim_loop.c */
void w3d_check_dialect(wl_lint_ctx *ctx);    /* check_dialect.c */

static const wl_check_fn checks[] = {
	w3d_check_mesh,
	w3d_check_aabtree,
	w3d_check_hierarchy,
	w3d_check_animation,
	w3d_check_hlod,
	w3d_check_geometry,
	w3d_check_materials,
	w3d_check_mesh_flags,
	w3d_check_skin,
	w3d_check_pivots,
	w3d_check_channels,
	w3d_check_hlod_lods,
	w3d_check_objects,
	w3d_check_strings,
	w3d_check_pivot_euler,
	w3d_check_anim_loop,
	w3d_check_dialect,
};

const wl_check_fn *w3d_checks(size_t *out_count)
{
	*out_count = sizeof checks / sizeof checks[0];
	return checks;
}

/* The lint part of the format (lint/registry.h), registered in
 * lint/registry.c. */
const wl_lint_format w3d_lint_format = {
	.format = "w3d",
	.checks = w3d_checks,
	.fields = w3d_custom_fields,
	.field_count = W3D_CUSTOM_FIELD_COUNT,
	.custom_eval = w3d_custom_eval,
	.xref = &w3d_xref_ops,
	.targets = w3d_targets,
	.target_aliases = w3d_target_aliases,
	.layout = w3d_layout,
	.target_of = w3d_target_of,
};
