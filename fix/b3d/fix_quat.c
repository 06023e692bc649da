/*
 * fix_quat.c - the quaternions of NODE rotations (b3d-node-rotation-not-unit,
 * rules/b3d/nodes.yaml) and KEYS rotations (b3d-key-rotation-not-unit,
 * rules/b3d/animation.yaml), stored w, x, y, z:
 *
 *   b3d-normalize-quaternions (safe)  divides each reported KEYS rotation
 *       by its length, so the bone is rotated as intended and no longer
 *       scaled (Luanti slerps the stored values unnormalised; make oracle
 *       shows Irrlicht 1.8.5's pose unchanged by it).
 *   b3d-normalize-node-quaternions (unsafe) does the same for NODE
 *       rotations: Irrlicht 1.8 builds the joint's matrix from the stored
 *       NODE rotation (CB3DMeshFileLoader.cpp readChunkNODE, lines 178-189
 *       at 97472da), so normalising it moves Irrlicht 1.8.5's pose (make
 *       oracle: 0.2-0.4% of the box on the b3d-node-rotation-not-unit
 *       fixtures), and irrlicht is a default B3D target.
 *   reset-zero-quaternions (unsafe) sets a reported quaternion of length 0
 *       (below 1e-6, or so small its square underflows) to the identity
 *       1, 0, 0, 0: the direction it meant is lost, so this invents one.
 *
 * The driver verifies a repaired rule over the whole file (its scope is the
 * top-level BB3D), so the normalising fixers repair a rule only when every
 * finding of it in the file can be normalised: with a zero quaternion left
 * (safe run), the rule is not repaired at all.  NaN/infinite rotations are
 * other rules' (b3d-float-not-finite, b3d-key-not-finite), never reported
 * as not unit, and left alone.
 */
#include "fixers.h"

#include <math.h>
#include <string.h>

#include "core/cursor.h"
#include "core/vec.h"

#define NODE_RULE WLR_B3D_NODE_ROTATION_NOT_UNIT
#define KEY_RULE WLR_B3D_KEY_ROTATION_NOT_UNIT
/* Below this length a quaternion has no direction to keep. */
#define ZERO_LENGTH 1e-6

/* Absolute offset of the rotation a finding of rule is about, or 0 when
 * the finding is not one this file can place. */
static uint64_t rotation_at(wl_doc *d, const wl_finding *f, wl_rule_id rule)
{
	if (rule == NODE_RULE)
		return f->length == 16 ? f->offset : 0;
	size_t len;
	const uint8_t *p = wl_edit_payload(d, f->chunk, &len);
	if (len < 4)
		return 0;
	uint32_t flags = wl_le32(p);
	if (!(flags & 4))
		return 0;
	return f->offset + 4 + (flags & 1 ? 12 : 0) + (flags & 2 ? 12 : 0);
}

/* The quaternion at absolute offset at of the document's input bytes.
 * Findings are about the bytes as read: the fixer gets a fresh document,
 * and each rotation is edited once. */
static double length_of(const wl_doc *d, uint64_t at, float q[4])
{
	for (int k = 0; k < 4; k++)
		q[k] = wl_lef32(d->bytes + at + 4 * (uint64_t)k);
	return wl_q4_len(q);
}

/* True when f is a finding of rule this file can repair (chunk known, the
 * rotation inside the file); its rotation's offset goes to *at. */
static bool usable(wl_doc *d, const wl_finding *f, wl_rule_id rule, uint64_t *at)
{
	if (f->severity == WL_SEV_OFF || f->rule_id != rule || !f->chunk)
		return false;
	*at = rotation_at(d, f, rule);
	return *at && *at + 16 <= d->size;
}

/* One rule: mode 0 normalises (only when no reported quaternion is zero),
 * mode 1 sets the zero ones to the identity. */
static int repair(wl_fix_ctx *x, wl_rule_id rule, int mode)
{
	if (!wl_fix_rule_wanted(x, rule))
		return 0;
	wl_doc *d = x->doc;
	size_t zero = 0;
	uint64_t at;
	float q[4];
	for (size_t i = 0; i < d->findings.count; i++)
		if (usable(d, &d->findings.items[i], rule, &at) && !(length_of(d, at, q) >= ZERO_LENGTH))
			zero++;
	if (mode == 0 && zero)
		return 0;
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (!usable(d, f, rule, &at))
			continue;
		double len = length_of(d, at, q);
		bool is_zero = !(len >= ZERO_LENGTH);
		if (is_zero != (mode == 1) || !isfinite(len))
			continue;
		float n[4] = { 1, 0, 0, 0 };
		if (!is_zero)
			for (int k = 0; k < 4; k++)
				n[k] = (float)(q[k] / len);
		uint8_t bytes[16];
		for (int k = 0; k < 4; k++)
			wl_fix_put_f32(bytes + 4 * k, n[k]);
		wl_chunk *c = wl_fix_mut(d, f->chunk);
		if (!c || b3d_fix_patch(d, c, at, bytes, 16, NULL) != 0) {
			if (d->oom)
				return -1;
			continue;
		}
		if (wl_edit_note(d, c, rule, at, "rotation (w x y z): %g %g %g %g (length %g) -> %g %g %g %g",
				 q[0], q[1], q[2], q[3], len, n[0], n[1], n[2], n[3]) != 0)
			return -1;
	}
	return 0;
}

static int normalize(wl_fix_ctx *x)
{
	return repair(x, KEY_RULE, 0);
}

static int normalize_nodes(wl_fix_ctx *x)
{
	return repair(x, NODE_RULE, 0);
}

static int reset_zero(wl_fix_ctx *x)
{
	return repair(x, NODE_RULE, 1) || repair(x, KEY_RULE, 1) ? -1 : 0;
}

const wl_fixer b3d_fix_normalize_quaternions = {
	"b3d-normalize-quaternions", false,
	"scale KEYS rotation quaternions to unit length (left alone while a zero one remains)",
	normalize
};
const wl_fixer b3d_fix_normalize_node_quaternions = {
	"b3d-normalize-node-quaternions", true,
	"scale NODE rotation quaternions to unit length (moves Irrlicht 1.8's pose; left alone while a zero one remains)",
	normalize_nodes
};
const wl_fixer b3d_fix_reset_zero_quaternions = {
	"reset-zero-quaternions", true,
	"set NODE and KEYS rotation quaternions of length 0 to the identity 1, 0, 0, 0",
	reset_zero
};
