/* p3d_lod.c - the walk of one ODOL v4x LOD from its table start to its
 * table end (p3d.h: p3d_walk_lod).  Layout (v40..v73, from
 * arma-file-formats-rs p3d/lod.rs and the BI wiki; no code copied):
 *   proxies      i32 n; {asciiz model; float[12]; i32 seq, sel, bone;
 *                [v>=40 i32 section]}
 *   items        u32 n; u32[n]
 *   bone links   u32 n; {u32 k; u32[k]}[n]
 *   [v>=50 u32 vertexCount | v<50 condensed clip (4)]; [v>=51 float area]
 *   i32 orHints, andHints; float bMin[3], bMax[3], bCenter[3], bRadius
 *   textures     u32 n; asciiz[n]
 *   materials    u32 n; embedded materials (versioned, see material())
 *   edges        2 x (u32 n; compressed vertex index[n])
 *   faces        u32 n; u32 allocation; u16 0; {u8 k; index[k]}[n]
 *   sections     u32 n; sections (see section())
 *   selections   u32 n; {asciiz; index array; u32; u8; i32 array;
 *                index array; u8 array}
 *   properties   u32 n; {asciiz; asciiz}[n]
 *   frames       u32 n; {float; u32 k; float[3][k]}
 *   u32 icon, selected, special; u8 simple; u32 sizeOfRestData
 *   [v>=50 condensed clip (4)]; UV set; u32 nUV; UV set[nUV-1];
 *   positions (12), normals (condensed, 4 from v45 else 12), ST (8 from
 *   v45 else 24), bone refs (12), neighbour refs (32); [v>=67 u32];
 *   [v>=68 u8].
 * Vertex indices are u16 below v69, u32 from v69.  Arrays as in
 * p3d_compress.h.  Findings:
 *   p3d-block-decode    a compressed block does not decode to exactly its
 *                       count x element size (at the block)
 *   p3d-lod-walk        the structure runs past the LOD's end, or ends
 *                       before it (at the place the walk stopped)
 *   p3d-face-vertex-count, p3d-face-index (v50+: vertexCount, below:
 *                       the clip flags' count),
 *   p3d-not-finite      positions (element = vertex, at the block)
 *   p3d-vertex-outside-bbox  a position outside ModelInfo's box
 *                       (p3d_bbox.c; element = vertex, at the block)
 * and, through the p3d_lodview it fills (p3d_lodview.h), the index,
 * section, NaN and array-size rules of p3d_lodrules.c.
 *   p3d-rest-size       sizeOfRestData differs from the LOD's table end:
 *                       below v68 it counts from its own first byte to
 *                       the end, from v68 from after it to the end less
 *                       the last byte (so in every corpus LOD)
 *   p3d-material-version  an embedded material of a version whose layout
 *                       is not known (12 to 15, above 16): the walk stops
 *                       there, unchecked
 */
#include "p3d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cursor.h"
#include "p3d_compress.h"
#include "p3d_lodview.h"

typedef struct lw {
	wl_doc *d;
	const uint8_t *b;
	uint64_t pos, end;
	uint32_t v;
	wl_chunk *lod;
	bool stop;          /* a finding ended the walk */
	uint32_t vertices;  /* v50+ vertexCount, else UINT32_MAX */
	bool unsupported;   /* stopped at a layout not known (no finding of
	                     * p3d-lod-walk) */
	const p3d_model *m;
	p3d_lod *l;         /* gets its positions' bounds */
	p3d_lodview x;      /* what was read, for p3d_lodrules.c */
} lw;

/* The embedded material versions walked: up to 11 (Arma 2: 10, Arma 3:
 * 11; arma-file-formats-rs LodMaterial gates up to 11), and 16 (DayZ
 * ODOL v53: the layout in material(), measured on the corpus).  12 to 15
 * and above 16 (DayZObjectBuilder io/data_p3d_odol.py reads a version 20
 * of DayZ v54, not seen here) stop the walk with p3d-material-version. */
#define P3D_MATERIAL_MAX 11u
#define P3D_MATERIAL_DAYZ 16u

static void past_end(lw *w, const char *what)
{
	if (w->stop)
		return;
	w->stop = true;
	wl_report(&w->d->findings, "p3d-lod-walk", w->lod, -1, w->pos, w->end - w->pos,
		  "the lod's %s at 0x%llx runs past the lod's end (0x%llx) given by the lod table",
		  what, (unsigned long long)w->pos, (unsigned long long)w->end);
}

static bool need(lw *w, uint64_t n, const char *what)
{
	if (!w->stop && w->end - w->pos >= n)
		return true;
	past_end(w, what);
	return false;
}

static uint32_t u32(lw *w, const char *what)
{
	if (!need(w, 4, what))
		return 0;
	uint32_t x = wl_le32(w->b + w->pos);
	w->pos += 4;
	return x;
}

static void skip(lw *w, uint64_t n, const char *what)
{
	if (need(w, n, what))
		w->pos += n;
}

static void asciiz(lw *w, const char *what)
{
	if (w->stop)
		return;
	const uint8_t *z = memchr(w->b + w->pos, 0, (size_t)(w->end - w->pos));
	if (!z) {
		past_end(w, what);
		return;
	}
	w->pos = (uint64_t)(z - w->b) + 1;
}

/* Reads a compressible block of count x elem at pos; its decoded bytes
 * (malloc, caller frees) when want, else NULL; *blp set to the block as
 * read.  A block that does not decode is a finding and stops the walk. */
static uint8_t *block_read(lw *w, uint64_t count, uint32_t elem, const char *what, bool want,
			   p3d_block *blp)
{
	if (w->stop || count == 0)
		return NULL;
	uint64_t room = w->end - w->pos;
	/* LZO and LZSS expand at most about 255:1: a larger count is false;
	 * and no block decodes to more than 64 bytes per file byte (the
	 * documents' memory bound, chunk.h WL_ARENA_PER_BYTE) plus 1 MiB. */
	uint64_t cap = w->d->size * WL_ARENA_PER_BYTE + ((uint64_t)1 << 20);
	if (count > (room * 256 + 4096) / elem || count * elem > cap) {
		past_end(w, what);
		return NULL;
	}
	uint8_t *out = malloc((size_t)(count * elem));
	if (!out) {
		w->d->oom = true;
		w->stop = true;
		return NULL;
	}
	p3d_block bl;
	if (!p3d_read_block(w->b, w->end, w->pos, w->v, count, elem, out, &bl)) {
		if (bl.result == P3D_DEC_CUT && !bl.compressed)
			past_end(w, what);
		else
			wl_report(&w->d->findings, "p3d-block-decode", w->lod, -1, w->pos, w->end - w->pos,
				  "the lod's %s block at 0x%llx (%s, %llu x %u bytes) does not decode "
				  "to its size: %s",
				  what, (unsigned long long)w->pos, w->v >= 44 ? "lzo" : "lzss",
				  (unsigned long long)count, (unsigned)elem, p3d_dec_name(bl.result));
		w->stop = true;
		free(out);
		return NULL;
	}
	w->pos += bl.length;
	*blp = bl;
	if (want && bl.data != out)
		memcpy(out, bl.data, (size_t)(count * elem));
	if (!want) {
		free(out);
		return NULL;
	}
	return out;
}

static uint8_t *block(lw *w, uint64_t count, uint32_t elem, const char *what, bool want)
{
	p3d_block bl;
	return block_read(w, count, elem, what, want, &bl);
}

/* An array as read: its count (at the offset at), its block and, when
 * asked for, its decoded bytes (malloc); a condensed array filled with
 * one element has fill set and data pointing at that element in the
 * file. */
typedef struct arr {
	uint64_t at;
	uint32_t n;
	bool fill;
	p3d_block bl;
	const uint8_t *data;
	uint8_t *own;       /* data when decoded (malloc) */
} arr;

static void array_read(lw *w, uint32_t elem, const char *what, bool want, arr *a)
{
	memset(a, 0, sizeof *a);
	a->at = w->pos;
	a->n = u32(w, what);
	a->data = a->own = block_read(w, a->n, elem, what, want, &a->bl);
}

static void array(lw *w, uint32_t elem, const char *what)
{
	arr a;
	array_read(w, elem, what, false, &a);
}

static void condensed_read(lw *w, uint32_t elem, const char *what, bool want, arr *a)
{
	memset(a, 0, sizeof *a);
	a->at = w->pos;
	a->n = u32(w, what);
	if (!need(w, 1, what))
		return;
	a->fill = w->b[w->pos++] != 0;
	if (a->fill) {
		uint64_t at = w->pos;
		skip(w, elem, what);
		a->bl.offset = at;
		if (!w->stop && want)
			a->data = w->b + at;
	} else {
		a->data = a->own = block_read(w, a->n, elem, what, want, &a->bl);
	}
}

/* Frees a's decoded bytes (not a filled element, which is the file's). */
static void arr_free(arr *a)
{
	free(a->own);
	a->data = a->own = NULL;
}

/* NaN/Inf in a float array read by condensed_read: its filled element
 * (at its bytes) or each element. */
static void arr_finite(lw *w, const arr *a, uint32_t elem, const char *what)
{
	if (a->fill)
		p3d_rule_finite(&w->x, w->x.rest, what, a->data, 1, elem, NULL, a->bl.offset);
	else
		p3d_rule_finite(&w->x, w->x.rest, what, a->data, a->n, elem, &a->bl, 0);
}

static uint32_t index_size(const lw *w)
{
	return w->v >= 69 ? 4 : 2;
}

/* One stage texture of an embedded material of version mv. */
static void stage(lw *w, uint32_t mv)
{
	if (mv >= 5)
		skip(w, 4, "material stage");
	asciiz(w, "material stage texture");
	if (mv >= 8)
		skip(w, 4, "material stage");
	if (mv >= 11)
		skip(w, 1, "material stage");
}

/* An embedded material: name, version mv, 6 colours, power, 4 ids,
 * [mv 3: u8], [mv>=6 surface], [mv>=4 2 x u32], [mv>6 nStages],
 * [mv>8 nTransforms], stages, transforms (u32 + float[12]), [mv>=10 the
 * TI stage].
 * Version 16 (DayZ, ODOL v53) has 60 bytes where version 11 has the
 * 4-byte specular power, between the colours and the 4 ids; everything
 * after them is version 11's.  No public reader has this version
 * (DayZObjectBuilder reads a version 20 with other extra fields); it was
 * measured on the corpus's 8 version-16 materials (5 DayZ files, 8 LODs,
 * 1 to 10 stages, 2 with a surface name): an extra of 56 bytes is the
 * only one from 0 to 200 with which every LOD lands on its table end
 * and sizeOfRestData agrees, and the 4 words before the surface name
 * read as the 4 ids (0 0 1 1 and 102 23 1 1).  What the 15 words hold is
 * not known (floats: 0.3, 0.99, an RGBA-like quadruple, 100 or 200). */
static void material(lw *w)
{
	asciiz(w, "material name");
	uint64_t at = w->pos;
	uint32_t mv = u32(w, "material");
	if (mv > P3D_MATERIAL_MAX && mv != P3D_MATERIAL_DAYZ && !w->stop) {
		wl_report(&w->d->findings, "p3d-material-version", w->lod, -1, at, 4,
			  "embedded material version %u is not one whose layout is known (up to %u, "
			  "and %u): the rest of the lod is not checked",
			  (unsigned)mv, (unsigned)P3D_MATERIAL_MAX, (unsigned)P3D_MATERIAL_DAYZ);
		w->stop = true;
		w->unsupported = true;
		return;
	}
	skip(w, 6 * 16 + (mv == P3D_MATERIAL_DAYZ ? 60 : 4) + 16, "material");
	if (mv == 3)
		skip(w, 1, "material");
	if (mv >= 6)
		asciiz(w, "material surface");
	if (mv >= 4)
		skip(w, 8, "material");
	uint32_t tex = mv > 6 ? u32(w, "material") : 0;
	uint32_t xf = mv > 8 ? u32(w, "material") : 0;
	for (uint32_t i = 0; i < tex && !w->stop; i++)
		stage(w, mv);
	for (uint32_t k = 0; k < xf && !w->stop; k++)
		skip(w, 4 + 48, "material stage transform");
	if (mv >= 10)
		stage(w, mv);
}

static void faces(lw *w)
{
	uint32_t n = u32(w, "face count");
	skip(w, 4 + 2, "faces");
	uint64_t from = w->pos;
	uint32_t isz = index_size(w);
	for (uint32_t i = 0; i < n && !w->stop; i++) {
		if (!need(w, 1, "faces"))
			break;
		uint32_t k = w->b[w->pos];
		skip(w, 1 + (uint64_t)k * isz, "faces");
	}
	if (w->stop)
		return;
	w->x.head = p3d_node(w->d, w->lod, P3D_NODE_LODHEAD, w->lod->offset, from - w->lod->offset);
	wl_chunk *node = p3d_node(w->d, w->lod, P3D_NODE_FACES, from, w->pos - from);
	w->x.faces = node;
	w->x.rest = p3d_node(w->d, w->lod, P3D_NODE_LODREST, w->pos, w->end - w->pos);
	w->x.n_faces = n;
	w->x.alloc_off = from - 6;
	w->x.alloc = wl_le32(w->b + from - 6);
	w->x.face_at = malloc(((size_t)n + 1) * sizeof *w->x.face_at);
	if (!w->x.face_at)
		w->d->oom = true;
	uint64_t at = from, sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = w->b[at];
		if (w->x.face_at)
			w->x.face_at[i] = (uint32_t)sum;
		sum += (1ull + k) * isz;
		if (k != 3 && k != 4)
			wl_report(&w->d->findings, "p3d-face-vertex-count", node, i, at, 1,
				  "face %u has %u vertices: a face has 3 or 4", (unsigned)i, (unsigned)k);
		/* The vertex count: v50+ vertexCount, below v50 the count of the
		 * clip flags (one per vertex; equal to the positions' count in
		 * every corpus LOD). */
		uint32_t nv = w->x.vertices;
		for (uint32_t j = 0; j < k && nv != UINT32_MAX; j++) {
			uint64_t o = at + 1 + (uint64_t)j * isz;
			uint32_t idx = isz == 4 ? wl_le32(w->b + o) : wl_le16(w->b + o);
			if (idx >= nv)
				wl_report(&w->d->findings, "p3d-face-index", node, i, o, isz,
					  "face %u vertex %u uses vertex %u of %u", (unsigned)i, (unsigned)j,
					  (unsigned)idx, (unsigned)nv);
		}
		at += 1 + (uint64_t)k * isz;
	}
	if (w->x.face_at && sum > UINT32_MAX) {
		free(w->x.face_at);
		w->x.face_at = NULL;
	}
	if (w->x.face_at) {
		w->x.face_at[n] = (uint32_t)sum;
		p3d_rule_faces(&w->x);
	}
}

static void section(lw *w)
{
	skip(w, 20 + 2 + 4, "section");
	uint32_t mat = u32(w, "section");
	if (mat == UINT32_MAX)
		asciiz(w, "section material");
	if (w->v >= 36) {
		uint32_t k = u32(w, "section");
		skip(w, (uint64_t)k * 4, "section");
	}
	if (w->v >= 67) {
		int32_t has = (int32_t)u32(w, "section");
		if (has >= 1)
			skip(w, 48, "section");
	}
}

/* Named selection s: faces, sections and vertices checked against the
 * LOD's counts (p3d_lodrules.c). */
static void selection(lw *w, uint32_t s)
{
	p3d_lodview *x = &w->x;
	uint32_t isz = index_size(w);
	arr a;
	asciiz(w, "named selection");
	array_read(w, isz, "named selection faces", true, &a);
	p3d_rule_selection(x, s, "faces", a.data, a.n, isz, &a.bl, x->n_faces);
	arr_free(&a);
	skip(w, 4 + 1, "named selection");
	array_read(w, 4, "named selection sections", true, &a);
	p3d_rule_selection(x, s, "sections", a.data, a.n, 4, &a.bl, x->n_sections);
	arr_free(&a);
	array_read(w, isz, "named selection vertices", true, &a);
	p3d_rule_selection(x, s, "vertices", a.data, a.n, isz, &a.bl, x->vertices);
	arr_free(&a);
	uint32_t nv = a.n;
	array_read(w, 1, "named selection weights", false, &a);
	if (!w->stop)
		p3d_rule_weights(x, s, a.at, a.n, nv);
}

/* UV set i: from v45 its u/v range (4 floats) and 4-byte packed UVs,
 * below float UVs; NaN/Inf in the floats, its count. */
static void uv_set(lw *w, uint32_t i)
{
	char what[40];
	snprintf(what, sizeof what, "uv set %u range", (unsigned)i);
	if (w->v >= 45 && need(w, 16, "uv set")) {
		p3d_rule_finite(&w->x, w->x.rest, what, w->b + w->pos, 1, 16, NULL, w->pos);
		w->pos += 16;
	}
	arr a;
	condensed_read(w, w->v >= 45 ? 4 : 8, "uv set", w->v < 45, &a);
	snprintf(what, sizeof what, "uv set %u uv", (unsigned)i);
	arr_finite(w, &a, 8, what);
	arr_free(&a);
	if (!w->stop)
		p3d_rule_array_size(&w->x, what, a.at, a.n);
}

static void positions(lw *w)
{
	uint32_t n = u32(w, "positions");
	uint64_t at = w->pos;
	uint8_t *p = block(w, n, 12, "positions", true);
	if (!p)
		return;
	p3d_lod *l = w->l;
	for (uint32_t i = 0; i < n; i++) {
		bool finite = true;
		for (int k = 0; k < 3; k++)
			if (!isfinite(wl_lef32(p + 12ull * i + 4 * k))) {
				wl_report(&w->d->findings, "p3d-not-finite", w->lod, i, at, w->pos - at,
					  "vertex position %u has a non-finite component %d (%g)",
					  (unsigned)i, k, (double)wl_lef32(p + 12ull * i + 4 * k));
				finite = false;
				break;
			}
		for (int k = 0; finite && k < 3; k++) {
			float x = wl_lef32(p + 12ull * i + 4 * k);
			if (!l->has_bounds || x < l->vmin[k])
				l->vmin[k] = x;
			if (!l->has_bounds || x > l->vmax[k])
				l->vmax[k] = x;
		}
		l->has_bounds |= finite;
	}
	p3d_bbox_check(w->d, w->m, l, w->lod, p, n, at, w->pos - at);
	free(p);
}

/* Everything from the proxies to the frames. */
static void geometry(lw *w)
{
	p3d_lodview *x = &w->x;
	uint32_t n = u32(w, "proxy count");
	/* A proxy takes at least 61 bytes: a count past that stops the walk. */
	if (n <= (w->end - w->pos) / 61)
		x->proxies = malloc(((size_t)n + 1) * sizeof *x->proxies);
	for (uint32_t i = 0; i < n && !w->stop; i++) {
		asciiz(w, "proxy name");
		uint64_t at = w->pos + 52;
		skip(w, 48 + 12 + (w->v >= 40 ? 4 : 0), "proxy");
		if (w->stop || !x->proxies)
			break;
		x->proxies[i] = (p3d_proxyrec){ at, (int32_t)wl_le32(w->b + at),
						(int32_t)wl_le32(w->b + at + 4),
						w->v >= 40 ? (int32_t)wl_le32(w->b + at + 8) : -1 };
		x->n_proxies = i + 1;
	}
	n = u32(w, "items");
	x->items_off = w->pos;
	skip(w, (uint64_t)n * 4, "items");
	x->n_items = w->stop ? 0 : n;
	x->links_off = w->pos;
	n = u32(w, "bone links");
	x->n_links = n;
	for (uint32_t i = 0; i < n && !w->stop; i++) {
		uint32_t k = u32(w, "bone links");
		skip(w, (uint64_t)k * 4, "bone links");
	}
	if (w->stop)
		x->n_links = 0;
	w->vertices = UINT32_MAX;
	if (w->v >= 50) {
		w->vertices = u32(w, "vertex count");
	} else {
		arr clip;
		condensed_read(w, 4, "clip flags", false, &clip);
		x->vertices = w->stop ? UINT32_MAX : clip.n;
	}
	if (w->v >= 51)
		skip(w, 4, "face area");
	if (!w->stop && w->end - w->pos >= 48)
		x->bounds_off = w->pos + 8;
	skip(w, 8 + 40, "hints and bounds");
	n = u32(w, "textures");
	x->n_textures = n;
	for (uint32_t i = 0; i < n && !w->stop; i++)
		asciiz(w, "texture name");
	n = u32(w, "materials");
	x->n_materials = n;
	for (uint32_t i = 0; i < n && !w->stop; i++)
		material(w);
	array(w, index_size(w), "edges");
	array(w, index_size(w), "edges");
	if (w->v >= 50)
		x->vertices = w->vertices;
	faces(w);
	uint64_t at = w->pos;
	n = u32(w, "sections");
	x->n_sections = n;
	for (uint32_t i = 0; i < n && !w->stop; i++) {
		uint64_t s = w->pos;
		section(w);
		if (!w->stop)
			p3d_rule_section(x, i, s);
	}
	if (!w->stop)
		p3d_rule_sections_end(x, at);
	n = u32(w, "named selections");
	x->n_selections = n;
	for (uint32_t i = 0; i < n && !w->stop; i++)
		selection(w, i);
	x->selections_read = !w->stop;
	p3d_rule_head(x);
	n = u32(w, "named properties");
	for (uint32_t i = 0; i < 2 * n && !w->stop; i++)
		asciiz(w, "named property");
	n = u32(w, "frames");
	for (uint32_t i = 0; i < n && !w->stop; i++) {
		skip(w, 4, "frame");
		uint32_t k = u32(w, "frame");
		skip(w, (uint64_t)k * 12, "frame");
	}
}

/* From the clip flags to the neighbour bone refs: counts, NaN/Inf, bone
 * indices. */
static void rest_arrays(lw *w)
{
	p3d_lodview *x = &w->x;
	arr a;
	if (w->v >= 50) {
		condensed_read(w, 4, "clip flags", false, &a);
		if (!w->stop)
			p3d_rule_array_size(x, "clip flags", a.at, a.n);
	}
	uv_set(w, 0);
	uint32_t n = u32(w, "uv sets");
	for (uint32_t i = 1; i < n && !w->stop; i++)
		uv_set(w, i);
	uint64_t at = w->pos;
	positions(w);
	if (!w->stop)
		p3d_rule_array_size(x, "positions", at, wl_le32(w->b + at));
	uint32_t nsz = w->v >= 45 ? 4 : 12;
	condensed_read(w, nsz, "normals", w->v < 45, &a);
	arr_finite(w, &a, nsz, "normal");
	arr_free(&a);
	if (!w->stop)
		p3d_rule_array_size(x, "normals", a.at, a.n);
	array_read(w, w->v >= 45 ? 8 : 24, "st coordinates", false, &a);
	if (!w->stop && a.n)
		p3d_rule_array_size(x, "st coordinates", a.at, a.n);
	array_read(w, 12, "vertex bone refs", true, &a);
	p3d_rule_bone_refs(x, a.data, a.n, 12, &a.bl);
	arr_free(&a);
	if (!w->stop && a.n)
		p3d_rule_array_size(x, "vertex bone refs", a.at, a.n);
	array_read(w, 32, "neighbour bone refs", true, &a);
	p3d_rule_bone_refs(x, a.data, a.n, 32, &a.bl);
	arr_free(&a);
}

bool p3d_walk_lod(wl_doc *d, const p3d_model *m, p3d_lod *l, wl_chunk *node)
{
	lw w = { d, d->bytes, l->start, l->end, m->version, node, false, UINT32_MAX, false, m, l, { 0 } };
	w.x = (p3d_lodview){ .d = d, .m = m, .v = m->version, .lod = node,
			     .vertices = UINT32_MAX };
	geometry(&w);
	skip(&w, 12 + 1, "colours");
	uint64_t rest_at = w.pos;
	uint32_t rest = u32(&w, "rest size");
	/* Measured in the corpus: below v68 from the field's first byte to
	 * the LOD's end; from v68 from after the field, without the LOD's
	 * last byte. */
	uint64_t expect = w.v >= 68 ? w.end - w.pos - 1 : w.end - rest_at;
	if (!w.stop && w.end > w.pos && rest != expect)
		wl_report(&d->findings, "p3d-rest-size", node, -1, rest_at, 4,
			  "the lod's sizeOfRestData is %u but the lod's end (0x%llx) gives %llu",
			  (unsigned)rest, (unsigned long long)w.end, (unsigned long long)expect);
	rest_arrays(&w);
	if (w.v >= 67)
		skip(&w, 4, "tail");
	if (w.v >= 68)
		skip(&w, 1, "tail");
	if (node->last_child)
		p3d_node(d, node, P3D_NODE_LODREST, wl_chunk_end(node->last_child),
			 l->end - wl_chunk_end(node->last_child));
	p3d_view_free(&w.x);
	if (w.stop)
		return false;
	if (w.pos != w.end) {
		wl_report(&d->findings, "p3d-lod-walk", node, -1, w.pos, w.end - w.pos,
			  "the lod's structure ends at 0x%llx, %llu bytes before the lod's end (0x%llx) "
			  "given by the lod table",
			  (unsigned long long)w.pos, (unsigned long long)(w.end - w.pos),
			  (unsigned long long)w.end);
		return false;
	}
	return true;
}
