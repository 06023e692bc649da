/*
 * model_entry.h - which entries of an archive are models: the entries the
 * tools lint and repair as files of their own (named ARCHIVE:PATH), for
 * the file lists of the command-line tools (cli/archive_walk.h) and the
 * archive repair of w3dfix (fix/run.h).
 */
#ifndef WL_ARCHIVE_MODEL_ENTRY_H
#define WL_ARCHIVE_MODEL_ENTRY_H

#include <stdbool.h>
#include <stdint.h>

#include "archive.h"

/**
 * True when entry e of an archive (archive[0..): its file's bytes, at
 * least up to the entry's end) is a model entry: its bytes lie in the file
 * (e->readable), its path has the extension of a registered model format
 * (core/format.h wl_format_by_extension) and, when packed, it unpacks
 * (wl_archive_unpack; the unpacked bytes are dropped again).  A packed
 * entry that does not unpack is no model: the archive's own lint reports it
 * (archive-pbo-unpack).
 */
bool wl_archive_model_entry(const wl_archive_entry *e, const uint8_t *archive);

#endif
