/* tests/lint/w3d/test_animation.c - tests of the ANIMATION / COMPRESSED_ANIMATION
 * decoders and rules (lint/w3d/check_animation.c): for each rule a case that
 * fires (rule id and offset asserted) and a near miss that does not. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/model.h"
#include "tests/build/build_anim.h"
#include "tests/build/reader_util.h"
#include "tests/build/robust_util.h"

static wb B;
static wl_doc *D;
static t_anim_anim_at AT;
static t_anim_canim_at CT;

static const wl_finding *raw(const t_anim_anim_opts *o, const char *rule)
{
	t_w3d_init(&B);
	t_anim_animation(&B, o, &AT);
	return t_anim_lint_find(&B, &D, rule);
}

static const wl_finding *comp(const t_anim_canim_opts *o, const char *rule)
{
	t_w3d_init(&B);
	t_anim_compressed_animation(&B, o, &CT);
	return t_anim_lint_find(&B, &D, rule);
}

static void done(void)
{
	t_anim_done(D, &B);
}

START_TEST(valid_is_clean)
{
	t_anim_anim_opts o = t_anim_anim_defaults();
	o.bit_channel = true;
	raw(&o, "x");
	ck_assert_uint_eq(D->findings.count, 0);
	const w3d_model *m = D->model;
	ck_assert_uint_eq(m->animation_count, 1);
	ck_assert_uint_eq(m->animations[0]->channel_count, 2);
	ck_assert_uint_eq(m->animations[0]->bit_channel_count, 1);
	ck_assert_str_eq(m->animations[0]->hierarchy_name, "SKEL");
	done();
	for (uint16_t fl = 0; fl < 2; fl++) {
		t_anim_canim_opts c = t_anim_canim_defaults(fl);
		comp(&c, "x");
		ck_assert_uint_eq(D->findings.count, 0);
		const w3d_compressed_animation *ca = ((const w3d_model *)D->model)->compressed_animations[0];
		ck_assert_uint_eq(ca->channel_count, 2);
		uint64_t need;
		bool whole;
		ck_assert(w3d_canim_channel_need(&ca->channels[0], &need, &whole));
		ck_assert_uint_eq(need, whole ? ca->channels[0].src->size : ca->channels[0].data_bytes);
		done();
	}
}
END_TEST

enum { RAW, TIMECODED, ADAPTIVE }; /* ANIMATION, COMPRESSED_ANIMATION flavor 0 / 1 */
enum { NO_HEADER = 1, HEADER_LAST = 2, BIT_CHANNEL = 4, NO_KEYS = 8 };

/* One rule case: t_anim_anim_defaults() (RAW) or t_anim_canim_defaults(kind - 1)
 * changed as the fields say, linted, then the expectations (offsets in
 * AT for RAW, in CT otherwise). */
typedef struct anim_case {
	const char *name;
	int kind;
	unsigned flags;       /* NO_HEADER, HEADER_LAST (raw), BIT_CHANNEL (raw), NO_KEYS */
	uint16_t first, last; /* raw, non-zero: the frame range */
	int64_t data_delta;   /* raw data_delta, compressed size_delta */
	int64_t bit_delta;    /* raw */
	uint16_t q_vector_len; /* raw, non-zero */
	float q_scale;        /* non-zero */
	int64_t count_delta;  /* compressed */
	int bad_key;          /* compressed, with key_time non-zero */
	uint32_t key_time;
	uint32_t keys;        /* compressed, non-zero */
	uint16_t flavor;      /* compressed, non-zero: the flavor field */
	t_expect e[3];
} anim_case;

#define RAT(member, add) T_AT(t_anim_anim_at, member, add)
#define CAT(member, add) T_AT(t_anim_canim_at, member, add)
/* Raw Q key 9 (the last of 10 frames), time-coded Q key k (20 bytes each). */
#define RAW_Q9 RAT(q_payload, 12 + 9 * 16)
#define TC_KEY(k, add) CAT(q_payload, 8 + (k) * 20 + (add))

static const anim_case cases[] = {
	/* headers */
	{ "header_missing", RAW, NO_HEADER,
	  .e = { { "animation-header-missing", 1, RAT(object, 0) } } },
	{ "header_not_first", RAW, HEADER_LAST,
	  .e = { { "animation-header-not-first", 1, RAT(x_payload, (size_t)-8) },
		 { "animation-header-missing" } } },
	{ "header_first", RAW,
	  .e = { { "animation-header-not-first" }, { "animation-header-missing" } } },
	{ "compressed_header_missing", TIMECODED, NO_HEADER,
	  .e = { { "animation-header-missing", 1, CAT(object, 0) } } },
	/* frame order and range */
	{ "frame_order", RAW, .first = 5, .last = 3,
	  .e = { { "anim-channel-frame-order", 1, RAT(x_payload, 0) } } },
	{ "frame_range", RAW, .last = 10, /* NumFrames 10: frames 0..9 */
	  .e = { { "anim-channel-frame-range", 1, RAT(x_payload, 2) } } },
	{ "frame_range_ok", RAW, .first = 9, .last = 9,
	  .e = { { "anim-channel-frame-range" }, { "anim-channel-frame-order" } } },
	/* raw sizes */
	{ "raw_size_short", RAW, .data_delta = -4,
	  .e = { { "anim-channel-size-mismatch", 1, RAT(x_payload, 12) } } },
	{ "raw_data_extra", RAW, .data_delta = 8,
	  .e = { { "anim-channel-size-mismatch" }, { "anim-channel-data-extra", 1, RAT(x_payload, 12) } } },
	{ "raw_size_ok", RAW, .e = { { "anim-channel-data-extra" } } },
	{ "bit_size_short", RAW, BIT_CHANNEL, .bit_delta = -1,
	  .e = { { "bit-channel-size-mismatch", 1, RAT(bit_payload, 9) } } },
	{ "bit_size_ok", RAW, BIT_CHANNEL, .e = { { "bit-channel-size-mismatch" } } },
	{ "vector_len", RAW, .q_vector_len = 3,
	  .e = { { "anim-channel-vector-len", 1, RAT(q_payload, 4) } } },
	{ "vector_len_ok", RAW, .q_vector_len = 4, .e = { { "anim-channel-vector-len" } } },
	/* raw quaternions: the last of the 10 frames scaled */
	{ "raw_quaternion_not_normalized", RAW, .q_scale = 0.9f,
	  .e = { { "quaternion-not-normalized", 1, RAW_Q9, .element = 9 } } },
	{ "raw_quaternion_not_finite", RAW, .q_scale = INFINITY,
	  .e = { { "quaternion-not-finite", 1, RAW_Q9 } } },
	{ "raw_quaternion_ok", RAW, .q_scale = 1.0002f,
	  .e = { { "quaternion-not-normalized" }, { "quaternion-not-finite" } } },
	/* time-coded sizes */
	{ "timecoded_size_short", TIMECODED, .data_delta = -8,
	  .e = { { "anim-channel-size-mismatch", 1, CAT(x_payload, 0) } } },
	/* header says one key more than present */
	{ "timecoded_count_more", TIMECODED, .count_delta = 1,
	  .e = { { "anim-channel-size-mismatch", 1, .anywhere = 1 } } },
	{ "timecoded_size_ok", TIMECODED, .e = { { "anim-channel-size-mismatch" } } },
	/* adaptive delta; OpenSAGE needs 15 + 4 VL + 9 VL ceil(n/16) */
	{ "adaptive_size_short", ADAPTIVE, .data_delta = -3,
	  .e = { { "anim-channel-size-mismatch", 1, CAT(x_payload, 0) } } },
	/* channel NumFrames 21 vs header 20 */
	{ "adaptive_frames", ADAPTIVE, .count_delta = 1,
	  .e = { { "anim-channel-frame-range", 1, CAT(x_payload, 0) } } },
	{ "adaptive_quaternion", ADAPTIVE, .q_scale = 2.0f,
	  .e = { { "quaternion-not-normalized", 1, CAT(q_payload, 12) } } },
	{ "adaptive_ok", ADAPTIVE, .q_scale = 1.0f,
	  .e = { { "quaternion-not-normalized" }, { "anim-channel-size-mismatch" },
		 { "anim-channel-frame-range" } } },
	/* time-coded keys 0,4,8,12,16; 20 frames */
	{ "timecode_first_not_zero", TIMECODED, .bad_key = 0, .key_time = 1,
	  .e = { { "timecode-first-not-zero", 1, TC_KEY(0, 0) } } },
	{ "timecode_not_increasing", TIMECODED, .bad_key = 2, .key_time = 4, /* equal to key 1 */
	  .e = { { "timecode-not-increasing", 1, TC_KEY(2, 0), .element = 2 } } },
	{ "timecode_past_end", TIMECODED, .bad_key = 4, .key_time = 20, /* past frame 19 */
	  .e = { { "anim-channel-frame-range", 1, TC_KEY(4, 0) } } },
	/* the binary-movement flag is masked */
	{ "timecode_ok", TIMECODED, .bad_key = 4, .key_time = 19 | 0x80000000u,
	  .e = { { "anim-channel-frame-range" }, { "timecode-not-increasing" },
		 { "timecode-first-not-zero" } } },
	{ "timecoded_empty", TIMECODED, NO_KEYS,
	  .e = { { "timecoded-channel-empty", 1, CAT(x_payload, 0) } } },
	{ "timecoded_one_key", TIMECODED, .keys = 1, .e = { { "timecoded-channel-empty" } } },
	{ "timecoded_quaternion", TIMECODED, .q_scale = 1.5f,
	  .e = { { "quaternion-not-normalized", 1, TC_KEY(4, 4), .element = 4 } } },
	/* flavor field over the time-coded defaults */
	{ "flavor_unknown", TIMECODED, .flavor = 7,
	  .e = { { "compressed-animation-flavor", 1, CAT(header_payload, 42) } } },
	{ "flavor_known", TIMECODED, .flavor = 1, .e = { { "compressed-animation-flavor" } } },
};

/* dst = v when v is non-zero (the case changes that default). */
#define SET_IF(dst, v) ((v) ? (void)((dst) = (v)) : (void)0)

static void build_raw(const anim_case *c)
{
	t_anim_anim_opts o = t_anim_anim_defaults();
	o.no_header = c->flags & NO_HEADER;
	o.header_last = c->flags & HEADER_LAST;
	o.bit_channel = c->flags & BIT_CHANNEL;
	SET_IF(o.first, c->first);
	SET_IF(o.last, c->last);
	SET_IF(o.q_vector_len, c->q_vector_len);
	SET_IF(o.q_scale, c->q_scale);
	o.data_delta = c->data_delta;
	o.bit_delta = c->bit_delta;
	t_anim_animation(&B, &o, &AT);
}

static void build_compressed(const anim_case *c)
{
	t_anim_canim_opts o = t_anim_canim_defaults(c->kind == ADAPTIVE);
	o.no_header = c->flags & NO_HEADER;
	if (c->flags & NO_KEYS)
		o.keys = 0;
	SET_IF(o.keys, c->keys);
	SET_IF(o.flavor, c->flavor);
	SET_IF(o.q_scale, c->q_scale);
	o.size_delta = c->data_delta;
	o.count_delta = c->count_delta;
	if (c->key_time) {
		o.bad_key = c->bad_key;
		o.key_time = c->key_time;
	}
	t_anim_compressed_animation(&B, &o, &CT);
}

START_TEST(rule_cases)
{
	const anim_case *c = &cases[_i];
	t_w3d_init(&B);
	if (c->kind == RAW)
		build_raw(c);
	else
		build_compressed(c);
	D = t_anim_lint(&B);
	t_expect_all(c->name, D, c->kind == RAW ? (const void *)&AT : (const void *)&CT, c->e, 3);
	done();
}
END_TEST

START_TEST(robust)
{
	t_anim_anim_opts o = t_anim_anim_defaults();
	o.bit_channel = true;
	t_w3d_init(&B);
	t_anim_animation(&B, &o, &AT);
	for (uint16_t fl = 0; fl < 2; fl++) {
		t_anim_canim_opts c = t_anim_canim_defaults(fl);
		t_anim_compressed_animation(&B, &c, &CT);
	}
	t_robust_lint_variants(B.data, B.len, &(t_robust_opts){ t_anim_lint_bytes, wl_doc_free, 11, 500, t_robust_flip_bits });
	t_w3d_free(&B);
}
END_TEST

extern Suite *animation_suite(void);
Suite *animation_suite(void)
{
	const TTest *tests[] = {
		valid_is_clean, robust, NULL
	};
	Suite *s = t_robust_suite_of("animation", "rules", 0, tests);
	t_robust_add_loop(s, "rule_cases", 0, rule_cases, (int)(sizeof cases / sizeof cases[0]));
	return s;
}
