/*
 * fix_anim.c - the ANIM fixers (rules/b3d/animation.yaml), all safe:
 *
 * cover-keys-anim   repairs b3d-keys-beyond-anim and
 *   b3d-keys-beyond-anim-by1 by raising the frames of the ANIM that governs
 *   a reported key to the largest frame of every key that ANIM governs.
 *   The governing ANIM is the one the rules use (lint/b3d/check_anim.c):
 *   the nearest complete ANIM on the key's NODE or its ancestors.  Only
 *   frames changes (flags and fps are kept); Luanti ignores ANIM, Blitz3D
 *   then plays the last key and Assimp's validation accepts the file.
 *   ANIMs of frames <= 0 are not judged by those rules and are left alone.
 * fit-anim-frames   repairs b3d-anim-zero-frames the same way: frames
 *   becomes the largest frame of the keys the ANIM governs, so Blitz3D
 *   (loader_b3d.cpp: frames is the animator's length) plays every key and
 *   Assimp's duration covers them.  An ANIM that governs no key, or only
 *   keys at frames below 1, gets frames 1: there is nothing to cover, 1 is
 *   the smallest length the rule accepts and a one-frame animation shows
 *   the pose the file already shows, whereas removing the ANIM would change
 *   the hierarchy (and Assimp's animation count).  Irrlicht and Luanti
 *   ignore frames (CB3DMeshFileLoader.cpp readChunkANIM).
 * default-anim-fps  repairs b3d-anim-bad-fps: an fps <= 0, NaN or infinite
 *   becomes 25, the speed Irrlicht and Luanti use when the file's is not
 *   above 0 (CB3DMeshFileLoader.cpp readChunkANIM sets the speed only for
 *   fps > 0; SkinnedMesh's constructor defaults FramesPerSecond to 25,
 *   irr/include/SkinnedMesh.h); Blitz3D ignores fps and Assimp copies it as
 *   ticks per second, where 0 means "not given".
 */
#include "fixers.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "core/platform/printf.h"

static bool wanted_finding(const wl_fix_ctx *x, const wl_finding *f)
{
	if (f->severity == WL_SEV_OFF || !f->chunk)
		return false;
	return (f->rule_id == WLR_B3D_KEYS_BEYOND_ANIM || f->rule_id == WLR_B3D_KEYS_BEYOND_ANIM_BY1) &&
	       wl_fix_rule_wanted(x, f->rule_id);
}

/* Largest key frame of the KEYS chunks a governs (INT32_MIN: none). */
static int32_t last_frame(const b3d_model *m, const b3d_anim *a)
{
	int32_t max = INT32_MIN;
	for (size_t i = 0; i < m->keys_count; i++) {
		const b3d_keys *ks = m->keys[i];
		if (!ks->flags_ok || !ks->keys.size || b3d_governing_anim(ks->node) != a)
			continue;
		for (size_t k = 0; k < ks->keys.count; k++) {
			int32_t f = (int32_t)wl_le32(b3d_record(&ks->keys, k));
			if (f > max)
				max = f;
		}
	}
	return max;
}

/* Writes v over the 4 bytes at byte `field` of ANIM a's payload and notes
 * it under rule with the formatted text; 0 (also when the bytes are not
 * there), -1 out of memory. */
static int set_field(wl_doc *d, const b3d_anim *a, unsigned field, uint32_t v, wl_rule_id rule, const char *fmt,
		     ...) __attribute__((format(WL_PRINTF_FMT, 6, 7)));
static int set_field(wl_doc *d, const b3d_anim *a, unsigned field, uint32_t v, wl_rule_id rule, const char *fmt,
		     ...)
{
	wl_chunk *c = wl_fix_mut(d, a->src);
	uint8_t b[4];
	wl_fix_put_u32(b, v);
	uint64_t at = wl_chunk_payload_offset(a->src) + field;
	if (!c || b3d_fix_patch(d, c, at, b, 4, NULL) != 0)
		return d->oom ? -1 : 0;
	char what[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return wl_edit_note(d, c, rule, at, "%s", what);
}

static int apply(wl_fix_ctx *x)
{
	wl_doc *d = x->doc;
	const b3d_model *m = d->model;
	if (!m || !m->anim_count)
		return 0;
	bool *raise = calloc(m->anim_count, sizeof *raise);
	if (!raise) {
		d->oom = true;
		return -1;
	}
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (!wanted_finding(x, f))
			continue;
		for (size_t k = 0; k < m->keys_count; k++) {
			const b3d_anim *a = m->keys[k]->src == f->chunk ? b3d_governing_anim(m->keys[k]->node) : NULL;
			for (size_t j = 0; a && j < m->anim_count; j++)
				raise[j] = raise[j] || m->anims[j] == a;
		}
	}
	int rc = 0;
	for (size_t j = 0; j < m->anim_count && rc == 0; j++) {
		const b3d_anim *a = m->anims[j];
		int32_t last = raise[j] ? last_frame(m, a) : INT32_MIN;
		if (last <= a->frames || a->frames <= 0)
			continue;
		/* labelled with the rule lint reports for the last key, so that
		 * --ignore and the report name the same id */
		wl_rule_id rule = (int64_t)last - a->frames == 1 ? WLR_B3D_KEYS_BEYOND_ANIM_BY1 : WLR_B3D_KEYS_BEYOND_ANIM;
		rc = set_field(d, a, 4, (uint32_t)last, rule, "frames: %" PRId32 " -> %" PRId32 " (the last key)",
			       a->frames, last);
	}
	free(raise);
	return rc;
}

const wl_fixer b3d_fix_cover_keys_anim = {
	"cover-keys-anim", false,
	"raise the frames of an ANIM to the last key frame it governs",
	apply
};

/* The ANIMs with a finding of rule (not off), each once, in file order:
 * calls fn on each; 0, or -1 out of memory. */
static int each_reported(wl_fix_ctx *x, wl_rule_id rule, int (*fn)(wl_doc *, const b3d_anim *))
{
	wl_doc *d = x->doc;
	const b3d_model *m = d->model;
	if (!m || !wl_fix_rule_wanted(x, rule))
		return 0;
	int rc = 0;
	for (size_t j = 0; j < m->anim_count && rc == 0; j++) {
		const b3d_anim *a = m->anims[j];
		bool reported = false;
		for (size_t i = 0; i < d->findings.count && !reported; i++) {
			const wl_finding *f = &d->findings.items[i];
			reported = f->chunk == a->src && f->severity != WL_SEV_OFF && f->rule_id == rule;
		}
		if (reported && a->ok)
			rc = fn(d, a);
	}
	return rc;
}

static int fit_frames(wl_doc *d, const b3d_anim *a)
{
	int32_t last = last_frame(d->model, a);
	if (a->frames > 0)
		return 0;
	if (last < 1)
		return set_field(d, a, 4, 1, WLR_B3D_ANIM_ZERO_FRAMES, "frames: %" PRId32 " -> 1 (no key at frame 1 or later)",
				 a->frames);
	return set_field(d, a, 4, (uint32_t)last, WLR_B3D_ANIM_ZERO_FRAMES, "frames: %" PRId32 " -> %" PRId32 " (the last key)",
			 a->frames, last);
}

static int apply_frames(wl_fix_ctx *x)
{
	return each_reported(x, WLR_B3D_ANIM_ZERO_FRAMES, fit_frames);
}

const wl_fixer b3d_fix_fit_anim_frames = {
	"fit-anim-frames", false,
	"set the frames of an ANIM with frames <= 0 to the last key frame it governs (1 without keys)",
	apply_frames
};

/* Irrlicht's and Luanti's animation speed when the file gives none above 0
 * (SkinnedMesh.h: FramesPerSecond(25.f)). */
#define DEFAULT_FPS 25.0f

static int default_fps(wl_doc *d, const b3d_anim *a)
{
	if (a->fps > 0 && isfinite(a->fps))
		return 0;
	uint32_t bits;
	float v = DEFAULT_FPS;
	memcpy(&bits, &v, 4);
	return set_field(d, a, 8, bits, WLR_B3D_ANIM_BAD_FPS, "fps: %g -> %g (Irrlicht's default)", (double)a->fps,
			 (double)v);
}

static int apply_fps(wl_fix_ctx *x)
{
	return each_reported(x, WLR_B3D_ANIM_BAD_FPS, default_fps);
}

const wl_fixer b3d_fix_default_anim_fps = {
	"default-anim-fps", false,
	"set an ANIM's fps that is <= 0 or not finite to 25, Irrlicht's and Luanti's default speed",
	apply_fps
};
