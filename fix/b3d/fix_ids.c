/*
 * fix_ids.c - clear-dangling-ids (safe): sets the ids that name no object
 * to -1, "none", the value every reader accepts:
 *   b3d-texture-id-out-of-range  a BRUS texture_id beyond TEXS (the 4 bytes
 *                                of the id): the layer is drawn without a
 *                                texture, as Irrlicht and Luanti already
 *                                draw it; Assimp stops refusing the model.
 *   b3d-brush-id-out-of-range    a MESH or TRIS brush_id beyond BRUS (the
 *                                4-byte field): no brush, where Luanti
 *                                refused the model ("Illegal brush ID").
 * (rules/b3d/materials.yaml.)  Texture ids are left alone while BB3D holds
 * a chunk of unknown tag: it may be a renamed TEXS (notes/b3d_reference.md,
 * the "XXXX" case), and the ids would point into it once it is named back.
 * Ids into a table that does not read whole (b3d_fix_table_whole: its size
 * is wrong or it ends in a partial entry) are left alone too: the damage
 * took entries of it, so an id past those left is not known to dangle in
 * what the file held, and the element that holds the id may be intact
 * (issue 29: a TEXS that lost its second entry made this fixer set an
 * intact BRUS's texture id 1 to -1).
 */
#include "fixers.h"

#include <inttypes.h>
#include <string.h>

#include "core/cursor.h"

static bool unknown_under_bb3d(const wl_doc *d)
{
	const b3d_model *m = d->model;
	if (!m || !m->bb3d)
		return false;
	for (const wl_chunk *k = m->bb3d->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && !k->type)
			return true;
	return false;
}

static int clear(wl_fix_ctx *x, wl_rule_id rule, const char *what)
{
	if (!wl_fix_rule_wanted(x, rule))
		return 0;
	wl_doc *d = x->doc;
	static const uint8_t none[4] = { 0xFF, 0xFF, 0xFF, 0xFF };
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->severity == WL_SEV_OFF || f->rule_id != rule || !f->chunk || f->length != 4)
			continue;
		wl_chunk *c = wl_fix_mut(d, f->chunk);
		uint8_t old[4];
		if (!c || b3d_fix_patch(d, c, f->offset, none, 4, old) != 0) {
			if (d->oom)
				return -1;
			continue;
		}
		if (wl_edit_note(d, c, rule, f->offset, "%s: %" PRId32 " -> -1", what, (int32_t)wl_le32(old)) != 0)
			return -1;
	}
	return 0;
}

static int apply(wl_fix_ctx *x)
{
	const b3d_model *m = x->doc->model;
	if (!m)
		return 0;
	if (!unknown_under_bb3d(x->doc) && b3d_fix_table_whole(x->doc, m->texs) &&
	    clear(x, WLR_B3D_TEXTURE_ID_OUT_OF_RANGE, "texture_id") != 0)
		return -1;
	if (!b3d_fix_table_whole(x->doc, m->brus))
		return 0;
	return clear(x, WLR_B3D_BRUSH_ID_OUT_OF_RANGE, "brush_id");
}

const wl_fixer b3d_fix_clear_dangling_ids = {
	"clear-dangling-ids", false,
	"set BRUS texture ids and MESH/TRIS brush ids that name no entry to -1 (none)",
	apply
};
