/*
 * main_w3dlint.c - the w3dlint front end: options, file collection,
 * configuration lookup, one lint per file, report, exit status.
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
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"
#include "cli_walk.h"
#include "config.h"
#include "lint.h"
#include "report.h"

#define EXIT_CLEAN 0
#define EXIT_FINDINGS 1
#define EXIT_TROUBLE 2

/* Files larger than this are refused (a guard against reading a device or
 * a mistaken multi-gigabyte file into memory). */
#define MAX_FILE_BYTES ((uint64_t)1 << 30)

/* Shows progress only above this many files. */
#define PROGRESS_MIN_FILES 20

enum {
	OPT_LIST_RULES = 256,
	OPT_EXPLAIN,
	OPT_FAIL_ON,
	OPT_NO_PROGRESS
};

/* The option table: drives getopt_long and --help. */
typedef struct opt_doc {
	const char *name;
	int has_arg;
	int val;          /* short option letter, or OPT_* */
	const char *arg;  /* argument name for --help, or NULL */
	const char *help;
} opt_doc;

static const opt_doc OPTS[] = {
	{ "format", required_argument, 'f', "FORMAT",
	  "report format: text (default) or json (schema: docs/report-json.md)" },
	{ "output", required_argument, 'o', "FILE", "write the report to FILE instead of standard output" },
	{ "config", required_argument, 'c', "FILE",
	  "use this configuration for every file instead of the .w3dlint.yaml found by walking up from each file" },
	{ "fail-on", required_argument, OPT_FAIL_ON, "SEVERITY",
	  "lowest severity that makes the exit status 1: error (default), warning, info, or off (never); "
	  "overrides the configuration's fail-on" },
	{ "quiet", no_argument, 'q', NULL, "text report: print only the summary line, no finding lines" },
	{ "no-progress", no_argument, OPT_NO_PROGRESS, NULL,
	  "never show the progress line (it only appears on a terminal, for more than 20 files)" },
	{ "list-rules", no_argument, OPT_LIST_RULES, NULL,
	  "list the rule catalogue, one rule a line: id, default severity, category, fixable, summary" },
	{ "explain", required_argument, OPT_EXPLAIN, "ID",
	  "print the catalogue entry of rule ID: explanation, parameters and their defaults" },
	{ "version", no_argument, 'V', NULL, "print the version and exit" },
	{ "help", no_argument, 'h', NULL, "print this help and exit" },
};
#define OPT_COUNT (sizeof OPTS / sizeof OPTS[0])

typedef struct cli {
	const char *format;
	const char *output;
	const char *config;
	const char *explain;
	int fail_on;         /* -1 when not given */
	bool list_rules;
	bool quiet;
	bool no_progress;
} cli;

/* ---------------------------------------------------------------- help */

/* Prints text indented by indent, wrapped at width columns; the first line
 * continues at column col.  Keeps the line breaks already in text. */
static void wrap(FILE *out, const char *text, int indent, int col, int width)
{
	const char *p = text;
	while (*p) {
		if (*p == '\n') {
			fputc('\n', out);
			p++;
			col = 0;
			continue;
		}
		if (*p == ' ') {
			p++;
			continue;
		}
		size_t w = strcspn(p, " \n");
		if (col > indent && col + 1 + (int)w > width) {
			fputc('\n', out);
			col = 0;
		}
		if (col < indent) {
			fprintf(out, "%*s", indent - col, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, w, out);
		col += (int)w;
		p += w;
	}
	if (col > 0)
		fputc('\n', out);
}

static void print_help(FILE *out)
{
	fputs("Usage: w3dlint [OPTION]... PATH...\n"
	      "Lint Westwood/EA W3D model files (.w3d .wlt .wht .wha .wtm, any letter case).\n"
	      "Folders are searched recursively (sorted; hidden entries skipped); a file named\n"
	      "explicitly is linted whatever its extension.\n\n"
	      "Options:\n",
	      out);
	for (size_t i = 0; i < OPT_COUNT; i++) {
		const opt_doc *o = &OPTS[i];
		char head[64];
		if (o->val < 256)
			snprintf(head, sizeof head, "  -%c, --%s%s%s", o->val, o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(head, sizeof head, "      --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		fputs(head, out);
		int col = (int)strlen(head);
		if (col >= 28) {
			fputc('\n', out);
			col = 0;
		}
		wrap(out, o->help, 28, col, 79);
	}
	fputs("\nExit status:\n"
	      "  0  no finding at or above the failing severity (error unless --fail-on or\n"
	      "     the configuration's fail-on says otherwise)\n"
	      "  1  findings at or above the failing severity\n"
	      "  2  usage or configuration error, unreadable or missing path, internal error\n"
	      "     (a truncated or garbage model file is a finding, never status 2)\n\n"
	      "Configuration: .w3dlint.yaml, found by walking up from each file's folder to\n"
	      "the repository root; see README.md.  NO_COLOR disables colours.\n\n"
	      "Examples:\n"
	      "  w3dlint mod/                              lint a whole mod folder\n"
	      "  w3dlint --format json -o report.json mod/ machine-readable report\n"
	      "  w3dlint --fail-on warning art/tank.w3d    fail on warnings too\n"
	      "  w3dlint --explain pivot-parent-order      what a rule checks, and why\n",
	      out);
}

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
		fprintf(out, "%-*s  %-7s  %-*s  %-6s  %s\n", wid, r->id, wl_severity_name(r->severity), wcat,
			r->category, r->fixable, r->summary);
	}
}

static int explain_rule(const wl_catalog *cat, const char *id, FILE *out)
{
	const wl_rule_def *r = wl_catalog_find(cat, id);
	if (!r) {
		fprintf(stderr, "w3dlint: unknown rule id '%s' (w3dlint --list-rules lists them)\n", id);
		return EXIT_TROUBLE;
	}
	fprintf(out, "%s\n", r->id);
	fprintf(out, "  category:  %s\n", r->category);
	fprintf(out, "  severity:  %s (default)\n", wl_severity_name(r->severity));
	fprintf(out, "  fixable:   %s\n", r->fixable);
	fprintf(out, "  summary:   %s\n", r->summary);
	if (r->source_file && r->source_file[0])
		fprintf(out, "  catalogue: %s\n", r->source_file);
	fputc('\n', out);
	wrap(out, r->explanation, 2, 0, 79);
	if (r->params_count) {
		fputs("\nparameters (override in .w3dlint.yaml under rules: ID: params:):\n", out);
		for (size_t i = 0; i < r->params_count; i++) {
			const wl_param_def *p = &r->params[i];
			fprintf(out, "  %s = %g (default)\n", p->name, p->def);
			if (p->description && p->description[0])
				wrap(out, p->description, 6, 0, 79);
		}
	} else {
		fputs("\nparameters: none\n", out);
	}
	return EXIT_CLEAN;
}

/* ------------------------------------------------------------- progress */

typedef struct progress {
	bool on;
	bool shown;
	int width;
} progress;

static void progress_init(progress *pg, bool wanted, size_t total)
{
	pg->on = false;
	pg->shown = false;
	pg->width = 80;
	const char *term = getenv("TERM");
	if (!wanted || total <= PROGRESS_MIN_FILES || !isatty(STDERR_FILENO) || getenv("CI") ||
	    (term && strcmp(term, "dumb") == 0))
		return;
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		pg->width = ws.ws_col;
	pg->on = true;
}

static void progress_show(progress *pg, size_t n, size_t total, const char *path)
{
	if (!pg->on)
		return;
	char head[48];
	int hl = snprintf(head, sizeof head, "[%zu/%zu] ", n, total);
	size_t room = (size_t)(pg->width - 1 - hl);
	size_t len = strlen(path);
	fprintf(stderr, "\r\033[K%s", head);
	if (len <= room) {
		fputs(path, stderr);
	} else {
		fputs("...", stderr);
		fputs(path + len - (room > 3 ? room - 3 : 0), stderr);
	}
	fflush(stderr);
	pg->shown = true;
}

static void progress_clear(progress *pg)
{
	if (!pg->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	pg->shown = false;
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

static void walk_error(void *ud, const char *path, int errnum)
{
	(void)ud;
	fprintf(stderr, "w3dlint: %s: %s\n", path, strerror(errnum));
}

/* Reads the whole file.  Prints an error naming it and returns -1 when it
 * cannot be read or is larger than MAX_FILE_BYTES. */
static int read_file(const char *path, uint8_t **out, uint64_t *out_size)
{
	*out = NULL;
	*out_size = 0;
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		fprintf(stderr, "w3dlint: %s: %s\n", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fileno(fp), &st) != 0) {
		fprintf(stderr, "w3dlint: %s: %s\n", path, strerror(errno));
		fclose(fp);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "w3dlint: %s: %s\n", path, strerror(EISDIR));
		fclose(fp);
		return -1;
	}
	uint64_t hint = S_ISREG(st.st_mode) && st.st_size > 0 ? (uint64_t)st.st_size : 0;
	if (hint > MAX_FILE_BYTES) {
		fprintf(stderr, "w3dlint: %s: file is %" PRIu64 " bytes, over the 1 GiB limit; not linted\n", path,
			hint);
		fclose(fp);
		return -1;
	}
	/* Read until end of file: the size may change, and non-regular files
	 * have none.  One byte more than expected tells growth from EOF. */
	size_t cap = (size_t)hint + 1, len = 0;
	uint8_t *buf = malloc(cap);
	if (!buf)
		goto oom;
	for (;;) {
		if (len == cap) {
			if ((uint64_t)cap > MAX_FILE_BYTES) {
				fprintf(stderr, "w3dlint: %s: file is over the 1 GiB limit; not linted\n", path);
				free(buf);
				fclose(fp);
				return -1;
			}
			size_t ncap = cap < 65536 ? 65536 : cap * 2;
			if ((uint64_t)ncap > MAX_FILE_BYTES + 1)
				ncap = (size_t)MAX_FILE_BYTES + 1;
			uint8_t *nb = realloc(buf, ncap);
			if (!nb)
				goto oom;
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + len, 1, cap - len, fp);
		len += got;
		if (got == 0 || len < cap) {
			if (ferror(fp)) {
				fprintf(stderr, "w3dlint: %s: read error: %s\n", path, strerror(errno));
				free(buf);
				fclose(fp);
				return -1;
			}
			if (feof(fp))
				break;
		}
	}
	fclose(fp);
	*out = buf;
	*out_size = len;
	return 0;
oom:
	fprintf(stderr, "w3dlint: %s: out of memory reading the file\n", path);
	free(buf);
	fclose(fp);
	return -1;
}

/* ----------------------------------------------------------------- lint */

typedef struct run {
	const cli *opt;
	wl_catalog *cat;
	wl_config *forced;       /* --config, or NULL */
	config_cache cache;
	wl_pathlist files;
	wl_config **file_cfg;    /* per file, borrowed; NULL = no configuration */
	wl_reporter *rep;
	FILE *out;
	bool trouble;            /* exit status 2 */
	bool failed;             /* exit status 1 */
	wl_report_counts totals;
} run;

/* Resolves the configuration of every file before linting, so that a bad
 * configuration stops the run before any report is written. */
static int resolve_configs(run *r)
{
	r->file_cfg = calloc(r->files.count ? r->files.count : 1, sizeof *r->file_cfg);
	if (!r->file_cfg)
		return -2;
	for (size_t i = 0; i < r->files.count; i++) {
		if (r->forced) {
			r->file_cfg[i] = r->forced;
			continue;
		}
		char where[4096];
		if (wl_config_locate(r->files.items[i], where, sizeof where) != 1)
			continue;
		int rc = config_get(&r->cache, r->cat, where, &r->file_cfg[i]);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static wl_severity fail_threshold(const run *r, const wl_config *cfg)
{
	if (r->opt->fail_on >= 0)
		return (wl_severity)r->opt->fail_on;
	return cfg ? wl_config_fail_on(cfg) : WL_SEV_ERROR;
}

static void count_findings(const wl_doc *doc, wl_report_counts *c)
{
	for (size_t i = 0; i < doc->findings.count; i++) {
		switch (doc->findings.items[i].severity) {
		case WL_SEV_ERROR: c->errors++; break;
		case WL_SEV_WARNING: c->warnings++; break;
		case WL_SEV_INFO: c->infos++; break;
		default: break;
		}
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
}

/* Lints file i and reports it.  The progress line, when shown on the
 * terminal the report goes to, is cleared before report lines are written.
 * Returns -1 only when the report could not be written (out of memory or an
 * output error). */
static int lint_one(run *r, size_t i, progress *pg, bool shares_terminal)
{
	const char *path = r->files.items[i];
	const wl_config *cfg = r->file_cfg[i];
	uint8_t *bytes;
	uint64_t size;
	if (read_file(path, &bytes, &size) != 0) {
		r->trouble = true;
		return 0;
	}
	wl_doc *doc = wl_lint_bytes(r->cat, cfg, path, bytes, size);
	if (!doc) {
		fprintf(stderr, "w3dlint: %s: out of memory\n", path);
		free(bytes);
		r->trouble = true;
		return 0;
	}
	wl_file_report fr = { path, size, doc, NULL, 0, { 0 } };
	fr.counts.files = 1;
	count_findings(doc, &fr.counts);
	fr.counts.files_with_errors = fr.counts.errors > 0;

	const wl_findings *fs = &doc->findings;
	wl_report_dropped *dropped = NULL;
	if (fs->rules_count) {
		dropped = malloc(fs->rules_count * sizeof *dropped);
		if (!dropped) {
			wl_doc_free(doc);
			free(bytes);
			return -1;
		}
		for (size_t k = 0; k < fs->rules_count; k++) {
			const char *rule = fs->rules[k].rule;
			uint64_t n = wl_findings_dropped(fs, rule);
			if (n == 0 || wl_config_severity(cfg, r->cat, rule) == WL_SEV_OFF)
				continue;
			dropped[fr.dropped_count].rule = rule;
			dropped[fr.dropped_count].count = n;
			fr.dropped_count++;
			fr.counts.dropped += n;
		}
	}
	fr.dropped = dropped;

	wl_severity threshold = fail_threshold(r, cfg);
	if (threshold != WL_SEV_OFF && wl_lint_worst(doc) >= threshold)
		r->failed = true;
	add_counts(&r->totals, &fr.counts);

	if (shares_terminal && !r->opt->quiet && (doc->findings.count || fr.dropped_count))
		progress_clear(pg);
	int rc = wl_reporter_file(r->rep, &fr);
	free(dropped);
	wl_doc_free(doc);
	free(bytes);
	return rc;
}

/* ----------------------------------------------------------------- main */

static int parse_args(int argc, char **argv, cli *opt, int *first_path)
{
	struct option longs[OPT_COUNT + 1];
	char shorts[2 * OPT_COUNT + 2];
	size_t ns = 0;
	shorts[ns++] = ':';
	for (size_t i = 0; i < OPT_COUNT; i++) {
		longs[i].name = OPTS[i].name;
		longs[i].has_arg = OPTS[i].has_arg;
		longs[i].flag = NULL;
		longs[i].val = OPTS[i].val;
		if (OPTS[i].val < 256) {
			shorts[ns++] = (char)OPTS[i].val;
			if (OPTS[i].has_arg == required_argument)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = 0;
	memset(&longs[OPT_COUNT], 0, sizeof longs[OPT_COUNT]);

	memset(opt, 0, sizeof *opt);
	opt->format = "text";
	opt->fail_on = -1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") != 0 && strcmp(optarg, "json") != 0) {
				fprintf(stderr, "w3dlint: unknown report format '%s' (text or json)\n", optarg);
				usage_hint();
				return EXIT_TROUBLE;
			}
			opt->format = optarg;
			break;
		case 'o': opt->output = optarg; break;
		case 'c': opt->config = optarg; break;
		case 'q': opt->quiet = true; break;
		case OPT_NO_PROGRESS: opt->no_progress = true; break;
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
		case 'V':
			printf("%s %s\n", W3DLINT_NAME, W3DLINT_VERSION);
			return -1;
		case 'h':
			print_help(stdout);
			return -1;
		case ':':
			fprintf(stderr, "w3dlint: option '%s' needs an argument\n", argv[optind - 1]);
			usage_hint();
			return EXIT_TROUBLE;
		default:
			if (optopt && optopt < 256)
				fprintf(stderr, "w3dlint: unknown option '-%c'\n", optopt);
			else
				fprintf(stderr, "w3dlint: unknown option '%s'\n", argv[optind - 1]);
			usage_hint();
			return EXIT_TROUBLE;
		}
	}
	*first_path = optind;
	return EXIT_CLEAN;
}

static void run_free(run *r)
{
	wl_reporter_free(r->rep);
	if (r->out && r->out != stdout)
		fclose(r->out);
	free(r->file_cfg);
	wl_pathlist_free(&r->files);
	config_cache_free(&r->cache);
	wl_config_free(r->forced);
	wl_catalog_free(r->cat);
}

/* Everything after the options: returns the exit status. */
static int lint_paths(run *r, char **paths, int npaths)
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
	for (int i = 0; i < npaths; i++) {
		size_t before = r->files.count;
		int rc = wl_walk_collect(paths[i], &r->files, walk_error, NULL);
		if (rc < 0) {
			fprintf(stderr, "w3dlint: out of memory collecting files\n");
			return EXIT_TROUBLE;
		}
		if (rc > 0)
			r->trouble = true;
		else if (r->files.count == before)
			fprintf(stderr, "w3dlint: %s: no W3D files found\n", paths[i]);
	}
	int rc = resolve_configs(r);
	if (rc == -2)
		fprintf(stderr, "w3dlint: out of memory loading configurations\n");
	if (rc != 0)
		return EXIT_TROUBLE;

	bool to_stdout = !opt->output || strcmp(opt->output, "-") == 0;
	if (to_stdout) {
		r->out = stdout;
	} else {
		r->out = fopen(opt->output, "w");
		if (!r->out) {
			fprintf(stderr, "w3dlint: %s: %s\n", opt->output, strerror(errno));
			return EXIT_TROUBLE;
		}
	}
	if (strcmp(opt->format, "json") == 0) {
		r->rep = wl_report_json_new(r->out);
	} else {
		const char *term = getenv("TERM");
		bool color = to_stdout && isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL &&
			     !(term && strcmp(term, "dumb") == 0);
		r->rep = wl_report_text_new(r->out, color, opt->quiet);
	}
	if (!r->rep) {
		fprintf(stderr, "w3dlint: out of memory\n");
		return EXIT_TROUBLE;
	}

	progress pg;
	progress_init(&pg, !opt->no_progress, r->files.count);
	bool write_failed = false;
	bool shares_terminal = to_stdout && isatty(STDOUT_FILENO);
	for (size_t i = 0; i < r->files.count && !write_failed; i++) {
		progress_show(&pg, i + 1, r->files.count, r->files.items[i]);
		if (lint_one(r, i, &pg, shares_terminal) != 0)
			write_failed = true;
	}
	progress_clear(&pg);
	if (write_failed || wl_reporter_finish(r->rep, &r->totals) != 0) {
		fprintf(stderr, "w3dlint: %s: cannot write the report: %s\n",
			to_stdout ? "standard output" : opt->output, errno ? strerror(errno) : "out of memory");
		return EXIT_TROUBLE;
	}
	if (!to_stdout) {
		FILE *fp = r->out;
		r->out = NULL;
		if (fclose(fp) != 0) {
			fprintf(stderr, "w3dlint: %s: cannot write the report: %s\n", opt->output, strerror(errno));
			return EXIT_TROUBLE;
		}
	}
	if (r->trouble)
		return EXIT_TROUBLE;
	return r->failed ? EXIT_FINDINGS : EXIT_CLEAN;
}

int main(int argc, char **argv)
{
	cli opt;
	int first = 0;
	int rc = parse_args(argc, argv, &opt, &first);
	if (rc < 0)
		return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_TROUBLE;
	if (rc != EXIT_CLEAN)
		return rc;
	if (!opt.list_rules && !opt.explain && first >= argc) {
		fputs("w3dlint: no PATH given\n", stderr);
		usage_hint();
		return EXIT_TROUBLE;
	}

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
	if (opt.list_rules) {
		list_rules(r.cat, stdout);
		rc = EXIT_CLEAN;
	} else if (opt.explain) {
		rc = explain_rule(r.cat, opt.explain, stdout);
	} else {
		rc = lint_paths(&r, argv + first, argc - first);
	}
	if (fflush(stdout) != 0 && rc == EXIT_CLEAN)
		rc = EXIT_TROUBLE;
	run_free(&r);
	return rc;
}
