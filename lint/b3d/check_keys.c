/*
 * check_keys.c - the keys of KEYS chunks (rules/b3d/animation.yaml).  Key
 * records (spec §KEYS): int32 frame, then position[3], scale[3] and
 * rotation w,x,y,z as KEYS flags 1, 2, 4 say.  Per-key findings cover the
 * whole key record (element = key index); per-chunk ones the flags field.
 *
 *   b3d-keys-flags-unknown   KEYS flags has bits other than 1, 2, 4 (once
 *                            per chunk, at the flags)
 *   b3d-key-not-finite       a float of the key is NaN or infinite
 *   b3d-key-frame-below-1    the frame is below 1 (frames count from 1)
 *   b3d-keys-frame-order     the frame is not above every frame before it
 *                            in the same chunk (Luanti keeps strictly
 *                            increasing frames only; frames below 1 count
 *                            as 1, as Luanti clamps them first)
 *   b3d-keys-duplicate-frame an earlier KEYS chunk of the same NODE keys
 *                            the same channel (position, scale or
 *                            rotation) at the same frame; keying different
 *                            channels in separate chunks at the same
 *                            frames is valid and not reported (once per
 *                            key, naming the first channel that repeats)
 *   b3d-key-rotation-not-unit the rotation's length differs from 1 by more
 *                            than `tolerance` (finite keys only)
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "checks.h"
#include "core/b3d/skin_bind.h"
#include "core/vec.h"
#include "core/platform/printf.h"

void b3d_check_keys(wl_lint_ctx *ctx);

static int32_t frame_of(const b3d_keys *ks, size_t i)
{
	return (int32_t)wl_le32(b3d_record(&ks->keys, i));
}

/* A finding about key i of ks: "key I (frame F) of a KEYS of NODE 'N' "
 * then the formatted tail. */
static void key_report(wl_lint_ctx *ctx, wl_rule_id rule, const b3d_keys *ks, size_t i, const char *fmt, ...)
	__attribute__((format(WL_PRINTF_FMT, 5, 6)));
static void key_report(wl_lint_ctx *ctx, wl_rule_id rule, const b3d_keys *ks, size_t i, const char *fmt, ...)
{
	char tail[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tail, sizeof tail, fmt, ap);
	va_end(ap);
	wl_report(&ctx->doc->findings, rule, ks->src, (int64_t)i, b3d_record_offset(&ks->keys, i), ks->keys.size,
		  "key %zu (frame %" PRId32 ") of a KEYS of NODE '%s' %s", i, frame_of(ks, i),
		  b3d_node_label(ks->node), tail);
}

/* The per-key rules that need only the chunk itself. */
static void check_chunk(wl_lint_ctx *ctx, const b3d_keys *ks, double tol)
{
	if (ks->flags & ~7)
		wl_report(&ctx->doc->findings, WLR_B3D_KEYS_FLAGS_UNKNOWN, ks->src, -1,
			  wl_chunk_payload_offset(ks->src), 4,
			  "KEYS of NODE '%s' has flags 0x%" PRIx32 ": bits other than 1 (position), 2 "
			  "(scale) and 4 (rotation) mean nothing to any reader",
			  b3d_node_label(ks->node), (uint32_t)ks->flags);
	if (!ks->keys.size)
		return;
	size_t floats = (ks->keys.size - 4) / 4;
	/* One scan of the whole chunk, frames included: when no 4-byte word
	 * looks like a non-finite float, no key holds one (a frame that looks
	 * like one, e.g. a negative frame, only sends the keys to their own
	 * scans). */
	bool scan_keys = !wl_lef32_all_finite(ks->keys.data, ks->keys.count * (ks->keys.size / 4));
	int32_t max = INT32_MIN;
	const uint8_t *p = ks->keys.data;
	for (size_t i = 0; i < ks->keys.count; i++, p += ks->keys.size) {
		int32_t f = (int32_t)wl_le32(p);
		if (f < 1)
			key_report(ctx, WLR_B3D_KEY_FRAME_BELOW_1, ks, i,
				   "is below 1: Luanti logs \"Illegal frame number found\" and moves it to "
				   "frame 1");
		int32_t clamped = f < 1 ? 1 : f; /* as Luanti reads it */
		if (i > 0 && clamped <= max)
			key_report(ctx, WLR_B3D_KEYS_FRAME_ORDER, ks, i,
				   "is not after every earlier key of the chunk: Luanti drops it");
		if (clamped > max)
			max = clamped;
		if (scan_keys && !wl_lef32_all_finite(p + 4, floats)) {
			key_report(ctx, WLR_B3D_KEY_NOT_FINITE, ks, i, "holds a NaN or infinite value");
			continue;
		}
		if (!ks->rotation_at)
			continue;
		float q[4];
		for (int k = 0; k < 4; k++)
			q[k] = wl_lef32(p + ks->rotation_at + 4 * (unsigned)k);
		double len = wl_q4_len(q);
		if (fabs(len - 1.0) > tol)
			key_report(ctx, WLR_B3D_KEY_ROTATION_NOT_UNIT, ks, i,
				   "has a rotation of length %.6g, not a unit quaternion (tolerance %g): Luanti "
				   "slerps it as it is, scaling the bone",
				   len, tol);
	}
}

/* A set of frames (open addressing, linear probing; cap a power of two,
 * at least twice the frames it will hold). */
typedef struct frame_set {
	int32_t *slot;
	uint8_t *used;
	size_t cap;
} frame_set;

static size_t frame_hash(int32_t f, size_t cap)
{
	return ((uint32_t)f * 2654435761u) & (cap - 1);
}

static bool frame_set_has(const frame_set *fs, int32_t f)
{
	for (size_t h = frame_hash(f, fs->cap); fs->used[h]; h = (h + 1) & (fs->cap - 1))
		if (fs->slot[h] == f)
			return true;
	return false;
}

static void frame_set_add(frame_set *fs, int32_t f)
{
	size_t h = frame_hash(f, fs->cap);
	for (; fs->used[h]; h = (h + 1) & (fs->cap - 1))
		if (fs->slot[h] == f)
			return;
	fs->used[h] = 1;
	fs->slot[h] = f;
}

static const char *const channel_name[3] = { "position", "scale", "rotation" };

/* ks[0..n): the KEYS chunks of one NODE, in file order.  A key repeats
 * when an earlier chunk keys the same channel at its frame: per channel, a
 * set of the frames of the chunks before (linear in the keys). */
static void duplicates(wl_lint_ctx *ctx, const b3d_keys *const *ks, size_t n)
{
	size_t total = 0;
	unsigned keyed[3] = { 0, 0, 0 }; /* chunks with keys of each channel */
	for (size_t c = 0; c < n; c++) {
		total += ks[c]->keys.count;
		if (ks[c]->keys.count) {
			keyed[0] += ks[c]->position_at != 0;
			keyed[1] += ks[c]->scale_at != 0;
			keyed[2] += ks[c]->rotation_at != 0;
		}
	}
	/* A repeat needs a channel keyed by two chunks: most nodes key each
	 * channel in one chunk. */
	if (n < 2 || !total || (keyed[0] < 2 && keyed[1] < 2 && keyed[2] < 2))
		return;
	size_t cap = 16;
	while (cap < 2 * total)
		cap *= 2;
	frame_set fs = { malloc(cap * sizeof *fs.slot), malloc(cap), cap };
	uint8_t *dup = calloc(total, 1); /* 1 + channel of the first repeat */
	if (!fs.slot || !fs.used || !dup) {
		ctx->doc->findings.oom = 1;
		goto out;
	}
	for (uint8_t ch = 0; ch < 3; ch++) {
		if (keyed[ch] < 2)
			continue;
		memset(fs.used, 0, cap);
		for (size_t c = 0, base = 0; c < n; base += ks[c]->keys.count, c++) {
			const uint32_t at[3] = { ks[c]->position_at, ks[c]->scale_at, ks[c]->rotation_at };
			if (!at[ch])
				continue;
			for (size_t i = 0; i < ks[c]->keys.count; i++)
				if (!dup[base + i] && frame_set_has(&fs, frame_of(ks[c], i)))
					dup[base + i] = (uint8_t)(1 + ch);
			for (size_t i = 0; i < ks[c]->keys.count; i++)
				frame_set_add(&fs, frame_of(ks[c], i));
		}
	}
	for (size_t c = 0, base = 0; c < n; base += ks[c]->keys.count, c++)
		for (size_t i = 0; i < ks[c]->keys.count; i++) {
			uint8_t d = dup[base + i];
			if (d)
				key_report(ctx, WLR_B3D_KEYS_DUPLICATE_FRAME, ks[c], i,
					   "keys the %s at a frame an earlier KEYS of the NODE already keys it "
					   "at: Luanti keeps one of them",
					   channel_name[d - 1]);
		}
out:
	free(fs.slot);
	free(fs.used);
	free(dup);
}

static int by_node(const void *a, const void *b)
{
	const b3d_keys *x = *(const b3d_keys *const *)a, *y = *(const b3d_keys *const *)b;
	if (x->node->index != y->node->index)
		return x->node->index < y->node->index ? -1 : 1;
	return x->src->offset < y->src->offset ? -1 : x->src->offset > y->src->offset;
}

void b3d_check_keys(wl_lint_ctx *ctx)
{
	const b3d_model *m = ctx->model;
	double tol = wl_lint_param(ctx, WLR_B3D_KEY_ROTATION_NOT_UNIT, "tolerance");
	for (size_t i = 0; i < m->keys_count; i++)
		if (m->keys[i]->flags_ok)
			check_chunk(ctx, m->keys[i], tol);
	if (!wl_lint_enabled(ctx, WLR_B3D_KEYS_DUPLICATE_FRAME) || m->keys_count < 2)
		return;
	const b3d_keys **sorted = malloc(m->keys_count * sizeof *sorted);
	if (!sorted) {
		ctx->doc->findings.oom = 1;
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < m->keys_count; i++)
		if (m->keys[i]->flags_ok && m->keys[i]->keys.size)
			sorted[n++] = m->keys[i];
	qsort(sorted, n, sizeof *sorted, by_node);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && sorted[j]->node == sorted[i]->node; j++)
			;
		duplicates(ctx, sorted + i, j - i);
	}
	free(sorted);
}
