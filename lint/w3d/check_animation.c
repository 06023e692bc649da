/*
 * check_animation.c - rules about ANIMATION (raw) and COMPRESSED_ANIMATION
 * objects (notes/w3d_reference.md §2.4, §2.5, §3.F):
 *
 *   animation-header-missing       no (compressed) animation header (A5)
 *   animation-header-not-first     the header is not the first sub-chunk (A5)
 *   anim-channel-frame-order       LastFrame < FirstFrame (F6)
 *   anim-channel-frame-range       a channel's frames reach past header
 *                                  NumFrames (F6, F8, F10)
 *   anim-channel-size-mismatch     channel data shorter than frame/key count
 *                                  x VectorLen needs (F6, F8, F10, §2.5 0x284)
 *   bit-channel-size-mismatch      bit channel data shorter than ceil(frames/8)
 *                                  bytes (raw) or 4 x NumTimeCodes (compressed) (F7, F9)
 *   anim-channel-data-extra        channel data longer than that (the engine
 *                                  skips the tail; OpenSAGE wants it exact)
 *   anim-channel-vector-len        VectorLen does not match the channel type (F5)
 *   compressed-animation-flavor    Flavor not 0, 1 (or BFME 2) (F11)
 *   timecoded-channel-empty        NumTimeCodes == 0 (F8)
 *   timecode-first-not-zero        the first key is not frame 0 (F8)
 *   timecode-not-increasing        keys do not strictly increase (F8)
 *   quaternion-not-normalized      a rotation key's length differs from 1
 *                                  by more than `tolerance` (F12)
 *   quaternion-not-finite          a rotation key has NaN/Inf (F12)
 *   quaternion-hemisphere-flip     consecutive rotation keys q[k-1], q[k]
 *                                  have dot < 0: the same rotation could be
 *                                  stored as -q[k] next to q[k-1] (F12)
 *
 * Quaternion rules look at raw Q channels (every frame), time-coded Q
 * channels (every key) and adaptive-delta Q channels (initial value only);
 * each bad key is one finding at its 16 bytes (the report folds repeats).  The
 * hemisphere rule compares each finite key with the finite key before it
 * (a non-finite key breaks the pair), so it never fires on adaptive-delta
 * channels (one stored value).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "core/vec.h"

void w3d_check_animation(wl_lint_ctx *ctx);

#define QUAT_TOL_DEFAULT 0.001

static bool is_xyz(unsigned t) { return t <= W3D_ANIM_CHANNEL_ZR; }

static void check_header(wl_lint_ctx *ctx, const wl_chunk *c, const wl_chunk *header, bool first,
			 const char *name, const char *what)
{
	wl_findings *f = &ctx->doc->findings;
	if (!header) {
		wl_report(f, WLR_ANIMATION_HEADER_MISSING, c, -1, c->offset, c->header_size,
			  "%s has no header chunk; the engine rejects it", what);
		return;
	}
	if (!first) {
		const wl_chunk *k = c->first_child;
		while (k && k->kind != WL_NODE_CHUNK)
			k = k->next;
		if (k)
			wl_report(f, WLR_ANIMATION_HEADER_NOT_FIRST, k, -1, k->offset, k->header_size + k->size,
				  "%s '%s' starts with %s, not its header", what, name, wl_chunk_name(ctx->doc, k));
	}
}

static void check_vector_len(wl_lint_ctx *ctx, const wl_chunk *k, uint64_t field, unsigned flags, unsigned vl,
			     int field_len)
{
	unsigned want;
	if (is_xyz(flags))
		want = 1;
	else if (flags == W3D_ANIM_CHANNEL_Q)
		want = 4;
	else
		return;
	if (vl != want)
		wl_report(&ctx->doc->findings, WLR_ANIM_CHANNEL_VECTOR_LEN, k, -1, field, (uint64_t)field_len,
			  "channel of type %u (%s) has vector length %u, not %u", flags,
			  flags == W3D_ANIM_CHANNEL_Q ? "q" : "x/y/z", vl, want);
}

/* Checks n quaternions of 4 floats at data + i*stride (i < n); reports
 * each bad key of each rule at its 16 bytes (file offset data_off + i*stride). */
static void check_quats(wl_lint_ctx *ctx, const wl_chunk *k, const uint8_t *data, uint64_t data_off, size_t n,
			size_t stride, const char *what)
{
	wl_findings *f = &ctx->doc->findings;
	double tol = wl_lint_param(ctx, WLR_QUATERNION_NOT_NORMALIZED, "tolerance");
	double lo2, hi2;
	wl_unit_band(tol, &lo2, &hi2);
	float prev[4];
	bool have_prev = false;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = data + i * stride;
		uint64_t off = data_off + i * stride;
		float q[4];
		for (int j = 0; j < 4; j++)
			q[j] = wl_lef32(p + 4 * j);
		if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2]) || !isfinite(q[3])) {
			wl_report(f, WLR_QUATERNION_NOT_FINITE, k, (int64_t)i, off, 16, "%s %zu rotation is not finite",
				  what, i);
			have_prev = false;
			continue;
		}
		if (have_prev) {
			double dot = wl_q4_dot(q, prev);
			if (dot < 0)
				wl_report(f, WLR_QUATERNION_HEMISPHERE_FLIP, k, (int64_t)i, off, 16,
					  "%s %zu rotation is in the other hemisphere than %s %zu (dot %.3g)", what, i,
					  what, i - 1, dot);
		}
		memcpy(prev, q, sizeof prev);
		have_prev = true;
		double s2 = wl_q4_len2(q);
		if (s2 > lo2 && s2 < hi2)
			continue;
		double norm = sqrt(s2);
		if (fabs(norm - 1.0) > tol)
			wl_report(f, WLR_QUATERNION_NOT_NORMALIZED, k, (int64_t)i, off, 16,
				  "%s %zu rotation has length %.6g, not 1", what, i, norm);
	}
}

static void check_raw(wl_lint_ctx *ctx, const w3d_animation *a)
{
	wl_findings *f = &ctx->doc->findings;
	check_header(ctx, a->src, a->header, a->header_first, a->name, "animation");
	for (size_t i = 0; i < a->channel_count; i++) {
		const w3d_anim_channel *ch = &a->channels[i];
		const wl_chunk *k = ch->src;
		if (!ch->header_ok)
			continue;
		uint64_t p = wl_chunk_payload_offset(k);
		check_vector_len(ctx, k, p + 4, ch->flags, ch->vector_len, 2);
		if (ch->last_frame < ch->first_frame) {
			wl_report(f, WLR_ANIM_CHANNEL_FRAME_ORDER, k, -1, p, 4,
				  "channel for pivot %u has last frame %u before first frame %u", ch->pivot,
				  ch->last_frame, ch->first_frame);
			continue;
		}
		if (a->header_ok && ch->last_frame >= a->num_frames)
			wl_report(f, WLR_ANIM_CHANNEL_FRAME_RANGE, k, -1, p + 2, 2,
				  "channel for pivot %u ends at frame %u, but the animation has %u frames", ch->pivot,
				  ch->last_frame, (unsigned)a->num_frames);
		uint64_t frames = (uint64_t)ch->last_frame - ch->first_frame + 1;
		uint64_t need = w3d_anim_channel_need(ch);
		if (ch->data_bytes != need)
			wl_report(f, ch->data_bytes < need ? WLR_ANIM_CHANNEL_SIZE_MISMATCH : WLR_ANIM_CHANNEL_DATA_EXTRA, k,
				  -1, ch->data_offset, ch->data_bytes,
				  "channel for pivot %u has %zu data bytes, but frames %u..%u x vector length %u need %llu",
				  ch->pivot, ch->data_bytes, ch->first_frame, ch->last_frame, ch->vector_len,
				  (unsigned long long)need);
		if (ch->flags == W3D_ANIM_CHANNEL_Q && ch->vector_len == 4) {
			size_t n = ch->data_bytes / 16;
			if (n > frames)
				n = (size_t)frames;
			check_quats(ctx, k, ch->data, ch->data_offset, n, 16, "frame");
		}
	}
	for (size_t i = 0; i < a->bit_channel_count; i++) {
		const w3d_bit_channel *b = &a->bit_channels[i];
		const wl_chunk *k = b->src;
		if (!b->header_ok)
			continue;
		uint64_t p = wl_chunk_payload_offset(k);
		if (b->last_frame < b->first_frame) {
			wl_report(f, WLR_ANIM_CHANNEL_FRAME_ORDER, k, -1, p, 4,
				  "bit channel for pivot %u has last frame %u before first frame %u", b->pivot,
				  b->last_frame, b->first_frame);
			continue;
		}
		if (a->header_ok && b->last_frame >= a->num_frames)
			wl_report(f, WLR_ANIM_CHANNEL_FRAME_RANGE, k, -1, p + 2, 2,
				  "bit channel for pivot %u ends at frame %u, but the animation has %u frames", b->pivot,
				  b->last_frame, (unsigned)a->num_frames);
		uint64_t frames = (uint64_t)b->last_frame - b->first_frame + 1;
		uint64_t need = (frames + 7) / 8;
		if (b->data_bytes != need)
			wl_report(f, b->data_bytes < need ? WLR_BIT_CHANNEL_SIZE_MISMATCH : WLR_ANIM_CHANNEL_DATA_EXTRA, k, -1,
				  p + W3D_BIT_CHANNEL_HEADER, b->data_bytes,
				  "bit channel for pivot %u has %zu data bytes, but frames %u..%u need %llu", b->pivot,
				  b->data_bytes, b->first_frame, b->last_frame, (unsigned long long)need);
	}
}

/* Time-coded keys: n keys, key i's frame is read by frame_at(i). */
typedef struct keyseq {
	const uint8_t *keys;  /* first key */
	uint64_t keys_off;    /* file offset of the first key */
	size_t stride;        /* bytes between keys */
	int width;            /* 2 (uint16) or 4 (uint32, bit 31 masked) */
} keyseq;

static uint32_t key_at(const keyseq *s, size_t i)
{
	const uint8_t *p = s->keys + i * s->stride;
	return s->width == 2 ? wl_le16(p) : (wl_le32(p) & ~W3D_TIMECODED_BINARY_MOVEMENT_FLAG);
}

static void check_keys(wl_lint_ctx *ctx, const w3d_compressed_animation *a, const w3d_canim_channel *ch,
		       const keyseq *s, size_t n)
{
	wl_findings *f = &ctx->doc->findings;
	const wl_chunk *k = ch->src;
	if (n == 0)
		return;
	uint32_t k0 = key_at(s, 0);
	if (k0 != 0)
		wl_report(f, WLR_TIMECODE_FIRST_NOT_ZERO, k, 0, s->keys_off, (uint64_t)s->width,
			  "channel for pivot %u starts at frame %u, not 0", ch->pivot, (unsigned)k0);
	uint32_t prev = k0;
	for (size_t i = 1; i < n; i++) {
		uint32_t t = key_at(s, i);
		if (t <= prev) {
			wl_report(f, WLR_TIMECODE_NOT_INCREASING, k, (int64_t)i, s->keys_off + i * s->stride,
				  (uint64_t)s->width, "channel for pivot %u key %zu is at frame %u, not after frame %u",
				  ch->pivot, i, (unsigned)t, (unsigned)prev);
		}
		prev = t;
	}
	uint32_t last = key_at(s, n - 1);
	if (a->header_ok && last >= a->num_frames)
		wl_report(f, WLR_ANIM_CHANNEL_FRAME_RANGE, k, (int64_t)(n - 1), s->keys_off + (n - 1) * s->stride,
			  (uint64_t)s->width, "channel for pivot %u has a key at frame %u, but the animation has %u frames",
			  ch->pivot, (unsigned)last, (unsigned)a->num_frames);
}

static void size_mismatch(wl_lint_ctx *ctx, const w3d_canim_channel *ch, uint64_t have, uint64_t need,
			  const char *why)
{
	const wl_chunk *k = ch->src;
	wl_report(&ctx->doc->findings, have < need ? WLR_ANIM_CHANNEL_SIZE_MISMATCH : WLR_ANIM_CHANNEL_DATA_EXTRA, k, -1, wl_chunk_payload_offset(k), k->size,
		  "channel for pivot %u has %llu bytes, but %s need %llu", ch->pivot, (unsigned long long)have, why,
		  (unsigned long long)need);
}

static void check_canim_channel(wl_lint_ctx *ctx, const w3d_compressed_animation *a, const w3d_canim_channel *ch)
{
	wl_findings *f = &ctx->doc->findings;
	const wl_chunk *k = ch->src;
	uint64_t p = wl_chunk_payload_offset(k);
	uint64_t vl = ch->vector_len;
	bool is_q = ch->flags == W3D_ANIM_CHANNEL_Q && ch->vector_len == 4;
	bool motion = k->id == W3D_CHUNK_COMPRESSED_ANIMATION_MOTION_CHANNEL;
	check_vector_len(ctx, k, motion ? p + 2 : p + 6, ch->flags, ch->vector_len, 1);
	char why[96];
	switch (ch->layout) {
	case W3D_CLAYOUT_TIMECODED: {
		if (ch->count == 0) {
			wl_report(f, WLR_TIMECODED_CHANNEL_EMPTY, k, -1, p, 4, "time-coded channel for pivot %u has no keys",
				  ch->pivot);
			break;
		}
		uint64_t pkt = 4 * (vl + 1);
		uint64_t need = (uint64_t)ch->count * pkt;
		if (ch->data_bytes != need) {
			snprintf(why, sizeof why, "%u time codes x (vector length %u + 1) x 4",
				 (unsigned)ch->count, ch->vector_len);
			size_mismatch(ctx, ch, ch->data_bytes, need, why);
		}
		size_t n = (size_t)(ch->data_bytes / pkt);
		if (n > ch->count)
			n = ch->count;
		keyseq s = { ch->data, ch->data_offset, (size_t)pkt, 4 };
		check_keys(ctx, a, ch, &s, n);
		if (is_q)
			check_quats(ctx, k, ch->data + 4, ch->data_offset + 4, n, (size_t)pkt, "key");
		break;
	}
	case W3D_CLAYOUT_AD4:
	case W3D_CLAYOUT_AD8: {
		uint64_t pkt = ch->layout == W3D_CLAYOUT_AD4 ? 9 : 17;
		uint64_t blocks = ((uint64_t)ch->count + 15) / 16;
		uint64_t need = 15 + 4 * vl + pkt * vl * blocks;
		if (k->size != need) {
			snprintf(why, sizeof why, "15 + 4 x %u + %u x %u x ceil(%u/16)", ch->vector_len,
				 (unsigned)pkt, ch->vector_len, (unsigned)ch->count);
			size_mismatch(ctx, ch, k->size, need, why);
		}
		if (a->header_ok && ch->count != a->num_frames)
			wl_report(f, WLR_ANIM_CHANNEL_FRAME_RANGE, k, -1, p, 4,
				  "adaptive-delta channel for pivot %u has %u frames, but the animation has %u",
				  ch->pivot, (unsigned)ch->count, (unsigned)a->num_frames);
		if (is_q && ch->data_bytes >= 16)
			check_quats(ctx, k, ch->data, ch->data_offset, 1, 16, "initial value");
		break;
	}
	case W3D_CLAYOUT_MOTION_TC: {
		uint64_t keys_bytes = (2 * (uint64_t)ch->count + 3) & ~(uint64_t)3;
		uint64_t need = keys_bytes + 4 * vl * ch->count;
		if (ch->data_bytes != need) {
			snprintf(why, sizeof why, "%u keys (uint16, padded to 4) + %u x %u floats",
				 (unsigned)ch->count, (unsigned)ch->count, ch->vector_len);
			size_mismatch(ctx, ch, ch->data_bytes + W3D_MOTION_CHANNEL_HEADER,
				      need + W3D_MOTION_CHANNEL_HEADER, why);
		}
		size_t n = ch->count;
		if ((uint64_t)n * 2 > ch->data_bytes)
			n = ch->data_bytes / 2;
		keyseq s = { ch->data, ch->data_offset, 2, 2 };
		check_keys(ctx, a, ch, &s, n);
		if (is_q && keys_bytes <= ch->data_bytes) {
			size_t nq = (size_t)((ch->data_bytes - keys_bytes) / 16);
			if (nq > ch->count)
				nq = ch->count;
			check_quats(ctx, k, ch->data + keys_bytes, ch->data_offset + keys_bytes, nq, 16, "key");
		}
		break;
	}
	case W3D_CLAYOUT_MOTION_AD4:
	case W3D_CLAYOUT_MOTION_AD8: {
		uint64_t pkt = ch->layout == W3D_CLAYOUT_MOTION_AD4 ? 9 : 17;
		uint64_t blocks = ((uint64_t)ch->count + 15) / 16;
		uint64_t need = 4 * vl + pkt * vl * blocks;
		if (ch->data_bytes != need) {
			snprintf(why, sizeof why, "12 + 4 x %u + %u x %u x ceil(%u/16)", ch->vector_len,
				 (unsigned)pkt, ch->vector_len, (unsigned)ch->count);
			size_mismatch(ctx, ch, k->size, need + 12, why);
		}
		if (is_q && ch->data_bytes >= 16)
			check_quats(ctx, k, ch->data, ch->data_offset, 1, 16, "initial value");
		break;
	}
	case W3D_CLAYOUT_UNKNOWN:
		break;
	}
}

static void check_compressed(wl_lint_ctx *ctx, const w3d_compressed_animation *a)
{
	wl_findings *f = &ctx->doc->findings;
	check_header(ctx, a->src, a->header, a->header_first, a->name, "compressed animation");
	if (a->header_ok && a->flavor > W3D_ANIM_FLAVOR_ADAPTIVE_DELTA8)
		wl_report(f, WLR_COMPRESSED_ANIMATION_FLAVOR, a->header, -1, wl_chunk_payload_offset(a->header) + 42, 2,
			  "compressed animation '%s' has flavor %u; only 0 (time-coded) and 1 (adaptive delta) are known",
			  a->name, a->flavor);
	for (size_t i = 0; i < a->channel_count; i++)
		if (a->channels[i].header_ok)
			check_canim_channel(ctx, a, &a->channels[i]);
	for (size_t i = 0; i < a->bit_channel_count; i++) {
		const w3d_cbit_channel *b = &a->bit_channels[i];
		if (!b->header_ok)
			continue;
		uint64_t need = 4 * (uint64_t)b->num_time_codes;
		if (b->data_bytes != need)
			wl_report(f, b->data_bytes < need ? WLR_BIT_CHANNEL_SIZE_MISMATCH : WLR_ANIM_CHANNEL_DATA_EXTRA, b->src, -1,
				  wl_chunk_payload_offset(b->src) + W3D_TC_CHANNEL_HEADER, b->data_bytes,
				  "bit channel for pivot %u has %zu data bytes, but %u time codes need %llu", b->pivot,
				  b->data_bytes, (unsigned)b->num_time_codes, (unsigned long long)need);
	}
}

void w3d_check_animation(wl_lint_ctx *ctx)
{
	const w3d_model *m = ctx->model;
	if (!m)
		return;
	for (size_t i = 0; i < m->animation_count; i++)
		check_raw(ctx, m->animations[i]);
	for (size_t i = 0; i < m->compressed_animation_count; i++)
		check_compressed(ctx, m->compressed_animations[i]);
}
