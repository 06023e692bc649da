/*
 * run.c - a w3dfix run over many files (run.h): the run, its files, and
 * one file from the lock and the read to the write and the count (its
 * bytes repaired by run_bytes.c, an archive's entries by run_archive.c).
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
