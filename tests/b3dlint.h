/*
 * b3dlint.h - lints B3D bytes built with b3dbuild.h through the whole lint
 * engine (wl_lint_bytes, built-in catalogue, no configuration), for the
 * B3D rule tests:
 *   wl_doc *d = b3l_lint(&b);
 *   ck_assert_uint_eq(ru_count(d, "b3d-tris-empty"), 1);
 *   b3l_free(d);
 * The bytes are linted from a private, exactly sized copy (ru_copy) so ASan
 * sees any read past the end.  Out of memory aborts the test process.
 */
#ifndef B3DLINT_H
#define B3DLINT_H

#include "../core/chunk.h"
#include "b3dbuild.h"
#include "reader_util.h"

/** Lints b's bytes as "t.b3d". */
wl_doc *b3l_lint(const wb *b);
/** Frees the document and its copy of the bytes. */
void b3l_free(wl_doc *d);
/** Prints every finding (rule, offset, length, message) to stderr. */
void b3l_dump(const wl_doc *d);

#endif
