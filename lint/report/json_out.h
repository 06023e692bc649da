/*
 * json_out.h - a streaming JSON writer for the JSON and SARIF reports.
 *
 * It writes in document order straight to a stream, in bounded memory (a
 * stack of open containers), exactly the bytes jansson's json_dumpf with
 * JSON_INDENT(2) writes for the same document built in the same key order:
 * "{" / "[", each member on its own line indented two spaces per depth,
 * "key": value with ": ", "," at the end of every member but the last, the
 * closing bracket on its own line at the container's depth, and "{}" / "[]"
 * for an empty container.  Integers are written with %lld, strings in the
 * escaped form of core/escape.h (wl_report_json_str) with '"' and '\'
 * escaped for JSON.
 *
 * Usage: begin a container, then per member jo_key (objects only) and one
 * value (a scalar, or a container begun and ended); wl_jo_finish after the
 * outermost.  Output is gathered in a 64 KiB buffer and written with
 * fwrite when it is full and by wl_jo_finish.
 */
#ifndef WL_JSON_OUT_H
#define WL_JSON_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define WL_JSON_OUT_DEPTH 16
#define WL_JSON_OUT_BUF 65536

typedef struct wl_json_out {
	FILE *out;
	int depth;                              /* open containers */
	uint64_t members[WL_JSON_OUT_DEPTH];    /* per open container */
	char close[WL_JSON_OUT_DEPTH];          /* its closing bracket */
	bool after_key;                         /* a key waits for its value */
	bool oom;                               /* or misuse, or a write failed */
	size_t len;                             /* bytes in buf */
	char buf[WL_JSON_OUT_BUF];
} wl_json_out;

void wl_jo_init(wl_json_out *w, FILE *out);

void wl_jo_object(wl_json_out *w);   /* "{" */
void wl_jo_array(wl_json_out *w);    /* "[" */
void wl_jo_end(wl_json_out *w);      /* "}" or "]" of the innermost */

/** A member's key (s written as it is, JSON-escaped). */
void wl_jo_key(wl_json_out *w, const char *s);

/** A string value in the escaped form of core/escape.h. */
void wl_jo_str(wl_json_out *w, const char *s);
/** An integer value; above INT64_MAX it is written as INT64_MAX. */
void wl_jo_uint(wl_json_out *w, uint64_t v);
void wl_jo_int(wl_json_out *w, int64_t v);
void wl_jo_bool(wl_json_out *w, bool v);
void wl_jo_null(wl_json_out *w);

/** Shorthands: key then value. */
void wl_jo_kstr(wl_json_out *w, const char *key, const char *s);
void wl_jo_kuint(wl_json_out *w, const char *key, uint64_t v);

/** 0 so far, -1 after out of memory or a stream error. */
int wl_jo_status(const wl_json_out *w);

/** Ends the document: a newline, then everything written and the stream
 *  flushed.  0, or -1 as wl_jo_status or when the flush fails. */
int wl_jo_finish(wl_json_out *w);

/** Writes what is gathered to the current stream, then writes to out from
 *  here on (the HTML report gives each file's part of the JSON document a
 *  stream of its own, cli/report_html.h).  0, or -1 as wl_jo_status or
 *  when the write fails. */
int wl_jo_retarget(wl_json_out *w, FILE *out);

#endif
