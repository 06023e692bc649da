/*
 * fuzz_lint.c - fuzz target: read + lint + report.
 *
 * The input is one W3D file.  It is linted with the built-in catalogue and
 * no configuration (wl_lint_bytes: reader, decoders, every check), then
 * the invariants of fuzz.h are checked on the result: finding spans inside
 * the file, no internal-unknown-rule, a tree covering every byte once, and
 * a write with no edit that gives back the input.  The findings then go
 * through the text, JSON and GitHub reporters (to /dev/null), which format
 * names and messages taken from the file; the SARIF reporter writes the
 * whole catalogue every time and is left to the unit tests.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lint/lint.h"
#include "lint/report/report.h"
#include "fuzz.h"

static FILE *sink;

static void report(wl_reporter *rep, const wl_file_report *fr)
{
	if (!rep)
		fz_fail("lint: reporter: out of memory");
	wl_report_summary sum = { fr->counts, NULL, NULL, 0, 0 };
	if (wl_reporter_file(rep, fr) != 0 || wl_reporter_finish(rep, &sum) != 0)
		fz_fail("lint: a reporter failed");
	wl_reporter_free(rep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const wl_catalog *cat = fz_catalog();
	if (!sink && !(sink = fopen("/dev/null", "w")))
		fz_fail("cannot open /dev/null");

	wl_doc *d = wl_lint_bytes(cat, NULL, "fuzz.w3d", data, size);
	if (!d)
		fz_fail("lint: wl_lint_bytes: out of memory");
	fz_check_doc(d, "lint", 1);
	fz_check_identity(d, "lint");

	wl_file_report fr = { 0 };
	fr.path = "fuzz.w3d";
	fr.size = size;
	fr.doc = d;
	fr.findings = d->findings.items;
	fr.findings_count = d->findings.count;
	fr.counts.files = 1;
	for (size_t i = 0; i < d->findings.count; i++) {
		switch (d->findings.items[i].severity) {
		case WL_SEV_ERROR: fr.counts.errors++; break;
		case WL_SEV_WARNING: fr.counts.warnings++; break;
		default: fr.counts.infos++; break;
		}
	}
	fr.counts.files_with_errors = fr.counts.errors > 0;
	report(wl_report_text_new(sink, false, false, 3), &fr);
	report(wl_report_json_new(sink), &fr);
	report(wl_report_github_new(sink, 0), &fr);
	wl_doc_free(d);
	return 0;
}
