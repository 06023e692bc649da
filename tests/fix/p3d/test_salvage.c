/* tests/fix/p3d/test_salvage.c - salvage of damaged MLOD files (issue 17, "salvage
 * keeps every intact element"): the reader's resync after a LOD it cannot
 * walk and its LODs past the header's count (core/p3d/p3d_mlod.c,
 * p3d-mlod-lod-count), and the unsafe fixer mlod-salvage
 * (fix/p3d/fix_salvage.c): every LOD that reads whole is kept byte for
 * byte, the damaged one removed, the LOD count made to agree; nothing
 * whole left is a refusal that keeps the original.  Before/after and
 * idempotence through t_fix_expect_fix. */
#include <check.h>
#include <string.h>

#include "core/p3d/p3d.h"
#include "fix/driver.h"
#include "tests/build/fix_util.h"
#include "tests/build/p3dbuild.h"
#include "tests/build/p3dlint.h"
#include "tests/build/reader_util.h"

extern Suite *p3d_salvage_suite(void);

static const float Q[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };

/* An MLOD file of n (<= 4) P3DM LODs of one quad (resolutions 1, 2, ...)
 * whose header counts `count`; end[i] gets the end of LOD i (end[-1]
 * is the header's 12). */
static void build(wb *b, uint32_t n, uint32_t count, size_t *end)
{
	t_p3d_face f[1] = { { 4, { 0, 1, 2, 3 }, "tex.paa", "mat.rvmat" } };
	t_w3d_init(b);
	t_p3d_mlod_begin(b, count);
	for (uint32_t i = 0; i < n; i++) {
		t_p3d_mlod_lod(b, Q, 4, T_P3D_UP, 4, f, 1, (float)(i + 1));
		end[i] = b->len;
	}
}

/* The first `upto` bytes of src with the LOD count `count`. */
static void expect_bytes(wb *want, const wb *src, size_t upto, uint32_t count)
{
	t_w3d_init(want);
	t_w3d_bytes(want, src->data, upto);
	t_w3d_patch_u32(want, 8, count);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* in with its first n bytes only. */
static void cut(const wb *b, size_t n, wb *out)
{
	t_w3d_init(out);
	t_w3d_bytes(out, b->data, n);
}

/* A cut inside the 3rd of 3 LODs (its header, points, faces, tags, the
 * resolution) keeps LODs 1 and 2 byte for byte with the count 2, and the
 * edit names the removed LOD. */
START_TEST(test_cut_third)
{
	size_t end[3];
	wb b, in, want;
	build(&b, 3, 3, end);
	expect_bytes(&want, &b, end[1], 2);
	const size_t at[] = { end[1] + 10, end[1] + 40, end[1] + 28 + 64 + 48 + 20, end[2] - 20, end[2] - 2 };
	for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
		cut(&b, at[k], &in);
		ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-truncated") + t_p3dlint_count(&in, "p3d-mlod-no-eof-tag"), 1);
		t_fix_expect_fix("t.p3d", &in, &want, true);
		/* without --unsafe: nothing removed */
		t_fix_expect_fix("t.p3d", &in, NULL, false);
		t_w3d_free(&in);
	}
	/* cut exactly after LOD 2: only the count changes */
	cut(&b, end[1], &in);
	ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-truncated"), 1);
	t_fix_expect_fix("t.p3d", &in, &want, true);
	t_w3d_free(&in);
	/* the undamaged file: nothing to salvage */
	t_fix_expect_fix("t.p3d", &b, NULL, true);
	t_w3d_free(&want);
	t_w3d_free(&b);
}
END_TEST

/* Runs the unsafe fixers over in: not changed, not verified, a problem
 * line naming mlod-salvage and "nothing kept". */
static void expect_refused(const wb *in)
{
	wl_fix_options o = { 0 };
	o.catalog = t_cat;
	o.unsafe = true;
	wl_fix_result r;
	ck_assert_int_eq(wl_fix_run(&o, "t.p3d", in->data, in->len, &r), 0);
	ck_assert(!r.changed);
	ck_assert(!r.verified);
	ck_assert_uint_eq(r.problem_count, 1);
	ck_assert_msg(strstr(r.problems[0], "mlod-salvage: nothing kept") != NULL, "%s", r.problems[0]);
	wl_fix_result_free(&r);
}

/* A cut inside the first LOD leaves no whole LOD: refused, the original
 * kept; so is a first LOD with a bad signature and nothing after it. */
START_TEST(test_cut_first_refused)
{
	size_t end[3];
	wb b, in;
	build(&b, 3, 3, end);
	const size_t at[] = { 20, 12 + 28 + 30, end[0] - 30, end[0] - 1 };
	for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
		cut(&b, at[k], &in);
		expect_refused(&in);
		t_w3d_free(&in);
	}
	cut(&b, end[0], &in);
	memcpy(in.data + 12, "XXXX", 4);
	ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-lod-signature"), 1);
	expect_refused(&in);
	t_w3d_free(&in);
	t_w3d_free(&b);
}
END_TEST

/* One count field of the 2nd of 3 LODs damaged (points +1, normals -1,
 * faces +1): p3d-mlod-count at that field, the LOD read with the count its
 * arrays show (WL_REC_RESIZED) and LOD 3 after it; mlod-lod-counts gives
 * the file back.  Near miss: the undamaged file.  One more: the same
 * count damaged in LOD 3 too is one more finding. */
START_TEST(test_count_damaged)
{
	size_t end[3];
	wb b, in;
	build(&b, 3, 3, end);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-mlod-count"), 0);
	const size_t field[] = { 12, 16, 20 };
	const int32_t delta[] = { 1, -1, 1 };
	for (size_t k = 0; k < sizeof field / sizeof field[0]; k++) {
		cut(&b, b.len, &in);
		t_w3d_patch_u32(&in, end[0] + field[k], le32(in.data + end[0] + field[k]) + (uint32_t)delta[k]);
		ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-count"), 1);
		wl_doc *d = t_read_fmt(&p3d_format, in.data, in.len);
		const p3d_model *m = d->model;
		ck_assert_uint_eq(m->n_res, 3);
		ck_assert(m->lods[0].walked && m->lods[1].walked && m->lods[2].walked);
		ck_assert(m->lods[1].node->recovery & WL_REC_RESIZED);
		t_free(d);
		t_fix_expect_fix("t.p3d", &in, &b, true);
		t_fix_expect_fix("t.p3d", &in, NULL, false);
		t_w3d_patch_u32(&in, end[1] + field[k], le32(in.data + end[1] + field[k]) + (uint32_t)delta[k]);
		ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-count"), 2);
		t_fix_expect_fix("t.p3d", &in, &b, true);
		t_w3d_free(&in);
	}
	t_w3d_free(&b);
	/* a LOD with no face: its point count (4 -> 6) from where its tags are */
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 2);
	t_p3d_mlod_lod(&b, Q, 4, T_P3D_UP, 4, NULL, 0, 1.0f);
	t_p3d_mlod_lod(&b, Q, 4, T_P3D_UP, 4, NULL, 0, 2.0f);
	cut(&b, b.len, &in);
	t_w3d_patch_u32(&in, 12 + 12, 6);
	ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-count"), 1);
	t_fix_expect_fix("t.p3d", &in, &b, true);
	t_w3d_free(&in);
	t_w3d_free(&b);
}
END_TEST

/* The 2nd of 3 LODs with a damaged signature, or two counts damaged (no
 * single correction explains them): the reader finds LOD 3 by its signature and
 * reads it whole; the salvage keeps LODs 1 and 3 byte for byte, count 2. */
START_TEST(test_lod_resync)
{
	size_t end[3];
	wb b, in, want;
	build(&b, 3, 3, end);
	t_w3d_init(&want);
	t_w3d_bytes(&want, b.data, end[0]);
	t_w3d_bytes(&want, b.data + end[1], end[2] - end[1]);
	t_w3d_patch_u32(&want, 8, 2);
	for (int k = 0; k < 2; k++) {
		cut(&b, b.len, &in);
		if (k) {
			t_w3d_patch_u32(&in, end[0] + 12, 5);
			t_w3d_patch_u32(&in, end[0] + 16, 5);
		} else {
			memcpy(in.data + end[0], "P3DX", 4);
		}
		wl_doc *d = t_read_fmt(&p3d_format, in.data, in.len);
		const p3d_model *m = d->model;
		ck_assert_uint_eq(m->n_res, 3);
		ck_assert(m->lods[0].walked && !m->lods[1].walked && m->lods[2].walked);
		ck_assert_uint_eq(m->lods[2].start, end[1]);
		ck_assert(m->lods[1].node->recovery & WL_REC_CLAMPED);
		t_free(d);
		t_fix_expect_fix("t.p3d", &in, &want, true);
		t_w3d_free(&in);
	}
	t_w3d_free(&want);
	t_w3d_free(&b);
}
END_TEST

/* p3d-mlod-lod-count: fires once at the count field when the header
 * counts fewer LODs than walk whole (2 or 1 of 3: one field, one
 * finding); near misses: the right count, and a count of 2 before bytes
 * that are no LOD (a tail).  mlod-salvage sets the count; a count larger
 * than the LODs present (4 of 3) is p3d-truncated and set to 3 too. */
START_TEST(test_lod_count)
{
	size_t end[3];
	wb b, in;
	build(&b, 3, 3, end);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-mlod-lod-count"), 0);
	for (uint32_t count = 1; count <= 4; count++) {
		if (count == 3)
			continue;
		cut(&b, b.len, &in);
		t_w3d_patch_u32(&in, 8, count);
		ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-lod-count"), count < 3 ? 1 : 0);
		ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-truncated"), count > 3 ? 1 : 0);
		wl_doc *d = t_read_fmt(&p3d_format, in.data, in.len);
		ck_assert_uint_eq(((const p3d_model *)d->model)->n_res, 3);
		t_free(d);
		t_fix_expect_fix("t.p3d", &in, &b, true);
		t_w3d_free(&in);
	}
	/* near miss: 2 LODs counted, then bytes that are no LOD */
	cut(&b, end[1], &in);
	t_w3d_patch_u32(&in, 8, 2);
	t_w3d_bytes(&in, "P3DMjunk-junk-junk-junk-junk-junk-junk-", 40);
	ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-lod-count"), 0);
	t_w3d_free(&in);
	t_w3d_free(&b);
}
END_TEST

/* Two damaged LODs (the 2nd's point count, the 4th cut): the count
 * repaired, LODs 1 to 3 kept, count 3. */
START_TEST(test_two_damaged)
{
	size_t end[4];
	wb b, in, want;
	build(&b, 4, 4, end);
	expect_bytes(&want, &b, end[2], 3);
	cut(&b, end[3] - 10, &in);
	t_w3d_patch_u32(&in, end[0] + 12, 5);
	t_fix_expect_fix("t.p3d", &in, &want, true);
	t_w3d_free(&in);
	t_w3d_free(&want);
	t_w3d_free(&b);
}
END_TEST

/* #EndOfFile#'s size (0) grown by 1 or 8 over the next LOD's first bytes,
 * or made smaller (wrapping past the file), in the 1st or the last LOD:
 * p3d-mlod-tag-size once at that size, and the safe mlod-tag-size gives
 * the file back; the same 0 before a LOD whose signature is damaged is
 * left alone (near miss: the LOD after that one is not taken for the
 * resolution's successor). */
START_TEST(test_eof_tag_size)
{
	size_t end[3];
	wb b, in;
	build(&b, 3, 3, end);
	const size_t size_at[] = { end[0] - 8, end[2] - 8 };
	const int32_t delta[] = { 1, 8, -1, -4 };
	for (size_t k = 0; k < 2; k++)
		for (size_t j = 0; j < sizeof delta / sizeof delta[0]; j++) {
			cut(&b, b.len, &in);
			ck_assert_uint_eq(le32(in.data + size_at[k]), 0);
			t_w3d_patch_u32(&in, size_at[k], (uint32_t)delta[j]);
			ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-tag-size"), 1);
			t_fix_expect_fix("t.p3d", &in, &b, false);
			t_w3d_free(&in);
		}
	cut(&b, b.len, &in);
	memcpy(in.data + end[0], "P3DX", 4);
	ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-tag-size"), 0);
	t_w3d_free(&in);
	t_w3d_free(&b);
}
END_TEST

/* Issue 29 (sample_2_crate.p3d: an #EndOfFile# size set to 100 made the
 * next, intact LOD unreadable and --unsafe removed it, the bad size kept):
 * the size (0) set to 100 or 200, more than the 64 bytes searched before
 * a declared end, in the 1st or 2nd of 3 LODs: p3d-mlod-tag-size at that
 * size, no LOD lost (no p3d-mlod-lod-signature), and the safe
 * mlod-tag-size gives the file back.  Near miss: an #EndOfFile# that truly
 * holds 100 bytes of data (its declared end is followed by the resolution
 * and the next LOD) is left alone. */
START_TEST(test_eof_tag_size_far)
{
	size_t end[3];
	wb b, in;
	build(&b, 3, 3, end);
	const size_t size_at[] = { end[0] - 8, end[1] - 8 };
	const uint32_t size[] = { 100, 200 };
	for (size_t k = 0; k < 2; k++)
		for (size_t j = 0; j < 2; j++) {
			cut(&b, b.len, &in);
			ck_assert_uint_eq(le32(in.data + size_at[k]), 0);
			t_w3d_patch_u32(&in, size_at[k], size[j]);
			ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-tag-size"), 1);
			ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-lod-signature"), 0);
			t_fix_expect_fix("t.p3d", &in, &b, false);
			t_fix_expect_fix("t.p3d", &in, &b, true);
			t_w3d_free(&in);
		}
	static const uint8_t data[100] = { 1, 2, 3 };
	t_w3d_init(&in);
	t_w3d_bytes(&in, b.data, size_at[0]);
	t_w3d_u32(&in, sizeof data);
	t_w3d_bytes(&in, data, sizeof data);
	t_w3d_bytes(&in, b.data + size_at[0] + 4, b.len - size_at[0] - 4);
	ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-tag-size"), 0);
	ck_assert_uint_eq(t_p3dlint_count(&in, "p3d-mlod-lod-signature"), 0);
	t_fix_expect_fix("t.p3d", &in, NULL, true);
	t_w3d_free(&in);
	t_w3d_free(&b);
}
END_TEST

Suite *p3d_salvage_suite(void)
{
	Suite *s = suite_create("p3d_salvage");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, t_cat_setup, t_cat_teardown);
	tcase_add_test(tc, test_cut_third);
	tcase_add_test(tc, test_cut_first_refused);
	tcase_add_test(tc, test_count_damaged);
	tcase_add_test(tc, test_lod_resync);
	tcase_add_test(tc, test_lod_count);
	tcase_add_test(tc, test_two_damaged);
	tcase_add_test(tc, test_eof_tag_size);
	tcase_add_test(tc, test_eof_tag_size_far);
	suite_add_tcase(s, tc);
	return s;
}
