/*
 * run_fixers.c - the fixers as w3dfix's options name them (run.h):
 * --list-fixes, --fix ID, and the rules a repair asks the lint for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

void wl_fix_list(FILE *out)
{
	size_t n;
	const wl_fixer *const *fx = wl_fixers(&n);
	int width = 0; /* the longest id: the columns line up */
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(fx[i]->id) > width)
			width = (int)strlen(fx[i]->id);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%-*s %-6s ", width, fx[i]->id, fx[i]->unsafe ? "unsafe" : "safe");
		const wl_rule_id *rules = wl_fixer_rules(fx[i]);
		for (const wl_rule_id *r = rules; *r != WL_RULE_NONE; r++)
			fprintf(out, "%s%s", r == rules ? "" : ",", wl_rule_name(*r));
		fprintf(out, "\n    %s\n", fx[i]->summary);
	}
}

const wl_fixer *wl_fixer_by_id(const char *id)
{
	size_t n;
	const wl_fixer *const *fx = wl_fixers(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(fx[i]->id, id) == 0)
			return fx[i];
	return NULL;
}

/* The rule ids of fixer f (none when NULL) into list from *n on (list
 * NULL: only counted). */
static void add_rules(const wl_fixer *f, const char **list, size_t *n)
{
	for (const wl_rule_id *r = f ? wl_fixer_rules(f) : NULL; r && *r != WL_RULE_NONE; r++, (*n)++)
		if (list)
			list[*n] = wl_rule_name(*r);
}

int wl_fix_wanted_rules(const char *const *select, size_t nselect, const char *const *force, size_t nforce,
			const char ***list, size_t *n)
{
	size_t count = nselect;
	for (size_t i = 0; i < nforce; i++)
		add_rules(wl_fixer_by_id(force[i]), NULL, &count);
	*n = 0;
	*list = malloc((count ? count : 1) * sizeof **list);
	if (!*list)
		return -1;
	for (size_t i = 0; i < nselect; i++)
		(*list)[(*n)++] = select[i];
	for (size_t i = 0; i < nforce; i++)
		add_rules(wl_fixer_by_id(force[i]), *list, n);
	return 0;
}
