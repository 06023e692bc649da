/*
 * tool_aabtree_table.c - measures the AABTree builder (core/w3d/
 * aabtree_build.h) on every mesh with an AABTREE in a corpus, and writes the
 * markdown table of docs/aabtree-quality.md.
 *
 * For every mesh with a tree: the SAH cost of the original tree and of the
 * rebuilt one (core/w3d/sah.h: normalised by the root area, C_inn = C_tri =
 * 1, notes/lint_ux_anchors.md §6.2), their node counts and depths.  Every
 * rebuilt tree is checked against every AABTree rule by writing the mesh's
 * own vertices and triangles with the rebuilt tree as a W3D file and linting
 * it (the whole catalogue; the aabtree-* findings are counted; the header
 * is written with NORMAL geometry so the box rule applies to every mesh),
 * and built twice to check that the bytes are identical.  Then every file
 * goes through the rebuild-aabtree fixer (forced, as w3dfix
 * --rebuild-aabtree) and its output is linted again: aabtree-* findings
 * left are counted.  Build speed: triangles per second over all meshes,
 * best of --runs runs (default 5), building only.
 *
 * Usage: tool_aabtree_table [--runs N] [--bench] [--leaf N] [--bins N]
 *                           [--sweep N] [--no-sah-leaf] CORPUS_DIR [OUT.md]
 *   --bench   print only the speed line (for `make bench`)
 *   --leaf, --bins, --sweep, --no-sah-leaf  builder parameters
 *             (w3d_aabtree_params; the defaults otherwise)
 * Without OUT.md the table goes to standard output.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/file_io.h"
#include "core/w3d/aabtree_build.h"
#include "core/w3d/sah.h"
#include "core/w3d/model.h"
#include "fix/fix.h"
#include "cli/walk.h"
#include "lint/lint.h"
#include "tests/build/w3dbuild.h"

extern const wl_fixer w3d_fix_rebuild_aabtree;

/* Builder parameters (--leaf, --bins, --sweep, --no-sah-leaf); the table
 * of docs/aabtree-quality.md uses the defaults. */
static w3d_aabtree_params g_params;

typedef struct mesh_row {
	char *file;            /* path relative to the corpus */
	char *mesh;
	uint32_t tris;
	int status;            /* w3d_aabtree_status of the build */
	bool orig_ok;          /* original tree well formed */
	w3d_sah_stats orig, built;
	size_t rule_findings;  /* aabtree-* findings on the rebuilt tree */
	bool deterministic;
	/* kept for the timing runs */
	w3d_vec3 *verts;
	size_t nverts;
	uint32_t *vindex;
} mesh_row;

typedef struct rows {
	mesh_row *v;
	size_t n, cap;
} rows;

typedef struct file_row {
	char *file;
	size_t first, count;   /* rows of its meshes */
	size_t fix_findings;   /* aabtree-* findings after the fixer */
	size_t fix_edits;
} file_row;

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "tool_aabtree_table: out of memory\n");
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);
	memcpy(p, s, n);
	return p;
}

static size_t count_aabtree_findings(const wl_doc *d)
{
	size_t k = 0;
	for (size_t i = 0; i < d->findings.count; i++)
		if (strncmp(d->findings.items[i].rule, "aabtree-", 8) == 0)
			k++;
	return k;
}

static bool same_tree(const w3d_aabtree_built *a, const w3d_aabtree_built *b)
{
	return a->node_count == b->node_count && a->poly_count == b->poly_count &&
	       memcmp(a->nodes, b->nodes, a->node_count * sizeof *a->nodes) == 0 &&
	       memcmp(a->poly_indices, b->poly_indices, a->poly_count * sizeof *a->poly_indices) == 0;
}

static void measure_mesh(const wl_catalog *cat, const w3d_mesh *m, mesh_row *r)
{
	const w3d_aabtree *t = &m->aabtree;
	r->tris = (uint32_t)m->triangle_count;
	if (t->node_array_count && w3d_aabtree_sah(t->nodes, t->node_array_count, &r->orig) == 0)
		r->orig_ok = r->orig.well_formed;
	size_t nv = m->vertices.count;
	if (w3d_mesh_header_has_counts(&m->header) && m->header.num_vertices < nv)
		nv = m->header.num_vertices;
	r->nverts = nv;
	r->verts = xmalloc(nv * sizeof *r->verts);
	memcpy(r->verts, m->vertices.v, nv * sizeof *r->verts);
	r->vindex = xmalloc(3 * m->triangle_count * sizeof *r->vindex);
	for (size_t i = 0; i < m->triangle_count; i++)
		for (int k = 0; k < 3; k++)
			r->vindex[3 * i + (size_t)k] = m->triangles[i].vindex[k];
	w3d_aabtree_built b, b2;
	r->status = w3d_aabtree_build(r->verts, nv, r->vindex, m->triangle_count, &g_params, &b);
	if (r->status != W3D_AABTREE_OK)
		return;
	if (w3d_aabtree_sah(b.nodes, b.node_count, &r->built) != 0)
		exit(2);
	r->deterministic = w3d_aabtree_build(r->verts, nv, r->vindex, m->triangle_count, &g_params,
					     &b2) == W3D_AABTREE_OK &&
			   same_tree(&b, &b2);
	w3d_aabtree_built_free(&b2);
	wb w;
	t_w3d_init(&w);
	t_w3d_mesh_with_tree(&w, "REBUILT", "TABLE", r->verts, nv, r->vindex, m->triangle_count, &b);
	wl_doc *d = wl_lint_bytes(cat, NULL, "rebuilt.w3d", w.data, w.len);
	if (!d)
		exit(2);
	r->rule_findings = count_aabtree_findings(d);
	wl_doc_free(d);
	t_w3d_free(&w);
	w3d_aabtree_built_free(&b);
}

/* Runs the rebuild fixer (forced) on the file and lints its output. */
static void fix_file(const wl_catalog *cat, const uint8_t *bytes, size_t len, file_row *fr)
{
	wl_doc *d = wl_lint_bytes(cat, NULL, fr->file, bytes, len);
	if (!d)
		exit(2);
	wl_fix_ctx x = { 0 };
	x.doc = d;
	x.model = d->model;
	x.catalog = cat;
	x.forced = true;
	if (w3d_fix_rebuild_aabtree.apply(&x) != 0)
		exit(2);
	fr->fix_edits = wl_edit_count(d);
	uint8_t *out = NULL;
	size_t out_len = 0;
	if (wl_doc_write(d, &out, &out_len) != 0)
		exit(2);
	wl_doc *e = wl_lint_bytes(cat, NULL, fr->file, out, out_len);
	if (!e)
		exit(2);
	fr->fix_findings = count_aabtree_findings(e);
	wl_doc_free(e);
	wl_doc_free(d);
	free(out);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static bool compared(const mesh_row *r)
{
	return r->status == W3D_AABTREE_OK && r->orig_ok && isfinite(r->orig.sah) &&
	       isfinite(r->built.sah) && r->orig.sah > 0;
}

static double ratio(const mesh_row *r)
{
	return r->built.sah / r->orig.sah;
}

static void on_walk_error(void *ud, const char *path, int errnum)
{
	(void)ud;
	fprintf(stderr, "tool_aabtree_table: %s: %s\n", path, strerror(errnum));
}

int main(int argc, char **argv)
{
	int runs = 5, bench = 0, a = 1;
	for (; a < argc && argv[a][0] == '-'; a++) {
		if (strcmp(argv[a], "--bench") == 0)
			bench = 1;
		else if (strcmp(argv[a], "--runs") == 0 && a + 1 < argc)
			runs = atoi(argv[++a]);
		else if (strcmp(argv[a], "--leaf") == 0 && a + 1 < argc)
			g_params.max_leaf_polys = (uint32_t)atoi(argv[++a]);
		else if (strcmp(argv[a], "--bins") == 0 && a + 1 < argc)
			g_params.bins = (uint32_t)atoi(argv[++a]);
		else if (strcmp(argv[a], "--sweep") == 0 && a + 1 < argc)
			g_params.sweep_max = (uint32_t)atoi(argv[++a]);
		else if (strcmp(argv[a], "--no-sah-leaf") == 0)
			g_params.no_sah_leaf = 1;
		else {
			fprintf(stderr, "usage: tool_aabtree_table [--runs N] [--bench] [--leaf N] [--bins N] "
				"[--sweep N] [--no-sah-leaf] CORPUS [OUT.md]\n");
			return 2;
		}
	}
	if (a >= argc || runs < 1) {
		fprintf(stderr, "usage: tool_aabtree_table [--runs N] [--bench] [--leaf N] [--bins N] "
				"[--sweep N] [--no-sah-leaf] CORPUS [OUT.md]\n");
		return 2;
	}
	const char *corpus = argv[a];
	const char *out_path = a + 1 < argc ? argv[a + 1] : NULL;
	char err[512];
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	if (!cat) {
		fprintf(stderr, "tool_aabtree_table: %s\n", err);
		return 2;
	}
	wl_pathlist files = { 0 };
	if (wl_walk_collect(corpus, &files, on_walk_error, NULL) < 0 || files.count == 0) {
		fprintf(stderr, "tool_aabtree_table: no W3D files under %s\n", corpus);
		return 2;
	}
	size_t plen = strlen(corpus);
	while (plen > 1 && corpus[plen - 1] == '/')
		plen--;
	rows R = { 0 };
	file_row *F = xmalloc(files.count * sizeof *F);
	size_t nf = 0;
	for (size_t i = 0; i < files.count; i++) {
		size_t len;
		uint8_t *bytes;
		if (wl_read_file(files.items[i], SIZE_MAX, &bytes, &len) != WL_READ_OK) {
			fprintf(stderr, "tool_aabtree_table: cannot read %s\n", files.items[i]);
			continue;
		}
		const char *rel = files.items[i];
		if (strncmp(rel, corpus, plen) == 0 && rel[plen] == '/')
			rel += plen + 1;
		wl_doc *d = wl_lint_bytes(cat, NULL, rel, bytes, len);
		if (!d)
			return 2;
		const w3d_model *m = d->model;
		file_row fr = { xstrdup(rel), R.n, 0, 0, 0 };
		for (size_t k = 0; m && k < m->mesh_count; k++) {
			const w3d_mesh *me = m->meshes[k];
			if (!me || !me->aabtree.src)
				continue;
			if (R.n == R.cap) {
				R.cap = R.cap ? 2 * R.cap : 256;
				R.v = realloc(R.v, R.cap * sizeof *R.v);
				if (!R.v)
					return 2;
			}
			mesh_row *r = &R.v[R.n++];
			memset(r, 0, sizeof *r);
			r->file = fr.file;
			r->mesh = xstrdup(me->name);
			measure_mesh(cat, me, r);
			fr.count++;
		}
		wl_doc_free(d);
		if (fr.count) {
			fix_file(cat, bytes, len, &fr);
			F[nf++] = fr;
		} else {
			free(fr.file);
		}
		free(bytes);
	}

	/* Speed: building only, every mesh, best of `runs`. */
	uint64_t tri_total = 0;
	for (size_t i = 0; i < R.n; i++)
		if (R.v[i].status == W3D_AABTREE_OK)
			tri_total += R.v[i].tris;
	double best = INFINITY;
	for (int run = 0; run < runs; run++) {
		double t0 = now_s();
		for (size_t i = 0; i < R.n; i++) {
			mesh_row *r = &R.v[i];
			if (r->status != W3D_AABTREE_OK)
				continue;
			w3d_aabtree_built b;
			if (w3d_aabtree_build(r->verts, r->nverts, r->vindex, r->tris, &g_params, &b) !=
			    W3D_AABTREE_OK)
				return 2;
			w3d_aabtree_built_free(&b);
		}
		double t = now_s() - t0;
		if (t < best)
			best = t;
	}
	if (best <= 0)
		best = 1e-9;
	if (bench) {
		printf("bench: aabtree build: %zu meshes, %" PRIu64
		       " triangles, best of %d runs %.4f s, %.2f million triangles/s\n",
		       R.n, tri_total, runs, best, (double)tri_total / best / 1e6);
		return 0;
	}

	FILE *o = out_path ? fopen(out_path, "w") : stdout;
	if (!o) {
		fprintf(stderr, "tool_aabtree_table: cannot write %s\n", out_path);
		return 2;
	}
	double *ratios = xmalloc((R.n + 1) * sizeof *ratios);
	size_t nr = 0, le1 = 0, skipped = 0, malformed = 0, rule_bad = 0, nondet = 0;
	uint64_t onodes = 0, bnodes = 0;
	uint32_t odepth = 0, bdepth = 0;
	double logsum = 0;
	for (size_t i = 0; i < R.n; i++) {
		const mesh_row *r = &R.v[i];
		if (r->status != W3D_AABTREE_OK) {
			skipped++;
			continue;
		}
		rule_bad += r->rule_findings != 0;
		nondet += !r->deterministic;
		bnodes += r->built.node_count;
		if (r->built.depth > bdepth)
			bdepth = r->built.depth;
		if (!compared(r)) {
			malformed++;
			continue;
		}
		onodes += r->orig.node_count;
		if (r->orig.depth > odepth)
			odepth = r->orig.depth;
		ratios[nr++] = ratio(r);
		le1 += ratio(r) <= 1.0;
		logsum += log(ratio(r));
	}
	qsort(ratios, nr, sizeof *ratios, cmp_double);
	double median = nr ? (nr % 2 ? ratios[nr / 2] : 0.5 * (ratios[nr / 2 - 1] + ratios[nr / 2])) : 0;
	size_t fix_bad = 0;
	for (size_t i = 0; i < nf; i++)
		fix_bad += F[i].fix_findings != 0;

	fprintf(o, "# AABTree rebuild quality on the corpus\n\n");
	fprintf(o, "Generated by `tests/tools/tool_aabtree_table.c` (`make aabtree-table`) over "
		   "`../shared/corpus/w3d`; do not edit by hand.\n\n");
	fprintf(o, "SAH is the cost model of `notes/lint_ux_anchors.md` §6.2 normalised by the "
		   "root box area, with C_inn = C_tri = 1 (`core/w3d/sah.h`). *Ratio* is "
		   "SAH(rebuilt) / SAH(original), lower is better. The rebuilt tree is the "
		   "default build of `core/w3d/aabtree_build.h` (binned SAH with up to 16 bins, "
		   "exact sweeps at 8 triangles or fewer, at most 4 triangles per leaf, smaller "
		   "leaves where that lowers the SAH). Depth counts nodes on the longest "
		   "root-to-leaf path. Speed is triangles per second of thread CPU time, "
		   "building only (`make bench` prints the same line).\n\n");
	fprintf(o, "## Overall\n\n");
	fprintf(o, "| measure | value |\n|---|---|\n");
	fprintf(o, "| files with a tree | %zu |\n", nf);
	fprintf(o, "| meshes with a tree | %zu |\n", R.n);
	fprintf(o, "| meshes compared (original well formed, rebuild done) | %zu |\n", nr);
	fprintf(o, "| meshes not rebuilt (builder refused the input) | %zu |\n", skipped);
	fprintf(o, "| meshes whose original tree is malformed (not compared) | %zu |\n", malformed);
	fprintf(o, "| median ratio | %.4f |\n", median);
	fprintf(o, "| geometric mean ratio | %.4f |\n", nr ? exp(logsum / (double)nr) : 0.0);
	fprintf(o, "| best / worst ratio | %.4f / %.4f |\n", nr ? ratios[0] : 0.0,
		nr ? ratios[nr - 1] : 0.0);
	fprintf(o, "| meshes with ratio <= 1 | %zu of %zu (%.1f%%) |\n", le1, nr,
		nr ? 100.0 * (double)le1 / (double)nr : 0.0);
	fprintf(o, "| nodes, original / rebuilt (compared meshes: original; all: rebuilt) | %" PRIu64
		   " / %" PRIu64 " |\n", onodes, bnodes);
	fprintf(o, "| max depth, original / rebuilt | %" PRIu32 " / %" PRIu32 " |\n", odepth, bdepth);
	fprintf(o, "| rebuilt trees with an aabtree-* finding | %zu |\n", rule_bad);
	fprintf(o, "| rebuilt trees not byte-identical on a second build | %zu |\n", nondet);
	fprintf(o, "| files with an aabtree-* finding after `rebuild-aabtree` (forced) | %zu of %zu |\n",
		fix_bad, nf);
	fprintf(o, "| build speed (building only, best of %d runs) | %.2f million triangles/s "
		   "(%" PRIu64 " triangles) |\n\n",
		runs, (double)tri_total / best / 1e6, tri_total);

	fprintf(o, "## Per file\n\n");
	fprintf(o, "Sums over the file's compared meshes; *ratio* = sum SAH(rebuilt) / sum "
		   "SAH(original); *<= 1* counts the meshes whose own ratio is at most 1; "
		   "*findings* = aabtree-* findings on the rebuilt trees and, after the slash, in "
		   "the file after the forced rebuild fixer.\n\n");
	fprintf(o, "| file | meshes | tris | SAH orig | SAH rebuilt | ratio | <= 1 | nodes orig | "
		   "nodes rebuilt | depth orig | depth rebuilt | findings |\n");
	fprintf(o, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < nf; i++) {
		const file_row *fr = &F[i];
		double so = 0, sb = 0;
		size_t ok = 0, good = 0, rf = 0;
		uint64_t tris = 0, no = 0, nb = 0;
		uint32_t dob = 0, dbb = 0;
		for (size_t k = fr->first; k < fr->first + fr->count; k++) {
			const mesh_row *r = &R.v[k];
			tris += r->tris;
			rf += r->rule_findings;
			if (!compared(r))
				continue;
			ok++;
			so += r->orig.sah;
			sb += r->built.sah;
			good += ratio(r) <= 1.0;
			no += r->orig.node_count;
			nb += r->built.node_count;
			if (r->orig.depth > dob)
				dob = r->orig.depth;
			if (r->built.depth > dbb)
				dbb = r->built.depth;
		}
		if (ok)
			fprintf(o, "| %s | %zu | %" PRIu64 " | %.3f | %.3f | %.3f | %zu | %" PRIu64
				   " | %" PRIu64 " | %" PRIu32 " | %" PRIu32 " | %zu / %zu |\n",
				fr->file, fr->count, tris, so, sb, sb / so, good, no, nb, dob, dbb, rf,
				fr->fix_findings);
		else
			fprintf(o, "| %s | %zu | %" PRIu64 " | - | - | - | 0 | - | - | - | - | %zu / %zu |\n",
				fr->file, fr->count, tris, rf, fr->fix_findings);
	}
	fprintf(o, "\n## Meshes with ratio > 1\n\n");
	fprintf(o, "| file | mesh | tris | SAH orig | SAH rebuilt | ratio | nodes orig / rebuilt |\n");
	fprintf(o, "|---|---|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < R.n; i++) {
		const mesh_row *r = &R.v[i];
		if (compared(r) && ratio(r) > 1.0)
			fprintf(o, "| %s | %s | %" PRIu32 " | %.4f | %.4f | %.4f | %" PRIu32 " / %" PRIu32
				   " |\n",
				r->file, r->mesh, r->tris, r->orig.sah, r->built.sah, ratio(r),
				r->orig.node_count, r->built.node_count);
	}
	fprintf(o, "\n## Meshes not compared\n\n");
	fprintf(o, "| file | mesh | tris | reason |\n|---|---|---:|---|\n");
	for (size_t i = 0; i < R.n; i++) {
		const mesh_row *r = &R.v[i];
		if (r->status != W3D_AABTREE_OK)
			fprintf(o, "| %s | %s | %" PRIu32 " | not rebuilt: %s |\n", r->file, r->mesh,
				r->tris, w3d_aabtree_status_name((w3d_aabtree_status)r->status));
		else if (!compared(r))
			fprintf(o, "| %s | %s | %" PRIu32 " | original tree malformed or degenerate "
				   "(SAH %.4g, %" PRIu32 " nodes reached) |\n",
				r->file, r->mesh, r->tris, r->orig.sah, r->orig.node_count);
	}
	if (o != stdout)
		fclose(o);
	fprintf(stderr, "aabtree table: %zu meshes compared, median ratio %.4f, %.1f%% <= 1, "
			"%.2f million triangles/s\n",
		nr, median, nr ? 100.0 * (double)le1 / (double)nr : 0.0,
		(double)tri_total / best / 1e6);
	for (size_t i = 0; i < R.n; i++) {
		free(R.v[i].mesh);
		free(R.v[i].verts);
		free(R.v[i].vindex);
	}
	for (size_t i = 0; i < nf; i++)
		free(F[i].file);
	free(R.v);
	free(F);
	free(ratios);
	wl_pathlist_free(&files);
	wl_catalog_free(cat);
	return rule_bad || nondet || fix_bad ? 1 : 0;
}
