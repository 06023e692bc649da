/* p3d_compress.c - BI LZSS, LZO1X through liblzo2 and the compressible
 * array rules of ODOL (p3d_compress.h). */
#include "p3d_compress.h"

#include <lzo/lzo1x.h>
#include <pthread.h>

#include "core/cursor.h"
#include "core/lzss.h"

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
	switch (wl_lzss_decode(in, in_len, out, out_len, consumed)) {
	case WL_LZSS_OK: return P3D_DEC_OK;
	case WL_LZSS_CUT: return P3D_DEC_CUT;
	case WL_LZSS_BAD: return P3D_DEC_BAD;
	case WL_LZSS_CHECKSUM: break;
	}
	return P3D_DEC_CHECKSUM;
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

/* The walk's input position: false once a read would pass the end. */
typedef struct lzo_walk {
	const uint8_t *in;
	size_t n, ip;
} lzo_walk;

static bool take(lzo_walk *w, size_t k)
{
	if (w->n - w->ip < k)
		return false;
	w->ip += k;
	return true;
}

static bool byte_at(lzo_walk *w, unsigned *b)
{
	if (w->ip >= w->n)
		return false;
	*b = w->in[w->ip++];
	return true;
}

/* A length field's zero-byte extension (each 0 adds 255, the first
 * non-zero byte ends it). */
static bool skip_extension(lzo_walk *w)
{
	unsigned b;
	do {
		if (!byte_at(w, &b))
			return false;
	} while (b == 0);
	return true;
}

/* The state after a match: the low 2 bits of the byte two before the
 * current position, the number of literals that follow it (0-3). */
static unsigned match_state(const lzo_walk *w)
{
	return w->in[w->ip - 2] & 3u;
}

size_t p3d_lzo_stream_length(const uint8_t *in, size_t in_len)
{
	lzo_walk w = { in, in_len, 0 };
	unsigned t;
	/* after: 0 = an instruction opens the loop (literal run or match);
	 * 1 = after a literal run of 4 or more (t < 16: a 3-byte M1 match);
	 * 2 = after 1-3 literals that follow a match (t < 16: a 2-byte M1). */
	int after = 0;
	if (in_len > 0 && in[0] > 17) {
		w.ip = 1;
		unsigned lit = in[0] - 17u;
		if (!take(&w, lit))
			return 0;
		after = lit < 4 ? 2 : 1;
	}
	for (;;) {
		if (!byte_at(&w, &t))
			return 0;
		if (t < 16) {
			if (after == 0) {
				/* Literal run of t + 3 bytes (t == 0: extended). */
				size_t len = t;
				if (t == 0) {
					size_t ext = 0;
					unsigned b;
					for (;;) {
						if (!byte_at(&w, &b))
							return 0;
						if (b)
							break;
						ext += 255;
						if (ext > in_len)
							return 0;
					}
					len = ext + 15 + b;
				}
				if (!take(&w, len + 3))
					return 0;
				after = 1;
				continue;
			}
			/* M1 match: one distance byte. */
			if (!take(&w, 1))
				return 0;
		} else if (t >= 64) {
			/* M2 match: one distance byte. */
			if (!take(&w, 1))
				return 0;
		} else if (t >= 32) {
			/* M3 match: length (t & 31, 0 = extended), 2 distance bytes. */
			if ((t & 31) == 0 && !skip_extension(&w))
				return 0;
			if (!take(&w, 2))
				return 0;
		} else {
			/* M4 match: length (t & 7, 0 = extended), 2 distance bytes;
			 * distance 0 with bit 3 clear is the end of the stream. */
			if ((t & 7) == 0 && !skip_extension(&w))
				return 0;
			if (!take(&w, 2))
				return 0;
			if (!(t & 8) && wl_le16(in + w.ip - 2) >> 2 == 0)
				return w.ip;
		}
		unsigned lit = match_state(&w);
		if (!take(&w, lit))
			return 0;
		after = lit ? 2 : 0;
	}
}

p3d_dec p3d_lzo_decode(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
		       size_t *consumed)
{
	pthread_once(&lzo_once, lzo_setup);
	if (!lzo_ready)
		return P3D_DEC_BAD;
	size_t got;
	size_t n = p3d_lzo_stream_length(in, in_len);
	if (n) {
		/* The one decode, of exactly the stream's bytes. */
		if (lzo_try(in, n, out, out_len, &got) != LZO_E_OK || got != out_len)
			return P3D_DEC_BAD;
		*consumed = n;
		return P3D_DEC_OK;
	}
	/* No end marker inside in[]: liblzo2 says whether the input was cut
	 * or the stream is invalid before its end. */
	return lzo_try(in, in_len, out, out_len, &got) == LZO_E_INPUT_OVERRUN ? P3D_DEC_CUT
										: P3D_DEC_BAD;
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
