/* p3d_mlod.c - the MLOD structural walk (p3d.h): each P3DM (Arma) or SP3X
 * (Operation Flashpoint) LOD's header, points, normals, faces, TAGG list to
 * #EndOfFile# and resolution, as nodes; the element defects at their
 * bytes.  The two LOD kinds share the header, points and normals; they
 * differ in the face and the tag (aczwink/ArmA-Modding-Tools
 * src/p3d/MLOD_Lod.cpp, BI wiki "P3D Lod Faces" and "P3D File Format -
 * MLOD"; no code copied):
 *   P3DM face  u32 nVerts; 4 x {u32 point, normal; float u, v}; u32 flags;
 *              asciiz texture; asciiz material
 *   SP3X face  char texture[32]; then the same 72 fixed bytes, no names
 *   P3DM tag   u8 active; asciiz name; u32 size; u8 data[size]
 *   SP3X tag   char name[64]; u32 size; u8 data[size]
 * The nodes of each LOD's points, normals and faces and each face's
 * offset go into its p3d_lod for the checks of lint/p3d/check_mlod.c.
 * Reading findings (what stops the walk):
 *   p3d-truncated          a LOD or one of its arrays runs past the end
 *   p3d-mlod-lod-signature a LOD starts with neither P3DM nor SP3X
 *   p3d-mlod-no-eof-tag    the tag list reaches the end without #EndOfFile#
 *   p3d-mlod-tag-size      where the tag list cannot be walked: a tag whose
 *                          declared size disagrees with where the next tag
 *                          is (found 1 to 64 bytes from its declared end,
 *                          from where the list runs on through plausible
 *                          tags to #EndOfFile#); the walk goes on there
 *   p3d-mlod-lod-count     the header counts fewer LODs than the file
 *                          holds: LODs after the counted ones that walk
 *                          whole (p3d_mlod_strict_end) are read too
 * Recovery (issue 17, salvage keeps every intact LOD): after a LOD that
 * cannot be walked the next LOD is looked for by its signature
 * (p3d_mlod_resync: the first P3DM or SP3X from which a LOD walks whole);
 * the damaged LOD's node then ends there (WL_REC_CLAMPED, its unread bytes
 * a WL_REC_SKIPPED gap, its children that reach past it dropped) and the
 * walk goes on from the LOD found.  With none, the damaged LOD's node runs
 * to the end of the file (WL_REC_TRUNCATED), its unread rest a gap. */
#include "p3d_mlod.h"

#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "core/grow.h"

#define MLOD_HEADER P3D_MLOD_HEADER
#define P3DM_HEADER P3D_MLOD_LODHEAD
#define POINT_SIZE P3D_MLOD_POINT
#define NORMAL_SIZE P3D_MLOD_NORMAL
#define face_end p3d_mlod_face_end
#define tag_size_at p3d_mlod_tag_size_at

static void truncated(wl_doc *d, const wl_chunk *node, uint64_t off, const char *what)
{
	wl_report(&d->findings, WLR_P3D_TRUNCATED, node, -1, off, d->size - off,
		  "%s at 0x%llx runs past the end of the file (0x%llx)", what,
		  (unsigned long long)off, (unsigned long long)d->size);
}

/* Faces from off; the offset after them, or 0 when cut.  Records the
 * faces' node and each face's offset in l. */
static uint64_t faces(wl_doc *d, wl_chunk *lod, uint64_t off, p3d_lod *l, bool sp3x)
{
	uint64_t pos = off;
	for (uint32_t i = 0; i < l->n_faces; i++) {
		uint64_t end = face_end(d, pos, sp3x);
		if (!end) {
			truncated(d, lod, pos, sp3x ? "a face" : "a face or its texture or material name");
			return 0;
		}
		pos = end;
	}
	l->faces = p3d_node(d, lod, P3D_NODE_FACES, off, pos - off);
	uint64_t *at = l->n_faces ? wl_arena_array(d->arena, l->n_faces, sizeof *at) : NULL;
	if (l->n_faces && !at)
		d->oom = true;
	uint64_t face = off;
	for (uint32_t i = 0; at && i < l->n_faces; i++) {
		at[i] = face;
		face = face_end(d, face, sp3x);
	}
	l->face_off = at;
	return pos;
}

/* A plausible tag head at pos: P3DM an active byte of 0 or 1 and a name
 * of 1 to 1024 characters none of which is a control character (every
 * corpus tag is active 1 with such a name), SP3X such a name in its 64
 * bytes; then its size field.  The offset of that field, or 0; *eof set
 * when it is #EndOfFile#. */
static uint64_t tag_head_plausible(const wl_doc *d, uint64_t pos, bool sp3x, bool *eof)
{
	if (!sp3x && (pos >= d->size || d->bytes[pos] > 1))
		return 0;
	uint64_t after = tag_size_at(d, pos, sp3x, eof);
	if (!after)
		return 0;
	uint64_t name = sp3x ? pos : pos + 1;
	const uint8_t *z = memchr(d->bytes + name, 0, (size_t)(after - name));
	uint64_t len = z ? (uint64_t)(z - d->bytes) - name : 0;
	if (len == 0 || len > 1024)
		return 0;
	for (uint64_t k = 0; k < len; k++)
		if (d->bytes[name + k] < 0x20 || d->bytes[name + k] == 0x7F)
			return 0;
	return after;
}

/* A plausible tag at pos (tag_head_plausible) whose data lies inside the
 * file: the offset after its data, or 0. */
static uint64_t tag_plausible(const wl_doc *d, uint64_t pos, bool sp3x, bool *eof)
{
	uint64_t after = tag_head_plausible(d, pos, sp3x, eof);
	if (!after)
		return 0;
	uint32_t size = wl_le32(d->bytes + after);
	return size > d->size - after - 4 ? 0 : after + 4 + size;
}

/* Whether a tag list resumed at pos runs through plausible tags to
 * #EndOfFile#, its resolution and then the end of the file or the next
 * LOD's signature. */
static bool chain_ok(const wl_doc *d, uint64_t pos, bool sp3x)
{
	for (;;) {
		bool eof = false;
		uint64_t next = tag_plausible(d, pos, sp3x, &eof);
		if (!next)
			return false;
		pos = next;
		if (!eof)
			continue;
		if (d->size - pos < 4)
			return false;
		pos += 4;
		return pos == d->size || p3d_mlod_signature(d, pos);
	}
}

/* A tag as walked: its first byte and its size field. */
typedef struct tagrec {
	uint64_t at, size_at;
} tagrec;

/* How far (bytes) from a tag's declared end the next tag is looked for,
 * how many tags back from where the walk failed, and how far past the
 * data start of the tag it failed at (a plausible head with a size
 * running past the file). */
#define TAG_SLACK 64
#define TAG_BACK 32
#define TAG_SCAN ((uint64_t)1 << 20)

/* Where the walk failed at tag `at`: the tag whose size misses the next
 * tag, and *next, the true next tag.  First the failing tag itself when
 * its head is plausible: the first offset in its data (up to TAG_SCAN
 * bytes) from which the list runs on to its end (chain_ok); else the
 * latest of the last TAG_BACK tags (t, n of them) after whose data,
 * moved by 1 to TAG_SLACK bytes either way, it does.  That tag (its
 * first byte and size field), or false when none. */
static bool tag_misfit(const wl_doc *d, uint64_t at, const tagrec *t, size_t n, bool sp3x,
		       tagrec *misfit, uint64_t *next)
{
	bool eof = false;
	uint64_t head = tag_head_plausible(d, at, sp3x, &eof);
	for (uint64_t q = head + 4; head && !eof && q < d->size && q - head - 4 <= TAG_SCAN; q++)
		if (chain_ok(d, q, sp3x)) {
			*next = q;
			*misfit = (tagrec){ at, head };
			return true;
		}
	for (size_t k = n; k-- > 0 && n - k <= TAG_BACK;) {
		if (!tag_plausible(d, t[k].at, sp3x, &eof) || eof)
			continue;
		uint64_t data = t[k].size_at + 4, end = data + wl_le32(d->bytes + t[k].size_at);
		for (int64_t delta = 1; delta <= TAG_SLACK; delta++)
			for (int sign = -1; sign <= 1; sign += 2) {
				int64_t q = (int64_t)end + sign * delta;
				if (q < (int64_t)data || (uint64_t)q >= d->size)
					continue;
				if (chain_ok(d, (uint64_t)q, sp3x)) {
					*next = (uint64_t)q;
					*misfit = t[k];
					return true;
				}
			}
	}
	return false;
}

/* The tag list cannot be walked at pos: with recover, a tag size that
 * disagrees with where the next tag is (p3d-mlod-tag-size, at that size;
 * the walk goes on from the true next tag: its offset returned, that tag
 * in *misfit), else
 * p3d-mlod-no-eof-tag (0 returned). */
static uint64_t tags_failed(wl_doc *d, wl_chunk *lod, uint64_t off, uint64_t pos, uint32_t size,
			    const tagrec *t, size_t n, bool sp3x, bool recover, tagrec *misfit)
{
	uint64_t next = 0;
	tagrec r;
	if (recover && tag_misfit(d, pos, t, n, sp3x, &r, &next)) {
		*misfit = r;
		uint64_t size_at = r.size_at, name = r.at + (sp3x ? 0 : 1);
		wl_report(&d->findings, WLR_P3D_MLOD_TAG_SIZE, lod, -1, size_at, 4,
			  "the tag \"%.64s\" declares %u bytes of data, but the next tag starts at "
			  "0x%llx, %llu bytes after its data's start (0x%llx)",
			  (const char *)d->bytes + name, (unsigned)wl_le32(d->bytes + size_at),
			  (unsigned long long)next, (unsigned long long)(next - size_at - 4),
			  (unsigned long long)(size_at + 4));
		return next;
	}
	if (size == 0)
		wl_report(&d->findings, WLR_P3D_MLOD_NO_EOF_TAG, lod, -1, off, d->size - off,
			  "the tag list from 0x%llx reaches the end of the file without an "
			  "#EndOfFile# tag",
			  (unsigned long long)off);
	else
		wl_report(&d->findings, WLR_P3D_MLOD_NO_EOF_TAG, lod, -1, off, d->size - off,
			  "the tag list from 0x%llx reaches the end of the file without an "
			  "#EndOfFile# tag (the size of the tag at 0x%llx, %u, runs past it)",
			  (unsigned long long)off, (unsigned long long)pos, (unsigned)size);
	return 0;
}

/* At most this many misfit tag sizes are passed over in one LOD. */
#define TAG_MISFITS 8

/* Appends r to the vector t (n, cap); false when out of memory. */
static bool tag_push(wl_doc *d, tagrec **t, size_t *n, size_t *cap, tagrec r)
{
	if (!wl_grow((void **)t, cap, *n + 1, sizeof **t)) {
		d->oom = true;
		return false;
	}
	(*t)[(*n)++] = r;
	return true;
}

/* Keeps the n tags walked in l (arena) for the checks. */
static void tags_keep(wl_doc *d, p3d_lod *l, const tagrec *t, size_t n)
{
	p3d_mtag *k = n ? wl_arena_array(d->arena, n, sizeof *k) : NULL;
	if (n && !k) {
		d->oom = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (p3d_mtag){ (uint32_t)t[i].at, (uint32_t)t[i].size_at };
	l->tags = k;
	l->n_tags = (uint32_t)n;
}

/* The first e in [lo, hi) where #EndOfFile#'s data (declared to end at
 * end; fits: that is inside the file) can truly end: followed by the
 * 4-byte resolution and then a LOD that reads whole, or (when the declared
 * end leaves no room for the resolution, or runs past the file) by the end
 * of the file.  0 when none. */
static uint64_t eof_end_in(const wl_doc *d, uint64_t lo, uint64_t hi, bool fits, uint64_t end)
{
	for (uint64_t e = lo; e < hi && d->size - e >= 4; e++)
		if (d->size - e == 4 ? !fits || d->size - end < 4
				     : p3d_mlod_signature(d, e + 4) && p3d_mlod_strict_end(d, e + 4, NULL))
			return e;
	return 0;
}

/* Bytes from #EndOfFile#'s data start searched for its true end when its
 * declared size fits the file (the tag's data is empty in the files
 * written by the tools; a size grown by any amount lands here). */
#define EOF_SCAN ((uint64_t)64 * 1024)

/* Where #EndOfFile#'s data (from data, declared size bytes) truly ends
 * when its size disagrees with the LOD's end: the declared end is not
 * followed by the 4-byte resolution and then a LOD signature or the end of
 * the file, but another end is (eof_end_in).  A size that fits the file is
 * taken as too large (it swallows the first bytes of what follows): the
 * first such end from the data's start (within EOF_SCAN bytes of it, then
 * within TAG_SLACK bytes before the declared end) is taken; one that runs
 * past the file (a size 0 made smaller wraps around), up to TAG_SLACK
 * bytes after the data's start.  The end of the file is taken only when
 * the declared end leaves no room for the resolution: bytes after the last
 * LOD are not taken for tag data.
 * That end, or 0 when the declared one stands or none is found. */
static uint64_t eof_data_end(const wl_doc *d, uint64_t data, uint32_t size)
{
	bool fits = size <= d->size - data;
	uint64_t end = data + size;
	if (fits && d->size - end >= 4 && (d->size - end == 4 || p3d_mlod_signature(d, end + 4)))
		return 0;
	if (!fits)
		return eof_end_in(d, data, data + TAG_SLACK, fits, end);
	uint64_t e = eof_end_in(d, data, size > EOF_SCAN ? data + EOF_SCAN : end, fits, end);
	if (!e && size > EOF_SCAN)
		e = eof_end_in(d, end - TAG_SLACK, end, fits, end);
	return e;
}

/* p3d-mlod-tag-size at #EndOfFile#'s size field (size_at): its data
 * truly ends at e, where the LOD's resolution is. */
static void eof_misfit(wl_doc *d, wl_chunk *lod, uint64_t size_at, uint64_t e)
{
	wl_report(&d->findings, WLR_P3D_MLOD_TAG_SIZE, lod, -1, size_at, 4,
		  "the tag \"" P3D_MLOD_EOF_TAG "\" declares %u bytes of data, but %llu bytes after its data's "
		  "start (0x%llx) the lod's resolution is followed by %s",
		  (unsigned)wl_le32(d->bytes + size_at), (unsigned long long)(e - size_at - 4),
		  (unsigned long long)(size_at + 4), d->size - e == 4 ? "the end of the file" : "the next lod");
}

/* The TAGG list from off; the offset after #EndOfFile#, or 0.  The tags
 * walked go into l (tags_keep): where a misfit size was passed over, the
 * tags read through it are dropped and the misfit one kept. */
static uint64_t tags(wl_doc *d, wl_chunk *lod, p3d_lod *l, uint64_t off, bool sp3x)
{
	if (d->size - off < 4 || memcmp(d->bytes + off, "TAGG", 4) != 0) {
		wl_report(&d->findings, WLR_P3D_MLOD_NO_EOF_TAG, lod, -1, off, d->size - off < 4 ? d->size - off : 4,
			  "the lod's tag list at 0x%llx does not start with TAGG", (unsigned long long)off);
		return 0;
	}
	tagrec *t = NULL;
	size_t n = 0, cap = 0, base = 0;
	unsigned misfits = 0;
	uint64_t pos = off + 4;
	for (;;) {
		bool eof = false;
		uint64_t after = tag_size_at(d, pos, sp3x, &eof);
		uint32_t size = after ? wl_le32(d->bytes + after) : 0;
		uint64_t e = after && eof ? eof_data_end(d, after + 4, size) : 0;
		if (e) {
			eof_misfit(d, lod, after, e);
			if (!tag_push(d, &t, &n, &cap, (tagrec){ pos, after })) {
				free(t);
				return 0;
			}
			pos = e;
			break;
		}
		if (!after || size > d->size - after - 4) {
			tagrec r = { 0, 0 };
			pos = tags_failed(d, lod, off, pos, after ? size : 0, t ? t + base : NULL, n - base, sp3x,
					  misfits++ < TAG_MISFITS, &r);
			if (!pos) {
				free(t);
				return 0;
			}
			while (n > base && t[n - 1].at >= r.at)
				n--;
			if (!tag_push(d, &t, &n, &cap, r)) {
				free(t);
				return 0;
			}
			base = n;
			continue;
		}
		if (!tag_push(d, &t, &n, &cap, (tagrec){ pos, after })) {
			free(t);
			return 0;
		}
		pos = after + 4 + size;
		if (eof)
			break;
	}
	tags_keep(d, l, t, n);
	free(t);
	l->tagnode = p3d_node(d, lod, P3D_NODE_TAGS, off, pos - off);
	return pos;
}

/* n records of size bytes from pos as a node of type id under lod (*node;
 * NULL when n is 0): the offset after them, or 0 when cut. */
static uint64_t vectors(wl_doc *d, wl_chunk *lod, uint64_t pos, uint32_t id, uint32_t n,
			uint32_t size, const char *what, const wl_chunk **node)
{
	if ((d->size - pos) / size < n) {
		wl_report(&d->findings, WLR_P3D_TRUNCATED, lod, -1, pos, d->size - pos,
			  "the %ss array at 0x%llx (%u x %u bytes) runs past the end of the file "
			  "(0x%llx)",
			  what, (unsigned long long)pos, (unsigned)n, (unsigned)size,
			  (unsigned long long)d->size);
		return 0;
	}
	*node = p3d_node(d, lod, id, pos, (uint64_t)size * n);
	return pos + (uint64_t)size * n;
}

/* One P3DM or SP3X LOD at off into node (with counts[3] instead of its
 * header's when not NULL): its end, or 0 when it could not be walked. */
static uint64_t lod_walk(wl_doc *d, wl_chunk *node, p3d_lod *l, uint32_t index, uint64_t off,
			 const uint32_t *counts)
{
	if (d->size - off < P3DM_HEADER) {
		truncated(d, node, off, "a lod header");
		return 0;
	}
	const uint8_t *h = d->bytes + off;
	bool sp3x = memcmp(h, "SP3X", 4) == 0;
	if (!sp3x && memcmp(h, "P3DM", 4) != 0) {
		wl_report(&d->findings, WLR_P3D_MLOD_LOD_SIGNATURE, node, -1, off, 4,
			  "lod %u at 0x%llx starts with neither P3DM (Arma) nor SP3X (Operation "
			  "Flashpoint)",
			  (unsigned)index, (unsigned long long)off);
		return 0;
	}
	l->n_points = wl_le32(h + 12);
	l->n_normals = wl_le32(h + 16);
	l->n_faces = wl_le32(h + 20);
	if (counts)
		l->n_points = counts[0], l->n_normals = counts[1], l->n_faces = counts[2];
	p3d_node(d, node, P3D_NODE_LODHEADER, off, P3DM_HEADER);
	uint64_t pos = off + P3DM_HEADER;
	l->sp3x = sp3x;
	pos = vectors(d, node, pos, P3D_NODE_POINTS, l->n_points, POINT_SIZE, "point", &l->points);
	if (pos)
		pos = vectors(d, node, pos, P3D_NODE_NORMALS, l->n_normals, NORMAL_SIZE, "normal",
			      &l->normals);
	if (!pos)
		return 0;
	pos = faces(d, node, pos, l, sp3x);
	if (pos)
		pos = tags(d, node, l, pos, sp3x);
	if (!pos)
		return 0;
	if (d->size - pos < 4) {
		truncated(d, node, pos, "the lod resolution");
		return 0;
	}
	p3d_node(d, node, P3D_NODE_RESOLUTION, pos, 4);
	l->resolution = wl_lef32(d->bytes + pos);
	pos += 4;
	node->size = (uint32_t)(pos - off);
	node->declared_size = (uint32_t)node->size;
	l->end = (uint32_t)pos;
	l->walked = true;
	return pos;
}

/* One LOD node (*out) from off to its end (to the end of the file, its
 * unwalked rest a gap, when the walk stops).  A LOD that reads whole only
 * with one of its counts corrected (p3d_mlod_true_counts) is read so,
 * with p3d-mlod-count at that count (WL_REC_RESIZED). */
static uint64_t lod(wl_doc *d, p3d_lod *l, uint32_t index, uint64_t off, wl_chunk **out)
{
	static const char *const what[3] = { "point", "normal", "face" };
	uint32_t counts[3];
	int which = p3d_mlod_true_counts(d, off, counts);
	wl_chunk *node = *out = p3d_node(d, &d->root, P3D_NODE_LOD, off, d->size - off);
	if (!node)
		return 0;
	wl_chunk_set_label(d, node, wl_arena_printf(d->arena, "%u", (unsigned)index));
	l->node = node;
	l->start = (uint32_t)off;
	uint64_t end = lod_walk(d, node, l, index, off, which >= 0 ? counts : NULL);
	if (end && which >= 0) {
		uint64_t at = off + 12 + 4 * (uint64_t)which;
		node->recovery |= WL_REC_RESIZED;
		wl_report(&d->findings, WLR_P3D_MLOD_COUNT, node, -1, at, 4,
			  "lod %u's %s count is %u, but its arrays hold %u: with %u the faces, the tag list to "
			  "#EndOfFile# and the resolution read whole up to %s at 0x%llx",
			  (unsigned)index, what[which], (unsigned)wl_le32(d->bytes + at), (unsigned)counts[which],
			  (unsigned)counts[which], end == d->size ? "the end of the file" : "the next lod",
			  (unsigned long long)end);
	}
	if (!end) {
		const wl_chunk *last = wl_chunk_last_child(node);
		p3d_gap(d, node, last ? wl_chunk_end(last) : off, d->size);
		node->recovery |= WL_REC_TRUNCATED;
	}
	return end;
}

/* l's node (a LOD that could not be walked, running to the end of the
 * file) made to end at next, where the next LOD was found: its children
 * that reach past next are dropped (and l's pointers to them cleared), its
 * unread bytes up to next a gap of bytes skipped by the resync. */
static void clamp(wl_doc *d, p3d_lod *l, wl_chunk *node, uint64_t next)
{
	wl_chunk **link = &node->first_child;
	while (*link && (*link)->kind == WL_NODE_CHUNK && wl_chunk_end(*link) <= next)
		link = &(*link)->next;
	for (wl_chunk *k = *link; k; k = k->next) {
		if (k == l->points)
			l->points = NULL;
		if (k == l->normals)
			l->normals = NULL;
		if (k == l->faces)
			l->faces = NULL, l->face_off = NULL;
		if (k == l->tagnode)
			l->tagnode = NULL, l->tags = NULL, l->n_tags = 0;
	}
	*link = NULL;
	d->last_added = NULL; /* nodes were unlinked (chunk.h) */
	const wl_chunk *last = wl_chunk_last_child(node);
	uint64_t from = last ? wl_chunk_end(last) : node->offset;
	node->size = node->declared_size = (uint32_t)(next - node->offset);
	node->recovery &= (unsigned)WL_REC_TRUNCATED ^ 0xFFFu; /* 12 bits */
	node->recovery |= WL_REC_CLAMPED;
	wl_chunk *gap = from < next ? wl_doc_add_node(d, node, WL_NODE_GAP, from, next - from) : NULL;
	if (gap)
		gap->recovery |= WL_REC_SKIPPED;
}

/* Room for LOD i in m->lods (*cap entries, arena; doubled when full,
 * zeroed): false when out of memory. */
static bool room(wl_doc *d, p3d_model *m, uint32_t i, uint32_t *cap)
{
	if (i < *cap)
		return true;
	uint32_t n = *cap ? *cap * 2 : 4;
	p3d_lod *grown = wl_arena_array(d->arena, n, sizeof *grown);
	if (!grown) {
		d->oom = true;
		return false;
	}
	if (m->lods)
		memcpy(grown, m->lods, (size_t)*cap * sizeof *grown);
	memset(grown + *cap, 0, (size_t)(n - *cap) * sizeof *grown);
	m->lods = grown;
	*cap = n;
	return true;
}

void p3d_read_mlod(wl_doc *d, p3d_model *m)
{
	if (d->size < MLOD_HEADER) {
		p3d_node(d, &d->root, P3D_NODE_HEADER, 0, d->size);
		truncated(d, NULL, 0, "the MLOD header (magic, version, lod count)");
		return;
	}
	m->version = m->header_version = wl_le32(d->bytes + 4);
	m->nlods_off = 8;
	m->n_lods = wl_le32(d->bytes + 8);
	m->header_complete = true;
	m->header = p3d_node(d, &d->root, P3D_NODE_HEADER, 0, MLOD_HEADER);
	/* m->lods grows with the LODs found (each takes at least 36 bytes),
	 * never with the header's count. */
	uint32_t cap = 0;
	if (!room(d, m, 0, &cap))
		return;
	uint64_t pos = MLOD_HEADER;
	uint32_t i = 0;
	for (;;) {
		if (i >= m->n_lods) {
			/* past the header's count: only LODs that walk whole */
			if (i == UINT32_MAX || !p3d_mlod_strict_end(d, pos, NULL))
				break;
		} else if (pos >= d->size) {
			truncated(d, NULL, pos, "a lod of the header's count");
			break;
		}
		if (!room(d, m, i, &cap))
			return;
		wl_chunk *node = NULL;
		uint64_t end = lod(d, &m->lods[i], i, pos, &node);
		i++;
		if (!end) {
			uint64_t next = node ? p3d_mlod_resync(d, pos + 4) : 0;
			if (!next)
				break;
			clamp(d, &m->lods[i - 1], node, next);
			end = next;
		}
		pos = end;
	}
	m->n_res = i;
	if (i > m->n_lods)
		wl_report(&d->findings, WLR_P3D_MLOD_LOD_COUNT, m->header, -1, m->nlods_off, 4,
			  "the header counts %u lods, but the file holds %u: lods %u to %u follow the "
			  "counted ones (from 0x%llx), each starting with its signature and read whole",
			  (unsigned)m->n_lods, (unsigned)i, (unsigned)m->n_lods, (unsigned)i - 1,
			  (unsigned long long)m->lods[m->n_lods].start);
	const wl_chunk *last = wl_chunk_last_child(&d->root);
	uint64_t end = last ? wl_chunk_end(last) : MLOD_HEADER;
	if (end < d->size)
		p3d_node(d, &d->root, P3D_NODE_TAIL, end, d->size - end);
}
