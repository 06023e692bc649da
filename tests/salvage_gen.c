/*
 * salvage_gen.c - writes the damaged variants of tests/salvage.sh (issue 11,
 * "salvage of damaged files"): for every W3D file named on standard input
 * (one path a line), into folder OUT,
 *
 *   NAME.tKK.w3d   the file cut at K * size / 21 bytes, K = 1 .. 20 (20
 *                  evenly spaced offsets, never 0 nor the whole file);
 *   NAME.gN.w3d    one data chunk grown by N = 4, 12 and 1000 bytes: its
 *                  size field is increased by N, so that it runs past the
 *                  end of its parent.  The chunk is the middle one (in file
 *                  order) of the data chunks that end where their parent
 *                  container ends; a file with none gets no gN variant.
 *
 * NAME is the input path with '/' replaced by '~' (unique within OUT).
 * The chunk tree is read with the project's reader (wl_doc_read), nothing
 * else of the library is used.  Prints one line per variant written:
 * its file name, a tab, "first" (a cut inside the first top-level
 * chunk: nothing whole comes before it), "later" (a cut after it) or
 * "grown", a tab, and the chunks the cut goes through, outermost first
 * ("MESH/VERTEX_NORMALS"; "-" for a grown chunk).
 *
 * Usage: salvage_gen OUT < LIST
 * Exit status: 0, or 2 on a usage or I/O error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/chunk.h"
#include "../core/file_io.h"
#include "../core/w3d/w3d_format.h"

#define CUTS 20

static const unsigned grow_by[] = { 4, 12, 1000 };

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
	wl_doc *d = wl_doc_read(&w3d_format, path, b, n);
	const wl_chunk *first = d ? d->root.first_child : NULL;
	uint64_t first_end = first ? (first->kind == WL_NODE_CHUNK ? first->offset + 8 + first->declared_size
								  : wl_chunk_end(first)) : 0;
	for (unsigned k = 1; k <= CUTS && rc == 0 && n > CUTS; k++) {
		snprintf(dst, sizeof dst, "%s/%s.t%02u.w3d", out, name, k);
		size_t cut = n * k / (CUTS + 1);
		rc = write_bytes(dst, b, cut);
		char where[256];
		cut_path(d, cut, where, sizeof where);
		if (rc == 0)
			printf("%s.t%02u.w3d\t%s\t%s\n", name, k, cut < first_end ? "first" : "later", where);
	}
	const wl_chunk *c = rc == 0 && d && !d->oom ? pick_grown(d) : NULL;
	for (size_t i = 0; c && rc == 0 && i < sizeof grow_by / sizeof grow_by[0]; i++) {
		uint8_t *p = b + c->offset + 4;
		uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		uint32_t g = v + grow_by[i];
		uint8_t keep[4];
		memcpy(keep, p, 4);
		for (int j = 0; j < 4; j++)
			p[j] = (uint8_t)(g >> (8 * j));
		snprintf(dst, sizeof dst, "%s/%s.g%u.w3d", out, name, grow_by[i]);
		rc = write_bytes(dst, b, n);
		if (rc == 0)
			printf("%s.g%u.w3d\tgrown\t-\n", name, grow_by[i]);
		memcpy(p, keep, 4);
	}
	wl_doc_free(d);
	free(b);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: salvage_gen OUT < LIST\n");
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
