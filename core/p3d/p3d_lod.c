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
 * p3d_compress.h.  What the walk read goes into the LOD's p3d_lodview
 * (p3d_lodview.h), in the arena, for the rules of lint/p3d/check_lod_*.c;
 * sizeOfRestData's expected value is computed here: below v68 it counts
 * from its own first byte to the LOD's end, from v68 from after it to the
 * end less the last byte (so in every corpus LOD).  Reading findings (what
 * stops the walk):
 *   p3d-block-decode    a compressed block does not decode to exactly its
 *                       count x element size (at the block)
 *   p3d-lod-walk        the structure runs past the LOD's end, or ends
 *                       before it (at the place the walk stopped)
 *   p3d-material-version  an embedded material of a version whose layout
 *                       is not known (12 to 15, above 16): the walk stops
 *                       there, unchecked
 */
#include "p3d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "p3d_compress.h"
#include "p3d_lodview.h"
#include "p3d_walk.h"

typedef struct lw {
	wl_doc *d;
	p3d_walker k;       /* over [0, the LOD's end) */
	uint64_t end;
	uint32_t v;
	wl_chunk *lod;
	p3d_lod *l;         /* gets its positions' bounds */
	p3d_lodview *x;     /* what was read (arena) */
	p3d_nameref *last;  /* the last of x->names, NULL before the first */
} lw;

/* The embedded material versions walked: up to 11 (Arma 2: 10, Arma 3:
 * 11; arma-file-formats-rs LodMaterial gates up to 11), and 16 (DayZ
 * ODOL v53: the layout in material(), measured on the corpus).  12 to 15
 * and above 16 (DayZObjectBuilder io/data_p3d_odol.py reads a version 20
 * of DayZ v54, not seen here) stop the walk with p3d-material-version. */
#define P3D_MATERIAL_MAX 11u
#define P3D_MATERIAL_DAYZ 16u

static bool stopped(const lw *w)
{
	return w->k.stop != P3D_STOP_NONE;
}

static uint64_t pos(const lw *w)
{
	return p3d_pos(&w->k);
}

/* Stops the walk where a finding was made (or none is wanted). */
static void halt(lw *w, const char *what)
{
	p3d_walker_stop(&w->k, P3D_STOP_OTHER, what, NULL);
}

/* Whether the block of count x elem at the walk's offset is stored
 * compressed: the rule of p3d_compress.h (p3d_read_block), asked before
 * reading so that a kept block is decoded straight into the arena. */
static bool compressed_at(const lw *w, uint64_t count, uint32_t elem)
{
	if (w->v < 64)
		return count * elem >= 1024;
	return p3d_left(&w->k) && w->k.c.base[w->k.c.pos] != 0;
}

/* Reads a compressible block of count x elem at the walk's offset into
 * a->bl; a->data, when keep, is the decoded block (in the arena) or the
 * file's bytes of a raw one.  A count the bytes left cannot hold stops
 * the walk there; a block that does not decode is a finding and stops
 * it. */
static void block_read(lw *w, uint64_t count, uint32_t elem, const char *what, bool keep,
		       p3d_array *a)
{
	if (stopped(w) || count == 0)
		return;
	uint64_t room = w->end - pos(w);
	/* LZO and LZSS expand at most about 255:1: a larger count is false;
	 * and no block decodes to more than the documents' memory bound
	 * (chunk.h WL_ARENA_PER_BYTE per file byte) plus 1 MiB. */
	uint64_t cap = w->d->size * WL_ARENA_PER_BYTE + ((uint64_t)1 << 20);
	bool comp = compressed_at(w, count, elem);
	uint64_t need = comp ? (count * elem + 255) / 256 : count * elem + (w->v >= 64);
	if (count > (room * 256 + 4096) / elem || count * elem > cap || (!comp && need > room)) {
		p3d_walker_stop_count(&w->k, what, a->at, count, need, room);
		return;
	}
	/* A raw block is read in place: out is only for a compressed one. */
	static uint8_t none[1];
	bool arena = comp && keep;
	uint8_t *out = !comp ? none
		       : arena ? wl_arena_alloc(w->d->arena, (size_t)(count * elem))
			       : malloc((size_t)(count * elem));
	if (!out) {
		w->d->oom = true;
		halt(w, what);
		return;
	}
	p3d_block bl;
	bool ok = p3d_read_block(w->d->bytes, w->end, pos(w), w->v, count, elem, out, &bl);
	if (comp && !arena)
		free(out);
	if (!ok) {
		if (bl.result == P3D_DEC_CUT && !bl.compressed)
			p3d_walker_stop(&w->k, P3D_STOP_END, what, NULL);
		else
			wl_report(&w->d->findings, WLR_P3D_BLOCK_DECODE, w->lod, -1, pos(w), w->end - pos(w),
				  "the lod's %s block at 0x%llx (%s, %llu x %u bytes) does not decode "
				  "to its size: %s",
				  what, (unsigned long long)pos(w), w->v >= 44 ? "lzo" : "lzss",
				  (unsigned long long)count, (unsigned)elem, p3d_dec_name(bl.result));
		halt(w, what);
		return;
	}
	wl_cursor_skip(&w->k.c, (size_t)bl.length);
	a->bl = bl;
	if (keep)
		a->data = bl.data;
	if (!arena)
		a->bl.data = bl.compressed ? NULL : bl.data;
}

/* An array: u32 count, then its block (kept when keep). */
static void array_read(lw *w, uint32_t elem, const char *what, bool keep, p3d_array *a)
{
	memset(a, 0, sizeof *a);
	a->at = pos(w);
	a->n = p3d_u32(&w->k, what);
	block_read(w, a->n, elem, what, keep, a);
	a->read = !stopped(w);
}

/* A condensed array: u32 count, tbool fill, then one element (fill) or
 * the block. */
static void condensed_read(lw *w, uint32_t elem, const char *what, bool keep, p3d_array *a)
{
	memset(a, 0, sizeof *a);
	a->at = pos(w);
	a->n = p3d_u32(&w->k, what);
	if (!p3d_need(&w->k, 1, what))
		return;
	a->fill = p3d_u8(&w->k, what) != 0;
	if (a->fill) {
		uint64_t at = pos(w);
		p3d_skip(&w->k, elem, what);
		a->bl.offset = at;
		if (!stopped(w) && keep)
			a->data = w->d->bytes + at;
	} else {
		block_read(w, a->n, elem, what, keep, a);
	}
	a->read = !stopped(w);
}

static uint32_t index_size(const lw *w)
{
	return w->v >= 69 ? 4 : 2;
}

/* Keeps the name s (an asciiz just read, NULL when not) in the view's list
 * of names, after the ones before it.  A name of fewer than 4 bytes names
 * no file ("x.paa" has 5) and is not kept, so the list takes at most 6
 * bytes of arena per byte of the file. */
static void keep_name(lw *w, const char *s, p3d_namekind kind)
{
	if (!s || strnlen(s, 4) < 4)
		return;
	p3d_nameref *n = wl_arena_alloc(w->d->arena, sizeof *n);
	if (!n) {
		w->d->oom = true;
		return;
	}
	n->at = (uint64_t)((const uint8_t *)s - w->d->bytes);
	n->len = (uint32_t)strlen(s);
	n->kind = kind;
	n->next = NULL;
	if (w->last)
		w->last->next = n;
	else
		w->x->names = n;
	w->last = n;
}

/* One stage texture of an embedded material of version mv. */
static void stage(lw *w, uint32_t mv)
{
	if (mv >= 5)
		p3d_skip(&w->k, 4, "material stage");
	keep_name(w, p3d_asciiz(&w->k, "material stage texture"), P3D_NAME_TEXTURE);
	if (mv >= 8)
		p3d_skip(&w->k, 4, "material stage");
	if (mv >= 11)
		p3d_skip(&w->k, 1, "material stage");
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
	p3d_walker *k = &w->k;
	keep_name(w, p3d_asciiz(k, "material name"), P3D_NAME_MATERIAL);
	uint64_t at = pos(w);
	uint32_t mv = p3d_u32(k, "material");
	if (mv > P3D_MATERIAL_MAX && mv != P3D_MATERIAL_DAYZ && !stopped(w)) {
		wl_report(&w->d->findings, WLR_P3D_MATERIAL_VERSION, w->lod, -1, at, 4,
			  "embedded material version %u is not one whose layout is known (up to %u, "
			  "and %u): the rest of the lod is not checked",
			  (unsigned)mv, (unsigned)P3D_MATERIAL_MAX, (unsigned)P3D_MATERIAL_DAYZ);
		halt(w, "material");
		return;
	}
	p3d_skip(k, 6 * 16 + (mv == P3D_MATERIAL_DAYZ ? 60 : 4) + 16, "material");
	if (mv == 3)
		p3d_skip(k, 1, "material");
	if (mv >= 6)
		p3d_asciiz(k, "material surface");
	if (mv >= 4)
		p3d_skip(k, 8, "material");
	/* A stage takes at least its texture name's nul and its fixed
	 * fields; a transform 52 bytes. */
	uint64_t stage_min = 1u + (mv >= 5 ? 4u : 0u) + (mv >= 8 ? 4u : 0u) + (mv >= 11 ? 1u : 0u);
	uint32_t tex = mv > 6 ? p3d_count(k, "material stages", stage_min) : 0;
	uint32_t xf = mv > 8 ? p3d_count(k, "material transforms", 52) : 0;
	for (uint32_t i = 0; i < tex && !stopped(w); i++)
		stage(w, mv);
	for (uint32_t i = 0; i < xf && !stopped(w); i++)
		p3d_skip(k, 4 + 48, "material stage transform");
	if (mv >= 10)
		stage(w, mv);
}

/* The faces: u32 count, u32 allocation, u16 0, {u8 k; index[k]}[count]. */
static void faces(lw *w)
{
	p3d_walker *k = &w->k;
	p3d_lodview *x = w->x;
	uint32_t n = p3d_count(k, "faces", 1);
	p3d_need(k, 4 + 2, "faces");
	x->alloc_off = pos(w);
	x->alloc = p3d_u32(k, "faces");
	p3d_skip(k, 2, "faces");
	uint64_t from = pos(w);
	uint32_t isz = index_size(w);
	for (uint32_t i = 0; i < n && !stopped(w); i++) {
		if (!p3d_need(k, 1, "faces"))
			break;
		wl_cursor peek = k->c;
		p3d_skip(k, 1 + (uint64_t)wl_cursor_u8(&peek) * isz, "faces");
	}
	if (stopped(w))
		return;
	x->head = p3d_node(w->d, w->lod, P3D_NODE_LODHEAD, w->lod->offset, from - w->lod->offset);
	x->faces = p3d_node(w->d, w->lod, P3D_NODE_FACES, from, pos(w) - from);
	x->rest = p3d_node(w->d, w->lod, P3D_NODE_LODREST, pos(w), w->end - pos(w));
	x->n_faces = n;
	x->faces_off = from;
	x->faces_read = true;
}

static void section(lw *w)
{
	p3d_walker *k = &w->k;
	p3d_skip(k, 20 + 2 + 4, "section");
	uint32_t mat = p3d_u32(k, "section");
	if (mat == UINT32_MAX)
		keep_name(w, p3d_asciiz(k, "section material"), P3D_NAME_MATERIAL);
	if (w->v >= 36)
		p3d_skip(k, (uint64_t)p3d_count(k, "section entries", 4) * 4, "section");
	if (w->v >= 67 && (int32_t)p3d_u32(k, "section") >= 1)
		p3d_skip(k, 48, "section");
}

/* The sections: each one's offset, for the checks. */
static void sections(lw *w)
{
	p3d_lodview *x = w->x;
	x->sections_at = pos(w);
	uint32_t n = p3d_count(&w->k, "sections",
				 30u + (w->v >= 36 ? 4u : 0u) + (w->v >= 67 ? 4u : 0u));
	x->n_sections = n;
	/* A section takes at least 30 bytes. */
	uint64_t cap = n < p3d_left(&w->k) / 30 + 1 ? n : p3d_left(&w->k) / 30 + 1;
	if (cap && !stopped(w)) {
		x->section_off = wl_arena_array(w->d->arena, (size_t)cap, sizeof *x->section_off);
		if (!x->section_off)
			w->d->oom = true;
	}
	for (uint32_t i = 0; i < n && !stopped(w); i++) {
		uint64_t s = pos(w);
		section(w);
		if (!stopped(w) && x->section_off && x->sections_seen < cap)
			x->section_off[x->sections_seen++] = s;
	}
	x->sections_read = !stopped(w);
}

/* Named selection: name, faces, u32, u8, sections, vertices, weights. */
static void selection(lw *w, p3d_selview *s)
{
	uint32_t isz = index_size(w);
	s->name_at = pos(w);
	s->name = p3d_asciiz(&w->k, "named selection");
	array_read(w, isz, "named selection faces", true, &s->faces);
	p3d_skip(&w->k, 4 + 1, "named selection");
	array_read(w, 4, "named selection sections", true, &s->sections);
	array_read(w, isz, "named selection vertices", true, &s->vertices);
	array_read(w, 1, "named selection weights", false, &s->weights);
}

static void selections(lw *w)
{
	p3d_lodview *x = w->x;
	/* A selection takes at least 22 bytes (name's nul, 3 counts, u32 +
	 * u8, weights count). */
	uint32_t n = p3d_count(&w->k, "named selections", 22);
	x->n_selections = n;
	p3d_selview **tail = &x->sels;
	for (uint32_t i = 0; i < n && !stopped(w); i++) {
		p3d_selview *s = wl_arena_alloc(w->d->arena, sizeof *s);
		if (!s) {
			w->d->oom = true;
			halt(w, "named selection");
			break;
		}
		selection(w, s);
		*tail = s;
		tail = &s->next;
	}
	x->selections_read = !stopped(w);
}

/* UV set: from v45 its u/v range (4 floats) and 4-byte packed UVs, below
 * float UVs (kept). */
static void uv_set(lw *w, p3d_uvview ***tail)
{
	p3d_uvview *u = wl_arena_alloc(w->d->arena, sizeof *u);
	if (!u) {
		w->d->oom = true;
		halt(w, "uv set");
		return;
	}
	**tail = u;
	*tail = &u->next;
	if (w->v >= 45 && p3d_need(&w->k, 16, "uv set")) {
		u->range_off = pos(w);
		p3d_skip(&w->k, 16, "uv set");
	}
	condensed_read(w, w->v >= 45 ? 4 : 8, "uv set", w->v < 45, &u->uv);
}

/* The positions (kept) and the LOD's bounds: the min and max of its
 * finite positions. */
static void positions(lw *w)
{
	p3d_array *a = &w->x->positions;
	array_read(w, 12, "positions", true, a);
	p3d_lod *l = w->l;
	for (uint32_t i = 0; a->data && i < a->n; i++) {
		wl_cursor c = wl_cursor_make(a->data + 12ull * i, 12, 0);
		float p[3];
		for (int k = 0; k < 3; k++)
			p[k] = wl_cursor_f32(&c);
		if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
			continue;
		for (int k = 0; k < 3; k++) {
			if (!l->has_bounds || p[k] < l->vmin[k])
				l->vmin[k] = p[k];
			if (!l->has_bounds || p[k] > l->vmax[k])
				l->vmax[k] = p[k];
		}
		l->has_bounds = true;
	}
}

/* Everything from the proxies to the frames. */
static void geometry(lw *w)
{
	p3d_walker *k = &w->k;
	p3d_lodview *x = w->x;
	/* A proxy takes at least its name's nul, 12 floats and 3 (v40+: 4)
	 * indices. */
	uint32_t n = p3d_count(k, "proxies", 61 + (w->v >= 40 ? 4 : 0));
	if (n) {
		x->proxies = wl_arena_array(w->d->arena, n, sizeof *x->proxies);
		if (!x->proxies)
			w->d->oom = true;
	}
	for (uint32_t i = 0; i < n && !stopped(w); i++) {
		uint64_t name_at = pos(w);
		p3d_asciiz(k, "proxy name");
		if (!p3d_need(k, 48 + 12 + (w->v >= 40 ? 4 : 0), "proxy"))
			break;
		p3d_skip(k, 48 + 4, "proxy"); /* transform, sequence id */
		p3d_proxyrec r = { pos(w), 0, 0, -1, name_at };
		r.sel = (int32_t)p3d_u32(k, "proxy");
		r.bone = (int32_t)p3d_u32(k, "proxy");
		if (w->v >= 40)
			r.section = (int32_t)p3d_u32(k, "proxy");
		if (!x->proxies)
			break;
		x->proxies[i] = r;
		x->n_proxies = i + 1;
	}
	n = p3d_count(k, "items", 4);
	x->items_off = pos(w);
	p3d_skip(k, (uint64_t)n * 4, "items");
	x->n_items = stopped(w) ? 0 : n;
	x->links_off = pos(w);
	n = p3d_count(k, "bone links", 4);
	for (uint32_t i = 0; i < n && !stopped(w); i++)
		p3d_skip(k, (uint64_t)p3d_count(k, "bone link entries", 4) * 4, "bone links");
	x->n_links = stopped(w) ? 0 : n;
	uint32_t vertices = UINT32_MAX;
	if (w->v >= 50) {
		vertices = p3d_u32(k, "vertex count");
	} else {
		p3d_array clip;
		condensed_read(w, 4, "clip flags", false, &clip);
		x->vertices = stopped(w) ? UINT32_MAX : clip.n;
	}
	if (w->v >= 51)
		p3d_skip(k, 4, "face area");
	if (!stopped(w) && p3d_left(k) >= 48)
		x->bounds_off = pos(w) + 8;
	p3d_skip(k, 8 + 40, "hints and bounds");
	n = p3d_count(k, "textures", 1);
	x->n_textures = n;
	for (uint32_t i = 0; i < n && !stopped(w); i++)
		keep_name(w, p3d_asciiz(k, "texture name"), P3D_NAME_TEXTURE);
	/* A material takes at least 121 bytes (material()). */
	n = p3d_count(k, "materials", 121);
	x->n_materials = n;
	for (uint32_t i = 0; i < n && !stopped(w); i++)
		material(w);
	p3d_array edges;
	array_read(w, index_size(w), "edges", false, &edges);
	array_read(w, index_size(w), "edges", false, &edges);
	if (w->v >= 50)
		x->vertices = vertices;
	faces(w);
	sections(w);
	selections(w);
	n = p3d_count(k, "named properties", 2);
	x->n_props = n;
	x->props_at = pos(w);
	for (uint32_t i = 0; i < 2 * n && !stopped(w); i++)
		p3d_asciiz(k, "named property");
	x->props_read = !stopped(w);
	n = p3d_count(k, "frames", 8);
	for (uint32_t i = 0; i < n && !stopped(w); i++) {
		p3d_skip(k, 4, "frame");
		p3d_skip(k, (uint64_t)p3d_count(k, "frame points", 12) * 12, "frame");
	}
}

/* From the clip flags to the neighbour bone refs. */
static void rest_arrays(lw *w)
{
	p3d_lodview *x = w->x;
	if (w->v >= 50)
		condensed_read(w, 4, "clip flags", false, &x->clip);
	p3d_uvview **tail = &x->uvs;
	uv_set(w, &tail);
	/* A UV set takes at least 21 bytes from v45 (range, count, flag),
	 * 5 below. */
	uint32_t n = p3d_count(&w->k, "uv sets", w->v >= 45 ? 21 : 5);
	for (uint32_t i = 1; i < n && !stopped(w); i++)
		uv_set(w, &tail);
	positions(w);
	uint32_t nsz = w->v >= 45 ? 4 : 12;
	condensed_read(w, nsz, "normals", w->v < 45, &x->normals);
	array_read(w, w->v >= 45 ? 8 : 24, "st coordinates", false, &x->st);
	array_read(w, 12, "vertex bone refs", true, &x->bone_refs);
	array_read(w, 32, "neighbour bone refs", true, &x->neighbours);
}

bool p3d_walk_lod(wl_doc *d, const p3d_model *m, p3d_lod *l, wl_chunk *node)
{
	p3d_lodview *x = wl_arena_alloc(d->arena, sizeof *x);
	if (!x) {
		d->oom = true;
		return false;
	}
	*x = (p3d_lodview){ .v = m->version, .lod = node, .vertices = UINT32_MAX };
	l->view = x;
	lw w = { d, p3d_walker_make(d->bytes, l->end, l->start), l->end, m->version, node, l, x, NULL };
	geometry(&w);
	p3d_skip(&w.k, 12 + 1, "colours");
	x->rest_at = pos(&w);
	x->rest_size = p3d_u32(&w.k, "rest size");
	/* Measured in the corpus: below v68 from the field's first byte to
	 * the LOD's end; from v68 from after the field, without the LOD's
	 * last byte. */
	x->rest_expect = w.v >= 68 ? w.end - pos(&w) - 1 : w.end - x->rest_at;
	x->rest_read = !stopped(&w) && w.end > pos(&w);
	rest_arrays(&w);
	if (w.v >= 67)
		p3d_skip(&w.k, 4, "tail");
	if (w.v >= 68)
		p3d_skip(&w.k, 1, "tail");
	const wl_chunk *last = wl_chunk_last_child(node);
	if (last)
		p3d_node(d, node, P3D_NODE_LODREST, wl_chunk_end(last), l->end - wl_chunk_end(last));
	if (w.k.stop == P3D_STOP_COUNT)
		wl_report(&d->findings, WLR_P3D_LOD_WALK, node, -1, w.k.at, 4,
			  "the lod's count of %s at 0x%llx is %llu, which needs at least %llu bytes, but "
			  "%llu are left before the lod's end (0x%llx) given by the lod table",
			  w.k.what, (unsigned long long)w.k.at, (unsigned long long)w.k.count,
			  (unsigned long long)w.k.need, (unsigned long long)w.k.left,
			  (unsigned long long)w.end);
	if (w.k.stop == P3D_STOP_END || w.k.stop == P3D_STOP_NUL)
		wl_report(&d->findings, WLR_P3D_LOD_WALK, node, -1, w.k.at, w.end - w.k.at,
			  "the lod's %s at 0x%llx runs past the lod's end (0x%llx) given by the lod table",
			  w.k.what, (unsigned long long)w.k.at, (unsigned long long)w.end);
	if (stopped(&w))
		return false;
	if (pos(&w) != w.end) {
		wl_report(&d->findings, WLR_P3D_LOD_WALK, node, -1, pos(&w), w.end - pos(&w),
			  "the lod's structure ends at 0x%llx, %llu bytes before the lod's end (0x%llx) "
			  "given by the lod table",
			  (unsigned long long)pos(&w), (unsigned long long)(w.end - pos(&w)),
			  (unsigned long long)w.end);
		return false;
	}
	return true;
}
