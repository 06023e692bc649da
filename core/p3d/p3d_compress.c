/* p3d_compress.c - BI LZSS, LZO1X through liblzo2 and the compressible
 * array rules of ODOL (p3d_compress.h). */
#include "p3d_compress.h"

#include <lzo/lzo1x.h>
#include <pthread.h>

#include "../cursor.h"

const char *p3d_dec_name(p3d_dec r)
{
	switch (r) {
	case P3D_DEC_OK: return "ok";
	case P3D_DEC_CUT: return "cut";
	case P3D_DEC_BAD: return "bad";
	case P3D_DEC_CHECKSUM: return "checksum";
	}
	return "?";
}

p3d_dec p3d_lzss_decode(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
			size_t *consumed)
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
			return P3D_DEC_BAD;
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
	return stored == sum_u || stored == sum_s ? P3D_DEC_OK : P3D_DEC_CHECKSUM;
cut:
	*consumed = ip;
	return P3D_DEC_CUT;
}

static pthread_once_t lzo_once = PTHREAD_ONCE_INIT;
static int lzo_ready;

static void lzo_setup(void)
{
	lzo_ready = lzo_init() == LZO_E_OK;
}

/* lzo1x_decompress_safe on in[0..n): its result, *got the bytes out. */
static int lzo_try(const uint8_t *in, size_t n, uint8_t *out, size_t out_len, size_t *got)
{
	lzo_uint dst = out_len;
	int r = lzo1x_decompress_safe(in, n, out, &dst, NULL);
	*got = dst;
	return r;
}

p3d_dec p3d_lzo_decode(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
		       size_t *consumed)
{
	pthread_once(&lzo_once, lzo_setup);
	if (!lzo_ready)
		return P3D_DEC_BAD;
	size_t got;
	int r = lzo_try(in, in_len, out, out_len, &got);
	if (r == LZO_E_INPUT_OVERRUN)
		return P3D_DEC_CUT;
	if ((r != LZO_E_OK && r != LZO_E_INPUT_NOT_CONSUMED) || got != out_len)
		return P3D_DEC_BAD;
	/* The shortest prefix that does not overrun: lo overruns, hi not. */
	size_t lo = 0, hi = in_len;
	if (r == LZO_E_INPUT_NOT_CONSUMED) {
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (lzo_try(in, mid, out, out_len, &got) == LZO_E_INPUT_OVERRUN)
				lo = mid;
			else
				hi = mid;
		}
		/* Decode once more at the found length: out holds its bytes. */
		if (lzo_try(in, hi, out, out_len, &got) != LZO_E_OK || got != out_len)
			return P3D_DEC_BAD;
	}
	*consumed = hi;
	return P3D_DEC_OK;
}

bool p3d_read_block(const uint8_t *file, uint64_t size, uint64_t pos, uint32_t version,
		    uint64_t count, uint32_t elem, uint8_t *out, p3d_block *b)
{
	uint64_t expected = count * elem;
	b->offset = pos;
	b->length = 0;
	b->compressed = false;
	b->data = NULL;
	b->result = P3D_DEC_OK;
	if (expected == 0) {
		b->data = file + pos;
		return true;
	}
	uint64_t at = pos;
	if (version >= 64) {
		if (at >= size) {
			b->result = P3D_DEC_CUT;
			return false;
		}
		b->compressed = file[at++] != 0;
	} else {
		b->compressed = expected >= 1024;
	}
	if (!b->compressed) {
		if (size - at < expected) {
			b->result = P3D_DEC_CUT;
			b->length = size - pos;
			return false;
		}
		b->data = file + at;
		b->length = at - pos + expected;
		return true;
	}
	size_t used = 0;
	b->result = version >= 44 ? p3d_lzo_decode(file + at, (size_t)(size - at), out, (size_t)expected, &used)
				  : p3d_lzss_decode(file + at, (size_t)(size - at), out, (size_t)expected, &used);
	b->length = b->result == P3D_DEC_OK ? at - pos + used : size - pos;
	if (b->result != P3D_DEC_OK)
		return false;
	b->data = out;
	return true;
}
