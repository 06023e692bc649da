/* tests/lint/b3d/test_anim.c - the B3D animation rules (lint/b3d/check_keys.c,
 * check_anim.c): for each rule a case that fires at the exact bytes, a near
 * miss, and one more defective element adding exactly one finding. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "tests/build/b3dbuild.h"
#include "tests/build/b3dlint_util.h"
#include "tests/build/build_anim.h"
#include "tests/build/robust_util.h"

extern Suite *b3d_anim_suite(void);

enum { NO_ANIM = -1000 };

typedef struct keys_spec {
	int32_t flags;
	const int32_t *frames;
	const float *v;
	size_t n;
} keys_spec;

/* Zero positions (3 floats a key) for up to 8 keys, and unit rotations. */
static const float zeros[32];
static const float units[32] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
				 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };

/* BB3D/NODE root{[ANIM 0 frames fps], NODE bone{KEYS ...}}: rec_at[i] is
 * the first key record of KEYS i, *anim_at the ANIM's payload (both may
 * be NULL). */
static void build(wb *b, int32_t frames, float fps, const keys_spec *ks, size_t n, size_t *rec_at,
		  size_t *anim_at)
{
	t_w3d_init(b);
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
	t_b3d_node_begin(b, "root", t_b3d_identity);
	if (frames != NO_ANIM) {
		if (anim_at)
			*anim_at = b->len + 8;
		t_b3d_anim(b, 0, frames, fps);
	}
	t_b3d_node_begin(b, "bone", t_b3d_identity);
	for (size_t i = 0; i < n; i++) {
		if (rec_at)
			rec_at[i] = b->len + 12;
		t_b3d_keys(b, ks[i].flags, ks[i].frames, ks[i].v, ks[i].n);
	}
	t_b3d_end(b);
	t_b3d_end(b);
	t_b3d_end(b);
}

/* Count of rule for build(frames, fps, ks, n). */
static size_t count_keys(int32_t frames, float fps, const keys_spec *ks, size_t n, const char *rule)
{
	wb b;
	build(&b, frames, fps, ks, n, NULL, NULL);
	size_t c = t_b3dutil_count_of(&b, rule);
	t_w3d_free(&b);
	return c;
}

/* Count of rule for one KEYS chunk of position keys at frames f[0..n),
 * under an ANIM of `frames` frames. */
static size_t count_pos(int32_t frames, const int32_t *f, size_t n, const char *rule)
{
	keys_spec k = { 1, f, zeros, n };
	return count_keys(frames, 30, &k, 1, rule);
}

/* Lints, asserts count findings of rule and that the first is at offset
 * with element (when count > 0). */
static void expect(const wb *b, const char *rule, size_t count, uint64_t offset, int64_t element)
{
	wl_doc *d = t_b3dutil_lint(b, NULL);
	ck_assert_uint_eq(t_b3dutil_count(d, rule), count);
	if (count) {
		const wl_finding *f = t_b3dutil_find(d, rule, 0);
		ck_assert_uint_eq(f->offset, offset);
		ck_assert_int_eq(f->element, element);
	}
	t_b3dutil_free(d);
}

START_TEST(keys_flags_unknown)
{
	static const int32_t f[] = { 1, 2 };
	wb b;
	size_t at[2];
	keys_spec k[2] = { { 1 | 8, f, zeros, 2 }, { 1, f, zeros, 2 } };
	build(&b, NO_ANIM, 0, k, 1, at, NULL);
	expect(&b, "b3d-keys-flags-unknown", 1, at[0] - 4, -1);
	t_w3d_free(&b);
	ck_assert_uint_eq(count_pos(NO_ANIM, f, 2, "b3d-keys-flags-unknown"), 0);
	k[1].flags = 0x101;
	ck_assert_uint_eq(count_keys(NO_ANIM, 0, k, 2, "b3d-keys-flags-unknown"), 2);
}
END_TEST

START_TEST(key_not_finite)
{
	static const int32_t f[] = { 1, 2, 3 };
	float v[9] = { 0 };
	v[4] = NAN; /* key 1, y */
	wb b;
	size_t at;
	keys_spec k = { 1, f, v, 3 };
	build(&b, NO_ANIM, 0, &k, 1, &at, NULL);
	expect(&b, "b3d-key-not-finite", 1, at + 16, 1);
	t_w3d_free(&b);
	ck_assert_uint_eq(count_pos(NO_ANIM, f, 3, "b3d-key-not-finite"), 0);
	v[8] = -INFINITY;
	ck_assert_uint_eq(count_keys(NO_ANIM, 0, &k, 1, "b3d-key-not-finite"), 2);
}
END_TEST

START_TEST(key_frame_below_1)
{
	static const int32_t low[] = { 0, 1, 2 }, ok[] = { 1, 2, 3 }, two[] = { -1, 0, 2 };
	wb b;
	size_t at;
	keys_spec k = { 1, low, zeros, 3 };
	build(&b, NO_ANIM, 0, &k, 1, &at, NULL);
	expect(&b, "b3d-key-frame-below-1", 1, at, 0);
	t_w3d_free(&b);
	ck_assert_uint_eq(count_pos(NO_ANIM, ok, 3, "b3d-key-frame-below-1"), 0);
	ck_assert_uint_eq(count_pos(NO_ANIM, two, 3, "b3d-key-frame-below-1"), 2);
}
END_TEST

START_TEST(keys_frame_order)
{
	static const int32_t back[] = { 1, 3, 2, 4 }, ok[] = { 1, 2, 3, 4 }, two[] = { 1, 3, 2, 3 };
	wb b;
	size_t at;
	keys_spec k = { 1, back, zeros, 4 };
	build(&b, NO_ANIM, 0, &k, 1, &at, NULL);
	expect(&b, "b3d-keys-frame-order", 1, at + 2 * 16, 2);
	t_w3d_free(&b);
	ck_assert_uint_eq(count_pos(NO_ANIM, ok, 4, "b3d-keys-frame-order"), 0);
	/* a repeated frame is out of order too */
	ck_assert_uint_eq(count_pos(NO_ANIM, two, 4, "b3d-keys-frame-order"), 2);
	/* Luanti clamps frame 0 to 1 first, so frame 1 after it repeats it */
	static const int32_t zero_one[] = { 0, 1 }, zero_two[] = { 0, 2 };
	ck_assert_uint_eq(count_pos(NO_ANIM, zero_one, 2, "b3d-keys-frame-order"), 1);
	ck_assert_uint_eq(count_pos(NO_ANIM, zero_two, 2, "b3d-keys-frame-order"), 0);
}
END_TEST

START_TEST(keys_duplicate_frame)
{
	static const int32_t a[] = { 1, 2 }, b2[] = { 2, 3 };
	wb b;
	size_t at[3];
	/* position and rotation in separate chunks at the same frames: valid */
	keys_spec split[2] = { { 1, a, zeros, 2 }, { 4, a, units, 2 } };
	ck_assert_uint_eq(count_keys(NO_ANIM, 0, split, 2, "b3d-keys-duplicate-frame"), 0);
	/* a frame repeated inside one chunk is b3d-keys-frame-order's */
	static const int32_t rep[] = { 1, 1 };
	ck_assert_uint_eq(count_pos(NO_ANIM, rep, 2, "b3d-keys-duplicate-frame"), 0);
	keys_spec rep2[2] = { { 1, rep, zeros, 2 }, { 4, a, units, 2 } };
	ck_assert_uint_eq(count_keys(NO_ANIM, 0, rep2, 2, "b3d-keys-duplicate-frame"), 0);
	/* position keyed at frame 2 by both chunks: the later key fires */
	keys_spec same[2] = { { 1, a, zeros, 2 }, { 1, b2, zeros, 2 } };
	build(&b, NO_ANIM, 0, same, 2, at, NULL);
	expect(&b, "b3d-keys-duplicate-frame", 1, at[1], 0);
	t_w3d_free(&b);
	/* the same frames in another NODE are no duplicates */
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	t_b3d_node_begin(&b, "root", t_b3d_identity);
	t_b3d_keys(&b, 1, a, zeros, 2);
	t_b3d_node_begin(&b, "bone", t_b3d_identity);
	t_b3d_keys(&b, 1, a, zeros, 2);
	t_b3d_end(&b);
	t_b3d_end(&b);
	t_b3d_end(&b);
	ck_assert_uint_eq(t_b3dutil_count_of(&b, "b3d-keys-duplicate-frame"), 0);
	t_w3d_free(&b);
	/* one more repeated key: a third chunk keys position and rotation at 1
	 * and 2; key 0 repeats both channels but is one finding, key 1 one more */
	float pr[14] = { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 };
	keys_spec three[3] = { { 1, a, zeros, 2 }, { 4, a, units, 1 }, { 5, a, pr, 2 } };
	build(&b, NO_ANIM, 0, three, 3, at, NULL);
	expect(&b, "b3d-keys-duplicate-frame", 2, at[2], 0);
	t_w3d_free(&b);
}
END_TEST

START_TEST(key_rotation_not_unit)
{
	static const int32_t f[] = { 1, 2 };
	float q[8] = { 1, 0, 0, 0, 0.9f, 0, 0, 0 };
	wb b;
	size_t at;
	keys_spec k = { 4, f, units, 2 };
	build(&b, NO_ANIM, 0, &k, 1, &at, NULL);
	ck_assert_uint_eq(t_b3dutil_count_of(&b, "b3d-key-rotation-not-unit"), 0);
	t_w3d_free(&b);
	k.v = q;
	build(&b, NO_ANIM, 0, &k, 1, &at, NULL);
	expect(&b, "b3d-key-rotation-not-unit", 1, at + 20, 1);
	wl_doc *d = t_b3dutil_lint(&b, "rules:\n  b3d-key-rotation-not-unit:\n    params:\n      tolerance: 0.2\n");
	ck_assert_uint_eq(t_b3dutil_count(d, "b3d-key-rotation-not-unit"), 0);
	t_b3dutil_free(d);
	t_w3d_free(&b);
	q[1] = 2; /* key 0 too */
	ck_assert_uint_eq(count_keys(NO_ANIM, 0, &k, 1, "b3d-key-rotation-not-unit"), 2);
}
END_TEST

START_TEST(anim_fields)
{
	static const int32_t f[] = { 1 };
	keys_spec k = { 1, f, zeros, 1 };
	wb b;
	size_t anim;
	build(&b, 0, 30, &k, 1, NULL, &anim);
	expect(&b, "b3d-anim-zero-frames", 1, anim + 4, -1);
	/* frames 0 is not judged against the keys */
	ck_assert_uint_eq(t_b3dutil_count_of(&b, "b3d-keys-beyond-anim-by1"), 0);
	t_w3d_free(&b);
	build(&b, -3, 30, &k, 1, NULL, NULL);
	ck_assert_uint_eq(t_b3dutil_count_of(&b, "b3d-anim-zero-frames"), 1);
	t_w3d_free(&b);
	build(&b, 1, 0, &k, 1, NULL, &anim);
	ck_assert_uint_eq(t_b3dutil_count_of(&b, "b3d-anim-zero-frames"), 0);
	expect(&b, "b3d-anim-bad-fps", 1, anim + 8, -1);
	t_w3d_free(&b);
	ck_assert_uint_eq(count_keys(1, NAN, &k, 1, "b3d-anim-bad-fps"), 1);
	ck_assert_uint_eq(count_keys(1, 24, &k, 1, "b3d-anim-bad-fps"), 0);
}
END_TEST

/* root{ANIM; NODE n1{ANIM}; NODE n2{ANIM}} with `extra` ANIMs past the
 * first; *second is the header of the second ANIM. */
static void anims(wb *b, int extra, size_t *second)
{
	t_w3d_init(b);
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
	t_b3d_node_begin(b, "root", t_b3d_identity);
	t_b3d_anim(b, 0, 10, 30);
	for (int i = 0; i < extra; i++) {
		t_b3d_node_begin(b, i ? "n2" : "n1", t_b3d_identity);
		if (i == 0 && second)
			*second = b->len;
		t_b3d_anim(b, 0, 10, 30);
		t_b3d_end(b);
	}
	t_b3d_end(b);
	t_b3d_end(b);
}

START_TEST(anim_multiple)
{
	wb b;
	size_t second;
	anims(&b, 0, NULL);
	ck_assert_uint_eq(t_b3dutil_count_of(&b, "b3d-anim-multiple"), 0);
	t_w3d_free(&b);
	anims(&b, 1, &second);
	expect(&b, "b3d-anim-multiple", 1, second, -1);
	t_w3d_free(&b);
	anims(&b, 2, NULL);
	ck_assert_uint_eq(t_b3dutil_count_of(&b, "b3d-anim-multiple"), 2);
	t_w3d_free(&b);
}
END_TEST

START_TEST(keys_beyond_anim)
{
	static const int32_t ok[] = { 1, 10 }, by1[] = { 1, 11 }, far[] = { 1, 12 }, both[] = { 11, 12 },
			     two[] = { 12, 13 };
	ck_assert_uint_eq(count_pos(10, ok, 2, "b3d-keys-beyond-anim") + count_pos(10, ok, 2, "b3d-keys-beyond-anim-by1"),
			  0);
	wb b;
	size_t at;
	keys_spec k = { 1, by1, zeros, 2 };
	build(&b, 10, 30, &k, 1, &at, NULL);
	expect(&b, "b3d-keys-beyond-anim-by1", 1, at + 16, 1);
	expect(&b, "b3d-keys-beyond-anim", 0, 0, 0);
	t_w3d_free(&b);
	k.frames = far;
	build(&b, 10, 30, &k, 1, &at, NULL);
	expect(&b, "b3d-keys-beyond-anim", 1, at + 16, 1);
	expect(&b, "b3d-keys-beyond-anim-by1", 0, 0, 0);
	t_w3d_free(&b);
	ck_assert_uint_eq(count_pos(10, both, 2, "b3d-keys-beyond-anim-by1"), 1);
	ck_assert_uint_eq(count_pos(10, both, 2, "b3d-keys-beyond-anim"), 1);
	ck_assert_uint_eq(count_pos(10, two, 2, "b3d-keys-beyond-anim"), 2);
	/* no ANIM governs the keys: nothing to judge */
	ck_assert_uint_eq(count_pos(NO_ANIM, far, 2, "b3d-keys-beyond-anim"), 0);
}
END_TEST

START_TEST(keys_governed_by_nearest_anim)
{
	static const int32_t f[] = { 1, 15 };
	/* root{ANIM 10; NODE mid{ANIM 20; NODE leaf{KEYS 1, 15}}; NODE side{ANIM 5}} */
	wb b;
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	t_b3d_node_begin(&b, "root", t_b3d_identity);
	t_b3d_anim(&b, 0, 10, 30);
	t_b3d_node_begin(&b, "mid", t_b3d_identity);
	t_b3d_anim(&b, 0, 20, 30);
	t_b3d_node_begin(&b, "leaf", t_b3d_identity);
	t_b3d_keys(&b, 1, f, zeros, 2);
	t_b3d_end(&b);
	t_b3d_end(&b);
	t_b3d_node_begin(&b, "side", t_b3d_identity);
	t_b3d_anim(&b, 0, 5, 30);
	t_b3d_end(&b);
	t_b3d_end(&b);
	t_b3d_end(&b);
	ck_assert_uint_eq(t_b3dutil_count_of(&b, "b3d-keys-beyond-anim"), 0);
	/* near the edge: mid's ANIM at 13 frames makes key 15 beyond */
	size_t mid_frames = 0;
	for (size_t i = 0, seen = 0; i + 4 <= b.len; i++)
		if (memcmp(b.data + i, "ANIM", 4) == 0 && seen++ == 1)
			mid_frames = i + 12;
	ck_assert_uint_ne(mid_frames, 0);
	b.data[mid_frames] = 13;
	ck_assert_uint_eq(t_b3dutil_count_of(&b, "b3d-keys-beyond-anim"), 1);
	t_w3d_free(&b);
}
END_TEST

START_TEST(anim_mutations_never_crash)
{
	static const int32_t f[] = { 1, 3, 2 };
	float pr[21] = { 0 };
	keys_spec k[2] = { { 1, f, zeros, 3 }, { 5, f, pr, 3 } };
	wb b;
	build(&b, 2, 30, k, 2, NULL, NULL);
	t_robust_lint_variants(b.data, b.len, &(t_robust_opts){ t_b3dutil_lint_bytes, t_b3dutil_free, 777, 400, NULL });
	t_w3d_free(&b);
}
END_TEST

START_TEST(anim_rules_in_catalogue)
{
	ck_assert_uint_eq(t_anim_missing_from_catalogue(), 0);
}
END_TEST

Suite *b3d_anim_suite(void)
{
	const TTest *const tests[] = { keys_flags_unknown,
				       key_not_finite,
				       key_frame_below_1,
				       keys_frame_order,
				       keys_duplicate_frame,
				       key_rotation_not_unit,
				       anim_fields,
				       anim_multiple,
				       keys_beyond_anim,
				       keys_governed_by_nearest_anim,
				       anim_mutations_never_crash,
				       anim_rules_in_catalogue,
				       NULL };
	return t_robust_suite_of("b3d_anim", "b3d_anim", 60, tests);
}
