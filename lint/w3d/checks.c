/* checks.c - the lint part of W3D (lint/registry.h): its targets, cross-file
 * index and custom-rule fields.  Its checks are the functions the
 * catalogue names (a rule's `check: NAME` runs w3d_check_NAME of
 * lint/w3d/check_NAME.c), wired at build time by scripts/gen_catalog.c
 * (lint/wiring.h). */
#include "checks.h"

#include "custom_fields.h"
#include "targets.h"
#include "xref.h"

/* The lint part of the format (lint/registry.h), registered in
 * lint/registry.c. */
const wl_lint_format w3d_lint_format = {
	.format = "w3d",
	.fields = w3d_custom_fields,
	.field_count = W3D_CUSTOM_FIELD_COUNT,
	.custom_eval = w3d_custom_eval,
	.xref = &w3d_xref_ops,
	.targets = w3d_targets,
	.target_aliases = w3d_target_aliases,
	.layout = w3d_layout,
	.target_of = w3d_target_of,
};
