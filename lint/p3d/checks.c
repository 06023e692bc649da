/* checks.c - the registry of P3D checks, in the order they run (checks.h).
 * Add one line per check function. */
#include "checks.h"

static const wl_check_fn checks[] = {
	wl_p3d_check_header,
	wl_p3d_check_lods,
	wl_p3d_check_info,
	wl_p3d_check_lod_faces,
	wl_p3d_check_lod_refs,
	wl_p3d_check_lod_arrays,
	wl_p3d_check_bbox,
	wl_p3d_check_mlod,
	wl_p3d_check_components,
	wl_p3d_check_mass,
	NULL /* keep last: the list is NULL-terminated for easy appends */
};

const wl_check_fn *wl_p3d_checks(size_t *out_count)
{
	*out_count = sizeof checks / sizeof checks[0] - 1;
	return checks;
}
