/*
 * check_anim.c - ANIM chunks and the keys they govern
 * (rules/b3d/animation.yaml).  ANIM (spec §ANIM): int32 flags, frames;
 * float fps.  The ANIM that governs a key is the nearest ANIM on the key's
 * NODE or its ancestors (spec: "an animation starts here in the
 * hierarchy"); keys with none are not judged.
 *
 *   b3d-anim-zero-frames       frames <= 0 (at the frames field)
 *   b3d-anim-bad-fps           fps <= 0 or not finite (at the fps field)
 *   b3d-anim-multiple          an ANIM after the first of the file (at its
 *                              header; one finding per extra ANIM)
 *   b3d-keys-beyond-anim       a key's frame is above the governing ANIM's
 *                              frames + 1 (per key record)
 *   b3d-keys-beyond-anim-by1   a key's frame is exactly frames + 1 (per key
 *                              record; the exporters' off-by-one)
 * Keys are not judged against an ANIM with frames <= 0 (that ANIM has its
 * own finding).
 */
#include <inttypes.h>
#include <math.h>

#include "core/cursor.h"
#include "checks.h"
#include "core/b3d/skin_bind.h"

void b3d_check_anim(wl_lint_ctx *ctx);

static void check_anim(wl_lint_ctx *ctx, const b3d_anim *a, size_t ordinal, const b3d_anim *first)
{
	uint64_t at = wl_chunk_payload_offset(a->src);
	const char *node = b3d_node_label(a->node);
	if (ordinal > 0)
		wl_report(&ctx->doc->findings, WLR_B3D_ANIM_MULTIPLE, a->src, -1, a->src->offset, a->src->header_size,
			  "ANIM %zu of the file (in NODE '%s'; the first is in NODE '%s'): Assimp imports "
			  "animations only from a file with exactly one ANIM",
			  ordinal + 1, node, b3d_node_label(first->node));
	if (!a->ok)
		return;
	if (a->frames <= 0)
		wl_report(&ctx->doc->findings, WLR_B3D_ANIM_ZERO_FRAMES, a->src, -1, at + 4, 4,
			  "ANIM of NODE '%s' has frames %" PRId32 ": Blitz3D's animation is empty and Assimp's "
			  "duration is %" PRId32,
			  node, a->frames, a->frames);
	if (!(a->fps > 0) || !isfinite(a->fps))
		wl_report(&ctx->doc->findings, WLR_B3D_ANIM_BAD_FPS, a->src, -1, at + 8, 4,
			  "ANIM of NODE '%s' has fps %g: Irrlicht keeps its default speed, Assimp copies it "
			  "as ticks per second",
			  node, (double)a->fps);
}

/* by1: b3d-keys-beyond-anim-by1 may be reported (it is about Assimp, which
 * imports animations only from a file with exactly one ANIM, B3DImporter.cpp
 * ReadBB3D: with more, its validation never sees the key). */
static void check_keys(wl_lint_ctx *ctx, const b3d_keys *ks, bool by1_on)
{
	const b3d_anim *a = b3d_governing_anim(ks->node);
	if (!a || a->frames <= 0 || !ks->keys.size)
		return;
	int64_t end = (int64_t)a->frames + 1;
	for (size_t i = 0; i < ks->keys.count; i++) {
		int32_t f = (int32_t)wl_le32(b3d_record(&ks->keys, i));
		if (f < end)
			continue;
		bool by1 = f == end;
		if (by1 && !by1_on)
			continue;
		wl_report(&ctx->doc->findings, by1 ? WLR_B3D_KEYS_BEYOND_ANIM_BY1 : WLR_B3D_KEYS_BEYOND_ANIM, ks->src,
			  (int64_t)i, b3d_record_offset(&ks->keys, i), ks->keys.size,
			  "key %zu of a KEYS of NODE '%s' is at frame %" PRId32 ", past the %" PRId32
			  " frames of the ANIM of NODE '%s'%s",
			  i, b3d_node_label(ks->node), f, a->frames, b3d_node_label(a->node),
			  by1 ? " by one: Assimp's validation rejects the file (mTime larger than mDuration)"
			      : ": Blitz3D never plays it and Assimp's validation rejects the file");
	}
}

void b3d_check_anim(wl_lint_ctx *ctx)
{
	const b3d_model *m = ctx->model;
	for (size_t i = 0; i < m->anim_count; i++)
		check_anim(ctx, m->anims[i], i, m->anims[0]);
	if (!wl_lint_enabled(ctx, WLR_B3D_KEYS_BEYOND_ANIM) && !wl_lint_enabled(ctx, WLR_B3D_KEYS_BEYOND_ANIM_BY1))
		return;
	for (size_t i = 0; i < m->keys_count; i++)
		if (m->keys[i]->flags_ok)
			check_keys(ctx, m->keys[i], m->anim_count == 1);
}
