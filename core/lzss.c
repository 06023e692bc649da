/* lzss.c - BI LZSS (lzss.h): one decoder for the P3D reader's blocks
 * (core/p3d/) and the PBO reader's packed entries (core/archive/). */
#include "lzss.h"

#include "cursor.h"

wl_lzss_result wl_lzss_decode(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len, size_t *consumed)
{
	size_t ip = 0, op = 0;
	uint32_t sum_u = 0, sum_s = 0;
	unsigned flags = 0; /* bit 8 set: bits left in the low byte */
	while (op < out_len) {
		flags >>= 1;
		if (!(flags & 0x100)) {
			if (ip >= in_len)
				goto cut;
			flags = in[ip++] | 0xFF00u;
		}
		if (flags & 1) {
			if (ip >= in_len)
				goto cut;
			out[op++] = in[ip++];
			continue;
		}
		if (in_len - ip < 2)
			goto cut;
		size_t dist = in[ip] | (size_t)(in[ip + 1] & 0xF0) << 4;
		size_t run = (size_t)(in[ip + 1] & 0x0F) + 3;
		ip += 2;
		if (dist == 0) {
			*consumed = ip;
			return WL_LZSS_BAD;
		}
		for (size_t k = 0; k < run && op < out_len; k++, op++)
			out[op] = op >= dist ? out[op - dist] : 0x20;
	}
	for (size_t i = 0; i < out_len; i++) {
		sum_u += out[i];
		int32_t sv = (int8_t)out[i]; /* sign-extended, summed modulo 2^32 */
		sum_s += (uint32_t)sv;
	}
	if (in_len - ip < 4)
		goto cut;
	uint32_t stored = wl_le32(in + ip);
	*consumed = ip + 4;
	return stored == sum_u || stored == sum_s ? WL_LZSS_OK : WL_LZSS_CHECKSUM;
cut:
	*consumed = ip;
	return WL_LZSS_CUT;
}
