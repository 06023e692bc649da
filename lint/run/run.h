/*
 * run.h - one lint run over many files: what a front end (cli/main_w3dlint.c)
 * hands the library after parsing its options.  The run owns
 *   - the configurations: --config, or the .w3dlint.yaml found by walking up
 *     from each file's folder (config.h wl_config_locate), loaded once per
 *     configuration file and looked up once per folder, with the targets
 *     the mod's layout names (target.h wl_target_layout);
 *   - the worker side of a file: lint its bytes (lint.h), add it to the
 *     cross-file index, detach its findings from the document
 *     (wl_run_result: findings, chunk paths and messages in one block);
 *   - the report side, in file order: the baseline (baseline.h: matching or
 *     recording), the fail-on threshold, --max-findings, the counts, the
 *     reporter (report.h);
 *   - the cross-file checks (xref.h): the index, the base folders' files,
 *     the results held until the index is complete, the cross-file findings
 *     merged into the file that names the object (report order: offset,
 *     then rule id; on a tie the file's own finding first);
 *   - the summary and --write-baseline at the end.
 * The front end collects the files (folder walk, archive entries), reads
 * their bytes, runs the workers, and owns the output stream and progress
 * line.  Diagnostics go to the stream given in wl_run_opts.diag, each line
 * after the before_diag hook (the progress line is cleared then).
 *
 * Threads: wl_run_lint runs on worker threads and touches only its result
 * and the run's read-only state; everything else runs on one thread.
 */
#ifndef WL_RUN_H
#define WL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lint/catalog.h"
#include "lint/config/config.h"
#include "lint/report/report.h"

/* One file of the run, as the front end collected it. */
typedef struct wl_run_item {
	const char *path;         /* as reported: a file, or "ARCHIVE:PATH" */
	const char *host;         /* the file on disk: the archive for an entry */
	/* An archive's entry: the archive's path, the entry's path inside it,
	 * its file offset when stored as is (-1 when packed); NULL, NULL, 0
	 * for a file. */
	const char *archive;
	const char *entry;
	int64_t entry_offset;
} wl_run_item;

typedef struct wl_run_opts {
	const wl_cli_rules *rules;    /* --select, --ignore, --target; may be NULL */
	const char *config;           /* --config FILE, or NULL */
	const char *baseline;         /* --baseline FILE, or NULL */
	const char *write_baseline;   /* --write-baseline FILE, or NULL */
	const char *const *bases;     /* --base FOLDER, in order */
	size_t nbases;
	int fail_on;                  /* a wl_severity, or -1: the configuration's */
	bool verbose;                 /* name each file's format and targets */
	FILE *diag;                   /* diagnostics (standard error) */
	void (*before_diag)(void *ud);/* called before each diagnostic line */
	void (*before_report)(void *ud); /* before a file with findings is
	                                  * reported (terminal shared) */
	void *ud;
} wl_run_opts;

typedef struct wl_run wl_run;
typedef struct wl_run_result wl_run_result;

/**
 * A run over catalogue cat (borrowed) with options o (copied; the strings
 * borrowed).  Loads --config and the baseline; on failure writes the
 * message to o->diag and returns NULL with *failed set (NULL and *failed
 * false: out of memory).
 */
wl_run *wl_run_new(const wl_catalog *cat, const wl_run_opts *o, bool *failed);
void wl_run_free(wl_run *r);

/** A path the front end could not read (kept for SARIF, the first 1000). */
void wl_run_note_unreadable(wl_run *r, const char *path);
/** n paths could not be read: exit status 2, counted in the summary. */
void wl_run_count_unreadable(wl_run *r, uint64_t n);

/**
 * Sets the files of the run (borrowed; they must outlive it) and resolves
 * the configuration and layout targets of each, so that a bad
 * configuration stops the run before any report is written.  Returns 0;
 * -1 with the message written when a configuration cannot be loaded; -2
 * when out of memory.
 */
int wl_run_set_files(wl_run *r, const wl_run_item *items, size_t n);

/** The base folders: --base, then every configuration's base:, each once
 *  (after wl_run_set_files).  -1 when out of memory. */
int wl_run_base_dirs(wl_run *r, const char *const **dirs, size_t *n);

/** The model files of the base folders (borrowed): indexed for the
 *  cross-file checks, never linted nor reported. */
void wl_run_set_base_files(wl_run *r, const char *const *files, size_t n);

/** The shared memory cap: given (--memory-cap) when not 0, else the
 *  smallest memory-cap of the configurations in use, else 0. */
uint64_t wl_run_memory_cap(const wl_run *r, uint64_t given);

/** Turns the cross-file checks on (after wl_run_set_files): results are
 *  held until wl_run_report_held.  -1 when out of memory. */
int wl_run_xref_on(wl_run *r);

/**
 * Starts the report: rep (borrowed) gets the files; bare: the report shows
 * no finding (text --quiet: no message or chunk path is kept); hide_infos:
 * info findings are counted, not listed (text, github without
 * --show-infos); max_findings: findings shown in all (0: no limit).
 */
void wl_run_start(wl_run *r, wl_reporter *rep, bool bare, bool hide_infos, uint64_t max_findings);

/**
 * Worker: lints file i from bytes[0..have) (owned: freed here), size the
 * file's size in bytes.  have < size only for an archive read from its head
 * (core/archive/archive.h wl_archive_read_table: a BIG's table): the archive
 * checks need its table and the file's size, its entries are items of their
 * own.  NULL only when out of memory.
 */
wl_run_result *wl_run_lint(const wl_run *r, size_t i, uint8_t *bytes, uint64_t have, uint64_t size);

/**
 * Reads the whole file path for the lint (core/file_io.h: regular files of
 * at most 1 GiB; WL_READ_SNIFF: a file its format refuses by its first
 * bytes is not read past them).  Returns -1 with "w3dlint: PATH: REASON"
 * in err when it cannot be read.  Thread-safe; prints nothing.
 */
int wl_run_read(const char *path, uint8_t **out, uint64_t *out_size, char *err, size_t errcap);

/** Worker: the result of file i that could not be read (error: the line
 *  to write).  NULL when out of memory. */
wl_run_result *wl_run_unread(const char *error);

void wl_run_result_free(wl_run_result *res);

/**
 * Main thread, in file order: reports file i (res owned; NULL: out of
 * memory in the worker), or holds it when the cross-file checks are on.
 * Returns -1 when the report could not be written.
 */
int wl_run_emit(wl_run *r, size_t i, wl_run_result *res);

/**
 * After every file was emitted, with the cross-file checks on: indexes the
 * textures of the folders among paths and the base folders' files, runs
 * the cross-file checks and reports the held results in file order.
 * Returns -1 when the report could not be written.
 */
int wl_run_report_held(wl_run *r, char **paths, int npaths);

/** True when the cross-file checks are on. */
bool wl_run_holds(const wl_run *r);

/**
 * The end: stale baseline entries, the summary (rep's finish), and
 * --write-baseline.  dest names the report's destination in messages.
 * Returns 0, or -1 with the message written.
 */
int wl_run_finish(wl_run *r, const char *dest);

/** Exit status of the run so far: 2 (trouble), 1 (a finding at or above
 *  the failing severity), 0. */
int wl_run_status(const wl_run *r);

#endif
