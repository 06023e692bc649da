/* run_report.c - the report side of a lint run (run.h), in file order: the
 * baseline applied or recorded, the counts and the failing threshold,
 * --max-findings, info findings hidden, the reporter called. */
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "run_int.h"

static wl_severity fail_threshold(const wl_run *r, const wl_config *cfg)
{
	if (r->o.fail_on >= 0)
		return (wl_severity)r->o.fail_on;
	return cfg ? wl_config_fail_on(cfg) : WL_SEV_ERROR;
}

static void count_severity(wl_severity s, uint64_t n, wl_report_counts *c)
{
	switch (s) {
	case WL_SEV_ERROR: c->errors += n; break;
	case WL_SEV_WARNING: c->warnings += n; break;
	case WL_SEV_INFO: c->infos += n; break;
	default: break;
	}
}

static void add_counts(wl_report_counts *to, const wl_report_counts *c)
{
	to->files += c->files;
	to->files_with_errors += c->files_with_errors;
	to->errors += c->errors;
	to->warnings += c->warnings;
	to->infos += c->infos;
	to->dropped += c->dropped;
	to->baselined += c->baselined;
	to->not_shown += c->not_shown;
}

/* Applies the baseline to one file: shown[] / shown_paths[] (caller
 * allocated, res->count entries) get the findings to report, res->dropped
 * is lowered.  Returns the number baselined, or -1 when out of memory. */
static int64_t apply_baseline(wl_run *r, const char *path, wl_run_result *res, wl_finding *shown,
			      const char **shown_paths, size_t *shown_n)
{
	size_t n = res->count;
	bool *keep = malloc((n ? n : 1) * sizeof *keep);
	char *key = r->baseline ? wl_baseline_key(r->baseline, path) : NULL;
	int64_t matched = 0;
	if (!keep || (r->baseline && !key)) {
		free(keep);
		free(key);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		keep[i] = true;
	if (r->recording) {
		/* Everything found now is the baseline: nothing is reported. */
		matched = wl_baseline_record(r->baseline, key, res->items, n, res->dropped, res->dropped_count);
		if (matched > 0)
			r->recorded_files++;
		for (size_t i = 0; i < n; i++)
			keep[i] = false;
		res->dropped_count = 0;
	} else if (r->baseline) {
		matched = wl_baseline_match(r->baseline, key, res->items, n, keep, res->dropped, &res->dropped_count);
	}
	*shown_n = 0;
	for (size_t i = 0; i < n; i++) {
		if (keep[i]) {
			shown[*shown_n] = res->items[i];
			shown_paths[*shown_n] = res->chunk_paths[i];
			(*shown_n)++;
		}
	}
	free(keep);
	free(key);
	return matched;
}

/* Text and github reports without --show-infos: the info findings (and
 * capped info rules) are counted but not listed.  Compacts fr's arrays
 * (items, paths and d: its findings, chunk paths and dropped list, the
 * caller's) in place. */
static void hide_infos(const wl_run *r, const wl_config *cfg, wl_target_mask targets, wl_finding *items,
		       const char **paths, wl_report_dropped *d, wl_file_report *fr)
{
	size_t w = 0;
	for (size_t i = 0; i < fr->findings_count; i++) {
		if (items[i].severity == WL_SEV_INFO)
			continue;
		items[w] = items[i];
		paths[w++] = paths[i];
	}
	fr->findings_count = w;
	size_t dw = 0;
	for (size_t k = 0; k < fr->dropped_count; k++)
		if (wl_run_rule_severity(r, cfg, d[k].rule, targets) != WL_SEV_INFO)
			d[dw++] = d[k];
	fr->dropped_count = dw;
}

/* Counts fr's findings and capped findings (at their rule's severity, as
 * in the baseline and w3dfix); returns the worst severity. */
static wl_severity count_file(const wl_run *r, const wl_config *cfg, wl_target_mask targets, wl_file_report *fr)
{
	wl_severity worst = WL_SEV_OFF;
	for (size_t k = 0; k < fr->findings_count; k++) {
		count_severity(fr->findings[k].severity, 1, &fr->counts);
		if (fr->findings[k].severity > worst)
			worst = fr->findings[k].severity;
	}
	for (size_t k = 0; k < fr->dropped_count; k++) {
		fr->counts.dropped += fr->dropped[k].count;
		wl_severity s = wl_run_rule_severity(r, cfg, fr->dropped[k].rule, targets);
		count_severity(s, fr->dropped[k].count, &fr->counts);
		if (s > worst)
			worst = s;
	}
	fr->counts.files_with_errors = fr->counts.errors > 0;
	return worst;
}

/* Diagnostics of file path before its report: out of memory in the index,
 * its verbose line; and for a file that is not reported (not a model,
 * unreadable) its line, returning 1.  0: report res. */
static int report_trouble(wl_run *r, const char *path, wl_run_result *res)
{
	if (res && res->xref_failed) {
		fprintf(wl_run_diag(r), "w3dlint: %s: out of memory adding the file to the cross-file index\n", wl_esc(path));
		r->trouble = true;
	}
	if (res && res->kind) {
		fprintf(wl_run_diag(r), "w3dlint: %s: %s, not a model file; not linted\n", wl_esc(path),
			res->kind->title);
		return 1;
	}
	if (!res || !res->ok) {
		fprintf(wl_run_diag(r), "%s\n", res ? res->error : "w3dlint: out of memory");
		r->trouble = true;
		r->totals.unreadable++;
		wl_run_note_unreadable(r, path);
		return 1;
	}
	if (r->o.verbose) {
		char names[256];
		fprintf(wl_run_diag(r), "w3dlint: %s: %s, targets %s\n", wl_esc(path), res->format,
			wl_target_mask_names(res->targets, names, sizeof names));
	}
	return 0;
}

int wl_run_report_file(wl_run *r, size_t i, wl_run_result *res)
{
	const wl_run_item *it = &r->files[i];
	const char *path = it->path;
	const wl_config *cfg = r->file_cfg[i];
	if (report_trouble(r, path, res)) {
		wl_run_result_free(res);
		return 0;
	}
	size_t n = res->count, shown_n = 0;
	wl_finding *shown = malloc((n ? n : 1) * sizeof *shown);
	const char **shown_paths = malloc((n ? n : 1) * sizeof *shown_paths);
	int64_t baselined = shown && shown_paths ? apply_baseline(r, path, res, shown, shown_paths, &shown_n) : -1;
	if (baselined < 0) {
		free(shown);
		free(shown_paths);
		wl_run_result_free(res);
		return -1;
	}

	wl_file_report fr = { path, res->size, NULL, res->format, shown, shown_paths, shown_n,
			      res->dropped, res->dropped_count, { 0 }, NULL, NULL, 0 };
	fr.counts.files = 1;
	fr.counts.baselined = (uint64_t)baselined;
	if (it->entry) { /* SARIF: the archive is the artifact */
		fr.archive = it->archive;
		fr.entry = it->entry;
		fr.entry_offset = it->entry_offset;
	}
	wl_severity worst = count_file(r, cfg, res->targets, &fr);
	wl_severity threshold = fail_threshold(r, cfg);
	if (threshold != WL_SEV_OFF && worst >= threshold)
		r->failed = true;

	/* --max-findings: the first N in report order are shown. */
	uint64_t max = r->max_findings;
	if (max) {
		uint64_t room = r->shown < max ? max - r->shown : 0;
		if (shown_n > room) {
			fr.counts.not_shown = shown_n - room;
			fr.findings_count = (size_t)room;
		}
	}
	r->shown += fr.findings_count;
	add_counts(&r->totals, &fr.counts);
	if (r->hide_infos && threshold != WL_SEV_INFO)
		hide_infos(r, cfg, res->targets, shown, shown_paths, res->dropped, &fr);

	if (r->o.before_report && (fr.findings_count || fr.dropped_count))
		r->o.before_report(r->o.ud);
	int rc = wl_reporter_file(r->rep, &fr);
	free(shown);
	free(shown_paths);
	wl_run_result_free(res);
	return rc;
}

int wl_run_emit(wl_run *r, size_t i, wl_run_result *res)
{
	if (r->held) {
		r->held[i] = res;
		return 0;
	}
	return wl_run_report_file(r, i, res);
}
