/* checks.c - the registry of P3D checks, in the order they run (checks.h).
 * Add one line per check function. */
#include "checks.h"

#include "targets.h"
#include "xref.h"

static const wl_check_fn checks[] = {
	p3d_check_header,
	p3d_check_lods,
	p3d_check_info,
	p3d_check_lod_faces,
	p3d_check_lod_refs,
	p3d_check_lod_arrays,
	p3d_check_bbox,
	p3d_check_mlod,
	p3d_check_normals,
	p3d_check_components,
	p3d_check_mass,
	NULL /* keep last: the list is NULL-terminated for easy appends */
};

const wl_check_fn *p3d_checks(size_t *out_count)
{
	*out_count = sizeof checks / sizeof checks[0] - 1;
	return checks;
}

/* The lint part of the format (lint/registry.h), registered in
 * lint/registry.c. */
const wl_lint_format p3d_lint_format = {
	.format = "p3d",
	.checks = p3d_checks,
	.xref = &p3d_xref_ops,
	.targets = p3d_targets,
	.layout = p3d_layout,
	.target_of = p3d_target_of,
};
