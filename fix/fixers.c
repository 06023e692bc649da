/* fixers.c - the registry of fixers, in the order they run (fix.h).
 * Each fixer lives in its own fix/fix_*.c; add one line here per fixer. */
#include "fix.h"

#include <string.h>

static const wl_fixer *const fixers[] = {
	NULL /* keep last: the list is NULL-terminated for easy appends */
};

const wl_fixer *const *wl_fixers(size_t *out_count)
{
	*out_count = sizeof fixers / sizeof fixers[0] - 1;
	return fixers;
}

bool wl_fix_has_finding(const wl_doc *doc, const char *rule)
{
	for (size_t i = 0; i < doc->findings.count; i++)
		if (strcmp(doc->findings.items[i].rule, rule) == 0 &&
		    doc->findings.items[i].severity != WL_SEV_OFF)
			return true;
	return false;
}
