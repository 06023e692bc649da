/*
 * fix_euler.c - safe fixer "recompute-euler-angles": repairs
 * pivot-euler-mismatch (rules/pivots.yaml, lint/w3d/check_pivot_euler.c) by
 * rewriting the EulerAngles of each flagged pivot from its Rotation, in
 * EulerOrderXYZr (core/w3d/rotation.h; notes/w3d_reference.md E5).
 *
 * Safe: the runtime reads only Rotation (htree.cpp:284-293), so the game
 * sees no change; editors and converters that read the angles now show the
 * pose the game plays.  Only pivots the rule flags are touched (the same
 * test and `tolerance`): pivots whose angles are all 0 (unfilled) and those
 * with non-finite values or a degenerate Rotation stay as they are.  The new
 * angles describe Rotation within float precision (about 1e-5 degrees), far
 * inside any useful tolerance, so a second run edits nothing.
 *
 * Edit notes: one per rewritten pivot for the first 16 of a PIVOTS chunk,
 * then one with the number of further ones.
 */
#include "core/w3d/rotation.h"
#include "fixers.h"

extern const wl_fixer w3d_fix_recompute_euler_angles;

#define RULE WLR_PIVOT_EULER_MISMATCH
#define NOTES_PER_CHUNK 16u

static int fix_hierarchy(wl_fix_ctx *x, const w3d_hierarchy *h, double tol)
{
	const wl_chunk *src = h->pivots_chunk;
	if (!src)
		return 0;
	wl_chunk *c = NULL;
	uint8_t *buf = NULL;
	size_t len = 0, changed = 0;
	for (size_t k = 0; k < h->pivot_count; k++) {
		const w3d_pivot *p = &h->pivots[k];
		float e[3];
		size_t at = k * W3D_PIVOT_SIZE + W3D_PIVOT_EULER_OFFSET;
		if (!(w3d_pivot_euler_gap_deg(p) > tol) || !w3d_quat_to_euler_xyzr(p->rotation, e) ||
		    at + 12 > src->size)
			continue;
		if (!buf) {
			c = wl_fix_mut(x->doc, src);
			if (!c)
				return 0;
			buf = wl_fix_payload_copy(x->doc, c, &len);
			if (!buf)
				return -1;
			if (len != src->size)
				return 0; /* replaced by another fixer: leave it */
		}
		for (int j = 0; j < 3; j++)
			wl_fix_put_f32(buf + at + 4 * (size_t)j, e[j]);
		if (changed++ < NOTES_PER_CHUNK &&
		    wl_edit_note(x->doc, c, RULE, wl_chunk_payload_offset(c) + at,
				 "pivot %zu '%s' EulerAngles (%g, %g, %g) -> (%g, %g, %g) from its Rotation", k,
				 p->name ? p->name : "", (double)p->euler[0], (double)p->euler[1], (double)p->euler[2],
				 (double)e[0], (double)e[1], (double)e[2]) != 0)
			return -1;
	}
	if (!buf)
		return 0;
	if (changed > NOTES_PER_CHUNK &&
	    wl_edit_note(x->doc, c, RULE, wl_chunk_payload_offset(c), "%zu more pivots' EulerAngles recomputed (%zu in all)",
			 changed - NOTES_PER_CHUNK, changed) != 0)
		return -1;
	return wl_edit_set_payload(x->doc, c, buf, len);
}

static int apply_euler(wl_fix_ctx *x)
{
	const w3d_model *md = x->model;
	if (!md || !wl_fix_rule_wanted(x, RULE))
		return 0;
	double tol = wl_config_param(x->config, x->catalog, RULE, "tolerance");
	for (size_t i = 0; i < md->hierarchy_count; i++)
		if (md->hierarchies[i] && fix_hierarchy(x, md->hierarchies[i], tol) != 0)
			return -1;
	return 0;
}


const wl_fixer w3d_fix_recompute_euler_angles = {
	"recompute-euler-angles", false,
	"rewrite pivot EulerAngles that disagree with the Rotation quaternion from it (EulerOrderXYZr; the game reads only Rotation)",
	apply_euler
};
