/*
 * w3dlint_opts.h - w3dlint's options: the table that drives getopt_long,
 * --help and --man (cli/opts.h), and the values main_w3dlint.c parses
 * them into.
 */
#ifndef WL_CLI_W3DLINT_OPTS_H
#define WL_CLI_W3DLINT_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "opts.h"
#include "select.h"

/* The getopt_long values of the long options without a letter. */
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

/* Entries of the option table (WL_OPT_COMMON included). */
#define W3DLINT_OPT_COUNT 27

/* w3dlint's --help, --man and option table. */
extern const wl_cli_doc wl_w3dlint_doc;

typedef struct wl_lint_cli {
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
	size_t nbases, bases_cap;
	bool show_infos;
	bool verbose;
	int xref;            /* --xref 1, --no-xref 0, -1: on when a PATH is a folder */
	bool list_rules;
	bool quiet;
	bool no_progress;
} wl_lint_cli;

/** Prints "Try 'w3dlint --help' ..." to standard error. */
void wl_w3dlint_usage_hint(void);

/**
 * Parses w3dlint's options into opt (its lists point into argv; free them
 * with wl_cli_sel_free(&opt->sel) and free(opt->bases)); *first_path: the
 * index of the first PATH.  Returns 0; 2 after a usage message; -1 when a
 * help page (--help, --man, --version) was printed.
 */
int wl_w3dlint_parse(int argc, char **argv, wl_lint_cli *opt, int *first_path);

#endif
