/*
 * registry.h - the text form's format registry: what the engine (textform/
 * write.c, read.c, the dumps) asks of a format, so that it names none.
 *
 * Each format gives its struct tables (wl_tf_struct, looked up by chunk
 * short name), the dump context of a chunk (W3D: the Flavor of a compressed
 * animation), and, for layouts the fixed-size tables cannot describe (B3D's
 * NUL-terminated names, records whose fields follow a flags word, fields at
 * the start of a container), hooks that write and assemble the keys of a
 * chunk themselves.  Entries: textform/w3d/text.c, textform/b3d/text.c.
 */
#ifndef WL_TF_REGISTRY_H
#define WL_TF_REGISTRY_H

#include "core/yaml_doc.h"
#include "textform.h"

struct wl_tf_asm;
struct wl_tf_geo_companions;

/*
 * A consumer of the decoded keys of one chunk (wl_tf_format.decode): the
 * text form's YAML writer (wl_tf_yaml_keys), w3ddump's human dump
 * (wl_tf_human_keys) and its JSON dump (textform/dump.h wl_tf_dump_json).  Events come in byte order; ctx is passed back to each.
 *   value  `key: v`: count elements of type f->type (f->count is 1) at p;
 *          seq: a sequence (also of 0 or 1 element), else one scalar.  key
 *          is NULL inside a sequence record.
 *   name   `key: "text"`: a NUL-terminated name, its n bytes with the NUL.
 *   list   a list of records under key begins (begin; count: its records,
 *          SIZE_MAX when not known in advance) or ends.
 *   item   a record of the current list begins or ends: a mapping (keyed
 *          values) or a sequence (values with key NULL).
 *   tail   the n bytes after the last whole record (n > 0).
 */
typedef struct wl_tf_sink {
	void *ctx;
	void (*value)(void *ctx, const char *key, const wl_tf_field *f, const uint8_t *p, size_t count, bool seq);
	void (*name)(void *ctx, const char *key, const uint8_t *p, size_t n);
	void (*list)(void *ctx, const char *key, bool begin, size_t count);
	void (*item)(void *ctx, bool mapping, bool begin);
	void (*tail)(void *ctx, const uint8_t *p, size_t n);
} wl_tf_sink;

typedef struct wl_tf_format {
	const char *format; /* wl_format.name: "w3d" */
	/* Every struct table of the format (*count set); may be empty. */
	const wl_tf_struct *(*tables)(size_t *count);
	/* The dump context of chunk c (WL_TF_IN_*); NULL: WL_TF_IN_PLAIN. */
	unsigned (*context)(const wl_doc *d, const wl_chunk *c);
	/*
	 * Optional hooks (NULL: the tables describe every payload, and
	 * containers have no fields of their own).
	 *
	 * write_keys writes, at indent, the keys of chunk c's own bytes: a
	 * container's fields (its first c->fields payload bytes), or a data
	 * chunk's whole payload (with its `tail:`).  It returns false, having
	 * written nothing, when those bytes do not decode exactly: the engine
	 * then writes a container's fields as `fields: HEX` and a data
	 * payload from the tables (hex when none fits).
	 *
	 * owns_key says whether key is one of those keys in a chunk of type t;
	 * assemble_keys appends the bytes they describe (map is the chunk's
	 * mapping; keys it does not own are the engine's).  For a container
	 * it is called whenever the text gives no `fields:` (keys left out
	 * take documented defaults).  Returns 0 or -1 after wl_ydoc_fail.
	 *
	 * keys lists every key the hooks write, in chunks and in their
	 * records, NULL-terminated (fuzz dictionaries, docs); NULL: none.
	 */
	bool (*write_keys)(FILE *out, const wl_doc *d, const wl_chunk *c, int indent);
	/* decode reports the keys write_keys writes to a sink instead (the
	 * same contract: false, having reported nothing, when the bytes do not
	 * decode exactly); write_keys may be wl_tf_yaml_keys over it.  NULL:
	 * the format's chunks are shown from its tables only. */
	bool (*decode)(const wl_doc *d, const wl_chunk *c, const wl_tf_sink *s);
	bool (*owns_key)(const wl_chunk_type *t, const char *key);
	int (*assemble_keys)(struct wl_tf_asm *a, const wl_chunk_type *t, wl_ynode map);
	const char *const *keys;
	/*
	 * Optional, for a format whose text form is not the engine's chunk
	 * tree (P3D MLOD: textform/p3d/mlod.h).  write_doc writes the whole
	 * text form of d and returns 1; 0, having written nothing, when d is
	 * not one it writes (the engine's chunk form follows, read-only when
	 * the format is not writable); -1 on a write error.  assemble_doc
	 * appends the bytes of the value of the root key doc_key ("mlod"),
	 * which the document then gives instead of `chunks:`; 0 or -1 after
	 * wl_ydoc_fail.
	 */
	const char *doc_key;
	int (*write_doc)(FILE *out, const wl_doc *d, const char *source);
	int (*assemble_doc)(struct wl_tf_asm *a, wl_ynode value);
	/* The decoded model of d as one JSON object (jansson, new reference):
	 * w3ddump's "model" (JSON dump) and its "model:" section (human
	 * dump, wl_tf_dump_human); offsets false: without the byte offsets
	 * of its elements (w3ddump --diff-text).  NULL: the format has none.
	 * P3D: textform/p3d/model.c. */
	struct json_t *(*model)(const wl_doc *d, bool offsets);
	/* Geometry for display (issue 28; w3ddump --geometry, docs/web.md):
	 * the meshes of d's typed model (d->model, built by the format's
	 * build_model: the decoders the rules use) in the file's own
	 * coordinates, as {"meshes": [...]} (jansson, new reference; the keys
	 * in textform/dump_geometry.c); NULL when out of memory.  NULL hook:
	 * the format gives none.  c (NULL: none) finds the other files the
	 * format's loader reads by name (textform/geometry.h). */
	struct json_t *(*geometry)(const wl_doc *d, const struct wl_tf_geo_companions *c);
} wl_tf_format;

/** The text form entry of format f, or NULL when the format has no text
 *  form (w3ddump --text and w3dasm refuse it). */
const wl_tf_format *wl_tf_format_of(const wl_format *f);

/** The struct table of chunk short name `chunk` in tf's tables, or NULL
 *  (tf NULL or chunk NULL: NULL). */
const wl_tf_struct *wl_tf_find(const wl_tf_format *tf, const char *chunk);

/** How the dump writes data chunk c of d: wl_tf_classify_table with d's
 *  format's table for c's type, in c's context. */
wl_tf_view wl_tf_view_of(const wl_doc *d, const wl_chunk *c);

/** Reports the keys of chunk c's own bytes (a container's fields, a data
 *  chunk's payload) to s through d's format's decode hook.  False, having
 *  reported nothing, when the format has none, c has no type, or the bytes
 *  do not decode exactly.  textform/registry.c. */
bool wl_tf_decode(const wl_doc *d, const wl_chunk *c, const wl_tf_sink *s);

/** A write_keys hook over wl_tf_decode: writes the decoded keys of c at
 *  indent as the text form's YAML.  textform/sink_yaml.c. */
bool wl_tf_yaml_keys(FILE *out, const wl_doc *d, const wl_chunk *c, int indent);

/** The decoded keys of c at indent as w3ddump's human dump shows them: as
 *  wl_tf_yaml_keys, but a list gives its count ("vertices: 320
 *  element(s)"), its records are numbered ("[0] {...}") and only the first
 *  `show` are written, then "... N more (--all shows every element)"; the
 *  bytes after the last record are counted.  False, having written
 *  nothing, as wl_tf_decode.  textform/sink_yaml.c. */
bool wl_tf_human_keys(FILE *out, const wl_doc *d, const wl_chunk *c, int indent, size_t show);

/* ------------------------------------------------- assembler primitives
 * For assemble_keys hooks (textform/read.c).  Every function appends to the
 * assembler's output and returns 0, or -1 after reporting an error at the
 * node (the first error stops the assembly). */
typedef struct wl_tf_asm wl_tf_asm;

/** The YAML document being assembled. */
const wl_ydoc *wl_tf_asm_doc(const wl_tf_asm *a);

/** Bytes appended so far (*len set): for a hook that reads back a value it
 *  wrote (B3D: the flags that decide the record layout). */
const uint8_t *wl_tf_asm_bytes(const wl_tf_asm *a, size_t *len);

/** Drops the bytes appended after the first len (len <= what was
 *  appended): a value read back with wl_tf_asm_bytes and written
 *  elsewhere. */
void wl_tf_asm_truncate(wl_tf_asm *a, size_t len);

/** Overwrites n bytes at offset `at` of what was appended (at + n <= the
 *  bytes appended): a size or count known only after what follows it. */
void wl_tf_asm_poke(wl_tf_asm *a, size_t at, const void *p, size_t n);

/** Appends p[0..n) (at: the node errors are reported at). */
int wl_tf_asm_put(wl_tf_asm *a, wl_ynode at, const void *p, size_t n);

/** Appends field f from node n (zeros when n is 0): a scalar, a sequence of
 *  f->count values, a string for NAME, `!hex` for any field. */
int wl_tf_asm_field(wl_tf_asm *a, wl_ynode n, const wl_tf_field *f);

/** Appends the hex bytes of scalar n ("00 1a ff"); exactly want bytes unless
 *  want is SIZE_MAX.  what names the value in errors. */
int wl_tf_asm_hex(wl_tf_asm *a, wl_ynode n, const char *what, size_t want);

#endif
