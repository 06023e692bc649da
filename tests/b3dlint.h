/*
 * b3dlint.h - lints B3D bytes built with b3dbuild.h through the whole lint
 * engine (br_lint: wl_lint_bytes, built-in catalogue, no configuration, on
 * an exactly sized copy so ASan sees any read past the end), for the B3D
 * rule tests:
 *   wl_doc *d = b3l_take(&b);        // lints b's bytes, frees b
 *   ck_assert_uint_eq(ru_count(d, "b3d-tris-empty"), 1);
 *   b3l_free(d);
 * Out of memory aborts the test process.
 */
#ifndef B3DLINT_H
#define B3DLINT_H

#include "core/chunk.h"
#include "b3dbuild.h"
#include "reader_util.h"

/** Lints b's bytes as "t.b3d". */
wl_doc *b3l_lint(const wb *b);
/** b3l_lint, then frees b's buffer. */
wl_doc *b3l_take(wb *b);
/** Frees the document and its copy of the bytes. */
void b3l_free(wl_doc *d);
/** Asserts that d holds exactly one finding of rule, at offset and (when
 *  length is not 0) of length bytes; returns it. */
const wl_finding *b3l_one(const wl_doc *d, const char *rule, uint64_t offset, uint64_t length);
/** Prints every finding (rule, offset, length, message) to stderr. */
void b3l_dump(const wl_doc *d);

#endif
