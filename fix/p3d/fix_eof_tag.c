/*
 * fix_eof_tag.c - mlod-eof-tag (safe): repairs p3d-mlod-no-eof-tag
 * (rules/p3d/structure.yaml) where an MLOD LOD's tag list lacks only its
 * #EndOfFile# tag: from the TAGG the finding covers, the tags are walked
 * (P3DM: active byte 0 or 1, a printable asciiz name, u32 size, data
 * inside the file; SP3X: a 64-byte name, size, data) up to a place that
 * lies exactly 4 bytes (the LOD's resolution) before the end of the file
 * or before the next LOD's P3DM/SP3X signature; the tag (size 0) is
 * inserted there.  The LOD's unread bytes (one gap node, p3d_mlod.c) are
 * replaced by themselves with the tag inserted.  Nothing is done when no
 * such place is found (a cut file, a damaged tag): those are not missing
 * tags.  Safe: the 17 bytes (P3DM) or 68 (SP3X) every reader expects,
 * nothing else changes.
 */
#include "fixers.h"

#include <string.h>

#include "core/cursor.h"

#define EOF_NAME "#EndOfFile#"

/* Whether pos lies 4 bytes before the end or the next LOD. */
static bool before_resolution(const wl_doc *d, uint64_t pos)
{
	if (d->size - pos == 4)
		return true;
	return d->size - pos >= 8 && (memcmp(d->bytes + pos + 4, "P3DM", 4) == 0 ||
				      memcmp(d->bytes + pos + 4, "SP3X", 4) == 0);
}

/* The tag at pos when plausible: the offset after it, or 0. */
static uint64_t tag_end(const wl_doc *d, uint64_t pos, bool sp3x)
{
	wl_cursor c = wl_cursor_make(d->bytes + pos, (size_t)(d->size - pos), pos);
	uint64_t len = 0;
	if (sp3x) {
		const uint8_t *name = wl_cursor_take(&c, 64);
		if (!name)
			return 0;
		while (len < 64 && name[len])
			len++;
	} else {
		if (wl_cursor_remaining(&c) < 1 || wl_cursor_u8(&c) > 1)
			return 0;
		for (;;) {
			if (!wl_cursor_remaining(&c))
				return 0;
			uint8_t ch = wl_cursor_u8(&c);
			if (!ch)
				break;
			if (ch < 0x20 || ch == 0x7F || ++len > 1024)
				return 0;
		}
	}
	if (!len || wl_cursor_remaining(&c) < 4)
		return 0;
	uint32_t size = wl_cursor_u32(&c);
	if (size > wl_cursor_remaining(&c))
		return 0;
	return wl_cursor_offset(&c) + size;
}

/* Where the tag list from the TAGG at off lacks #EndOfFile#: the offset
 * to insert it at, or 0. */
static uint64_t insert_at(const wl_doc *d, uint64_t off, bool sp3x)
{
	if (d->size - off < 4 || memcmp(d->bytes + off, "TAGG", 4) != 0)
		return 0;
	uint64_t pos = off + 4;
	while (pos < d->size) {
		if (before_resolution(d, pos))
			return pos;
		pos = tag_end(d, pos, sp3x);
		if (!pos)
			return 0;
	}
	return 0;
}

/* The gap node under lod holding byte pos, or NULL. */
static wl_chunk *gap_at(wl_chunk *lod, uint64_t pos, wl_chunk **prev)
{
	*prev = NULL;
	for (wl_chunk *k = lod->first_child; k; *prev = k, k = k->next)
		if (k->kind == WL_NODE_GAP && k->offset <= pos && pos < wl_chunk_end(k))
			return k;
	return NULL;
}

static int repair(wl_fix_ctx *x, const wl_finding *f)
{
	wl_doc *d = x->doc;
	const p3d_lod *l = p3d_fix_lod_of(x->model, f->chunk);
	uint64_t pos = l ? insert_at(d, f->offset, l->sp3x) : 0;
	wl_chunk *lod = pos ? wl_fix_mut(d, l->node) : NULL, *prev;
	wl_chunk *gap = lod ? gap_at(lod, pos, &prev) : NULL;
	if (!gap)
		return 0;
	uint8_t tag[68] = { 0 };
	size_t n;
	if (l->sp3x) {
		memcpy(tag, EOF_NAME, sizeof EOF_NAME); /* 64-byte name, size 0 */
		n = 68;
	} else {
		tag[0] = 1;
		memcpy(tag + 1, EOF_NAME, sizeof EOF_NAME); /* then size 0 */
		n = 1 + sizeof EOF_NAME + 4;
	}
	size_t head = (size_t)(pos - gap->offset), len = (size_t)gap->size;
	uint8_t *p = wl_arena_alloc(d->arena, len + n);
	if (!p) {
		d->oom = true;
		return -1;
	}
	memcpy(p, d->bytes + gap->offset, head);
	memcpy(p + head, tag, n);
	memcpy(p + head + n, d->bytes + pos, len - head);
	if (wl_edit_remove(d, gap) != 0 ||
	    !wl_edit_insert(d, lod, prev, P3D_NODE_TAGS, p, len + n))
		return d->oom ? -1 : 0;
	return wl_edit_note(d, lod, WLR_P3D_MLOD_NO_EOF_TAG, pos,
			    "#EndOfFile# tag inserted before the lod's resolution");
}

static int apply(wl_fix_ctx *x)
{
	if (!wl_fix_rule_wanted(x, WLR_P3D_MLOD_NO_EOF_TAG))
		return 0;
	wl_doc *d = x->doc;
	/* One repair per run: the LOD's gap holds the rest of the file, and
	 * the next run reads the LODs after it. */
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->severity != WL_SEV_OFF && strcmp(f->rule, wl_rule_name(WLR_P3D_MLOD_NO_EOF_TAG)) == 0)
			return repair(x, f);
	}
	return 0;
}

const wl_fixer p3d_fix_eof_tag = {
	"mlod-eof-tag", false,
	"insert a missing #EndOfFile# tag before an MLOD LOD's resolution", apply
};
