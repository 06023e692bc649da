/*
 * main_w3dlint.c - the w3dlint front end: options, file collection,
 * configuration lookup, parallel lint (cli/pool.h: files are read and
 * linted on -j threads, reported strictly in file order), cross-file checks
 * (lint/xref.h: when a PATH is a folder, or --xref; the per-file results are
 * then held until the whole run is indexed, merged with the cross-file
 * findings, and reported in file order), baseline (lint/baseline.h),
 * --max-findings, report, exit status.
 *
 * Exit status (DESIGN.md §Reports and exit codes):
 *   0  no finding at or above the failing severity
 *   1  findings at or above it
 *   2  usage, configuration or internal error, or a path that could not be
 *      read (the other files are still linted and reported)
 * A malformed file is a finding, never status 2.
 */
#include <errno.h>
#include <getopt.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file_io.h"
#include "core/filekind.h"
#include "lint/baseline.h"
#include "lint/catalog.h"
#include "lint/config.h"
#include "lint/lint.h"
#include "lint/report.h"
#include "lint/suggest.h"
#include "lint/xref.h"
#include "opts.h"
#include "output.h"
#include "pool.h"
#include "progress.h"
#include "archive_walk.h"
#include "select.h"
#include "walk.h"

#define EXIT_CLEAN 0
#define EXIT_FINDINGS 1
#define EXIT_TROUBLE 2


/* Detached results (findings, no document) held per job in the reorder
 * buffer (cli/pool.h window). */
#define RESULTS_PER_JOB 16

/* SARIF results per run by default: GitHub code scanning takes at most
 * 25,000 per run (the others are counted in one notification). */
#define SARIF_MAX_RESULTS 25000

/* Findings per (rule, message pattern) and file shown before folding. */
#define DEFAULT_FOLD 5

enum {
	OPT_LIST_RULES = 256,
	OPT_EXPLAIN,
	OPT_FAIL_ON,
	OPT_NO_PROGRESS,
	OPT_BASELINE,
	OPT_WRITE_BASELINE,
	OPT_FOLD,
	OPT_MAX_FINDINGS,
	OPT_TARGET,
	OPT_XREF,
	OPT_NO_XREF,
	OPT_SELECT,
	OPT_EXTEND_SELECT,
	OPT_IGNORE,
	OPT_SHOW_INFOS,
	OPT_BASE,
	OPT_VERBOSE,
	OPT_GAME,
	OPT_MEMORY_CAP
};

/* The option table: drives getopt_long, --help and --man (cli/opts.h). */
static const wl_opt OPTS[] = {
	{ "format", required_argument, 'f', "FORMAT",
	  "report format: text (default), json (docs/report-json.md), sarif (SARIF 2.1.0 for GitHub code "
	  "scanning, docs/report-sarif.md) or github (GitHub Actions annotations)" },
	{ "output", required_argument, 'o', "FILE",
	  "write the report to FILE instead of standard output (- for standard output); a regular file only, "
	  "replaced whole once the report is complete" },
	{ "config", required_argument, 'c', "FILE",
	  "use this configuration for every file instead of the .w3dlint.yaml found by walking up from each file" },
	{ "fail-on", required_argument, OPT_FAIL_ON, "SEVERITY",
	  "lowest severity that makes the exit status 1: error (default), warning, info, or off (never); "
	  "overrides the configuration's fail-on" },
	{ "quiet", no_argument, 'q', NULL, "text report: print only the summary line, no finding lines" },
	{ "jobs", required_argument, 'j', "N",
	  "lint N files at a time (default: one per online processor); the report is the same for any N" },
	{ "memory-cap", required_argument, OPT_MEMORY_CAP, "SIZE",
	  "the files being linted at once (one per job) hold at most SIZE bytes of memory together (a count "
	  "with K, M, G or T, e.g. 512M; default 2G, or the smallest memory-cap of the configurations in use): "
	  "a file that needs more gets an out-of-memory finding naming the cap, never a crash" },
	{ "baseline", required_argument, OPT_BASELINE, "FILE",
	  "report only findings that are not in the baseline FILE (w3dlint-baseline.json), and the baseline "
	  "entries that no longer match" },
	{ "write-baseline", required_argument, OPT_WRITE_BASELINE, "FILE",
	  "record the current findings of the linted files in the baseline FILE (entries of other files are "
	  "kept) and report none of them" },
	{ "fold", required_argument, OPT_FOLD, "N",
	  "text and github reports: show at most N findings of the same rule and message pattern per file, "
	  "then one line with the count of the others (default 5; 0 shows all)" },
	{ "max-findings", required_argument, OPT_MAX_FINDINGS, "N",
	  "show at most N findings in all (0: no limit; the default, except for SARIF: 25000, what GitHub code "
	  "scanning takes per run); the summary counts the others" },
	{ "target", required_argument, OPT_TARGET, "TARGET",
	  "the engines the files are for (comma-separated; overrides the configuration's target:): W3D renegade, "
	  "generals (zh), bfme, w3dhub (tt); B3D luanti, irrlicht, blitz3d, assimp; P3D arma1, arma2, arma3, dayz; "
	  "any (the strictest of all); auto (the default: per file from the file itself - W3D dialect, ODOL "
	  "version - and the mod's layout: mod.conf, game.conf, init.lua -> luanti; config.cpp, $PBOPREFIX$ -> "
	  "arma; Data/INI -> generals, bfme).  Each rule runs at the severity the catalogue gives it for the "
	  "file's targets (w3dlint --explain ID); a rule no target is affected by does not run.  A single W3D "
	  "game is also the dialect every W3D file is read as" },
	{ "game", required_argument, OPT_GAME, "GAME", "the same as --target (kept for the W3D games)" },
	{ "select", required_argument, OPT_SELECT, "LIST",
	  "run only these rules (comma-separated ids or globs; replaces the configuration's select).  A rule "
	  "named here runs even when it is outside the default rule set or off for the file's targets" },
	{ "extend-select", required_argument, OPT_EXTEND_SELECT, "LIST",
	  "also run these rules (ids or globs), e.g. the opt-in rules outside the default set "
	  "(w3dlint --list-rules marks them)" },
	{ "ignore", required_argument, OPT_IGNORE, "LIST", "never run these rules (comma-separated ids or globs)" },
	{ "show-infos", no_argument, OPT_SHOW_INFOS, NULL,
	  "text and github reports: show info findings too (by default they are counted in the summary "
	  "only; fail-on: info also shows them)" },
	{ "base", required_argument, OPT_BASE, "FOLDER",
	  "a folder of the base game (repeatable; adds to the configuration's base:): its files are indexed "
	  "for the cross-file checks (objects, hierarchies, textures the linted files name) but neither "
	  "linted nor reported" },
	{ "verbose", no_argument, OPT_VERBOSE, NULL,
	  "name on standard error what the run skips (dangling links to files it would not lint) and each "
	  "folder's detected targets" },
	{ "xref", no_argument, OPT_XREF, NULL,
	  "run the cross-file checks even when every PATH is a file: the files named are indexed as one folder" },
	{ "no-xref", no_argument, OPT_NO_XREF, NULL,
	  "no cross-file checks.  By default they run when a PATH is a folder: every file of the run is indexed, "
	  "and HLOD sub-objects, hierarchies (and their pivot counts) and textures named in one file must be "
	  "defined by some file of the run (rules/reference.yaml); a finding is reported in the file that "
	  "names the object, naming the other file" },
	{ "no-progress", no_argument, OPT_NO_PROGRESS, NULL,
	  "never show the progress line (it only appears on a terminal, for more than 20 files)" },
	{ "list-rules", no_argument, OPT_LIST_RULES, NULL,
	  "list the rule catalogue, one rule a line: id, default severity, category, fixable, summary; "
	  "(opt-in) marks the rules outside the default set" },
	{ "explain", required_argument, OPT_EXPLAIN, "ID",
	  "print the catalogue entry of rule ID: format, severity per target, sources, explanation, "
	  "parameters and their defaults" },
	WL_OPT_COMMON,
};
#define OPT_COUNT (sizeof OPTS / sizeof OPTS[0])

static const wl_cli_doc DOC = {
	"w3dlint",
	"[OPTION]... PATH...",
	"lint W3D, B3D and P3D model files",
	"Lint 3D model files of three formats (extensions in any letter case):\n"
	"  W3D  Westwood/EA: C&C Renegade, Generals / Zero Hour, BFME (.w3d .wlt .wht\n"
	"       .wha .wtm)\n"
	"  B3D  Blitz3D: Luanti (Minetest) mods, Irrlicht, Blitz3D, Assimp (.b3d)\n"
	"  P3D  Bohemia Interactive: Arma 1-3 and DayZ addons, ODOL and MLOD (.p3d)\n"
	"Folders are searched recursively (sorted; hidden entries skipped); a file named\n"
	"explicitly is linted whatever its extension, its format told by its bytes.\n"
	"Each file is checked for its targets (--target; by default detected from the\n"
	"file and the mod's layout), and the report lists errors and warnings, infos\n"
	"counted (--show-infos lists them).  BIG and PBO archives are walked like\n"
	"folders: each model entry is reported as ARCHIVE:PATH (docs/archives.md);\n"
	"images, text and other files that are not models get one line and no lint.",
	OPTS,
	OPT_COUNT,
	"  w3dlint mod/                              lint a whole mod folder\n"
	"  w3dlint mods/mymod/models/                a Luanti mod (mod.conf: target luanti)\n"
	"  w3dlint @mymod/addons/                    an Arma addon (config.cpp: Arma)\n"
	"  w3dlint --format json -o report.json mod/ machine-readable report\n"
	"  w3dlint --format sarif -o w3dlint.sarif . for GitHub code scanning\n"
	"  w3dlint --write-baseline w3dlint-baseline.json mod/   accept today's findings\n"
	"  w3dlint --baseline w3dlint-baseline.json mod/         report only new ones\n"
	"  w3dlint --fail-on warning art/tank.w3d    fail on warnings too\n"
	"  w3dlint --target generals mod/            read every W3D file as Generals / ZH\n"
	"  w3dlint --target luanti mods/mobs/        a Luanti mod's .b3d models\n"
	"  w3dlint --target arma3 addons/            an Arma 3 addon's .p3d models\n"
	"  w3dlint --base ../ZH/Art mod/             resolve textures of the base game\n"
	"  w3dlint --explain pivot-parent-order      what a rule checks, and why\n",
	"  0  no finding at or above the failing severity (error unless --fail-on or\n"
	"     the configuration's fail-on says otherwise)\n"
	"  1  findings at or above the failing severity\n"
	"  2  usage or configuration error, unreadable or missing path, internal error\n"
	"     (a dangling link to a file w3dlint would not lint is skipped, not an error)\n"
	"     (a truncated or garbage model file is a finding, never status 2)\n",
	"Configuration: .w3dlint.yaml, found by walking up from each file's folder to\n"
	"the repository root; see README.md and docs/configuration.md.  NO_COLOR\n"
	"disables colours.\n",
};

typedef struct cli {
	const char *format;
	const char *output;
	const char *config;
	const char *explain;
	const char *baseline;        /* --baseline FILE */
	const char *write_baseline;  /* --write-baseline FILE */
	int fail_on;         /* -1 when not given */
	unsigned jobs;       /* 0: online processors */
	uint64_t memory_cap; /* --memory-cap bytes, 0 when not given */
	unsigned fold;
	uint64_t max_findings;  /* 0: no limit */
	bool max_findings_given;
	wl_cli_sel sel;               /* --select, --extend-select, --ignore,
	                               * --target (--game) */
	const char **bases;           /* --base FOLDER, in order */
	size_t nbases;
	bool show_infos;
	bool verbose;
	int xref;            /* --xref 1, --no-xref 0, -1: on when a PATH is a folder */
	bool list_rules;
	bool quiet;
	bool no_progress;
} cli;

/* ---------------------------------------------------------------- help */

static void usage_hint(void)
{
	fputs("Try 'w3dlint --help' for more information.\n", stderr);
}

/* ------------------------------------------------------------ catalogue */

static void list_rules(const wl_catalog *cat, FILE *out)
{
	size_t n = wl_catalog_count(cat);
	int wid = 4, wcat = 8;
	for (size_t i = 0; i < n; i++) {
		const wl_rule_def *r = wl_catalog_at(cat, i);
		if ((int)strlen(r->id) > wid)
			wid = (int)strlen(r->id);
		if ((int)strlen(r->category) > wcat)
			wcat = (int)strlen(r->category);
	}
	for (size_t i = 0; i < n; i++) {
		const wl_rule_def *r = wl_catalog_at(cat, i);
		fprintf(out, "%-*s  %-7s  %-*s  %-6s  %s%s\n", wid, r->id, wl_severity_name(r->severity), wcat,
			r->category, r->fixable, wl_rule_in_default_set(r) ? "" : "(opt-in) ", r->summary);
	}
}

/* The targets line of --explain: severity per target, and whether the
 * rule is in the default set. */
static void explain_targets(const wl_rule_def *r, FILE *out)
{
	fputs("  targets:  ", out);
	size_t shown = 0;
	for (size_t t = 0; t < wl_target_count(); t++) {
		if (!(r->targets & ((wl_target_mask)1 << t)))
			continue;
		fprintf(out, "%s%s %s", shown++ ? ", " : " ", wl_target_name(t),
			r->target_severity[t] == WL_SEV_OFF ? "unaffected (off)" : wl_severity_name(r->target_severity[t]));
	}
	fputc('\n', out);
	if (r->opt_in)
		fputs("  default:   off (opt-in: turn on with select / --extend-select)\n", out);
	else if (!wl_rule_in_default_set(r))
		fputs("  default:   off (no target is affected: turn on with select / --extend-select)\n", out);
}

static int explain_rule(const wl_catalog *cat, const char *id, FILE *out)
{
	const wl_rule_def *r = wl_catalog_find(cat, id);
	if (!r) {
		wl_suggest s;
		wl_suggest_init(&s, id);
		for (size_t i = 0; i < wl_catalog_count(cat); i++)
			wl_suggest_offer(&s, wl_catalog_at(cat, i)->id);
		fprintf(stderr, "w3dlint: unknown rule id '%s'%s%s%s (w3dlint --list-rules lists them)\n", id,
			s.best ? "; did you mean '" : "", s.best ? s.best : "", s.best ? "'?" : "");
		return EXIT_TROUBLE;
	}
	fprintf(out, "%s\n", r->id);
	fprintf(out, "  category:  %s\n", r->category);
	fprintf(out, "  severity:  %s (default)\n", wl_severity_name(r->severity));
	fprintf(out, "  fixable:   %s\n", r->fixable);
	fprintf(out, "  summary:   %s\n", r->summary);
	if (r->source_file && r->source_file[0])
		fprintf(out, "  catalogue: %s\n", r->source_file);
	fprintf(out, "  format:    %s\n", r->format[0] ? r->format : "every format");
	explain_targets(r, out);
	for (size_t i = 0; i < r->sources_count; i++)
		fprintf(out, "  %s %s\n", i ? "          " : "sources:  ", r->sources[i]);
	if (r->sources_count)
		fputs("             (docs/sources.md)\n", out);
	fputc('\n', out);
	wl_cli_wrap(out, r->explanation, 2, 0, 79);
	if (r->params_count) {
		fputs("\nparameters (override in .w3dlint.yaml under rules: ID: params:):\n", out);
		for (size_t i = 0; i < r->params_count; i++) {
			const wl_param_def *p = &r->params[i];
			fprintf(out, "  %s = %g (default)\n", p->name, p->def);
			if (p->description && p->description[0])
				wl_cli_wrap(out, p->description, 6, 0, 79);
		}
	} else {
		fputs("\nparameters: none\n", out);
	}
	return EXIT_CLEAN;
}

/* --------------------------------------------------------------- config */

typedef struct config_cache {
	char **paths;
	wl_config **cfgs;
	size_t count, cap;
} config_cache;

static void config_cache_free(config_cache *cc)
{
	for (size_t i = 0; i < cc->count; i++) {
		free(cc->paths[i]);
		wl_config_free(cc->cfgs[i]);
	}
	free(cc->paths);
	free(cc->cfgs);
	memset(cc, 0, sizeof *cc);
}

/* The configuration loaded from path (cached).  Prints the error and
 * returns -1 when it cannot be loaded; -2 when out of memory. */
static int config_get(config_cache *cc, const wl_catalog *cat, const char *path, wl_config **out)
{
	for (size_t i = 0; i < cc->count; i++) {
		if (strcmp(cc->paths[i], path) == 0) {
			*out = cc->cfgs[i];
			return 0;
		}
	}
	char err[1024] = "";
	wl_config *cfg = wl_config_load(cat, path, err, sizeof err);
	if (!cfg) {
		fprintf(stderr, "%s\n", err[0] ? err : path);
		return -1;
	}
	if (cc->count == cc->cap) {
		size_t ncap = cc->cap ? cc->cap * 2 : 8;
		char **np = realloc(cc->paths, ncap * sizeof *np);
		if (np)
			cc->paths = np;
		wl_config **nc = np ? realloc(cc->cfgs, ncap * sizeof *nc) : NULL;
		if (!nc) {
			wl_config_free(cfg);
			return -2;
		}
		cc->cfgs = nc;
		cc->cap = ncap;
	}
	char *copy = strdup(path);
	if (!copy) {
		wl_config_free(cfg);
		return -2;
	}
	cc->paths[cc->count] = copy;
	cc->cfgs[cc->count] = cfg;
	cc->count++;
	*out = cfg;
	return 0;
}

/* ----------------------------------------------------------------- files */

typedef struct run run;


/* Reads the whole file (core/file_io.h: regular files of at most 1 GiB;
 * WL_READ_SNIFF: a file its format refuses by its first bytes is not read
 * past them).
 * Returns -1 with a message naming it in err when it cannot be read.  Runs
 * on worker threads: prints nothing. */
static int read_file(const char *path, uint8_t **out, uint64_t *out_size, char *err, size_t errcap)
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

/* ----------------------------------------------------------------- lint */

struct run {
	const cli *opt;
	wl_catalog *cat;
	wl_config *forced;       /* --config, or NULL */
	config_cache cache;
	wl_pathlist files;
	wl_config **file_cfg;    /* per file, borrowed; NULL = no configuration */
	wl_target_mask *file_layout; /* per file: targets its mod's layout names */
	wl_baseline *baseline;   /* --baseline or --write-baseline, or NULL */
	bool recording;          /* --write-baseline */
	wl_reporter *rep;
	FILE *out;               /* dest.fp */
	wl_cli_out dest;         /* -o FILE or standard output (cli/output.h) */
	wl_progress pg;
	bool shares_terminal;    /* the report goes to the terminal of pg */
	bool bare;               /* the report shows no finding (text --quiet):
				  * workers detach no message or chunk path */
	bool trouble;            /* exit status 2 */
	bool failed;             /* exit status 1 */
	uint64_t shown;          /* findings handed to the reporter so far */
	uint64_t recorded_files; /* --write-baseline: files with findings */
	wl_report_counts totals;
	/* Cross-file checks (NULL / unused when off). */
	wl_xref *xref;
	bool *xref_add;          /* per file: indexed (the first of equal paths) */
	struct path_ix *by_path; /* the files sorted by path, for the findings */
	struct lint_result **held; /* per file, until the index is complete */
	bool xref_oom;
	bool hide_infos;         /* text/github without --show-infos */
	wl_pathlist base_dirs;   /* --base and the configurations' base: */
	wl_pathlist base_files;  /* their model files (indexed, not linted) */
	uint64_t max_findings;   /* --max-findings; SARIF: 25,000 by default */
	wl_pathlist unreadable;  /* paths the walk or the reader could not read
	                            (the first 1000), for SARIF */
};

/* What a worker hands back for one file: its findings detached from the
 * document (which the worker frees at once, so that only one document per
 * thread is alive), with their chunk paths, messages and related paths
 * copied into one block. */
typedef struct lint_result {
	uint64_t size;               /* bytes */
	const char *format;          /* static format name */
	wl_target_mask targets;      /* the file's targets (lint.h) */
	wl_finding *items;           /* sorted by offset; chunk pointers NULL */
	const char **chunk_paths;    /* per item, into strings */
	size_t count;
	wl_report_dropped *dropped;  /* rules not off with capped findings */
	size_t dropped_count;
	char *strings;
	bool ok;                     /* false: error says why */
	bool xref_failed;            /* out of memory adding it to the index */
	const wl_file_kind *kind;    /* not a model (core/filekind.h): not linted */
	char error[512];             /* printed on stderr, in file order */
	/* Cross-file findings appended after items[own_count - 1] (sorted
	 * among themselves; merge_xref sorts them into the file's), their
	 * strings one malloc'd block each. */
	size_t own_count, cap;
	char **extra;
	size_t extra_count;
} lint_result;

/* A file of the run, for looking up the path of a cross-file finding. */
typedef struct path_ix {
	const char *path;
	size_t index;
} path_ix;

/* Resolves the configuration and the layout targets (target.h
 * wl_target_layout) of every file before linting, so that a bad
 * configuration stops the run before any report is written. */
static int resolve_configs(run *r)
{
	r->file_cfg = calloc(r->files.count ? r->files.count : 1, sizeof *r->file_cfg);
	r->file_layout = calloc(r->files.count ? r->files.count : 1, sizeof *r->file_layout);
	if (!r->file_cfg || !r->file_layout)
		return -2;
	/* Both depend only on the file's folder, and the walk lists a folder's
	 * files together: look them up once per folder run. */
	const char *prev = NULL;
	size_t prev_len = 0;
	for (size_t i = 0; i < r->files.count; i++) {
		const char *path = wl_pathlist_host(&r->files, i); /* an entry: its archive */
		const char *slash = strrchr(path, '/');
		size_t dir_len = slash ? (size_t)(slash - path) : 0;
		if (prev && !strchr(path, '/') == !strchr(prev, '/') && dir_len == prev_len &&
		    memcmp(path, prev, dir_len) == 0) {
			r->file_cfg[i] = r->file_cfg[i - 1];
			r->file_layout[i] = r->file_layout[i - 1];
			prev = path;
			continue;
		}
		prev = path;
		prev_len = dir_len;
		r->file_layout[i] = wl_target_layout(path);
		if (r->opt->verbose && r->file_layout[i]) {
			char names[256];
			fprintf(stderr, "w3dlint: %.*s: the mod's layout names the targets %s\n", (int)(dir_len ? dir_len : 1),
				dir_len ? path : ".", wl_target_mask_names(r->file_layout[i], names, sizeof names));
		}
		if (r->forced) {
			r->file_cfg[i] = r->forced;
			continue;
		}
		char where[4096];
		if (wl_config_locate(path, where, sizeof where) != 1)
			continue;
		int rc = config_get(&r->cache, r->cat, where, &r->file_cfg[i]);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* The shared memory cap of the run: --memory-cap, else the smallest
 * memory-cap of the configurations in use, else 0 (the default). */
static uint64_t memory_cap(const run *r)
{
	if (r->opt->memory_cap)
		return r->opt->memory_cap;
	uint64_t cap = 0;
	for (size_t i = 0; i < r->files.count; i++) {
		uint64_t c = wl_config_memory_cap(r->file_cfg[i]);
		if (c && (!cap || c < cap))
			cap = c;
	}
	return cap;
}

static wl_severity fail_threshold(const run *r, const wl_config *cfg)
{
	if (r->opt->fail_on >= 0)
		return (wl_severity)r->opt->fail_on;
	return cfg ? wl_config_fail_on(cfg) : WL_SEV_ERROR;
}

static void count_severity(wl_severity s, wl_report_counts *c)
{
	switch (s) {
	case WL_SEV_ERROR: c->errors++; break;
	case WL_SEV_WARNING: c->warnings++; break;
	case WL_SEV_INFO: c->infos++; break;
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

/* The effective severity of rule for a file of configuration cfg and
 * targets (per-path ignores aside: the engine applied them already). */
static wl_severity rule_severity(const run *r, const wl_config *cfg, const char *rule, wl_target_mask targets)
{
	return wl_config_severity_for(cfg, &r->opt->sel.rules, r->cat, rule, NULL, targets);
}

/* The per-rule counts of findings left out by the cap, for rules not off.
 * NULL when out of memory. */
static wl_report_dropped *dropped_list(const run *r, const wl_config *cfg, const wl_findings *fs,
				       wl_target_mask targets, size_t *out_n)
{
	*out_n = 0;
	wl_report_dropped *dropped = malloc((fs->rules_count ? fs->rules_count : 1) * sizeof *dropped);
	if (!dropped)
		return NULL;
	for (size_t k = 0; k < fs->rules_count; k++) {
		const char *rule = fs->rules[k].rule;
		uint64_t n = wl_findings_dropped(fs, rule);
		if (n == 0 || rule_severity(r, cfg, rule, targets) == WL_SEV_OFF)
			continue;
		dropped[*out_n].rule = rule;
		dropped[*out_n].count = n;
		(*out_n)++;
	}
	return dropped;
}

/* Copies s into the block at *at; returns the copy. */
static const char *stash(char **at, const char *s)
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

/* Detaches doc's findings into res (see lint_result).  Rule ids and
 * formats are static storage; messages (or the arguments they are
 * formatted from), related paths and chunk paths are copied.  When the
 * report shows no finding (r->bare: text with --quiet), only what counting
 * and the baseline need is kept: no message, no chunk path.  -1 when out of
 * memory. */
static int detach(const run *r, const wl_config *cfg, const wl_doc *doc, lint_result *res)
{
	const wl_findings *fs = &doc->findings;
	size_t n = fs->count;
	res->format = doc->format && doc->format->name ? doc->format->name : "w3d";
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
		if (paths_cap - paths_len < len) {
			size_t ncap = paths_cap ? paths_cap * 2 : 4096;
			while (ncap - paths_len < len)
				ncap *= 2;
			char *np = realloc(paths, ncap);
			if (!np) {
				rc = -1;
				break;
			}
			paths = np;
			paths_cap = ncap;
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
	const char *none = stash(&at, "");
	/* the paths first, as they are */
	char *cpaths = at;
	if (paths_len)
		memcpy(cpaths, paths, paths_len);
	at += paths_len;
	for (size_t i = 0; i < n; i++) {
		wl_finding x = fs->items[i];
		x.chunk = NULL;
		if (x.related)
			x.related = stash(&at, x.related);
		if (r->bare) {
			x.message = none;
			x.args = NULL;
			res->items[i] = x;
			res->chunk_paths[i] = none;
			continue;
		}
		if (x.message)
			x.message = stash(&at, x.message);
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

/* Worker thread: reads, lints and detaches file i.  Touches only its own
 * result and read-only state (file list, catalogue, configurations). */
static void *lint_work(void *ud, size_t i)
{
	const run *r = ud;
	lint_result *res = calloc(1, sizeof *res);
	if (!res)
		return NULL;
	const char *path = r->files.items[i];
	const wl_config *cfg = r->file_cfg[i];
	uint8_t *bytes;
	/* An archive's entry (cli/archive_walk.h): its bytes, out of the archive. */
	const wl_member *member = wl_pathlist_member(&r->files, i);
	if (member) {
		size_t len = 0;
		if (wl_member_read(W3DLINT_NAME, path, member, &bytes, &len, res->error, sizeof res->error) != 0)
			return res;
		res->size = len;
	} else if (read_file(path, &bytes, &res->size, res->error, sizeof res->error) != 0) {
		return res;
	}
	/* Not a model, and not named as one: one line (a file named as a model
	 * gets the finding file-not-a-model from the lint); an archive: its own
	 * findings (its entries are items of their own). */
	res->kind = member || wl_format_by_extension(path) ? NULL : wl_file_kind_of(bytes, res->size, path);
	wl_doc *doc = NULL;
	if (res->kind && res->kind->archive) {
		doc = wl_lint_archive(r->cat, cfg, path, bytes, res->size);
		res->kind = NULL;
	} else if (res->kind) {
		free(bytes);
		return res;
	} else {
		wl_lint_opts lo = { &r->opt->sel.rules, r->file_layout[i] };
		doc = wl_lint_bytes_opts(r->cat, cfg, &lo, path, bytes, res->size, &res->targets);
	}
	/* The index copies what it keeps: the document is freed below. */
	if (doc && r->xref && r->xref_add[i]) {
		if (wl_xref_add(r->xref, path, doc) != 0)
			res->xref_failed = true;
		else /* the index checks those skins across the folder */
			wl_findings_remove_rule(&doc->findings, WLR_SKIN_BOUNDS_UNCHECKED);
	}
	if (doc && detach(r, cfg, doc, res) == 0)
		res->ok = true;
	else
		snprintf(res->error, sizeof res->error, "w3dlint: %s: out of memory", path);
	wl_doc_free(doc);
	free(bytes);
	return res;
}

static void result_free(lint_result *res)
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

static void lint_discard(void *ud, size_t i, void *result)
{
	(void)ud;
	(void)i;
	result_free(result);
}

/* Applies the baseline to one file: shown[] / shown_paths[] (caller
 * allocated, res->count entries) get the findings to report, res->dropped
 * is lowered.  Returns the number baselined, or -1 when out of memory. */
static int64_t apply_baseline(run *r, const char *path, lint_result *res, wl_finding *shown,
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

/* Keeps path for the report's list of unreadable paths (the first 1000). */
static void note_unreadable(run *r, const char *path)
{
	if (r->unreadable.count >= 1000)
		return;
	char *copy = strdup(path);
	char **grown = copy ? realloc(r->unreadable.items, (r->unreadable.count + 1) * sizeof *grown) : NULL;
	if (grown) {
		r->unreadable.items = grown;
		grown[r->unreadable.count++] = copy;
	} else {
		free(copy);
	}
}

/* Text and github reports without --show-infos: the info findings (and
 * capped info rules) are counted but not listed.  Compacts fr's arrays
 * (items, paths and d: its findings, chunk paths and dropped list, the
 * caller's) in place. */
static void hide_infos(const run *r, const wl_config *cfg, wl_target_mask targets, wl_finding *items,
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
		if (rule_severity(r, cfg, d[k].rule, targets) != WL_SEV_INFO)
			d[dw++] = d[k];
	fr->dropped_count = dw;
}

/* Main thread, in file order: prints the read error or reports the file.
 * Returns -1 only when the report could not be written (out of memory or an
 * output error), which stops the run. */
static int report_file(run *r, size_t i, lint_result *res)
{
	const char *path = r->files.items[i];
	const wl_config *cfg = r->file_cfg[i];
	if (res && res->xref_failed) {
		wl_progress_clear(&r->pg);
		fprintf(stderr, "w3dlint: %s: out of memory adding the file to the cross-file index\n", path);
		r->trouble = true;
	}
	if (res && res->kind) {
		wl_progress_clear(&r->pg);
		fprintf(stderr, "w3dlint: %s: %s, not a model file; not linted\n", path, res->kind->title);
		result_free(res);
		return 0;
	}
	if (!res || !res->ok) {
		wl_progress_clear(&r->pg);
		fprintf(stderr, "%s\n", res ? res->error : "w3dlint: out of memory");
		r->trouble = true;
		r->totals.unreadable++;
		note_unreadable(r, path);
		result_free(res);
		return 0;
	}
	if (r->opt->verbose) {
		char names[256];
		wl_progress_clear(&r->pg);
		fprintf(stderr, "w3dlint: %s: %s, targets %s\n", path, res->format,
			wl_target_mask_names(res->targets, names, sizeof names));
	}
	size_t n = res->count, shown_n = 0;
	wl_finding *shown = malloc((n ? n : 1) * sizeof *shown);
	const char **shown_paths = malloc((n ? n : 1) * sizeof *shown_paths);
	int64_t baselined = shown && shown_paths ? apply_baseline(r, path, res, shown, shown_paths, &shown_n) : -1;
	if (baselined < 0) {
		free(shown);
		free(shown_paths);
		result_free(res);
		return -1;
	}

	wl_file_report fr = { path, res->size, NULL, res->format, shown, shown_paths, shown_n,
			      res->dropped, res->dropped_count, { 0 } };
	fr.counts.files = 1;
	fr.counts.baselined = (uint64_t)baselined;
	const wl_member *member = wl_pathlist_member(&r->files, i);
	if (member) { /* SARIF: the archive is the artifact */
		fr.archive = member->host;
		fr.entry = member->entry.path;
		fr.entry_offset = member->entry.packed ? -1 : (int64_t)member->entry.offset;
	}
	wl_severity worst = WL_SEV_OFF;
	for (size_t k = 0; k < shown_n; k++) {
		count_severity(shown[k].severity, &fr.counts);
		if (shown[k].severity > worst)
			worst = shown[k].severity;
	}
	for (size_t k = 0; k < fr.dropped_count; k++) {
		fr.counts.dropped += fr.dropped[k].count;
		wl_severity s = rule_severity(r, cfg, fr.dropped[k].rule, res->targets);
		/* capped findings count at their rule's severity, as in the
		 * baseline and w3dfix */
		if (s == WL_SEV_ERROR)
			fr.counts.errors += fr.dropped[k].count;
		else if (s == WL_SEV_WARNING)
			fr.counts.warnings += fr.dropped[k].count;
		else if (s == WL_SEV_INFO)
			fr.counts.infos += fr.dropped[k].count;
		if (s > worst)
			worst = s;
	}
	fr.counts.files_with_errors = fr.counts.errors > 0;
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

	if (r->shares_terminal && !r->opt->quiet && (fr.findings_count || fr.dropped_count))
		wl_progress_clear(&r->pg);
	int rc = wl_reporter_file(r->rep, &fr);
	free(shown);
	free(shown_paths);
	result_free(res);
	return rc;
}

/* The pool's emit: reports the file at once, or, with cross-file checks,
 * holds its result until every file is indexed (report_held). */
static int lint_emit(void *ud, size_t i, void *result)
{
	run *r = ud;
	wl_progress_show(&r->pg, i + 1, r->files.count, r->files.items[i]);
	if (r->held) {
		r->held[i] = result;
		return 0;
	}
	return report_file(r, i, result);
}

/* ------------------------------------------------------------ cross-file */

static int cmp_path_ix(const void *x, const void *y)
{
	const path_ix *a = x, *b = y;
	int c = strcmp(a->path, b->path);
	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Sets up the index when the cross-file checks are on (after the files are
 * collected).  A path listed twice (a file named and inside a folder
 * argument) is indexed once, so it does not define its objects twice.
 * Returns -1 when out of memory. */
static int xref_setup(run *r)
{
	size_t n = r->files.count;
	r->xref = wl_xref_new();
	r->xref_add = calloc(n ? n : 1, sizeof *r->xref_add);
	r->by_path = malloc((n ? n : 1) * sizeof *r->by_path);
	r->held = calloc(n ? n : 1, sizeof *r->held);
	if (!r->xref || !r->xref_add || !r->by_path || !r->held)
		return -1;
	for (size_t i = 0; i < n; i++)
		r->by_path[i] = (path_ix){ r->files.items[i], i };
	qsort(r->by_path, n, sizeof *r->by_path, cmp_path_ix);
	/* Archive entries are not indexed yet (issue 18 item 3): their
	 * references would be looked for outside their archive. */
	for (size_t k = 0; k < n; k++)
		if ((k == 0 || strcmp(r->by_path[k - 1].path, r->by_path[k].path) != 0) &&
		    !wl_pathlist_member(&r->files, r->by_path[k].index))
			r->xref_add[r->by_path[k].index] = true;
	return 0;
}

/* The first file of the run named path, or (size_t)-1. */
static size_t xref_file_of(const run *r, const char *path)
{
	size_t lo = 0, hi = r->files.count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(r->by_path[mid].path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->files.count && strcmp(r->by_path[lo].path, path) == 0)
		return r->by_path[lo].index;
	return (size_t)-1;
}

/* Is path one of the base files (--base, base:)?  Linear: only asked for
 * duplicate-definition findings. */
static bool is_base_file(const run *r, const char *path)
{
	for (size_t i = 0; i < r->base_files.count; i++)
		if (strcmp(r->base_files.items[i], path) == 0)
			return true;
	return false;
}

/* State of the wl_xref_check callback: the effective severity needs the
 * file's absolute path when its configuration has per-path ignores; it is
 * computed once per file (findings come sorted by path). */
typedef struct xref_sink {
	run *r;
	size_t file;   /* file of key, or (size_t)-1 */
	char *key;
} xref_sink;

/* Appends one cross-file finding to the held result of its file, with the
 * effective severity of its rule for that file (dropped when off). */
static void xref_emit(void *ud, const wl_xref_finding *f)
{
	xref_sink *sk = ud;
	run *r = sk->r;
	if (r->xref_oom)
		return;
	size_t i = xref_file_of(r, f->path);
	lint_result *res = i == (size_t)-1 ? NULL : r->held[i];
	if (!res || !res->ok)
		return;
	/* A mod redefining an object of the base game is how mods work. */
	if (f->related && strcmp(f->rule, wl_rule_name(WLR_DUPLICATE_DEFINITION)) == 0 && is_base_file(r, f->related))
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
	wl_severity sev = wl_config_severity_for(cfg, &r->opt->sel.rules, r->cat, f->rule, sk->key, res->targets);
	if (sev == WL_SEV_OFF)
		return;
	const char *cpath = f->chunk_path ? f->chunk_path : "";
	const char *msg = f->message ? f->message : "";
	size_t lc = strlen(cpath) + 1, lm = strlen(msg) + 1, lr = f->related ? strlen(f->related) + 1 : 0;
	if (res->count == res->cap) {
		size_t ncap = res->cap * 2;
		wl_finding *ni = realloc(res->items, ncap * sizeof *ni);
		if (ni)
			res->items = ni;
		const char **nc = ni ? realloc(res->chunk_paths, ncap * sizeof *nc) : NULL;
		if (!nc) {
			r->xref_oom = true;
			return;
		}
		res->chunk_paths = nc;
		res->cap = ncap;
	}
	char **ne = realloc(res->extra, (res->extra_count + 1) * sizeof *ne);
	if (ne)
		res->extra = ne;
	char *blk = ne ? malloc(lc + lm + lr) : NULL;
	if (!blk) {
		r->xref_oom = true;
		return;
	}
	res->extra[res->extra_count++] = blk;
	char *at = blk;
	wl_finding x = { 0 };
	x.rule = f->rule;
	x.rule_id = wl_rule_lookup(f->rule);
	x.severity = sev;
	x.offset = f->offset;
	x.length = f->length;
	x.chunk = NULL;
	x.element = -1;
	res->chunk_paths[res->count] = stash(&at, cpath);
	x.message = stash(&at, msg);
	x.related = f->related ? stash(&at, f->related) : NULL;
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
static int merge_xref(lint_result *res)
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

/* Indexes the base files for the cross-file checks: read, built and added
 * to the index, never reported (their findings name no file of the run).
 * A file that is also linted is indexed once, as a file of the run. */
static void index_bases(run *r)
{
	for (size_t i = 0; i < r->base_files.count && !r->xref_oom; i++) {
		const char *path = r->base_files.items[i];
		if (xref_file_of(r, path) != (size_t)-1)
			continue;
		uint8_t *bytes;
		uint64_t size;
		char err[512];
		if (read_file(path, &bytes, &size, err, sizeof err) != 0) {
			fprintf(stderr, "%s\n", err);
			r->trouble = true;
			continue;
		}
		wl_doc *doc = wl_lint_bytes_opts(r->cat, NULL, NULL, path, bytes, size, NULL);
		if (!doc || wl_xref_add(r->xref, path, doc) != 0)
			r->xref_oom = true;
		wl_doc_free(doc);
		free(bytes);
	}
	for (size_t i = 0; i < r->base_dirs.count; i++)
		(void)wl_xref_scan_textures(r->xref, r->base_dirs.items[i]);
}

/* After every file was linted and indexed: textures of the folder
 * arguments, the cross-file checks, then the held results in file order.
 * Returns -1 when the report could not be written. */
static int report_held(run *r, char **paths, int npaths)
{
	/* A folder the walk could not open was reported already. */
	for (int k = 0; k < npaths; k++) {
		struct stat st;
		if (stat(paths[k], &st) == 0 && S_ISDIR(st.st_mode))
			(void)wl_xref_scan_textures(r->xref, paths[k]);
	}
	index_bases(r);
	xref_sink sk = { r, (size_t)-1, NULL };
	if (wl_xref_check(r->xref, xref_emit, &sk) < 0)
		r->xref_oom = true;
	free(sk.key);
	for (size_t i = 0; !r->xref_oom && i < r->files.count; i++)
		if (r->held[i] && merge_xref(r->held[i]) != 0)
			r->xref_oom = true;
	if (r->xref_oom) {
		fprintf(stderr, "w3dlint: out of memory in the cross-file checks; their findings are left out\n");
		r->trouble = true;
		for (size_t i = 0; i < r->files.count; i++) {
			lint_result *res = r->held[i];
			if (res)
				res->count = res->own_count;
		}
	}
	int rc = 0;
	for (size_t i = 0; i < r->files.count; i++) {
		lint_result *res = r->held[i];
		r->held[i] = NULL;
		if (rc == 0)
			rc = report_file(r, i, res);
		else
			result_free(res);
	}
	return rc;
}

/* ----------------------------------------------------------------- main */

/* Parses a count option: a decimal integer in [lo, hi]. */
static int parse_count(const char *opt, const char *arg, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < lo || v > hi) {
		fprintf(stderr, "w3dlint: %s needs a whole number from %" PRIu64 " to %" PRIu64 ", not '%s'\n", opt,
			lo, hi, arg);
		usage_hint();
		return EXIT_TROUBLE;
	}
	*out = v;
	return EXIT_CLEAN;
}

static int parse_args(int argc, char **argv, cli *opt, int *first_path)
{
	struct option longs[OPT_COUNT + 1];
	char shorts[2 * OPT_COUNT + 2];
	wl_cli_getopt_tables(&DOC, longs, shorts);

	memset(opt, 0, sizeof *opt);
	opt->format = "text";
	opt->fail_on = -1;
	opt->fold = DEFAULT_FOLD;
	opt->xref = -1;
	opterr = 0;
	int c;
	uint64_t v;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") != 0 && strcmp(optarg, "json") != 0 && strcmp(optarg, "sarif") != 0 &&
			    strcmp(optarg, "github") != 0) {
				fprintf(stderr, "w3dlint: unknown report format '%s' (text, json, sarif or github)\n",
					optarg);
				usage_hint();
				return EXIT_TROUBLE;
			}
			opt->format = optarg;
			break;
		case 'o': opt->output = optarg; break;
		case 'c': opt->config = optarg; break;
		case 'q': opt->quiet = true; break;
		case 'j':
			if (parse_count("--jobs", optarg, 1, WL_POOL_MAX_JOBS, &v) != EXIT_CLEAN)
				return EXIT_TROUBLE;
			opt->jobs = (unsigned)v;
			break;
		case OPT_MEMORY_CAP:
			if (wl_mem_parse_size(optarg, &opt->memory_cap)) {
				fprintf(stderr, "w3dlint: --memory-cap needs a size (bytes, or a count with K, M, G or T, "
						"e.g. 512M), not '%s'\n", optarg);
				usage_hint();
				return EXIT_TROUBLE;
			}
			break;
		case OPT_BASELINE: opt->baseline = optarg; break;
		case OPT_WRITE_BASELINE: opt->write_baseline = optarg; break;
		case OPT_FOLD:
			if (parse_count("--fold", optarg, 0, 1000000, &v) != EXIT_CLEAN)
				return EXIT_TROUBLE;
			opt->fold = (unsigned)v;
			break;
		case OPT_MAX_FINDINGS:
			if (parse_count("--max-findings", optarg, 0, UINT64_MAX, &opt->max_findings) != EXIT_CLEAN)
				return EXIT_TROUBLE;
			opt->max_findings_given = true;
			break;
		case OPT_NO_PROGRESS: opt->no_progress = true; break;
		case OPT_XREF: opt->xref = 1; break;
		case OPT_NO_XREF: opt->xref = 0; break;
		case OPT_GAME:
		case OPT_TARGET:
			if (wl_cli_sel_target(&opt->sel, "w3dlint", c == OPT_GAME ? "--game" : "--target", optarg) != 0) {
				usage_hint();
				return EXIT_TROUBLE;
			}
			break;
		case OPT_SELECT:
		case OPT_EXTEND_SELECT:
		case OPT_IGNORE:
			if (wl_cli_sel_add(&opt->sel, c == OPT_SELECT ? WL_SEL_SELECT : c == OPT_EXTEND_SELECT ? WL_SEL_EXTEND
													: WL_SEL_IGNORE,
					   optarg) != 0) {
				fputs("w3dlint: out of memory\n", stderr);
				return EXIT_TROUBLE;
			}
			break;
		case OPT_SHOW_INFOS: opt->show_infos = true; break;
		case OPT_VERBOSE: opt->verbose = true; break;
		case OPT_BASE: {
			const char **nb = realloc(opt->bases, (opt->nbases + 1) * sizeof *nb);
			if (!nb) {
				fputs("w3dlint: out of memory\n", stderr);
				return EXIT_TROUBLE;
			}
			opt->bases = nb;
			nb[opt->nbases++] = optarg;
			break;
		}
		case OPT_LIST_RULES: opt->list_rules = true; break;
		case OPT_EXPLAIN: opt->explain = optarg; break;
		case OPT_FAIL_ON:
			opt->fail_on = wl_severity_parse(optarg);
			if (opt->fail_on < 0) {
				fprintf(stderr, "w3dlint: unknown severity '%s' for --fail-on (error, warning, info or off)\n",
					optarg);
				usage_hint();
				return EXIT_TROUBLE;
			}
			break;
		default:
			/* a help page shown: -1, exit 0 */
			return wl_cli_common_option(&DOC, c, argv) == 0 ? -1 : EXIT_TROUBLE;
		}
	}
	if (opt->baseline && opt->write_baseline) {
		fputs("w3dlint: --baseline and --write-baseline cannot be used together\n", stderr);
		usage_hint();
		return EXIT_TROUBLE;
	}
	*first_path = optind;
	return EXIT_CLEAN;
}

static void run_free(run *r)
{
	if (r->held)
		for (size_t i = 0; i < r->files.count; i++)
			result_free(r->held[i]);
	free(r->held);
	free(r->by_path);
	free(r->xref_add);
	wl_xref_free(r->xref);
	wl_reporter_free(r->rep);
	wl_cli_out_abort(&r->dest); /* a report not finished is not written */
	free(r->file_cfg);
	free(r->file_layout);
	wl_pathlist_free(&r->files);
	wl_pathlist_free(&r->unreadable);
	wl_pathlist_free(&r->base_dirs);
	wl_pathlist_free(&r->base_files);
	config_cache_free(&r->cache);
	wl_config_free(r->forced);
	wl_baseline_free(r->baseline);
	wl_catalog_free(r->cat);
}

static void walk_error(void *ud, const char *path, int errnum)
{
	run *r = ud;
	if (errnum == 0) {
		if (r->opt->verbose)
			fprintf(stderr, "w3dlint: %s: skipped: a dangling link to a file w3dlint would not lint\n", path);
		return;
	}
	fprintf(stderr, "w3dlint: %s: %s\n", path, strerror(errnum));
	note_unreadable(r, path);
}

/* Adds dir to the base folders unless it is there already. */
static int add_base_dir(run *r, const char *dir)
{
	for (size_t i = 0; i < r->base_dirs.count; i++)
		if (strcmp(r->base_dirs.items[i], dir) == 0)
			return 0;
	char *copy = strdup(dir);
	char **grown = copy ? realloc(r->base_dirs.items, (r->base_dirs.count + 1) * sizeof *grown) : NULL;
	if (!grown) {
		free(copy);
		return -1;
	}
	r->base_dirs.items = grown;
	grown[r->base_dirs.count++] = copy;
	return 0;
}

/* The base folders (--base, then every configuration's base:) and their
 * model files.  A folder that cannot be read is said on stderr and makes
 * the exit status 2, as an unreadable PATH does.  -1 when out of memory. */
static int collect_bases(run *r)
{
	for (size_t i = 0; i < r->opt->nbases; i++)
		if (add_base_dir(r, r->opt->bases[i]) != 0)
			return -1;
	for (size_t i = 0; i < wl_config_base_count(r->forced); i++)
		if (add_base_dir(r, wl_config_base_at(r->forced, i)) != 0)
			return -1;
	for (size_t c = 0; c < r->cache.count; c++)
		for (size_t i = 0; i < wl_config_base_count(r->cache.cfgs[c]); i++)
			if (add_base_dir(r, wl_config_base_at(r->cache.cfgs[c], i)) != 0)
				return -1;
	for (size_t i = 0; i < r->base_dirs.count; i++) {
		int rc = wl_walk_collect(r->base_dirs.items[i], &r->base_files, walk_error, r);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			r->trouble = true;
			r->totals.unreadable += (uint64_t)rc;
		}
	}
	return 0;
}

/* Collects the files, loads the configurations and the baseline: all that
 * can fail before any report is written.  Returns EXIT_CLEAN or
 * EXIT_TROUBLE. */
static int prepare(run *r, char **paths, int npaths)
{
	const cli *opt = r->opt;
	if (opt->config) {
		char err[1024] = "";
		r->forced = wl_config_load(r->cat, opt->config, err, sizeof err);
		if (!r->forced) {
			fprintf(stderr, "%s\n", err[0] ? err : opt->config);
			return EXIT_TROUBLE;
		}
	}
	const char *bl = opt->baseline ? opt->baseline : opt->write_baseline;
	if (bl) {
		char err[1024] = "";
		r->recording = opt->write_baseline != NULL;
		r->baseline = wl_baseline_load(bl, r->recording, err, sizeof err);
		if (!r->baseline) {
			fprintf(stderr, "w3dlint: %s\n", err[0] ? err : bl);
			return EXIT_TROUBLE;
		}
	}
	for (int i = 0; i < npaths; i++) {
		size_t before = r->files.count;
		int rc = wl_walk_collect(paths[i], &r->files, walk_error, r);
		if (rc < 0) {
			fprintf(stderr, "w3dlint: out of memory collecting files\n");
			return EXIT_TROUBLE;
		}
		if (rc > 0) {
			r->trouble = true;
			r->totals.unreadable += (uint64_t)rc;
		}
		else if (r->files.count == before)
			fprintf(stderr, "w3dlint: %s: no model files found (W3D, B3D, P3D)\n", paths[i]);
	}
	/* Archives as folders: each followed by its model entries. */
	if (wl_walk_expand_archives(&r->files) != 0) {
		fprintf(stderr, "w3dlint: out of memory collecting files\n");
		return EXIT_TROUBLE;
	}
	int rc = resolve_configs(r);
	if (rc == -2)
		fprintf(stderr, "w3dlint: out of memory loading configurations\n");
	if (rc != 0)
		return EXIT_TROUBLE;
	/* Cross-file checks: a folder is the unit the references live in.  A
	 * list of files alone (pre-commit passes only the staged ones) would
	 * report every object of an unlisted file as missing, so it needs
	 * --xref. */
	if (collect_bases(r) != 0) {
		fprintf(stderr, "w3dlint: out of memory collecting the base folders\n");
		return EXIT_TROUBLE;
	}
	bool xref = opt->xref == 1 || (opt->xref < 0 && r->base_dirs.count > 0);
	for (int i = 0; opt->xref < 0 && !xref && i < npaths; i++) {
		struct stat st;
		xref = stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode);
	}
	if (xref && xref_setup(r) != 0) {
		fprintf(stderr, "w3dlint: out of memory\n");
		return EXIT_TROUBLE;
	}
	return EXIT_CLEAN;
}

static wl_reporter *make_reporter(run *r, bool to_stdout)
{
	const cli *opt = r->opt;
	if (strcmp(opt->format, "json") == 0)
		return wl_report_json_new(r->out);
	if (strcmp(opt->format, "sarif") == 0)
		return wl_report_sarif_new(r->out, r->cat);
	if (strcmp(opt->format, "github") == 0)
		return wl_report_github_new(r->out, opt->fold);
	const char *term = getenv("TERM");
	bool color = to_stdout && isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL &&
		     !(term && strcmp(term, "dumb") == 0);
	return wl_report_text_new(r->out, color, opt->quiet, opt->fold);
}

/* After the last file: stale baseline entries, finish, --write-baseline. */
static int finish_run(run *r, bool to_stdout)
{
	const cli *opt = r->opt;
	wl_report_summary sum = { r->totals, opt->baseline, NULL, 0, r->max_findings, r->hide_infos,
				  (const char *const *)r->unreadable.items, r->unreadable.count };
	wl_report_stale *stale = NULL;
	if (opt->baseline) {
		size_t n = wl_baseline_stale(r->baseline, &stale);
		if (n == (size_t)-1) {
			fprintf(stderr, "w3dlint: out of memory comparing with the baseline\n");
			return EXIT_TROUBLE;
		}
		sum.stale = stale;
		sum.stale_count = n;
	}
	int rc = wl_reporter_finish(r->rep, &sum);
	free(stale);
	if (rc != 0) {
		fprintf(stderr, "w3dlint: %s: cannot write the report: %s\n",
			to_stdout ? "standard output" : opt->output, errno ? strerror(errno) : "out of memory");
		return EXIT_TROUBLE;
	}
	if (r->recording) {
		char err[1024] = "";
		size_t skipped = 0;
		if (wl_baseline_save(r->baseline, &skipped, err, sizeof err) != 0) {
			fprintf(stderr, "w3dlint: cannot write the baseline: %s\n", err);
			return EXIT_TROUBLE;
		}
		fprintf(stderr, "w3dlint: %s: recorded %" PRIu64 " %s in %" PRIu64 " %s\n", opt->write_baseline,
			r->totals.baselined, r->totals.baselined == 1 ? "finding" : "findings", r->recorded_files,
			r->recorded_files == 1 ? "file" : "files");
		if (skipped)
			fprintf(stderr, "w3dlint: %s: %zu entries left out: their paths are not UTF-8\n",
				opt->write_baseline, skipped);
	}
	return EXIT_CLEAN;
}

/* Everything after the options: returns the exit status. */
static int lint_paths(run *r, char **paths, int npaths)
{
	const cli *opt = r->opt;
	if (prepare(r, paths, npaths) != EXIT_CLEAN)
		return EXIT_TROUBLE;

	bool to_stdout = !opt->output || strcmp(opt->output, "-") == 0;
	if (wl_cli_out_open(&DOC, &r->dest, opt->output) != 0)
		return EXIT_TROUBLE;
	r->out = r->dest.fp;
	r->rep = make_reporter(r, to_stdout);
	bool listing = strcmp(opt->format, "text") == 0 || strcmp(opt->format, "github") == 0;
	r->hide_infos = listing && !opt->show_infos && opt->fail_on != WL_SEV_INFO;
	r->max_findings = opt->max_findings;
	if (!opt->max_findings_given && strcmp(opt->format, "sarif") == 0)
		r->max_findings = SARIF_MAX_RESULTS;
	if (!r->rep) {
		fprintf(stderr, "w3dlint: out of memory\n");
		return EXIT_TROUBLE;
	}

	wl_progress_init(&r->pg, !opt->no_progress, r->files.count);
	r->shares_terminal = to_stdout && isatty(STDOUT_FILENO);
	r->bare = opt->quiet && strcmp(opt->format, "text") == 0;
	/* Each worker holds one document at a time; the reorder buffer holds
	 * up to RESULTS_PER_JOB detached results per job, so that one large
	 * file does not stall the other workers. */
	unsigned jobs = opt->jobs ? opt->jobs : wl_pool_online_cpus();
	wl_mem_set_cap(memory_cap(r));
	errno = 0;
	int rc = wl_pool_run(r->files.count, jobs, RESULTS_PER_JOB * (size_t)jobs, lint_work, lint_emit, lint_discard,
			     r);
	wl_progress_clear(&r->pg);
	if (rc == 0 && r->held)
		rc = report_held(r, paths, npaths);
	if (rc != 0) {
		fprintf(stderr, "w3dlint: %s: cannot write the report: %s\n",
			to_stdout ? "standard output" : opt->output, errno ? strerror(errno) : "out of memory");
		return EXIT_TROUBLE;
	}
	if (finish_run(r, to_stdout) != EXIT_CLEAN)
		return EXIT_TROUBLE;
	r->out = NULL;
	if (wl_cli_out_close(&DOC, &r->dest) != 0)
		return EXIT_TROUBLE;
	if (r->trouble)
		return EXIT_TROUBLE;
	return r->failed ? EXIT_FINDINGS : EXIT_CLEAN;
}

int main(int argc, char **argv)
{
	cli opt;
	int first = 0;
	wl_sw_signals_init();
	int rc = parse_args(argc, argv, &opt, &first);
	if (rc != EXIT_CLEAN || (!opt.list_rules && !opt.explain && first >= argc)) {
		if (rc == EXIT_CLEAN) {
			fputs("w3dlint: no PATH given\n", stderr);
			usage_hint();
			rc = EXIT_TROUBLE;
		}
		wl_cli_sel_free(&opt.sel);
		free(opt.bases);
		if (rc < 0)
			return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_TROUBLE;
		return rc;
	}

	/* Messages are formatted only for the findings a report writes
	 * (core/finding.h), before any worker thread starts. */
	wl_findings_lazy(1);
#ifdef __GLIBC__
	/* Every file's buffer and arena are freed before the next file: keep
	 * that memory for the next one instead of handing it back to the
	 * system and faulting it in again (a third of -q's time went to page
	 * faults and zeroing fresh pages).  Peak RSS is the same: it is set by
	 * the largest file. */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
	run r;
	memset(&r, 0, sizeof r);
	r.opt = &opt;
	char err[1024] = "";
	r.cat = wl_catalog_load_builtin(err, sizeof err);
	if (!r.cat) {
		fprintf(stderr, "w3dlint: cannot load the built-in rule catalogue: %s\n",
			err[0] ? err : "no catalogue in this build");
		return EXIT_TROUBLE;
	}
	if (wl_cli_sel_check(&opt.sel, r.cat, "w3dlint") != 0) {
		usage_hint();
		rc = EXIT_TROUBLE;
	} else if (opt.list_rules) {
		list_rules(r.cat, stdout);
		rc = EXIT_CLEAN;
	} else if (opt.explain) {
		rc = explain_rule(r.cat, opt.explain, stdout);
	} else {
		rc = lint_paths(&r, argv + first, argc - first);
	}
	if (rc == EXIT_TROUBLE ? fflush(stdout) != 0 || ferror(stdout) /* said already */
			       : wl_cli_flush_stdout(&DOC) != 0)
		rc = EXIT_TROUBLE;
	run_free(&r);
	wl_cli_sel_free(&opt.sel);
	free(opt.bases);
	return rc;
}
