/*
 * check_channels.c - animation rules beyond lint/w3d/check_animation.c
 * (rules/channels.yaml; notes/w3d_reference.md §2.4, §2.5, §3 F4, F5, F9,
 * F10, F13-F15):
 *
 *   anim-channel-pivot-out-of-range F4: a channel's Pivot is not below the
 *                               pivot count of its hierarchy, when that
 *                               hierarchy is in the same file
 *   anim-channel-type-unknown   F5: a channel type other than X, Y, Z, Q
 *                               (0, 1, 2, 6): the obsolete Euler types 3-5,
 *                               or unknown
 *   chunk-bfme-only             (rules/w3d/dialect.yaml) the BFME
 *                               visibility type 15, which the Renegade and
 *                               Zero Hour add_channel ignore
 *   bit-timecode-order          F9: a compressed bit channel's first time
 *                               is not 0 or its times do not increase
 *   adaptive-delta-scale-invalid F10: an adaptive-delta channel's Scale is
 *                               negative or not finite
 *   animation-frames-invalid    F13: NumFrames 0 or FrameRate 0
 *   anim-channel-duplicate      F14: two channels animate the same
 *                               (pivot, type), or two visibility channels
 *                               the same pivot
 *   timecode-binary-flag-on-first F15: the first key of a time-coded
 *                               channel has the binary-movement bit (31)
 *
 * Offsets: raw channel header (payload): Flags + 6, Pivot + 8; raw bit
 * channel: Pivot + 6; time-coded / adaptive-delta channel: Pivot + 4,
 * Flags + 7, Scale + 8 (AD); motion channel 0x284: Flags + 3, Pivot + 6;
 * compressed bit channel: Pivot + 4, times from + 8; headers: raw NumFrames
 * + 36, FrameRate + 40, compressed NumFrames + 36, FrameRate + 40.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "checks.h"
#include "core/w3d/model_lookup.h"

void w3d_check_channels(wl_lint_ctx *ctx);

#define CHANNEL_VIS_BFME 15u

/* One channel for duplicate detection: (pivot, type) and where it is. */
typedef struct chan_key {
	uint32_t pivot, type; /* type 0x10000 + n for visibility channels */
	const wl_chunk *src;
	uint64_t pivot_off;
	size_t order;
} chan_key;

static int by_key(const void *a, const void *b)
{
	const chan_key *x = a, *y = b;
	if (x->pivot != y->pivot)
		return x->pivot < y->pivot ? -1 : 1;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void report_duplicates(wl_lint_ctx *ctx, chan_key *keys, size_t n, const char *anim)
{
	qsort(keys, n, sizeof *keys, by_key);
	for (size_t i = 1; i < n; i++) {
		if (keys[i].pivot != keys[i - 1].pivot || keys[i].type != keys[i - 1].type)
			continue;
		bool vis = keys[i].type >= 0x10000u;
		wl_report(&ctx->doc->findings, WLR_ANIM_CHANNEL_DUPLICATE, keys[i].src, -1, keys[i].pivot_off, 2,
			  vis ? "animation '%s' has a second visibility channel for pivot %" PRIu32
				"; the engine keeps only the last one"
			      : "animation '%s' has a second channel of type %" PRIu32 " for pivot %" PRIu32
				"; the engine keeps only the last one",
			  anim, vis ? keys[i].pivot : keys[i].type, keys[i].pivot);
	}
}

static void check_type(wl_lint_ctx *ctx, const wl_chunk *k, uint64_t off, uint64_t len, unsigned type,
		       const char *anim)
{
	if (type <= W3D_ANIM_CHANNEL_Z || type == W3D_ANIM_CHANNEL_Q)
		return;
	if (type == CHANNEL_VIS_BFME) {
		/* BFME's own type: chunk-bfme-only, off for bfme (dialect.yaml) */
		wl_report(&ctx->doc->findings, WLR_CHUNK_BFME_ONLY, k, -1, off, len,
			  "channel of animation '%s' has type 15, the bfme visibility channel; the renegade and "
			  "zero hour loaders ignore it (add_channel has no case for it), so the visibility does "
			  "not animate",
			  anim);
		return;
	}
	const char *why = type <= W3D_ANIM_CHANNEL_ZR ? "an obsolete euler rotation type the pose update ignores"
						      : "unknown; the engine ignores the channel";
	wl_report(&ctx->doc->findings, WLR_ANIM_CHANNEL_TYPE_UNKNOWN, k, -1, off, len,
		  "channel of animation '%s' has type %u: %s", anim, type, why);
}

static void check_pivot(wl_lint_ctx *ctx, const wl_chunk *k, uint64_t off, unsigned pivot, uint32_t pivots,
			const char *anim, const char *tree)
{
	if (pivot < pivots)
		return;
	wl_report(&ctx->doc->findings, WLR_ANIM_CHANNEL_PIVOT_OUT_OF_RANGE, k, -1, off, 2,
		  "channel of animation '%s' animates pivot %u, but hierarchy '%s' has %" PRIu32
		  " pivots; the engine drops the channel",
		  anim, pivot, tree, pivots);
}

static void check_frames(wl_lint_ctx *ctx, const wl_chunk *hdr, uint32_t frames, uint32_t rate, const char *anim)
{
	uint64_t p = wl_chunk_payload_offset(hdr);
	if (frames == 0)
		wl_report(&ctx->doc->findings, WLR_ANIMATION_FRAMES_INVALID, hdr, -1, p + 36, 4,
			  "animation '%s' has 0 frames", anim);
	if (rate == 0)
		wl_report(&ctx->doc->findings, WLR_ANIMATION_FRAMES_INVALID, hdr, -1, p + 40, 4,
			  "animation '%s' has frame rate 0; playback never advances", anim);
}

/* The channels of one animation (raw or compressed) being checked: its
 * hierarchy and the (pivot, type) keys gathered for duplicate detection. */
typedef struct anim_scan {
	wl_lint_ctx *ctx;
	const char *anim;           /* the animation's name */
	const w3d_hierarchy *h;     /* its hierarchy, NULL when not found */
	uint32_t pivots;            /* h's pivot count, UINT32_MAX without h */
	chan_key *keys;             /* NULL when out of memory or no channel */
	size_t used;
} anim_scan;

/* Starts checking an animation of n channels: the header's frame count and
 * rate (when header_ok), then looks up its hierarchy. */
static anim_scan scan_begin(wl_lint_ctx *ctx, bool header_ok, const wl_chunk *header, uint32_t frames,
			    uint32_t rate, const char *anim, const char *tree_name, size_t n)
{
	if (header_ok)
		check_frames(ctx, header, frames, rate, anim);
	anim_scan s = { ctx, anim, NULL, UINT32_MAX, NULL, 0 };
	s.h = header_ok ? wl_find_hierarchy(ctx->model, tree_name, NULL) : NULL;
	if (s.h)
		s.pivots = wl_hierarchy_pivots(s.h);
	s.keys = n ? malloc(n * sizeof *s.keys) : NULL;
	if (n && !s.keys)
		ctx->doc->findings.oom = 1;
	return s;
}

/* One channel of chunk k: checks its pivot (at file offset pivot_off) and
 * keeps its (pivot, type) key; order is its index among the channels. */
static void scan_channel(anim_scan *s, const wl_chunk *k, uint64_t pivot_off, unsigned pivot, uint32_t type,
			 size_t order)
{
	check_pivot(s->ctx, k, pivot_off, pivot, s->pivots, s->anim, s->h ? s->h->name : "");
	if (s->keys)
		s->keys[s->used++] = (chan_key){ pivot, type, k, pivot_off, order };
}

/* Reports the duplicate channels and frees the keys. */
static void scan_end(anim_scan *s)
{
	if (s->keys)
		report_duplicates(s->ctx, s->keys, s->used, s->anim);
	free(s->keys);
}

static void check_raw(wl_lint_ctx *ctx, const w3d_animation *a)
{
	anim_scan s = scan_begin(ctx, a->header_ok, a->header, a->num_frames, a->frame_rate, a->name,
				 a->hierarchy_name, a->channel_count + a->bit_channel_count);
	for (size_t i = 0; i < a->channel_count; i++) {
		const w3d_anim_channel *ch = &a->channels[i];
		if (!ch->header_ok)
			continue;
		uint64_t p = wl_chunk_payload_offset(ch->src);
		check_type(ctx, ch->src, p + 6, 2, ch->flags, a->name);
		scan_channel(&s, ch->src, p + 8, ch->pivot, ch->flags, i);
	}
	for (size_t i = 0; i < a->bit_channel_count; i++) {
		const w3d_bit_channel *b = &a->bit_channels[i];
		if (!b->header_ok)
			continue;
		uint64_t p = wl_chunk_payload_offset(b->src);
		scan_channel(&s, b->src, p + 6, b->pivot, 0x10000u + b->flags, a->channel_count + i);
	}
	scan_end(&s);
}

/* F9: times of a compressed bit channel, bit 31 = state. */
static void check_bit_times(wl_lint_ctx *ctx, const w3d_cbit_channel *b, const char *anim)
{
	size_t n = b->data_bytes / 4;
	if (n > b->num_time_codes)
		n = b->num_time_codes;
	uint64_t base = wl_chunk_payload_offset(b->src) + W3D_TC_CHANNEL_HEADER;
	uint32_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t t = wl_le32(b->data + 4 * i) & 0x7FFFFFFFu;
		if (i == 0 && t != 0) {
			wl_report(&ctx->doc->findings, WLR_BIT_TIMECODE_ORDER, b->src, 0, base, 4,
				  "bit channel of animation '%s' for pivot %u starts at frame %" PRIu32 ", not 0",
				  anim, b->pivot, t);
		}
		if (i > 0 && t <= prev) {
			wl_report(&ctx->doc->findings, WLR_BIT_TIMECODE_ORDER, b->src, (int64_t)i, base + 4 * (uint64_t)i, 4,
				  "bit channel of animation '%s' for pivot %u key %zu is at frame %" PRIu32
				  ", not after frame %" PRIu32,
				  anim, b->pivot, i, t, prev);
		}
		prev = t;
	}
}

static void check_compressed(wl_lint_ctx *ctx, const w3d_compressed_animation *a)
{
	anim_scan s = scan_begin(ctx, a->header_ok, a->header, a->num_frames, a->frame_rate, a->name,
				 a->hierarchy_name, a->channel_count + a->bit_channel_count);
	for (size_t i = 0; i < a->channel_count; i++) {
		const w3d_canim_channel *ch = &a->channels[i];
		if (!ch->header_ok)
			continue;
		uint64_t p = wl_chunk_payload_offset(ch->src);
		bool motion = ch->src->id == W3D_CHUNK_COMPRESSED_ANIMATION_MOTION_CHANNEL;
		uint64_t type_off = motion ? p + 3 : p + 7, pivot_off = motion ? p + 6 : p + 4;
		check_type(ctx, ch->src, type_off, 1, ch->flags, a->name);
		scan_channel(&s, ch->src, pivot_off, ch->pivot, ch->flags, i);
		if ((ch->layout == W3D_CLAYOUT_AD4 || ch->layout == W3D_CLAYOUT_AD8) &&
		    !(isfinite(ch->scale) && ch->scale >= 0))
			wl_report(&ctx->doc->findings, WLR_ADAPTIVE_DELTA_SCALE_INVALID, ch->src, -1, p + 8, 4,
				  "adaptive-delta channel of animation '%s' for pivot %u has scale %g", a->name,
				  ch->pivot, (double)ch->scale);
		if (ch->layout == W3D_CLAYOUT_TIMECODED && ch->count > 0 && ch->data_bytes >= 4 &&
		    (wl_le32(ch->data) & W3D_TIMECODED_BINARY_MOVEMENT_FLAG))
			wl_report(&ctx->doc->findings, WLR_TIMECODE_BINARY_FLAG_ON_FIRST, ch->src, 0, ch->data_offset, 4,
				  "first key of channel of animation '%s' for pivot %u has the binary-movement "
				  "bit set; it has no earlier key to hold",
				  a->name, ch->pivot);
	}
	for (size_t i = 0; i < a->bit_channel_count; i++) {
		const w3d_cbit_channel *b = &a->bit_channels[i];
		if (!b->header_ok)
			continue;
		uint64_t p = wl_chunk_payload_offset(b->src);
		scan_channel(&s, b->src, p + 4, b->pivot, 0x10000u + b->flags, a->channel_count + i);
		check_bit_times(ctx, b, a->name);
	}
	scan_end(&s);
}

void w3d_check_channels(wl_lint_ctx *ctx)
{
	const w3d_model *m = ctx->model;
	if (!m)
		return;
	for (size_t i = 0; i < m->animation_count; i++)
		if (m->animations[i])
			check_raw(ctx, m->animations[i]);
	for (size_t i = 0; i < m->compressed_animation_count; i++)
		if (m->compressed_animations[i])
			check_compressed(ctx, m->compressed_animations[i]);
}
