/* run_result.c - the worker side of a lint run (run.h): a file's bytes
 * linted (an archive: its own findings), added to the cross-file index, its
 * findings detached from the document into one block. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/file_io.h"
#include "core/format.h"
#include "core/grow.h"
#include "core/msgargs.h"
#include "lint/lint.h"
#include "run_int.h"

const char *wl_run_stash(char **at, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = *at;
	memcpy(p, s, n);
	*at += n;
	return p;
}

/* Copies the argument record of a finding whose message is formatted on
 * demand (core/msgargs.h: it moves with memcpy) into the block at *at. */
static const void *stash_args(char **at, const void *args)
{
	size_t n = wl_msgargs_size(args);
	char *p = *at;
	memcpy(p, args, n);
	*at += n;
	return p;
}

wl_severity wl_run_rule_severity(const wl_run *r, const wl_config *cfg, const char *rule, wl_target_mask targets)
{
	return wl_config_severity_for(cfg, r->o.rules, r->cat, rule, NULL, targets);
}

static int cmp_dropped(const void *a, const void *b)
{
	return strcmp(((const wl_report_dropped *)a)->rule, ((const wl_report_dropped *)b)->rule);
}

/* The per-rule counts of findings left out by the cap, for rules not off,
 * by rule id (not in the order the checks happened to run).  NULL when out
 * of memory. */
static wl_report_dropped *dropped_list(const wl_run *r, const wl_config *cfg, const wl_findings *fs,
				       wl_target_mask targets, size_t *out_n)
{
	*out_n = 0;
	wl_report_dropped *dropped = malloc((fs->rules_count ? fs->rules_count : 1) * sizeof *dropped);
	if (!dropped)
		return NULL;
	for (size_t k = 0; k < fs->rules_count; k++) {
		const char *rule = fs->rules[k].rule;
		uint64_t n = wl_findings_dropped(fs, rule);
		if (n == 0 || wl_run_rule_severity(r, cfg, rule, targets) == WL_SEV_OFF)
			continue;
		dropped[*out_n].rule = rule;
		dropped[*out_n].count = n;
		(*out_n)++;
	}
	qsort(dropped, *out_n, sizeof *dropped, cmp_dropped);
	return dropped;
}

/* Detaches doc's findings into res (see wl_run_result).  Rule ids and
 * formats are static storage; messages (or the arguments they are
 * formatted from), related paths and chunk paths are copied.  When the
 * report shows no finding (r->bare: text with --quiet), only what counting
 * and the baseline need is kept: no message, no chunk path.  -1 when out of
 * memory. */
static int detach(const wl_run *r, const wl_config *cfg, const wl_doc *doc, wl_run_result *res)
{
	const wl_findings *fs = &doc->findings;
	size_t n = fs->count;
	/* a document without a format (an archive's own): the registry's
	 * first format, as reports always named it */
	size_t nformats;
	const wl_format *const *formats = wl_formats(&nformats);
	res->format = doc->format && doc->format->name ? doc->format->name : nformats ? formats[0]->name : "";
	res->dropped = dropped_list(r, cfg, fs, res->targets, &res->dropped_count);
	res->items = malloc((n ? n : 1) * sizeof *res->items);
	res->chunk_paths = malloc((n ? n : 1) * sizeof *res->chunk_paths);
	if (!res->dropped || !res->items || !res->chunk_paths)
		return -1;
	/* The chunk paths are computed once, gathered in paths (cpoff[i] the
	 * offset of finding i's); then one block takes every string. */
	char *paths = NULL;
	size_t *cpoff = r->bare ? NULL : malloc((n ? n : 1) * sizeof *cpoff);
	size_t paths_len = 0, paths_cap = 0;
	size_t total = 1;
	int rc = r->bare || cpoff ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const wl_finding *x = &fs->items[i];
		total += x->related ? strlen(x->related) + 1 : 0;
		if (r->bare)
			continue;
		char cpath[1024];
		size_t len = strlen(wl_chunk_path(doc, x->chunk, x->element, cpath, sizeof cpath)) + 1;
		if (!wl_grow((void **)&paths, &paths_cap, paths_len + len, 1)) {
			rc = -1;
			break;
		}
		memcpy(paths + paths_len, cpath, len);
		cpoff[i] = paths_len;
		paths_len += len;
		total += x->message ? strlen(x->message) + 1 : wl_msgargs_size(x->args);
	}
	res->strings = rc == 0 ? malloc(total + paths_len) : NULL;
	if (!res->strings) {
		free(paths);
		free(cpoff);
		return -1;
	}
	char *at = res->strings;
	const char *none = wl_run_stash(&at, "");
	/* the paths first, as they are */
	char *cpaths = at;
	if (paths_len)
		memcpy(cpaths, paths, paths_len);
	at += paths_len;
	for (size_t i = 0; i < n; i++) {
		wl_finding x = fs->items[i];
		x.chunk = NULL;
		if (x.related)
			x.related = wl_run_stash(&at, x.related);
		if (r->bare) {
			x.message = none;
			x.args = NULL;
			res->items[i] = x;
			res->chunk_paths[i] = none;
			continue;
		}
		if (x.message)
			x.message = wl_run_stash(&at, x.message);
		else
			x.args = stash_args(&at, x.args);
		res->items[i] = x;
		res->chunk_paths[i] = cpaths + cpoff[i];
	}
	free(paths);
	free(cpoff);
	res->count = n;
	res->own_count = n;
	res->cap = n ? n : 1;
	return 0;
}

int wl_run_read(const char *path, uint8_t **out, uint64_t *out_size, char *err, size_t errcap)
{
	size_t len = 0;
	uint64_t size;
	*out = NULL;
	*out_size = 0;
	int rc = wl_read_input_ex(path, WL_READ_SNIFF, out, &len, &size);
	if (rc != WL_READ_OK) {
		wl_read_message(err, errcap, W3DLINT_NAME, path, rc, errno, size);
		return -1;
	}
	*out_size = len;
	return 0;
}

wl_run_result *wl_run_unread(const char *error)
{
	wl_run_result *res = calloc(1, sizeof *res);
	if (res)
		snprintf(res->error, sizeof res->error, "%s", error);
	return res;
}

wl_run_result *wl_run_lint(const wl_run *r, size_t i, uint8_t *bytes, uint64_t have, uint64_t size)
{
	wl_run_result *res = calloc(1, sizeof *res);
	if (!res) {
		free(bytes);
		return NULL;
	}
	res->size = size;
	const wl_run_item *it = &r->files[i];
	const char *path = it->path;
	const wl_config *cfg = r->file_cfg[i];
	/* Not a model, and not named as one: one line (a file named as a model
	 * gets the finding file-not-a-model from the lint); an archive: its own
	 * findings (its entries are items of their own). */
	res->kind = it->entry || wl_format_by_extension(path) ? NULL : wl_file_kind_of(bytes, have, path);
	wl_doc *doc = NULL;
	bool archive = res->kind && res->kind->archive;
	if (archive) {
		doc = wl_lint_archive(r->cat, cfg, path, bytes, have, size);
		res->kind = NULL;
	} else if (res->kind) {
		free(bytes);
		return res;
	} else {
		wl_lint_opts lo = { r->o.rules, r->file_layout[i] };
		doc = wl_lint_bytes_opts(r->cat, cfg, &lo, path, bytes, size, &res->targets);
	}
	/* The index copies what it keeps: the document is freed below.  An
	 * archive: the files the game finds in it. */
	if (doc && r->xref && r->xref_add[i] && archive) {
		if (wl_xref_add_archive(r->xref, path, doc) != 0)
			res->xref_failed = true;
	} else if (doc && r->xref && r->xref_add[i]) {
		if (wl_xref_add(r->xref, path, doc) != 0)
			res->xref_failed = true;
		else /* the index checks those skins across the folder */
			wl_findings_remove_rule(&doc->findings, WLR_SKIN_BOUNDS_UNCHECKED);
	}
	if (doc && detach(r, cfg, doc, res) == 0)
		res->ok = true;
	else
		snprintf(res->error, sizeof res->error, "w3dlint: %s: out of memory", wl_esc(path));
	wl_doc_free(doc);
	free(bytes);
	return res;
}

void wl_run_result_free(wl_run_result *res)
{
	if (!res)
		return;
	free(res->items);
	free(res->chunk_paths);
	free(res->dropped);
	free(res->strings);
	for (size_t i = 0; i < res->extra_count; i++)
		free(res->extra[i]);
	free(res->extra);
	free(res);
}
