/*
 * fuzz_fix.c - fuzz target: fix + re-read.
 *
 * The input is one W3D file.  wl_fix_run (fix/driver.h) runs the safe
 * fixers, then every fixer (--unsafe), each time with its verification on:
 * when anything changed, the output must re-parse with no new error-severity
 * finding, the repaired findings must be gone and a second run must make no
 * edit (idempotence).  A failed verification (unless every problem is a
 * known open one, fz_known_open, or a "not repaired" of an unsafe run: see
 * fix_once), a failed run (out of memory or a write
 * error on an input of a few kilobytes) or an output that breaks the
 * invariants of fuzz.h when linted again is a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix/driver.h"
#include "lint/lint.h"
#include "fuzz.h"

static void fix_once(const wl_catalog *cat, bool unsafe, const uint8_t *data, size_t size)
{
	const char *mode = unsafe ? "fix --unsafe" : "fix";
	wl_fix_options o = { 0 };
	o.catalog = cat;
	o.unsafe = unsafe;
	wl_fix_result r = { 0 };
	if (wl_fix_run(&o, "fuzz.w3d", data, size, &r) != 0)
		fz_fail("%s: wl_fix_run failed (out of memory or write error)", mode);
	/* Tolerated: every problem is a known open one, or a fixer named by a
	 * known "edit:FIXER" entry made an edit (its output is known not to
	 * verify). */
	/* With --unsafe on heavily damaged input, an unsafe repair may not
	 * reach every finding of its rule (a record cut below its size cannot
	 * be kept): w3dfix then reports "not repaired" and leaves the original
	 * in place, which is its documented behaviour, not a broken invariant.
	 * The invariants of the issue - the output re-parses with no new error,
	 * and a second run changes nothing - are never tolerated, nor is "not
	 * repaired" from the safe fixers.  "no readable model" (the output of
	 * a file that was cut or unreadable still is) is w3dfix refusing to
	 * write, its documented behaviour (fix/driver.h).  So are "no model
	 * left:" and "intact object lost:": the salvage check refusing an
	 * output that keeps no model or loses an object the damage did not
	 * touch, the original left in place (fix/driver.c, issues 17, 29). */
	size_t known = 0;
	for (size_t i = 0; i < r.problem_count; i++)
		known += fz_known_open("fix", r.problems[i]) ||
			 (unsafe && strncmp(r.problems[i], "not repaired:", 13) == 0) ||
			 strncmp(r.problems[i], "no readable model:", 18) == 0 ||
			 strncmp(r.problems[i], "no model left:", 14) == 0 ||
			 strncmp(r.problems[i], "nothing kept:", 13) == 0 ||
			 strncmp(r.problems[i], "intact object lost:", 19) == 0;
	char by[96];
	for (size_t i = 0; i < r.change_count && known < r.problem_count; i++) {
		snprintf(by, sizeof by, "edit:%s", r.changes[i].fixer);
		if (fz_known_open("fix", by))
			known = r.problem_count;
	}
	if (r.changed && !r.verified &&
	    (known < r.problem_count || r.problem_count == 0)) {
		fprintf(stderr, "fuzz: %s: the output does not verify:\n", mode);
		for (size_t i = 0; i < r.problem_count; i++)
			fprintf(stderr, "    %s\n", r.problems[i]);
		for (size_t i = 0; i < r.change_count; i++)
			fprintf(stderr, "    edit %u %s [%s] %s at 0x%llx: %s\n", r.changes[i].step,
				r.changes[i].fixer, r.changes[i].rule ? r.changes[i].rule : "-",
				r.changes[i].path, (unsigned long long)r.changes[i].offset,
				r.changes[i].what);
		fz_fail("%s: %zu verification problem(s)", mode, r.problem_count - known);
	}
	if (r.changed) {
		if (!r.out)
			fz_fail("%s: changed but no output", mode);
		wl_doc *d = wl_lint_bytes(cat, NULL, "fixed.w3d", r.out, r.out_len);
		if (!d)
			fz_fail("%s: re-lint: out of memory", mode);
		fz_check_doc(d, unsafe ? "fix --unsafe output" : "fix output", 1);
		wl_doc_free(d);
	}
	wl_fix_result_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const wl_catalog *cat = fz_catalog();
	fix_once(cat, false, data, size);
	fix_once(cat, true, data, size);
	return 0;
}
