/*
 * b3dlint_util.h - linting built .b3d bytes in the B3D rule tests
 * (tests/lint/b3d/test_skin.c, tests/lint/b3d/test_anim.c):
 *   wl_doc *d = t_b3dutil_lint(&b, "rules:\n  b3d-weight-zero: info\n"); // or NULL
 *   ck_assert_uint_eq(t_b3dutil_count(d, "b3d-weight-sum"), 1);
 *   t_b3dutil_free(d);
 * The bytes are linted from a private, exactly sized copy (ASan sees reads
 * past the end) with the built-in catalogue, as "t.b3d".  Failures (bad
 * configuration, out of memory) fail the running test.
 */
#ifndef B3DLINT_UTIL_H
#define B3DLINT_UTIL_H

#include <stddef.h>

#include "core/chunk.h"
#include "lint/config/target.h"
#include "w3dbuild.h"

/** Lints b's bytes; config is a configuration's YAML text or NULL. */
wl_doc *t_b3dutil_lint(const wb *b, const char *config);
/** Lints b's bytes as the front end does for a file whose mod layout
 *  names the targets layout (0: none, so `auto` picks the format's
 *  default targets; lint.h wl_lint_bytes_opts); the file's targets are
 *  written to *targets.  Free with t_b3dutil_free. */
wl_doc *t_b3dutil_lint_layout(const wb *b, wl_target_mask layout, wl_target_mask *targets);
/** Lints p[0..n) with every B3D rule on (b3d-weight-zero too), for
 *  t_robust_lint_variants (robust_util.h). */
wl_doc *t_b3dutil_lint_bytes(const uint8_t *p, size_t n);
/** Frees a document from t_b3dutil_lint (and its configuration). */
void t_b3dutil_free(wl_doc *d);
/** Findings of rule. */
size_t t_b3dutil_count(const wl_doc *d, const char *rule);
/** The nth (0-based, in offset order) finding of rule, or NULL. */
const wl_finding *t_b3dutil_find(const wl_doc *d, const char *rule, size_t nth);
/** Lints b (no configuration) and returns the count of rule. */
size_t t_b3dutil_count_of(const wb *b, const char *rule);

#endif
