/* p3d_mlod.c - the MLOD structural walk (p3d.h): each P3DM LOD's header,
 * points, normals, faces, TAGG list to #EndOfFile# and resolution, as
 * nodes; the element defects at their bytes.  Findings:
 *   p3d-truncated          a LOD or one of its arrays runs past the end
 *   p3d-mlod-lod-signature a LOD does not start with P3DM (SP3X: the OFP
 *                          layout, recognised, not walked)
 *   p3d-mlod-no-eof-tag    the tag list reaches the end without #EndOfFile#
 *   p3d-face-vertex-count  a face with a vertex count other than 3 or 4
 *   p3d-face-index         a face's point or normal index >= its count
 *   p3d-not-finite         NaN or infinity in a point, normal or UV
 * After the first LOD that cannot be walked the rest of the file is one
 * gap. */
#include "p3d.h"

#include <math.h>
#include <string.h>

#include "../cursor.h"

#define MLOD_HEADER 12u   /* MLOD, version, nLods */
#define P3DM_HEADER 28u
#define POINT_SIZE 16u
#define NORMAL_SIZE 12u
#define FACE_FIXED 72u    /* nVerts, 4 x 16-byte vertex, flags */
#define EOF_TAG "#EndOfFile#"

/* Reports a non-finite float among n at p (element el of node). */
static void check_finite(wl_doc *d, const wl_chunk *node, int64_t el, uint64_t off, unsigned n,
		   const char *what)
{
	for (unsigned k = 0; k < n; k++) {
		float v = wl_lef32(d->bytes + off + 4u * k);
		if (!isfinite(v)) {
			wl_report(&d->findings, "p3d-not-finite", node, el, off, 4u * n,
				  "%s %lld has a non-finite component %u (%g)", what, (long long)el, k,
				  (double)v);
			return;
		}
	}
}

/* The bytes after an asciiz at off (its NUL included), or 0 when it has
 * none before end. */
static uint64_t asciiz_end(const wl_doc *d, uint64_t off, uint64_t end)
{
	const uint8_t *z = off < end ? memchr(d->bytes + off, 0, (size_t)(end - off)) : NULL;
	return z ? (uint64_t)(z - d->bytes) + 1 : 0;
}

static void truncated(wl_doc *d, const wl_chunk *node, uint64_t off, const char *what)
{
	wl_report(&d->findings, "p3d-truncated", node, -1, off, d->size - off,
		  "%s at 0x%llx runs past the end of the file (0x%llx)", what,
		  (unsigned long long)off, (unsigned long long)d->size);
}

/* Faces from off; the offset after them, or 0 when cut. */
static uint64_t faces(wl_doc *d, wl_chunk *lod, uint64_t off, const p3d_lod *l)
{
	uint64_t pos = off;
	for (uint32_t i = 0; i < l->n_faces; i++) {
		if (d->size - pos < FACE_FIXED) {
			truncated(d, lod, pos, "a face");
			return 0;
		}
		uint64_t tex = asciiz_end(d, pos + FACE_FIXED, d->size);
		uint64_t end = tex ? asciiz_end(d, tex, d->size) : 0;
		if (!end) {
			truncated(d, lod, pos, "a face's texture or material name");
			return 0;
		}
		pos = end;
	}
	wl_chunk *node = p3d_node(d, lod, P3D_NODE_FACES, off, pos - off);
	uint64_t at = off;
	for (uint32_t i = 0; i < l->n_faces; i++) {
		uint64_t next = asciiz_end(d, asciiz_end(d, at + FACE_FIXED, d->size), d->size);
		uint32_t nv = wl_le32(d->bytes + at);
		if (nv != 3 && nv != 4) {
			wl_report(&d->findings, "p3d-face-vertex-count", node, i, at, 4,
				  "face %u has %u vertices: a face has 3 or 4", (unsigned)i, (unsigned)nv);
		} else {
			for (uint32_t k = 0; k < nv; k++) {
				uint64_t v = at + 4 + 16ull * k;
				uint32_t pi = wl_le32(d->bytes + v), ni = wl_le32(d->bytes + v + 4);
				if (pi >= l->n_points)
					wl_report(&d->findings, "p3d-face-index", node, i, v, 4,
						  "face %u vertex %u uses point %u of %u", (unsigned)i,
						  (unsigned)k, (unsigned)pi, (unsigned)l->n_points);
				if (ni >= l->n_normals)
					wl_report(&d->findings, "p3d-face-index", node, i, v + 4, 4,
						  "face %u vertex %u uses normal %u of %u", (unsigned)i,
						  (unsigned)k, (unsigned)ni, (unsigned)l->n_normals);
				check_finite(d, node, i, v + 8, 2, "face uv of face");
			}
		}
		at = next;
	}
	return pos;
}

/* The TAGG list from off; the offset after #EndOfFile#, or 0. */
static uint64_t tags(wl_doc *d, wl_chunk *lod, uint64_t off)
{
	if (d->size - off < 4 || memcmp(d->bytes + off, "TAGG", 4) != 0) {
		wl_report(&d->findings, "p3d-mlod-no-eof-tag", lod, -1, off, d->size - off < 4 ? d->size - off : 4,
			  "the lod's tag list at 0x%llx does not start with TAGG", (unsigned long long)off);
		return 0;
	}
	uint64_t pos = off + 4;
	for (;;) {
		uint64_t name = pos + 1;
		uint64_t after = name < d->size ? asciiz_end(d, name, d->size) : 0;
		if (!after || d->size - after < 4) {
			wl_report(&d->findings, "p3d-mlod-no-eof-tag", lod, -1, off, d->size - off,
				  "the tag list from 0x%llx reaches the end of the file without an "
				  "#EndOfFile# tag",
				  (unsigned long long)off);
			return 0;
		}
		uint32_t size = wl_le32(d->bytes + after);
		bool eof = after - name == sizeof EOF_TAG && memcmp(d->bytes + name, EOF_TAG, sizeof EOF_TAG) == 0;
		if (size > d->size - after - 4) {
			wl_report(&d->findings, "p3d-mlod-no-eof-tag", lod, -1, off, d->size - off,
				  "the tag list from 0x%llx reaches the end of the file without an "
				  "#EndOfFile# tag (the size of the tag at 0x%llx, %u, runs past it)",
				  (unsigned long long)off, (unsigned long long)pos, (unsigned)size);
			return 0;
		}
		pos = after + 4 + size;
		if (eof)
			break;
	}
	p3d_node(d, lod, P3D_NODE_TAGS, off, pos - off);
	return pos;
}

/* n records of size bytes from pos whose first 3 floats must be finite,
 * as a node of type id under lod: the offset after them, or 0 when cut. */
static uint64_t vectors(wl_doc *d, wl_chunk *lod, uint64_t pos, uint32_t id, uint32_t n,
			uint32_t size, const char *what)
{
	if ((d->size - pos) / size < n) {
		wl_report(&d->findings, "p3d-truncated", lod, -1, pos, d->size - pos,
			  "the %ss array at 0x%llx (%u x %u bytes) runs past the end of the file "
			  "(0x%llx)",
			  what, (unsigned long long)pos, (unsigned)n, (unsigned)size,
			  (unsigned long long)d->size);
		return 0;
	}
	wl_chunk *node = p3d_node(d, lod, id, pos, (uint64_t)size * n);
	for (uint32_t i = 0; i < n; i++)
		check_finite(d, node, i, pos + (uint64_t)size * i, 3, what);
	return pos + (uint64_t)size * n;
}

/* One P3DM LOD at off into node: its end, or 0 when it could not be
 * walked. */
static uint64_t lod_walk(wl_doc *d, wl_chunk *node, p3d_lod *l, uint32_t index, uint64_t off)
{
	if (d->size - off < P3DM_HEADER) {
		truncated(d, node, off, "a lod header");
		return 0;
	}
	const uint8_t *h = d->bytes + off;
	if (memcmp(h, "P3DM", 4) != 0) {
		bool sp3x = memcmp(h, "SP3X", 4) == 0;
		wl_report(&d->findings, "p3d-mlod-lod-signature", node, -1, off, 4,
			  sp3x ? "lod %u at 0x%llx is an OFP SP3X lod, whose layout this reader does not walk"
			       : "lod %u at 0x%llx does not start with P3DM",
			  (unsigned)index, (unsigned long long)off);
		return 0;
	}
	l->n_points = wl_le32(h + 12);
	l->n_normals = wl_le32(h + 16);
	l->n_faces = wl_le32(h + 20);
	p3d_node(d, node, P3D_NODE_LODHEADER, off, P3DM_HEADER);
	uint64_t pos = off + P3DM_HEADER;
	pos = vectors(d, node, pos, P3D_NODE_POINTS, l->n_points, POINT_SIZE, "point");
	if (pos)
		pos = vectors(d, node, pos, P3D_NODE_NORMALS, l->n_normals, NORMAL_SIZE, "normal");
	if (!pos)
		return 0;
	pos = faces(d, node, pos, l);
	if (pos)
		pos = tags(d, node, pos);
	if (!pos)
		return 0;
	if (d->size - pos < 4) {
		truncated(d, node, pos, "the lod resolution");
		return 0;
	}
	p3d_node(d, node, P3D_NODE_RESOLUTION, pos, 4);
	l->resolution = wl_lef32(d->bytes + pos);
	pos += 4;
	node->size = pos - off;
	node->declared_size = (uint32_t)node->size;
	l->end = (uint32_t)pos;
	l->walked = true;
	return pos;
}

/* One LOD node from off to its end (to the end of the file, its unwalked
 * rest a gap, when the walk stops). */
static uint64_t lod(wl_doc *d, p3d_lod *l, uint32_t index, uint64_t off)
{
	wl_chunk *node = p3d_node(d, &d->root, P3D_NODE_LOD, off, d->size - off);
	if (!node)
		return 0;
	node->label = wl_arena_printf(d->arena, "%u", (unsigned)index);
	l->node = node;
	l->start = (uint32_t)off;
	uint64_t end = lod_walk(d, node, l, index, off);
	if (!end)
		p3d_gap(d, node, node->last_child ? wl_chunk_end(node->last_child) : off, d->size);
	return end;
}

void p3d_read_mlod(wl_doc *d, p3d_model *m)
{
	if (d->size < MLOD_HEADER) {
		p3d_node(d, &d->root, P3D_NODE_HEADER, 0, d->size);
		truncated(d, NULL, 0, "the MLOD header (magic, version, lod count)");
		return;
	}
	m->version = wl_le32(d->bytes + 4);
	m->nlods_off = 8;
	m->n_lods = wl_le32(d->bytes + 8);
	m->header_complete = true;
	m->header = p3d_node(d, &d->root, P3D_NODE_HEADER, 0, MLOD_HEADER);
	/* A LOD takes at least 36 bytes: more LODs than that cannot fit. */
	uint32_t fit = (uint32_t)((d->size - MLOD_HEADER) / (P3DM_HEADER + 8));
	uint32_t n = m->n_lods < fit ? m->n_lods : fit;
	m->lods = wl_arena_array(d->arena, n ? n : 1, sizeof *m->lods);
	if (!m->lods) {
		d->oom = true;
		return;
	}
	uint64_t pos = MLOD_HEADER;
	uint32_t i = 0;
	for (; i < n && pos; i++)
		pos = lod(d, &m->lods[i], i, pos);
	if (pos && i < m->n_lods)
		truncated(d, NULL, pos, "a lod of the header's count");
	if (pos && pos < d->size)
		p3d_node(d, &d->root, P3D_NODE_TAIL, pos, d->size - pos);
	m->n_res = i;
}
