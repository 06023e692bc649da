/*
 * custom_fields.h - what a format gives the declarative custom rules of the
 * configuration (custom_rules.h): a table of fields (wl_field_def) and a
 * walk over its model that hands every occurrence of the rule's field to
 * wl_custom_check().  The helpers below read a field's bytes, bounded by
 * the chunk's payload and by the file.  Registered per format in
 * lint/registry.c (wl_lint_format.fields, .custom_eval).
 */
#ifndef WL_CUSTOM_FIELDS_H
#define WL_CUSTOM_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

#include "custom_rules.h"
#include "lint/lint.h"

/* One occurrence of a field. */
typedef struct wl_custom_occ {
	const wl_chunk *chunk;   /* chunk holding the bytes */
	int64_t element;         /* array element, or -1 */
	uint64_t offset, length; /* the field's bytes in the file (absolute) */
	const uint8_t *bytes;    /* name fields: raw value up to the first NUL */
	size_t len;              /* bytes of the name value */
	double number;           /* number fields */
	const char *object;      /* owning object's name (for {object}) */
} wl_custom_occ;

/* One rule being evaluated over one document. */
typedef struct wl_custom_eval {
	wl_lint_ctx *ctx;
	const wl_custom_rule *rule; /* rule->field->code says which field */
	const char *rid;            /* rule id, owned by the configuration */
} wl_custom_eval;

/** Tests o against the rule's condition (match / not-match on name
 *  fields, min / max on number fields) and reports a violation under the
 *  rule's id at o's bytes; one finding per occurrence at most. */
void wl_custom_check(const wl_custom_eval *e, const wl_custom_occ *o);

/** The name field of field_len bytes at field_off in c's payload, when all
 *  of it is inside the payload and the file: fills o (value up to the first
 *  NUL, or the whole field).  False otherwise (o unchanged). */
bool wl_custom_name_field(const wl_doc *doc, const wl_chunk *c, uint64_t field_off,
			  uint64_t field_len, wl_custom_occ *o);

/** The whole payload of a string chunk (W3D TEXTURE_NAME), clamped to the
 *  file, as a name field. */
bool wl_custom_string_chunk(const wl_doc *doc, const wl_chunk *c, wl_custom_occ *o);

/** A number field of field_len bytes at field_off in c's payload whose
 *  decoded value is value; false when its bytes are not all present. */
bool wl_custom_number_field(const wl_doc *doc, const wl_chunk *c, uint64_t field_off,
			    uint64_t field_len, double value, wl_custom_occ *o);

/* A name or number field of an object's header chunk that a rule can test. */
typedef struct wl_custom_header_field {
	int code;          /* the format's field code (wl_field_def.code) */
	uint64_t off, len; /* the field's bytes in the header payload */
	bool number;       /* a number field (value), else a name field */
	double value;      /* number fields: the decoded value */
} wl_custom_header_field;

/** Tests the rule on the field of hf[0..n) that it names, read from header
 *  chunk c and reported as belonging to `object`.  Nothing happens when the
 *  rule's field is not among them or its bytes are not in the file. */
void wl_custom_eval_header(const wl_custom_eval *e, const wl_chunk *c,
			   const wl_custom_header_field *hf, size_t n, const char *object);

/**
 * Evaluates every custom rule of ctx->config over ctx->model and reports
 * each violation on ctx->doc->findings under the rule's id (copied into the
 * document's arena, so the document does not depend on the configuration).
 * Rules that are off for this file (wl_lint_enabled) are skipped.  Does
 * nothing without a configuration or a model.  A check (lint.h
 * wl_check_fn) that every format runs after its own (lint/registry.c
 * wl_lint_engine_checks); custom_check.c.
 */
void wl_custom_rules_run(wl_lint_ctx *ctx);

#endif
