/* check_animation.c - tests of the ANIMATION / COMPRESSED_ANIMATION
 * decoders and rules (lint/check_animation.c): for each rule a case that
 * fires (rule id and offset asserted) and a near miss that does not. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/w3d/model.h"
#include "build_anim.h"
#include "robust_util.h"

static wb B;
static wl_doc *D;
static ba_anim_at AT;
static ba_canim_at CT;

static const wl_finding *raw(const ba_anim_opts *o, const char *rule)
{
	wb_init(&B);
	ba_animation(&B, o, &AT);
	return ba_lint_find(&B, &D, rule);
}

static const wl_finding *comp(const ba_canim_opts *o, const char *rule)
{
	wb_init(&B);
	ba_compressed_animation(&B, o, &CT);
	return ba_lint_find(&B, &D, rule);
}

static void done(void)
{
	ba_done(D, &B);
}

START_TEST(valid_is_clean)
{
	ba_anim_opts o = ba_anim_defaults();
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
		ba_canim_opts c = ba_canim_defaults(fl);
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

START_TEST(header_rules)
{
	ba_anim_opts o = ba_anim_defaults();
	o.no_header = true;
	const wl_finding *f = raw(&o, "animation-header-missing");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.object);
	done();
	o = ba_anim_defaults();
	o.header_last = true;
	f = raw(&o, "animation-header-not-first");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.x_payload - 8);
	ck_assert_ptr_null(ba_find(D, "animation-header-missing"));
	done();
	o = ba_anim_defaults();
	ck_assert_ptr_null(raw(&o, "animation-header-not-first"));
	ck_assert_ptr_null(ba_find(D, "animation-header-missing"));
	done();
	ba_canim_opts c = ba_canim_defaults(0);
	c.no_header = true;
	f = comp(&c, "animation-header-missing");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, CT.object);
	done();
}
END_TEST

START_TEST(frame_order_and_range)
{
	ba_anim_opts o = ba_anim_defaults();
	o.first = 5;
	o.last = 3;
	const wl_finding *f = raw(&o, "anim-channel-frame-order");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.x_payload);
	done();
	o = ba_anim_defaults();
	o.last = 10; /* NumFrames 10: frames 0..9 */
	f = raw(&o, "anim-channel-frame-range");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.x_payload + 2);
	done();
	o.last = 9;
	o.first = 9;
	ck_assert_ptr_null(raw(&o, "anim-channel-frame-range"));
	ck_assert_ptr_null(ba_find(D, "anim-channel-frame-order"));
	done();
}
END_TEST

START_TEST(raw_sizes)
{
	ba_anim_opts o = ba_anim_defaults();
	o.data_delta = -4;
	const wl_finding *f = raw(&o, "anim-channel-size-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.x_payload + 12);
	done();
	o.data_delta = 8;
	ck_assert_ptr_null(raw(&o, "anim-channel-size-mismatch"));
	f = ba_find(D, "anim-channel-data-extra");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.x_payload + 12);
	done();
	o.data_delta = 0;
	ck_assert_ptr_null(raw(&o, "anim-channel-data-extra"));
	done();
}
END_TEST

START_TEST(bit_sizes)
{
	ba_anim_opts o = ba_anim_defaults();
	o.bit_channel = true;
	o.bit_delta = -1;
	const wl_finding *f = raw(&o, "bit-channel-size-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.bit_payload + 9);
	done();
	o.bit_delta = 0;
	ck_assert_ptr_null(raw(&o, "bit-channel-size-mismatch"));
	done();
}
END_TEST

START_TEST(vector_len)
{
	ba_anim_opts o = ba_anim_defaults();
	o.q_vector_len = 3;
	const wl_finding *f = raw(&o, "anim-channel-vector-len");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.q_payload + 4);
	done();
	o.q_vector_len = 4;
	ck_assert_ptr_null(raw(&o, "anim-channel-vector-len"));
	done();
}
END_TEST

START_TEST(raw_quaternion)
{
	ba_anim_opts o = ba_anim_defaults(); /* 10 frames, the last one scaled */
	o.q_scale = 0.9f;
	const wl_finding *f = raw(&o, "quaternion-not-normalized");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.q_payload + 12 + 9 * 16);
	ck_assert_int_eq(f->element, 9);
	done();
	o.q_scale = INFINITY;
	f = raw(&o, "quaternion-not-finite");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.q_payload + 12 + 9 * 16);
	done();
	o.q_scale = 1.0002f;
	ck_assert_ptr_null(raw(&o, "quaternion-not-normalized"));
	ck_assert_ptr_null(ba_find(D, "quaternion-not-finite"));
	done();
}
END_TEST

START_TEST(timecoded_size)
{
	ba_canim_opts c = ba_canim_defaults(0);
	c.size_delta = -8;
	const wl_finding *f = comp(&c, "anim-channel-size-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, CT.x_payload);
	done();
	c.size_delta = 0;
	c.count_delta = 1; /* header says one key more than present */
	f = comp(&c, "anim-channel-size-mismatch");
	ck_assert_ptr_nonnull(f);
	done();
	c.count_delta = 0;
	ck_assert_ptr_null(comp(&c, "anim-channel-size-mismatch"));
	done();
}
END_TEST

START_TEST(adaptive_delta)
{
	ba_canim_opts c = ba_canim_defaults(1);
	c.size_delta = -3; /* OpenSAGE needs 15 + 4 VL + 9 VL ceil(n/16) */
	const wl_finding *f = comp(&c, "anim-channel-size-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, CT.x_payload);
	done();
	c.size_delta = 0;
	c.count_delta = 1; /* channel NumFrames 21 vs header 20 */
	f = comp(&c, "anim-channel-frame-range");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, CT.x_payload);
	done();
	c.count_delta = 0;
	c.q_scale = 2.0f;
	f = comp(&c, "quaternion-not-normalized");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, CT.q_payload + 12);
	done();
	c.q_scale = 1.0f;
	ck_assert_ptr_null(comp(&c, "quaternion-not-normalized"));
	ck_assert_ptr_null(ba_find(D, "anim-channel-size-mismatch"));
	ck_assert_ptr_null(ba_find(D, "anim-channel-frame-range"));
	done();
}
END_TEST

START_TEST(timecoded_keys)
{
	ba_canim_opts c = ba_canim_defaults(0); /* keys 0,4,8,12,16; 20 frames */
	c.bad_key = 0;
	c.key_time = 1;
	const wl_finding *f = comp(&c, "timecode-first-not-zero");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, CT.q_payload + 8);
	done();
	c.bad_key = 2;
	c.key_time = 4; /* equal to key 1 */
	f = comp(&c, "timecode-not-increasing");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, CT.q_payload + 8 + 2 * 20);
	ck_assert_int_eq(f->element, 2);
	done();
	c.bad_key = 4;
	c.key_time = 20; /* past frame 19 */
	f = comp(&c, "anim-channel-frame-range");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, CT.q_payload + 8 + 4 * 20);
	done();
	c.key_time = 19 | 0x80000000u; /* binary-movement flag is masked */
	ck_assert_ptr_null(comp(&c, "anim-channel-frame-range"));
	ck_assert_ptr_null(ba_find(D, "timecode-not-increasing"));
	ck_assert_ptr_null(ba_find(D, "timecode-first-not-zero"));
	done();
}
END_TEST

START_TEST(timecoded_empty_and_quat)
{
	ba_canim_opts c = ba_canim_defaults(0);
	c.keys = 0;
	const wl_finding *f = comp(&c, "timecoded-channel-empty");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, CT.x_payload);
	done();
	c = ba_canim_defaults(0);
	c.keys = 1;
	ck_assert_ptr_null(comp(&c, "timecoded-channel-empty"));
	done();
	c = ba_canim_defaults(0);
	c.q_scale = 1.5f;
	f = comp(&c, "quaternion-not-normalized");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, CT.q_payload + 8 + 4 * 20 + 4);
	ck_assert_int_eq(f->element, 4);
	done();
}
END_TEST

START_TEST(flavor)
{
	ba_canim_opts c = ba_canim_defaults(0);
	c.flavor = 7;
	const wl_finding *f = comp(&c, "compressed-animation-flavor");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, CT.header_payload + 42);
	done();
	c.flavor = 1;
	ck_assert_ptr_null(comp(&c, "compressed-animation-flavor"));
	done();
}
END_TEST

START_TEST(robust)
{
	ba_anim_opts o = ba_anim_defaults();
	o.bit_channel = true;
	wb_init(&B);
	ba_animation(&B, &o, &AT);
	for (uint16_t fl = 0; fl < 2; fl++) {
		ba_canim_opts c = ba_canim_defaults(fl);
		ba_compressed_animation(&B, &c, &CT);
	}
	rb_lint_variants(B.data, B.len, &(rb_opts){ ba_lint_bytes, wl_doc_free, 11, 500, rb_flip_bits });
	wb_free(&B);
}
END_TEST

extern Suite *animation_suite(void);
Suite *animation_suite(void)
{
	const TTest *tests[] = {
		valid_is_clean, header_rules, frame_order_and_range, raw_sizes, bit_sizes,
		vector_len, raw_quaternion, timecoded_size, adaptive_delta, timecoded_keys,
		timecoded_empty_and_quat, flavor, robust, NULL
	};
	return rb_suite_of("animation", "rules", 0, tests, w3d_check_animation_rules);
}
