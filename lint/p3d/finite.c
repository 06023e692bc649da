/* finite.c - NaN and infinity in P3D float fields, shared by the checks
 * (checks.h): one p3d-not-finite finding per element. */
#include <math.h>

#include "checks.h"

int wl_p3d_nonfinite(const uint8_t *p, unsigned n, float *val)
{
	wl_cursor c = wl_cursor_make(p, 4ull * n, 0);
	for (unsigned k = 0; k < n; k++) {
		float v = wl_cursor_f32(&c);
		if (!isfinite(v)) {
			*val = v;
			return (int)k;
		}
	}
	return -1;
}

bool wl_p3d_report_finite(wl_lint_ctx *ctx, const wl_chunk *node, const char *what, int64_t el,
			  uint64_t off, uint64_t len, const uint8_t *p, unsigned n)
{
	float v;
	int k = wl_p3d_nonfinite(p, n, &v);
	if (k < 0)
		return false;
	wl_report(&ctx->doc->findings, "p3d-not-finite", node, el, off, len,
		  "%s %lld has a non-finite component %d (%g)", what, (long long)el, k, (double)v);
	return true;
}
