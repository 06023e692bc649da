/*
 * reader_util.h - helpers for the chunk-reader tests (and the text form
 * tests: t_text).
 *
 *   wl_doc *d = t_read(bytes, len);     // W3D; reads a private, exactly
 *                                        // sized heap copy, so ASan sees any
 *                                        // read past the end of the file
 *   ck_assert_uint_eq(t_count(d, "chunk-truncated"), 1);
 *   const char *why = t_tiling_error(d);   // NULL when the tree tiles
 *   t_free(d);
 *
 * Allocation failures fail the running test (Check).
 */
#ifndef READER_UTIL_H
#define READER_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/chunk.h"
#include "lint/catalog.h"
#include "textform/textform.h"

/** A private heap copy of p[0..n), exactly n bytes (1 when n is 0) so ASan
 *  sees any read past its end; the caller frees it.  Fails the test when
 *  out of memory. */
uint8_t *t_copy(const void *p, size_t n);
/** Reads a copy (t_copy) of p[0..n) with wl_doc_read(&w3d_format, ...). */
wl_doc *t_read(const void *p, size_t n);
/** Same, with any format. */
wl_doc *t_read_fmt(const wl_format *fmt, const void *p, size_t n);
/** Frees the document and its private copy of the bytes. */
void t_free(wl_doc *d);

/** Assembles text-form text[0..n) named name (wl_tf_assemble); fails the
 *  test with the assembler's message when it does not assemble.  The
 *  caller frees the returned data. */
wl_tf_bytes t_assemble(const char *name, const char *text, size_t n);

/** The text form (wl_tf_write) of a copy of p[0..n) read with fmt,
 *  source named `source` (malloc'd, NUL-terminated; the caller frees it).
 *  Fails the test when the writer fails. */
char *t_text(const wl_format *fmt, const void *p, size_t n, const char *source);

/** Asserts that text (a text form document) assembles (wl_tf_assemble) to
 *  exactly want[0..n), naming the first differing byte otherwise. */
void t_assembles_to(const char *text, const uint8_t *want, size_t n);

/** Findings of rule. */
size_t t_count(const wl_doc *d, const char *rule);
/** The first finding of rule (emission order), or NULL. */
const wl_finding *t_find(const wl_doc *d, const char *rule);
/** The finding of rule at exactly offset, or NULL. */
const wl_finding *t_find_at(const wl_doc *d, const char *rule, uint64_t offset);
/** Offset of the first finding of rule, or -1 when there is none. */
int64_t t_offset(const wl_doc *d, const char *rule);

/**
 * NULL when the tree covers the file exactly: the top-level nodes tile
 * [0, size), the nodes of every chunk tile its payload, every node is inside
 * its parent, links and indexes are consistent, every chunk node's id, size
 * field and schema entry agree with the bytes, and chunk_count is right.
 * Otherwise a description of the first violation (static buffer).
 */
const char *t_tiling_error(const wl_doc *d);

/** NULL when every finding's [offset, offset+length) lies inside the file,
 *  otherwise a description (static buffer). */
const char *t_findings_bounds_error(const wl_doc *d);

/** The built-in catalogue of a test case: t_cat_setup (a Check checked
 *  fixture) loads it into t_cat and fails the test when it does not
 *  load; t_cat_teardown frees it. */
extern wl_catalog *t_cat;
void t_cat_setup(void);
void t_cat_teardown(void);

/** Lints p[0..n) named path with cat (wl_lint_bytes, no configuration;
 *  the document points into p); fails the test unless the document is of
 *  the format named fmt, its tree tiles the file (t_tiling_error) and
 *  every finding lies inside it.  Free with wl_doc_free. */
wl_doc *t_lint_checked(const wl_catalog *cat, const char *path, const char *fmt, const void *p,
			size_t n);

/** The i-th node (any kind) under parent, or NULL. */
wl_chunk *t_child(const wl_chunk *parent, size_t i);
/** The chunk node with this header offset and id anywhere in the tree, or NULL. */
wl_chunk *t_chunk_at(const wl_doc *d, uint64_t offset, uint32_t id);
/** The gap node starting at offset anywhere in the tree, or NULL. */
wl_chunk *t_gap_at(const wl_doc *d, uint64_t offset);

/** Prints the tree and the findings (for debugging a failing test). */
void t_dump(const wl_doc *d, FILE *out);

/** Little-endian u32 at p (for building expectations). */
uint32_t t_le32(const uint8_t *p);

/* ---- expected findings, for case tables ---- */

/**
 * One assertion on a linted document.  fires: the first finding of rule
 * (emission order) is at the offset, and has the length, element and
 * message when those are given; !fires: there is no finding of rule.
 * The offset is add plus, when the layout is not NULL, the size_t member at
 * byte `at` of the layout struct the caller passes (T_AT); with anywhere
 * set, only that the rule fires is asserted about the position.
 */
typedef struct t_expect {
	const char *rule;     /* NULL ends a list */
	int fires;
	size_t at, add;       /* T_AT(type, member, add), or 0, offset */
	uint64_t length;      /* non-zero: the finding's length */
	int64_t element;      /* non-zero: the finding's element */
	const char *message;  /* non-NULL: the finding's message */
	int anywhere;         /* fires: the offset is not asserted */
} t_expect;
#define T_AT(type, member, add) offsetof(type, member), (add)

/** Asserts e[0..n), stopping early at a rule NULL; name (the case) and the
 *  entry's index are in every failure message.  layout: see t_expect. */
void t_expect_all(const char *name, const wl_doc *d, const void *layout, const t_expect *e,
		   size_t n);

#endif
