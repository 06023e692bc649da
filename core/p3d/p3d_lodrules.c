/* p3d_lodrules.c - the index and number rules inside one ODOL LOD, on what
 * the walk (p3d_lod.c) recorded in a p3d_lodview (p3d_lodview.h: layout
 * and sources).  Every finding is one defective element at its bytes; for
 * an element inside a compressed block, at the block, with the element's
 * index in the message.  Findings:
 *   p3d-face-allocation   the allocation before the faces is not the
 *                         faces' allocation size
 *   p3d-section-faces     a section's face bounds lie outside the faces or
 *                         between two faces, or end before they start
 *   p3d-section-order     a section does not start where the one before
 *                         ended (0 for the first), or the last does not
 *                         end at the end of the faces
 *   p3d-section-texture, p3d-section-material   an index past the LOD's
 *                         textures / materials (-1 is "none" / "named")
 *   p3d-selection-index   a named selection's face, section or vertex
 *                         index past the LOD's count
 *   p3d-selection-weights a selection's weights that are not one per
 *                         selected vertex
 *   p3d-proxy-index       a proxy's named selection, bone or section index
 *                         past the LOD's count
 *   p3d-bone-index        a subskeleton bone past the skeleton, a
 *                         skeleton-to-subskeleton link or a vertex bone
 *                         reference past the subskeleton
 *   p3d-not-finite        the bounds, float normals, UV ranges and UVs
 *   p3d-vertex-array-size a per-vertex array whose count is not the LOD's
 *                         vertex count */
#include <math.h>
#include <stdlib.h>

#include "../cursor.h"
#include "p3d_lodview.h"

void p3d_view_free(p3d_lodview *x)
{
	free(x->face_at);
	free(x->proxies);
	x->face_at = NULL;
	x->proxies = NULL;
}

void p3d_elem_span(const p3d_block *bl, uint32_t version, uint64_t i, uint32_t elem,
		   uint64_t *off, uint64_t *len)
{
	if (bl->compressed) {
		*off = bl->offset;
		*len = bl->length;
		return;
	}
	*off = bl->offset + (version >= 64 ? 1 : 0) + i * elem;
	*len = elem;
}

static const wl_chunk *rest_node(const p3d_lodview *x)
{
	return x->rest ? x->rest : x->lod;
}

static const wl_chunk *head_node(const p3d_lodview *x)
{
	return x->head ? x->head : x->lod;
}

/* The face starting at allocation offset a, or -1. */
static int64_t face_starting(const p3d_lodview *x, uint32_t a)
{
	uint32_t lo = 0, hi = x->n_faces + 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (x->face_at[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo <= x->n_faces && x->face_at[lo] == a ? (int64_t)lo : -1;
}

void p3d_rule_faces(p3d_lodview *x)
{
	if (!x->face_at || x->alloc == x->face_at[x->n_faces])
		return;
	wl_report(&x->d->findings, "p3d-face-allocation", head_node(x), -1, x->alloc_off, 4,
		  "the faces' allocation size is %u but %u faces of (1 + vertices) x %u bytes take %u",
		  (unsigned)x->alloc, (unsigned)x->n_faces, x->v >= 69 ? 4u : 2u,
		  (unsigned)x->face_at[x->n_faces]);
}

void p3d_rule_section(p3d_lodview *x, uint32_t i, uint64_t off)
{
	const uint8_t *p = x->d->bytes + off;
	uint32_t from = wl_le32(p), to = wl_le32(p + 4);
	wl_findings *f = &x->d->findings;
	const wl_chunk *node = rest_node(x);
	x->section_last = off;
	if (x->face_at) {
		uint32_t end = x->face_at[x->n_faces];
		if (from > to || to > end || face_starting(x, from) < 0 || face_starting(x, to) < 0) {
			wl_report(f, "p3d-section-faces", node, i, off, 8,
				  "section %u covers face bytes %u to %u, which are not whole faces "
				  "inside the %u bytes of the lod's %u faces",
				  (unsigned)i, (unsigned)from, (unsigned)to, (unsigned)end,
				  (unsigned)x->n_faces);
			x->section_next = UINT32_MAX;
		} else {
			if (x->section_next != UINT32_MAX && from != x->section_next)
				wl_report(f, "p3d-section-order", node, i, off, 4,
					  "section %u starts at face %u (byte %u) but the section before "
					  "it ends at byte %u",
					  (unsigned)i, (unsigned)face_starting(x, from), (unsigned)from,
					  (unsigned)x->section_next);
			x->section_next = to;
		}
	}
	int16_t tex = (int16_t)wl_le16(p + 20);
	if (tex < -1 || (tex >= 0 && (uint32_t)tex >= x->n_textures))
		wl_report(f, "p3d-section-texture", node, i, off + 20, 2,
			  "section %u uses texture %d but the lod has %u textures (-1: none)",
			  (unsigned)i, (int)tex, (unsigned)x->n_textures);
	int32_t mat = (int32_t)wl_le32(p + 26);
	if (mat < -1 || (mat >= 0 && (uint32_t)mat >= x->n_materials))
		wl_report(f, "p3d-section-material", node, i, off + 26, 4,
			  "section %u uses material %d but the lod has %u materials (-1: named in "
			  "the section)",
			  (unsigned)i, (int)mat, (unsigned)x->n_materials);
}

void p3d_rule_sections_end(p3d_lodview *x, uint64_t count_off)
{
	if (!x->face_at || x->n_faces == 0 || x->section_next == UINT32_MAX)
		return;
	uint32_t end = x->face_at[x->n_faces];
	if (x->n_sections == 0)
		wl_report(&x->d->findings, "p3d-section-order", rest_node(x), -1, count_off, 4,
			  "the lod has %u faces but no section: no face is drawn",
			  (unsigned)x->n_faces);
	else if (x->section_next != end)
		wl_report(&x->d->findings, "p3d-section-order", rest_node(x), x->n_sections - 1,
			  x->section_last + 4, 4,
			  "the last section (%u) ends at face byte %u but the faces take %u bytes",
			  (unsigned)(x->n_sections - 1), (unsigned)x->section_next, (unsigned)end);
}

void p3d_rule_selection(p3d_lodview *x, uint32_t s, const char *what, const uint8_t *data,
			uint32_t count, uint32_t elem, const p3d_block *bl, uint32_t limit)
{
	if (!data || limit == UINT32_MAX)
		return;
	bool sign = elem == 4 && what[0] == 's';
	for (uint32_t j = 0; j < count; j++) {
		uint32_t val = elem == 4 ? wl_le32(data + 4ull * j) : wl_le16(data + 2ull * j);
		if (sign ? (int32_t)val >= 0 && val < limit : val < limit)
			continue;
		uint64_t off, len;
		p3d_elem_span(bl, x->v, j, elem, &off, &len);
		wl_report(&x->d->findings, "p3d-selection-index", rest_node(x), s, off, len,
			  "named selection %u's %s entry %u is %lld but the lod has %u %s", (unsigned)s,
			  what, (unsigned)j, sign ? (long long)(int32_t)val : (long long)val,
			  (unsigned)limit, what);
	}
}

void p3d_rule_weights(p3d_lodview *x, uint32_t s, uint64_t at, uint32_t weights,
		      uint32_t vertices)
{
	if (weights == 0 || weights == vertices)
		return;
	wl_report(&x->d->findings, "p3d-selection-weights", rest_node(x), s, at, 4,
		  "named selection %u has %u weights for its %u vertices", (unsigned)s,
		  (unsigned)weights, (unsigned)vertices);
}

/* A signed index that must be -1 (when none is allowed) or below n. */
static bool index_ok(int32_t v, uint32_t n, bool none)
{
	return (none && v == -1) || (v >= 0 && (uint32_t)v < n);
}

static void proxy(p3d_lodview *x, uint32_t i)
{
	const p3d_proxyrec *r = &x->proxies[i];
	wl_findings *f = &x->d->findings;
	if (!index_ok(r->sel, x->n_selections, false))
		wl_report(f, "p3d-proxy-index", head_node(x), i, r->off, 4,
			  "proxy %u names selection %d but the lod has %u named selections",
			  (unsigned)i, (int)r->sel, (unsigned)x->n_selections);
	/* A skeleton bone, not a subskeleton one: real Arma 2 vehicles (suv,
	 * man_hero) bind proxies to bones past their LOD's subskeleton. */
	if (x->m->skeleton_read && !index_ok(r->bone, x->m->n_skeleton_bones, true))
		wl_report(f, "p3d-proxy-index", head_node(x), i, r->off + 4, 4,
			  "proxy %u is bound to bone %d but the skeleton has %u bones (-1: none)",
			  (unsigned)i, (int)r->bone, (unsigned)x->m->n_skeleton_bones);
	if (x->v >= 40 && !index_ok(r->section, x->n_sections, true))
		wl_report(f, "p3d-proxy-index", head_node(x), i, r->off + 8, 4,
			  "proxy %u is in section %d but the lod has %u sections", (unsigned)i,
			  (int)r->section, (unsigned)x->n_sections);
}

static void subskeleton(p3d_lodview *x)
{
	const p3d_model *m = x->m;
	const uint8_t *b = x->d->bytes;
	for (uint32_t k = 0; m->skeleton_read && k < x->n_items; k++) {
		uint32_t bone = wl_le32(b + x->items_off + 4ull * k);
		if (bone >= m->n_skeleton_bones)
			wl_report(&x->d->findings, "p3d-bone-index", head_node(x), k,
				  x->items_off + 4ull * k, 4,
				  "subskeleton bone %u is skeleton bone %u but the skeleton has %u bones",
				  (unsigned)k, (unsigned)bone, (unsigned)m->n_skeleton_bones);
	}
	/* SkeletonToSubSkeleton has one entry per skeleton bone (so in every
	 * corpus LOD whose skeleton was read); the engine indexes it by
	 * skeleton bone.  A LOD with no subskeleton at all (no entry either
	 * way) is not animated and is left alone. */
	if (m->skeleton_read && x->n_links != m->n_skeleton_bones && (x->n_links || x->n_items))
		wl_report(&x->d->findings, "p3d-bone-links-count", head_node(x), -1, x->links_off, 4,
			  "the lod's skeleton-to-subskeleton table has %u entries but the skeleton has "
			  "%u bones", (unsigned)x->n_links, (unsigned)m->n_skeleton_bones);
	uint64_t at = x->links_off + 4;
	for (uint32_t i = 0; i < x->n_links; i++) {
		uint32_t n = wl_le32(b + at);
		at += 4;
		for (uint32_t k = 0; k < n; k++, at += 4)
			if (wl_le32(b + at) >= x->n_items)
				wl_report(&x->d->findings, "p3d-bone-index", head_node(x), i, at, 4,
					  "skeleton bone %u links to subskeleton bone %u but the "
					  "subskeleton has %u bones",
					  (unsigned)i, (unsigned)wl_le32(b + at), (unsigned)x->n_items);
	}
}

void p3d_rule_head(p3d_lodview *x)
{
	if (!x->selections_read)
		return;
	for (uint32_t i = 0; i < x->n_proxies; i++)
		proxy(x, i);
	subskeleton(x);
	if (x->bounds_off)
		p3d_rule_finite(x, head_node(x), "bounding min, max, centre and radius",
				x->d->bytes + x->bounds_off, 10, 4, NULL, x->bounds_off);
}

/* The AnimationRTWeight of element e at data: i32 n; {u8 bone, weight}[4]. */
static void rt_weight(p3d_lodview *x, const uint8_t *rt, uint32_t e, const p3d_block *bl,
		      uint32_t elem, const char *what)
{
	int32_t n = (int32_t)wl_le32(rt);
	for (int32_t k = 0; k < n && k < 4; k++) {
		uint32_t bone = rt[4 + 2 * k];
		if (bone < x->n_items)
			continue;
		uint64_t off, len;
		p3d_elem_span(bl, x->v, e, elem, &off, &len);
		wl_report(&x->d->findings, "p3d-bone-index", rest_node(x), e, off, len,
			  "%s %u weight %d uses subskeleton bone %u but the subskeleton has %u bones",
			  what, (unsigned)e, (int)k, (unsigned)bone, (unsigned)x->n_items);
	}
}

void p3d_rule_bone_refs(p3d_lodview *x, const uint8_t *data, uint32_t count, uint32_t elem,
			const p3d_block *bl)
{
	for (uint32_t e = 0; data && e < count; e++) {
		const uint8_t *p = data + (uint64_t)elem * e;
		if (elem == 12) {
			rt_weight(x, p, e, bl, elem, "vertex bone ref");
		} else {
			rt_weight(x, p + 4, e, bl, elem, "neighbour bone ref (a)");
			rt_weight(x, p + 20, e, bl, elem, "neighbour bone ref (b)");
		}
	}
}

void p3d_rule_finite(p3d_lodview *x, const wl_chunk *node, const char *what, const uint8_t *data,
		     uint32_t count, uint32_t elem, const p3d_block *bl, uint64_t off)
{
	for (uint32_t e = 0; data && e < count; e++)
		for (uint32_t k = 0; k < elem / 4; k++) {
			float v = wl_lef32(data + (uint64_t)elem * e + 4 * k);
			if (isfinite(v))
				continue;
			uint64_t o = off + (uint64_t)elem * e, len = elem;
			if (bl)
				p3d_elem_span(bl, x->v, e, elem, &o, &len);
			wl_report(&x->d->findings, "p3d-not-finite", node ? node : x->lod, e, o, len,
				  "%s %u has a non-finite component %u (%g)", what, (unsigned)e,
				  (unsigned)k, (double)v);
			break;
		}
}

void p3d_rule_array_size(p3d_lodview *x, const char *what, uint64_t at, uint32_t count)
{
	if (x->vertices == UINT32_MAX || count == x->vertices)
		return;
	wl_report(&x->d->findings, "p3d-vertex-array-size", rest_node(x), -1, at, 4,
		  "the lod's %s array has %u entries but the lod has %u vertices", what,
		  (unsigned)count, (unsigned)x->vertices);
}
