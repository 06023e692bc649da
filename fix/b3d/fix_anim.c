/*
 * fix_anim.c - cover-keys-anim (safe): repairs b3d-keys-beyond-anim and
 * b3d-keys-beyond-anim-by1 (rules/b3d/animation.yaml) by raising the
 * frames of the ANIM that governs a reported key to the largest frame of
 * every key that ANIM governs.  The governing ANIM is the one the rules
 * use (lint/b3d/check_anim.c): the nearest complete ANIM on the key's NODE
 * or its ancestors.  Only frames changes (flags and fps are kept); Luanti
 * ignores ANIM, Blitz3D then plays the last key and Assimp's validation
 * accepts the file.  ANIMs of frames <= 0 are not judged by the rules and
 * are left alone.
 */
#include "fixers.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/cursor.h"

static bool wanted_finding(const wl_fix_ctx *x, const wl_finding *f)
{
	if (f->severity == WL_SEV_OFF || !f->chunk)
		return false;
	return (strcmp(f->rule, "b3d-keys-beyond-anim") == 0 && wl_fix_rule_wanted(x, f->rule)) ||
	       (strcmp(f->rule, "b3d-keys-beyond-anim-by1") == 0 && wl_fix_rule_wanted(x, f->rule));
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
		wl_chunk *c = wl_fix_mut(d, a->src);
		uint8_t v[4];
		wl_fix_put_u32(v, (uint32_t)last);
		uint64_t at = wl_chunk_payload_offset(a->src) + 4;
		if (!c || b3d_fix_patch(d, c, at, v, 4, NULL) != 0) {
			rc = d->oom ? -1 : 0;
			continue;
		}
		rc = wl_edit_note(d, c, "b3d-keys-beyond-anim", at, "frames: %" PRId32 " -> %" PRId32 " (the last key)",
				  a->frames, last);
	}
	free(raise);
	return rc;
}

static const char *const rules[] = { "b3d-keys-beyond-anim", "b3d-keys-beyond-anim-by1", NULL };
const wl_fixer wl_fix_b3d_cover_keys_anim = {
	"cover-keys-anim", rules, false,
	"raise the frames of an ANIM to the last key frame it governs",
	apply
};
