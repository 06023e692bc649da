/*
 * companions.h - the other files a model's loader reads by name, found
 * beside the model for its geometry (textform/geometry.h
 * wl_tf_geo_companions; w3ddump --geometry, the HTML report, the page).
 *
 * A W3D engine loads a hierarchy NAME it lacks from NAME.w3d (Get_HTree,
 * assetmgr.cpp:898-920; notes/w3d_reference.md E7), where it keeps the
 * model's other assets.  So NAME + ext is looked for in the folder of the
 * model's path with the letter case of both ignored (the engines run on
 * Windows), or for an archive's entry "ARCHIVE:DIR/FILE" as the entry
 * "ARCHIVE:DIR/NAME.ext" (cli/archive_walk.h wl_member_find, letter case
 * ignored too).  A name holding a separator, ':' or "..", or longer than
 * WL_CLI_COMPANION_NAME_MAX bytes, is no file name: none is looked for.
 * Each file found is read (core/file_io.h wl_read_input: a regular file,
 * never blocking, at most WL_INPUT_MAX_BYTES) and decoded once (its typed model built); they are kept until
 * wl_cli_companions_free.
 */
#ifndef WL_CLI_COMPANIONS_H
#define WL_CLI_COMPANIONS_H

#include "textform/geometry.h"

#define WL_CLI_COMPANION_NAME_MAX 255
/* At most this many files are read for one set (a model names a few
 * hierarchies; a hostile one may name thousands). */
#define WL_CLI_COMPANIONS_MAX 16

typedef struct wl_cli_companions {
	wl_tf_geo_companions c; /* what the geometry hooks are given */
	struct wl_cli_companion *e;
	size_t n;
} wl_cli_companions;

/** An empty set: cc->c finds the files. */
void wl_cli_companions_init(wl_cli_companions *cc);

/** Frees the files read. */
void wl_cli_companions_free(wl_cli_companions *cc);

#endif
