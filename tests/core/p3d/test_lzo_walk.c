/* tests/core/p3d/test_lzo_walk.c - p3d_lzo_stream_length (core/p3d/p3d_compress.c)
 * finds the same stream length as the search over lzo1x_decompress_safe it
 * replaced (the shortest input prefix that does not overrun), on streams
 * built by liblzo2's compressors (LZO1X-1 and LZO1X-999: literal runs and
 * matches of every kind, short and extended lengths) and on every LZO block
 * the linter decodes in the P3D corpus (../shared/corpus/p3d or
 * $W3DLINT_P3D_CORPUS; skipped when absent). */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <ftw.h>
#include <lzo/lzo1x.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/p3d/p3d_compress.h"
#include "tests/build/build_refs.h"

extern Suite *p3d_lzo_walk_suite(void);

/* --- liblzo2's decoder, seen through the test program ------------------
 * This definition takes the place of liblzo2's for the whole test program
 * (it is linked before the library) and forwards every call to it; while
 * `recording` is set it notes each call that decoded a whole stream. */
typedef int (*lzo_fn)(const lzo_bytep, lzo_uint, lzo_bytep, lzo_uintp, lzo_voidp);

typedef struct call {
	const uint8_t *in;
	size_t n, out_len;
} call;

static int recording;
static call *calls;
static size_t ncalls, calls_cap;

static lzo_fn real_decoder(void)
{
	static lzo_fn f;
	if (!f) {
		void *p = dlsym(RTLD_NEXT, "lzo1x_decompress_safe");
		ck_assert_ptr_nonnull(p);
		memcpy(&f, &p, sizeof f);
	}
	return f;
}

int lzo1x_decompress_safe(const lzo_bytep src, lzo_uint src_len, lzo_bytep dst, lzo_uintp dst_len,
			  lzo_voidp wrkmem)
{
	lzo_uint cap = *dst_len;
	int r = real_decoder()(src, src_len, dst, dst_len, wrkmem);
	if (recording && r == LZO_E_OK) {
		if (ncalls == calls_cap) {
			calls_cap = calls_cap ? 2 * calls_cap : 64;
			calls = realloc(calls, calls_cap * sizeof *calls);
			ck_assert_ptr_nonnull(calls);
		}
		calls[ncalls++] = (call){ src, src_len, cap };
	}
	return r;
}

/* The replaced search: the shortest prefix of in[0..in_len) that decodes
 * to out_len bytes without LZO_E_INPUT_OVERRUN; 0 when none. */
static size_t old_search(const uint8_t *in, size_t in_len, size_t out_len)
{
	uint8_t *out = malloc(out_len ? out_len : 1);
	ck_assert_ptr_nonnull(out);
	lzo_uint got = out_len;
	size_t found = 0;
	int r = real_decoder()(in, in_len, out, &got, NULL);
	if ((r == LZO_E_OK || r == LZO_E_INPUT_NOT_CONSUMED) && got == out_len) {
		size_t lo = 0, hi = in_len;
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			got = out_len;
			if (real_decoder()(in, mid, out, &got, NULL) == LZO_E_INPUT_OVERRUN)
				lo = mid;
			else
				hi = mid;
		}
		found = hi;
	}
	free(out);
	return found;
}

/* n bytes of kind: 0 text with noise, 1 random, 2 zeros, 3 long repeats
 * far apart (M4 distances). */
static uint8_t *sample(size_t n, int kind, unsigned seed)
{
	uint8_t *p = malloc(n ? n : 1);
	ck_assert_ptr_nonnull(p);
	srand(seed);
	static const char words[] = "vertex face lod section proxy ";
	for (size_t i = 0; i < n; i++) {
		switch (kind) {
		case 0: p[i] = rand() % 7 == 0 ? (uint8_t)rand() : (uint8_t)words[i % (sizeof words - 1)]; break;
		case 1: p[i] = (uint8_t)rand(); break;
		case 2: p[i] = 0; break;
		default: p[i] = i >= 20000 ? p[i - 20000 + (i % 3)] : (uint8_t)rand(); break;
		}
	}
	return p;
}

static uint8_t *encode(const uint8_t *src, size_t n, int level, size_t *len)
{
	ck_assert_int_eq(lzo_init(), LZO_E_OK);
	uint8_t *out = malloc(n + n / 16 + 64 + 3 + 64);
	void *wrk = malloc(level ? LZO1X_999_MEM_COMPRESS : LZO1X_1_MEM_COMPRESS);
	lzo_uint l = 0;
	int r = level ? lzo1x_999_compress(src, n, out, &l, wrk) : lzo1x_1_compress(src, n, out, &l, wrk);
	ck_assert_int_eq(r, LZO_E_OK);
	free(wrk);
	*len = l;
	return out;
}

START_TEST(built_streams)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 17, 18, 300, 4000, 70000 };
	size_t streams = 0;
	for (int level = 0; level < 2; level++)
		for (int kind = 0; kind < 4; kind++)
			for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
				size_t n = sizes[s], len;
				uint8_t *src = sample(n, kind, (unsigned)n + (unsigned)kind);
				uint8_t *enc = encode(src, n, level, &len);
				/* bytes after the stream that read as more instructions */
				uint8_t *file = malloc(len + 40);
				memcpy(file, enc, len);
				memset(file + len, kind & 1 ? 0x00 : 0x11, 40);
				ck_assert_uint_eq(p3d_lzo_stream_length(file, len + 40), len);
				ck_assert_uint_eq(old_search(file, len + 40, n), len);
				uint8_t *dec = malloc(n);
				size_t used = 0;
				ck_assert_int_eq(p3d_lzo_decode(file, len + 40, dec, n, &used), P3D_DEC_OK);
				ck_assert_uint_eq(used, len);
				ck_assert(memcmp(dec, src, n) == 0);
				/* every cut prefix of a short stream has no end */
				for (size_t k = len > 64 ? len - 64 : 0; k < len; k++) {
					ck_assert_uint_eq(p3d_lzo_stream_length(file, k), 0);
					ck_assert_int_eq(p3d_lzo_decode(file, k, dec, n, &used), P3D_DEC_CUT);
				}
				streams++;
				free(dec);
				free(file);
				free(enc);
				free(src);
			}
	ck_assert_uint_eq(streams, 80);
}
END_TEST

START_TEST(hand_streams)
{
	/* the end marker alone; two literals then the end (first byte 19:
	 * state 2 after them, then an M4 end); an extended literal run */
	static const uint8_t end[] = { 0x11, 0x00, 0x00, 0xAA };
	ck_assert_uint_eq(p3d_lzo_stream_length(end, sizeof end), 3);
	static const uint8_t two[] = { 19, 'a', 'b', 0x11, 0x00, 0x00 };
	ck_assert_uint_eq(p3d_lzo_stream_length(two, sizeof two), 6);
	uint8_t ext[3 + 18 + 3];
	ext[0] = 0x00; /* literal run, extended: 0x00 then 3 -> 15 + 3 + 3 = 21 */
	ext[1] = 3;
	memset(ext + 2, 'x', 18);
	ck_assert_uint_eq(p3d_lzo_stream_length(ext, 20), 0);
	uint8_t ext2[2 + 21 + 3];
	ext2[0] = 0x00;
	ext2[1] = 3;
	memset(ext2 + 2, 'x', 21);
	ext2[23] = 0x11;
	ext2[24] = 0;
	ext2[25] = 0;
	ck_assert_uint_eq(p3d_lzo_stream_length(ext2, sizeof ext2), sizeof ext2);
	ck_assert_uint_eq(p3d_lzo_stream_length(ext2, 0), 0);
}
END_TEST

static size_t FILES, BLOCKS;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	size_t l = strlen(path);
	if (type != FTW_F || l < 4 || strcasecmp(path + l - 4, ".p3d") != 0 || st->st_size <= 0)
		return 0;
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	wb b = { 0 };
	b.len = b.cap = (size_t)st->st_size;
	b.data = malloc(b.len);
	ck_assert_ptr_nonnull(b.data);
	ck_assert_uint_eq(fread(b.data, 1, b.len, f), b.len);
	fclose(f);
	ncalls = 0;
	recording = 1;
	wl_doc *d = t_ref_lint(&b, "x.p3d");
	recording = 0;
	ck_assert_ptr_nonnull(d);
	/* t_ref_lint lints a private copy: map each call back to it */
	const uint8_t *base = d->bytes, *endp = d->bytes + d->size;
	for (size_t i = 0; i < ncalls; i++) {
		ck_assert(calls[i].in >= base && calls[i].in < endp);
		size_t room = (size_t)(endp - calls[i].in);
		ck_assert_uint_eq(p3d_lzo_stream_length(calls[i].in, room), calls[i].n);
		ck_assert_uint_eq(old_search(calls[i].in, room, calls[i].out_len), calls[i].n);
		BLOCKS++;
	}
	FILES++;
	t_ref_free(d);
	free(b.data);
	return 0;
}

START_TEST(corpus_blocks)
{
	const char *root = getenv("W3DLINT_P3D_CORPUS");
	if (!root)
		root = "../shared/corpus/p3d";
	struct stat st;
	if (stat(root, &st) != 0) {
		printf("p3d_lzo_walk: skipped: no corpus at %s\n", root);
		return;
	}
	FILES = BLOCKS = 0;
	ck_assert_int_eq(nftw(root, visit, 16, FTW_PHYS), 0);
	printf("p3d_lzo_walk: %zu files, %zu lzo blocks: walk == search\n", FILES, BLOCKS);
	ck_assert_uint_gt(FILES, 0);
	ck_assert_uint_gt(BLOCKS, 0);
}
END_TEST

Suite *p3d_lzo_walk_suite(void)
{
	Suite *s = suite_create("p3d_lzo_walk");
	TCase *tc = tcase_create("p3d_lzo_walk");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, built_streams);
	tcase_add_test(tc, hand_streams);
	tcase_add_test(tc, corpus_blocks);
	suite_add_tcase(s, tc);
	return s;
}
