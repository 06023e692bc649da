/*
 * custom_check.c - the check that evaluates the declarative rules of the
 * configuration (see custom_rules.h for the messages), registered for every
 * format in lint/registry.c: the field tables and the walks over each
 * format's model are the formats' own (lint/<format>/custom_fields.c);
 * this file tests occurrences and reports them.
 *
 * Name values are read again from the document's bytes at the field's
 * offset (the decoded names replace non-printable bytes with '?'; patterns
 * see the raw bytes).  Every read is bounded by the chunk's payload and by
 * the file size, so a short or truncated header yields no occurrence.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "custom_fields.h"
#include "lint/lint.h"
#include "lint/registry.h"

/* A bounded text buffer (truncates silently). */
typedef struct text {
	char *buf;
	size_t cap, len;
} text;

static void put(text *t, const char *s, size_t n)
{
	if (t->len + 1 >= t->cap)
		return;
	size_t room = t->cap - 1 - t->len;
	if (n > room)
		n = room;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = 0;
}

static void puts_(text *t, const char *s)
{
	put(t, s, strlen(s));
}

/* The longest part of a name value shown in a message, in bytes. */
#define SHOWN_MAX 200

/* Appends name bytes p[0..n) with non-printable bytes as '?'. */
static void put_name(text *t, const uint8_t *p, size_t n)
{
	size_t shown = n > SHOWN_MAX ? SHOWN_MAX : n;
	for (size_t i = 0; i < shown; i++) {
		char c = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
		put(t, &c, 1);
	}
	if (shown < n)
		puts_(t, "...");
}

static void put_number(text *t, double v)
{
	char b[64];
	snprintf(b, sizeof b, "%.15g", v);
	puts_(t, b);
}

/* ---------------------------------------------------------- evaluation */

/* Appends the value of o (quoted name or number). */
static void put_value(text *t, const wl_custom_eval *e, const wl_custom_occ *o, bool quote)
{
	if (e->rule->field->kind == WL_FIELD_NUMBER) {
		put_number(t, o->number);
		return;
	}
	if (quote)
		puts_(t, "'");
	put_name(t, o->bytes, o->len);
	if (quote)
		puts_(t, "'");
}

/* Reports o.  why is the default message's tail (after the value). */
static void report(const wl_custom_eval *e, const wl_custom_occ *o, const char *why)
{
	char buf[1024];
	text t = { buf, sizeof buf, 0 };
	buf[0] = 0;
	const char *tmpl = e->rule->message;
	if (!tmpl) {
		puts_(&t, e->rule->field->name);
		puts_(&t, " ");
		put_value(&t, e, o, true);
		puts_(&t, " ");
		puts_(&t, why);
	} else {
		for (const char *p = tmpl; *p; p++) {
			size_t n;
			int ph = *p == '{' ? wl_custom_placeholder_at(p, &n) : -1;
			if (*p == '{' && p[1] == '{') {
				put(&t, "{", 1);
				p++;
			} else if (ph == 0) {
				puts_(&t, e->rule->id);
				p += n - 1;
			} else if (ph == 1) {
				puts_(&t, e->rule->field->name);
				p += n - 1;
			} else if (ph == 2) {
				put_value(&t, e, o, false);
				p += n - 1;
			} else if (ph == 3) {
				put_name(&t, (const uint8_t *)(o->object ? o->object : ""),
					 o->object ? strlen(o->object) : 0);
				p += n - 1;
			} else {
				put(&t, p, 1);
			}
		}
	}
	wl_report_named(&e->ctx->doc->findings, e->rid, o->chunk, o->element, o->offset, o->length, "%s", buf);
}

/* Appends "'<pattern>'" (shown like a name) to t. */
static void put_pattern(text *t, const wl_pattern *p)
{
	const char *s = wl_pattern_source(p);
	puts_(t, "'");
	put_name(t, (const uint8_t *)s, strlen(s));
	puts_(t, "'");
}

/* Tests o against the rule's condition and reports a violation. */
void wl_custom_check(const wl_custom_eval *e, const wl_custom_occ *o)
{
	const wl_custom_rule *r = e->rule;
	char why[512];
	text t = { why, sizeof why, 0 };
	why[0] = 0;
	if (r->field->kind == WL_FIELD_NUMBER) {
		if (r->has_min && o->number < r->min) {
			puts_(&t, "is below the minimum ");
			put_number(&t, r->min);
		} else if (r->has_max && o->number > r->max) {
			puts_(&t, "is above the maximum ");
			put_number(&t, r->max);
		} else {
			return;
		}
		report(e, o, why);
		return;
	}
	const wl_pattern *pats[2] = { r->match, r->not_match };
	for (int i = 0; i < 2; i++) {
		if (!pats[i])
			continue;
		int rc = wl_pattern_match(pats[i], o->bytes, o->len);
		if (rc < 0) {
			char msg[256];
			wl_pattern_error(rc, msg, sizeof msg);
			puts_(&t, "could not be tested: pattern ");
			put_pattern(&t, pats[i]);
			puts_(&t, ": ");
			puts_(&t, msg);
		} else if (i == 0 && rc == 0) {
			puts_(&t, "does not match ");
			put_pattern(&t, pats[i]);
		} else if (i == 1 && rc == 1) {
			puts_(&t, "matches ");
			put_pattern(&t, pats[i]);
			puts_(&t, ", which is not allowed");
		} else {
			continue;
		}
		report(e, o, why);
		return; /* one finding per occurrence */
	}
}

/* The name field of field_len bytes at field_off in c's payload, when all
 * of it is inside the payload and the file. */
bool wl_custom_name_field(const wl_doc *doc, const wl_chunk *c, uint64_t field_off,
		       uint64_t field_len, wl_custom_occ *o)
{
	if (!c || c->size < field_off || c->size - field_off < field_len)
		return false;
	uint64_t off = wl_chunk_payload_offset(c) + field_off;
	if (off > doc->size || doc->size - off < field_len)
		return false;
	const uint8_t *p = doc->bytes + off;
	const uint8_t *z = memchr(p, 0, (size_t)field_len);
	o->chunk = c;
	o->element = -1;
	o->offset = off;
	o->length = field_len;
	o->bytes = p;
	o->len = z ? (size_t)(z - p) : (size_t)field_len;
	return true;
}

/* The whole payload of a string chunk (TEXTURE_NAME, VERTEX_MATERIAL_NAME),
 * clamped to the file. */
bool wl_custom_string_chunk(const wl_doc *doc, const wl_chunk *c, wl_custom_occ *o)
{
	if (!c)
		return false;
	uint64_t off = wl_chunk_payload_offset(c);
	if (off > doc->size)
		return false;
	uint64_t n = c->size < doc->size - off ? c->size : doc->size - off;
	return wl_custom_name_field(doc, c, 0, n, o);
}

/* A number field of field_len bytes at field_off in c's payload. */
bool wl_custom_number_field(const wl_doc *doc, const wl_chunk *c, uint64_t field_off,
			 uint64_t field_len, double value, wl_custom_occ *o)
{
	if (!wl_custom_name_field(doc, c, field_off, field_len, o))
		return false;
	o->bytes = NULL;
	o->len = 0;
	o->number = value;
	return true;
}


/* Tests the rule on the field of hf[0..n) that it names, read from
 * header chunk c and reported as belonging to `object`.  Nothing happens
 * when the rule's field is not among them or its bytes are not in the file. */
void wl_custom_eval_header(const wl_custom_eval *e, const wl_chunk *c, const wl_custom_header_field *hf, size_t n,
			const char *object)
{
	const wl_doc *doc = e->ctx->doc;
	wl_custom_occ o = { 0 };
	for (size_t i = 0; i < n; i++) {
		const wl_custom_header_field *f = &hf[i];
		if (f->code != e->rule->field->code)
			continue;
		if (f->number ? wl_custom_number_field(doc, c, f->off, f->len, f->value, &o)
			      : wl_custom_name_field(doc, c, f->off, f->len, &o)) {
			o.object = object;
			wl_custom_check(e, &o);
		}
		return;
	}
}

void wl_custom_rules_run(wl_lint_ctx *ctx)
{
	if (!ctx || !ctx->config || !ctx->model)
		return;
	const wl_lint_format *lf = wl_lint_format_of(ctx->doc->format);
	if (!lf || !lf->custom_eval)
		return;
	size_t n = wl_config_custom_count(ctx->config);
	for (size_t i = 0; i < n && !ctx->doc->oom; i++) {
		const wl_custom_rule *r = wl_config_custom_at(ctx->config, i);
		/* A field of another format's table: nothing of this file. */
		if (r->field < lf->fields || r->field >= lf->fields + lf->field_count)
			continue;
		if (!wl_lint_enabled_named(ctx, r->id))
			continue;
		/* The id lives in the configuration, which outlives every
		 * document and every report (finding.h wants ids that outlive
		 * the document: the parallel front end frees it before
		 * reporting). */
		wl_custom_eval e = { ctx, r, r->id };
		lf->custom_eval(&e);
	}
}
