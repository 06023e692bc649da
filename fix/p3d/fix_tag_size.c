/*
 * fix_tag_size.c - mlod-tag-size (safe): repairs p3d-mlod-tag-size
 * (rules/p3d/structure.yaml) by writing into the tag's u32 size the
 * number of bytes from its data's start to the next tag, where the MLOD
 * reader found that tag (core/p3d/p3d_mlod.c: the list runs on from there
 * through plausible tags to #EndOfFile#, and the misfit tag is followed
 * by it in the LOD's tags; for #EndOfFile#, the last tag, the LOD's
 * resolution, followed by the next LOD or the end of the file).  Real files have such a tag (#UVSet#
 * declaring 4 bytes fewer than it holds, issue 19); Object Builder and
 * every MLOD reader step over a tag by its size, so they lose the list
 * there.  Safe: only the size field changes, to what the bytes are.
 */
#include "fixers.h"

#include <string.h>

/* The repaired size for the finding at size field `at` of LOD l, or -1
 * when the reader did not place the next tag: up to the next tag, or for
 * the last tag (#EndOfFile#) of a LOD read whole up to its resolution. */
static int64_t true_size(const p3d_lod *l, uint64_t at)
{
	for (uint32_t k = 0; k + 1 < l->n_tags; k++)
		if (l->tags[k].size_at == at)
			return (int64_t)l->tags[k + 1].at - (int64_t)(at + 4);
	if (l->n_tags && l->tags[l->n_tags - 1].size_at == at && l->walked)
		return (int64_t)l->end - 4 - (int64_t)(at + 4);
	return -1;
}

static int apply(wl_fix_ctx *x)
{
	if (!wl_fix_rule_wanted(x, WLR_P3D_MLOD_TAG_SIZE))
		return 0;
	wl_doc *d = x->doc;
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->severity == WL_SEV_OFF || strcmp(f->rule, wl_rule_name(WLR_P3D_MLOD_TAG_SIZE)) != 0)
			continue;
		const p3d_lod *l = p3d_fix_lod_of(x->model, f->chunk);
		int64_t size = l && l->tagnode ? true_size(l, f->offset) : -1;
		if (size < 0)
			continue;
		wl_chunk *c = wl_fix_mut(d, l->tagnode);
		uint32_t old;
		if (!c || wl_fix_patch_u32(d, c, (size_t)(f->offset - c->offset), (uint32_t)size, &old) != 0)
			return d->oom ? -1 : 0;
		if (wl_edit_note(d, c, WLR_P3D_MLOD_TAG_SIZE, f->offset, "tag size: %u -> %u",
				 (unsigned)old, (unsigned)size) != 0)
			return -1;
	}
	return 0;
}

const wl_fixer p3d_fix_tag_size = {
	"mlod-tag-size", false,
	"set an MLOD tag's size to where the next tag starts", apply
};
