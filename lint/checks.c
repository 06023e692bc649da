/* checks.c - the registry of W3D checks (see checks.h). */
#include "checks.h"

void w3d_check_mesh(wl_lint_ctx *ctx);      /* check_mesh.c */
void w3d_check_aabtree(wl_lint_ctx *ctx);   /* check_aabtree.c */
void w3d_check_hierarchy(wl_lint_ctx *ctx); /* check_hierarchy.c */
void w3d_check_animation(wl_lint_ctx *ctx); /* check_animation.c */
void w3d_check_hlod(wl_lint_ctx *ctx);      /* check_hlod.c */

static const wl_check_fn checks[] = {
	w3d_check_mesh,
	w3d_check_aabtree,
	w3d_check_hierarchy,
	w3d_check_animation,
	w3d_check_hlod,
};

const wl_check_fn *wl_w3d_checks(size_t *out_count)
{
	*out_count = sizeof checks / sizeof checks[0];
	return checks;
}
