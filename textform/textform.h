/*
 * textform.h - the W3D text form: a readable, editable YAML description of
 * a whole W3D file that w3dasm turns back into the same bytes.  Other
 * formats (B3D: `b3d-text: 1`) go through the same engine with their own
 * tables and hooks (registry.h; docs/textform.md §B3D).
 *
 * The format is documented in docs/textform.md.  In short, a document is
 *
 *     w3d-text: 1
 *     chunks:
 *       - chunk: MESH                # a chunk: spec short name, or 0x1234
 *         children:                  # container: its child chunks and gaps
 *           - chunk: MESH_HEADER3    # a known struct: one key per field
 *             NumVertices: 4
 *             Min: [0, 0, 0]
 *           - chunk: VERTICES        # an array chunk: one item per element
 *             items:
 *               - [0, 0, 0]
 *       - gap: "00 00"               # bytes that belong to no chunk
 *
 * Data chunks carry, instead of children, one of: struct fields (plus a
 * trailing `Data` array for records such as ANIMATION_CHANNEL), `items:`
 * (array chunks), `string:` (text chunks: the bytes before the final NUL),
 * or `hex:`; then optionally `tail:` (hex bytes after the fields).  Some
 * records go on with parts of their own (wl_tf_part): the keyframes after
 * EMITTER_PROPS, the sub-objects after AGGREGATE_INFO, the packets of a
 * time-coded COMPRESSED_ANIMATION_CHANNEL, each under its own key.  Every
 * chunk may pin `size:` (the 31-bit payload size field written instead of
 * the computed one) and `container_bit:` (bit 31 of the size field; by
 * default set exactly when the chunk has child chunks, as the Westwood
 * ChunkSaveClass does).
 *
 * Lossless: the dump of any byte sequence assembles back to it byte for
 * byte.  The reader's tree (core/chunk.h) covers every byte once; each node
 * is written so that it reproduces its own bytes: pins where the declared
 * size or the container bit differ from what the assembler computes, hex
 * where a payload does not decode exactly (short records, names with bytes
 * after the NUL, text that is not printable ASCII), and `!f32bits 0x...`
 * for floats whose shortest decimal does not round-trip (NaN, infinities).
 *
 * Struct field tables (textform/w3d/fields.c) are shared by the text form,
 * the human dump and the JSON dump: adding a struct is one table entry.  The
 * engine prints values (textform/print.c) and splits payloads by a table
 * (textform/view.c) for every format.  Field
 * layouts: seeds/000_2d9a53fdbe3a6a75.txt (W3D spec, struct definitions) and
 * notes/w3d_reference.md §2 (byte offsets, sizes of §2.14).  All values are
 * little-endian.
 */
#ifndef WL_TEXTFORM_H
#define WL_TEXTFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/chunk.h"

/* Version written as `w3d-text:` and the only one w3dasm accepts. */
#define WL_TF_VERSION 1

/* Field element types.  Sizes in bytes: U8/X8 1, U16/X16 2, U32/X32/I32/F32
 * 4; NAME and HEX count bytes instead of elements. */
typedef enum wl_tf_type {
	WL_TF_U8,   /* unsigned, printed in decimal */
	WL_TF_U16,
	WL_TF_U32,
	WL_TF_I32,  /* signed 32-bit (two's complement), decimal */
	WL_TF_X8,   /* unsigned, printed as 0x hex (flags, versions) */
	WL_TF_X16,
	WL_TF_X32,
	WL_TF_F32,  /* IEEE-754 binary32, printed so that it reads back bit-exact */
	WL_TF_NAME, /* char[count]: a string padded with NUL bytes */
	WL_TF_HEX,  /* count opaque bytes, printed as hex */
	WL_TF_STRUCT /* a nested struct (wl_tf_field.sub), written as a mapping */
} wl_tf_type;

struct wl_tf_struct;

/* One field of a struct: count elements of type (count > 1: a YAML
 * sequence, e.g. a vector [x, y, z]; NAME/HEX: count bytes; STRUCT: count
 * is 1 and sub gives the layout).  A trailing array (wl_tf_struct.rest) has
 * count 0: as many elements as fit.  In the element of a wl_tf_part of kind
 * ITEMS, a last field with count 0 has as many elements as the part's
 * width field says (a time-coded packet's Values[VectorLen]). */
typedef struct wl_tf_field {
	const char *name;   /* spec field name, e.g. "NumVertices" */
	uint8_t type;       /* wl_tf_type */
	uint16_t count;
	const struct wl_tf_struct *sub; /* STRUCT: the nested layout */
} wl_tf_field;

/* Dump contexts: how the payload of a chunk is read where it stands
 * (wl_tf_context).  Only COMPRESSED_ANIMATION_CHANNEL depends on it: its
 * packets follow the Flavor of its animation's header. */
#define WL_TF_IN_PLAIN 1u     /* every other chunk; unknown flavor */
#define WL_TF_IN_TIMECODED 2u /* COMPRESSED_ANIMATION Flavor 0 */
#define WL_TF_IN_ADAPTIVE 4u  /* COMPRESSED_ANIMATION Flavor 1 or 2 */

/* How a wl_tf_part is written. */
typedef enum wl_tf_part_kind {
	WL_TF_PART_VALUE,  /* one element of `type`: `Scale: 0.5` */
	WL_TF_PART_VALUES, /* elements of `type`: a flow sequence */
	WL_TF_PART_ITEMS,  /* elements of struct `elem`: a sequence of mappings */
	WL_TF_PART_TEXT,   /* bytes: "text" when printable ASCII + one NUL, else !hex */
	WL_TF_PART_HEX     /* bytes: hex */
} wl_tf_part_kind;

/* Maximum parts of one struct (and of one view). */
#define WL_TF_MAX_PARTS 4

/*
 * A part of a record after its fixed fields (and rest): a key of its own,
 * e.g. the colour keys after W3dEmitterPropertyStruct.  Unlike the fixed
 * fields, a part is written only when its key is given, never as zeros,
 * and no count field is computed: the text holds the counts as they are.
 * The dump gives a part min(count, what fits) elements, where count is
 * fields[count_of] + count_add (count_of -1: as many as fit); after a part
 * that got fewer than its count, the rest of the payload is `tail:`.  A
 * part with no bytes is left out.  Two parts may share a name when one
 * takes a sequence (VALUES, ITEMS) and the other a scalar (VALUE, TEXT,
 * HEX): the assembler picks by the YAML node.
 */
typedef struct wl_tf_part {
	const char *name;                 /* the key */
	uint8_t kind;                     /* wl_tf_part_kind */
	uint8_t type;                     /* VALUE, VALUES: the element type (wl_tf_type) */
	const struct wl_tf_struct *elem;  /* ITEMS: the element layout */
	int8_t count_of;                  /* index in fields[] of the count, -1: all that fits */
	uint8_t count_add;                /* added to the count (KeyframeCount + 1 keys) */
	int8_t width_of;                  /* ITEMS: index in fields[] of the element's
					   * variable field count, -1: none */
	uint8_t in;                       /* WL_TF_IN_* contexts in which the dump writes it */
} wl_tf_part;

typedef enum wl_tf_layout {
	WL_TF_RECORD, /* the fields once, then the optional rest array, then tail */
	WL_TF_ARRAY   /* the fields repeated: one `items:` entry per element */
} wl_tf_layout;

/* The decoded layout of one chunk type's payload. */
typedef struct wl_tf_struct {
	const char *chunk;          /* chunk short name (w3d_format.c schema) */
	uint8_t layout;             /* wl_tf_layout */
	const wl_tf_field *fields;  /* field_count fields, in byte order */
	size_t field_count;
	const wl_tf_field *rest;    /* RECORD: trailing array after the fields
				     * (count 0), or NULL */
	const wl_tf_part *parts;    /* RECORD: part_count parts after the rest */
	size_t part_count;
} wl_tf_struct;

/** The W3D struct layout of a chunk type by short name ("MESH_HEADER3"), or
 *  NULL when the payload has no table (then it is written as hex or text).
 *  Another format's tables: wl_tf_find (registry.h). */
const wl_tf_struct *wl_tf_lookup(const char *chunk_short_name);

/** Bytes of one element of f's type (NAME, HEX and STRUCT: 1). */
size_t wl_tf_type_size(wl_tf_type t);

/** Bytes of field f (count elements; for a rest field, one element; for a
 *  STRUCT, the nested struct's size). */
size_t wl_tf_field_size(const wl_tf_field *f);

/** Bytes of the fixed part of s: the sum of its fields (a record's size, an
 *  array's element size). */
size_t wl_tf_struct_size(const wl_tf_struct *s);

/** Every W3D table, for tests and docs: *out_count entries. */
const wl_tf_struct *wl_tf_tables(size_t *out_count);

/** True when p[0..n) is printable ASCII (tab, CR and LF allowed) followed by
 *  exactly one NUL (the last byte): the bytes the text form writes as a
 *  quoted string (`string:` chunks, TEXT parts, name fields). */
bool wl_tf_clean_text(const uint8_t *p, size_t n);

/** Writes p[0..n) to out as a YAML double-quoted string: '"' and '\\'
 *  escaped, tab, CR and LF as \t \r \n, other bytes outside printable
 *  ASCII as \xNN (which clean text never holds). */
void wl_tf_put_quoted(FILE *out, const uint8_t *p, size_t n);

/**
 * Writes field f's value from the bytes at p (wl_tf_field_size(f) bytes, or
 * one element for a rest field) in YAML flow form: a scalar for count 1,
 * "[a, b, c]" for count > 1, a double-quoted string for a NAME of printable
 * ASCII padded with NUL bytes, `!hex "..."` for any other NAME and for HEX,
 * `!f32bits 0x%08X` for a float that does not read back bit-exact from
 * %.9g, a flow mapping "{A: 1, B: [0, 0]}" for a STRUCT.  The same text is
 * used by the human dump.
 */
void wl_tf_put_value(FILE *out, const wl_tf_field *f, const uint8_t *p);

/** Writes the fields of s at p (each wl_tf_put_value) as a flow mapping,
 *  "{Time: 0, Color: [255, 255, 255, 255]}": a nested struct, an element
 *  of an ARRAY chunk. */
void wl_tf_put_struct(FILE *out, const struct wl_tf_struct *s, const uint8_t *p);

/** Writes the element of ITEMS part element layout e at p as a flow
 *  mapping, "{Time: 0, Color: [255, 255, 255, 255]}"; a last field with
 *  count 0 has width elements and is always a sequence.  Returns the bytes
 *  of the element. */
size_t wl_tf_put_item(FILE *out, const struct wl_tf_struct *e, const uint8_t *p, size_t width);

/** Writes one float as the text form does ("1.5", "-0", "!f32bits 0x7FC00000"). */
void wl_tf_put_f32(FILE *out, uint32_t bits);

/** Writes n bytes at p as YAML double-quoted hex ("00 1a ff"), or as a
 *  literal block of 16 bytes a line at indent spaces when n > 16.  comment
 *  (may be NULL) is written as "  # comment" on the value's first line. */
void wl_tf_put_hex(FILE *out, const uint8_t *p, size_t n, int indent, const char *comment);

/**
 * Writes the text form of document d (of any format with a text form,
 * registry.h; "<format>-text: 1") to out.
 * source names the input in the header comment (may be NULL).  Writes
 * every node of the tree, so the result assembles to d->bytes exactly.
 * Returns 0, or -1 when out reports a write error.
 */
int wl_tf_write(FILE *out, const wl_doc *d, const char *source);

/** How the dump classifies a data chunk's payload (shared by the text form,
 *  the human dump and the JSON dump). */
typedef enum wl_tf_form {
	WL_TF_FORM_HEX,     /* raw bytes */
	WL_TF_FORM_STRING,  /* printable text + one final NUL */
	WL_TF_FORM_FIELDS,  /* a RECORD: fields (+ rest elements) + tail */
	WL_TF_FORM_ITEMS    /* an ARRAY: elements + tail */
} wl_tf_form;

/* One part of a FIELDS view: the bytes the dump gives a wl_tf_part. */
typedef struct wl_tf_span {
	const wl_tf_part *part;
	size_t at;                /* offset in the payload */
	size_t count;             /* elements (TEXT, HEX: bytes; VALUE: 1) */
	size_t elem_size;         /* bytes of one element (TEXT, HEX: 1) */
	size_t width;             /* ITEMS: elements of the variable field */
} wl_tf_span;

/* A data chunk's payload split by its table. */
typedef struct wl_tf_view {
	wl_tf_form form;
	const wl_tf_struct *st;   /* FIELDS and ITEMS: the table */
	size_t elem_size;         /* ITEMS: element bytes; FIELDS: rest element bytes (0: none) */
	size_t count;             /* ITEMS: elements; FIELDS: rest elements */
	size_t head;              /* bytes before the elements (FIELDS: record size) */
	size_t tail;              /* bytes left over at the end (tail: hex) */
	size_t span_count;        /* FIELDS: parts written, in order */
	wl_tf_span spans[WL_TF_MAX_PARTS];
} wl_tf_view;

/**
 * Classifies payload p[0..n) of a chunk of type t (NULL: unknown) as the
 * dump writes it in context `in` (a WL_TF_IN_* bit; see wl_tf_context).
 * Records shorter than their struct and chunks without a table are HEX;
 * STRING chunks are STRING only when the bytes are printable ASCII (plus
 * tab, CR, LF) followed by exactly one NUL.
 */
wl_tf_view wl_tf_classify_in(const wl_chunk_type *t, const uint8_t *p, size_t n, unsigned in);

/** wl_tf_classify_in with table s (NULL: none) instead of the W3D table of
 *  t's name: how the engine classifies a chunk of any format (registry.h,
 *  wl_tf_view_of). */
wl_tf_view wl_tf_classify_table(const wl_chunk_type *t, const wl_tf_struct *s, const uint8_t *p,
				size_t n, unsigned in);

/** wl_tf_classify_in in context WL_TF_IN_PLAIN. */
wl_tf_view wl_tf_classify(const wl_chunk_type *t, const uint8_t *p, size_t n);

/**
 * The dump context of chunk c of d, from d's format's text form entry
 * (registry.h; textform/registry.c).  W3D: for a COMPRESSED_ANIMATION_CHANNEL in a
 * COMPRESSED_ANIMATION, the Flavor of the animation's first
 * COMPRESSED_ANIMATION_HEADER (when it holds its 44 bytes; the rule of
 * w3d_decode_compressed_animation): WL_TF_IN_TIMECODED for 0,
 * WL_TF_IN_ADAPTIVE for 1 and 2.  WL_TF_IN_PLAIN otherwise.
 */
unsigned wl_tf_context(const wl_doc *d, const wl_chunk *c);

/** Writes the names of the recovery bits in rec (chunk.h WL_REC_*), space
 *  separated, into buf (cap bytes, NUL-terminated): "truncated",
 *  "size-past-eof", "clamped", "extended", "resynced", "bit31-on-leaf",
 *  "bit31-missing", "depth-limit", "stray", "trailing", "resync-skipped". */
void wl_tf_marks(char *buf, size_t cap, uint16_t rec);

/* Bytes built by the assembler (malloc-owned; free with free()). */
typedef struct wl_tf_bytes {
	uint8_t *data;
	size_t len, cap;
} wl_tf_bytes;

/**
 * Assembles text[0..len) (a text form document named name) into the bytes of
 * the format its "<format>-text" key names (W3D when none); a format with no
 * text form (registry.h) or not writable is an error.
 * Sizes are computed unless pinned; see the file comment.  On success
 * returns 0 and sets *out (free out->data).  On error returns -1, leaves
 * out empty and writes "name:line:column: message" into err (errcap bytes),
 * e.g. "model.txt:12:5: unknown field 'NumVerts' in MESH_HEADER3".
 */
int wl_tf_assemble(const char *name, const char *text, size_t len, wl_tf_bytes *out, char *err,
		   size_t errcap);

#endif
