/*
 * check_anim_loop.c - rule anim-loop-end-differs (rules/animation.yaml;
 * notes/w3d_reference.md §2.4, §3 F16).
 *
 * A raw ANIMATION (0x200) is sampled between frames: HRawAnimClass
 * interpolates frame f toward frame f + 1, and the frame after the last one
 * is frame 0 (`if (frame1 >= NumFrames) frame1 = 0`, hrawanim.cpp:482, 539).
 * A looping animation therefore spends its last frame interval blending from
 * frame NumFrames - 1 back to frame 0: unless the two poses are equal, the
 * loop shows a snap or a slide there.  The exporter's convention for loops is
 * a last frame equal to the first.
 *
 * Whether an animation loops is decided by the game code that plays it, not
 * by the file, so the rule is off by default: turn it on for the looping
 * animations of a mod (idles, walks, runs) in .w3dlint.yaml, e.g.
 *
 *     rules:
 *       anim-loop-end-differs: info
 *
 * with per-path-ignores for the folders of one-shot animations (deaths,
 * hits; docs/configuration.md).
 *
 * For each channel the value at frame 0 and at frame NumFrames - 1 are
 * compared; outside [FirstFrame, LastFrame] a channel's value is the
 * identity (0, or the quaternion 0,0,0,1; motchan.cpp:1327-1346) and a bit
 * channel's is its DefaultVal.  X/Y/Z channels differ when |a - b| >
 * `tolerance` (model units); Q channels when the angle between the two
 * rotations (w3d_quat_angle_deg, core/w3d/rotation.h) exceeds `angle_tolerance`
 * degrees; bit channels when the bits differ.  Channels whose header or data
 * is short, with LastFrame < FirstFrame, a vector length other than 1 (X/Y/Z)
 * or 4 (Q), or non-finite values are skipped (other rules report them).  One
 * finding per channel that differs; offset = that channel's value at the
 * last frame (or its chunk header when the last frame is outside its range).
 */
#include <math.h>

#include "core/w3d/rotation.h"
#include "checks.h"

void w3d_check_anim_loop(wl_lint_ctx *ctx);

#define RULE WLR_ANIM_LOOP_END_DIFFERS
#define TOL_DEFAULT 0.001
#define ANGLE_TOL_DEFAULT_DEG 0.1

/* Value of channel ch at frame f into v (ch->vector_len floats, at most 4);
 * *at = file offset of the stored value, 0 when f is outside the range. */
static void channel_value(const w3d_anim_channel *ch, uint32_t f, float v[4], uint64_t *at)
{
	unsigned vl = ch->vector_len;
	*at = 0;
	if (f < ch->first_frame || f > ch->last_frame) {
		v[0] = v[1] = v[2] = 0;
		v[3] = vl == 4 ? 1.0f : 0;
		return;
	}
	size_t off = (size_t)(f - ch->first_frame) * vl * 4;
	for (unsigned j = 0; j < vl; j++)
		v[j] = wl_lef32(ch->data + off + 4 * j);
	*at = ch->data_offset + off;
}

/* True when the channel's values at frames 0 and last differ beyond the
 * tolerances; false also for channels that are skipped (see above). */
static bool channel_differs(const w3d_anim_channel *ch, uint32_t last, double tol, double angle_tol,
			    uint64_t *at)
{
	bool q = ch->flags == W3D_ANIM_CHANNEL_Q;
	unsigned want = q ? 4 : 1;
	if (!ch->header_ok || ch->last_frame < ch->first_frame || ch->vector_len != want ||
	    (!q && ch->flags > W3D_ANIM_CHANNEL_Z))
		return false;
	uint64_t need = ((uint64_t)ch->last_frame - ch->first_frame + 1) * want * 4;
	if (ch->data_bytes < need)
		return false;
	float a[4], b[4];
	uint64_t at0;
	channel_value(ch, 0, a, &at0);
	channel_value(ch, last, b, at);
	for (unsigned j = 0; j < want; j++)
		if (!isfinite(a[j]) || !isfinite(b[j]))
			return false;
	if (!q)
		return fabs((double)a[0] - b[0]) > tol;
	double qa[4], qb[4], la = 0, lb = 0;
	for (int j = 0; j < 4; j++) {
		qa[j] = a[j];
		qb[j] = b[j];
		la += qa[j] * qa[j];
		lb += qb[j] * qb[j];
	}
	if (la < 0.25 || lb < 0.25)
		return false;
	return w3d_quat_angle_deg(qa, qb) > angle_tol;
}

static int bit_at(const w3d_bit_channel *b, uint32_t f)
{
	if (f < b->first_frame || f > b->last_frame)
		return b->default_val != 0;
	uint32_t i = f - b->first_frame;
	return (b->data[i / 8] >> (i % 8)) & 1;
}

static bool bit_channel_differs(const w3d_bit_channel *b, uint32_t last, uint64_t *at)
{
	if (!b->header_ok || b->last_frame < b->first_frame)
		return false;
	uint64_t need = ((uint64_t)b->last_frame - b->first_frame + 1 + 7) / 8;
	if (b->data_bytes < need)
		return false;
	*at = 0;
	if (last >= b->first_frame && last <= b->last_frame)
		*at = wl_chunk_payload_offset(b->src) + W3D_BIT_CHANNEL_HEADER + (last - b->first_frame) / 8;
	return bit_at(b, 0) != bit_at(b, last);
}

static void check_one(wl_lint_ctx *ctx, const w3d_animation *a, double tol, double angle_tol)
{
	if (!a->header_ok || a->num_frames < 2)
		return;
	uint32_t last = a->num_frames - 1;
	size_t total = a->channel_count + a->bit_channel_count;
	for (size_t i = 0; i < total; i++) {
		uint64_t at = 0;
		bool is_bit = i >= a->channel_count;
		bool differs;
		const wl_chunk *src;
		unsigned pivot;
		if (!is_bit) {
			const w3d_anim_channel *ch = &a->channels[i];
			differs = channel_differs(ch, last, tol, angle_tol, &at);
			src = ch->src;
			pivot = ch->pivot;
		} else {
			const w3d_bit_channel *b = &a->bit_channels[i - a->channel_count];
			differs = bit_channel_differs(b, last, &at);
			src = b->src;
			pivot = b->pivot;
		}
		if (!differs)
			continue;
		uint64_t off = at ? at : src->offset;
		uint64_t len = at ? (is_bit ? 1 : 4) : src->header_size;
		wl_report(&ctx->doc->findings, RULE, src, -1, off, len,
			  "animation '%s': the %s channel of pivot %u ends (frame %u) with another value than it "
			  "starts (frame 0); looping, the last frame blends back to frame 0",
			  a->name, is_bit ? "visibility" : "motion", pivot, (unsigned)last);
	}
}

void w3d_check_anim_loop(wl_lint_ctx *ctx)
{
	const w3d_model *m = ctx->model;
	if (!m || !wl_lint_enabled(ctx, RULE))
		return;
	double tol = wl_lint_param(ctx, RULE, "tolerance");
	double angle_tol = wl_lint_param(ctx, RULE, "angle_tolerance");
	for (size_t i = 0; i < m->animation_count; i++)
		if (m->animations[i])
			check_one(ctx, m->animations[i], tol, angle_tol);
}
