/* check_header.c - the P3D header: version, the v75 reserved words, the LOD
 * count and the resolutions (checks.h).
 *   p3d-version-unknown      ODOL version outside 7 and 28..75 (the
 *                            versions any public reader knows)
 *   p3d-encrypted            v75+: a reserved header word is not 0
 *   p3d-lod-count            no LOD, or more than max_lods
 *   p3d-resolution-invalid   a resolution that is NaN, infinite or negative
 *   p3d-resolution-duplicate a resolution equal to an earlier one */
#include <math.h>

#include "checks.h"

void p3d_check_header(wl_lint_ctx *ctx)
{
	const p3d_model *m = ctx->model;
	wl_doc *d = ctx->doc;
	if (!m || !m->header_complete)
		return;
	if (!m->mlod && !p3d_version_known(m->header_version))
		wl_report(&d->findings, WLR_P3D_VERSION_UNKNOWN, m->header, -1, 4, 4,
			  "odol version %u is not one the public readers know (7, 28 to 75)",
			  (unsigned)m->header_version);
	if (m->has_reserved && (m->reserved[0] || m->reserved[1]))
		wl_report(&d->findings, WLR_P3D_ENCRYPTED, m->header, -1, m->reserved_off, 8,
			  "the reserved header words of odol v%u are 0x%08X 0x%08X, not 0: the model is "
			  "encrypted",
			  (unsigned)m->version, (unsigned)m->reserved[0], (unsigned)m->reserved[1]);
	double max = wl_lint_param(ctx, WLR_P3D_LOD_COUNT, "max_lods");
	if (m->n_lods == 0 || m->n_lods > max)
		wl_report(&d->findings, WLR_P3D_LOD_COUNT, m->header, -1, m->nlods_off, 4,
			  "the model declares %u lods (a model has 1 to %.0f)", (unsigned)m->n_lods, max);
	if (m->mlod || !m->lods)
		return;
	for (uint32_t i = 0; i < m->n_res; i++) {
		float r = m->lods[i].resolution;
		uint64_t off = m->res_off + 4ull * i;
		if (!isfinite(r) || r < 0) {
			wl_report(&d->findings, WLR_P3D_RESOLUTION_INVALID, m->resolutions, i, off, 4,
				  "lod %u has resolution %g: a resolution is a finite number >= 0",
				  (unsigned)i, (double)r);
			continue;
		}
		for (uint32_t k = 0; k < i; k++)
			if (m->lods[k].resolution == r) {
				wl_report(&d->findings, WLR_P3D_RESOLUTION_DUPLICATE, m->resolutions, i, off,
					  4, "lod %u has resolution %g, as lod %u has", (unsigned)i,
					  (double)r, (unsigned)k);
				break;
			}
	}
}
