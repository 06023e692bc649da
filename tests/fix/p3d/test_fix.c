/* tests/fix/p3d/test_fix.c - MLOD repairs (issue 19 item 5): the lossless write of
 * MLOD documents (core/edit.c, nodes without headers) over every corpus
 * MLOD file and built ones, and the fixers of fix/p3d/: before/after and
 * idempotence; ODOL is never changed. */
#define _XOPEN_SOURCE 700
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/edit.h"
#include "core/file_io.h"
#include "core/p3d/p3d.h"
#include "tests/build/p3dbuild.h"
#include "tests/build/p3dbuild_lod.h"
#include "tests/build/p3dbuild_mlod.h"
#include "tests/build/fix_util.h"
#include "tests/build/p3dlint.h"
#include "tests/build/tree_walk.h"

extern Suite *p3d_fix_suite(void);

/* Marks every chunk of the tree under c dirty (written as what it holds). */
static void touch_all(wl_doc *d, wl_chunk *c)
{
	for (wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind == WL_NODE_CHUNK)
			ck_assert_int_eq(wl_edit_touch(d, k), 0);
		touch_all(d, k);
	}
}

/* Reads p[0..n) as P3D and writes it back, once untouched (copied) and
 * once with every node rebuilt: both must give the input's bytes. */
static void roundtrip(const char *name, const uint8_t *p, size_t n)
{
	for (int pass = 0; pass < 2; pass++) {
		wl_doc *d = t_read_fmt(&p3d_format, p, n);
		ck_assert_ptr_nonnull(d);
		if (pass)
			touch_all(d, &d->root);
		uint8_t *out;
		size_t len;
		ck_assert_msg(wl_doc_write(d, &out, &len) == 0, "%s: write failed", name);
		ck_assert_msg(len == n && memcmp(out, p, n) == 0, "%s (pass %d): %zu bytes written, %zu read",
			      name, pass, len, n);
		free(out);
		t_free(d);
	}
}

static size_t corpus_mlods;

static void visit(const char *path, void *ud)
{
	(void)ud;
	size_t len = strlen(path);
	if (len < 4 || strcmp(path + len - 4, ".p3d") != 0)
		return;
	uint8_t *p;
	size_t n;
	ck_assert_int_eq(wl_read_file(path, (size_t)1 << 30, &p, &n), WL_READ_OK);
	if (n >= 4 && memcmp(p, "MLOD", 4) == 0) {
		roundtrip(path, p, n);
		corpus_mlods++;
	}
	free(p);
}

/* read -> write is byte-identical on every corpus MLOD file (copied, and
 * with every node rebuilt); skipped with a message without the corpus. */
START_TEST(test_lossless_corpus)
{
	const char *dir = "../shared/corpus/p3d";
	corpus_mlods = 0;
	if (t_walk_files(dir, visit, NULL) != 0) {
		fprintf(stderr, "p3d_fix: %s not found: the corpus MLOD round trip is skipped\n", dir);
		return;
	}
	ck_assert_msg(corpus_mlods > 0, "no MLOD file under %s", dir);
	fprintf(stderr, "p3d_fix: %zu corpus MLOD files read and written back byte for byte\n",
		corpus_mlods);
}
END_TEST

/* The same on built MLOD files: P3DM and SP3X LODs, tags. */
START_TEST(test_lossless_built)
{
	static const int32_t deltas[2] = { 0, -4 };
	wb b;
	t_p3d_uv_file(&b, 2, deltas);
	roundtrip("uv", b.data, b.len);
	t_w3d_free(&b);
	static const float q[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
	t_p3d_face f[1] = { { 4, { 0, 1, 2, 3 } } };
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 2);
	t_p3d_sp3x_lod(&b, q, 4, q, 4, f, NULL, 1, 1.0f);
	t_p3d_mlod_lod(&b, q, 4, q, 4, f, 1, 2.0f);
	roundtrip("sp3x", b.data, b.len);
	t_w3d_free(&b);
}
END_TEST

/* Runs the fixers over in: fix_util.h. */
static void expect_fix(const wb *in, const wb *want, bool unsafe)
{
	t_fix_expect_fix("t.p3d", in, want, unsafe);
}

/* mlod-tag-size: a #UVSet# tag 4 bytes short or long (in one or both
 * LODs) gets the size it holds; the right size is left alone. */
START_TEST(test_fix_tag_size)
{
	static const int32_t ok[2] = { 0, 0 };
	static const int32_t bad[][2] = { { -4, 0 }, { 4, 0 }, { 0, -4 }, { -4, -4 } };
	wb want, in;
	t_p3d_uv_file(&want, 2, ok);
	expect_fix(&want, NULL, false);
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		t_p3d_uv_file(&in, 2, bad[k]);
		ck_assert_uint_ge(t_p3dlint_count(&in, "p3d-mlod-tag-size"), 1);
		expect_fix(&in, &want, false);
		t_w3d_free(&in);
	}
	t_w3d_free(&want);
}
END_TEST

/* The bytes of b without the n bytes at off. */
static void cut(const wb *b, size_t off, size_t n, wb *out)
{
	t_w3d_init(out);
	t_w3d_bytes(out, b->data, off);
	t_w3d_bytes(out, b->data + off + n, b->len - off - n);
}

/* mlod-eof-tag: a P3DM LOD (the first of two, the last, or both) and an
 * SP3X LOD without #EndOfFile# get it back before their resolution. */
START_TEST(test_fix_eof_tag)
{
	static const float q[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
	t_p3d_face f[1] = { { 4, { 0, 1, 2, 3 } } };
	wb want, in, in2;
	t_w3d_init(&want);
	t_p3d_mlod_begin(&want, 2);
	t_p3d_mlod_lod(&want, q, 4, T_P3D_UP, 4, f, 1, 1.0f);
	size_t end0 = want.len;
	t_p3d_mlod_lod(&want, q, 4, T_P3D_UP, 4, f, 1, 2.0f);
	const size_t tag = 1 + 12 + 4; /* active, "#EndOfFile#", size */
	expect_fix(&want, NULL, false);
	cut(&want, end0 - 4 - tag, tag, &in);
	ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-no-eof-tag"), 1);
	expect_fix(&in, &want, false);
	cut(&want, want.len - 4 - tag, tag, &in2);
	expect_fix(&in2, &want, false);
	t_w3d_free(&in2);
	cut(&in, in.len - 4 - tag, tag, &in2); /* both */
	expect_fix(&in2, &want, false);
	t_w3d_free(&in2);
	t_w3d_free(&in);
	t_w3d_free(&want);
	/* SP3X: a 64-byte name and the size */
	t_w3d_init(&want);
	t_p3d_mlod_begin(&want, 1);
	t_p3d_sp3x_lod(&want, q, 4, T_P3D_UP, 4, f, NULL, 1, 1.0f);
	cut(&want, want.len - 4 - 68, 68, &in);
	expect_fix(&in, &want, false);
	t_w3d_free(&in);
	/* cut in the tag list: no place 4 bytes before the end, no repair */
	cut(&want, want.len - 4 - 68 - 3, 68 + 3, &in);
	expect_fix(&in, NULL, true);
	t_w3d_free(&in);
	t_w3d_free(&want);
}
END_TEST

/* The bytes of a float at off of b. */
static void put_f(wb *b, size_t off, float v)
{
	memcpy(b->data + off, &v, 4);
}

/* recompute-normals: a normal too long, zero or NaN gets the face-area
 * weighted normal of the faces using it; a normal two faces share (point
 * 0: a triangle of area 2 facing +z, one of area 0.5 facing +x) gets
 * (1, 0, 4) / sqrt(17), not the equal-weight (1, 0, 1) / sqrt(2); an
 * unused one (0, 1, 0).  Only the repaired normals' bytes change, the
 * result passes p3d-normal-not-unit, a second run changes nothing; a NaN
 * normal beside a NaN point is left (not this fixer's rule). */
START_TEST(test_fix_normals)
{
	static const float q[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
	t_p3d_face f[1] = { { 4, { 0, 1, 2, 3 } } };
	const size_t nrm = 12 + 28 + 4 * 16; /* normal 0 of the first LOD */
	wb want, in;
	t_w3d_init(&want);
	t_p3d_mlod_begin(&want, 1);
	t_p3d_mlod_lod(&want, q, 4, T_P3D_UP, 4, f, 1, 1.0f);
	expect_fix(&want, NULL, false);
	static const float bad[3][3] = { { 0, 0, 3 }, { 0, 0, 0 }, { 0, NAN, 0 } };
	for (int k = 0; k < 3; k++) {
		t_w3d_init(&in);
		t_w3d_bytes(&in, want.data, want.len);
		for (int a = 0; a < 3; a++)
			put_f(&in, nrm + 12 * (size_t)(k + 1) + 4 * (size_t)a, bad[k][a]);
		ck_assert_uint_eq(t_p3dlint_count(&in, k < 2 ? "p3d-normal-not-unit" : "p3d-not-finite"), 1);
		expect_fix(&in, &want, false);
		t_w3d_free(&in);
	}
	/* a NaN point too: the NaN normal is left alone */
	t_w3d_init(&in);
	t_w3d_bytes(&in, want.data, want.len);
	put_f(&in, nrm + 4, NAN);
	put_f(&in, 12 + 28 + 16 + 4, NAN); /* point 1's y */
	expect_fix(&in, NULL, false);
	t_w3d_free(&in);
	t_w3d_free(&want);
	/* area weighting over a shared normal, and an unused normal */
	static const float p[5][3] = { { 0, 0, 0 }, { 2, 0, 0 }, { 0, 2, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
	t_p3d_face g[2] = { { 3, { 0, 1, 2, 0 } }, { 3, { 0, 3, 4, 0 } } };
	float n[6][3];
	memcpy(n, T_P3D_UP, sizeof n);
	n[3][0] = 1, n[3][2] = 0; /* the +x face's own normals */
	n[4][0] = 1, n[4][2] = 0;
	const size_t nrm5 = 12 + 28 + 5 * 16;
	t_w3d_init(&in);
	t_p3d_mlod_begin(&in, 1);
	t_p3d_mlod_lod(&in, p, 5, (const float (*)[3])n, 6, g, 2, 1.0f);
	put_f(&in, nrm5 + 8, 0.0f);        /* normal 0: (0, 0, 0) */
	put_f(&in, nrm5 + 12 * 5 + 8, 5); /* normal 5 (unused): (0, 0, 5) */
	ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-normal-not-unit"), 2);
	t_w3d_init(&want);
	t_w3d_bytes(&want, in.data, in.len);
	put_f(&want, nrm5, (float)(1.0 / sqrt(17.0)));
	put_f(&want, nrm5 + 8, (float)(4.0 / sqrt(17.0)));
	put_f(&want, nrm5 + 12 * 5 + 4, 1.0f);
	put_f(&want, nrm5 + 12 * 5 + 8, 0.0f);
	ck_assert_uint_eq(t_p3dlint_count(&want, "p3d-normal-not-unit"), 0);
	expect_fix(&in, &want, false);
	t_w3d_free(&in);
	t_w3d_free(&want);
}
END_TEST

/* ODOL is never changed, whatever its findings. */
START_TEST(test_odol_read_only)
{
	static const t_p3d_face tri[1] = { { 3, { 0, 1, 7, 0 } } }; /* index 7 of 3 */
	t_p3dlod_spec s;
	memset(&s, 0, sizeof s);
	s.nverts = 3;
	s.faces = tri;
	s.nfaces = 1;
	wb b;
	t_p3dlod_at at;
	t_p3d_layout lay;
	t_p3dlod_odol(&b, 73, &s, &at, &lay);
	ck_assert_uint_ge(t_p3dlint_count(&b, "p3d-face-index"), 1);
	expect_fix(&b, NULL, true);
	t_w3d_free(&b);
}
END_TEST

Suite *p3d_fix_suite(void)
{
	Suite *s = suite_create("p3d_fix");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, t_cat_setup, t_cat_teardown);
	tcase_add_test(tc, test_lossless_corpus);
	tcase_add_test(tc, test_lossless_built);
	tcase_add_test(tc, test_fix_tag_size);
	tcase_add_test(tc, test_fix_eof_tag);
	tcase_add_test(tc, test_fix_normals);
	tcase_add_test(tc, test_odol_read_only);
	suite_add_tcase(s, tc);
	return s;
}
