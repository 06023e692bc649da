/*
 * main_w3dfix.c - the w3dfix front end: parses the options, collects the
 * files (cli/walk.h) and hands them to a fix run (fix/run.h: per file the
 * lock, the read, the fixers and their verification (fix/driver.h), the
 * edit listing, the write through core/safe_write.h, archives' model
 * entries, the -o output names, the counts and the summary).  Owns the
 * progress line and standard output.
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
 * file then).  An archive (.big, .pbo) is read once: its model entries are
 * repaired from its bytes and the archive is written with them replaced
 * (core/archive/archive.h wl_archive_rewrite) through the same write path;
 * one with nothing to repair is not rewritten.
 *
 * Exit status (docs/w3dfix.md):
 *   0  nothing to fix, or everything fixed and verified, and no finding at
 *      or above the failing severity remains
 *   1  the files hold findings at or above the failing severity as they
 *      now are (repaired where written, else as read: w3dlint's status),
 *      a verification failed, or (--check) there is something to fix
 *   2  usage, configuration, I/O or internal error
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/arena.h"
#include "core/escape.h"
#include "core/grow.h"
#include "core/platform.h"
#include "core/safe_write.h"
#include "lint/catalog.h"
#include "lint/config/config.h"
#include "fix/run.h"
#include "lint/report/report.h"
#include "lint_pass.h"
#include "opts.h"
#include "pool.h"
#include "progress.h"
#include "select.h"
#include "walk.h"
#include "archive_walk.h"

typedef struct opts {
	bool in_place, backup, dry_run, check, diff, unsafe, quiet, break_links, readonly_ok;
	unsigned fold;        /* edits per rule and pattern shown (0: all) */
	uint64_t memory_cap;  /* --memory-cap bytes, 0 when not given */
	unsigned jobs;        /* -j: the lint pass's threads (0: one per processor) */
	int xref;             /* --xref 1, --no-xref 0, -1: on when a PATH is a folder */
	bool no_progress;     /* --no-progress */
	const char **bases;   /* --base FOLDER, in order */
	size_t nbases, bases_cap;
	const char *output;
	const char *config;
	const char **select, **ignore, **force;
	size_t nselect, nignore, nforce, select_cap, ignore_cap, force_cap;
	wl_cli_sel sel;       /* --target (its rule lists stay empty) */
} opts;

/* Frees the option lists (their strings are argv's or static). */
static void opts_release(opts *o)
{
	free(o->select);
	free(o->ignore);
	free(o->force);
	free(o->bases);
	wl_cli_sel_free(&o->sel);
}

/* Appends fixer id s to --fix's list; -1 when out of memory. */
static int push_force(opts *o, const char *s)
{
	if (!wl_grow((void **)&o->force, &o->force_cap, o->nforce + 1, sizeof *o->force))
		return -1;
	o->force[o->nforce++] = s;
	return 0;
}

static void walk_error(void *ud, const char *path, int errnum)
{
	(void)ud;
	if (errnum == 0) /* a dangling link to a file it would not repair */
		return;
	fprintf(stderr, "w3dfix: %s: %s\n", wl_esc(path), strerror(errnum));
}

static void clear_progress(void *ud)
{
	wl_progress_clear(ud);
}

/* The lint pass of w3dlint over the PATHs (cli/lint_pass.h) with the
 * counting reporter into *counts, its messages to quiet (the repair says
 * its own): the findings the run counts are then w3dlint's, cross-file ones
 * and archives' own included.  It also sets the memory cap as w3dlint does.
 * NULL (and *counts NULL) when it could not run: the counts are then the
 * fixers' own, and a line says so. */
static wl_lint_pass *lint_pass(const opts *o, const wl_catalog *cat, char **paths, int npaths, FILE *quiet,
			       wl_reporter **counts)
{
	wl_lint_pass_opts po = { "w3dfix",
				 { &o->sel.rules, o->config, NULL, NULL, o->bases, o->nbases, -1, false, NULL, NULL,
				   NULL, NULL },
				 quiet, o->xref, o->jobs, !o->no_progress, false, o->memory_cap };
	bool failed;
	wl_lint_pass *p = wl_lint_pass_new(cat, &po, &failed);
	*counts = p ? wl_report_count_new() : NULL;
	if (*counts && wl_lint_pass_prepare(p, paths, npaths) == 0 &&
	    wl_lint_pass_run(p, *counts, false, false, 0, paths, npaths) == 0)
		return p;
	fprintf(stderr, "w3dfix: the lint pass could not run (out of memory); the findings counted are the "
			"fixers' own, without the cross-file checks\n");
	wl_reporter_free(*counts);
	*counts = NULL;
	wl_lint_pass_free(p);
	return NULL;
}

enum { OPT_LIST_FIXES = WL_OPT_LONG_ONLY, OPT_REBUILD_AABTREE, OPT_FIX, OPT_BREAK_LINKS, OPT_FORCE, OPT_FOLD,
       OPT_TARGET, OPT_MEMORY_CAP, OPT_BASE, OPT_XREF, OPT_NO_XREF, OPT_NO_PROGRESS, OPT_CHECK };

/* The option table: drives getopt_long, --help and --man (cli/opts.h).
 * --fix has no short letter: -f is --format in w3dlint. */
static const wl_opt OPTS[] = {
	{ "in-place", no_argument, 'i', NULL, "write each repaired file over itself (temporary file, then rename)" },
	{ "output", required_argument, 'o', "OUT",
	  "write repaired files to OUT: a file for one input file (or archive), else a folder mirroring each "
	  "PATH's files (every file is written; an archive with its repaired model entries replaced); '-': "
	  "standard output, for one input file (the report lines then go to standard error)" },
	{ "backup", no_argument, 'b', NULL, "with --in-place, keep the original as FILE.bak" },
	{ "break-links", no_argument, OPT_BREAK_LINKS, NULL,
	  "write a file that has other hard links (this name gets the new file, the others keep the old one); "
	  "without it such a file is reported and left alone" },
	{ "force", no_argument, OPT_FORCE, NULL,
	  "write over read-only files (no write permission bit, e.g. 0444) too, keeping their mode; without it "
	  "they are reported and left alone" },
	{ "dry-run", no_argument, 'n', NULL, "list the edits (chunk path, rule, what: old -> new); write nothing" },
	{ "check", no_argument, OPT_CHECK, NULL,
	  "exit 1 also when there is something to fix (nothing is written without --in-place or -o): a CI "
	  "step that fails until the files are repaired" },
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
	  "lint with this configuration (severities, parameters, fail-on, memory-cap) instead of the "
	  ".w3dlint.yaml found for each file, as in w3dlint" },
	WL_OPT_MEMORY_CAP(OPT_MEMORY_CAP),
	WL_OPT_BASE(OPT_BASE),
	WL_OPT_XREF(OPT_XREF),
	WL_OPT_NO_XREF(OPT_NO_XREF),
	WL_OPT_JOBS,
	WL_OPT_NO_PROGRESS(OPT_NO_PROGRESS),
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
	"reports for the same PATHs and options (--target, --config, --base, --xref):\n"
	"w3dfix first lints them as w3dlint does, cross-file checks and archives'\n"
	"own findings included.\n"
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
	"  0  no finding at or above the failing severity (error, or the configuration's\n"
	"     fail-on) in the files as they now are (repaired where written, else as\n"
	"     read: the status w3dlint gives them), and no verification failed\n"
	"  1  such findings, a verification failed (the original is left in place), or\n"
	"     (--check) there is something to fix\n"
	"  2  usage, configuration, I/O or internal error\n",
	"Details: docs/w3dfix.md.\n",
};

int main(int argc, char **argv)
{
	wl_os_start(&argc, &argv);
	struct option longs[OPT_COUNT + 1];
	char shorts[2 * OPT_COUNT + 2];
	wl_cli_getopt_tables(&DOC, longs, shorts);
	wl_sw_signals_init();
	opts o = { 0 };
	o.fold = 5;
	o.xref = -1;
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
		case OPT_CHECK: o.check = true; break;
		case 'd': o.diff = true; break;
		case 's': rc = wl_cli_split_list(&o.select, &o.nselect, &o.select_cap, optarg); break;
		case 'I': rc = wl_cli_split_list(&o.ignore, &o.nignore, &o.ignore_cap, optarg); break;
		case 'u': o.unsafe = true; break;
		case OPT_FIX: rc = push_force(&o, optarg); break;
		case OPT_REBUILD_AABTREE: rc = push_force(&o, "rebuild-aabtree"); break;
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
		case OPT_XREF: o.xref = 1; break;
		case OPT_NO_XREF: o.xref = 0; break;
		case OPT_NO_PROGRESS: o.no_progress = true; break;
		case OPT_BASE:
			if (!wl_grow((void **)&o.bases, &o.bases_cap, o.nbases + 1, sizeof *o.bases))
				rc = -1;
			else
				o.bases[o.nbases++] = optarg;
			break;
		case 'j': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (end == optarg || *end || optarg[0] == '-' || v < 1 || v > WL_POOL_MAX_JOBS) {
				fprintf(stderr, "w3dfix: --jobs needs a whole number from 1 to %d, not '%s'\n",
					WL_POOL_MAX_JOBS, optarg);
				opts_release(&o);
				return 2;
			}
			o.jobs = (unsigned)v;
			break;
		}
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
		wl_fix_list(stdout);
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
	for (size_t i = 0; i < o.nforce; i++)
		if (!wl_fixer_by_id(o.force[i])) {
			fprintf(stderr, "w3dfix: unknown fixer '%s' (see --list-fixes)\n", o.force[i]);
			opts_release(&o);
			return 2;
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
	if (wl_fix_wanted_rules(o.select, o.nselect, o.force, o.nforce, &o.sel.extend, &o.sel.nextend) != 0)
		status = 2;
	o.sel.cextend = o.sel.nextend;  /* at most what the array holds */
	o.sel.rules.extend_select = o.sel.extend;
	o.sel.rules.extend_count = o.sel.nextend;
	int nargs = argc - optind;
	wl_pathlist *lists = status ? NULL : calloc((size_t)nargs, sizeof *lists);
	wl_fixrun_item *items = NULL;
	wl_fixrun *run = NULL;
	wl_progress pg = { 0 };
	if (lists) {
		wl_fix_options fo = { cat, cfg, o.unsafe, o.force, o.nforce,
				      { o.select, o.nselect, o.ignore, o.nignore }, false };
		wl_fixrun_opts ro = { "w3dfix", o.in_place, o.backup, o.dry_run, o.check, o.diff, o.quiet, o.break_links,
				      o.readonly_ok, o.fold, o.output, &o.sel.rules,
				      /* -o -: standard output carries the repaired bytes only */
				      o.output && strcmp(o.output, "-") == 0 ? stderr : stdout, stderr,
				      clear_progress, &pg };
		run = wl_fixrun_new(&fo, &ro);
	}
	if (!run) {
		fprintf(stderr, "w3dfix: out of memory\n");
		free(lists);
		wl_config_free(cfg);
		wl_catalog_free(cat);
		opts_release(&o);
		return 2;
	}
	size_t nfiles = 0;
	for (int a = 0; a < nargs; a++) {
		int rc = wl_walk_collect(argv[optind + a], &lists[a], walk_error, NULL);
		if (rc != 0)
			wl_fixrun_count_errors(run, rc < 0 ? 1 : (size_t)rc);
		/* archives are items of their own: the run reads each once,
		 * its model entries from its bytes */
		nfiles += lists[a].count;
	}
	items = calloc(nfiles ? nfiles : 1, sizeof *items);
	/* ARCHIVE:PATH arguments (cli/walk.h): the archive, repaired in that
	 * entry only; its member kept until the run ends */
	wl_member **named = calloc(nfiles ? nfiles : 1, sizeof *named);
	size_t k = 0;
	for (int a = 0; items && named && a < nargs; a++)
		for (size_t i = 0; i < lists[a].count; i++) {
			const char *p = lists[a].items[i];
			struct stat st;
			if (strcmp(p, "-") != 0 && wl_os_stat(p, &st) != 0 && wl_walk_entry_host_len(p)) {
				wl_member *m = wl_member_find(p);
				if (!m) {
					fprintf(stderr, "w3dfix: %s: no such file, nor a model entry of that archive\n",
						p);
					wl_fixrun_count_errors(run, 1);
					continue;
				}
				named[k] = m;
				items[k++] = (wl_fixrun_item){ m->host, argv[optind + a], m->entry.path };
				continue;
			}
			items[k++] = (wl_fixrun_item){ p, argv[optind + a], NULL };
		}
	if (!named) {
		free(items);
		items = NULL;
	}
	nfiles = k;
	/* -o: every output name, checked before anything is written */
	bool refused = !items || wl_fixrun_set_files(run, items, nfiles, (const char *const *)argv + optind,
						      (size_t)nargs) != 0;
	if (!items)
		fprintf(stderr, "w3dfix: out of memory\n");
	/* The counts of w3dlint (above); not for standard input, which only
	 * the repair reads.  W3DFIX_OWN_COUNTS (a test hook, tests/counts_agree.sh):
	 * the fixers' own lint only, to compare it with w3dlint --no-xref. */
	bool reads_stdin = false;
	for (int a = 0; a < nargs; a++)
		reads_stdin |= strcmp(argv[optind + a], "-") == 0;
	wl_reporter *counts = NULL;
	wl_lint_pass *pass = NULL;
	FILE *quiet = NULL;
	if (!refused && !reads_stdin && !getenv("W3DFIX_OWN_COUNTS")) {
		quiet = wl_os_fopen("/dev/null", "w");
		pass = lint_pass(&o, cat, argv + optind, nargs, quiet ? quiet : stderr, &counts);
		wl_fixrun_set_lint_counts(run, counts);
	}
	/* the progress line of w3dlint (cli/progress.h): a terminal, no CI,
	 * more than 20 files, not --no-progress; cleared before each file's
	 * own lines */
	wl_progress_init(&pg, !o.no_progress, nfiles);
	for (size_t i = 0; i < nfiles && !refused; i++) {
		wl_progress_show(&pg, i + 1, nfiles, items[i].path);
		wl_fixrun_file(run, i);
	}
	wl_progress_clear(&pg);
	wl_fixrun_summary(run);
	if (wl_cli_flush_stdout(&DOC) != 0 || !items)
		wl_fixrun_count_errors(run, 1);
	status = wl_fixrun_status(run);
	wl_fixrun_free(run);
	wl_reporter_free(counts);
	wl_lint_pass_free(pass);
	if (quiet)
		fclose(quiet);
	free(items);
	for (size_t i = 0; named && i < nfiles; i++)
		wl_member_free(named[i]);
	free(named);
	for (int a = 0; a < nargs; a++)
		wl_pathlist_free(&lists[a]);
	free(lists);
	wl_config_free(cfg);
	wl_catalog_free(cat);
	opts_release(&o);
	return status;
}
