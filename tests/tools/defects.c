/*
 * defects.c - the defect generator (corpus/README.md, "Defect variants").
 *
 * For each valid file given (a W3D file, or a folder searched for *.w3d),
 * injects one defect of each class below at a place it finds in the chunk
 * tree (wl_doc_read), lints the damaged bytes (wl_lint_bytes) and asserts a
 * finding of the expected rule at the injected place.  Where a fixer of the
 * registry (fix/registry.c) repairs that rule, runs wl_fix_run (unsafe fixes
 * on) and asserts that the output verified and that the repaired file has
 * no more findings of the rule than the original had.
 *
 *   class          injection                                  expected finding
 *   wrong-count    first whole MESH_HEADER3 whose VERTICES     mesh-vertex-count-mismatch
 *                  holds NumVertices: NumVertices + 1          at the VERTICES chunk header
 *   bad-parent     pivot 1 of the first whole PIVOTS (>= 2     pivot-parent-out-of-range
 *                  pivots): ParentIdx = pivot count + 5        at that pivot + 16 (ParentIdx)
 *   scaled-quat    first pivot with a unit rotation: the      quaternion-not-normalized
 *                  quaternion times 2                          at that pivot + 44 (Rotation)
 *   index-range    triangle 0 of the first mesh with           triangle-index-out-of-range
 *                  VERTICES: Vindex[0] = vertex count + 7      at triangle 0 + 0 (Vindex[0])
 *   truncation     the file is cut in the middle of the        chunk-truncated at that
 *                  payload of its last (deepest last) chunk    chunk's header
 *   container-bit  bit 31 set on the first whole data chunk    container-bit-on-leaf at
 *                                                              its size field (offset + 4)
 *   size-off-by-k  the last child of the first top-level       chunk-overruns-parent at
 *                  container that has a next sibling, when     that child
 *                  it is data: size + 4 (it then runs 4 bytes
 *                  into the header of the container's sibling)
 *   garbage        3 bytes 0xEE inserted at the end of the     stray-bytes at the first
 *                  first top-level container (size + 3)        inserted byte
 *   nan            vertex 0 X of the first whole VERTICES      float-not-finite at that
 *                  = NaN (0x7FC00000)                          vertex
 *
 * Truncation is fixable only when a whole top-level chunk remains: the
 * drop-unreadable fixer never empties a file (fix/fix_structure.c).
 *
 * A class that finds no place in a file (no mesh, no pivots ...) is "n/a"
 * for it; a place whose expected finding the original file already has is
 * skipped the same way.  Prints a table class -> files, injected, detected,
 * fixable, repaired and exits 1 on any miss (every injected defect must be
 * detected; every fixable one repaired), 2 on a usage or I/O error.
 *
 * -k NAME:CLASS marks a known miss of the library (a bug reported, not yet
 * fixed): a miss of CLASS in a file whose base name is NAME is printed as
 * KNOWN and does not fail the run; when it no longer misses, the run says
 * so (remove the -k).
 *
 * Usage: defects [-v] [-k NAME:CLASS]... FILE|DIR...
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/w3d/w3d_format.h"
#include "fix/driver.h"
#include "lint/catalog.h"
#include "lint/lint.h"

enum { C_COUNT, C_PARENT, C_QUAT, C_INDEX, C_TRUNC, C_BIT, C_SIZE, C_GARBAGE, C_NAN, C_N };
static const char *const class_name[C_N] = { "wrong-count", "bad-parent", "scaled-quat", "index-range", "truncation",
					     "container-bit", "size-off-by-k", "garbage", "nan" };

typedef struct inj {
	const char *rules[3];  /* accepted rule ids (NULL-terminated) */
	uint64_t lo, hi;       /* accepted finding offsets [lo, hi] */
	bool no_fix;           /* the fixers leave this case alone by design */
	uint8_t *bytes;        /* the damaged file (malloc) */
	size_t len;
} inj;

typedef struct tally {
	unsigned files, injected, detected, fixable, repaired;
} tally;

static const wl_catalog *cat;
static tally tal[C_N];
static bool verbose;
static unsigned misses, known_misses;
static const char *known[16];
static size_t known_count;

static bool is_known(const char *path, int cls)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t bl = strlen(base);
	for (size_t i = 0; i < known_count; i++) {
		const char *colon = strrchr(known[i], ':');
		if (colon && (size_t)(colon - known[i]) == bl && strncmp(known[i], base, bl) == 0 &&
		    strcmp(colon + 1, class_name[cls]) == 0)
			return true;
	}
	return false;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static float getf(const uint8_t *p)
{
	uint32_t u = le32(p);
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static void putf(uint8_t *p, float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	put32(p, u);
}

/* Read whole, with no recovery mark: a place the injection can trust. */
static bool whole(const wl_chunk *c)
{
	return c && c->kind == WL_NODE_CHUNK && c->size == c->declared_size && c->recovery == 0;
}

/* Next chunk after c in pre-order under the root (NULL at the end). */
static const wl_chunk *walk_next(const wl_chunk *c)
{
	if (c->first_child)
		return c->first_child;
	while (c) {
		if (c->next)
			return c->next;
		c = c->parent;
		if (c && c->kind == WL_NODE_ROOT)
			return NULL;
	}
	return NULL;
}

static const wl_chunk *first_of(const wl_doc *d, uint32_t id, uint32_t parent_id)
{
	for (const wl_chunk *c = d->root.first_child; c; c = walk_next(c))
		if (c->kind == WL_NODE_CHUNK && c->id == id && c->type && whole(c) && c->parent &&
		    c->parent->kind == WL_NODE_CHUNK && c->parent->id == parent_id)
			return c;
	return NULL;
}

static uint8_t *dup_bytes(const uint8_t *in, size_t n, size_t extra)
{
	uint8_t *b = malloc(n + extra + 1);
	if (!b) {
		fprintf(stderr, "defects: out of memory\n");
		exit(2);
	}
	memcpy(b, in, n);
	return b;
}

static void set_one(inj *o, const char *rule, uint64_t at)
{
	o->rules[0] = rule;
	o->rules[1] = NULL;
	o->lo = o->hi = at;
}

/* ---- the injections: each returns false when the file has no place ---- */

static bool inj_count(const wl_doc *d, inj *o)
{
	for (const wl_chunk *h = d->root.first_child; h; h = walk_next(h)) {
		if (h->id != W3D_CHUNK_MESH_HEADER3 || !whole(h) || h->size < 116 || !h->parent ||
		    h->parent->id != W3D_CHUNK_MESH)
			continue;
		const wl_chunk *v = wl_chunk_find(h->parent, W3D_CHUNK_VERTICES);
		uint32_t nv = le32(wl_chunk_payload(d, h) + 44);
		if (!whole(v) || v->size % 12 || v->size / 12 != nv || nv >= 65535)
			continue;
		o->bytes = dup_bytes(d->bytes, d->size, 0);
		o->len = d->size;
		put32(o->bytes + wl_chunk_payload_offset(h) + 44, nv + 1);
		set_one(o, "mesh-vertex-count-mismatch", v->offset);
		return true;
	}
	return false;
}

static const wl_chunk *pivots(const wl_doc *d, size_t min)
{
	const wl_chunk *p = first_of(d, W3D_CHUNK_PIVOTS, W3D_CHUNK_HIERARCHY);
	return p && p->size % 60 == 0 && p->size / 60 >= min ? p : NULL;
}

static bool inj_parent(const wl_doc *d, inj *o)
{
	const wl_chunk *p = pivots(d, 2);
	if (!p)
		return false;
	uint64_t at = wl_chunk_payload_offset(p) + 60 + 16;
	o->bytes = dup_bytes(d->bytes, d->size, 0);
	o->len = d->size;
	put32(o->bytes + at, (uint32_t)(p->size / 60) + 5);
	set_one(o, "pivot-parent-out-of-range", at);
	return true;
}

static bool inj_quat(const wl_doc *d, inj *o)
{
	const wl_chunk *p = pivots(d, 1);
	if (!p)
		return false;
	for (uint64_t i = 0; i < p->size / 60; i++) {
		uint64_t at = wl_chunk_payload_offset(p) + 60 * i + 44;
		double len2 = 0;
		for (int k = 0; k < 4; k++) {
			double q = getf(d->bytes + at + 4 * k);
			len2 += q * q;
		}
		if (!isfinite(len2) || fabs(len2 - 1.0) > 1e-4)
			continue;
		o->bytes = dup_bytes(d->bytes, d->size, 0);
		o->len = d->size;
		for (int k = 0; k < 4; k++)
			putf(o->bytes + at + 4 * k, 2.0f * getf(d->bytes + at + 4 * k));
		set_one(o, "quaternion-not-normalized", at - 44);
		o->hi = at + 16; /* the pivot's record up to the end of Rotation */
		return true;
	}
	return false;
}

static bool inj_index(const wl_doc *d, inj *o)
{
	for (const wl_chunk *t = d->root.first_child; t; t = walk_next(t)) {
		if (t->id != W3D_CHUNK_TRIANGLES || !whole(t) || t->size < 32 || !t->parent ||
		    t->parent->id != W3D_CHUNK_MESH)
			continue;
		const wl_chunk *v = wl_chunk_find(t->parent, W3D_CHUNK_VERTICES);
		if (!whole(v) || v->size % 12)
			continue;
		uint64_t at = wl_chunk_payload_offset(t);
		o->bytes = dup_bytes(d->bytes, d->size, 0);
		o->len = d->size;
		put32(o->bytes + at, (uint32_t)(v->size / 12) + 7);
		set_one(o, "triangle-index-out-of-range", at);
		return true;
	}
	return false;
}

static bool inj_trunc(const wl_doc *d, inj *o)
{
	const wl_chunk *c = wl_chunk_last_child(&d->root);
	if (!c || !whole(c))
		return false;
	while (c->container && wl_chunk_last_child(c))
		c = wl_chunk_last_child(c);
	if (!whole(c) || c->container || c->size < 2 || wl_chunk_end(c) != d->size)
		return false;
	o->len = (size_t)(wl_chunk_payload_offset(c) + c->size / 2);
	o->bytes = dup_bytes(d->bytes, o->len, 0);
	set_one(o, "chunk-truncated", c->offset);
	o->no_fix = d->root.first_child == wl_chunk_last_child(&d->root);
	return true;
}

static bool inj_bit(const wl_doc *d, inj *o)
{
	for (const wl_chunk *c = d->root.first_child; c; c = walk_next(c)) {
		if (!whole(c) || !c->type || c->type->child_ctx || c->flag_bit)
			continue;
		o->bytes = dup_bytes(d->bytes, d->size, 0);
		o->len = d->size;
		o->bytes[c->offset + 7] |= 0x80;
		set_one(o, "container-bit-on-leaf", c->offset + 4);
		return true;
	}
	return false;
}

static bool inj_size(const wl_doc *d, inj *o)
{
	for (const wl_chunk *c = d->root.first_child; c; c = c->next) {
		const wl_chunk *k = wl_chunk_last_child(c);
		if (!whole(c) || !c->container || !whole(k) || k->container || !whole(c->next) ||
		    wl_chunk_end(k) != wl_chunk_end(c))
			continue;
		o->bytes = dup_bytes(d->bytes, d->size, 0);
		o->len = d->size;
		put32(o->bytes + k->offset + 4, le32(d->bytes + k->offset + 4) + 4);
		set_one(o, "chunk-overruns-parent", k->offset);
		o->hi = wl_chunk_end(k) - 1;
		return true;
	}
	return false;
}

static bool inj_garbage(const wl_doc *d, inj *o)
{
	for (const wl_chunk *c = d->root.first_child; c; c = c->next) {
		if (!whole(c) || !c->container || !c->first_child)
			continue;
		uint64_t end = wl_chunk_end(c);
		o->len = d->size + 3;
		o->bytes = dup_bytes(d->bytes, end, 3 + d->size - end);
		memset(o->bytes + end, 0xEE, 3);
		memcpy(o->bytes + end + 3, d->bytes + end, d->size - end);
		put32(o->bytes + c->offset + 4, le32(d->bytes + c->offset + 4) + 3);
		set_one(o, "stray-bytes", end);
		return true;
	}
	return false;
}

static bool inj_nan(const wl_doc *d, inj *o)
{
	const wl_chunk *v = first_of(d, W3D_CHUNK_VERTICES, W3D_CHUNK_MESH);
	if (!v || v->size < 12)
		return false;
	uint64_t at = wl_chunk_payload_offset(v);
	o->bytes = dup_bytes(d->bytes, d->size, 0);
	o->len = d->size;
	put32(o->bytes + at, 0x7FC00000u);
	set_one(o, "float-not-finite", at);
	o->hi = at + 11;
	return true;
}

static bool (*const injectors[C_N])(const wl_doc *, inj *) = {
	inj_count, inj_parent, inj_quat, inj_index, inj_trunc, inj_bit, inj_size, inj_garbage, inj_nan
};

/* ---- checks --------------------------------------------------------- */

static bool accepted(const inj *o, const char *rule)
{
	for (int i = 0; o->rules[i]; i++)
		if (strcmp(o->rules[i], rule) == 0)
			return true;
	return false;
}

/* A finding of the injection's rules inside [lo, hi] in doc. */
static bool found_at(const wl_doc *doc, const inj *o)
{
	for (size_t i = 0; i < doc->findings.count; i++) {
		const wl_finding *f = &doc->findings.items[i];
		if (accepted(o, f->rule) && f->offset >= o->lo && f->offset <= o->hi)
			return true;
	}
	return false;
}

static size_t count_rules(const wl_doc *doc, const inj *o)
{
	size_t n = 0;
	for (size_t i = 0; i < doc->findings.count; i++)
		n += accepted(o, doc->findings.items[i].rule);
	return n;
}

static bool has_fixer(const inj *o)
{
	if (o->no_fix)
		return false;
	size_t n;
	const wl_fixer *const *fx = wl_fixers(&n);
	for (size_t i = 0; i < n; i++)
		for (const wl_rule_id *r = wl_fixer_rules(fx[i]); *r; r++)
			if (accepted(o, wl_rule_name(*r)))
				return true;
	return false;
}

static void miss(const char *path, int cls, const inj *o, const char *what)
{
	bool k = is_known(path, cls);
	if (k)
		known_misses++;
	else
		misses++;
	printf("defects: %s %s: %s (%s at 0x%llX..0x%llX): %s\n", k ? "KNOWN" : "MISS", path, class_name[cls], o->rules[0],
	       (unsigned long long)o->lo, (unsigned long long)o->hi, what);
}

static void run_file(const char *path, const uint8_t *in, size_t n)
{
	wl_doc *orig = wl_lint_bytes(cat, NULL, path, in, n);
	if (!orig) {
		fprintf(stderr, "defects: out of memory on %s\n", path);
		exit(2);
	}
	for (int k = 0; k < C_N; k++) {
		tal[k].files++;
		inj o = { 0 };
		if (!injectors[k](orig, &o))
			continue;
		if (found_at(orig, &o)) { /* already there: not an injected defect */
			free(o.bytes);
			continue;
		}
		tal[k].injected++;
		wl_doc *bad = wl_lint_bytes(cat, NULL, path, o.bytes, o.len);
		if (!bad) {
			fprintf(stderr, "defects: out of memory on %s\n", path);
			exit(2);
		}
		if (found_at(bad, &o)) {
			tal[k].detected++;
			if (is_known(path, k))
				printf("defects: %s: %s is detected now; remove its -k\n", path, class_name[k]);
			if (verbose)
				printf("defects: %s: %s detected at 0x%llX\n", path, class_name[k],
				       (unsigned long long)o.lo);
		} else {
			miss(path, k, &o, "not reported there");
		}
		wl_doc_free(bad);
		if (has_fixer(&o)) {
			tal[k].fixable++;
			wl_fix_options fo = { .catalog = cat, .unsafe = true };
			wl_fix_result r = { 0 };
			if (wl_fix_run(&fo, path, o.bytes, o.len, &r) != 0) {
				fprintf(stderr, "defects: out of memory fixing %s\n", path);
				exit(2);
			}
			if (!r.changed || !r.out) {
				miss(path, k, &o, "w3dfix changed nothing");
			} else if (!r.verified) {
				miss(path, k, &o, "w3dfix output failed verification:");
				for (size_t i = 0; i < r.problem_count; i++)
					printf("    %s\n", r.problems[i]);
			} else {
				wl_doc *fixed = wl_lint_bytes(cat, NULL, path, r.out, r.out_len);
				if (!fixed) {
					fprintf(stderr, "defects: out of memory on %s\n", path);
					exit(2);
				}
				if (count_rules(fixed, &o) > count_rules(orig, &o))
					miss(path, k, &o, "still reported after w3dfix");
				else
					tal[k].repaired++;
				wl_doc_free(fixed);
			}
			wl_fix_result_free(&r);
		}
		free(o.bytes);
	}
	wl_doc_free(orig);
}

static int run_path(const char *path);

static bool is_w3d(const char *name)
{
	size_t l = strlen(name);
	return l > 4 && strcasecmp(name + l - 4, ".w3d") == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int run_dir(const char *dir)
{
	DIR *dp = opendir(dir);
	if (!dp) {
		fprintf(stderr, "defects: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	char **names = NULL;
	size_t cnt = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		if (cnt == cap) {
			cap = cap ? 2 * cap : 64;
			char **nn = realloc(names, cap * sizeof *names);
			if (!nn)
				exit(2);
			names = nn;
		}
		size_t l = strlen(dir) + strlen(e->d_name) + 2;
		names[cnt] = malloc(l);
		if (!names[cnt])
			exit(2);
		snprintf(names[cnt++], l, "%s/%s", dir, e->d_name);
	}
	closedir(dp);
	qsort(names, cnt, sizeof *names, cmp_str);
	int rc = 0;
	for (size_t i = 0; i < cnt; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && (S_ISDIR(st.st_mode) || is_w3d(names[i]))) {
			int r = run_path(names[i]);
			if (r > rc)
				rc = r;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

static int run_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "defects: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (S_ISDIR(st.st_mode))
		return run_dir(path);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "defects: %s: %s\n", path, strerror(errno));
		return 2;
	}
	size_t n = (size_t)st.st_size;
	uint8_t *b = malloc(n + 1);
	if (!b || fread(b, 1, n, f) != n) {
		fprintf(stderr, "defects: %s: read failed\n", path);
		fclose(f);
		free(b);
		return 2;
	}
	fclose(f);
	run_file(path, b, n);
	free(b);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1;
	for (; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0)
			verbose = true;
		else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc && known_count < 16)
			known[known_count++] = argv[++i];
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: defects [-v] [-k NAME:CLASS]... FILE|DIR...\n");
		return 2;
	}
	char err[256];
	wl_catalog *c = wl_catalog_load_builtin(err, sizeof err);
	if (!c) {
		fprintf(stderr, "defects: catalogue: %s\n", err);
		return 2;
	}
	cat = c;
	int rc = 0;
	for (; i < argc; i++) {
		int r = run_path(argv[i]);
		if (r > rc)
			rc = r;
	}
	printf("%-14s %6s %9s %9s %8s %9s\n", "class", "files", "injected", "detected", "fixable", "repaired");
	for (int k = 0; k < C_N; k++)
		printf("%-14s %6u %9u %9u %8u %9u\n", class_name[k], tal[k].files, tal[k].injected, tal[k].detected,
		       tal[k].fixable, tal[k].repaired);
	printf("defects: %u miss(es), %u known\n", misses, known_misses);
	wl_catalog_free(c);
	if (rc)
		return rc;
	return misses ? 1 : 0;
}
