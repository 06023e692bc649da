/*
 * filekind.h - what a file is, before it is treated as a model.
 *
 * Mods ship archives (BIG, PBO), images (PNG, DDS, TGA, JPEG) and text
 * (INI, configs, scripts) beside their models.  Read as a model, such a
 * file gives a flood of chunk findings, and a fixer given one would
 * "repair" it into garbage (drop-unreadable on a BIGF header).  The tools
 * therefore ask wl_file_kind_of() first: a file it names is never read as a
 * model and never handed to a fixer (w3dfix, --unsafe included); a tool
 * that was asked for it by name says in one line what it is.
 *
 * Recognition, in this order (names no model format: it asks the format
 * registry, core/format.h):
 *   1. a registered model format recognises the bytes by its magic
 *      (detect() == WL_DETECT_MAGIC: BB3D, ODOL, MLOD): a model, NULL;
 *   2. a magic of a known non-model kind at offset 0 (table in
 *      filekind.c; each cites its specification);
 *   3. only when no model format finds the bytes even plausible
 *      (every detect() == WL_DETECT_NO): the weaker signs - a TGA header
 *      whose fields are all in range (TGA has no magic; a TGA 2.0 footer
 *      "TRUEVISION-XFILE." is checked in step 2), a BMP whose header
 *      repeats the file size, text (lines: a line break, no NUL, no
 *      control byte but white space in the first 4 KiB);
 *   4. a file whose name ends in an archive extension (.big, .pbo) is that
 *      archive whatever its bytes (PBOs before Arma have no 'sreV' header
 *      entry), unless step 1 found a model.
 * An empty file is not recognised (NULL): the model readers report it.
 */
#ifndef WL_FILEKIND_H
#define WL_FILEKIND_H

#include <stdbool.h>
#include <stdint.h>

typedef struct wl_file_kind {
	const char *id;     /* short lower-case id: "big", "pbo", "png", "text" */
	const char *title;  /* for the one line: "BIG archive (BIGF)" */
	bool archive;       /* an archive the tools walk into (core/archive/) */
} wl_file_kind;

/**
 * The non-model kind of bytes[0..size) (path: its name, may be NULL; only
 * its extension is used, step 4), or NULL when the bytes may be a model
 * and go to the model readers.  Looks at the first 4 KiB at most, and at
 * the last 26 bytes (TGA footer).  Never fails.
 */
const wl_file_kind *wl_file_kind_of(const uint8_t *bytes, uint64_t size, const char *path);

/**
 * The archive kind that path's extension names (.big or .pbo, any letter
 * case), or NULL: what a folder walk collects besides model files.
 */
const wl_file_kind *wl_file_kind_by_extension(const char *path);

#endif
