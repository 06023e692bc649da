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
 * NAME is the input path with '/' replaced by '~' (unique within OUT).
 * The chunk tree is read with the project's reader (wl_format_read), only
 * to choose where to cut and which size to change; the test checks the
 * results against its own walk (tests/chunkwalk.py).  Prints one line per
 * variant written: its file name, a tab, "first" (a cut inside the first
 * top-level chunk: nothing whole comes before it), "later" (a cut after
 * it), "grown" or "sized", a tab, the chunks the cut goes through,
 * outermost first ("MESH/VERTEX_NORMALS"; "-" for a changed size), a tab,
 * the input path, a tab, and the damage: "cut OFFSET", or "size OFFSET
 * DELTA" (the chunk whose header is at OFFSET; for P3D the word at OFFSET).
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
