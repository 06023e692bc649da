/*
 * fix_lod_counts.c - mlod-lod-counts (unsafe): repairs p3d-mlod-count
 * (rules/p3d/structure.yaml): an MLOD LOD whose point, normal or face
 * count disagrees with its arrays, where the reader
 * (core/p3d/p3d_mlod_scan.c p3d_mlod_true_counts) found exactly one value
 * of exactly one count under which the faces, the tag list and the
 * resolution read whole up to the next LOD or the end of the file, and
 * read the LOD with it.  That value (p3d_lod.n_points, n_normals,
 * n_faces) is written into the count field of the LOD's header: "a
 * mislabelled size is repaired, not amputated" (issue 17), so the LOD is
 * kept whole instead of being removed by mlod-salvage.  Unsafe: the value
 * is inferred from the layout of the bytes, not stored anywhere.
 */
#include "fixers.h"

#include <string.h>

/* The LOD header node (P3DM/SP3X and the counts) of LOD node n, or NULL. */
static const wl_chunk *lod_header(const wl_chunk *n)
{
	for (const wl_chunk *k = n ? n->first_child : NULL; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && k->id == P3D_NODE_LODHEADER)
			return k;
	return NULL;
}

static int apply(wl_fix_ctx *x)
{
	if (!wl_fix_rule_wanted(x, WLR_P3D_MLOD_COUNT))
		return 0;
	wl_doc *d = x->doc;
	static const char *const what[3] = { "point", "normal", "face" };
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->severity == WL_SEV_OFF || f->rule_id != WLR_P3D_MLOD_COUNT)
			continue;
		const p3d_lod *l = p3d_fix_lod_of(x->model, f->chunk);
		const wl_chunk *h = l ? lod_header(l->node) : NULL;
		if (!h || f->offset < h->offset + 12 || f->offset + 4 > h->offset + 24)
			continue;
		size_t k = (size_t)(f->offset - h->offset - 12) / 4;
		uint32_t v = k == 0 ? l->n_points : k == 1 ? l->n_normals : l->n_faces, old;
		wl_chunk *c = wl_fix_mut(d, h);
		if (!c || wl_fix_patch_u32(d, c, (size_t)(f->offset - c->offset), v, &old) != 0)
			return d->oom ? -1 : 0;
		if (wl_edit_note(d, c, WLR_P3D_MLOD_COUNT, f->offset, "%s count: %u -> %u (what its arrays hold)",
				 what[k], (unsigned)old, (unsigned)v) != 0)
			return -1;
	}
	return 0;
}

const wl_fixer p3d_fix_lod_counts = {
	"mlod-lod-counts", true,
	"set an MLOD lod's point, normal or face count to what its arrays hold", apply
};
