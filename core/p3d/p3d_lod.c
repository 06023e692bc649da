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
 *   p3d-face-vertex-count, p3d-face-index (v50+: vertexCount),
 *   p3d-not-finite      positions (element = vertex, at the block)
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
#include <stdlib.h>
#include <string.h>

#include "../cursor.h"
#include "p3d_compress.h"

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
 * (malloc, caller frees) when want, else NULL.  A block that does not
 * decode is a finding and stops the walk. */
static uint8_t *block(lw *w, uint64_t count, uint32_t elem, const char *what, bool want)
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
	if (want && bl.data != out)
		memcpy(out, bl.data, (size_t)(count * elem));
	if (!want) {
		free(out);
		return NULL;
	}
	return out;
}

static void array(lw *w, uint32_t elem, const char *what)
{
	uint32_t n = u32(w, what);
	block(w, n, elem, what, false);
}

static void condensed(lw *w, uint32_t elem, const char *what)
{
	uint32_t n = u32(w, what);
	if (!need(w, 1, what))
		return;
	bool fill = w->b[w->pos++] != 0;
	if (fill)
		skip(w, elem, what);
	else
		block(w, n, elem, what, false);
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
	p3d_node(w->d, w->lod, P3D_NODE_LODHEAD, w->lod->offset, from - w->lod->offset);
	wl_chunk *node = p3d_node(w->d, w->lod, P3D_NODE_FACES, from, w->pos - from);
	uint64_t at = from;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = w->b[at];
		if (k != 3 && k != 4)
			wl_report(&w->d->findings, "p3d-face-vertex-count", node, i, at, 1,
				  "face %u has %u vertices: a face has 3 or 4", (unsigned)i, (unsigned)k);
		for (uint32_t j = 0; j < k && w->vertices != UINT32_MAX; j++) {
			uint64_t o = at + 1 + (uint64_t)j * isz;
			uint32_t idx = isz == 4 ? wl_le32(w->b + o) : wl_le16(w->b + o);
			if (idx >= w->vertices)
				wl_report(&w->d->findings, "p3d-face-index", node, i, o, isz,
					  "face %u vertex %u uses vertex %u of %u", (unsigned)i, (unsigned)j,
					  (unsigned)idx, (unsigned)w->vertices);
		}
		at += 1 + (uint64_t)k * isz;
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

static void selection(lw *w)
{
	asciiz(w, "named selection");
	array(w, index_size(w), "named selection faces");
	skip(w, 4 + 1, "named selection");
	array(w, 4, "named selection");
	array(w, index_size(w), "named selection vertices");
	array(w, 1, "named selection weights");
}

static void uv_set(lw *w)
{
	if (w->v >= 45)
		skip(w, 16, "uv set");
	condensed(w, w->v >= 45 ? 4 : 8, "uv set");
}

static void positions(lw *w)
{
	uint32_t n = u32(w, "positions");
	uint64_t at = w->pos;
	uint8_t *p = block(w, n, 12, "positions", true);
	if (!p)
		return;
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			if (!isfinite(wl_lef32(p + 12ull * i + 4 * k))) {
				wl_report(&w->d->findings, "p3d-not-finite", w->lod, i, at, w->pos - at,
					  "vertex position %u has a non-finite component %d (%g)",
					  (unsigned)i, k, (double)wl_lef32(p + 12ull * i + 4 * k));
				break;
			}
	free(p);
}

/* Everything from the proxies to the frames. */
static void geometry(lw *w)
{
	uint32_t n = u32(w, "proxy count");
	for (uint32_t i = 0; i < n && !w->stop; i++) {
		asciiz(w, "proxy name");
		skip(w, 48 + 12 + (w->v >= 40 ? 4 : 0), "proxy");
	}
	n = u32(w, "items");
	skip(w, (uint64_t)n * 4, "items");
	n = u32(w, "bone links");
	for (uint32_t i = 0; i < n && !w->stop; i++) {
		uint32_t k = u32(w, "bone links");
		skip(w, (uint64_t)k * 4, "bone links");
	}
	w->vertices = UINT32_MAX;
	if (w->v >= 50)
		w->vertices = u32(w, "vertex count");
	else
		condensed(w, 4, "clip flags");
	if (w->v >= 51)
		skip(w, 4, "face area");
	skip(w, 8 + 40, "hints and bounds");
	n = u32(w, "textures");
	for (uint32_t i = 0; i < n && !w->stop; i++)
		asciiz(w, "texture name");
	n = u32(w, "materials");
	for (uint32_t i = 0; i < n && !w->stop; i++)
		material(w);
	array(w, index_size(w), "edges");
	array(w, index_size(w), "edges");
	faces(w);
	n = u32(w, "sections");
	for (uint32_t i = 0; i < n && !w->stop; i++)
		section(w);
	n = u32(w, "named selections");
	for (uint32_t i = 0; i < n && !w->stop; i++)
		selection(w);
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

bool p3d_walk_lod(wl_doc *d, const p3d_model *m, const p3d_lod *l, wl_chunk *node)
{
	lw w = { d, d->bytes, l->start, l->end, m->version, node, false, UINT32_MAX, false };
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
	if (w.v >= 50)
		condensed(&w, 4, "clip flags");
	uv_set(&w);
	uint32_t n = u32(&w, "uv sets");
	for (uint32_t i = 1; i < n && !w.stop; i++)
		uv_set(&w);
	positions(&w);
	condensed(&w, w.v >= 45 ? 4 : 12, "normals");
	array(&w, w.v >= 45 ? 8 : 24, "st coordinates");
	array(&w, 12, "vertex bone refs");
	array(&w, 32, "neighbour bone refs");
	if (w.v >= 67)
		skip(&w, 4, "tail");
	if (w.v >= 68)
		skip(&w, 1, "tail");
	if (node->last_child)
		p3d_node(d, node, P3D_NODE_LODREST, wl_chunk_end(node->last_child),
			 l->end - wl_chunk_end(node->last_child));
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
