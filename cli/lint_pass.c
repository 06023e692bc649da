/*
 * lint_pass.c - one lint run over the PATH arguments (lint_pass.h): the
 * files collected, read and linted on worker threads, reported in order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/arena.h"
#include "core/escape.h"
#include "core/platform.h"
#include "archive_walk.h"
#include "lint_pass.h"
#include "pool.h"
#include "progress.h"
#include "walk.h"

/* Detached results (findings, no document) held per job in the reorder
 * buffer (cli/pool.h window). */
#define RESULTS_PER_JOB 16

struct wl_lint_pass {
	wl_lint_pass_opts o;
	wl_run *run;
	wl_pathlist files;
	wl_run_item *items;      /* per file, for the run */
	wl_pathlist base_files;  /* the base folders' model files */
	wl_progress pg;
};

static void clear_progress(void *ud)
{
	wl_lint_pass *p = ud;
	wl_progress_clear(&p->pg);
}

static void clear_for_report(void *ud)
{
	wl_lint_pass *p = ud;
	if (p->o.clear_for_report)
		wl_progress_clear(&p->pg);
}

wl_lint_pass *wl_lint_pass_new(const wl_catalog *cat, const wl_lint_pass_opts *o, bool *failed)
{
	*failed = false;
	wl_lint_pass *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->o = *o;
	wl_run_opts ro = o->run;
	ro.diag = o->diag;
	ro.before_diag = clear_progress;
	ro.before_report = clear_for_report;
	ro.ud = p;
	p->run = wl_run_new(cat, &ro, failed);
	if (!p->run) {
		free(p);
		return NULL;
	}
	return p;
}

void wl_lint_pass_free(wl_lint_pass *p)
{
	if (!p)
		return;
	wl_run_free(p->run);
	free(p->items);
	wl_pathlist_free(&p->files);
	wl_pathlist_free(&p->base_files);
	free(p);
}

wl_run *wl_lint_pass_run_of(wl_lint_pass *p)
{
	return p->run;
}

size_t wl_lint_pass_files(const wl_lint_pass *p)
{
	return p->files.count;
}

/* Worker thread: reads file i (an archive's entry: out of its archive; an
 * archive expanded into entries: its table only) and lints it. */
static void *lint_work(void *ud, size_t i)
{
	const wl_lint_pass *p = ud;
	const char *path = p->files.items[i];
	const wl_member *member = wl_pathlist_member(&p->files, i);
	uint8_t *bytes;
	uint64_t size, have;
	char err[512];
	if (member) {
		size_t len = 0;
		if (wl_member_read(p->o.tool, path, member, &bytes, &len, err, sizeof err) != 0)
			return wl_run_unread(err);
		have = size = len;
	} else if (wl_pathlist_archive(&p->files, i)) {
		if (wl_archive_item_read(p->o.tool, path, &bytes, &have, &size, err, sizeof err) != 0)
			return wl_run_unread(err);
	} else if (wl_run_read(path, &bytes, &size, err, sizeof err) != 0) {
		return wl_run_unread(err);
	} else {
		have = size;
	}
	return wl_run_lint(p->run, i, bytes, have, size);
}

static int lint_emit(void *ud, size_t i, void *result)
{
	wl_lint_pass *p = ud;
	wl_progress_show(&p->pg, i + 1, p->files.count, p->files.items[i]);
	return wl_run_emit(p->run, i, result);
}

static void lint_discard(void *ud, size_t i, void *result)
{
	(void)ud;
	(void)i;
	wl_run_result_free(result);
}

static void walk_error(void *ud, const char *path, int errnum)
{
	wl_lint_pass *p = ud;
	if (errnum == 0) {
		if (p->o.run.verbose)
			fprintf(p->o.diag, "%s: %s: skipped: a dangling link to a file %s would not lint\n", p->o.tool,
				wl_esc(path), p->o.tool);
		return;
	}
	fprintf(p->o.diag, "%s: %s: %s\n", p->o.tool, wl_esc(path), strerror(errnum));
	wl_run_note_unreadable(p->run, path);
}

/* Walks path into list; a path that cannot be read makes the exit status
 * 2.  -1 when out of memory. */
static int collect(wl_lint_pass *p, const char *path, wl_pathlist *list, wl_walk_memo *memo)
{
	int rc = wl_walk_collect_memo(path, memo, list, walk_error, p);
	if (rc > 0)
		wl_run_count_unreadable(p->run, (uint64_t)rc);
	return rc < 0 ? -1 : rc;
}

/* Is the cross-file check on for these PATHs and ndirs base folders? */
static bool xref_wanted(const wl_lint_pass *p, char **paths, int npaths, size_t ndirs)
{
	if (p->o.xref >= 0)
		return p->o.xref == 1;
	if (ndirs > 0)
		return true;
	for (int i = 0; i < npaths; i++) {
		struct stat st;
		if (wl_os_stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
			return true;
	}
	return false;
}

int wl_lint_pass_prepare(wl_lint_pass *p, char **paths, int npaths)
{
	const char *tool = p->o.tool;
	/* Named files are told from folders by their folders' listings. */
	wl_walk_memo *memo = npaths > 1 ? wl_walk_memo_new() : NULL;
	for (int i = 0; i < npaths; i++) {
		size_t before = p->files.count;
		int rc = collect(p, paths[i], &p->files, memo);
		if (rc < 0) {
			wl_walk_memo_free(memo);
			fprintf(p->o.diag, "%s: out of memory collecting files\n", tool);
			return -1;
		}
		if (rc == 0 && p->files.count == before)
			fprintf(p->o.diag, "%s: %s: no model files found (W3D, B3D, P3D)\n", tool, wl_esc(paths[i]));
	}
	wl_walk_memo_free(memo);
	/* Archives as folders: each followed by its model entries. */
	size_t n = p->files.count;
	if (wl_walk_expand_archives(&p->files) != 0 ||
	    (n = p->files.count, p->items = calloc(n ? n : 1, sizeof *p->items)) == NULL) {
		fprintf(p->o.diag, "%s: out of memory collecting files\n", tool);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const wl_member *m = wl_pathlist_member(&p->files, i);
		p->items[i] = (wl_run_item){ p->files.items[i], wl_pathlist_host(&p->files, i), m ? m->host : NULL,
					     m ? m->entry.path : NULL,
					     m ? (m->entry.packed ? -1 : (int64_t)m->entry.offset) : 0 };
	}
	int rc = wl_run_set_files(p->run, p->items, n);
	if (rc == -2)
		fprintf(p->o.diag, "%s: out of memory loading configurations\n", tool);
	if (rc != 0)
		return -1;
	const char *const *dirs;
	size_t ndirs = 0;
	rc = wl_run_base_dirs(p->run, &dirs, &ndirs);
	for (size_t i = 0; rc == 0 && i < ndirs; i++)
		rc = collect(p, dirs[i], &p->base_files, NULL) < 0 ? -1 : 0;
	if (rc != 0) {
		fprintf(p->o.diag, "%s: out of memory collecting the base folders\n", tool);
		return -1;
	}
	wl_run_set_base_files(p->run, (const char *const *)p->base_files.items, p->base_files.count);
	if (xref_wanted(p, paths, npaths, ndirs) && wl_run_xref_on(p->run) != 0) {
		fprintf(p->o.diag, "%s: out of memory\n", tool);
		return -1;
	}
	return 0;
}

int wl_lint_pass_run(wl_lint_pass *p, wl_reporter *rep, bool bare, bool hide_infos, uint64_t max_findings,
		     char **paths, int npaths)
{
	wl_run_start(p->run, rep, bare, hide_infos, max_findings);
	wl_progress_init(&p->pg, p->o.progress, p->files.count);
	/* Each worker holds one document at a time; the reorder buffer holds
	 * up to RESULTS_PER_JOB detached results per job, so that one large
	 * file does not stall the other workers. */
	unsigned jobs = p->o.jobs ? p->o.jobs : wl_pool_online_cpus();
	wl_mem_set_cap(wl_run_memory_cap(p->run, p->o.memory_cap));
	errno = 0;
	int rc = wl_pool_run(p->files.count, jobs, RESULTS_PER_JOB * (size_t)jobs, lint_work, lint_emit, lint_discard,
			     p);
	wl_progress_clear(&p->pg);
	if (rc == 0 && wl_run_holds(p->run))
		rc = wl_run_report_held(p->run, paths, npaths);
	return rc;
}
