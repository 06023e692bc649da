/*
 * main_w3dfix.c - the w3dfix front end: options, file collection, one
 * wl_fix_run() per file (fix/driver.h), report, atomic write.
 *
 * Writes only with --in-place or -o OUT, through core/safe_write.h: a
 * temporary file beside the target, fsync'ed and renamed over it, owner,
 * mode, extended attributes and ACLs kept, symbolic links followed, only
 * regular files replaced, files with other hard links (--break-links) and
 * read-only files (--force) refused, and a lock per target so that two runs
 * serialise: --in-place takes it before reading the file, so the second run
 * edits what the first one wrote.  --backup never replaces an older backup.
 * A write that fails or is refused is reported with the path and the
 * reason, counted as an error (status 2), never as written or fixed.  -o
 * DIR with two inputs mapped to one output name is refused before anything
 * is written.  A file whose verification fails is not written (--in-place)
 * or written unchanged (-o, so the output folder is complete), and
 * reported.  "-" reads standard input (not with --in-place; -o names a
 * file then).  An archive (.big, .pbo) is read once (fix_archive): its
 * model entries are repaired from its bytes and the archive is written
 * with them replaced (core/archive/archive.h wl_archive_rewrite) through
 * the same write path; one with nothing to repair is not rewritten.
 *
 * Exit status (docs/w3dfix.md):
 *   0  nothing to fix, or everything fixed and verified, and no finding at
 *      or above the failing severity remains
 *   1  findings at or above the failing severity remain, a verification
 *      failed, or (without --in-place / -o) there is something to fix
 *   2  usage, configuration, I/O or internal error
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file_io.h"
#include "core/filekind.h"
#include "core/format.h"
#include "lint/catalog.h"
#include "opts.h"
#include "archive_walk.h"
#include "walk.h"
#include "lint/config.h"
#include "lint/lint.h"
#include "lint/report.h"
#include "fix/driver.h"
#include "core/arena.h"
#include "core/safe_write.h"
#include "progress.h"
#include "select.h"

typedef struct opts {
	bool in_place, backup, dry_run, diff, unsafe, quiet, break_links, readonly_ok;
	unsigned fold;        /* edits per rule and pattern shown (0: all) */
	uint64_t memory_cap;  /* --memory-cap bytes, 0 when not given */
	const char *output;
	const char *config;
	const char **select, **ignore, **force;
	size_t nselect, nignore, nforce;
	wl_cli_sel sel;       /* --target (its rule lists stay empty) */
} opts;

/* Frees the option lists (their strings are argv's or static). */
static void opts_release(opts *o)
{
	free(o->select);
	free(o->ignore);
	free(o->force);
	wl_cli_sel_free(&o->sel);
}

static void list_fixes(FILE *out)
{
	size_t n;
	const wl_fixer *const *fx = wl_fixers(&n);
	int width = 0; /* the longest id: the columns line up */
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(fx[i]->id) > width)
			width = (int)strlen(fx[i]->id);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%-*s %-6s ", width, fx[i]->id, fx[i]->unsafe ? "unsafe" : "safe");
		for (const wl_rule_id *r = fx[i]->rules; r && *r != WL_RULE_NONE; r++)
			fprintf(out, "%s%s", r == fx[i]->rules ? "" : ",", wl_rule_name(*r));
		fprintf(out, "\n    %s\n", fx[i]->summary);
	}
}

static int push(const char ***list, size_t *n, const char *s)
{
	const char **nl = realloc(*list, (*n + 1) * sizeof *nl);
	if (!nl)
		return -1;
	*list = nl;
	nl[(*n)++] = s;
	return 0;
}


static int mkdirs(const char *dir)
{
	char buf[4096];
	if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
		return -1;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

static void print_diff(const wl_fix_result *r, size_t in_len)
{
	/* one line per chunk path: edit count and rules, in first-edit order */
	for (size_t i = 0; i < r->change_count; i++) {
		const wl_fix_change *c = &r->changes[i];
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(r->changes[j].path, c->path) == 0;
		if (seen)
			continue;
		size_t count = 0;
		printf("  %s: ", c->path);
		for (size_t j = i; j < r->change_count; j++) {
			if (strcmp(r->changes[j].path, c->path) != 0)
				continue;
			bool dup = false;
			for (size_t k = i; k < j && !dup; k++)
				dup = strcmp(r->changes[k].path, c->path) == 0 && r->changes[k].rule &&
				      r->changes[j].rule && strcmp(r->changes[k].rule, r->changes[j].rule) == 0;
			if (!dup)
				printf("%s%s", count ? ", " : "", r->changes[j].rule ? r->changes[j].rule : "-");
			count++;
		}
		printf(" (%zu edit%s)\n", count, count == 1 ? "" : "s");
	}
	printf("  file size: %zu -> %zu bytes\n", in_len, r->out_len);
}

/* The output path of file (found under arg) for -o, into buf; the
 * folders it needs are made by write_result. */
static int out_path(const opts *o, const char *arg, const char *file, bool single, char *buf,
		    size_t cap)
{
	struct stat st;
	bool out_is_dir = stat(o->output, &st) == 0 && S_ISDIR(st.st_mode);
	if (single && !out_is_dir)
		return snprintf(buf, cap, "%s", o->output) < (int)cap ? 0 : -1;
	const char *rel;
	size_t al = strlen(arg);
	if (strcmp(arg, file) != 0 && strncmp(file, arg, al) == 0) {
		rel = file + al;
		while (*rel == '/')
			rel++;
	} else {
		rel = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	}
	if (snprintf(buf, cap, "%s/%s", o->output, rel) >= (int)cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

static unsigned sw_flags(const opts *o)
{
	return (o->break_links ? WL_SW_BREAK_LINKS : 0) | (o->readonly_ok ? WL_SW_READONLY_OK : 0);
}

/* Prints why path could not be written (core/safe_write.h). */
static void say_write_failed(const char *path, const wl_sw *w, int rc)
{
	char msg[WL_SW_PATH_MAX + 256];
	wl_sw_message(msg, sizeof msg, "w3dfix", path, w, rc, errno, "--break-links", "--force");
	fprintf(stderr, "%s\n", msg);
}

/* Writes what -o / --in-place asks for file (read as in[0..n), under the
 * lock lk for --in-place) and its result r; target: the -o path.  note
 * gets " to TARGET (through the symbolic link)" or ", the original kept as
 * NAME" for the per-file line.  On failure prints the path that could not
 * be written and why, and returns -1.  Releases lk. */
static int write_result(const opts *o, const char *file, const char *target, wl_sw *lk,
			const wl_fix_result *r, const uint8_t *in, size_t n, char *note, size_t cap)
{
	bool repaired = r->verified && r->changed;
	const uint8_t *bytes = repaired ? r->out : in;
	size_t len = repaired ? r->out_len : n;
	struct stat st;
	mode_t mode = strcmp(file, "-") != 0 && stat(file, &st) == 0 ? (st.st_mode & 07777) : 0666;
	if (o->output) {
		char dir[WL_SW_PATH_MAX];
		snprintf(dir, sizeof dir, "%s", target);
		if (mkdirs(dirname(dir)) != 0) {
			fprintf(stderr, "w3dfix: %s: cannot make the folder: %s\n", target, strerror(errno));
			return -1;
		}
		wl_sw w;
		int rc = wl_sw_write_file(&w, target, sw_flags(o), mode, bytes, len);
		if (rc != WL_SW_OK)
			say_write_failed(target, &w, rc);
		return rc == WL_SW_OK ? 0 : -1;
	}
	if (!repaired) {
		wl_sw_abort(lk);
		return 0;
	}
	char bak[WL_SW_PATH_MAX + 16];
	int rc = wl_sw_open(lk, mode);
	const char *failed = file; /* the path named when something fails */
	if (rc == WL_SW_OK && o->backup) {
		rc = wl_sw_backup(lk, in, n, bak, sizeof bak);
		failed = bak; /* the name it tried last */
	}
	if (rc == WL_SW_OK) {
		failed = lk->path;
		rc = wl_sw_write(lk, bytes, len);
	}
	if (rc == WL_SW_OK)
		rc = wl_sw_commit(lk);
	if (rc != WL_SW_OK) {
		say_write_failed(failed, lk, rc);
		wl_sw_abort(lk);
		return -1;
	}
	if (lk->through_link)
		snprintf(note, cap, " to %s (through the symbolic link)", lk->path);
	if (o->backup)
		snprintf(note + strlen(note), cap - strlen(note), ", the original kept as %s", bak);
	return 0;
}

typedef struct out_name {
	const char *target, *source;
} out_name;

static int cmp_out_name(const void *a, const void *b)
{
	return strcmp(((const out_name *)a)->target, ((const out_name *)b)->target);
}

/* The -o output path of every file, in walk order, into targets (malloc'd
 * strings).  -1 after printing why: a name too long, or two inputs that map
 * to the same output name (the second would replace the first). */
static int out_targets(const opts *o, char **args, int nargs, const wl_pathlist *lists, bool single,
		       char **targets)
{
	size_t n = 0;
	for (int a = 0; a < nargs; a++)
		for (size_t i = 0; i < lists[a].count; i++, n++) {
			char buf[WL_SW_PATH_MAX];
			if (out_path(o, args[a], lists[a].items[i], single, buf, sizeof buf) != 0) {
				fprintf(stderr, "w3dfix: %s: output name too long; nothing written\n", lists[a].items[i]);
				return -1;
			}
			if (!(targets[n] = strdup(buf))) {
				fprintf(stderr, "w3dfix: out of memory\n");
				return -1;
			}
		}
	out_name *names = malloc((n ? n : 1) * sizeof *names);
	if (!names) {
		fprintf(stderr, "w3dfix: out of memory\n");
		return -1;
	}
	size_t k = 0, m = 0;
	for (int a = 0; a < nargs; a++)
		for (size_t i = 0; i < lists[a].count; i++, k++)
			if (targets[k])
				names[m++] = (out_name){ targets[k], lists[a].items[i] };
	n = m;
	qsort(names, n, sizeof *names, cmp_out_name);
	int rc = 0;
	for (size_t i = 1; i < n; i++)
		if (strcmp(names[i - 1].target, names[i].target) == 0) {
			fprintf(stderr, "w3dfix: %s and %s would both be written to %s; nothing written\n",
				names[i - 1].source, names[i].source, names[i].target);
			rc = -1;
		}
	free(names);
	return rc;
}

/* "-" (standard input) where it cannot be: with --in-place, or with -o
 * naming a folder (no name to give it there).  Prints why. */
static bool stdin_misused(const opts *o, char **args, int nargs, bool single)
{
	for (int a = 0; a < nargs; a++) {
		if (strcmp(args[a], "-") != 0)
			continue;
		if (o->in_place) {
			fprintf(stderr, "w3dfix: -: standard input cannot be written in place (use -o FILE)\n");
			return true;
		}
		struct stat st;
		if (o->output && (!single || (stat(o->output, &st) == 0 && S_ISDIR(st.st_mode)))) {
			fprintf(stderr, "w3dfix: -: standard input needs -o FILE, the only input, not a folder\n");
			return true;
		}
	}
	return false;
}

typedef struct totals {
	size_t files, fixed, fixable, clean, remaining, failed, errors, edits;
	size_t before, after; /* findings of every severity, capped ones
	                         included (what w3dlint counts) */
	char **left;          /* remaining lines "FILE (N ...)" (malloc) */
	size_t hint_findings; /* left findings an unused fixer repairs */
	const char *hint_fixers[8];
	size_t hint_fixer_count;
} totals;

/* The option table and help (below main's option enum). */
static const wl_cli_doc DOC;

static void totals_release(totals *t)
{
	for (size_t i = 0; i < t->remaining; i++)
		free(t->left[i]);
	free(t->left);
}

/* Counts a file whose findings at the failing severity stay, for the list
 * after the summary line. */
static void keep_left(totals *t, const char *file, size_t n)
{
	char **nl = realloc(t->left, (t->remaining + 1) * sizeof *nl);
	char *line = malloc(strlen(file) + 64);
	if (!nl || !line) {
		free(line);
		if (nl)
			t->left = nl;
		t->errors++; /* out of memory: the list is incomplete */
		return;
	}
	sprintf(line, "%s (%zu finding%s at the failing severity)", file, n, n == 1 ? "" : "s");
	t->left = nl;
	nl[t->remaining++] = line;
}

static void add_hints(totals *t, const wl_fix_result *r)
{
	t->hint_findings += r->hint_findings;
	for (size_t i = 0; i < r->hint_fixer_count; i++) {
		bool seen = false;
		for (size_t j = 0; j < t->hint_fixer_count && !seen; j++)
			seen = strcmp(t->hint_fixers[j], r->hint_fixers[i]) == 0;
		if (!seen && t->hint_fixer_count < sizeof t->hint_fixers / sizeof t->hint_fixers[0])
			t->hint_fixers[t->hint_fixer_count++] = r->hint_fixers[i];
	}
}

/* The edits of r in offset order (the order they were made among equal
 * offsets). */
static const wl_fix_change *sort_base;
static int by_offset(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	uint64_t x = sort_base[i].offset, y = sort_base[j].offset;
	return x < y ? -1 : x > y ? 1 : (i > j) - (i < j);
}

/* Lists the edits of r in offset order, folded as w3dlint folds findings
 * (lint/report.h wl_report_fold_plan): at most fold edits of the same rule
 * and message pattern, then one line with the count of the others (fold 0:
 * every edit). */
static void print_edits(const char *file, const wl_fix_result *r, unsigned fold)
{
	size_t n = r->change_count;
	size_t *idx = malloc((n ? n : 1) * sizeof *idx);
	wl_finding *items = calloc(n ? n : 1, sizeof *items);
	wl_fold_entry *plan = malloc((n ? n : 1) * sizeof *plan);
	for (size_t i = 0; idx && i < n; i++)
		idx[i] = i;
	if (idx) {
		sort_base = r->changes;
		qsort(idx, n, sizeof *idx, by_offset);
	}
	for (size_t k = 0; items && k < n; k++) {
		const wl_fix_change *c = &r->changes[idx ? idx[k] : k];
		items[k].rule = c->rule ? c->rule : c->fixer;
		items[k].message = c->what;
		items[k].offset = c->offset;
	}
	bool folding = fold && items && plan && wl_report_fold_plan(items, n, plan) == 0;
	for (size_t k = 0; k < n; k++) {
		const wl_fix_change *c = &r->changes[idx ? idx[k] : k];
		if (folding && plan[k].rank > fold)
			continue;
		if (folding && plan[k].rank == fold) {
			char pat[256];
			wl_report_pattern(c->what, pat, sizeof pat);
			printf("%s:0x%" PRIX64 ": %s: %" PRIu32 " more edits like \"%s\" [%s] (up to 0x%" PRIX64
			       "; --fold 0 shows them)\n",
			       file, c->offset, c->fixer, plan[k].total - fold, pat, c->rule ? c->rule : "-", plan[k].last);
			continue;
		}
		printf("%s:0x%" PRIX64 ": %s: %s [%s] (%s)\n", file, c->offset, c->fixer, c->what,
		       c->rule ? c->rule : "-", c->path);
	}
	free(plan);
	free(items);
	free(idx);
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

/* Runs the fixers on file's bytes in[0..n) into *r and prints the edits
 * (-n, --diff, the default listing) and the verification problems.
 * Returns -1 after printing why when the run failed (r freed, counted as
 * an error). */
static int run_fix(const opts *o, const wl_fix_options *fo, const char *file, const uint8_t *in, size_t n,
		   wl_fix_result *r, totals *t, wl_progress *pg)
{
	/* A read-only format or file (P3D ODOL): said plainly, then run as
	 * any file so that -o still copies it and its findings still count. */
	const wl_format *fmt = wl_format_detect(in, n, file);
	const char *ro;
	if (!wl_format_repairable(fmt, in, n, &ro) && !o->quiet) {
		wl_progress_clear(pg);
		printf("%s: not repaired: w3dfix never changes these %s files (%s); w3dlint checks "
		       "them\n",
		       file, fmt->title, ro);
	}
	/* the file's targets as w3dlint finds them: --target, else the mod's
	 * layout and the file itself (lint/lint.h) */
	wl_lint_opts lo = { &o->sel.rules, wl_target_layout(file) };
	wl_fix_options fo_file = *fo;
	fo_file.lint = &lo;
	int run_rc = wl_fix_run(&fo_file, file, in, n, r);
	wl_progress_clear(pg);
	if (run_rc != 0) {
		const char *why = memory_refusal(fo, file, in, n);
		if (why)
			fprintf(stderr, "w3dfix: %s: not repaired, left unchanged: %s\n", file, why);
		else
			fprintf(stderr, "w3dfix: %s: out of memory or internal error\n", file);
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
		print_edits(file, r, o->fold);
	if (o->diff && r->changed) {
		printf("%s:\n", file);
		print_diff(r, n);
	}
	for (size_t i = 0; i < r->problem_count; i++)
		fprintf(stderr, "w3dfix: %s: verification failed: %s\n", file, r->problems[i]);
	if (!r->verified)
		t->failed++;
	return 0;
}

/* Counts file's result r (its input n bytes) once its write is done (or
 * failed: counted as an error by the caller, or none was asked for) and
 * prints its lines; note: where the repaired bytes went. */
static void account(const opts *o, totals *t, const char *file, size_t n, const wl_fix_result *r, bool writing,
		    bool write_failed, const char *note)
{
	bool ok = r->verified;
	bool repaired = r->changed && ok && !write_failed;
	if (repaired && writing)
		t->fixed++;
	else if (repaired)
		t->fixable++;
	if (!r->changed)
		t->clean++;
	/* what stays: the repair's result, or the input when it is not
	 * written because its verification or its write failed */
	size_t left = write_failed ? r->failing_before : r->failing_after;
	if (left)
		keep_left(t, file, left);
	if (!write_failed)
		add_hints(t, r);
	/* The bytes the repair keeps and drops, also under -q (issue 17): for
	 * each file whose repair drops bytes or is refused. */
	size_t kept = repaired ? r->out_len : n;
	if (r->changed && (kept < n || !ok))
		printf("%s: bytes: %zu kept, %zu dropped of %zu%s\n", file, kept, n - (kept < n ? kept : n), n,
		       ok ? "" : " (not repaired: the original kept)");
	if (!o->quiet && repaired)
		printf("%s: %zu edit(s)%s%s, %zu finding(s) before, %zu after, %zu finding(s) at the "
		       "failing severity before, %zu after\n",
		       file, r->change_count,
		       writing ? " written" : o->dry_run ? " (dry run)" : " (not written: use --in-place or -o)",
		       note, r->findings_before, r->findings_after, r->failing_before, r->failing_after);
}

/* One model entry of an archive being repaired. */
typedef struct entry_fix {
	char *item;          /* "ARCHIVE:PATH" (malloc) */
	size_t index;        /* in the archive's table */
	size_t len;          /* its bytes, unpacked */
	wl_fix_result r;
	bool ran;
} entry_fix;

/* Repairs the model entries of archive file (read as in[0..n), under the
 * lock lk for --in-place) and writes the archive with the repaired ones
 * replaced (core/archive/archive.h wl_archive_rewrite) to target (-o) or
 * over itself (--in-place).  Nothing repaired: -o copies it unchanged,
 * --in-place leaves it alone (not rewritten).  A damaged archive
 * (wl_archive_unwritable) is never written: the original stays. */
static void fix_archive(const opts *o, const wl_fix_options *fo, const char *file, const char *target,
			wl_sw *lk, const wl_file_kind *kind, const uint8_t *in, size_t n, totals *t, wl_progress *pg)
{
	bool writing = (o->in_place || o->output) && !o->dry_run;
	wl_archive_kind ak = WL_ARCHIVE_BIG;
	wl_archive_kind_of(kind->id, &ak);
	wl_doc *d = wl_archive_read(ak, file, in, n, WL_ARCHIVE_FULL);
	const wl_archive *a = d && !d->oom ? d->model : NULL;
	entry_fix *ef = a ? calloc(a->count ? a->count : 1, sizeof *ef) : NULL;
	wl_archive_patch *patch = a ? calloc(a->count ? a->count : 1, sizeof *patch) : NULL;
	if (!ef || !patch) {
		wl_progress_clear(pg);
		fprintf(stderr, "w3dfix: %s: out of memory\n", file);
		t->errors++;
		free(ef);
		free(patch);
		wl_doc_free(d);
		return;
	}
	size_t ne = 0, np = 0;
	for (size_t i = 0; i < a->count; i++) {
		const wl_archive_entry *e = &a->entries[i];
		if (!wl_archive_model_entry(e, in))
			continue;
		entry_fix *x = &ef[ne++];
		x->index = i;
		x->item = malloc(strlen(file) + strlen(e->path) + 2);
		uint8_t *own = NULL;
		char why[256];
		if (!x->item || (e->packed && wl_archive_unpack(e, in + e->offset, &own, why, sizeof why) != 0)) {
			fprintf(stderr, "w3dfix: %s: %s: out of memory\n", file, e->path);
			t->errors++;
			continue;
		}
		sprintf(x->item, "%s:%s", file, e->path);
		t->files++;
		x->len = (size_t)e->size;
		x->ran = run_fix(o, fo, x->item, own ? own : in + e->offset, x->len, &x->r, t, pg) == 0;
		free(own);
		if (x->ran && x->r.changed && x->r.verified)
			patch[np++] = (wl_archive_patch){ i, x->r.out, x->r.out_len };
	}
	char note[2 * WL_SW_PATH_MAX + 64] = "";
	bool write_failed = false;
	const wl_finding *bad = np && writing ? wl_archive_unwritable(d) : NULL;
	if (bad) {
		wl_msgbuf mb = { 0 };
		fprintf(stderr,
			"w3dfix: %s: not written: the archive is damaged (%s at 0x%" PRIX64 ": %s); its %zu repaired "
			"entr%s not written, the original kept\n",
			file, bad->rule, bad->offset, wl_finding_message(bad, &mb), np, np == 1 ? "y is" : "ies are");
		wl_msgbuf_free(&mb);
		write_failed = true;
		t->errors++;
	} else if (writing) {
		uint8_t *out = NULL;
		size_t len = 0;
		char why[512];
		if (np && wl_archive_rewrite(d, patch, np, &out, &len, why, sizeof why) != 0) {
			fprintf(stderr, "w3dfix: %s: not written: %s; the original kept\n", file, why);
			write_failed = true;
			t->errors++;
		} else {
			wl_fix_result whole = { .out = out, .out_len = len, .changed = np > 0, .verified = true };
			write_failed = write_result(o, file, target, lk, &whole, in, n, note, sizeof note) != 0;
			if (write_failed)
				t->errors++;
		}
		free(out);
	}
	wl_sw_abort(lk);
	for (size_t k = 0; k < ne; k++) {
		if (ef[k].ran) {
			/* an entry's write is its archive's: a failure counted once, above */
			account(o, t, ef[k].item, ef[k].len, &ef[k].r, writing, write_failed && ef[k].r.changed, note);
			wl_fix_result_free(&ef[k].r);
		}
		free(ef[k].item);
	}
	if (!o->quiet) {
		wl_progress_clear(pg);
		const char *what = !writing ? (np ? "not written (use --in-place or -o)" : "nothing to repair")
				   : write_failed ? "not written, the original kept"
				   : np            ? (o->in_place ? "rewritten" : "written")
				   : o->in_place   ? "nothing to repair, not rewritten"
						   : "nothing to repair, copied unchanged";
		printf("%s: %s, %zu model entr%s, %zu repaired: %s%s%s\n", file, kind->title, ne, ne == 1 ? "y" : "ies",
		       np, what, writing && !write_failed && o->output ? " to " : "",
		       writing && !write_failed && o->output ? target : note);
	}
	t->clean += np == 0;
	free(ef);
	free(patch);
	wl_doc_free(d);
}

static void fix_one(const opts *o, const wl_fix_options *fo, const char *file, const char *target, totals *t,
		    wl_progress *pg)
{
	uint8_t *in;
	size_t n;
	t->files++;
	/* --in-place: the lock first, then the read, so that a run waiting
	 * for another edits what that one wrote. */
	wl_sw lk = { .lock_fd = -1, .fd = -1, .slot = -1 };
	bool writing = (o->in_place || o->output) && !o->dry_run;
	if (o->in_place && writing) {
		int rc = wl_sw_lock(&lk, file, sw_flags(o));
		if (rc != WL_SW_OK) {
			wl_progress_clear(pg);
			say_write_failed(file, &lk, rc);
			t->errors++;
			return;
		}
	}
	if (wl_cli_read_input(&DOC, file, &in, &n) != 0) {
		wl_sw_abort(&lk);
		wl_progress_clear(pg);
		t->errors++;
		return;
	}
	/* An archive: its model entries repaired and the archive rewritten
	 * with them.  An image or text file (core/filekind.h): one line,
	 * never changed, never written. */
	const wl_file_kind *kind = wl_file_kind_of(in, n, file);
	if (kind && kind->archive && strcmp(file, "-") != 0) {
		fix_archive(o, fo, file, target, &lk, kind, in, n, t, pg);
		free(in);
		return;
	}
	if (kind) {
		wl_sw_abort(&lk);
		wl_progress_clear(pg);
		printf("%s: %s, not a model file; not changed\n", file, kind->title);
		t->clean++;
		free(in);
		return;
	}
	wl_fix_result r;
	if (run_fix(o, fo, file, in, n, &r, t, pg) != 0) {
		wl_sw_abort(&lk);
		free(in);
		return;
	}
	char note[2 * WL_SW_PATH_MAX + 64] = ""; /* where the repaired bytes went, when not to file itself */
	bool write_failed = writing && write_result(o, file, target, &lk, &r, in, n, note, sizeof note) != 0;
	wl_sw_abort(&lk);
	if (write_failed)
		t->errors++;
	account(o, t, file, n, &r, writing, write_failed, note);
	wl_fix_result_free(&r);
	free(in);
}

static void walk_error(void *ud, const char *path, int errnum)
{
	(void)ud;
	if (errnum == 0) /* a dangling link to a file it would not repair */
		return;
	fprintf(stderr, "w3dfix: %s: %s\n", path, strerror(errnum));
}

enum { OPT_LIST_FIXES = WL_OPT_LONG_ONLY, OPT_REBUILD_AABTREE, OPT_FIX, OPT_BREAK_LINKS, OPT_FORCE, OPT_FOLD,
       OPT_TARGET, OPT_MEMORY_CAP };

/* The option table: drives getopt_long, --help and --man (cli/opts.h).
 * --fix has no short letter: -f is --format in w3dlint. */
static const wl_opt OPTS[] = {
	{ "in-place", no_argument, 'i', NULL, "write each repaired file over itself (temporary file, then rename)" },
	{ "output", required_argument, 'o', "OUT",
	  "write repaired files to OUT: a file for one input file (or archive), else a folder mirroring each "
	  "PATH's files (every file is written; an archive with its repaired model entries replaced)" },
	{ "backup", no_argument, 'b', NULL, "with --in-place, keep the original as FILE.bak" },
	{ "break-links", no_argument, OPT_BREAK_LINKS, NULL,
	  "write a file that has other hard links (this name gets the new file, the others keep the old one); "
	  "without it such a file is reported and left alone" },
	{ "force", no_argument, OPT_FORCE, NULL,
	  "write over read-only files (no write permission bit, e.g. 0444) too, keeping their mode; without it "
	  "they are reported and left alone" },
	{ "dry-run", no_argument, 'n', NULL, "list the edits (chunk path, rule, what: old -> new); write nothing" },
	{ "fold", required_argument, OPT_FOLD, "N",
	  "list at most N edits of the same rule and message pattern per file, then one line with the count "
	  "of the others, as w3dlint folds findings (default 5; 0 lists every edit)" },
	{ "target", required_argument, OPT_TARGET, "TARGET",
	  "the engines the files are for, as w3dlint --target (default auto): the findings counted before "
	  "and after, and the ones repaired, are those w3dlint reports for them" },
	{ "diff", no_argument, 'd', NULL, "per-chunk summary of the edits and the size change" },
	{ "select", required_argument, 's', "LIST",
	  "repair only these rule ids or fixer ids (comma-separated globs)" },
	{ "ignore", required_argument, 'I', "LIST", "do not repair these rule ids or fixer ids (comma-separated globs)" },
	{ "unsafe", no_argument, 'u', NULL, "also run the unsafe fixers" },
	{ "fix", required_argument, OPT_FIX, "ID", "run fixer ID even if unsafe (repeatable)" },
	{ "rebuild-aabtree", no_argument, OPT_REBUILD_AABTREE, NULL, "same as --fix rebuild-aabtree" },
	{ "config", required_argument, 'c', "FILE",
	  "lint with this configuration (severities, parameters, fail-on, memory-cap)" },
	{ "memory-cap", required_argument, OPT_MEMORY_CAP, "SIZE",
	  "the file being repaired holds at most SIZE bytes of memory (a count with K, M, G or T, e.g. 512M; "
	  "default 2G, or the configuration's memory-cap), as in w3dlint: a file that needs more is reported "
	  "and left unchanged, never a crash" },
	{ "quiet", no_argument, 'q', NULL, "print only problems, the bytes line of each file that loses bytes, and the summary line" },
	{ "list-fixes", no_argument, OPT_LIST_FIXES, NULL, "list the fixers: id, safe/unsafe, rule ids, summary" },
	WL_OPT_COMMON,
};
#define OPT_COUNT (sizeof OPTS / sizeof OPTS[0])

static const wl_cli_doc DOC = {
	"w3dfix",
	"[OPTION]... PATH...",
	"repair W3D, B3D and MLOD P3D model files (ODOL: read-only)",
	"Repair W3D (.w3d .wlt .wht .wha .wtm), B3D (.b3d) and MLOD P3D (.p3d)\n"
	"files: runs the safe fixers (and the unsafe ones with --unsafe), then\n"
	"re-reads the result and verifies it.  Binarised ODOL P3D files are read and\n"
	"counted but never changed.  PATH is a file or a folder (searched\n"
	"recursively).  The findings counted before and after are the ones w3dlint\n"
	"reports for the same targets (--target).\n"
	"Nothing is written without --in-place or -o.  Archives (.big, .pbo) are read\n"
	"once: their model entries are repaired (named ARCHIVE:PATH) and the archive is\n"
	"written with each repaired entry replaced, every other byte of every other\n"
	"entry unchanged; one with nothing to repair is not rewritten, a damaged one is\n"
	"left alone (docs/archives.md).  Images and text are never changed.",
	OPTS,
	OPT_COUNT,
	"  w3dfix --dry-run mod/                 list the edits, write nothing\n"
	"  w3dfix --in-place --backup mod/       repair in place, keep FILE.bak\n"
	"  w3dfix -o fixed/ mod/                 write repaired copies to fixed/\n"
	"  w3dfix -o fixed.big mod.big           the archive with its model entries repaired\n"
	"  w3dfix --fix rebuild-aabtree -i tank.w3d   also run one unsafe fixer\n"
	"  w3dfix -n --target luanti mods/mobs/models/ what a Luanti mod would get\n",
	"  0  nothing to fix, or everything fixed and verified, and no finding at or above\n"
	"     the failing severity (error, or the configuration's fail-on) remains\n"
	"  1  such findings remain, a verification failed (the original is left in place),\n"
	"     or, without --in-place/-o, there is something to fix\n"
	"  2  usage, configuration, I/O or internal error\n",
	"Details: docs/w3dfix.md.\n",
};

int main(int argc, char **argv)
{
	struct option longs[OPT_COUNT + 1];
	char shorts[2 * OPT_COUNT + 2];
	wl_cli_getopt_tables(&DOC, longs, shorts);
	wl_sw_signals_init();
	opts o = { 0 };
	o.fold = 5;
	int ch, status = 0;
	bool list = false;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		int rc = 0;
		switch (ch) {
		case 'i': o.in_place = true; break;
		case 'o': o.output = optarg; break;
		case 'b': o.backup = true; break;
		case OPT_BREAK_LINKS: o.break_links = true; break;
		case OPT_FORCE: o.readonly_ok = true; break;
		case 'n': o.dry_run = true; break;
		case 'd': o.diff = true; break;
		case 's': rc = wl_cli_split_list(&o.select, &o.nselect, optarg); break;
		case 'I': rc = wl_cli_split_list(&o.ignore, &o.nignore, optarg); break;
		case 'u': o.unsafe = true; break;
		case OPT_FIX: rc = push(&o.force, &o.nforce, optarg); break;
		case OPT_REBUILD_AABTREE: rc = push(&o.force, &o.nforce, "rebuild-aabtree"); break;
		case 'c': o.config = optarg; break;
		case OPT_MEMORY_CAP:
			if (wl_mem_parse_size(optarg, &o.memory_cap)) {
				fprintf(stderr, "w3dfix: --memory-cap needs a size (bytes, or a count with K, M, G or T, "
						"e.g. 512M), not '%s'\n", optarg);
				opts_release(&o);
				return 2;
			}
			break;
		case 'q': o.quiet = true; break;
		case OPT_LIST_FIXES: list = true; break;
		case OPT_FOLD: {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (end == optarg || *end || optarg[0] == '-' || v > 1000000) {
				fprintf(stderr, "w3dfix: --fold needs a whole number from 0 to 1000000, not '%s'\n", optarg);
				opts_release(&o);
				return 2;
			}
			o.fold = (unsigned)v;
			break;
		}
		case OPT_TARGET:
			if (wl_cli_sel_target(&o.sel, "w3dfix", "--target", optarg) != 0) {
				opts_release(&o);
				return 2;
			}
			break;
		default: opts_release(&o); return wl_cli_common_option(&DOC, ch, argv);
		}
		if (rc != 0) {
			fprintf(stderr, "w3dfix: out of memory\n");
			opts_release(&o);
			return 2;
		}
	}
	if (list) {
		list_fixes(stdout);
		opts_release(&o);
		return wl_cli_flush_stdout(&DOC) == 0 ? 0 : 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "w3dfix: no PATH given\nTry 'w3dfix --help' for more information.\n");
		opts_release(&o);
		return 2;
	}
	if (o.in_place && o.output) {
		fprintf(stderr, "w3dfix: --in-place and -o exclude each other\n");
		opts_release(&o);
		return 2;
	}
	if (o.backup && !o.in_place) {
		fprintf(stderr, "w3dfix: --backup needs --in-place\n");
		opts_release(&o);
		return 2;
	}
	size_t nfix;
	const wl_fixer *const *fx = wl_fixers(&nfix);
	for (size_t i = 0; i < o.nforce; i++) {
		bool known = false;
		for (size_t j = 0; j < nfix && !known; j++)
			known = strcmp(fx[j]->id, o.force[i]) == 0;
		if (!known) {
			fprintf(stderr, "w3dfix: unknown fixer '%s' (see --list-fixes)\n", o.force[i]);
			opts_release(&o);
			return 2;
		}
	}
	char err[512];
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	if (!cat) {
		fprintf(stderr, "w3dfix: rule catalogue: %s\n", err);
		opts_release(&o);
		return 2;
	}
	wl_config *cfg = NULL;
	if (o.config && !(cfg = wl_config_load(cat, o.config, err, sizeof err))) {
		fprintf(stderr, "w3dfix: %s\n", err);
		wl_catalog_free(cat);
		opts_release(&o);
		return 2;
	}
	/* the shared memory cap (core/arena.h): --memory-cap, else the
	 * configuration's memory-cap, else the default */
	wl_mem_set_cap(o.memory_cap ? o.memory_cap : wl_config_memory_cap(cfg));
	/* The rules named by --select and the rules of the fixers named by
	 * --fix run in the lint even when outside the default set or off for
	 * the file's targets (as w3dlint --extend-select): asking for a repair
	 * names its rule. */
	for (size_t i = 0; i < o.nselect; i++)
		if (push(&o.sel.extend, &o.sel.nextend, o.select[i]) != 0)
			status = 2;
	for (size_t i = 0; i < o.nforce; i++)
		for (size_t j = 0; j < nfix; j++)
			if (strcmp(fx[j]->id, o.force[i]) == 0)
				for (const wl_rule_id *r = fx[j]->rules; r && *r != WL_RULE_NONE; r++)
					if (push(&o.sel.extend, &o.sel.nextend, wl_rule_name(*r)) != 0)
						status = 2;
	o.sel.rules.extend_select = o.sel.extend;
	o.sel.rules.extend_count = o.sel.nextend;
	if (status) {
		fprintf(stderr, "w3dfix: out of memory\n");
		wl_config_free(cfg);
		wl_catalog_free(cat);
		opts_release(&o);
		return 2;
	}
	wl_fix_options fo = { cat, cfg, o.unsafe, o.force, o.nforce,
			      { o.select, o.nselect, o.ignore, o.nignore }, false };
	totals t = { 0 };
	size_t nfiles = 0;
	wl_pathlist *lists = calloc((size_t)(argc - optind), sizeof *lists);
	if (!lists) {
		fprintf(stderr, "w3dfix: out of memory\n");
		wl_config_free(cfg);
		wl_catalog_free(cat);
		opts_release(&o);
		return 2;
	}
	for (int a = optind; a < argc; a++) {
		int rc = wl_walk_collect(argv[a], &lists[a - optind], walk_error, NULL);
		if (rc != 0)
			t.errors += rc < 0 ? 1 : (size_t)rc;
		/* archives are items of their own: fix_archive reads each once,
		 * its model entries from its bytes */
		nfiles += lists[a - optind].count;
	}
	bool single = nfiles == 1 && argc - optind == 1;
	{
		struct stat st;
		if (single && stat(argv[optind], &st) == 0 && S_ISDIR(st.st_mode))
			single = false;
	}
	bool writing = (o.in_place || o.output) && !o.dry_run;
	/* -o: every output name, checked before anything is written */
	char **targets = writing && o.output ? calloc(nfiles ? nfiles : 1, sizeof *targets) : NULL;
	bool refused = (writing && o.output &&
			(!targets || out_targets(&o, argv + optind, argc - optind, lists, single, targets) != 0)) ||
		       stdin_misused(&o, argv + optind, argc - optind, single);
	if (refused)
		t.errors++;
	/* the progress line of w3dlint (cli/progress.h): a terminal, no CI,
	 * more than 20 files; cleared before each file's own lines */
	wl_progress pg;
	wl_progress_init(&pg, true, nfiles);
	size_t done = 0;
	for (int a = optind; a < argc && !refused; a++)
		for (size_t i = 0; i < lists[a - optind].count; i++) {
			wl_progress_show(&pg, ++done, nfiles, lists[a - optind].items[i]);
			fix_one(&o, &fo, lists[a - optind].items[i], targets ? targets[done - 1] : NULL, &t, &pg);
		}
	wl_progress_clear(&pg);
	for (size_t i = 0; targets && i < nfiles; i++)
		free(targets[i]);
	free(targets);
	for (int a = optind; a < argc; a++)
		wl_pathlist_free(&lists[a - optind]);
	free(lists);
	char fixable[64] = "";
	if (!writing && t.fixable)
		snprintf(fixable, sizeof fixable, "%zu to fix (not written), ", t.fixable);
	printf("%zu file%s, %zu fixed, %s%zu unchanged, %zu edit%s, %zu finding%s before, %zu after, %zu with "
	       "findings at the failing severity left, %zu verification failure%s\n",
	       t.files, t.files == 1 ? "" : "s", t.fixed, fixable, t.clean, t.edits, t.edits == 1 ? "" : "s",
	       t.before, t.before == 1 ? "" : "s", t.after, t.remaining, t.failed, t.failed == 1 ? "" : "s");
	for (size_t i = 0; i < t.remaining; i++)
		printf("  findings left: %s\n", t.left[i]);
	if (t.hint_findings) {
		printf("  --unsafe (or");
		for (size_t i = 0; i < t.hint_fixer_count; i++)
			printf("%s --fix %s", i ? "," : "", t.hint_fixers[i]);
		printf(") would repair %zu more finding%s at the failing severity\n", t.hint_findings,
		       t.hint_findings == 1 ? "" : "s");
	}
	totals_release(&t);
	if (wl_cli_flush_stdout(&DOC) != 0)
		t.errors++;
	if (t.errors)
		status = 2;
	else if (t.remaining || t.failed || t.fixable)
		status = 1;
	wl_config_free(cfg);
	wl_catalog_free(cat);
	opts_release(&o);
	return status;
}
