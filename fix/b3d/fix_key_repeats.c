/*
 * fix_key_repeats.c - drop-repeated-keys (unsafe): repairs
 * b3d-keys-duplicate-frame (rules/b3d/animation.yaml).  A key of a later
 * KEYS chunk of a NODE that keys a channel (position, scale, rotation) at
 * a frame an earlier KEYS chunk of the same NODE already keys for that
 * channel is a repeat; the first key in file order is the one that stays.
 *
 * Which key survives follows Luanti: CB3DMeshFileLoader.cpp readChunkKEYS
 * appends every KEYS chunk of a NODE to the joint's channels in file
 * order, and Channel::cleanup (irr/include/SkinnedMesh.h) keeps a key only
 * when its time is strictly after the last key kept, so the later key of a
 * repeated frame is never played.  Blitz3D keeps the other one: its
 * Animation::Rep::setKey (blitz3d/animation.cpp) stores keys in a map by
 * frame, so a later key overwrites the earlier.  Luanti's choice wins here
 * because Luanti is what loads these files today; the fix then changes
 * nothing Luanti shows (nor Irrlicht 1.8.5: make oracle).  It is unsafe
 * all the same: Assimp imports every key as stored, so it loads fewer keys
 * after the fix (make oracle), and a fixer's safety is not per target.
 *
 * A repeated key is dropped whole (its record leaves its chunk) when every
 * channel its chunk keys is a repeat at its frame.  When a reported key
 * also keys a channel no earlier chunk keys at its frame (e.g. position
 * repeated, rotation new), dropping it would lose that channel's key and
 * keeping only part of a record needs a new chunk: then the rule is not
 * repaired in this file at all (no edit), as a B3D fixer repairs every
 * finding of its rule or none; so is a KEYS chunk whose every key is a
 * repeat (it would be left with no key, and Assimp 5.2.5 refuses a file
 * with an empty KEYS: "Empty node animation channel", make oracle); so is
 * a NODE whose children the reader
 * placed by judging a size from the bytes (placed_by_judgement).  Frames
 * compare raw, as the rule reads
 * them; repeats inside one chunk are b3d-keys-frame-order's (sort-keys).
 * Key records keep their bytes; bytes after the last whole record
 * (b3d-record-slack) stay at the end.  Memory and time: O(keys) and
 * O(keys log keys) per NODE.
 */
#include "fixers.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"

static const wl_rule_id RULE = WLR_B3D_KEYS_DUPLICATE_FRAME;

/* One key of one channel: its frame, its chunk's place among the NODE's
 * KEYS chunks (file order) and its index in the NODE's keys. */
typedef struct entry {
	int32_t frame;
	uint32_t chunk;
	size_t key;
} entry;

static int by_frame_chunk(const void *a, const void *b)
{
	const entry *x = a, *y = b;
	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	if (x->chunk != y->chunk)
		return x->chunk < y->chunk ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static int by_node_offset(const void *a, const void *b)
{
	const b3d_keys *x = *(const b3d_keys *const *)a, *y = *(const b3d_keys *const *)b;
	if (x->node->index != y->node->index)
		return x->node->index < y->node->index ? -1 : 1;
	return x->src->offset < y->src->offset ? -1 : x->src->offset > y->src->offset;
}

static unsigned channels(const b3d_keys *ks)
{
	return (ks->position_at ? 1u : 0u) | (ks->scale_at ? 2u : 0u) | (ks->rotation_at ? 4u : 0u);
}

/* Marks in rep[] (one byte per key of the n chunks ks, in order) the
 * channels on which each key repeats a frame of an earlier chunk.  -1 out
 * of memory. */
static int mark_repeats(const b3d_keys *const *ks, size_t n, size_t total, uint8_t *rep)
{
	entry *e = malloc(total * sizeof *e);
	if (!e)
		return -1;
	for (unsigned ch = 1; ch <= 4; ch <<= 1) {
		size_t k = 0;
		for (size_t c = 0, base = 0; c < n; base += ks[c]->keys.count, c++)
			for (size_t i = 0; (channels(ks[c]) & ch) && i < ks[c]->keys.count; i++)
				e[k++] = (entry){ (int32_t)wl_le32(b3d_record(&ks[c]->keys, i)), (uint32_t)c,
						  base + i };
		qsort(e, k, sizeof *e, by_frame_chunk);
		for (size_t i = 0, j; i < k; i = j) {
			for (j = i + 1; j < k && e[j].frame == e[i].frame; j++)
				if (e[j].chunk != e[i].chunk)
					rep[e[j].key] |= (uint8_t)ch;
		}
	}
	free(e);
	return 0;
}

/* Removes from ks the keys whose rep[] equals the chunk's channels. */
static int drop_keys(wl_doc *d, const b3d_keys *ks, const uint8_t *rep)
{
	wl_chunk *c = wl_fix_mut(d, ks->src);
	size_t len;
	const uint8_t *p = c ? wl_edit_payload(d, c, &len) : NULL;
	size_t n = ks->keys.count, size = ks->keys.size;
	if (!p || len < 4 + n * size)
		return 0;
	uint8_t *out = wl_arena_alloc(d->arena, len);
	if (!out) {
		d->oom = true;
		return -1;
	}
	memcpy(out, p, 4);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		if (rep[i] == channels(ks)) {
			int rc = wl_edit_note(d, c, RULE, b3d_record_offset(&ks->keys, i),
					      "key %zu (frame %" PRId32 "): dropped, an earlier KEYS of the NODE "
					      "keys its channels at that frame (Luanti plays that one)",
					      i, (int32_t)wl_le32(b3d_record(&ks->keys, i)));
			if (rc != 0)
				return -1;
			continue;
		}
		memcpy(out + 4 + kept * size, p + 4 + i * size, size);
		kept++;
	}
	memcpy(out + 4 + kept * size, p + 4 + n * size, len - 4 - n * size);
	return wl_edit_set_payload(d, c, out, len - (n - kept) * size);
}

/* Reader marks of a size judged from the bytes (core/chunk.h). */
#define JUDGED (WL_REC_TRUNCATED | WL_REC_PAST_EOF | WL_REC_CLAMPED | WL_REC_EXTENDED | \
		WL_REC_RESYNCED | WL_REC_RESIZED | WL_REC_STRAY | WL_REC_SKIPPED)

/* Were the children of NODE chunk c placed by a judgement of the reader
 * (c, or one of its children, read with a size other than the one
 * declared, or a gap among them)?  Which NODE a KEYS belongs to then rests
 * on that judgement: a NODE size shrunk by 4 once made a child's last KEYS
 * its parent's, whose keys at the same frames this fixer then dropped
 * (issue 29, mobs_sheep.b3d).  A safe fixer drops nothing on that ground. */
static bool placed_by_judgement(const wl_chunk *c)
{
	if (!c)
		return false;
	if (c->recovery & JUDGED)
		return true;
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		if (k->kind == WL_NODE_GAP || (k->recovery & JUDGED))
			return true;
	return false;
}

/* The KEYS chunks of one NODE, ks[0..n): drops its repeated keys, or only
 * checks (apply false) that every reported key is repeated whole and that
 * the NODE's children were not placed by a judgement of the reader.  1
 * when a partial repeat or such a NODE was found, 0 done, -1 out of
 * memory. */
static int node_keys(wl_doc *d, const b3d_keys *const *ks, size_t n, bool apply)
{
	if (n >= 2 && ks[0]->node && placed_by_judgement(ks[0]->node->src))
		return 1;
	size_t total = 0;
	for (size_t c = 0; c < n; c++)
		total += ks[c]->keys.count;
	if (n < 2 || !total)
		return 0;
	uint8_t *rep = calloc(total, 1);
	if (!rep || mark_repeats(ks, n, total, rep) != 0) {
		free(rep);
		d->oom = true;
		return -1;
	}
	int rc = 0;
	for (size_t c = 0, base = 0; c < n && rc == 0; base += ks[c]->keys.count, c++) {
		bool any = false;
		size_t whole = 0;
		for (size_t i = 0; i < ks[c]->keys.count && rc == 0; i++) {
			any = any || rep[base + i];
			if (rep[base + i] && rep[base + i] != channels(ks[c]))
				rc = 1;
			whole += rep[base + i] == channels(ks[c]);
		}
		if (whole && whole == ks[c]->keys.count)
			rc = 1; /* the chunk would be left empty: Assimp refuses that */
		if (apply && any && rc == 0)
			rc = drop_keys(d, ks[c], rep + base);
	}
	free(rep);
	return rc;
}

static int apply(wl_fix_ctx *x)
{
	if (!wl_fix_rule_wanted(x, RULE))
		return 0;
	wl_doc *d = x->doc;
	const b3d_model *m = d->model;
	if (!m || m->keys_count < 2)
		return 0;
	const b3d_keys **ks = malloc(m->keys_count * sizeof *ks);
	if (!ks) {
		d->oom = true;
		return -1;
	}
	size_t n = 0;
	for (size_t i = 0; i < m->keys_count; i++)
		if (m->keys[i]->flags_ok && m->keys[i]->keys.size)
			ks[n++] = m->keys[i];
	qsort(ks, n, sizeof *ks, by_node_offset);
	/* first pass checks, second drops: all of the rule's findings or none */
	int rc = 0;
	for (int pass = 0; pass < 2 && rc == 0; pass++)
		for (size_t i = 0, j; i < n && rc == 0; i = j) {
			for (j = i + 1; j < n && ks[j]->node == ks[i]->node; j++)
				;
			rc = node_keys(d, ks + i, j - i, pass == 1);
		}
	free(ks);
	return rc < 0 ? -1 : 0;
}

const wl_fixer b3d_fix_drop_repeated_keys = {
	"drop-repeated-keys", true,
	"drop a key that only repeats, at the same frame, channels an earlier KEYS chunk of its NODE keys "
	"(the first stays, as in Luanti)",
	apply
};
