/*
 * run.c - a w3dfix run over many files (run.h): the run, its files, and
 * one file from the lock and the read to the write and the count.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/escape.h"
#include "core/file_io.h"
#include "core/format.h"
#include "lint/lint.h"
#include "lint/config/target.h"
#include "run_int.h"

wl_fixrun *wl_fixrun_new(const wl_fix_options *fo, const wl_fixrun_opts *o)
{
	wl_fixrun *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->o = *o;
	r->fo = *fo;
	r->writing = (o->in_place || o->output) && !o->dry_run;
	r->memo = wl_stat_memo_new(); /* NULL (no memo) is fine */
	return r;
}

void wl_fixrun_free(wl_fixrun *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->targets && i < r->count; i++)
		free(r->targets[i]);
	free(r->targets);
	for (size_t i = 0; i < r->t.remaining; i++)
		free(r->t.left[i]);
	free(r->t.left);
	wl_config_cache_clear(&r->configs);
	wl_stat_memo_free(r->memo);
	free(r);
}

int wl_fixrun_set_files(wl_fixrun *r, const wl_fixrun_item *items, size_t n, const char *const *args,
			size_t nargs)
{
	r->items = items;
	r->count = n;
	if (wl_fixrun_names(r, args, nargs) != 0) {
		r->t.errors++;
		return -1;
	}
	return 0;
}

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

/* Reads file (core/file_io.h wl_read_input: "-" for standard input) into
 * *in, *n; -1 after printing "TOOL: PATH: REASON". */
static int read_input(const wl_fixrun *r, const char *file, uint8_t **in, size_t *n)
{
	uint64_t seen;
	int rc = wl_read_input(file, in, n, &seen);
	if (rc == WL_READ_OK)
		return 0;
	char msg[1200];
	wl_read_message(msg, sizeof msg, r->o.tool, file, rc, errno, seen);
	fprintf(r->o.diag, "%s\n", msg);
	return -1;
}

void wl_fixrun_file(wl_fixrun *r, size_t i)
{
	const wl_fixrun_opts *o = &r->o;
	wl_fix_totals *t = &r->t;
	const char *file = r->items[i].path;
	const char *target = r->targets ? r->targets[i] : NULL;
	uint8_t *in;
	size_t n;
	t->files++;
	/* --in-place: the lock first, then the read, so that a run waiting
	 * for another edits what that one wrote. */
	wl_sw lk = { .lock_fd = -1, .fd = -1, .slot = -1 };
	if (o->in_place && r->writing) {
		int rc = wl_sw_lock(&lk, file, wl_fixrun_sw_flags(r));
		if (rc != WL_SW_OK) {
			wl_fixrun_clear(r);
			wl_fixrun_write_failed(r, file, &lk, rc);
			t->errors++;
			return;
		}
	}
	if (read_input(r, file, &in, &n) != 0) {
		wl_sw_abort(&lk);
		wl_fixrun_clear(r);
		t->errors++;
		return;
	}
	/* An archive: its model entries repaired and the archive rewritten
	 * with them.  An image or text file (core/filekind.h): one line,
	 * never changed, never written. */
	/* A file named as a model is one, as in w3dlint (lint/run/run_result.c):
	 * its bytes being an archive make it file-not-a-model, never an
	 * archive to walk and rewrite. */
	const wl_file_kind *kind = wl_format_by_extension(file) ? NULL : wl_file_kind_of(in, n, file);
	if (kind && kind->archive && strcmp(file, "-") != 0) {
		wl_fixrun_archive(r, file, target, &lk, kind, in, n, r->items[i].entry);
		free(in);
		return;
	}
	if (kind) {
		wl_sw_abort(&lk);
		wl_fixrun_clear(r);
		fprintf(o->out, "%s: %s, not a model file; not changed\n", wl_esc(file), kind->title);
		t->clean++;
		free(in);
		return;
	}
	wl_fix_result res;
	if (wl_fixrun_bytes(r, file, file, in, n, &res) != 0) {
		wl_sw_abort(&lk);
		free(in);
		return;
	}
	char note[WL_FIXRUN_NOTE_MAX] = ""; /* where the repaired bytes went, when not to file itself */
	bool write_failed = r->writing && wl_fixrun_write(r, file, target, &lk, &res, in, n, note, sizeof note) != 0;
	wl_sw_abort(&lk);
	if (write_failed)
		t->errors++;
	wl_fixrun_account(r, file, n, &res, write_failed, note);
	wl_fix_result_free(&res);
	free(in);
}
