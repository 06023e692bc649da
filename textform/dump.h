/*
 * dump.h - the dumps of w3ddump (cli/main_w3ddump.c) as library calls: the
 * chunk tree of a read document like readelf (offsets, sizes, spec chunk
 * names, recovery marks, decoded fields), the same as one JSON document,
 * and the table of an archive.  Every format goes through the text form's
 * tables and hooks (registry.h wl_tf_view_of, wl_tf_decode,
 * wl_tf_human_keys); no format is named here.  The key and line layouts
 * are described in docs/textform.md (JSON) and by w3ddump --help (human).
 *
 * Nothing here reads files or exits: the caller reads the bytes, reads the
 * document (core/format.h wl_format_read), sorts its findings and owns the
 * output stream.
 */
#ifndef WL_TF_DUMP_H
#define WL_TF_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/chunk.h"
#include "core/filekind.h"

/* Array elements shown per chunk in the human dump unless every element
 * is asked for. */
#define WL_TF_DUMP_SHOW_ITEMS 8

/**
 * The human dump of d, read from path: one line "PATH: SIZE bytes, N
 * chunks", then one line per chunk or gap in file order ("0xOFFSET NAME
 * id=0xID size=PAYLOAD_BYTES" indented two spaces a level, offsets
 * absolute in hex, sizes in bytes, then the marks bit31, declared=N and
 * the reader's recovery marks in brackets), each chunk's decoded fields
 * below it when fields is set (the first WL_TF_DUMP_SHOW_ITEMS elements of
 * an array unless all), and the reader's findings (offset, rule id,
 * escaped message) at the end.  fields false: the chunk tree only
 * (w3ddump --chunks).  Write errors are left in out's error flag.
 */
void wl_tf_dump_human(FILE *out, const wl_doc *d, const char *path, bool fields, bool all);

/**
 * The diff text of d (w3ddump --diff-text, a git textconv driver,
 * docs/textform.md): stable and line-oriented, no byte offsets.  A format
 * with a decoded model (P3D) gives it as the human dump's "model:" section
 * with every element and without offsets; the others their text form
 * (wl_tf_write) without its header comments and without the "# @0xOFFSET"
 * comment after each chunk name.  Returns 0, or -1 when it could not be
 * written (out of memory, write error).
 */
int wl_tf_dump_diff(FILE *out, const wl_doc *d);

/**
 * w3ddump --geometry: the meshes of d for display (issue 28; keys in
 * textform/geometry.h), one compact JSON line {"meshes": [...], "format":
 * NAME}; builds d's typed model when it has none (its decoders' findings
 * join d's).  A format without a geometry hook gives no meshes.  c (NULL:
 * none) finds the other files the format's loader reads by name
 * (textform/geometry.h: a W3D hierarchy from NAME.w3d).  0, or -1 on a
 * write error or out of memory.
 */
struct wl_tf_geo_companions;
int wl_tf_dump_geometry(FILE *out, wl_doc *d, const struct wl_tf_geo_companions *c);

/**
 * The JSON dump of d, read from path: one object {tool: "w3ddump", path,
 * size (bytes), chunks: [node...], findings: [{rule, offset, length,
 * message}]} indented by 2, keys in insertion order, then a newline.  A
 * node: kind ("chunk" or "gap"), offset and size (bytes), recovery (mark
 * names); a chunk adds id, name (spec short name or null), header_size,
 * declared_size, container_bit, then children (containers) or form
 * ("hex", "string", "fields", "items", "decoded") with its values.  Names,
 * texts and messages are escaped as core/escape.h (bytes that are not
 * UTF-8 as \xNN); floats that are not finite as "f32bits:0xXXXXXXXX".
 * Returns 0, or -1 when the document could not be written (jansson's
 * json_dumpf).
 */
int wl_tf_dump_json(FILE *out, const wl_doc *d, const char *path);

/** d's findings as a new JSON array (jansson) of {"rule", "offset",
 *  "length", "message"}, the message in the escaped form of core/escape.h;
 *  the "findings" of both JSON dumps.  A JSON null when out of memory. */
struct json_t *wl_tf_findings_json(const wl_doc *d);

/**
 * The table of the archive bytes[0..size) read from path, of file kind
 * kind (core/filekind.h, kind->archive set): "PATH: TITLE, SIZE bytes, N
 * entries[, prefix 'P']", one line per entry (data offset in hex, stored
 * bytes, path, "(unreadable)", "(packed, N bytes unpacked)"), then the
 * archive's findings sorted, "PATH:0xOFFSET: MESSAGE [RULE]".  An archive
 * its reader cannot take (out of memory, unknown kind): the line "PATH:
 * TITLE" only.  With json: one JSON object instead, {"path", "kind",
 * "size", "prefix" (null when none), "entries": [{"path", "offset",
 * "stored", "size", "packed", "readable"}], "findings": [{"rule", "offset",
 * "length", "message"}]} (the last three left out when the reader cannot
 * take it).  Paths, the prefix and messages in the escaped form of
 * core/escape.h in both.  Returns 0, or -1 when the JSON cannot be written.
 */
int wl_tf_dump_archive(FILE *out, const char *path, const wl_file_kind *kind, const uint8_t *bytes, size_t size,
		       bool json);

#endif
