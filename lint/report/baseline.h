/*
 * baseline.h - the baseline file (w3dlint-baseline.json): the findings a
 * project has accepted for now, so that linting reports only new ones.
 * Binary model files cannot hold suppression comments; like ESLint's
 * suppressions file, the baseline records counts, not positions, because
 * byte offsets move whenever an unrelated chunk changes size.
 *
 * File format (UTF-8 JSON, written with keys in byte order, two-space
 * indent, so that it diffs well under version control):
 *
 *   {
 *     "w3dlint-baseline": 1,
 *     "files": {
 *       "art/tank.w3d": { "mesh-bounds-box": 2, "pivot-parent-order": 1 }
 *     }
 *   }
 *
 * "files" maps a path relative to the folder holding the baseline file
 * ('/'-separated; "../" when outside it) to rule id -> number of findings.
 * The path is written in the escaped form of core/escape.h (a backslash
 * doubled, control bytes and bytes that are not UTF-8 as \xNN), so that
 * every path, UTF-8 or not, is a JSON key, and read back to its raw bytes
 * (wl_unescape) when loaded: keys are raw paths in memory.
 * Paths are made relative lexically (the current directory joined with a
 * relative path, "." and ".." resolved as text, symbolic links not
 * followed), so the same file named through another path is another key.
 *
 * Matching (wl_baseline_match), per linted file and rule: with k findings
 * found (kept plus dropped by the per-rule cap) and c recorded, the first
 * min(k, c) by offset are baselined and the last k - c (when k > c) are
 * reported as new.  A file with fewer findings than recorded (k < c), or a
 * recorded file that no longer exists, is a stale entry (wl_baseline_stale).
 * Files of the baseline that were not linted in this run are left alone.
 *
 * Writing (wl_baseline_record, then wl_baseline_save) replaces the entries of
 * every linted file with its current counts, keeps the entries of files not
 * linted in this run that still exist, and drops the entries of files that
 * no longer exist.  The file is written to a temporary file beside it and
 * renamed over it.
 *
 * Not thread-safe: the front end calls these from the thread that reports.
 */
#ifndef WL_BASELINE_H
#define WL_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/finding.h"
#include "report.h"

typedef struct wl_baseline wl_baseline;

/** The version number written as "w3dlint-baseline"; files with another
 *  value are refused. */
#define WL_BASELINE_VERSION 1

/** Baseline files larger than this are refused (bytes). */
#define WL_BASELINE_MAX_BYTES ((size_t)64 << 20)

/**
 * Loads the baseline at path.  When missing_ok and the file does not exist,
 * returns an empty baseline that wl_baseline_save will create.  On error
 * (unreadable, over WL_BASELINE_MAX_BYTES, not JSON, or not the shape above:
 * the message names the file and, for JSON syntax errors, line and column)
 * returns NULL and writes the message to err (errcap bytes).
 */
wl_baseline *wl_baseline_load(const char *path, bool missing_ok, char *err, size_t errcap);

/** Frees b (NULL is allowed). */
void wl_baseline_free(wl_baseline *b);

/** The baseline file's path as given to wl_baseline_load (borrowed). */
const char *wl_baseline_path(const wl_baseline *b);

/** The key of file_path: relative to the baseline's folder, see above.
 *  malloc'd; NULL when out of memory. */
char *wl_baseline_key(const wl_baseline *b, const char *file_path);

/** Findings of rule recorded for key (0 when none). */
uint64_t wl_baseline_recorded(const wl_baseline *b, const char *key, const char *rule);

/** Number of (file, rule) entries. */
size_t wl_baseline_entry_count(const wl_baseline *b);

/**
 * Matches one linted file (key from wl_baseline_key) against the baseline.
 * items[0..count): its findings, sorted by offset; dropped[0..*dropped_count):
 * its per-rule counts of findings left out by the per-rule cap.  Sets keep[i]
 * false for each baselined item (true for the others), lowers or removes
 * the dropped counts covered by the baseline, and remembers the file's
 * totals for wl_baseline_stale.  Returns the number of findings baselined
 * (items and dropped ones), or -1 when out of memory.
 */
int64_t wl_baseline_match(wl_baseline *b, const char *key, const wl_finding *items, size_t count, bool *keep,
			  wl_report_dropped *dropped, size_t *dropped_count);

/**
 * Records one linted file's current counts (items and dropped as for
 * wl_baseline_match) to be written by wl_baseline_save, replacing what the
 * loaded file had for key.  Returns the number of findings recorded, or -1
 * when out of memory.
 */
int64_t wl_baseline_record(wl_baseline *b, const char *key, const wl_finding *items, size_t count,
			   const wl_report_dropped *dropped, size_t dropped_count);

/**
 * The stale entries after matching: entries of matched files with fewer
 * findings than recorded, and entries of files that no longer exist, in key
 * then rule order.  *out is malloc'd (free it; the strings belong to b);
 * returns the count, or (size_t)-1 when out of memory.
 */
size_t wl_baseline_stale(const wl_baseline *b, wl_report_stale **out);

/**
 * Writes the baseline (see above) through core/safe_write.h: whole or not
 * at all, a regular file only, its owner, mode and attributes kept.
 * Returns 0; on error -1 with a message naming the file (escaped,
 * core/escape.h) in err.  An entry that cannot be added (out of memory) is
 * left out and counted in *skipped (may be NULL).
 */
int wl_baseline_save(wl_baseline *b, size_t *skipped, char *err, size_t errcap);

/**
 * Lexical path helpers (exposed for the tests).  wl_path_absolute: p joined
 * to the current directory when relative, with "//", "." and ".." resolved
 * as text; malloc'd, NULL when out of memory or the current directory is
 * unknown.  wl_path_relative: the path of to (absolute, normalised) relative
 * to the folder from (absolute, normalised), with "../" steps; "." when they
 * are equal; malloc'd or NULL.
 */
char *wl_path_absolute(const char *p);
char *wl_path_relative(const char *from, const char *to);

#endif
