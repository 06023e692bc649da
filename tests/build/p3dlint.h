/*
 * p3dlint.h - lints P3D bytes built with p3dbuild.h through the whole lint
 * engine (build_refs.h t_ref_lint: built-in catalogue, an exactly sized copy
 * so ASan sees any read past the end) for the P3D reader and rule tests,
 * and asserts what every P3D document must satisfy: read as p3d, its tree
 * tiles the file, every finding lies inside it.
 *   wl_doc *d = t_p3dlint_lint(&b);
 *   ck_assert_uint_eq(t_count(d, "p3d-face-index"), 1);
 *   t_p3dlint_free(d);
 */
#ifndef P3DLINT_H
#define P3DLINT_H

#include "core/chunk.h"
#include "reader_util.h"
#include "w3dbuild.h"

/** Lints b's bytes as "x.p3d" (see above). */
wl_doc *t_p3dlint_lint(const wb *b);
/** The number of findings of rule when b is linted. */
size_t t_p3dlint_count(const wb *b, const char *rule);
/** The number of findings of rule when b is linted with the configuration
 *  text config (.w3dlint.yaml syntax: severities, params). */
size_t t_p3dlint_count_config(const wb *b, const char *rule, const char *config);
/** Asserts that d holds exactly one finding of rule, at offset and of
 *  length bytes; returns it. */
const wl_finding *t_p3dlint_one(const wl_doc *d, const char *rule, uint64_t offset, uint64_t length);
/** Frees a document of t_p3dlint_lint and its copy of the bytes. */
void t_p3dlint_free(wl_doc *d);

#endif
