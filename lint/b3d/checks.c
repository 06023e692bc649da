/* checks.c - the registry of B3D checks, in the order they run (checks.h).
 * Add one line per check function. */
#include "checks.h"

#include "targets.h"
#include "xref.h"

void b3d_check_nodes(wl_lint_ctx *ctx);     /* check_nodes.c */
void b3d_check_materials(wl_lint_ctx *ctx); /* check_materials.c */
void b3d_check_mesh(wl_lint_ctx *ctx);      /* check_mesh.c */
void b3d_check_vertices(wl_lint_ctx *ctx);  /* check_vertices.c */
void b3d_check_bones(wl_lint_ctx *ctx);     /* check_weights.c, check_bone_ids.c */
void b3d_check_keys(wl_lint_ctx *ctx);
void b3d_check_anim(wl_lint_ctx *ctx);
void b3d_check_no_tris(wl_lint_ctx *ctx); /* check_no_tris.c */
void b3d_check_no_nodes(wl_lint_ctx *ctx); /* check_no_nodes.c */

static const wl_check_fn checks[] = {
	b3d_check_nodes,
	b3d_check_materials,
	b3d_check_mesh,
	b3d_check_vertices,
	b3d_check_bones,
	b3d_check_keys,
	b3d_check_anim,
	b3d_check_no_tris,
	b3d_check_no_nodes,
	NULL /* keep last: the list is NULL-terminated for easy appends */
};

const wl_check_fn *b3d_checks(size_t *out_count)
{
	*out_count = sizeof checks / sizeof checks[0] - 1;
	return checks;
}

/* The lint part of the format (lint/registry.h), registered in
 * lint/registry.c. */
const wl_lint_format b3d_lint_format = {
	.format = "b3d",
	.checks = b3d_checks,
	.xref = &b3d_xref_ops,
	.targets = b3d_targets,
	.target_aliases = b3d_target_aliases,
	.layout = b3d_layout,
	.auto_targets = b3d_auto_targets,
};
