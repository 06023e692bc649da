/*
 * fix_keys.c - sort-keys (unsafe): repairs b3d-keys-frame-order
 * (rules/b3d/animation.yaml) by sorting the keys of each reported KEYS
 * chunk by frame (stable) and dropping every key whose frame equals the
 * frame of the key kept before it, so the first of equal frames in file
 * order stays, as Luanti's Channel::cleanup keeps the first of a run of
 * equal times (irr/include/SkinnedMesh.h: a key is kept only when its time
 * is after the last kept).  Blitz3D would keep the last: its
 * Animation::Rep::setKey stores keys in a map by frame, which a later key
 * overwrites (blitz3d/animation.cpp); Luanti, which loads these files
 * today, decides.  Frames compare as Luanti and the
 * rule read them: below 1 counts as 1 (CB3DMeshFileLoader.cpp
 * readChunkKEYS clamps them).  Luanti drops an out-of-order key outright;
 * the sort keeps it at its frame, as modlib does (b3d.lua): the motion the
 * exporter wrote.  Irrlicht 1.8.5 holds the same keys before and after
 * (make oracle); the fixer is unsafe all the same because Assimp imports
 * every key as stored and loads fewer after it (make oracle), and a
 * fixer's safety is not per target.  A chunk always keeps at least one key.
 * Key records keep their bytes; bytes after the last whole record
 * (b3d-record-slack) stay at the end.
 */
#include "fixers.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"

typedef struct key_ref {
	int32_t frame; /* clamped to 1 */
	size_t index;
} key_ref;

static int by_frame(const void *a, const void *b)
{
	const key_ref *x = a, *y = b;
	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index; /* stable */
}

/* Sorts and deduplicates the keys of ks; 0, or -1 out of memory. */
static int sort_chunk(wl_doc *d, const b3d_keys *ks)
{
	wl_chunk *c = wl_fix_mut(d, ks->src);
	size_t len;
	const uint8_t *p = c ? wl_edit_payload(d, c, &len) : NULL;
	size_t n = ks->keys.count, size = ks->keys.size;
	if (!p || !size || len < 4 + n * size)
		return 0;
	key_ref *v = malloc((n ? n : 1) * sizeof *v);
	uint8_t *out = wl_arena_alloc(d->arena, len);
	if (!v || !out) {
		free(v);
		d->oom = true;
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		int32_t f = (int32_t)wl_le32(p + 4 + i * size);
		v[i] = (key_ref){ f < 1 ? 1 : f, i };
	}
	qsort(v, n, sizeof *v, by_frame);
	memcpy(out, p, 4);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		if (kept && v[i].frame == v[kept - 1].frame)
			continue;
		v[kept] = v[i];
		memcpy(out + 4 + kept * size, p + 4 + v[i].index * size, size);
		kept++;
	}
	size_t tail = len - 4 - n * size;
	memcpy(out + 4 + kept * size, p + 4 + n * size, tail);
	free(v);
	size_t new_len = 4 + kept * size + tail;
	if (wl_edit_set_payload(d, c, out, new_len) != 0)
		return -1;
	return wl_edit_note(d, c, WLR_B3D_KEYS_FRAME_ORDER, ks->keys.offset,
			    "keys: %zu -> %zu (sorted by frame, %zu repeated frame(s) dropped)", n, kept, n - kept);
}

static int apply(wl_fix_ctx *x)
{
	if (!wl_fix_rule_wanted(x, WLR_B3D_KEYS_FRAME_ORDER))
		return 0;
	wl_doc *d = x->doc;
	const b3d_model *m = d->model;
	for (size_t k = 0; m && k < m->keys_count; k++) {
		const b3d_keys *ks = m->keys[k];
		bool reported = false;
		for (size_t i = 0; i < d->findings.count && !reported; i++) {
			const wl_finding *f = &d->findings.items[i];
			reported = f->chunk == ks->src && f->severity != WL_SEV_OFF &&
				   strcmp(f->rule, wl_rule_name(WLR_B3D_KEYS_FRAME_ORDER)) == 0;
		}
		if (reported && sort_chunk(d, ks) != 0)
			return -1;
	}
	return 0;
}

const wl_fixer b3d_fix_sort_keys = {
	"sort-keys", true,
	"sort the keys of a KEYS chunk by frame and drop repeated frames (the first stays)",
	apply
};
