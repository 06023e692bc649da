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

bool wl_p3d_all_finite(const uint8_t *p, uint64_t n, uint32_t stride, uint32_t k)
{
	wl_cursor c = wl_cursor_make(p, (size_t)(stride * n), 0);
	const uint8_t *e = wl_cursor_take(&c, (size_t)(stride * n));
	/* NaN or infinite: the 8 exponent bits (the low 7 of byte 3 and the
	 * high bit of byte 2 of the little-endian float) are all set. */
	for (uint64_t i = 0; e && i < n; i++, e += stride)
		for (uint32_t j = 0; j < k; j++)
			if ((e[4 * j + 3] & 0x7F) == 0x7F && (e[4 * j + 2] & 0x80))
				return false;
	return true;
}

bool wl_p3d_report_finite(wl_lint_ctx *ctx, const wl_chunk *node, const char *what, int64_t el,
			  uint64_t off, uint64_t len, const uint8_t *p, unsigned n)
{
	float v;
	int k = wl_p3d_nonfinite(p, n, &v);
	if (k < 0)
		return false;
	wl_report(&ctx->doc->findings, WLR_P3D_NOT_FINITE, node, el, off, len,
		  "%s %lld has a non-finite component %d (%g)", what, (long long)el, k, (double)v);
	return true;
}
