/*
 * run_edits.c - how a w3dfix run lists a file's edits (run_int.h): the
 * default and -n listing, folded like w3dlint's findings, and --diff's
 * per-chunk summary.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "lint/report/report.h"
#include "run_int.h"

void wl_fixrun_print_diff(FILE *out, const wl_fix_result *r, size_t in_len)
{
	/* one line per chunk path: edit count and rules, in first-edit order */
	for (size_t i = 0; i < r->change_count; i++) {
		const wl_fix_change *c = &r->changes[i];
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(r->changes[j].path, c->path) == 0;
		if (seen)
			continue;
		size_t count = 0;
		fprintf(out, "  %s: ", c->path);
		for (size_t j = i; j < r->change_count; j++) {
			if (strcmp(r->changes[j].path, c->path) != 0)
				continue;
			bool dup = false;
			for (size_t k = i; k < j && !dup; k++)
				dup = strcmp(r->changes[k].path, c->path) == 0 && r->changes[k].rule &&
				      r->changes[j].rule && strcmp(r->changes[k].rule, r->changes[j].rule) == 0;
			if (!dup)
				fprintf(out, "%s%s", count ? ", " : "", r->changes[j].rule ? r->changes[j].rule : "-");
			count++;
		}
		fprintf(out, " (%zu edit%s)\n", count, count == 1 ? "" : "s");
	}
	fprintf(out, "  file size: %zu -> %zu bytes\n", in_len, r->out_len);
}

/* An edit's place in the listing: its offset, then the order it was made
 * in among equal offsets. */
typedef struct edit_key {
	uint64_t offset;
	size_t index;
} edit_key;

static int by_offset(const void *a, const void *b)
{
	const edit_key *x = a, *y = b;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

void wl_fixrun_print_edits(FILE *out, const char *file, const wl_fix_result *r, unsigned fold)
{
	size_t n = r->change_count;
	edit_key *idx = malloc((n ? n : 1) * sizeof *idx);
	wl_finding *items = calloc(n ? n : 1, sizeof *items);
	wl_fold_entry *plan = malloc((n ? n : 1) * sizeof *plan);
	for (size_t i = 0; idx && i < n; i++)
		idx[i] = (edit_key){ r->changes[i].offset, i };
	if (idx)
		qsort(idx, n, sizeof *idx, by_offset);
	for (size_t k = 0; items && k < n; k++) {
		const wl_fix_change *c = &r->changes[idx ? idx[k].index : k];
		items[k].rule = c->rule ? c->rule : c->fixer;
		items[k].message = c->what;
		items[k].offset = c->offset;
	}
	bool folding = fold && items && plan && wl_report_fold_plan(items, n, plan) == 0;
	for (size_t k = 0; k < n; k++) {
		const wl_fix_change *c = &r->changes[idx ? idx[k].index : k];
		if (folding && plan[k].rank > fold)
			continue;
		if (folding && plan[k].rank == fold) {
			char pat[256];
			wl_report_pattern(c->what, pat, sizeof pat);
			fprintf(out,
				"%s:0x%" PRIX64 ": %s: %" PRIu32 " more edits like \"%s\" [%s] (up to 0x%" PRIX64
				"; --fold 0 shows them)\n",
				wl_esc(file), c->offset, c->fixer, plan[k].total - fold, pat, c->rule ? c->rule : "-",
				plan[k].last);
			continue;
		}
		fprintf(out, "%s:0x%" PRIX64 ": %s: %s [%s] (%s)\n", wl_esc(file), c->offset, c->fixer, c->what,
			c->rule ? c->rule : "-", c->path);
	}
	free(plan);
	free(items);
	free(idx);
}
