/*
 * version.h - the one version of the toolkit: printed by every tool's
 * --version ("w3ddump 0.2.0", cli/opts.h), written into the JSON and
 * SARIF reports (lint/report/report.h W3DLINT_VERSION) and the man pages.
 */
#ifndef WL_VERSION_H
#define WL_VERSION_H

#define WL_VERSION "0.2.0"

#endif
