/* w3dlint_opts.c - w3dlint's option table and help texts (w3dlint_opts.h). */
#include "w3dlint_opts.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_io.h"
#include "core/grow.h"
#include "pool.h"

/* The option table: drives getopt_long, --help and --man (cli/opts.h). */
static const wl_opt OPTS[] = {
	{ "format", required_argument, 'f', "FORMAT",
	  "report format: text (default), json (docs/report-json.md), sarif (SARIF 2.1.0 for GitHub code "
	  "scanning, docs/report-sarif.md), github (GitHub Actions annotations) or html (one self-contained page: "
	  "the findings by file and rule, each shown on its model in 3D, with the geometry of the files that "
	  "have findings; docs/web.md)" },
	{ "output", required_argument, 'o', "FILE",
	  "write the report to FILE instead of standard output (- for standard output); a regular file only, "
	  "replaced whole once the report is complete" },
	{ "config", required_argument, 'c', "FILE",
	  "use this configuration for every file instead of the .w3dlint.yaml found by walking up from each file" },
	{ "fail-on", required_argument, OPT_FAIL_ON, "SEVERITY",
	  "lowest severity that makes the exit status 1: error (default), warning, info, or off (never); "
	  "overrides the configuration's fail-on" },
	{ "quiet", no_argument, 'q', NULL, "text report: print only the summary line, no finding lines" },
	WL_OPT_JOBS,
	WL_OPT_MEMORY_CAP(OPT_MEMORY_CAP),
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
	  "arma; Data/INI -> generals, bfme (bfme when its INI files hold a BFME-only block); when neither names one, a B3D file gets the game engines luanti, "
	  "irrlicht, blitz3d, and assimp only when named or with any).  Each rule runs at the severity the catalogue gives it for the "
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
	WL_OPT_BASE(OPT_BASE),
	{ "verbose", no_argument, OPT_VERBOSE, NULL,
	  "name on standard error what the run skips (dangling links to files it would not lint) and each "
	  "folder's detected targets" },
	WL_OPT_XREF(OPT_XREF),
	WL_OPT_NO_XREF(OPT_NO_XREF),
	WL_OPT_NO_PROGRESS(OPT_NO_PROGRESS),
	{ "list-rules", no_argument, OPT_LIST_RULES, NULL,
	  "list the rule catalogue, one rule a line: id, default severity, category, fixable, summary; "
	  "(opt-in) marks the rules outside the default set" },
	{ "explain", required_argument, OPT_EXPLAIN, "ID",
	  "print the catalogue entry of rule ID: format, severity per target, sources, explanation, "
	  "parameters and their defaults" },
	WL_OPT_COMMON,
};
_Static_assert(sizeof OPTS / sizeof OPTS[0] == W3DLINT_OPT_COUNT, "W3DLINT_OPT_COUNT is the size of OPTS");

const wl_cli_doc wl_w3dlint_doc = {
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
	W3DLINT_OPT_COUNT,
	"  w3dlint mod/                              lint a whole mod folder\n"
	"  w3dlint mods/mymod/models/                a Luanti mod (mod.conf: target luanti)\n"
	"  w3dlint @mymod/addons/                    an Arma addon (config.cpp: Arma)\n"
	"  w3dlint --format json -o report.json mod/ machine-readable report\n"
	"  w3dlint --format sarif -o w3dlint.sarif . for GitHub code scanning\n"
	"  w3dlint --format html -o report.html mod/ a page to open in a browser or attach\n"
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

/* Findings per (rule, message pattern) and file shown before folding. */
#define DEFAULT_FOLD 5

void wl_w3dlint_usage_hint(void)
{
	fputs("Try 'w3dlint --help' for more information.\n", stderr);
}

/* Parses a count option: a decimal integer in [lo, hi]. */
static int parse_count(const char *opt, const char *arg, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < lo || v > hi) {
		fprintf(stderr, "w3dlint: %s needs a whole number from %" PRIu64 " to %" PRIu64 ", not '%s'\n", opt,
			lo, hi, arg);
		wl_w3dlint_usage_hint();
		return 2;
	}
	*out = v;
	return 0;
}

int wl_w3dlint_parse(int argc, char **argv, wl_lint_cli *opt, int *first_path)
{
	struct option longs[W3DLINT_OPT_COUNT + 1];
	char shorts[2 * W3DLINT_OPT_COUNT + 2];
	wl_cli_getopt_tables(&wl_w3dlint_doc, longs, shorts);

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
			    strcmp(optarg, "github") != 0 && strcmp(optarg, "html") != 0) {
				fprintf(stderr, "w3dlint: unknown report format '%s' (text, json, sarif, github or html)\n",
					optarg);
				wl_w3dlint_usage_hint();
				return 2;
			}
			opt->format = optarg;
			break;
		case 'o': opt->output = optarg; break;
		case 'c': opt->config = optarg; break;
		case 'q': opt->quiet = true; break;
		case 'j':
			if (parse_count("--jobs", optarg, 1, WL_POOL_MAX_JOBS, &v) != 0)
				return 2;
			opt->jobs = (unsigned)v;
			break;
		case OPT_MEMORY_CAP:
			if (wl_mem_parse_size(optarg, &opt->memory_cap)) {
				fprintf(stderr, "w3dlint: --memory-cap needs a size (bytes, or a count with K, M, G or T, "
						"e.g. 512M), not '%s'\n", optarg);
				wl_w3dlint_usage_hint();
				return 2;
			}
			break;
		case OPT_BASELINE: opt->baseline = optarg; break;
		case OPT_WRITE_BASELINE: opt->write_baseline = optarg; break;
		case OPT_FOLD:
			if (parse_count("--fold", optarg, 0, 1000000, &v) != 0)
				return 2;
			opt->fold = (unsigned)v;
			break;
		case OPT_MAX_FINDINGS:
			if (parse_count("--max-findings", optarg, 0, UINT64_MAX, &opt->max_findings) != 0)
				return 2;
			opt->max_findings_given = true;
			break;
		case OPT_NO_PROGRESS: opt->no_progress = true; break;
		case OPT_XREF: opt->xref = 1; break;
		case OPT_NO_XREF: opt->xref = 0; break;
		case OPT_GAME:
		case OPT_TARGET:
			if (wl_cli_sel_target(&opt->sel, "w3dlint", c == OPT_GAME ? "--game" : "--target", optarg) != 0) {
				wl_w3dlint_usage_hint();
				return 2;
			}
			break;
		case OPT_SELECT:
		case OPT_EXTEND_SELECT:
		case OPT_IGNORE:
			if (wl_cli_sel_add(&opt->sel, c == OPT_SELECT ? WL_SEL_SELECT : c == OPT_EXTEND_SELECT ? WL_SEL_EXTEND
													: WL_SEL_IGNORE,
					   optarg) != 0) {
				fputs("w3dlint: out of memory\n", stderr);
				return 2;
			}
			break;
		case OPT_SHOW_INFOS: opt->show_infos = true; break;
		case OPT_VERBOSE: opt->verbose = true; break;
		case OPT_BASE: {
			if (!wl_grow((void **)&opt->bases, &opt->bases_cap, opt->nbases + 1, sizeof *opt->bases)) {
				fputs("w3dlint: out of memory\n", stderr);
				return 2;
			}
			opt->bases[opt->nbases++] = optarg;
			break;
		}
		case OPT_LIST_RULES: opt->list_rules = true; break;
		case OPT_EXPLAIN: opt->explain = optarg; break;
		case OPT_FAIL_ON:
			opt->fail_on = wl_severity_parse(optarg);
			if (opt->fail_on < 0) {
				fprintf(stderr, "w3dlint: unknown severity '%s' for --fail-on (error, warning, info or off)\n",
					optarg);
				wl_w3dlint_usage_hint();
				return 2;
			}
			break;
		default:
			/* a help page shown: -1, exit 0 */
			return wl_cli_common_option(&wl_w3dlint_doc, c, argv) == 0 ? -1 : 2;
		}
	}
	if (opt->baseline && opt->write_baseline) {
		fputs("w3dlint: --baseline and --write-baseline cannot be used together\n", stderr);
		wl_w3dlint_usage_hint();
		return 2;
	}
	*first_path = optind;
	return 0;
}
