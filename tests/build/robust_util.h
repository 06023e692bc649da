/*
 * robust_util.h - shared robustness sweep and suite builder for the
 * decoder/lint unit tests (tests/lint/w3d/test_animation.c, tests/lint/w3d/test_hierarchy.c,
 * tests/lint/w3d/test_hlod.c, tests/lint/w3d/test_mesh.c).
 *
 *   t_robust_lint_variants(b.data, b.len, &(t_robust_opts){ t_mesh_lint_bytes, t_mesh_free,
 *                    12345, 3000, my_mutate });
 *
 * Failures are Check assertions (they fail the running test).
 */
#ifndef ROBUST_UTIL_H
#define ROBUST_UTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"

/** Parses and lints the n bytes at p (the callee may copy them); never
 *  returns NULL except out of memory. */
typedef wl_doc *(*t_robust_lint_fn)(const uint8_t *p, size_t n);
/** Frees a document returned by the matching t_robust_lint_fn. */
typedef void (*t_robust_free_fn)(wl_doc *d);
/** Corrupts buf[0..n) in place (n > 0), drawing from rand(). */
typedef void (*t_robust_mutate_fn)(uint8_t *buf, size_t n);

typedef struct t_robust_opts {
	t_robust_lint_fn lint;
	t_robust_free_fn free_doc;
	unsigned seed;       /* srand() seed, set before the first variant */
	int rounds;          /* number of mutated variants */
	t_robust_mutate_fn mutate; /* NULL: t_robust_flip_bits */
} t_robust_opts;

/** Flips 4 random single bits of buf[0..n) (positions may repeat). */
void t_robust_flip_bits(uint8_t *buf, size_t n);

/**
 * Lints every prefix p[0..k) for k = 0..n, then o->rounds variants of the
 * whole file, each a fresh copy of p[0..n) (one exactly sized heap buffer,
 * so ASan sees reads past its end) corrupted by o->mutate.  Asserts for
 * each that linting returns a document and that every finding lies inside
 * the file (t_findings_bounds_error).
 */
void t_robust_lint_variants(const uint8_t *p, size_t n, const t_robust_opts *o);

/**
 * A new suite called name with one test case tcase (timeout seconds when
 * timeout > 0) holding the NULL-terminated tests, in order.  The caller
 * owns the suite (srunner_add_suite takes it over).  (That every rule the
 * code names is in the catalogue is the compiler's check: rule handles,
 * core/rule_ids.h.)
 */
Suite *t_robust_suite_of(const char *name, const char *tcase, int timeout, const TTest *const *tests);

/**
 * Adds to s a test case tcase (timeout seconds when timeout > 0) holding the
 * NULL-terminated tests, in order; returns it (for more tests or fixtures).
 */
TCase *t_robust_add_tests(Suite *s, const char *tcase, int timeout, const TTest *const *tests);

/**
 * Adds to s a test case tcase (timeout seconds when timeout > 0) running the
 * loop test t for _i = 0 .. n-1: one check per entry of a case table.
 */
void t_robust_add_loop(Suite *s, const char *tcase, int timeout, const TTest *t, int n);

#endif
