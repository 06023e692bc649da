/* checks.c - the lint part of P3D (lint/registry.h): its targets, cross-file
 * index.  Its checks are the functions the catalogue names (a rule's
 * `check: NAME` runs p3d_check_NAME of lint/p3d/check_NAME.c), wired at
 * build time by scripts/gen_catalog.c (lint/wiring.h). */
#include "checks.h"

#include "targets.h"
#include "xref.h"

/* The lint part of the format (lint/registry.h), registered in
 * lint/registry.c. */
const wl_lint_format p3d_lint_format = {
	.format = "p3d",
	.xref = &p3d_xref_ops,
	.targets = p3d_targets,
	.layout = p3d_layout,
	.target_of = p3d_target_of,
};
