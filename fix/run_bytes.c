/*
 * run_bytes.c - the repair of one file's bytes in a w3dfix run (run_int.h):
 * its configuration as w3dlint finds it, the driver (fix/driver.h), the
 * counts and the edit lines.  Called by run.c for a file and by
 * run_archive.c for each model entry of an archive, and calling neither.
 */
#include <stdio.h>
#include <string.h>

#include "core/arena.h"
#include "core/escape.h"
#include "core/format.h"
#include "lint/lint.h"
#include "lint/config/target.h"
#include "run_int.h"

void wl_fixrun_clear(const wl_fixrun *r)
{
	if (r->o.before_output)
		r->o.before_output(r->o.ud);
}

int wl_fixrun_config(wl_fixrun *r, const char *file, const char *host, const wl_config **cfg)
{
	*cfg = r->fo.config;
	if (*cfg || strcmp(host, "-") == 0)
		return 0;
	wl_config *found = NULL;
	int crc = wl_config_cache_for_file(&r->configs, r->fo.catalog, host, r->memo, &found, r->o.diag);
	if (crc != 0) {
		wl_fixrun_clear(r);
		if (crc == -2)
			fprintf(r->o.diag, "%s: %s: out of memory\n", r->o.tool, wl_esc(file));
		r->t.errors++;
		return -1;
	}
	*cfg = found;
	return 0;
}

/* When linting in[0..n) stops at the per-file memory limit or the shared
 * memory cap (core/arena.h), the out-of-memory finding's message naming
 * it (static copy), else NULL. */
static const char *memory_refusal(const wl_fix_options *fo, const char *file, const uint8_t *in, size_t n)
{
	static char why[512];
	const char *got = NULL;
	wl_doc *d = wl_lint_bytes(fo->catalog, fo->config, file, in, n);
	for (size_t i = 0; d && i < d->findings.count && !got; i++)
		if (strcmp(d->findings.items[i].rule, wl_rule_name(WLR_OUT_OF_MEMORY)) == 0 &&
		    (wl_arena_limited(d->arena) || wl_arena_capped(d->arena))) {
			snprintf(why, sizeof why, "%s", d->findings.items[i].message);
			got = why;
		}
	wl_doc_free(d);
	return got;
}

int wl_fixrun_bytes(wl_fixrun *run, const char *file, const char *host, const uint8_t *in, size_t n,
		    wl_fix_result *r)
{
	const wl_fixrun_opts *o = &run->o;
	wl_fix_totals *t = &run->t;
	/* A read-only format or file (P3D ODOL): said plainly, then run as
	 * any file so that -o still copies it and its findings still count. */
	const wl_format *fmt = wl_format_detect(in, n, file);
	const char *ro;
	if (!wl_format_repairable(fmt, in, n, &ro) && !o->quiet) {
		wl_fixrun_clear(run);
		fprintf(o->out, "%s: not repaired: %s never changes these %s files (%s); w3dlint checks them\n", wl_esc(file),
			o->tool, fmt->title, ro);
	}
	/* the file's targets and configuration as w3dlint finds them:
	 * --target, else the mod's layout and the file itself (lint/lint.h);
	 * --config, else the .w3dlint.yaml that governs host (lint/run/run.c) */
	wl_lint_opts lo = { o->rules, wl_target_layout_memo(host, run->memo) };
	wl_fix_options fo_file = run->fo;
	fo_file.lint = &lo;
	if (wl_fixrun_config(run, file, host, &fo_file.config) != 0)
		return -1;
	int run_rc = wl_fix_run(&fo_file, file, in, n, r);
	if (run_rc == 0)
		wl_fixrun_lint_adjust(run, file, fo_file.config, r);
	wl_fixrun_clear(run);
	if (run_rc != 0) {
		const char *why = memory_refusal(&fo_file, file, in, n);
		if (why)
			fprintf(o->diag, "%s: %s: not repaired, left unchanged: %s\n", o->tool, wl_esc(file), why);
		else
			fprintf(o->diag, "%s: %s: out of memory or internal error\n", o->tool, wl_esc(file));
		t->errors++;
		wl_fix_result_free(r);
		return -1;
	}
	t->edits += r->change_count;
	t->before += r->findings_before;
	/* what stays: the repair's findings when it is written (or would
	 * be), else the input's */
	t->after += r->verified ? r->findings_after : r->findings_before;
	if (o->dry_run || (!o->quiet && !o->diff && r->changed))
		wl_fixrun_print_edits(o->out, file, r, o->fold);
	if (o->diff && r->changed) {
		fprintf(o->out, "%s:\n", wl_esc(file));
		wl_fixrun_print_diff(o->out, r, n);
	}
	for (size_t i = 0; i < r->problem_count; i++)
		fprintf(o->diag, "%s: %s: verification failed: %s\n", o->tool, wl_esc(file), r->problems[i]);
	if (!r->verified)
		t->failed++;
	return 0;
}
