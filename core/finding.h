/*
 * finding.h - what the toolkit reports about a file.
 *
 * A finding names a rule (a stable kebab-case id from the rules/ catalogue), the
 * exact bytes it is about (absolute file offset and length, in bytes), the
 * chunk it was found in (for the chunk path, e.g.
 * "MESH[TANK_BODY]/AABTREE/AABTREE_NODES[17]") and a lower-case message that
 * names the values involved.  The core only records findings; the severity
 * is assigned by the lint layer from the rule catalogue and configuration.
 *
 * A list caps the findings it keeps per rule (WL_FINDINGS_PER_RULE_MAX) so a
 * hostile file cannot make the report unbounded; the number left out is
 * counted per rule and reported by the front ends.
 *
 * Messages: a list made while lazy messages are on (wl_findings_lazy, which
 * w3dlint turns on) keeps each finding's format and a record of its
 * arguments (core/msgargs.h) instead of the text; the text is made only when
 * a report shows or writes it (wl_finding_message), so the cap, -q and the
 * findings a report never renders cost no formatting.  Otherwise (the
 * default, as the fixer and the tests expect) message is formatted at once.
 * Either way wl_finding_message gives the same bytes.
 */
#ifndef WL_FINDING_H
#define WL_FINDING_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "msgargs.h"
#include "rule_ids.h"
#include "platform/printf.h"

struct wl_chunk;

typedef enum wl_severity {
	WL_SEV_OFF = 0,
	WL_SEV_INFO = 1,
	WL_SEV_WARNING = 2,
	WL_SEV_ERROR = 3
} wl_severity;

/** "off", "info", "warning", "error". */
const char *wl_severity_name(wl_severity s);
/** Parses a severity name; returns -1 for an unknown name. */
int wl_severity_parse(const char *s);

typedef struct wl_finding {
	const char *rule;             /* rule id, static storage */
	wl_rule_id rule_id;           /* its handle; WL_RULE_NONE for a
				       * custom rule of the configuration */
	wl_severity severity;         /* set by lint; WL_SEV_OFF until then */
	uint64_t offset;              /* absolute byte offset in the file */
	uint64_t length;              /* bytes covered (0 = a point) */
	const struct wl_chunk *chunk; /* innermost chunk, NULL for file-level */
	int64_t element;              /* element index inside chunk, -1 none */
	const char *message;          /* lower case, no period: arena-owned
				       * text, or NULL: formatted on demand
				       * from fmt and args (wl_finding_message) */
	const char *fmt;              /* the format (static storage) when
				       * message is NULL */
	const void *args;             /* its arguments (core/msgargs.h record)
				       * when message is NULL */
	const char *related;          /* other file for cross-file rules, or NULL */
	uint32_t seq;                 /* emission order, for a stable sort */
} wl_finding;

#define WL_FINDINGS_PER_RULE_MAX 200

typedef struct wl_rule_count {
	const char *rule;
	uint32_t kept;
	uint64_t dropped;
} wl_rule_count;

typedef struct wl_findings {
	wl_finding *items;     /* malloc-owned, count used */
	size_t count, cap;
	wl_rule_count *rules;  /* per-rule tallies, malloc-owned */
	size_t rules_count, rules_cap;
	wl_arena *arena;       /* for messages; borrowed */
	int lazy;              /* keep arguments, format on demand */
	int oom;               /* an allocation failed; findings may be missing */
} wl_findings;

/** Starts an empty list whose messages live in arena (formatted at once,
 *  or captured when wl_findings_lazy is on). */
void wl_findings_init(wl_findings *f, wl_arena *arena);

/** wl_findings_lazy(WL_MESSAGES_NONE): findings keep no message at all. */
#define WL_MESSAGES_NONE 2

/**
 * Turns lazy messages on (nonzero) or off (0) for the lists started
 * afterwards, in the whole process: call it once at start-up, before any
 * thread starts.  WL_MESSAGES_NONE: no message is formatted nor its
 * arguments captured (wl_finding_message gives ""), for a front end whose
 * report shows no message at all (w3dlint -q with the text report).
 */
void wl_findings_lazy(int on);

/**
 * The message of x: x->message, or the text formatted from x->fmt and
 * x->args into b (valid until the next use of b; wl_msgbuf_free releases
 * it).  Never NULL: a note when out of memory.
 */
const char *wl_finding_message(const wl_finding *x, wl_msgbuf *b);
/** Frees the list (not the arena). */
void wl_findings_release(wl_findings *f);

/**
 * Records a finding of the catalogue rule rule (a handle, core/rule_ids.h;
 * nothing is recorded for WL_RULE_NONE).  chunk may be NULL;
 * element is -1 when the finding is about the chunk as a whole.  fmt must
 * have static storage (a literal).  The message is formatted with printf
 * rules into the arena, or with lazy messages its arguments are captured
 * there (strings copied).  Past WL_FINDINGS_PER_RULE_MAX findings of one
 * rule, the finding is only counted (nothing is formatted or captured).
 * Returns the stored finding, or NULL when it was only counted (or on OOM).
 */
wl_finding *wl_report(wl_findings *f, wl_rule_id rule, const struct wl_chunk *chunk,
		      int64_t element, uint64_t offset, uint64_t length, const char *fmt, ...)
	__attribute__((format(WL_PRINTF_FMT, 7, 8)));

/** wl_report for a rule named by text (static storage): the custom rules of
 *  the configuration, whose ids are not in the catalogue. */
wl_finding *wl_report_named(wl_findings *f, const char *rule, const struct wl_chunk *chunk,
			    int64_t element, uint64_t offset, uint64_t length, const char *fmt, ...)
	__attribute__((format(WL_PRINTF_FMT, 7, 8)));

/** Number of findings of rule that were counted but not kept. */
uint64_t wl_findings_dropped(const wl_findings *f, const char *rule);

/**
 * Removes every finding of rule (compared by strcmp) and its tallies (kept
 * and dropped), keeping the order of the rest.  For a front end that hands
 * a rule over to another check (w3dlint's cross-file index takes
 * skin-bounds-unchecked over in folder runs).
 */
void wl_findings_remove_rule(wl_findings *f, wl_rule_id rule);

/** Sorts findings by offset, then rule id (stable output order). */
void wl_findings_sort(wl_findings *f);

#endif
