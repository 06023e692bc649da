/* run_xref.c - the cross-file checks of a lint run (run.h): the index of
 * the run's files and the base folders' files, the results held until it
 * is complete, and the cross-file findings merged into the file that names
 * the object, at their effective severity for that file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/format.h"
#include "core/grow.h"
#include "core/platform.h"
#include "lint/lint.h"
#include "run_int.h"

static int cmp_path_ix(const void *x, const void *y)
{
	const wl_run_path_ix *a = x, *b = y;
	int c = strcmp(a->path, b->path);
	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* A path listed twice (a file named and inside a folder argument) is
 * indexed once, so it does not define its objects twice. */
int wl_run_xref_on(wl_run *r)
{
	size_t n = r->nfiles;
	r->xref = wl_xref_new();
	r->xref_add = calloc(n ? n : 1, sizeof *r->xref_add);
	r->by_path = malloc((n ? n : 1) * sizeof *r->by_path);
	r->held = calloc(n ? n : 1, sizeof *r->held);
	if (!r->xref || !r->xref_add || !r->by_path || !r->held)
		return -1;
	for (size_t i = 0; i < n; i++)
		r->by_path[i] = (wl_run_path_ix){ r->files[i].path, i };
	qsort(r->by_path, n, sizeof *r->by_path, cmp_path_ix);
	/* Archive entries join the index under their names "ARCHIVE:PATH":
	 * the games look their objects up with the folder's (xref.h
	 * wl_xref_add_archive for the files they find in archives). */
	for (size_t k = 0; k < n; k++)
		if (k == 0 || strcmp(r->by_path[k - 1].path, r->by_path[k].path) != 0)
			r->xref_add[r->by_path[k].index] = true;
	return 0;
}

void wl_run_xref_free(wl_run *r)
{
	if (r->held)
		for (size_t i = 0; i < r->nfiles; i++)
			wl_run_result_free(r->held[i]);
	free(r->held);
	free(r->by_path);
	free(r->xref_add);
	wl_xref_free(r->xref);
	for (size_t i = 0; i < r->unres_count; i++)
		free(r->unres[i].name);
	free(r->unres);
	free(r->unres_tally);
	r->unres = NULL;
	r->unres_tally = NULL;
	r->unres_count = r->unres_cap = 0;
	r->held = NULL;
	r->by_path = NULL;
	r->xref_add = NULL;
	r->xref = NULL;
}

static int cmp_path_only(const void *x, const void *y)
{
	return strcmp(((const wl_run_path_ix *)x)->path, ((const wl_run_path_ix *)y)->path);
}

/* The first file of the run named path, or (size_t)-1 (a path is listed
 * at most a few times: the walk back is short). */
static size_t xref_file_of(const wl_run *r, const char *path)
{
	wl_run_path_ix key = { path, 0 };
	const wl_run_path_ix *hit = bsearch(&key, r->by_path, r->nfiles, sizeof *r->by_path, cmp_path_only);
	if (!hit)
		return (size_t)-1;
	while (hit > r->by_path && strcmp(hit[-1].path, path) == 0)
		hit--;
	return hit->index;
}

/* Is path one of the base files (--base, base:)?  Linear: only asked for
 * duplicate-definition findings. */
static bool is_base_file(const wl_run *r, const char *path)
{
	for (size_t i = 0; i < r->nbase_files; i++)
		if (strcmp(r->base_files[i], path) == 0)
			return true;
	return false;
}

/* State of the wl_xref_check callback: the effective severity needs the
 * file's absolute path when its configuration has per-path ignores; it is
 * computed once per file (findings come sorted by path). */
typedef struct xref_sink {
	wl_run *r;
	size_t file;   /* file of key, or (size_t)-1 */
	char *key;
} xref_sink;

/* Makes room for one more finding in res and its string block of len
 * bytes; returns the block, NULL when out of memory. */
static char *room_for_one(wl_run_result *res, size_t len)
{
	size_t ci = res->cap, cc = res->cap; /* parallel arrays: one capacity */
	if (!wl_grow((void **)&res->items, &ci, res->count + 1, sizeof *res->items) ||
	    !wl_grow((void **)&res->chunk_paths, &cc, res->count + 1, sizeof *res->chunk_paths))
		return NULL;
	res->cap = cc;
	bool room = wl_grow((void **)&res->extra, &res->extra_cap, res->extra_count + 1, sizeof *res->extra);
	char *blk = room ? malloc(len) : NULL;
	if (blk)
		res->extra[res->extra_count++] = blk;
	return blk;
}

/* Counts a reference no file defines in the run's note (no base game);
 * false when out of memory. */
static bool fold_unresolved(wl_run *r, wl_rule_id rule, const char *name)
{
	char *copy = strdup(name);
	if (!copy || !wl_grow((void **)&r->unres, &r->unres_cap, r->unres_count + 1, sizeof *r->unres)) {
		free(copy);
		return false;
	}
	r->unres[r->unres_count++] = (wl_run_unres){ rule, copy };
	return true;
}

static int cmp_unres_name(const void *x, const void *y)
{
	const wl_run_unres *a = x, *b = y;
	int c = strcasecmp(a->name, b->name);
	return c ? c : strcmp(a->name, b->name);
}

/* Most first, then by name. */
static int cmp_tally(const void *x, const void *y)
{
	const wl_report_tally *a = x, *b = y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->name, b->name);
}

const wl_report_unresolved *wl_run_unresolved(wl_run *r)
{
	wl_report_unresolved *u = &r->unres_note;
	if (r->unres_tally || !r->unres_count)
		return u;
	size_t n = r->unres_count;
	/* at most one tally per reference for the rules, and as many for the
	 * names before the top ones are kept */
	wl_report_tally *t = malloc(2 * n * sizeof *t);
	if (!t)
		return NULL;
	size_t nr = 0;
	for (size_t i = 0; i < n; i++) {
		const char *id = wl_rule_name(r->unres[i].rule);
		size_t k = 0;
		while (k < nr && strcmp(t[k].name, id) != 0)
			k++;
		if (k == nr)
			t[nr++] = (wl_report_tally){ id, 0 };
		t[k].count++;
	}
	qsort(t, nr, sizeof *t, cmp_tally);
	/* names: letter case ignored (the games look them up so), the first
	 * spelling in byte order standing for the others */
	qsort(r->unres, n, sizeof *r->unres, cmp_unres_name);
	wl_report_tally *names = t + nr;
	size_t nn = 0;
	for (size_t i = 0; i < n; i++) {
		if (nn && strcasecmp(names[nn - 1].name, r->unres[i].name) == 0)
			names[nn - 1].count++;
		else
			names[nn++] = (wl_report_tally){ r->unres[i].name, 1 };
	}
	qsort(names, nn, sizeof *names, cmp_tally);
	r->unres_tally = t;
	*u = (wl_report_unresolved){ n, t, nr, names, nn < WL_REPORT_TOP_NAMES ? nn : WL_REPORT_TOP_NAMES };
	return u;
}

/* Appends one cross-file finding to the held result of its file, with the
 * effective severity of its rule for that file (dropped when off); a
 * reference no file defines is counted in the run's note instead when no
 * base game was given. */
static void xref_emit(void *ud, const wl_xref_finding *f)
{
	xref_sink *sk = ud;
	wl_run *r = sk->r;
	if (r->xref_oom)
		return;
	size_t i = xref_file_of(r, f->path);
	wl_run_result *res = i == (size_t)-1 ? NULL : r->held[i];
	if (!res || !res->ok)
		return;
	/* A mod redefining an object of the base game is how mods work. */
	if (f->related && f->rule == WLR_DUPLICATE_DEFINITION && is_base_file(r, f->related))
		return;
	const wl_config *cfg = r->file_cfg[i];
	if (sk->file != i) {
		free(sk->key);
		sk->key = NULL;
		sk->file = i;
		if (wl_config_has_path_ignores(cfg)) {
			sk->key = wl_config_file_key(f->path);
			if (!sk->key) {
				r->xref_oom = true;
				return;
			}
		}
	}
	wl_severity sev = wl_config_severity_for(cfg, r->o.rules, r->cat, wl_rule_name(f->rule), sk->key, res->targets);
	if (sev == WL_SEV_OFF)
		return;
	if (f->unresolved && r->base_dirs.count == 0) {
		if (!fold_unresolved(r, f->rule, f->unresolved))
			r->xref_oom = true;
		return;
	}
	if (f->unchecked) /* the base game given does not hold its place */
		return;
	const char *cpath = f->chunk_path ? f->chunk_path : "";
	const char *msg = f->message ? f->message : "";
	size_t lc = strlen(cpath) + 1, lm = strlen(msg) + 1, lr = f->related ? strlen(f->related) + 1 : 0;
	char *at = room_for_one(res, lc + lm + lr);
	if (!at) {
		r->xref_oom = true;
		return;
	}
	wl_finding x = { 0 };
	x.rule = wl_rule_name(f->rule);
	x.rule_id = f->rule;
	x.severity = sev;
	x.offset = f->offset;
	x.length = f->length;
	x.chunk = NULL;
	x.element = -1;
	res->chunk_paths[res->count] = wl_run_stash(&at, cpath);
	x.message = wl_run_stash(&at, msg);
	x.related = f->related ? wl_run_stash(&at, f->related) : NULL;
	res->items[res->count++] = x;
}

/* Report order: offset, then rule id (wl_findings_sort). */
static int cmp_report_order(const wl_finding *a, const wl_finding *b)
{
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return strcmp(a->rule, b->rule);
}

/* Merges the cross-file findings of res into its own, both sorted; on a tie
 * the file's own finding comes first.  -1 when out of memory. */
static int merge_xref(wl_run_result *res)
{
	size_t a = res->own_count, n = res->count;
	if (n == a)
		return 0;
	wl_finding *items = malloc(n * sizeof *items);
	const char **cps = malloc(n * sizeof *cps);
	if (!items || !cps) {
		free(items);
		free(cps);
		return -1;
	}
	size_t i = 0, j = a;
	for (size_t k = 0; k < n; k++) {
		bool own = j >= n || (i < a && cmp_report_order(&res->items[i], &res->items[j]) <= 0);
		size_t from = own ? i++ : j++;
		items[k] = res->items[from];
		cps[k] = res->chunk_paths[from];
	}
	free(res->items);
	free(res->chunk_paths);
	res->items = items;
	res->chunk_paths = cps;
	res->own_count = n;
	res->cap = n;
	return 0;
}

/* Adds a model to the index (its document built without configuration):
 * a base file or a base archive's entry. */
static void index_model(wl_run *r, const char *path, const uint8_t *bytes, uint64_t size)
{
	wl_doc *doc = wl_lint_bytes_opts(r->cat, NULL, NULL, path, bytes, size, NULL);
	if (!doc || wl_xref_add(r->xref, path, doc) != 0)
		r->xref_oom = true;
	wl_doc_free(doc);
}

/* A base folder's archive (bytes[0..size)): the files the game finds in it
 * and its model entries, named "ARCHIVE:PATH", join the index. */
static void index_base_archive(wl_run *r, const char *path, const wl_file_kind *kind, const uint8_t *bytes,
			       uint64_t size)
{
	wl_archive_kind ak;
	if (!wl_archive_kind_of(kind->id, &ak))
		return;
	wl_doc *doc = wl_archive_read(ak, path, bytes, size, WL_ARCHIVE_TABLE);
	if (!doc || wl_xref_add_archive(r->xref, path, doc) != 0)
		r->xref_oom = true;
	const wl_archive *a = doc ? doc->model : NULL;
	for (size_t k = 0; a && k < a->count && !r->xref_oom; k++) {
		const wl_archive_entry *e = &a->entries[k];
		if (!e->readable || !wl_format_by_extension(e->path))
			continue;
		char *name = malloc(strlen(path) + strlen(e->path) + 2);
		uint8_t *unpacked = NULL;
		char why[256];
		if (!name) {
			r->xref_oom = true;
			break;
		}
		sprintf(name, "%s:%s", path, e->path);
		if (!e->packed)
			index_model(r, name, bytes + e->offset, e->size);
		else if (wl_archive_unpack(e, bytes + e->offset, &unpacked, why, sizeof why) == 0)
			index_model(r, name, unpacked, e->size);
		free(unpacked);
		free(name);
	}
	wl_doc_free(doc);
}

/* Indexes the base files for the cross-file checks: read, built and added
 * to the index, never reported (their findings name no file of the run);
 * an archive with the files in it and its model entries.  A file that is
 * also linted is indexed once, as a file of the run. */
static void index_bases(wl_run *r)
{
	for (size_t i = 0; i < r->nbase_files && !r->xref_oom; i++) {
		const char *path = r->base_files[i];
		if (xref_file_of(r, path) != (size_t)-1)
			continue;
		uint8_t *bytes;
		uint64_t size;
		char err[512];
		if (wl_run_read(path, &bytes, &size, err, sizeof err) != 0) {
			fprintf(wl_run_diag(r), "%s\n", err);
			r->trouble = true;
			continue;
		}
		const wl_file_kind *kind = wl_format_by_extension(path) ? NULL : wl_file_kind_of(bytes, size, path);
		if (kind && kind->archive)
			index_base_archive(r, path, kind, bytes, size);
		else if (!kind)
			index_model(r, path, bytes, size);
		free(bytes);
	}
	for (size_t i = 0; i < r->base_dirs.count; i++)
		(void)wl_xref_scan_textures(r->xref, r->base_dirs.items[i]);
}

/* Appends the first few of n names, quoted, to m ("'a', 'b' and 3
 * more"). */
static void put_names(FILE *m, const char *const *names, size_t n)
{
	enum { SHOWN = 3 };
	for (size_t i = 0; i < n && i < SHOWN; i++)
		fprintf(m, "%s'%s'", i ? (i + 1 == n ? " and " : ", ") : "", names[i]);
	if (n > SHOWN)
		fprintf(m, " and %zu more", n - SHOWN);
}

/* The places the index holds, for the messages of references found
 * nowhere: the paths linted and the base folders ("'mod' or the base
 * 'ZH/Art'"); -1 when out of memory. */
static int set_scope(wl_run *r, char **paths, int npaths)
{
	wl_os_memstream ms;
	FILE *m = wl_os_memstream_open(&ms);
	if (!m)
		return -1;
	put_names(m, (const char *const *)paths, npaths > 0 ? (size_t)npaths : 0);
	if (r->base_dirs.count) {
		fputs(" or the base ", m);
		put_names(m, (const char *const *)r->base_dirs.items, r->base_dirs.count);
	}
	char *buf = NULL;
	size_t len;
	int rc = wl_os_memstream_close(&ms, &buf, &len) == 0 ? wl_xref_set_scope(r->xref, buf) : -1;
	free(buf);
	return rc;
}

int wl_run_report_held(wl_run *r, char **paths, int npaths)
{
	if (set_scope(r, paths, npaths) != 0)
		r->xref_oom = true;
	/* A folder the walk could not open was reported already. */
	for (int k = 0; k < npaths; k++) {
		struct stat st;
		if (wl_os_stat(paths[k], &st) == 0 && S_ISDIR(st.st_mode))
			(void)wl_xref_scan_textures(r->xref, paths[k]);
	}
	index_bases(r);
	xref_sink sk = { r, (size_t)-1, NULL };
	if (wl_xref_check(r->xref, xref_emit, &sk) < 0)
		r->xref_oom = true;
	free(sk.key);
	for (size_t i = 0; !r->xref_oom && i < r->nfiles; i++)
		if (r->held[i] && merge_xref(r->held[i]) != 0)
			r->xref_oom = true;
	if (r->xref_oom) {
		fprintf(wl_run_diag(r), "w3dlint: out of memory in the cross-file checks; their findings are left out\n");
		r->trouble = true;
		for (size_t i = 0; i < r->nfiles; i++) {
			wl_run_result *res = r->held[i];
			if (res)
				res->count = res->own_count;
		}
		for (size_t i = 0; i < r->unres_count; i++)
			free(r->unres[i].name);
		r->unres_count = 0;
	}
	int rc = 0;
	for (size_t i = 0; i < r->nfiles; i++) {
		wl_run_result *res = r->held[i];
		r->held[i] = NULL;
		if (rc == 0)
			rc = wl_run_report_file(r, i, res);
		else
			wl_run_result_free(res);
	}
	return rc;
}
