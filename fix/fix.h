/*
 * fix.h - fixers: repairs of the findings of the rule catalogue, made through
 * the edit API (core/edit.h) on a freshly read document.
 *
 * A fixer names the rule ids it repairs and whether it is safe (on by default
 * in w3dfix) or unsafe (only with --unsafe, or when asked for by name, e.g.
 * --rebuild-aabtree).  w3dfix runs the selected fixers one after another; each
 * gets a document read from the current bytes (so it sees the result of the
 * fixers before it) with its model built and its findings linted, edits it,
 * and the document is written back to bytes.  After all fixers, w3dfix
 * re-reads the output and verifies: the findings repaired are gone, no new
 * error appeared, and running the fixers again makes no edit.
 *
 * A fixer must be deterministic and idempotent, must only change what its
 * rules are about, and must record every edit with wl_edit_note() (chunk,
 * rule, offset, "what: old -> new").
 */
#ifndef WL_FIX_H
#define WL_FIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/edit.h"
#include "lint/lint.h"

typedef struct wl_fix_ctx {
	wl_doc *doc;              /* read from the current bytes, findings linted */
	/* Its decoded model (doc->model): the format's typed model, which the
	 * format's fixers cast. */
	void *model;
	const wl_catalog *catalog;
	const wl_config *config;  /* may be NULL */
	bool unsafe;              /* --unsafe given */
	bool forced;              /* this fixer was asked for by name */
	/* Rule selection of the run (--select/--ignore), consulted by
	 * wl_fix_rule_wanted(); NULL = every rule.  Set by fix/driver.c. */
	const struct wl_fix_rule_filter *filter;
	/* Top-level chunks (offsets in the bytes read) that drop-unreadable
	 * removes whole instead of salvaging (fix/driver.h drop_whole). */
	const uint64_t *drop_whole;
	size_t drop_whole_count;
	/* Set by a fixer that refuses the repair its rules ask for because it
	 * would keep less than the damage requires (a salvage that would
	 * leave no whole element, and so invent or amputate): why, as static
	 * text or in the document's arena.  The driver reports it as a
	 * verification failure ("FIXER: WHY") and the original is kept.
	 * NULL: no refusal. */
	const char *refused;
} wl_fix_ctx;

/* --select / --ignore patterns (fnmatch globs on rule ids or fixer ids). */
typedef struct wl_fix_rule_filter {
	const char *const *select; /* select_count patterns; none = every rule */
	size_t select_count;
	const char *const *ignore; /* ignore_count patterns */
	size_t ignore_count;
} wl_fix_rule_filter;

typedef struct wl_fixer {
	const char *id;               /* fixer name, e.g. "recompute-bounds"; the
	                               * rules it repairs are those whose
	                               * `fixers:` name it (wl_fixer_rules) */
	bool unsafe;                  /* needs --unsafe (or forced) */
	const char *summary;          /* one line, for w3dfix --list-fixes */
	/* Edits ctx->doc; returns 0, or -1 on out of memory. */
	int (*apply)(wl_fix_ctx *ctx);
} wl_fixer;

/* The fix part of a writable format: what each fix/<format>/fixers.c
 * exports (as core and textform take a descriptor from each format
 * folder), registered in fix/registry.c. */
typedef struct wl_fix_format {
	const char *format; /* wl_format.name it serves: "w3d" */
	/* Its fixers in the order they run, NULL-terminated; *count set. */
	const wl_fixer *const *(*fixers)(size_t *count);
	/* Does doc (read and linted, its model built: doc->model) still hold
	 * a model an engine loads?  false with *why (static text) when not
	 * (W3D: no object, fix/w3d/fixers.c; B3D: no NODE holding a MESH,
	 * fix/b3d/fixers.c; P3D: no LOD read whole, fix/p3d/fixers.c).  The driver refuses an output that holds
	 * none when its input held one or was damaged (fix/driver.c
	 * check_model: "no model left: WHY", the original kept), never
	 * "0 findings left".  NULL: not asked (every output passes). */
	bool (*model_left)(const wl_doc *doc, const char **why);
} wl_fix_format;

/** The fixers of format f (fix/registry.c registry; fix/<format>/fixers.c),
 *  in the order they run; none (count 0) for a read-only format (one with
 *  wl_format.repairable has them: the driver asks it per file).  The list
 *  is NULL-terminated. */
const wl_fixer *const *wl_fixers_of(const wl_format *f, size_t *out_count);

/** Whether doc still holds a model its format's engines load
 *  (wl_fix_format.model_left; true for a format without the hook or
 *  without fixers); *why set (static text) when not.  fix/registry.c. */
bool wl_fix_model_left(const wl_doc *doc, const char **why);

/** Every registered fixer of every format once, in registry order: for
 *  --list-fixes and looking a fixer up by id.  NULL-terminated. */
const wl_fixer *const *wl_fixers(size_t *out_count);

/** The rules fixer f repairs: those whose catalogue entry names it in
 *  `fixers:` (lint/wiring.h, generated from rules/), in id order, ending
 *  with WL_RULE_NONE. */
const wl_rule_id *wl_fixer_rules(const wl_fixer *f);

/* Structural fixers shared by the chunk formats (fix/fix_structure.c):
 * edits of the chunk tree that need no knowledge of a format's records. */
extern const wl_fixer wl_fix_drop_unreadable, wl_fix_drop_stray, wl_fix_trailing_bytes,
	wl_fix_trim_partial, wl_fix_chunk_overruns, wl_fix_container_sizes, wl_fix_container_bits;

/** True when doc has a finding (effective severity not off) of rule. */
bool wl_fix_has_finding(const wl_doc *doc, const char *rule);

/** True when filter (NULL = everything) lets `rule` be repaired: it matches
 *  a select pattern (or there is none) and no ignore pattern.  Patterns are
 *  fnmatch(3) globs. */
bool wl_fix_filter_allows(const wl_fix_rule_filter *filter, const char *rule);

/** The writable node of d that c (a const pointer into d's tree, e.g. a
 *  model's src field) designates, found by walking d's tree from the root
 *  (no cast).  NULL when c is not in d's tree.  fix/fix_util.c. */
wl_chunk *wl_fix_mut(wl_doc *d, const wl_chunk *c);

/** Stores v at p as a little-endian uint32 (4 bytes).  fix/fix_util.c. */
void wl_fix_put_u32(uint8_t *p, uint32_t v);

/** Stores v at p as a little-endian IEEE binary32 (its bits, 4 bytes).
 *  fix/fix_util.c. */
void wl_fix_put_f32(uint8_t *p, float v);

/** A writable copy of data chunk c's current payload (wl_edit_payload) in
 *  d->arena, its length in *len: what a fixer patches before handing it to
 *  wl_edit_set_payload.  NULL (and d->oom set) when out of memory; *len is
 *  set either way.  fix/fix_util.c. */
uint8_t *wl_fix_payload_copy(wl_doc *d, wl_chunk *c, size_t *len);

/** Replaces the little-endian uint32 at byte `at` of data chunk c's current
 *  payload with v (wl_edit_set_payload on a patched copy).  -1 when the
 *  payload is shorter than at + 4 bytes or out of memory.  *old gets the
 *  value replaced (may be NULL).  fix/fix_util.c. */
int wl_fix_patch_u32(wl_doc *d, wl_chunk *c, size_t at, uint32_t v, uint32_t *old);

/** True when ctx->doc has a finding of rule and the run's filter allows
 *  repairing it: the test a fixer makes before repairing one rule. */
bool wl_fix_rule_wanted(const wl_fix_ctx *ctx, wl_rule_id rule);

#endif
