/* report_note.c - the text of the run's note on references that no file of
 * the run defines (report.h wl_report_unresolved_message), shared by every
 * report format. */
#include "report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/platform.h"

char *wl_report_unresolved_message(const wl_report_unresolved *u)
{
	wl_os_memstream ms;
	FILE *m = wl_os_memstream_open(&ms);
	if (!m)
		return NULL;
	fprintf(m, "%" PRIu64 " %s that no file of the run defines, likely the base game's, not reported "
		"one by one (", u->count, u->count == 1 ? "reference to a name" : "references to names");
	for (size_t i = 0; i < u->rules_count; i++)
		fprintf(m, "%s%s %" PRIu64, i ? ", " : "", u->rules[i].name, u->rules[i].count);
	fputs(")", m);
	for (size_t i = 0; i < u->names_count; i++)
		fprintf(m, "%s'%s' %" PRIu64, i ? ", " : "; the most named: ", u->names[i].name, u->names[i].count);
	fputs("; pass --base with the base game's folder or its .big / .pbo files (repeatable, or base: in "
	      ".w3dlint.yaml) to check each one", m);
	char *buf;
	size_t len;
	return wl_os_memstream_close(&ms, &buf, &len) == 0 ? buf : NULL;
}
