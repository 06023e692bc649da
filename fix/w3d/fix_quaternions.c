/*
 * fix_quaternions.c - two safe fixers over the stored rotations
 * (notes/w3d_reference.md E4, F12, §6):
 *
 *   "normalize-quaternions" repairs quaternion-not-normalized
 *   (rules/hierarchy.yaml; reported by lint/w3d/check_hierarchy.c and
 *   lint/w3d/check_animation.c with the rule's `tolerance`) by dividing each
 *   flagged quaternion X,Y,Z,W by its length;
 *
 *   "align-quaternion-hemispheres" repairs quaternion-hemisphere-flip
 *   (rules/animation.yaml, lint/w3d/check_animation.c) by negating every key
 *   whose dot product with the (already aligned) key before it is negative.
 *   q and -q are the same rotation and negation is exact in binary32, so no
 *   pose changes; a non-finite key breaks the chain like in the rule.  After
 *   one run every consecutive dot is >= 0: a second run edits nothing.
 *   Pivots are not touched (they are not a sequence).
 *
 * The quaternions both fixers visit:
 *
 *   PIVOTS (0x102)                     Rotation at pivot i * 60 + 44
 *   ANIMATION_CHANNEL (0x202), type Q, VectorLen 4: every frame
 *                                      (data at +12, 16 bytes a frame)
 *   COMPRESSED_ANIMATION_CHANNEL (0x282), time-coded flavor, type Q,
 *     VectorLen 4: every key (packets of uint32 time + 4 floats at +8)
 *   COMPRESSED_ANIMATION_MOTION_CHANNEL (0x284), time-coded, type Q,
 *     VectorLen 4: every key (floats after the uint16 keys, padded to 4)
 *
 * A quaternion is rewritten when it is finite and | |q| - 1 | > tolerance,
 * exactly the rule's test; the result is q / |q| computed in double and
 * rounded to binary32 (its length is 1 within ~1e-7, so a second run finds
 * nothing: idempotent).  A zero quaternion becomes the identity (0, 0, 0,
 * 1): for pivots that is what the engine already builds from it
 * (Build_Matrix3D of q = 0 gives the identity matrix, quat.cpp:824-845).
 * Non-finite ones are left to quaternion-not-finite.
 *
 * Adaptive-delta channels (0x282 flavors 1/2, 0x284 delta types 1/2) are NOT
 * touched.  Their frames decode as the initial value plus accumulated
 * quantised deltas (motchan.cpp:983-1054), so normalising the initial value
 * shifts every decoded frame by the same vector, by at least the rule's
 * tolerance - more than the encoding's quantisation step in general - and
 * re-encoding the deltas is outside a safe fix.  Their findings remain.
 *
 * Edit notes: one per rewritten quaternion for the first 16 of a chunk
 * (offset of its X), then one note with the number of further ones.
 */
#include <math.h>
#include <string.h>

#include "fixers.h"
#include "core/vec.h"

extern const wl_fixer w3d_fix_normalize_quaternions, w3d_fix_align_quaternion_hemispheres;

#define NOTES_PER_CHUNK 16u
#define RULE WLR_QUATERNION_NOT_NORMALIZED
#define RULE_FLIP WLR_QUATERNION_HEMISPHERE_FLIP

/* One chunk being rewritten: its current payload copied once, on the first
 * quaternion that needs it. */
typedef struct qedit {
	wl_fix_ctx *x;
	const wl_chunk *src;
	wl_chunk *c;
	uint8_t *buf;
	size_t len;
	size_t changed;
	double tol;
	const char *what;   /* "pivot", "frame", "key" for notes */
	bool align;         /* align-quaternion-hemispheres, not normalise */
	bool have_prev;     /* align: prev holds the previous finite key */
	float prev[4];      /* align: the previous key as written */
} qedit;

/* The new value of quaternion q (finite) in e's mode, into r; false when
 * it stays as it is. */
static bool new_value(qedit *e, const float q[4], float r[4], double *len_out)
{
	if (e->align) {
		bool flip = false;
		if (e->have_prev) {
			double dot = wl_q4_dot(q, e->prev);
			flip = dot < 0;
		}
		for (int j = 0; j < 4; j++)
			r[j] = flip ? -q[j] : q[j];
		memcpy(e->prev, r, sizeof e->prev);
		e->have_prev = true;
		return flip;
	}
	double len = wl_q4_len(q);
	*len_out = len;
	if (!(fabs(len - 1.0) > e->tol))
		return false;
	if (len == 0) {
		r[0] = r[1] = r[2] = 0;
		r[3] = 1;
	} else {
		for (int j = 0; j < 4; j++)
			r[j] = (float)(q[j] / len);
	}
	return true;
}

/* Rewrites the quaternion at payload byte `at` of e->src when e's rule
 * flags it (element index idx for the note).  0, or -1 on OOM. */
static int fix_quat(qedit *e, size_t at, size_t idx)
{
	if (at + 16 > e->src->size)
		return 0;
	const uint8_t *in = e->buf ? e->buf + at : wl_chunk_payload(e->x->doc, e->src) + at;
	float q[4];
	for (int j = 0; j < 4; j++)
		q[j] = wl_lef32(in + 4 * j);
	if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2]) || !isfinite(q[3])) {
		e->have_prev = false;
		return 0;
	}
	float r[4];
	double len = 0;
	if (!new_value(e, q, r, &len))
		return 0;
	if (!e->buf) {
		e->c = wl_fix_mut(e->x->doc, e->src);
		if (!e->c)
			return 0;
		uint8_t *buf = wl_fix_payload_copy(e->x->doc, e->c, &e->len);
		if (!buf)
			return -1;
		if (e->len != e->src->size)
			return 0; /* replaced by someone else: leave it */
		e->buf = buf;
	}
	for (int j = 0; j < 4; j++)
		wl_fix_put_f32(e->buf + at + 4 * j, r[j]);
	if (e->changed++ >= NOTES_PER_CHUNK)
		return 0;
	if (e->align)
		return wl_edit_note(e->x->doc, e->c, RULE_FLIP, wl_chunk_payload_offset(e->c) + at,
				    "%s %zu rotation (%g, %g, %g, %g) -> (%g, %g, %g, %g), the same rotation in the "
				    "hemisphere of %s %zu",
				    e->what, idx, (double)q[0], (double)q[1], (double)q[2], (double)q[3], (double)r[0],
				    (double)r[1], (double)r[2], (double)r[3], e->what, idx - 1);
	return wl_edit_note(e->x->doc, e->c, RULE, wl_chunk_payload_offset(e->c) + at,
			    "%s %zu rotation (%g, %g, %g, %g) length %.6g -> (%g, %g, %g, %g)", e->what, idx,
			    (double)q[0], (double)q[1], (double)q[2], (double)q[3], len, (double)r[0], (double)r[1],
			    (double)r[2], (double)r[3]);
}

static int finish(qedit *e)
{
	if (!e->buf)
		return 0;
	if (e->changed > NOTES_PER_CHUNK &&
	    wl_edit_note(e->x->doc, e->c, e->align ? RULE_FLIP : RULE, wl_chunk_payload_offset(e->c),
			 "%zu more rotations %s (%zu in all)", e->changed - NOTES_PER_CHUNK,
			 e->align ? "negated" : "normalised", e->changed) != 0)
		return -1;
	return wl_edit_set_payload(e->x->doc, e->c, e->buf, e->len);
}

/* Runs fix_quat over n quaternions at payload bytes first + i * stride;
 * tol < 0 selects the hemisphere alignment. */
static int fix_run(wl_fix_ctx *x, const wl_chunk *src, double tol, const char *what, size_t first, size_t n,
		   size_t stride)
{
	qedit e = { x, src, NULL, NULL, 0, 0, tol, what, tol < 0, false, { 0 } };
	for (size_t i = 0; i < n; i++)
		if (fix_quat(&e, first + i * stride, i) != 0)
			return -1;
	return finish(&e);
}

static int fix_hierarchy(wl_fix_ctx *x, const w3d_hierarchy *h, double tol)
{
	if (!h->pivots_chunk)
		return 0;
	return fix_run(x, h->pivots_chunk, tol, "pivot", W3D_PIVOT_ROTATION_OFFSET, h->pivot_count, W3D_PIVOT_SIZE);
}

static int fix_raw(wl_fix_ctx *x, const w3d_animation *a, double tol)
{
	for (size_t i = 0; i < a->channel_count; i++) {
		const w3d_anim_channel *ch = &a->channels[i];
		if (!ch->header_ok || ch->flags != W3D_ANIM_CHANNEL_Q || ch->vector_len != 4 ||
		    ch->last_frame < ch->first_frame)
			continue;
		size_t n = ch->data_bytes / 16, frames = (size_t)ch->last_frame - ch->first_frame + 1;
		if (n > frames)
			n = frames;
		if (fix_run(x, ch->src, tol, "frame", W3D_ANIM_CHANNEL_HEADER, n, 16) != 0)
			return -1;
	}
	return 0;
}

static int fix_compressed(wl_fix_ctx *x, const w3d_compressed_animation *a, double tol)
{
	for (size_t i = 0; i < a->channel_count; i++) {
		const w3d_canim_channel *ch = &a->channels[i];
		if (!ch->header_ok || ch->flags != W3D_ANIM_CHANNEL_Q || ch->vector_len != 4)
			continue;
		size_t head = (size_t)(ch->data_offset - wl_chunk_payload_offset(ch->src));
		size_t n;
		if (ch->layout == W3D_CLAYOUT_TIMECODED) {
			n = ch->data_bytes / 20;
			if (n > ch->count)
				n = ch->count;
			if (fix_run(x, ch->src, tol, "key", head + 4, n, 20) != 0)
				return -1;
		} else if (ch->layout == W3D_CLAYOUT_MOTION_TC) {
			size_t keys = ((size_t)2 * ch->count + 3) & ~(size_t)3;
			if (keys > ch->data_bytes)
				continue;
			n = (ch->data_bytes - keys) / 16;
			if (n > ch->count)
				n = ch->count;
			if (fix_run(x, ch->src, tol, "key", head + keys, n, 16) != 0)
				return -1;
		}
	}
	return 0;
}

/* Visits every quaternion of the model: tol >= 0 normalises (pivots too),
 * tol < 0 aligns hemispheres (animation channels only). */
static int visit_all(wl_fix_ctx *x, double tol)
{
	const w3d_model *md = x->model;
	for (size_t i = 0; i < md->hierarchy_count && tol >= 0; i++)
		if (md->hierarchies[i] && fix_hierarchy(x, md->hierarchies[i], tol) != 0)
			return -1;
	for (size_t i = 0; i < md->animation_count; i++)
		if (md->animations[i] && fix_raw(x, md->animations[i], tol) != 0)
			return -1;
	for (size_t i = 0; i < md->compressed_animation_count; i++)
		if (md->compressed_animations[i] && fix_compressed(x, md->compressed_animations[i], tol) != 0)
			return -1;
	return 0;
}

static int apply_quaternions(wl_fix_ctx *x)
{
	if (!x->model || !wl_fix_rule_wanted(x, RULE))
		return 0;
	double tol = wl_config_param(x->config, x->catalog, RULE, "tolerance");
	return visit_all(x, tol < 0 ? 0 : tol);
}

static int apply_hemispheres(wl_fix_ctx *x)
{
	if (!x->model || !wl_fix_rule_wanted(x, RULE_FLIP))
		return 0;
	return visit_all(x, -1);
}


const wl_fixer w3d_fix_normalize_quaternions = {
	"normalize-quaternions", false,
	"normalise pivot rotations and raw / time-coded rotation keys to unit length (adaptive-delta channels are left alone)",
	apply_quaternions
};

const wl_fixer w3d_fix_align_quaternion_hemispheres = {
	"align-quaternion-hemispheres", false,
	"negate raw / time-coded rotation keys so that each lies in the hemisphere of the key before (same rotations)",
	apply_hemispheres
};
