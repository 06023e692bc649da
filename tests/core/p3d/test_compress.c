/* tests/core/p3d/test_compress.c - the ODOL compressed arrays (core/p3d/
 * p3d_compress.c): BI LZSS round trips through the test encoder
 * (p3dbuild_mlod.c), LZO1X round trips through liblzo2's compressor, both sides of the
 * 1024-byte rule, the v64 flag byte and blocks of the wrong size. */
#include <check.h>
#include <lzo/lzo1x.h>
#include <stdlib.h>
#include <string.h>

#include "core/p3d/p3d_compress.h"
#include "tests/build/p3dbuild_mlod.h"

extern Suite *p3d_compress_suite(void);

/* n bytes of text with repeats and some noise. */
static uint8_t *sample(size_t n, unsigned seed)
{
	uint8_t *p = malloc(n);
	ck_assert_ptr_nonnull(p);
	static const char words[] = "vertex face lod section proxy ";
	srand(seed);
	for (size_t i = 0; i < n; i++)
		p[i] = (rand() % 7 == 0) ? (uint8_t)rand() : (uint8_t)words[i % (sizeof words - 1)];
	return p;
}

START_TEST(test_lzss_round_trip)
{
	static const size_t sizes[] = { 1, 17, 1024, 5000 };
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		size_t n = sizes[s];
		uint8_t *src = sample(n, (unsigned)n);
		uint8_t *enc = malloc(2 * n + 16), *dec = malloc(n);
		size_t len = t_p3d_lzss_encode(src, n, enc);
		/* trailing bytes after the block are not consumed */
		enc[len] = 0xAB;
		size_t used = 0;
		ck_assert_int_eq(p3d_lzss_decode(enc, len + 1, dec, n, &used), P3D_DEC_OK);
		ck_assert_uint_eq(used, len);
		ck_assert(memcmp(src, dec, n) == 0);
		/* a wrong checksum; a cut stream */
		enc[len - 1] ^= 0x40;
		ck_assert_int_eq(p3d_lzss_decode(enc, len, dec, n, &used), P3D_DEC_CHECKSUM);
		ck_assert_int_eq(p3d_lzss_decode(enc, len - 5, dec, n, &used), P3D_DEC_CUT);
		free(src);
		free(enc);
		free(dec);
	}
}
END_TEST

START_TEST(test_lzss_space_fill)
{
	/* one pointer at distance 5 before any output: three spaces */
	const uint8_t in[] = { 0x00, 0x05, 0x00, 0x60, 0, 0, 0 };
	uint8_t out[3];
	size_t used;
	ck_assert_int_eq(p3d_lzss_decode(in, sizeof in, out, 3, &used), P3D_DEC_OK);
	ck_assert(memcmp(out, "   ", 3) == 0);
	ck_assert_uint_eq(used, 7);
	const uint8_t zero[] = { 0x00, 0x00, 0x00, 0x60, 0, 0, 0 }; /* distance 0 */
	ck_assert_int_eq(p3d_lzss_decode(zero, sizeof zero, out, 3, &used), P3D_DEC_BAD);
}
END_TEST

/* LZO1X-1 of src[0..n) into a malloc'd buffer; *len its length. */
static uint8_t *lzo_encode(const uint8_t *src, size_t n, size_t *len)
{
	ck_assert_int_eq(lzo_init(), LZO_E_OK);
	uint8_t *out = malloc(n + n / 16 + 64 + 3 + 16);
	void *wrk = malloc(LZO1X_1_MEM_COMPRESS);
	lzo_uint l = 0;
	ck_assert_int_eq(lzo1x_1_compress(src, n, out, &l, wrk), LZO_E_OK);
	free(wrk);
	*len = l;
	return out;
}

START_TEST(test_lzo_round_trip)
{
	size_t n = 4000, len;
	uint8_t *src = sample(n, 3), *dec = malloc(n);
	uint8_t *enc = lzo_encode(src, n, &len);
	uint8_t *file = malloc(len + 50);
	memcpy(file, enc, len);
	memset(file + len, 0x11, 50);
	size_t used = 0;
	ck_assert_int_eq(p3d_lzo_decode(file, len + 50, dec, n, &used), P3D_DEC_OK);
	ck_assert_uint_eq(used, len);
	ck_assert(memcmp(src, dec, n) == 0);
	ck_assert_int_eq(p3d_lzo_decode(file, len - 3, dec, n, &used), P3D_DEC_CUT);
	/* decodes to fewer bytes than expected */
	ck_assert_int_eq(p3d_lzo_decode(file, len + 50, dec, n - 100, &used), P3D_DEC_BAD);
	free(src);
	free(dec);
	free(enc);
	free(file);
}
END_TEST

/* The 1024-byte rule below v64, on both sides, for LZO and LZSS. */
START_TEST(test_1024_rule)
{
	uint8_t *src = sample(1024, 9), out[1024];
	size_t len;
	uint8_t *enc = lzo_encode(src, 1024, &len);
	p3d_block b;
	/* 255 x 4 = 1020 bytes: stored raw, taken in place */
	ck_assert(p3d_read_block(src, 1024, 0, 50, 255, 4, out, &b));
	ck_assert(!b.compressed);
	ck_assert_ptr_eq(b.data, src);
	ck_assert_uint_eq(b.length, 1020);
	/* 256 x 4 = 1024 bytes: compressed (LZO from v44) */
	ck_assert(p3d_read_block(enc, len, 0, 50, 256, 4, out, &b));
	ck_assert(b.compressed);
	ck_assert_uint_eq(b.length, len);
	ck_assert(memcmp(b.data, src, 1024) == 0);
	/* the same at v40: LZSS */
	uint8_t *lz = malloc(2 * 1024 + 16);
	size_t lzlen = t_p3d_lzss_encode(src, 1024, lz);
	ck_assert(p3d_read_block(lz, lzlen, 0, 40, 1024, 1, out, &b));
	ck_assert_uint_eq(b.length, lzlen);
	ck_assert(memcmp(b.data, src, 1024) == 0);
	/* a v50 LZO block read as LZSS at v43 does not decode */
	ck_assert(!p3d_read_block(enc, len, 0, 43, 256, 4, out, &b));
	ck_assert_int_ne(b.result, P3D_DEC_OK);
	/* a raw array cut by the end of the file */
	ck_assert(!p3d_read_block(src, 1000, 0, 50, 255, 4, out, &b));
	ck_assert_int_eq(b.result, P3D_DEC_CUT);
	/* nothing stored for no element, not even a flag */
	ck_assert(p3d_read_block(src, 1024, 7, 70, 0, 4, out, &b));
	ck_assert_uint_eq(b.length, 0);
	free(src);
	free(enc);
	free(lz);
}
END_TEST

/* From v64 the flag byte decides, whatever the size. */
START_TEST(test_flag_byte)
{
	uint8_t *src = sample(2000, 5), out[2000];
	uint8_t *file = malloc(2100);
	file[0] = 0;
	memcpy(file + 1, src, 2000);
	p3d_block b;
	ck_assert(p3d_read_block(file, 2001, 0, 64, 500, 4, out, &b));
	ck_assert(!b.compressed);
	ck_assert_uint_eq(b.length, 2001);
	ck_assert_ptr_eq(b.data, file + 1);
	size_t len;
	uint8_t *enc = lzo_encode(src, 100, &len);
	file[0] = 1;
	memcpy(file + 1, enc, len);
	ck_assert(p3d_read_block(file, 1 + len, 0, 73, 25, 4, out, &b));
	ck_assert(b.compressed);
	ck_assert_uint_eq(b.length, 1 + len);
	ck_assert(memcmp(out, src, 100) == 0);
	/* wrong element count: the block decodes to 100 bytes, not 104 */
	ck_assert(!p3d_read_block(file, 1 + len, 0, 73, 26, 4, out, &b));
	ck_assert_int_eq(b.result, P3D_DEC_BAD);
	free(src);
	free(file);
	free(enc);
}
END_TEST

Suite *p3d_compress_suite(void)
{
	Suite *s = suite_create("p3d_compress");
	TCase *tc = tcase_create("p3d_compress");
	tcase_add_test(tc, test_lzss_round_trip);
	tcase_add_test(tc, test_lzss_space_fill);
	tcase_add_test(tc, test_lzo_round_trip);
	tcase_add_test(tc, test_1024_rule);
	tcase_add_test(tc, test_flag_byte);
	suite_add_tcase(s, tc);
	return s;
}
