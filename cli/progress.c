/* progress.c - the progress line of the tools; see progress.h. */
#include "core/escape.h"
#include "core/platform.h"
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void wl_progress_init(wl_progress *pg, bool wanted, size_t total)
{
	pg->on = false;
	pg->shown = false;
	pg->width = 80;
	const char *term = getenv("TERM");
	if (!wanted || total <= WL_PROGRESS_MIN_FILES || !wl_os_isatty(STDERR_FILENO) || getenv("CI") ||
	    (term && strcmp(term, "dumb") == 0))
		return;
	int cols = wl_os_term_cols(STDERR_FILENO);
	if (cols >= 20)
		pg->width = cols;
	pg->on = true;
}

void wl_progress_show(wl_progress *pg, size_t n, size_t total, const char *path)
{
	if (!pg->on)
		return;
	char head[48];
	int hl = snprintf(head, sizeof head, "[%zu/%zu] ", n, total);
	size_t room = (size_t)(pg->width - 1 - hl);
	const char *shown = wl_esc(path); /* never a control byte of the name */
	size_t len = strlen(shown);
	fprintf(stderr, "\r\033[K%s", head);
	if (len <= room) {
		fputs(shown, stderr);
	} else {
		/* the tail, from the start of a UTF-8 sequence */
		const char *tail = shown + len - (room > 3 ? room - 3 : 0);
		while (((unsigned char)*tail & 0xC0) == 0x80)
			tail++;
		fputs("...", stderr);
		fputs(tail, stderr);
	}
	fflush(stderr);
	pg->shown = true;
}

void wl_progress_clear(wl_progress *pg)
{
	if (!pg->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	pg->shown = false;
}
