/* run_strings.c - the lists of paths a run keeps (run_int.h): the paths it
 * could not read and its base folders.  Called by run.c and run_report.c;
 * calls neither. */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "run_int.h"

void wl_run_strings_free(wl_run_strings *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->count = l->cap = 0;
}

int wl_run_strings_add(wl_run_strings *l, const char *s)
{
	char *copy = strdup(s);
	if (!copy || !wl_grow((void **)&l->items, &l->cap, l->count + 1, sizeof *l->items)) {
		free(copy);
		return -1;
	}
	l->items[l->count++] = copy;
	return 0;
}

void wl_run_note_unreadable(wl_run *r, const char *path)
{
	if (r->unreadable.count < 1000)
		(void)wl_run_strings_add(&r->unreadable, path);
}

void wl_run_count_unreadable(wl_run *r, uint64_t n)
{
	r->trouble = true;
	r->totals.unreadable += n;
}
