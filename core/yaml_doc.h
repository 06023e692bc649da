/*
 * yaml_doc.h - one YAML document loaded for reading, with positioned error
 * messages.  The only interface to libyaml in w3dlint: the rule catalogue
 * (catalog.c) and the user configuration (config.c) read their files
 * through it, and <yaml.h> is included by yaml_doc.c alone.
 *
 * Nodes are named by their index in the document (wl_ynode, 1-based as in
 * libyaml); 0 means "no node".  Every function taking a node accepts 0 and
 * then answers as for an absent node (kind WL_Y_NONE, text "", count 0...).
 *
 * Error format.  Every message is written as
 *
 *     name:line:column: message
 *
 * with 1-based line and column (libyaml's marks are 0-based; the functions
 * here add one) into the caller's buffer err of errcap bytes, truncated to
 * fit and always NUL-terminated.  A NULL err or errcap 0 writes nothing.
 * The error functions all return -1, so a reader can `return wl_ydoc_fail(...)`.
 *
 * Memory.  wl_ydoc_load allocates the document; wl_ydoc_free releases it
 * with every node.  Strings returned by wl_ydoc_text point into the
 * document and live until wl_ydoc_free: copy what must outlive it.  The
 * document keeps (does not copy) the name and err pointers it was given;
 * they must stay valid until wl_ydoc_free.
 */
#ifndef W3DLINT_YAML_DOC_H
#define W3DLINT_YAML_DOC_H

#include <stddef.h>
#include "platform/printf.h"

typedef struct wl_ydoc wl_ydoc;

/* A node's index in its document; 0: none. */
typedef int wl_ynode;

typedef enum wl_ykind {
	WL_Y_NONE,     /* node 0, or an index outside the document */
	WL_Y_SCALAR,
	WL_Y_SEQUENCE,
	WL_Y_MAPPING,
} wl_ykind;

/*
 * Writes "name:line:column: message" (line and column as given, 1-based)
 * to err; returns -1.  For messages not tied to a loaded document.
 */
int wl_yaml_errorf(char *err, size_t errcap, const char *name, unsigned long line,
		   unsigned long column, const char *fmt, ...) __attribute__((format(WL_PRINTF_FMT, 6, 7)));

/*
 * Parses text[0..len) (need not be NUL-terminated) as a YAML stream that
 * must hold at most one document.  On success returns 0 and sets *out to a
 * new document (free it with wl_ydoc_free); an empty stream gives a
 * document whose root is 0.  On failure returns -1, sets *out to NULL and
 * writes one of these messages, name being the file name for messages:
 *   "malformed YAML: <problem> [<context>]" at libyaml's problem mark (for
 *       encoding errors, the line and column of the offending byte),
 *   "out of memory while reading YAML", or "out of memory" at 1:1,
 *   "only one YAML document is allowed" at the second document's root.
 * Later errors about this document go to the same err buffer.
 */
int wl_ydoc_load(const char *name, const char *text, size_t len, char *err, size_t errcap,
		 wl_ydoc **out);

/* Releases the document and all its nodes and strings.  NULL is allowed. */
void wl_ydoc_free(wl_ydoc *d);

/* The root node, or 0 for an empty stream. */
wl_ynode wl_ydoc_root(const wl_ydoc *d);

/* The name given to wl_ydoc_load (not a copy). */
const char *wl_ydoc_name(const wl_ydoc *d);

/* Writes "name:line:column: message" at node n's start (1:1 for node 0);
 * returns -1. */
int wl_ydoc_fail(const wl_ydoc *d, wl_ynode n, const char *fmt, ...)
	__attribute__((format(WL_PRINTF_FMT, 3, 4)));

/* The same at an explicit 1-based line and column; returns -1. */
int wl_ydoc_fail_at(const wl_ydoc *d, unsigned long line, unsigned long column, const char *fmt,
		    ...) __attribute__((format(WL_PRINTF_FMT, 4, 5)));

/* 1-based line and column of node n's start (1 for node 0). */
unsigned long wl_ydoc_line(const wl_ydoc *d, wl_ynode n);
unsigned long wl_ydoc_column(const wl_ydoc *d, wl_ynode n);

wl_ykind wl_ydoc_kind(const wl_ydoc *d, wl_ynode n);

/* A scalar's value, NUL-terminated, owned by the document ("" for other
 * nodes), and its length in bytes (it may hold NUL bytes: see
 * wl_ydoc_want_scalar). */
const char *wl_ydoc_text(const wl_ydoc *d, wl_ynode n);
size_t wl_ydoc_length(const wl_ydoc *d, wl_ynode n);

/* The tag of node n as libyaml resolved it: "!hex" for a node written
 * `!hex "..."` (the primary handle "!" is kept), the YAML default tag
 * ("tag:yaml.org,2002:str", ":seq", ":map") for an untagged node, "" for
 * node 0.  Owned by the document.  Used by the W3D text form (textform.h). */
const char *wl_ydoc_tag(const wl_ydoc *d, wl_ynode n);

/* Is n a plain (unquoted, not block) scalar? */
int wl_ydoc_is_plain(const wl_ydoc *d, wl_ynode n);

/* Is n an absent value: an empty plain scalar, "~" or "null"? */
int wl_ydoc_is_null(const wl_ydoc *d, wl_ynode n);

/*
 * Requires n to be a scalar without NUL bytes; what names the value in the
 * messages "<what> must be a scalar, not a mapping|sequence" and "<what>
 * contains a NUL character".  Returns 0, or -1 with the error written.
 */
int wl_ydoc_want_scalar(const wl_ydoc *d, wl_ynode n, const char *what);

/*
 * If n is a plain scalar holding a decimal number
 * ([+-]digits[.digits][(e|E)[+-]digits]: no hex, inf or nan, finite),
 * stores it in *out and returns 0; otherwise returns -1 and writes no error.
 */
int wl_ydoc_number(const wl_ydoc *d, wl_ynode n, double *out);

/* Items of a sequence or pairs of a mapping (0 for other nodes). */
size_t wl_ydoc_count(const wl_ydoc *d, wl_ynode n);

/* Item i of a sequence (0 if out of range). */
wl_ynode wl_ydoc_item(const wl_ydoc *d, wl_ynode seq, size_t i);

/* Key and value of pair i of a mapping, unchecked (0 if out of range). */
wl_ynode wl_ydoc_key(const wl_ydoc *d, wl_ynode map, size_t i);
wl_ynode wl_ydoc_value(const wl_ydoc *d, wl_ynode map, size_t i);

/*
 * The key of pair i of a mapping, checked: a scalar without NUL bytes
 * (wl_ydoc_want_scalar with what "a key") not used by an earlier pair
 * ("duplicate key '<key>' (first at line <n>)"), and with a value.
 * Returns the key, or 0 with the error written.
 */
wl_ynode wl_ydoc_unique_key(const wl_ydoc *d, wl_ynode map, size_t i);

#endif
