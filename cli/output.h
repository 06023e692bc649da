/*
 * output.h - where w3dlint, w3ddump and w3dasm write (-o FILE, or standard
 * output): a file goes through core/safe_write.h (temporary file, renamed
 * over FILE only when everything was written; a device, FIFO or socket, a
 * file with other hard links and a read-only file are refused, see there),
 * standard output is checked for write errors at the end.  Every failure is
 * printed as "TOOL: PATH: REASON" and the tool exits with status 2.
 */
#ifndef WL_CLI_OUTPUT_H
#define WL_CLI_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/safe_write.h"
#include "opts.h"

typedef struct wl_cli_out {
	FILE *fp;         /* write here */
	bool to_file;     /* fp is the temporary file of sw */
	const char *name; /* the path given, or "standard output" */
	wl_sw sw;
} wl_cli_out;

/**
 * Opens path for writing: NULL or "-" is standard output, anything else a
 * file through safe_write (locked, a temporary file beside it).  Returns 0,
 * or -1 after printing why.
 */
int wl_cli_out_open(const wl_cli_doc *d, wl_cli_out *o, const char *path);

/**
 * Finishes: flushes standard output, or commits the file (renamed over
 * path).  Returns 0, or -1 after printing "TOOL: PATH: cannot write: REASON"
 * (a full disk, a file size limit: the file named keeps its old content).
 */
int wl_cli_out_close(const wl_cli_doc *d, wl_cli_out *o);

/** Gives up: the temporary file is removed, the file named untouched.
 * Safe after close and twice. */
void wl_cli_out_abort(wl_cli_out *o);

#endif
