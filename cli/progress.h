/*
 * progress.h - the one-line progress display of the command-line tools
 * (w3dlint, w3dfix): "[12/340] path/of/the/file.w3d" rewritten in place on
 * standard error, cut from the left to the terminal width.
 *
 * Shown only when it helps and cannot garble anything: standard error is a
 * terminal, the environment has no CI variable, TERM is not "dumb", and the
 * run has more than WL_PROGRESS_MIN_FILES files.  The line is cleared
 * (wl_progress_clear) before anything else is printed to the terminal and
 * at the end.
 */
#ifndef WL_PROGRESS_H
#define WL_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

/* Shows progress only above this many files. */
#define WL_PROGRESS_MIN_FILES 20

typedef struct wl_progress {
	bool on;     /* shown at all in this run */
	bool shown;  /* a line is on the screen now */
	int width;   /* terminal columns (80 when unknown) */
} wl_progress;

/** Decides whether this run shows progress (wanted: not turned off by an
 *  option; total: files in the run) and reads the terminal width. */
void wl_progress_init(wl_progress *pg, bool wanted, size_t total);

/** Shows "[n/total] path" (no-op when off). */
void wl_progress_show(wl_progress *pg, size_t n, size_t total, const char *path);

/** Erases the line if one is shown. */
void wl_progress_clear(wl_progress *pg);

#endif
