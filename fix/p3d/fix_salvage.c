/*
 * fix_salvage.c - mlod-salvage (unsafe): the salvage of a damaged MLOD
 * file (issue 17, "salvage keeps every intact element").  The MLOD reader
 * (core/p3d/p3d_mlod.c) walks each LOD; a LOD it cannot walk (cut by the
 * end of the file, a count or size that sends the walk astray, a bad
 * signature) runs to the end of the file, or to the next LOD found by its
 * signature (resync).  This fixer
 *   - removes every LOD the reader could not walk whole, with the bytes it
 *     skipped: their points, normals, faces and tags are not whole, and
 *     keeping a part would need a resolution, a tag list or faces the file
 *     no longer holds, i.e. invented data;
 *   - sets the header's LOD count to the LODs kept: those read whole, each
 *     kept byte for byte (the writer copies untouched nodes, core/edit.h),
 *     also those after the header's count (p3d-mlod-lod-count) and where
 *     the count is larger than the LODs present (p3d-truncated at the end).
 * When no LOD would be left it refuses (wl_fix_ctx.refused): a model of no
 * LOD is not a model, so w3dfix keeps the original and says why.  Rules:
 * p3d-truncated, p3d-mlod-no-eof-tag, p3d-mlod-lod-signature (the finding
 * that stopped the walk of a LOD it removes), p3d-mlod-lod-count.  ODOL
 * files never reach it (core/p3d/descriptor.c repairable).
 */
#include "fixers.h"

#include <string.h>

static const wl_rule_id rules[] = { WLR_P3D_TRUNCATED, WLR_P3D_MLOD_NO_EOF_TAG, WLR_P3D_MLOD_LOD_SIGNATURE,
				    WLR_P3D_MLOD_LOD_COUNT, WL_RULE_NONE };

/* Whether node c lies under (or is) node top. */
static bool under(const wl_chunk *c, const wl_chunk *top)
{
	for (; c; c = c->parent)
		if (c == top)
			return true;
	return false;
}

/* The first finding of this fixer's rules at LOD node n (the one that
 * stopped its walk), or NULL. */
static const wl_finding *reason(const wl_doc *d, const wl_chunk *n)
{
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		for (const wl_rule_id *r = rules; *r != WL_RULE_NONE && f->severity != WL_SEV_OFF; r++)
			if (f->rule_id == *r && f->chunk && under(f->chunk, n))
				return f;
	}
	return NULL;
}

/* The finding of rule at the file level or the header (no LOD), or NULL. */
static const wl_finding *header_finding(const wl_doc *d, const p3d_model *m, wl_rule_id rule)
{
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->rule_id == rule && f->severity != WL_SEV_OFF && (!f->chunk || f->chunk == m->header))
			return f;
	}
	return NULL;
}

/* Removes LOD l (not walked whole), noting the finding that stopped it. */
static int drop(wl_doc *d, const p3d_lod *l, uint32_t index, const wl_finding *why)
{
	wl_chunk *c = wl_fix_mut(d, l->node);
	if (!c)
		return 0;
	uint64_t from = c->offset, to = wl_chunk_end(c);
	if (wl_edit_note(d, c, why->rule_id, from,
			 "lod %u: removed, bytes 0x%llX..0x%llX (it does not read whole: %s)", (unsigned)index,
			 (unsigned long long)from, (unsigned long long)to, why->message) != 0)
		return -1;
	return wl_edit_remove(d, c);
}

static int apply(wl_fix_ctx *x)
{
	wl_doc *d = x->doc;
	const p3d_model *m = x->model;
	if (!m || !m->mlod || !m->header || !m->lods)
		return 0;
	uint32_t kept = 0, bad = 0;
	for (uint32_t i = 0; i < m->n_res; i++) {
		const p3d_lod *l = &m->lods[i];
		if (l->walked)
			kept++;
		else if (l->node && reason(d, l->node) && wl_fix_rule_wanted(x, reason(d, l->node)->rule_id))
			bad++;
	}
	const wl_finding *count_why = header_finding(d, m, kept > m->n_lods ? WLR_P3D_MLOD_LOD_COUNT : WLR_P3D_TRUNCATED);
	bool recount = kept != m->n_lods && (bad || (count_why && wl_fix_rule_wanted(x, count_why->rule_id)));
	if (!bad && !recount)
		return 0;
	if (kept == 0) {
		const p3d_lod *l = &m->lods[0];
		const wl_finding *f = l->node ? reason(d, l->node) : count_why;
		x->refused = wl_arena_printf(d->arena,
					     "nothing kept: no lod of the %u the header counts reads whole (the first: %s); "
					     "a model of no lod is not made",
					     (unsigned)m->n_lods, f ? f->message : "not in the file");
		return x->refused ? 0 : -1;
	}
	wl_rule_id rule = count_why ? count_why->rule_id : WLR_P3D_TRUNCATED;
	for (uint32_t i = 0; i < m->n_res; i++) {
		const p3d_lod *l = &m->lods[i];
		const wl_finding *why = !l->walked && l->node ? reason(d, l->node) : NULL;
		if (!why || !wl_fix_rule_wanted(x, why->rule_id))
			continue;
		if (drop(d, l, i, why) != 0)
			return -1;
		rule = count_why ? rule : why->rule_id;
	}
	if (kept == m->n_lods)
		return 0;
	wl_chunk *h = wl_fix_mut(d, m->header);
	uint32_t old;
	if (!h || wl_fix_patch_u32(d, h, (size_t)(m->nlods_off - h->offset), kept, &old) != 0)
		return d->oom ? -1 : 0;
	return wl_edit_note(d, h, rule, m->nlods_off, "lod count: %u -> %u (the lods read whole, kept)",
			    (unsigned)old, (unsigned)kept);
}

const wl_fixer p3d_fix_salvage = {
	"mlod-salvage", true,
	"remove the MLOD lods that do not read whole and set the lod count to the lods kept", apply
};
