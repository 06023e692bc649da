/* checks.c - the lint part of B3D (lint/registry.h): its targets, cross-file
 * index.  Its checks are the functions the catalogue names (a rule's
 * `check: NAME` runs b3d_check_NAME of lint/b3d/check_NAME.c), wired at
 * build time by scripts/gen_catalog.c (lint/wiring.h). */
#include "checks.h"

#include "targets.h"
#include "xref.h"

/* The lint part of the format (lint/registry.h), registered in
 * lint/registry.c. */
const wl_lint_format b3d_lint_format = {
	.format = "b3d",
	.xref = &b3d_xref_ops,
	.targets = b3d_targets,
	.target_aliases = b3d_target_aliases,
	.layout = b3d_layout,
	.auto_targets = b3d_auto_targets,
};
