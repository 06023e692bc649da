/*
 * b3dlint.h - lints B3D bytes built with b3dbuild.h through the whole lint
 * engine (t_ref_lint: wl_lint_bytes, built-in catalogue, no configuration, on
 * an exactly sized copy so ASan sees any read past the end), for the B3D
 * rule tests:
 *   wl_doc *d = t_b3dlint_take(&b);        // lints b's bytes, frees b
 *   ck_assert_uint_eq(t_count(d, "b3d-tris-empty"), 1);
 *   t_b3dlint_free(d);
 * Out of memory aborts the test process.
 */
#ifndef B3DLINT_H
#define B3DLINT_H

#include "core/chunk.h"
#include "b3dbuild.h"
#include "reader_util.h"

/** Lints b's bytes as "t.b3d". */
wl_doc *t_b3dlint_lint(const wb *b);
/** t_b3dlint_lint, then frees b's buffer. */
wl_doc *t_b3dlint_take(wb *b);
/** Frees the document and its copy of the bytes. */
void t_b3dlint_free(wl_doc *d);
/** Asserts that d holds exactly one finding of rule, at offset and (when
 *  length is not 0) of length bytes; returns it. */
const wl_finding *t_b3dlint_one(const wl_doc *d, const char *rule, uint64_t offset, uint64_t length);
/** Prints every finding (rule, offset, length, message) to stderr. */
void t_b3dlint_dump(const wl_doc *d);

#endif
