/*
 * salvage_gen.c - writes the damaged variants of tests/salvage.sh (issue 11,
 * "salvage of damaged files"; issue 17, "salvage keeps every intact
 * element"): for every file of FORMAT (w3d, b3d, p3d) named on standard
 * input (one path a line), into folder OUT,
 *
 *   NAME.tKK.EXT   the file cut at K * size / 21 bytes, K = 1 .. 20 (20
 *                  evenly spaced offsets, never 0 nor the whole file);
 *   NAME.sD.EXT    one size field changed by D = +1, -1, +8, -4 ("p1",
 *                  "m1", "p8", "m4" in the name): the size of the chunk at
 *                  (i + 1) / 5 of the chunks read whole, in file order,
 *                  for the i-th change, so that top-level objects and
 *                  nested chunks both get one; a P3D file (no chunk
 *                  headers) gets a count or size field changed instead:
 *                  MLOD the i-th change the field at i / 4 of its count
 *                  and size fields in file order (the header's LOD count,
 *                  each LOD's point, normal and face counts, each tag's
 *                  size: so the LOD count gets +1), ODOL the 32-bit word
 *                  at (i + 1) / 5 of the file;
 *   NAME.gN.EXT    (W3D) one data chunk grown by N = 4, 12 and 1000 bytes: its
 *                  size field is increased by N, so that it runs past the
 *                  end of its parent.  The chunk is the middle one (in file
 *                  order) of the data chunks that end where their parent
 *                  container ends; a file with none gets no gN variant.
 *
 *   NAME.dN.EXT    (issue 29) N = 4 and 20 bytes deleted from the middle of
 *                  one object's payload, no size field changed: its
 *                  declared end then overlaps what follows it;
 *   NAME.iN.EXT    N = 4 and 20 bytes (0xCD) inserted there;
 *   NAME.x8.EXT    8 bytes from the middle of one object swapped with 8
 *                  from the middle of another;
 *   NAME.z32.EXT   32 zero bytes written over one object from a third of
 *                  its payload on.
 *                  The objects are those w3dfix's verification guards
 *                  (the top-level chunks, or the children of a single
 *                  top-level container such as B3D's BB3D; the P3D
 *                  LODs) read whole by the project's reader; "one
 *                  object" is the middle one of those that have another
 *                  after them (the only one when there is one), the
 *                  swap's two are at a third and two thirds of them.  A
 *                  file whose objects are too small for the damage gets
 *                  no such variant.
 *
 * NAME is the input path with '/' replaced by '~' (unique within OUT).
 * The chunk tree is read with the project's reader (wl_format_read), only
 * to choose where to cut and which size to change; the test checks the
 * results against its own walk (tests/chunkwalk.py).  Prints one line per
 * variant written: its file name, a tab, "first" (a cut inside the first
 * top-level chunk: nothing whole comes before it), "later" (a cut after
 * it), "grown", "sized", "deleted", "inserted", "swapped" or "zeroed", a tab, the chunks the cut goes through,
 * outermost first ("MESH/VERTEX_NORMALS"; "-" for a changed size), a tab,
 * the input path, a tab, and the damage: "cut OFFSET", or "size OFFSET
 * DELTA" (the chunk whose header is at OFFSET; for P3D the word at OFFSET),
 * "del OFFSET N", "ins OFFSET N", "swap OFFSET OFFSET2 N" or "zero OFFSET N"
 * (offsets in the undamaged file).
 *
 * Usage: salvage_gen OUT [FORMAT] < LIST   (FORMAT: w3d when not given)
 * Exit status: 0, or 2 on a usage or I/O error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/chunk.h"
#include "core/file_io.h"
#include "core/format.h"
#include "core/p3d/p3d.h"

#define CUTS 20

static const unsigned grow_by[] = { 4, 12, 1000 };
static const int size_by[] = { 1, -1, 8, -4 };
static const char *const size_tag[] = { "p1", "m1", "p8", "m4" };

static const wl_format *fmt;

static int write_bytes(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
		fprintf(stderr, "salvage_gen: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Next node after c in pre-order under the root (NULL at the end). */
static const wl_chunk *walk_next(const wl_chunk *c)
{
	if (c->first_child)
		return c->first_child;
	for (; c && c->kind != WL_NODE_ROOT; c = c->parent)
		if (c->next)
			return c->next;
	return NULL;
}

/* A data chunk read whole whose end is its container parent's end. */
static bool growable(const wl_chunk *c)
{
	const wl_chunk *p = c->parent;
	return c->kind == WL_NODE_CHUNK && !c->container && c->size == c->declared_size &&
	       c->recovery == 0 && p && p->kind == WL_NODE_CHUNK && p->recovery == 0 &&
	       wl_chunk_end(c) == wl_chunk_end(p) && c->declared_size < 0x7FFFFFFFu - 1000;
}

static const wl_chunk *pick_grown(const wl_doc *d)
{
	size_t n = 0, k = 0;
	for (const wl_chunk *c = d->root.first_child; c; c = walk_next(c))
		n += growable(c);
	for (const wl_chunk *c = d->root.first_child; c; c = walk_next(c))
		if (growable(c) && k++ == n / 2)
			return c;
	return NULL;
}

/* A chunk read whole (its size as declared, no recovery). */
static bool whole(const wl_chunk *c)
{
	return c->kind == WL_NODE_CHUNK && c->recovery == 0 && c->size == c->declared_size;
}

/* The k-th of every n (k < n) chunks read whole, in file order. */
static const wl_chunk *pick_sized(const wl_doc *d, size_t k, size_t n)
{
	size_t total = 0, i = 0;
	for (const wl_chunk *c = d->root.first_child; c; c = walk_next(c))
		total += whole(c);
	for (const wl_chunk *c = d->root.first_child; c; c = walk_next(c))
		if (whole(c) && i++ == total * k / n)
			return c;
	return NULL;
}

/* MLOD (P3D part): the offset of the k-th of d's count and size fields
 * in file order (the header's LOD count, each LOD's point, normal and face
 * counts, then its tags' size fields), k = i * total / 4; 0 when the file
 * is no MLOD read by the project's reader. */
static uint64_t mlod_field(const wl_doc *d, size_t i)
{
	const p3d_model *m = d && strcmp(d->format->name, "p3d") == 0 ? d->model : NULL;
	if (!m || !m->mlod || !m->header_complete || !m->lods)
		return 0;
	size_t total = 1;
	for (uint32_t l = 0; l < m->n_res; l++)
		total += 3 + m->lods[l].n_tags;
	size_t k = i * total / 4;
	if (k == 0)
		return m->nlods_off;
	k--;
	for (uint32_t l = 0; l < m->n_res; l++) {
		const p3d_lod *lod = &m->lods[l];
		if (k < 3)
			return lod->start + 12 + 4 * k;
		k -= 3;
		if (k < lod->n_tags)
			return lod->tags[k].size_at;
		k -= lod->n_tags;
	}
	return 0;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int j = 0; j < 4; j++)
		p[j] = (uint8_t)(v >> (8 * j));
}

/* The names of the chunks the cut at offset `at` goes through, outermost
 * first ("MESH/VERTEX_NORMALS"), into buf; "-" when none. */
static void cut_path(const wl_doc *d, uint64_t at, char *buf, size_t cap)
{
	snprintf(buf, cap, "-");
	size_t len = 0;
	for (const wl_chunk *c = d ? d->root.first_child : NULL; c;) {
		if (c->kind == WL_NODE_CHUNK && c->offset < at && at < wl_chunk_end(c)) {
			int w = snprintf(buf + len, cap - len, "%s%s", len ? "/" : "", wl_chunk_name(d, c));
			if (w < 0 || (size_t)w >= cap - len)
				return;
			len += (size_t)w;
			c = c->first_child;
		} else {
			c = c->next;
		}
	}
}

/* Up to cap objects read whole (chunks at the object level with no
 * recovery mark, their size as declared (P3D's nodes declare none), and a
 * payload of at least 64 bytes) into objs; their number. */
static size_t objects_of(const wl_doc *d, const wl_chunk **objs, size_t cap)
{
	size_t n = 0;
	const wl_chunk *lv = wl_doc_object_level(d);
	for (const wl_chunk *k = lv->first_child; k && n < cap; k = k->next)
		if (k->kind == WL_NODE_CHUNK && k->recovery == 0 && k->size >= 64 &&
		    (k->header_size == 0 || k->size == k->declared_size))
			objs[n++] = k;
	return n;
}

/* Writes the damaged copy b[0..n) with `len` bytes at `at` deleted
 * (ins == NULL) or `len` bytes of ins inserted there. */
static int write_spliced(const char *dst, const uint8_t *b, size_t n, size_t at, size_t len,
			 const uint8_t *ins)
{
	size_t m = ins ? n + len : n - len;
	uint8_t *o = malloc(m ? m : 1);
	if (!o)
		return -1;
	memcpy(o, b, at);
	if (ins) {
		memcpy(o + at, ins, len);
		memcpy(o + at + len, b + at, n - at);
	} else {
		memcpy(o + at, b + at + len, n - at - len);
	}
	int rc = write_bytes(dst, o, m);
	free(o);
	return rc;
}

/* The damage inside objects (issue 29): deleted, inserted, swapped and
 * zeroed bytes (see the top of the file). */
static int inner_damage(const char *out, const char *name, const char *ext, const char *path,
			const wl_doc *d, uint8_t *b, size_t n)
{
	const wl_chunk *objs[4096];
	size_t k = objects_of(d, objs, sizeof objs / sizeof objs[0]);
	if (k == 0)
		return 0;
	const wl_chunk *o = objs[k > 1 ? (k - 2) / 2 : 0];
	const size_t mid = (size_t)wl_chunk_payload_offset(o) + o->size / 2;
	static const unsigned by[] = { 4, 20 };
	uint8_t fill[20];
	memset(fill, 0xCD, sizeof fill);
	char dst[2048];
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < 2; i++) {
		snprintf(dst, sizeof dst, "%s/%s.d%u.%s", out, name, by[i], ext);
		if ((rc = write_spliced(dst, b, n, mid, by[i], NULL)) == 0)
			printf("%s.d%u.%s\tdeleted\t-\t%s\tdel %zu %u\n", name, by[i], ext, path, mid, by[i]);
		snprintf(dst, sizeof dst, "%s/%s.i%u.%s", out, name, by[i], ext);
		if (rc == 0 && (rc = write_spliced(dst, b, n, mid, by[i], fill)) == 0)
			printf("%s.i%u.%s\tinserted\t-\t%s\tins %zu %u\n", name, by[i], ext, path, mid, by[i]);
	}
	const size_t zat = (size_t)wl_chunk_payload_offset(o) + o->size / 3;
	if (rc == 0 && zat + 32 <= wl_chunk_end(o)) {
		uint8_t keep[32];
		memcpy(keep, b + zat, 32);
		memset(b + zat, 0, 32);
		snprintf(dst, sizeof dst, "%s/%s.z32.%s", out, name, ext);
		if ((rc = write_bytes(dst, b, n)) == 0)
			printf("%s.z32.%s\tzeroed\t-\t%s\tzero %zu 32\n", name, ext, path, zat);
		memcpy(b + zat, keep, 32);
	}
	if (rc == 0 && k > 1) {
		const wl_chunk *p = objs[k / 3], *q = objs[2 * k / 3 > k / 3 ? 2 * k / 3 : k / 3 + 1];
		size_t pa = (size_t)wl_chunk_payload_offset(p) + p->size / 2;
		size_t qa = (size_t)wl_chunk_payload_offset(q) + q->size / 2;
		uint8_t keep[8];
		memcpy(keep, b + pa, 8);
		memcpy(b + pa, b + qa, 8);
		memcpy(b + qa, keep, 8);
		snprintf(dst, sizeof dst, "%s/%s.x8.%s", out, name, ext);
		if ((rc = write_bytes(dst, b, n)) == 0)
			printf("%s.x8.%s\tswapped\t-\t%s\tswap %zu %zu 8\n", name, ext, path, pa, qa);
		memcpy(b + qa, b + pa, 8);
		memcpy(b + pa, keep, 8);
	}
	return rc;
}

static int variants(const char *out, const char *path)
{
	uint8_t *b;
	size_t n;
	if (wl_read_file(path, SIZE_MAX, &b, &n) != WL_READ_OK) {
		fprintf(stderr, "salvage_gen: %s: %s\n", path, strerror(errno));
		return -1;
	}
	char name[1024], dst[2048];
	snprintf(name, sizeof name, "%s", path);
	for (char *s = name; *s; s++)
		if (*s == '/')
			*s = '~';
	int rc = 0;
	const char *ext = fmt->extensions[0];
	wl_doc *d = wl_format_read(fmt, path, b, n);
	const wl_chunk *first = d ? d->root.first_child : NULL;
	uint64_t first_end = first ? (first->kind == WL_NODE_CHUNK ? first->offset + 8 + first->declared_size
								  : wl_chunk_end(first)) : 0;
	for (unsigned k = 1; k <= CUTS && rc == 0 && n > CUTS; k++) {
		snprintf(dst, sizeof dst, "%s/%s.t%02u.%s", out, name, k, ext);
		size_t cut = n * k / (CUTS + 1);
		rc = write_bytes(dst, b, cut);
		char where[256];
		cut_path(d, cut, where, sizeof where);
		if (rc == 0)
			printf("%s.t%02u.%s\t%s\t%s\t%s\tcut %zu\n", name, k, ext,
			       cut < first_end ? "first" : "later", where, path, cut);
	}
	for (size_t i = 0; rc == 0 && d && !d->oom && i < sizeof size_by / sizeof size_by[0]; i++) {
		const wl_chunk *c = fmt->read_header ? pick_sized(d, i + 1, 5) : NULL;
		uint64_t field = fmt->read_header ? 0 : mlod_field(d, i);
		uint64_t at = c ? c->offset + 4 : field ? field : (n * (i + 1) / 5) & ~(size_t)3;
		if (!fmt->read_header && at + 4 > n)
			continue;
		if (fmt->read_header && !c)
			continue;
		uint8_t keep[4];
		memcpy(keep, b + at, 4);
		put32(b + at, get32(b + at) + (uint32_t)size_by[i]);
		snprintf(dst, sizeof dst, "%s/%s.s%s.%s", out, name, size_tag[i], ext);
		rc = write_bytes(dst, b, n);
		if (rc == 0)
			printf("%s.s%s.%s\tsized\t-\t%s\tsize %llu %d\n", name, size_tag[i], ext, path,
			       (unsigned long long)(at - 4), size_by[i]);
		memcpy(b + at, keep, 4);
	}
	const wl_chunk *c = rc == 0 && d && !d->oom && strcmp(ext, "w3d") == 0 ? pick_grown(d) : NULL;
	for (size_t i = 0; c && rc == 0 && i < sizeof grow_by / sizeof grow_by[0]; i++) {
		uint8_t *p = b + c->offset + 4;
		uint8_t keep[4];
		memcpy(keep, p, 4);
		put32(p, get32(p) + grow_by[i]);
		snprintf(dst, sizeof dst, "%s/%s.g%u.w3d", out, name, grow_by[i]);
		rc = write_bytes(dst, b, n);
		if (rc == 0)
			printf("%s.g%u.w3d\tgrown\t-\t%s\tsize %llu %u\n", name, grow_by[i], path,
			       (unsigned long long)c->offset, grow_by[i]);
		memcpy(p, keep, 4);
	}
	if (rc == 0 && d && !d->oom)
		rc = inner_damage(out, name, ext, path, d, b, n);
	wl_doc_free(d);
	free(b);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: salvage_gen OUT [FORMAT] < LIST\n");
		return 2;
	}
	fmt = wl_format_find(argc == 3 ? argv[2] : "w3d");
	if (!fmt) {
		fprintf(stderr, "salvage_gen: unknown format %s\n", argv[2]);
		return 2;
	}
	char line[1024];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] && variants(argv[1], line) != 0)
			return 2;
	}
	return 0;
}
