/*
 * fuzz.h - what the fuzz targets of tests/fuzz/ share.
 *
 * Each fuzz_NAME.c defines LLVMFuzzerTestOneInput() and links either with
 * libFuzzer (clang -fsanitize=fuzzer: `make fuzz`) or with replay_main.c
 * (any compiler: `make test` replays the seeds and tests/fuzz/regressions/).
 * A target calls abort() (through fz_fail) when an invariant breaks, so a
 * violation is a crash to libFuzzer and a failed replay to `make test`:
 *   - a finding whose span [offset, offset + length) lies outside the file
 *   - a finding renamed "internal-unknown-rule" (a rule missing from the
 *     catalogue: a bug) or with severity off after linting
 *   - a chunk tree that does not cover every byte of the file once, in order
 *     (core/chunk.h)
 *   - a write with no edit that is not the input byte for byte (core/edit.h)
 *   - a fix whose output wl_fix_run does not verify (re-parse with no new
 *     error, repaired findings gone, second run makes no edit: fix/driver.h)
 *   - a text-form dump that does not assemble back to the same bytes
 *     (textform/textform.h)
 */
#ifndef WL_FUZZ_H
#define WL_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"
#include "lint/catalog.h"

/** The libFuzzer entry point each target defines.  Returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** The built-in rule catalogue, loaded once (aborts when it cannot load). */
const wl_catalog *fz_catalog(void);

/** Prints "fuzz: " and the message on stderr, then aborts. */
_Noreturn void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * True when text matches a known open problem of target ("lint", "fix",
 * "textform"): a line "TARGET TEXT" of the file named by the environment
 * variable W3DLINT_FUZZ_KNOWN_OPEN (tests/fuzz/known-open.txt, set by
 * tests/fuzz/replay.sh and tests/fuzz/run.sh) whose TEXT begins text and
 * ends there or before a character that cannot continue a rule id (never
 * a match inside text: messages quote names from the file).  fuzz_fix
 * also asks for "edit:FIXER" for each fixer that made an edit, so a line
 * "fix edit:chunk-overruns" tolerates any problem of a run that fixer
 * took part in.
 * Without the variable nothing is known and every problem is a crash.
 * Lets the replay and the fuzzers get past a reported, not yet fixed
 * verification problem; sanitizer reports are never tolerated.
 */
int fz_known_open(const char *target, const char *text);

/** Checks the invariants of a read (and possibly linted) document: spans
 *  inside the file, no internal rule, no finding left at severity off when
 *  linted is set, a tree that covers every byte once.  what names the
 *  document in the failure message. */
void fz_check_doc(const wl_doc *d, const char *what, int linted);

/** Checks that wl_doc_write of d (no edit made) gives back d->bytes. */
void fz_check_identity(const wl_doc *d, const char *what);

#endif
