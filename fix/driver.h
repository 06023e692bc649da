/*
 * driver.h - the run-fixers-then-verify loop of w3dfix, as a library
 * function shared by the front end (cli/main_w3dfix.c) and the tests.
 *
 * wl_fix_run() takes the bytes of one file and:
 *  1. runs every enabled fixer (fix/registry.c order) in turn; each gets a
 *     document linted from the current bytes (wl_lint_bytes: model built,
 *     findings with effective severities), edits it through core/edit.h,
 *     and, when it made edits, the document is written (wl_doc_write) and
 *     its output becomes the current bytes - unless the written bytes have
 *     more error-severity findings of some rule than the step's input: then
 *     the step is discarded whole (a fixer never makes a file worse; its
 *     findings stay for the report).  Every edit is kept as a
 *     wl_fix_change (chunk path and offset in the bytes that fixer read).
 *     Step 1 is repeated until a round makes no edit, at most
 *     WL_FIX_ROUNDS rounds (a repair can expose something that a fixer
 *     earlier in the order repairs).
 *     A fixer that refuses its repair (wl_fix_ctx.refused: it would keep
 *     less than the damage requires) adds a problem line "FIXER: WHY"
 *     (verified = false): the input is kept.
 *     Salvage: drop-unreadable keeps the whole parts of a top-level object
 *     cut by the end of the file (fix/fix_structure.c).  When that object
 *     still has an error-severity finding after all rounds, step 1 is run
 *     again from the input with the object removed whole (drop_whole).
 *  2. verifies the result when anything changed:
 *     - readable: the output has no error-severity finding of file-empty,
 *       no-chunks, chunk-resync or chunk-truncated (a "repair" that leaves
 *       no model the engine can read, e.g. of random bytes, is no repair);
 *     - kept (a damaged input: a recovery mark of core/chunk.h in it): the
 *       output holds an object unless it is the whole input, and is shorter than
 *       the input by no more than the bytes of the damaged objects (the
 *       top-level chunks, or the children of a single top-level container
 *       such as B3D's BB3D, that hold a recovery mark or are gaps): an
 *       intact object is never dropped to make the file lint clean;
 *     - repaired: no finding of an edit's rule remains in the same
 *       top-level object (the object's chunk path, e.g. "HLOD[ARMY]"; the
 *       file level for edits of top-level gaps);
 *     - no new error: no rule has more findings of severity error in the
 *       output than in the input;
 *     - idempotent: running the same fixers on the output makes no edit.
 *     Each failed check adds a line to problems; the output is then not
 *     to be written (verified = false).
 * A fixer is enabled when it is safe or options.unsafe is set or it is
 * forced by id, and the filter lets it through: a fixer whose id matches an
 * ignore pattern is skipped; with select patterns, a fixer runs when its id
 * or one of its rule ids matches (its id matching selects all its rules).
 */
#ifndef WL_FIX_DRIVER_H
#define WL_FIX_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fix.h"

/* Most rounds of the whole fixer list in one wl_fix_run. */
#define WL_FIX_ROUNDS 4

typedef struct wl_fix_options {
	const wl_catalog *catalog;
	const wl_config *config;        /* may be NULL */
	bool unsafe;                    /* --unsafe */
	const char *const *force;       /* force_count fixer ids asked for by name */
	size_t force_count;
	wl_fix_rule_filter filter;      /* --select / --ignore */
	bool no_verify;                 /* skip step 2 (tests of the fixers only) */
	/* Top-level chunks (offsets in the input) cut by the end of the file
	 * that drop-unreadable removes whole instead of salvaging; callers
	 * leave them 0: wl_fix_run sets them for its second attempt (above). */
	const uint64_t *drop_whole;
	size_t drop_whole_count;
	/* What the front end adds to every lint of the file (--target, the
	 * mod's layout): lint.h wl_lint_opts; NULL: none. */
	const wl_lint_opts *lint;
} wl_fix_options;

/* One edit, formatted while its document was alive. */
typedef struct wl_fix_change {
	const char *fixer;   /* fixer id (static) */
	const char *rule;    /* rule id (static) or NULL */
	char *path;          /* chunk path of the edited node (malloc) */
	char *scope;         /* path of its top-level object, "" = file (malloc) */
	uint64_t offset;     /* byte offset in the bytes this fixer read */
	char *what;          /* "size: 12 -> 40" (malloc) */
	unsigned step;       /* 0-based index of the fixer run that made it */
	uint64_t top;        /* offset of its top-level chunk in the bytes the
	                        fixer read; UINT64_MAX for the file level */
} wl_fix_change;

typedef struct wl_fix_result {
	uint8_t *out;        /* the repaired bytes (malloc), NULL when unchanged */
	size_t out_len;      /* bytes */
	bool changed;        /* some fixer made an edit */
	bool verified;       /* true unless a check of step 2 failed */
	wl_fix_change *changes;
	size_t change_count, change_cap;
	char **problems;     /* problem_count lines (malloc), why verification failed */
	size_t problem_count, problem_cap;
	size_t failing_before; /* findings at or above the failing severity
	                          (config fail-on, default error) in the input */
	size_t failing_after;  /* same in the output (= before when unchanged) */
	size_t findings_before; /* findings of any severity but off in the input */
	size_t findings_after;  /* same in the output (= before when unchanged) */
	/* Findings at the failing severity left in the output (the input when
	 * it is not verified) whose rule an unsafe fixer that did not run
	 * repairs (without --unsafe or --fix): hint_findings of them, the ids
	 * of up to 4 such fixers in hint_fixers (static strings). */
	size_t hint_findings;
	const char *hint_fixers[4];
	size_t hint_fixer_count;
} wl_fix_result;

/**
 * Runs the fixers on bytes[0..size) named path (for reports) and verifies
 * the result as above; fills *r (free with wl_fix_result_free).  Returns 0,
 * or -1 when out of memory or a write failed (r is then still freeable).
 */
int wl_fix_run(const wl_fix_options *o, const char *path, const uint8_t *bytes, size_t size,
	       wl_fix_result *r);

/** Frees what wl_fix_run allocated in r and zeroes it. */
void wl_fix_result_free(wl_fix_result *r);

/** True when fixer f runs under options o (see above). */
bool wl_fix_enabled(const wl_fix_options *o, const wl_fixer *f);

#endif
