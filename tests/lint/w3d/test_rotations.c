/* tests/lint/w3d/test_rotations.c - tests of the rotation-consistency rules and fixer:
 *
 *   pivot-euler-mismatch          lint/w3d/check_pivot_euler.c (E5)
 *   quaternion-hemisphere-flip    lint/w3d/check_animation.c (F12)
 *   align-quaternion-hemispheres  fix/w3d/fix_quaternions.c (F12)
 *   recompute-euler-angles        fix/w3d/fix_euler.c (E5)
 *   anim-loop-end-differs         lint/w3d/check_anim_loop.c (F16)
 *
 * Expected values are computed here independently of the code under test:
 * pivot rotations go through a rotation matrix built from the Euler angles
 * and converted back to a quaternion (Shepperd's method), and fixed keys
 * are compared with the input keys and their negations. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/model.h"
#include "core/w3d/rotation.h"
#include "fix/fix.h"
#include "tests/build/build_anim.h"
#include "tests/build/reader_util.h"
#include "tests/build/w3dbuild.h"

extern Suite *rotations_suite(void);

static wl_catalog *CAT;

static void cat_load(void)
{
	char err[256];
	CAT = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(CAT != NULL, "%s", err);
}

/* ------------------------------------------------------------------ */
/* rotation helpers (test-side)                                         */
/* ------------------------------------------------------------------ */

typedef double mat3[3][3];

static void rot_axis(int axis, double a, mat3 m)
{
	double c = cos(a), s = sin(a);
	memset(m, 0, sizeof(mat3));
	int i = (axis + 1) % 3, j = (axis + 2) % 3;
	m[axis][axis] = 1;
	m[i][i] = c;
	m[i][j] = -s;
	m[j][i] = s;
	m[j][j] = c;
}

static void mat_mul(mat3 a, mat3 b, mat3 r)
{
	mat3 t;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
	memcpy(r, t, sizeof(mat3));
}

/* The matrix of the three axis rotations applied in order[0..2] as
 * R = R(order[0]) R(order[1]) R(order[2]) with angles e[axis]. */
static void euler_matrix(const float e[3], const int order[3], mat3 r)
{
	mat3 a;
	rot_axis(order[0], e[order[0]], r);
	for (int k = 1; k < 3; k++) {
		rot_axis(order[k], e[order[k]], a);
		mat_mul(r, a, r);
	}
}

/* Rotation matrix to unit quaternion X, Y, Z, W (Shepperd). */
static void mat_quat(mat3 m, float q[4])
{
	double t = m[0][0] + m[1][1] + m[2][2], x, y, z, w;
	if (t > 0) {
		double s = 2 * sqrt(1 + t);
		w = s / 4;
		x = (m[2][1] - m[1][2]) / s;
		y = (m[0][2] - m[2][0]) / s;
		z = (m[1][0] - m[0][1]) / s;
	} else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
		double s = 2 * sqrt(1 + m[0][0] - m[1][1] - m[2][2]);
		x = s / 4;
		w = (m[2][1] - m[1][2]) / s;
		y = (m[0][1] + m[1][0]) / s;
		z = (m[0][2] + m[2][0]) / s;
	} else if (m[1][1] > m[2][2]) {
		double s = 2 * sqrt(1 + m[1][1] - m[0][0] - m[2][2]);
		y = s / 4;
		w = (m[0][2] - m[2][0]) / s;
		x = (m[0][1] + m[1][0]) / s;
		z = (m[1][2] + m[2][1]) / s;
	} else {
		double s = 2 * sqrt(1 + m[2][2] - m[0][0] - m[1][1]);
		z = s / 4;
		w = (m[1][0] - m[0][1]) / s;
		x = (m[0][2] + m[2][0]) / s;
		y = (m[1][2] + m[2][1]) / s;
	}
	q[0] = (float)x;
	q[1] = (float)y;
	q[2] = (float)z;
	q[3] = (float)w;
}

/* Angle in degrees between two rotations (the metric of core/w3d/rotation.h;
 * what these tests check independently is how angles become rotations). */
static double quat_angle_deg(const float a[4], const float b[4])
{
	double da[4] = { a[0], a[1], a[2], a[3] }, db[4] = { b[0], b[1], b[2], b[3] };
	return w3d_quat_angle_deg(da, db);
}

/* ------------------------------------------------------------------ */
/* builders                                                             */
/* ------------------------------------------------------------------ */

/* A HIERARCHY named "H" whose pivot i has Euler angles e[i] and rotation
 * q[i]; returns the PIVOTS payload offset. */
static size_t hierarchy(wb *b, size_t n, const float (*e)[3], const float (*q)[4])
{
	t_w3d_begin(b, W3D_CHUNK_HIERARCHY);
	t_w3d_hierarchy_header(b, "H", (uint32_t)n);
	size_t payload = b->len + 8;
	t_w3d_begin(b, W3D_CHUNK_PIVOTS);
	for (size_t i = 0; i < n; i++) {
		t_w3d_name(b, i == 0 ? "ROOTTRANSFORM" : "BONE", 16);
		t_w3d_u32(b, i == 0 ? 0xFFFFFFFFu : (uint32_t)(i - 1));
		t_w3d_vec3(b, 0, 0, 1);
		t_w3d_vec3(b, e[i][0], e[i][1], e[i][2]);
		for (int j = 0; j < 4; j++)
			t_w3d_f32(b, q[i][j]);
	}
	t_w3d_end(b);
	t_w3d_end(b);
	return payload;
}

/* A raw ANIMATION "A" of num_frames frames with one Q channel of pivot 1
 * over frames first..first+nkeys-1 holding keys[]; returns the channel's
 * data offset. */
static size_t raw_q_anim(wb *b, uint32_t num_frames, uint16_t first, size_t nkeys, const float (*keys)[4])
{
	t_w3d_begin(b, W3D_CHUNK_ANIMATION);
	t_w3d_begin(b, W3D_CHUNK_ANIMATION_HEADER);
	t_w3d_u32(b, 0x00040001);
	t_w3d_name(b, "A", 16);
	t_w3d_name(b, "H", 16);
	t_w3d_u32(b, num_frames);
	t_w3d_u32(b, 30);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_ANIMATION_CHANNEL);
	t_w3d_u16(b, first);
	t_w3d_u16(b, (uint16_t)(first + nkeys - 1));
	t_w3d_u16(b, 4);
	t_w3d_u16(b, W3D_ANIM_CHANNEL_Q);
	t_w3d_u16(b, 1);
	t_w3d_u16(b, 0);
	size_t data = b->len;
	for (size_t k = 0; k < nkeys; k++)
		for (int j = 0; j < 4; j++)
			t_w3d_f32(b, keys[k][j]);
	t_w3d_end(b);
	t_w3d_end(b);
	return data;
}

/* A time-coded COMPRESSED_ANIMATION "C" with one Q channel of pivot 1,
 * key k at frame 2k; returns the offset of key 0's time code. */
static size_t tc_q_anim(wb *b, size_t nkeys, const float (*keys)[4])
{
	t_w3d_begin(b, W3D_CHUNK_COMPRESSED_ANIMATION);
	t_w3d_begin(b, W3D_CHUNK_COMPRESSED_ANIMATION_HEADER);
	t_w3d_u32(b, 0x00040001);
	t_w3d_name(b, "C", 16);
	t_w3d_name(b, "H", 16);
	t_w3d_u32(b, (uint32_t)(2 * nkeys));
	t_w3d_u16(b, 30);
	t_w3d_u16(b, W3D_ANIM_FLAVOR_TIMECODED);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_COMPRESSED_ANIMATION_CHANNEL);
	t_w3d_u32(b, (uint32_t)nkeys);
	t_w3d_u16(b, 1);
	t_w3d_u8(b, 4);
	t_w3d_u8(b, W3D_ANIM_CHANNEL_Q);
	size_t data = b->len;
	for (size_t k = 0; k < nkeys; k++) {
		t_w3d_u32(b, (uint32_t)(2 * k));
		for (int j = 0; j < 4; j++)
			t_w3d_f32(b, keys[k][j]);
	}
	t_w3d_end(b);
	t_w3d_end(b);
	return data;
}

/* Lints b with cfg (NULL = defaults); the caller frees with wl_doc_free. */
static wl_doc *lint(const wb *b, const wl_config *cfg, uint8_t **copy)
{
	*copy = t_copy(b->data, b->len);
	wl_doc *d = wl_lint_bytes(CAT, cfg, "rot.w3d", *copy, b->len);
	ck_assert_ptr_nonnull(d);
	return d;
}

static const wl_finding *find(const wl_doc *d, const char *rule, size_t nth)
{
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(d->findings.items[i].rule, rule) == 0 && nth-- == 0)
			return &d->findings.items[i];
	return NULL;
}

static size_t count(const uint8_t *p, size_t n, const wl_config *cfg, const char *rule)
{
	uint8_t *copy = t_copy(p, n);
	wl_doc *d = wl_lint_bytes(CAT, cfg, "rot.w3d", copy, n);
	ck_assert_ptr_nonnull(d);
	size_t c = t_count(d, rule);
	wl_doc_free(d);
	free(copy);
	return c;
}

/* ------------------------------------------------------------------ */
/* pivot-euler-mismatch                                                 */
/* ------------------------------------------------------------------ */

START_TEST(euler_order_xyzr_agrees_others_do_not)
{
	cat_load();
	/* Angle triples, including large and near-gimbal ones. */
	static const float angles[][3] = {
		{ 0.3f, -0.5f, 1.1f }, { -2.5f, 1.2f, 0.4f }, { 1.0f, 1.5707f, -0.7f }, { 3.0f, -0.2f, -3.0f },
	};
	static const int xyz[3] = { 0, 1, 2 }, zyx[3] = { 2, 1, 0 };
	size_t n = sizeof angles / sizeof angles[0];
	for (size_t t = 0; t < n; t++) {
		float e[3][3] = { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } }, q[3][4] = { { 0, 0, 0, 1 } };
		mat3 m;
		memcpy(e[1], angles[t], sizeof e[1]);
		euler_matrix(e[1], xyz, m);
		mat_quat(m, q[1]);
		/* pivot 2: the angles left unfilled, any rotation (near miss) */
		euler_matrix(angles[t], zyx, m);
		mat_quat(m, q[2]);
		wb b;
		t_w3d_init(&b);
		hierarchy(&b, 3, (const float(*)[3])e, (const float(*)[4])q);
		ck_assert_uint_eq(count(b.data, b.len, NULL, "pivot-euler-mismatch"), 0);
		t_w3d_free(&b);

		/* fire: pivot 2 gets the angles too, but its rotation is R = Rz Ry Rx */
		memcpy(e[2], angles[t], sizeof e[2]);
		float want[4];
		euler_matrix(e[2], xyz, m);
		mat_quat(m, want);
		ck_assert_msg(quat_angle_deg(want, q[2]) > 1, "case %zu: the two orders agree", t);
		t_w3d_init(&b);
		size_t pivots = hierarchy(&b, 3, (const float(*)[3])e, (const float(*)[4])q);
		uint8_t *copy;
		wl_doc *d = lint(&b, NULL, &copy);
		const wl_finding *f = find(d, "pivot-euler-mismatch", 0);
		ck_assert_ptr_nonnull(f);
		ck_assert_uint_eq(f->offset, pivots + 2 * 60 + 32);
		ck_assert_uint_eq(f->length, 12);
		ck_assert_int_eq(f->severity, WL_SEV_INFO);
		ck_assert_uint_eq(t_count(d, "pivot-euler-mismatch"), 1);
		wl_doc_free(d);
		free(copy);
		t_w3d_free(&b);
	}
	wl_catalog_free(CAT);
}
END_TEST

START_TEST(euler_tolerance_parameter)
{
	cat_load();
	/* 90 degrees about Z; the stored angle is 0.5 degrees more. */
	float e[2][3] = { { 0, 0, 0 }, { 0, 0, (float)((90.5) * 3.14159265358979323846 / 180) } };
	float q[2][4] = { { 0, 0, 0, 1 }, { 0, 0, 0.70710677f, 0.70710677f } };
	wb b;
	t_w3d_init(&b);
	hierarchy(&b, 2, (const float(*)[3])e, (const float(*)[4])q);
	ck_assert_uint_eq(count(b.data, b.len, NULL, "pivot-euler-mismatch"), 1);
	char err[256];
	const char *text = "rules:\n  pivot-euler-mismatch:\n    params:\n      tolerance: 1\n";
	wl_config *cfg = wl_config_parse(CAT, "c.yaml", text, strlen(text), err, sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_uint_eq(count(b.data, b.len, cfg, "pivot-euler-mismatch"), 0);
	wl_config_free(cfg);
	t_w3d_free(&b);
	wl_catalog_free(CAT);
}
END_TEST

/* ------------------------------------------------------------------ */
/* quaternion-hemisphere-flip and align-quaternion-hemispheres          */
/* ------------------------------------------------------------------ */

/* nkeys rotations about the axis (1, 2, 2)/3 in steps of 40 degrees; the
 * keys flagged in neg[] are stored negated. */
static void key_series(size_t nkeys, const bool *neg, float (*keys)[4])
{
	for (size_t k = 0; k < nkeys; k++) {
		double h = (double)k * 40 * 3.14159265358979323846 / 360, s = sin(h) / 3;
		float q[4] = { (float)s, (float)(2 * s), (float)(2 * s), (float)cos(h) };
		for (int j = 0; j < 4; j++)
			keys[k][j] = neg[k] ? -q[j] : q[j];
	}
}

static double key_dot(const uint8_t *p, size_t a, size_t b)
{
	double d = 0;
	for (int j = 0; j < 4; j++)
		d += (double)wl_lef32(p + a + 4 * (size_t)j) * wl_lef32(p + b + 4 * (size_t)j);
	return d;
}

/* Runs fixer id on in (forced, as w3dfix --fix ID); returns the output and
 * sets *edits. */
static uint8_t *apply_fixer(const char *id, const uint8_t *in, size_t n, size_t *out_len, size_t *edits)
{
	size_t count_fx;
	const wl_fixer *const *all = wl_fixers(&count_fx);
	const wl_fixer *fx = NULL;
	for (size_t i = 0; i < count_fx; i++)
		if (strcmp(all[i]->id, id) == 0)
			fx = all[i];
	ck_assert_ptr_nonnull(fx);
	ck_assert(!fx->unsafe);
	uint8_t *copy = t_copy(in, n);
	wl_doc *d = wl_lint_bytes(CAT, NULL, "fix.w3d", copy, n);
	ck_assert_ptr_nonnull(d);
	wl_fix_ctx ctx = { .doc = d, .model = d->model, .catalog = CAT };
	ck_assert_int_eq(fx->apply(&ctx), 0);
	*edits = wl_edit_count(d);
	uint8_t *out;
	ck_assert_int_eq(wl_doc_write(d, &out, out_len), 0);
	wl_doc_free(d);
	free(copy);
	return out;
}

START_TEST(hemisphere_rule_fires_per_channel)
{
	cat_load();
	enum { N = 7 };
	float keys[N][4];
	const bool neg[N] = { false, false, true, true, false, false, true };
	key_series(N, neg, keys);
	wb b;
	t_w3d_init(&b);
	size_t raw = raw_q_anim(&b, N, 0, N, (const float(*)[4])keys);
	size_t tc = tc_q_anim(&b, N, (const float(*)[4])keys);
	uint8_t *copy;
	wl_doc *d = lint(&b, NULL, &copy);
	/* flips at keys 2, 4 and 6 of both channels: one finding per key
	 * (raw: 16-byte frames; time-coded: 20-byte packets, the rotation
	 * after the time code) */
	ck_assert_uint_eq(t_count(d, "quaternion-hemisphere-flip"), 6);
	for (int k = 0; k < 3; k++) {
		const wl_finding *f = find(d, "quaternion-hemisphere-flip", (size_t)k);
		ck_assert_uint_eq(f->offset, raw + (2 + 2 * (size_t)k) * 16);
		ck_assert_uint_eq(f->length, 16);
		ck_assert_int_eq(f->element, 2 + 2 * k);
		f = find(d, "quaternion-hemisphere-flip", (size_t)(3 + k));
		ck_assert_uint_eq(f->offset, tc + (2 + 2 * (size_t)k) * 20 + 4);
		ck_assert_int_eq(f->element, 2 + 2 * k);
	}
	ck_assert_uint_eq(t_count(d, "quaternion-not-normalized"), 0);
	wl_doc_free(d);
	free(copy);
	t_w3d_free(&b);

	/* near miss: the same rotations, every key in the hemisphere of the one before */
	const bool none[N] = { false };
	key_series(N, none, keys);
	t_w3d_init(&b);
	raw_q_anim(&b, N, 0, N, (const float(*)[4])keys);
	tc_q_anim(&b, N, (const float(*)[4])keys);
	ck_assert_uint_eq(count(b.data, b.len, NULL, "quaternion-hemisphere-flip"), 0);
	t_w3d_free(&b);

	/* near miss: a non-finite key breaks the chain (key 3 is NaN, key 4 is
	 * negated relative to key 2 only) */
	const bool neg4[N] = { false, false, false, false, true, true, true };
	key_series(N, neg4, keys);
	keys[3][0] = NAN;
	t_w3d_init(&b);
	raw_q_anim(&b, N, 0, N, (const float(*)[4])keys);
	ck_assert_uint_eq(count(b.data, b.len, NULL, "quaternion-hemisphere-flip"), 0);
	ck_assert_uint_eq(count(b.data, b.len, NULL, "quaternion-not-finite"), 1);
	t_w3d_free(&b);
	wl_catalog_free(CAT);
}
END_TEST

/* The n keys at out + base + k * stride: key 0 as stored in keys[0], every
 * other key + or - keys[k] and in the hemisphere of the key before. */
static void assert_aligned(const uint8_t *out, size_t base, size_t stride, const float (*keys)[4], size_t n)
{
	for (int j = 0; j < 4; j++)
		ck_assert_float_eq(wl_lef32(out + base + 4 * (size_t)j), keys[0][j]);
	for (size_t k = 1; k < n; k++) {
		ck_assert(key_dot(out, base + (k - 1) * stride, base + k * stride) >= 0);
		float sign = wl_lef32(out + base + k * stride + 12) == keys[k][3] ? 1.0f : -1.0f;
		for (int j = 0; j < 4; j++)
			ck_assert_float_eq(wl_lef32(out + base + k * stride + 4 * (size_t)j), sign * keys[k][j]);
	}
}

START_TEST(hemisphere_fixer_before_after_idempotent)
{
	cat_load();
	enum { N = 9 };
	float keys[N][4];
	const bool neg[N] = { true, false, true, true, false, true, false, false, true };
	key_series(N, neg, keys);
	wb b;
	t_w3d_init(&b);
	size_t raw = raw_q_anim(&b, N, 0, N, (const float(*)[4])keys);
	size_t tc = tc_q_anim(&b, N, (const float(*)[4])keys);
	size_t len, edits;
	uint8_t *out = apply_fixer("align-quaternion-hemispheres", b.data, b.len, &len, &edits);
	ck_assert_uint_eq(len, b.len);
	ck_assert_uint_gt(edits, 0);
	assert_aligned(out, raw, 16, (const float(*)[4])keys, N);
	assert_aligned(out, tc + 4, 20, (const float(*)[4])keys, N);
	/* only key bytes changed: the time codes of the time-coded channel stay */
	for (size_t k = 0; k < N; k++)
		ck_assert_uint_eq(wl_le32(out + tc + k * 20), (uint32_t)(2 * k));
	ck_assert_uint_eq(count(out, len, NULL, "quaternion-hemisphere-flip"), 0);
	/* idempotent: a second run makes no edit and writes the same bytes */
	size_t len2, edits2;
	uint8_t *out2 = apply_fixer("align-quaternion-hemispheres", out, len, &len2, &edits2);
	ck_assert_uint_eq(edits2, 0);
	ck_assert_uint_eq(len2, len);
	ck_assert(memcmp(out, out2, len) == 0);
	free(out2);
	/* normalising leaves these unit keys alone */
	out2 = apply_fixer("normalize-quaternions", out, len, &len2, &edits2);
	ck_assert_uint_eq(edits2, 0);
	free(out2);
	free(out);

	/* barely opposite hemispheres: identity, then 191.5 and 200 degrees
	 * about Z (dots -0.10 and +0.98 as stored): key 1 is negated, and so
	 * key 2 must be too */
	t_w3d_free(&b);
	t_w3d_init(&b);
	float z[3][4] = { { 0, 0, 0, 1 } };
	for (int k = 1; k < 3; k++) {
		double h = (k == 1 ? 191.5 : 200.0) * 3.14159265358979323846 / 360;
		z[k][2] = (float)sin(h);
		z[k][3] = (float)cos(h);
	}
	raw = raw_q_anim(&b, 3, 0, 3, (const float(*)[4])z);
	ck_assert_uint_eq(count(b.data, b.len, NULL, "quaternion-hemisphere-flip"), 1);
	out = apply_fixer("align-quaternion-hemispheres", b.data, b.len, &len, &edits);
	ck_assert_uint_eq(edits, 2);
	assert_aligned(out, raw, 16, (const float(*)[4])z, 3);
	ck_assert_float_eq(wl_lef32(out + raw + 16 + 12), -z[1][3]);
	ck_assert_float_eq(wl_lef32(out + raw + 32 + 12), -z[2][3]);
	free(out);

	/* near miss: no flip, no edit */
	const bool none[N] = { false };
	key_series(N, none, keys);
	t_w3d_free(&b);
	t_w3d_init(&b);
	raw_q_anim(&b, N, 0, N, (const float(*)[4])keys);
	out = apply_fixer("align-quaternion-hemispheres", b.data, b.len, &len, &edits);
	ck_assert_uint_eq(edits, 0);
	ck_assert(memcmp(out, b.data, b.len) == 0);
	free(out);
	t_w3d_free(&b);
	wl_catalog_free(CAT);
}
END_TEST

START_TEST(euler_fixer_before_after_idempotent)
{
	cat_load();
	/* pivot 0: unfilled (zeros) with a rotation; pivot 1: agrees; pivots
	 * 2..5: rotations of other angles (one at gimbal lock) with wrong angles */
	static const float rot_angles[6][3] = {
		{ 0.4f, 0.1f, 0.2f }, { 0.3f, -0.5f, 1.1f }, { -2.5f, 1.2f, 0.4f },
		{ 1.0f, 1.5707964f, -0.7f }, { 3.0f, -0.2f, -3.0f }, { 0.0f, -1.5707964f, 0.9f },
	};
	static const int xyz[3] = { 0, 1, 2 };
	float e[6][3], q[6][4];
	for (int i = 0; i < 6; i++) {
		mat3 m;
		euler_matrix(rot_angles[i], xyz, m);
		mat_quat(m, q[i]);
		for (int j = 0; j < 3; j++)
			e[i][j] = i == 0 ? 0.0f : i == 1 ? rot_angles[i][j] : rot_angles[i][j] + 0.3f;
	}
	wb b;
	t_w3d_init(&b);
	size_t pivots = hierarchy(&b, 6, (const float(*)[3])e, (const float(*)[4])q);
	/* one finding per pivot whose angles disagree (2..5) */
	ck_assert_uint_eq(count(b.data, b.len, NULL, "pivot-euler-mismatch"), 4);
	size_t len, edits;
	uint8_t *out = apply_fixer("recompute-euler-angles", b.data, b.len, &len, &edits);
	ck_assert_uint_eq(len, b.len);
	ck_assert_uint_eq(edits, 4);
	for (int i = 0; i < 6; i++) {
		size_t rec = pivots + 60 * (size_t)i;
		/* everything but the angles of pivots 2..5 is as it was */
		ck_assert(memcmp(out + rec, b.data + rec, 32) == 0);
		ck_assert(memcmp(out + rec + 44, b.data + rec + 44, 16) == 0);
		if (i < 2) {
			ck_assert(memcmp(out + rec + 32, b.data + rec + 32, 12) == 0);
			continue;
		}
		/* the new angles, turned into a matrix and a quaternion by the
		 * test's own code, give the pivot's rotation */
		float ne[3], nq[4];
		mat3 m;
		for (int j = 0; j < 3; j++)
			ne[j] = wl_lef32(out + rec + 32 + 4 * (size_t)j);
		euler_matrix(ne, xyz, m);
		mat_quat(m, nq);
		ck_assert_msg(quat_angle_deg(nq, q[i]) < 1e-3, "pivot %d: %g degrees off", i, quat_angle_deg(nq, q[i]));
	}
	ck_assert_uint_eq(count(out, len, NULL, "pivot-euler-mismatch"), 0);
	size_t len2, edits2;
	uint8_t *out2 = apply_fixer("recompute-euler-angles", out, len, &len2, &edits2);
	ck_assert_uint_eq(edits2, 0);
	ck_assert(len2 == len && memcmp(out, out2, len) == 0);
	free(out2);
	free(out);
	t_w3d_free(&b);
	wl_catalog_free(CAT);
}
END_TEST

/* ------------------------------------------------------------------ */
/* anim-loop-end-differs                                               */
/* ------------------------------------------------------------------ */

static wl_config *loop_on(void)
{
	char err[256];
	const char *text = "rules:\n  anim-loop-end-differs: info\n";
	wl_config *cfg = wl_config_parse(CAT, "c.yaml", text, strlen(text), err, sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	return cfg;
}

START_TEST(loop_rule_off_by_default_identity_outside_range)
{
	cat_load();
	wl_config *cfg = loop_on();
	enum { N = 5 };
	float keys[N][4];
	const bool none[N] = { false };
	key_series(N, none, keys); /* key 0 identity, key 4 at 160 degrees */
	wb b;
	t_w3d_init(&b);
	size_t data = raw_q_anim(&b, N, 0, N, (const float(*)[4])keys);
	ck_assert_uint_eq(count(b.data, b.len, NULL, "anim-loop-end-differs"), 0);
	uint8_t *copy;
	wl_doc *d = lint(&b, cfg, &copy);
	const wl_finding *f = find(d, "anim-loop-end-differs", 0);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, data + 4 * 16);
	wl_doc_free(d);
	free(copy);
	t_w3d_free(&b);

	/* frames 1..3 only, in a 5-frame animation: frames 0 and 4 are both the
	 * identity (outside the channel's range), so the loop closes */
	t_w3d_init(&b);
	raw_q_anim(&b, N, 1, 3, (const float(*)[4])(keys + 1));
	ck_assert_uint_eq(count(b.data, b.len, cfg, "anim-loop-end-differs"), 0);
	t_w3d_free(&b);

	/* frames 0..3: frame 4 is the identity, like frame 0 (key_series key 0) */
	t_w3d_init(&b);
	raw_q_anim(&b, N, 0, 4, (const float(*)[4])keys);
	ck_assert_uint_eq(count(b.data, b.len, cfg, "anim-loop-end-differs"), 0);
	t_w3d_free(&b);

	/* frames 1..4: frame 0 is the identity, frame 4 the 160-degree key */
	t_w3d_init(&b);
	raw_q_anim(&b, N, 1, 4, (const float(*)[4])(keys + 1));
	ck_assert_uint_eq(count(b.data, b.len, cfg, "anim-loop-end-differs"), 1);
	t_w3d_free(&b);
	wl_config_free(cfg);
	wl_catalog_free(CAT);
}
END_TEST

START_TEST(new_rules_in_catalogue)
{
	ck_assert_uint_eq(t_anim_missing_from_catalogue(), 0);
}
END_TEST

Suite *rotations_suite(void)
{
	Suite *s = suite_create("rotations");
	TCase *tc = tcase_create("rotations");
	tcase_add_test(tc, euler_order_xyzr_agrees_others_do_not);
	tcase_add_test(tc, euler_tolerance_parameter);
	tcase_add_test(tc, hemisphere_rule_fires_per_channel);
	tcase_add_test(tc, hemisphere_fixer_before_after_idempotent);
	tcase_add_test(tc, euler_fixer_before_after_idempotent);
	tcase_add_test(tc, loop_rule_off_by_default_identity_outside_range);
	tcase_add_test(tc, new_rules_in_catalogue);
	suite_add_tcase(s, tc);
	return s;
}
