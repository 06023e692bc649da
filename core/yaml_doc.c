/*
 * yaml_doc.c - YAML documents through libyaml's document API (see
 * yaml_doc.h).  The only file of w3dlint that includes <yaml.h>.
 */
#include "yaml_doc.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "platform/printf.h"

struct wl_ydoc {
	yaml_document_t doc;
	const char *name; /* for messages */
	char *err;
	size_t errcap;
};

/* Writes "name:line:column: " and the message to err; returns -1. */
static int verrorf(char *err, size_t errcap, const char *name, unsigned long line,
		   unsigned long column, const char *fmt, va_list ap)
	__attribute__((format(WL_PRINTF_FMT, 6, 0)));

static int verrorf(char *err, size_t errcap, const char *name, unsigned long line,
		   unsigned long column, const char *fmt, va_list ap)
{
	if (!err || errcap == 0)
		return -1;
	int n = snprintf(err, errcap, "%s:%lu:%lu: ", name, line, column);
	if (n >= 0 && (size_t)n < errcap)
		vsnprintf(err + n, errcap - (size_t)n, fmt, ap);
	return -1;
}

int wl_yaml_errorf(char *err, size_t errcap, const char *name, unsigned long line,
		   unsigned long column, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verrorf(err, errcap, name, line, column, fmt, ap);
	va_end(ap);
	return -1;
}

int wl_ydoc_fail_at(const wl_ydoc *d, unsigned long line, unsigned long column, const char *fmt,
		    ...)
{
	va_list ap;
	va_start(ap, fmt);
	verrorf(d->err, d->errcap, d->name, line, column, fmt, ap);
	va_end(ap);
	return -1;
}

static yaml_node_t *node_at(const wl_ydoc *d, wl_ynode n)
{
	/* yaml_document_get_node takes a non-const document but only reads. */
	yaml_document_t *doc = (yaml_document_t *)(uintptr_t)&d->doc;
	return n > 0 ? yaml_document_get_node(doc, n) : NULL;
}

unsigned long wl_ydoc_line(const wl_ydoc *d, wl_ynode n)
{
	const yaml_node_t *y = node_at(d, n);
	return y ? (unsigned long)y->start_mark.line + 1 : 1;
}

unsigned long wl_ydoc_column(const wl_ydoc *d, wl_ynode n)
{
	const yaml_node_t *y = node_at(d, n);
	return y ? (unsigned long)y->start_mark.column + 1 : 1;
}

int wl_ydoc_fail(const wl_ydoc *d, wl_ynode n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verrorf(d->err, d->errcap, d->name, wl_ydoc_line(d, n), wl_ydoc_column(d, n), fmt, ap);
	va_end(ap);
	return -1;
}

/* Line and column (0-based) of byte offset off in text, for libyaml reader
 * errors, which report an offset instead of a mark. */
static yaml_mark_t mark_of_offset(const char *text, size_t len, size_t off)
{
	yaml_mark_t m = { 0, 0, 0 };
	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			m.line++;
			m.column = 0;
		} else {
			m.column++;
		}
	}
	m.index = off;
	return m;
}

/* Reports a libyaml parser error as "malformed YAML"; returns -1. */
static int fail_parser(const wl_ydoc *d, const yaml_parser_t *p, const char *text, size_t len)
{
	yaml_mark_t m = p->problem_mark;
	if (p->error == YAML_READER_ERROR)
		m = mark_of_offset(text, len, p->problem_offset);
	unsigned long line = (unsigned long)m.line + 1, column = (unsigned long)m.column + 1;
	if (p->error == YAML_MEMORY_ERROR)
		return wl_ydoc_fail_at(d, line, column, "out of memory while reading YAML");
	if (p->context)
		return wl_ydoc_fail_at(d, line, column, "malformed YAML: %s %s",
				       p->problem ? p->problem : "error", p->context);
	return wl_ydoc_fail_at(d, line, column, "malformed YAML: %s", p->problem ? p->problem : "error");
}

int wl_ydoc_load(const char *name, const char *text, size_t len, char *err, size_t errcap,
		 wl_ydoc **out)
{
	*out = NULL;
	wl_ydoc *d = calloc(1, sizeof *d);
	if (!d)
		return wl_yaml_errorf(err, errcap, name, 1, 1, "out of memory");
	d->name = name;
	d->err = err;
	d->errcap = errcap;
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser)) {
		free(d);
		return wl_yaml_errorf(err, errcap, name, 1, 1, "out of memory");
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	int rc = 0;
	if (!yaml_parser_load(&parser, &d->doc)) {
		fail_parser(d, &parser, text, len);
		yaml_parser_delete(&parser);
		free(d);
		return -1;
	}
	if (yaml_document_get_root_node(&d->doc)) {
		/* A second document in the same text is an error. */
		yaml_document_t more;
		memset(&more, 0, sizeof more);
		if (!yaml_parser_load(&parser, &more)) {
			rc = fail_parser(d, &parser, text, len);
		} else {
			const yaml_node_t *extra = yaml_document_get_root_node(&more);
			if (extra)
				rc = wl_ydoc_fail_at(d, (unsigned long)extra->start_mark.line + 1,
						     (unsigned long)extra->start_mark.column + 1,
						     "only one YAML document is allowed");
			yaml_document_delete(&more);
		}
	}
	yaml_parser_delete(&parser);
	if (rc) {
		wl_ydoc_free(d);
		return -1;
	}
	*out = d;
	return 0;
}

void wl_ydoc_free(wl_ydoc *d)
{
	if (!d)
		return;
	yaml_document_delete(&d->doc);
	free(d);
}

wl_ynode wl_ydoc_root(const wl_ydoc *d)
{
	/* libyaml's root is the document's first node. */
	return d->doc.nodes.start < d->doc.nodes.top ? 1 : 0;
}

const char *wl_ydoc_name(const wl_ydoc *d)
{
	return d->name;
}

wl_ykind wl_ydoc_kind(const wl_ydoc *d, wl_ynode n)
{
	const yaml_node_t *y = node_at(d, n);
	if (!y)
		return WL_Y_NONE;
	switch (y->type) {
	case YAML_SCALAR_NODE:
		return WL_Y_SCALAR;
	case YAML_SEQUENCE_NODE:
		return WL_Y_SEQUENCE;
	case YAML_MAPPING_NODE:
		return WL_Y_MAPPING;
	default:
		return WL_Y_NONE;
	}
}

const char *wl_ydoc_text(const wl_ydoc *d, wl_ynode n)
{
	const yaml_node_t *y = node_at(d, n);
	if (!y || y->type != YAML_SCALAR_NODE)
		return "";
	return (const char *)y->data.scalar.value;
}

size_t wl_ydoc_length(const wl_ydoc *d, wl_ynode n)
{
	const yaml_node_t *y = node_at(d, n);
	return y && y->type == YAML_SCALAR_NODE ? y->data.scalar.length : 0;
}

const char *wl_ydoc_tag(const wl_ydoc *d, wl_ynode n)
{
	const yaml_node_t *y = node_at(d, n);
	return y && y->tag ? (const char *)y->tag : "";
}

int wl_ydoc_is_plain(const wl_ydoc *d, wl_ynode n)
{
	const yaml_node_t *y = node_at(d, n);
	return y && y->type == YAML_SCALAR_NODE && y->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

int wl_ydoc_is_null(const wl_ydoc *d, wl_ynode n)
{
	if (!wl_ydoc_is_plain(d, n))
		return 0;
	const char *s = wl_ydoc_text(d, n);
	return s[0] == 0 || strcmp(s, "~") == 0 || strcmp(s, "null") == 0;
}

int wl_ydoc_want_scalar(const wl_ydoc *d, wl_ynode n, const char *what)
{
	wl_ykind k = wl_ydoc_kind(d, n);
	if (k != WL_Y_SCALAR)
		return wl_ydoc_fail(d, n, "%s must be a scalar, not a %s", what,
				    k == WL_Y_MAPPING ? "mapping" : "sequence");
	if (strlen(wl_ydoc_text(d, n)) != wl_ydoc_length(d, n))
		return wl_ydoc_fail(d, n, "%s contains a NUL character", what);
	return 0;
}

/* A plain decimal number: [+-]digits[.digits][(e|E)[+-]digits] (no hex,
 * inf or nan, which strtod would also take). */
static int parse_number(const char *s, double *out)
{
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	int digits = 0;
	while (isdigit((unsigned char)*p)) {
		p++;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			p++;
			digits++;
		}
	}
	if (!digits)
		return -1;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p)
		return -1;
	char *end;
	double v = strtod(s, &end);
	if (*end || v != v || v > 1.7e308 || v < -1.7e308)
		return -1;
	*out = v;
	return 0;
}

int wl_ydoc_number(const wl_ydoc *d, wl_ynode n, double *out)
{
	if (!wl_ydoc_is_plain(d, n))
		return -1;
	return parse_number(wl_ydoc_text(d, n), out);
}

size_t wl_ydoc_count(const wl_ydoc *d, wl_ynode n)
{
	const yaml_node_t *y = node_at(d, n);
	if (y && y->type == YAML_SEQUENCE_NODE)
		return (size_t)(y->data.sequence.items.top - y->data.sequence.items.start);
	if (y && y->type == YAML_MAPPING_NODE)
		return (size_t)(y->data.mapping.pairs.top - y->data.mapping.pairs.start);
	return 0;
}

wl_ynode wl_ydoc_item(const wl_ydoc *d, wl_ynode seq, size_t i)
{
	const yaml_node_t *y = node_at(d, seq);
	if (!y || y->type != YAML_SEQUENCE_NODE || i >= wl_ydoc_count(d, seq))
		return 0;
	return y->data.sequence.items.start[i];
}

static const yaml_node_pair_t *pair_at(const wl_ydoc *d, wl_ynode map, size_t i)
{
	const yaml_node_t *y = node_at(d, map);
	if (!y || y->type != YAML_MAPPING_NODE || i >= wl_ydoc_count(d, map))
		return NULL;
	return &y->data.mapping.pairs.start[i];
}

wl_ynode wl_ydoc_key(const wl_ydoc *d, wl_ynode map, size_t i)
{
	const yaml_node_pair_t *p = pair_at(d, map, i);
	return p && node_at(d, p->key) ? p->key : 0;
}

wl_ynode wl_ydoc_value(const wl_ydoc *d, wl_ynode map, size_t i)
{
	const yaml_node_pair_t *p = pair_at(d, map, i);
	return p && node_at(d, p->value) ? p->value : 0;
}

wl_ynode wl_ydoc_unique_key(const wl_ydoc *d, wl_ynode map, size_t i)
{
	wl_ynode k = wl_ydoc_key(d, map, i);
	if (!k || !wl_ydoc_value(d, map, i)) {
		wl_ydoc_fail(d, map, "internal: incomplete mapping pair");
		return 0;
	}
	if (wl_ydoc_want_scalar(d, k, "a key"))
		return 0;
	const char *s = wl_ydoc_text(d, k);
	for (size_t j = 0; j < i; j++) {
		wl_ynode prev = wl_ydoc_key(d, map, j);
		if (wl_ydoc_kind(d, prev) == WL_Y_SCALAR && strcmp(wl_ydoc_text(d, prev), s) == 0) {
			wl_ydoc_fail(d, k, "duplicate key '%s' (first at line %lu)", s, wl_ydoc_line(d, prev));
			return 0;
		}
	}
	return k;
}
