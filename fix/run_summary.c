/*
 * run_summary.c - the counts of a w3dfix run (run.h): each file's lines
 * once its write is done, the summary line, the files with findings at the
 * failing severity left, the unsafe fixers' hint and the exit status.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/grow.h"
#include "run_int.h"

/* Counts a file whose findings at the failing severity stay, for the list
 * after the summary line. */
void wl_fixrun_keep_left(wl_fixrun *r, const char *file, size_t n)
{
	wl_fix_totals *t = &r->t;
	const char *shown = wl_esc(file);
	char *line = malloc(strlen(shown) + 64);
	if (!line || !wl_grow((void **)&t->left, &t->left_cap, t->remaining + 1, sizeof *t->left)) {
		free(line);
		t->errors++; /* out of memory: the list is incomplete */
		return;
	}
	sprintf(line, "%s (%zu finding%s at the failing severity)", shown, n, n == 1 ? "" : "s");
	t->left[t->remaining++] = line;
}

static void add_hints(wl_fix_totals *t, const wl_fix_result *r)
{
	t->hint_findings += r->hint_findings;
	for (size_t i = 0; i < r->hint_fixer_count; i++) {
		bool seen = false;
		for (size_t j = 0; j < t->hint_fixer_count && !seen; j++)
			seen = strcmp(t->hint_fixers[j], r->hint_fixers[i]) == 0;
		if (!seen && t->hint_fixer_count < sizeof t->hint_fixers / sizeof t->hint_fixers[0])
			t->hint_fixers[t->hint_fixer_count++] = r->hint_fixers[i];
	}
}

void wl_fixrun_account(wl_fixrun *run, const char *file, size_t n, const wl_fix_result *r, bool write_failed,
		       const char *note)
{
	wl_fix_totals *t = &run->t;
	const wl_fixrun_opts *o = &run->o;
	bool ok = r->verified;
	bool repaired = r->changed && ok && !write_failed;
	if (repaired && run->writing)
		t->fixed++;
	else if (repaired)
		t->fixable++;
	if (!r->changed)
		t->clean++;
	/* what stays: the repair's result, or the input when it is not
	 * written because its verification or its write failed */
	size_t left = write_failed ? r->failing_before : r->failing_after;
	if (left)
		wl_fixrun_keep_left(run, file, left);
	if (repaired && run->writing ? r->failing_after : r->failing_before)
		t->failing_now++;
	if (!write_failed)
		add_hints(t, r);
	/* The bytes the repair keeps and drops, also under -q (issue 17): for
	 * each file whose repair drops bytes or is refused. */
	size_t kept = repaired ? r->out_len : n;
	if (r->changed && (kept < n || !ok))
		fprintf(o->out, "%s: bytes: %zu kept, %zu dropped of %zu%s\n", wl_esc(file), kept, n - (kept < n ? kept : n),
			n, ok ? "" : " (not repaired: the original kept)");
	if (!o->quiet && repaired)
		fprintf(o->out,
			"%s: %zu edit(s)%s%s, %zu finding(s) before, %zu after, %zu finding(s) at the "
			"failing severity before, %zu after\n",
			wl_esc(file), r->change_count,
			run->writing ? " written"
			: o->dry_run ? " (dry run)"
				     : " (not written: use --in-place or -o)",
			note, r->findings_before, r->findings_after, r->failing_before, r->failing_after);
}

void wl_fixrun_count_errors(wl_fixrun *r, size_t n)
{
	r->t.errors += n;
}

void wl_fixrun_summary(const wl_fixrun *r)
{
	const wl_fix_totals *t = &r->t;
	FILE *out = r->o.out;
	char fixable[64] = "";
	if (!r->writing && t->fixable)
		snprintf(fixable, sizeof fixable, "%zu to fix (not written), ", t->fixable);
	fprintf(out,
		"%zu file%s, %zu fixed, %s%zu unchanged, %zu edit%s, %zu finding%s before, %zu after, %zu with "
		"findings at the failing severity left, %zu verification failure%s\n",
		t->files, t->files == 1 ? "" : "s", t->fixed, fixable, t->clean, t->edits, t->edits == 1 ? "" : "s",
		t->before, t->before == 1 ? "" : "s", t->after, t->remaining, t->failed, t->failed == 1 ? "" : "s");
	for (size_t i = 0; i < t->remaining; i++)
		fprintf(out, "  findings left: %s\n", t->left[i]);
	if (t->hint_findings) {
		fprintf(out, "  --unsafe (or");
		for (size_t i = 0; i < t->hint_fixer_count; i++)
			fprintf(out, "%s --fix %s", i ? "," : "", t->hint_fixers[i]);
		fprintf(out, ") would repair %zu more finding%s at the failing severity\n", t->hint_findings,
			t->hint_findings == 1 ? "" : "s");
	}
}

int wl_fixrun_status(const wl_fixrun *r)
{
	if (r->t.errors)
		return 2;
	/* w3dlint's status for the files as they now are, unless a repair
	 * was refused; --check: also when something is to fix */
	return r->t.failing_now || r->t.failed || (r->o.check && r->t.fixable) ? 1 : 0;
}
