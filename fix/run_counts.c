/*
 * run_counts.c - the findings a w3dfix run counts are w3dlint's (run.h
 * wl_fixrun_set_lint_counts): the lint pass's count of each file stands
 * for the input's, and the repair moves it by what it changes in the
 * file's own findings.
 */
#include <stdint.h>

#include "run_int.h"

void wl_fixrun_set_lint_counts(wl_fixrun *r, wl_reporter *counts)
{
	r->lint_counts = counts;
}

/* Findings of counts c at or above severity fail (capped ones included). */
static uint64_t at_least(const wl_report_counts *c, wl_severity fail)
{
	if (fail == WL_SEV_OFF)
		return 0;
	return c->errors + (fail <= WL_SEV_WARNING ? c->warnings : 0) + (fail <= WL_SEV_INFO ? c->infos : 0);
}

static size_t moved(size_t n, int64_t by)
{
	return by < 0 && (uint64_t)-by > n ? 0 : (size_t)((int64_t)n + by);
}

void wl_fixrun_lint_adjust(const wl_fixrun *r, const char *file, const wl_config *cfg, wl_fix_result *res)
{
	const wl_report_counts *c = r->lint_counts ? wl_report_count_of(r->lint_counts, file) : NULL;
	if (!c)
		return;
	wl_severity fail = cfg ? wl_config_fail_on(cfg) : WL_SEV_ERROR;
	uint64_t all = c->errors + c->warnings + c->infos, failing = at_least(c, fail);
	/* the cross-file findings, and the single-file ones the index settles
	 * (skin-bounds-unchecked), are the same before and after: a repair
	 * changes no name, reference or pivot count */
	int64_t d_all = (int64_t)all - (int64_t)res->findings_before;
	int64_t d_fail = (int64_t)failing - (int64_t)res->failing_before;
	res->findings_before = (size_t)all;
	res->failing_before = (size_t)failing;
	res->findings_after = moved(res->findings_after, d_all);
	res->failing_after = moved(res->failing_after, d_fail);
}

void wl_fixrun_archive_counts(wl_fixrun *r, const char *file, const wl_config *cfg)
{
	const wl_report_counts *c = r->lint_counts ? wl_report_count_of(r->lint_counts, file) : NULL;
	if (!c)
		return;
	/* no fixer changes an archive's own bytes: its findings stay */
	uint64_t all = c->errors + c->warnings + c->infos;
	r->t.before += (size_t)all;
	r->t.after += (size_t)all;
	uint64_t failing = at_least(c, cfg ? wl_config_fail_on(cfg) : WL_SEV_ERROR);
	if (failing) {
		wl_fixrun_keep_left(r, file, (size_t)failing);
		r->t.failing_now++;
	}
}
