/*
 * run_int.h - the state of a lint run (run.h), shared by its files:
 * run.c (set-up, configurations, base folders, summary), run_result.c
 * (the worker: lint and detach), run_report.c (baseline, counts, the
 * reporter) and run_xref.c (the cross-file index and merge).  Not a public
 * header.
 */
#ifndef WL_RUN_INT_H
#define WL_RUN_INT_H

#include "core/filekind.h"
#include "lint/report/baseline.h"
#include "lint/config/config_cache.h"
#include "run.h"
#include "lint/xref.h"

/* The configurations loaded so far, by file path. */
/* A list of malloc'd strings. */
typedef struct wl_run_strings {
	char **items;
	size_t count, cap;
} wl_run_strings;

/* A reference no file of the run defines, folded into the run's note
 * (no base game): its rule and a copy of the name. */
typedef struct wl_run_unres {
	wl_rule_id rule;
	char *name;
} wl_run_unres;

/* A file of the run, for looking up the path of a cross-file finding. */
typedef struct wl_run_path_ix {
	const char *path;
	size_t index;
} wl_run_path_ix;

struct wl_run {
	wl_run_opts o;
	const wl_catalog *cat;
	wl_config *forced;           /* --config, or NULL */
	wl_config_cache cache;       /* the configurations loaded */
	const wl_run_item *files;    /* borrowed */
	size_t nfiles;
	wl_config **file_cfg;        /* per file, borrowed; NULL = no configuration */
	wl_target_mask *file_layout; /* per file: targets its mod's layout names */
	wl_baseline *baseline;       /* --baseline or --write-baseline, or NULL */
	bool recording;              /* --write-baseline */
	wl_reporter *rep;            /* borrowed */
	bool bare;                   /* the report shows no finding (text --quiet):
	                              * workers detach no message or chunk path */
	bool hide_infos;             /* text/github without --show-infos */
	uint64_t max_findings;       /* 0: no limit */
	bool trouble;                /* exit status 2 */
	bool failed;                 /* exit status 1 */
	uint64_t shown;              /* findings handed to the reporter so far */
	uint64_t recorded_files;     /* --write-baseline: files with findings */
	wl_report_counts totals;
	wl_run_strings unreadable;   /* paths that could not be read (the first
	                              * 1000), for SARIF */
	wl_run_strings base_dirs;    /* --base and the configurations' base: */
	const char *const *base_files; /* their model files (indexed, not linted) */
	size_t nbase_files;
	/* Cross-file checks (NULL / unused when off). */
	wl_xref *xref;
	bool *xref_add;              /* per file: indexed (the first of equal paths) */
	wl_run_path_ix *by_path;     /* the files sorted by path, for the findings */
	wl_run_result **held;        /* per file, until the index is complete */
	bool xref_oom;
	/* The note on references no file defines (no base game). */
	wl_run_unres *unres;
	size_t unres_count, unres_cap;
	wl_report_tally *unres_tally; /* per rule, then the top names */
	wl_report_unresolved unres_note;
};

/* What a worker hands back for one file: its findings detached from the
 * document (which the worker frees at once, so that only one document per
 * thread is alive), with their chunk paths, messages and related paths
 * copied into one block. */
struct wl_run_result {
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
	char error[512];             /* printed on the diagnostics, in file order */
	/* Cross-file findings appended after items[own_count - 1] (sorted
	 * among themselves; run_xref.c sorts them into the file's), their
	 * strings one malloc'd block each. */
	size_t own_count, cap;
	char **extra;
	size_t extra_count, extra_cap;
};

/** Starts a diagnostic line: the before_diag hook; returns the stream.
 *  Inline, so that the run's parts (run.c, run_xref.c, ...) call it
 *  without calling back into run.c. */
static inline FILE *wl_run_diag(const wl_run *r)
{
	if (r->o.before_diag)
		r->o.before_diag(r->o.ud);
	return r->o.diag;
}

/** Frees the strings of l (run_strings.c). */
void wl_run_strings_free(wl_run_strings *l);

/** Appends a copy of s to l (run_strings.c).  -1 when out of memory. */
int wl_run_strings_add(wl_run_strings *l, const char *s);

/** The effective severity of rule for a file of configuration cfg and
 *  targets (per-path ignores aside: the engine applied them already). */
wl_severity wl_run_rule_severity(const wl_run *r, const wl_config *cfg, const char *rule, wl_target_mask targets); /* run_result.c */

/** Copies s into the block at *at (advanced); returns the copy. */
const char *wl_run_stash(char **at, const char *s);

/** Reports file i now (res owned).  -1 when the report could not be
 *  written. */
int wl_run_report_file(wl_run *r, size_t i, wl_run_result *res);

/** Frees the cross-file state. */
void wl_run_xref_free(wl_run *r);

/** The note on the references folded without a base game (count 0 when
 *  none), computed on the first call and owned by r; NULL when out of
 *  memory. */
const wl_report_unresolved *wl_run_unresolved(wl_run *r);

#endif
