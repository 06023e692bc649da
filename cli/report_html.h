/*
 * report_html.h - the front end's parts of w3dlint's HTML report
 * (lint/report/report.h wl_report_html_new; docs/web.md "The HTML report"):
 * the viewer this build holds, each file's geometry read again from its
 * path, and the rules' --explain text.
 */
#ifndef WL_CLI_REPORT_HTML_H
#define WL_CLI_REPORT_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include "lint/catalog.h"
#include "lint/report/report.h"

/* The viewer (web/report.js bundled with three.js by web/build.mjs into
 * report-viewer.js), built into the program by the Makefile
 * ($(BUILD)/gen/html_viewer.c, from HTML_VIEWER when that file exists when
 * the program is built; `make html-viewer` makes it).  wl_html_viewer_size
 * bytes; 0 when this build holds none. */
extern const unsigned char wl_html_viewer[];
extern const size_t wl_html_viewer_size;

/** Whether this build can write the HTML report (it holds a viewer). */
bool wl_cli_html_available(void);

/**
 * The parts for wl_report_html_new: the built-in viewer; the geometry of a
 * model file, read again from its path (an archive's entry "ARCHIVE:PATH"
 * out of its archive, cli/archive_walk.h) and decoded as `w3ddump
 * --geometry` does (textform/dump.h wl_tf_dump_geometry), none for an
 * archive's own findings; the --explain text of a rule
 * of cat (borrowed, must outlive the reporter; cli/explain.h).
 */
void wl_cli_html_parts(const wl_catalog *cat, wl_report_html_parts *parts);

#endif
