/* finding.c - the finding list; see finding.h. */
#include "finding.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>
#include "platform/printf.h"

static const char *const sev_names[] = { "off", "info", "warning", "error" };

const char *wl_severity_name(wl_severity s)
{
	return (unsigned)s < 4 ? sev_names[s] : "?";
}

int wl_severity_parse(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(s, sev_names[i]) == 0)
			return i;
	return -1;
}

/* Set once at start-up, before any thread (finding.h). */
static int lazy_default;

void wl_findings_lazy(int on)
{
	lazy_default = on == WL_MESSAGES_NONE ? WL_MESSAGES_NONE : on != 0;
}

void wl_findings_init(wl_findings *f, wl_arena *arena)
{
	memset(f, 0, sizeof *f);
	f->arena = arena;
	f->lazy = lazy_default;
}

static const char OOM_NOTE[] = "(message not stored: out of memory)";

const char *wl_finding_message(const wl_finding *x, wl_msgbuf *b)
{
	if (x->message)
		return x->message;
	if (!x->fmt || !x->args)
		return "";
	b->len = 0;
	if (wl_msgargs_format(b, x->fmt, x->args) != 0)
		return OOM_NOTE;
	return b->text;
}

/* The arguments of fmt captured into the arena; NULL when out of memory or
 * when fmt has a conversion that is not captured (*unsupported set). */
static const void *capture(wl_arena *a, const char *fmt, va_list ap, int *unsupported)
{
	unsigned char local[512];
	size_t n = wl_msgargs_capture(local, sizeof local, fmt, ap);
	*unsupported = n == 0;
	if (n == 0)
		return NULL;
	unsigned char *rec = wl_arena_alloc(a, n);
	if (!rec)
		return NULL;
	if (n <= sizeof local)
		memcpy(rec, local, n);
	else
		wl_msgargs_capture(rec, n, fmt, ap);
	return rec;
}

void wl_findings_release(wl_findings *f)
{
	free(f->items);
	free(f->rules);
	memset(f, 0, sizeof *f);
}

static wl_rule_count *tally(wl_findings *f, const char *rule)
{
	for (size_t i = 0; i < f->rules_count; i++)
		if (f->rules[i].rule == rule || strcmp(f->rules[i].rule, rule) == 0)
			return &f->rules[i];
	if (!wl_grow((void **)&f->rules, &f->rules_cap, f->rules_count + 1, sizeof *f->rules))
		return NULL;
	wl_rule_count *t = &f->rules[f->rules_count++];
	t->rule = rule;
	t->kept = 0;
	t->dropped = 0;
	return t;
}

__attribute__((format(WL_PRINTF_FMT, 8, 0)))
static wl_finding *vreport(wl_findings *f, wl_rule_id id, const char *rule, const struct wl_chunk *chunk,
			  int64_t element, uint64_t offset, uint64_t length, const char *fmt, va_list ap)
{
	wl_rule_count *t = tally(f, rule);
	if (!t) {
		f->oom = 1;
		return NULL;
	}
	if (t->kept >= WL_FINDINGS_PER_RULE_MAX) {
		t->dropped++;
		return NULL;
	}
	if (!wl_grow((void **)&f->items, &f->cap, f->count + 1, sizeof *f->items)) {
		f->oom = 1;
		return NULL;
	}
	const void *args = NULL;
	const char *msg = NULL;
	int unsupported = 1;
	if (f->lazy == WL_MESSAGES_NONE)
		unsupported = 0; /* nothing renders it: neither text nor arguments */
	else if (f->lazy)
		args = capture(f->arena, fmt, ap, &unsupported);
	if (unsupported)
		msg = wl_arena_vprintf(f->arena, fmt, ap);
	if (!msg && !args && f->lazy != WL_MESSAGES_NONE) {
		/* The arena is full (its limit is what stops hostile files): keep
		 * the finding with its format text when that has no conversion
		 * (a literal), else with a fixed note. */
		f->oom = 1;
		msg = strchr(fmt, '%') ? OOM_NOTE : fmt;
	}
	t->kept++;
	wl_finding *x = &f->items[f->count++];
	x->rule = rule;
	x->rule_id = id;
	x->severity = WL_SEV_OFF;
	x->offset = offset;
	x->length = length;
	x->chunk = chunk;
	x->element = element;
	x->message = msg;
	x->fmt = args ? fmt : NULL;
	x->args = args;
	x->related = NULL;
	x->seq = (uint32_t)(f->count - 1);
	return x;
}

wl_finding *wl_report(wl_findings *f, wl_rule_id rule, const struct wl_chunk *chunk, int64_t element,
		      uint64_t offset, uint64_t length, const char *fmt, ...)
{
	const char *name = wl_rule_name(rule);
	if (!name)
		return NULL; /* WL_RULE_NONE: not a rule */
	va_list ap;
	va_start(ap, fmt);
	wl_finding *x = vreport(f, rule, name, chunk, element, offset, length, fmt, ap);
	va_end(ap);
	return x;
}

wl_finding *wl_report_named(wl_findings *f, const char *rule, const struct wl_chunk *chunk, int64_t element,
			    uint64_t offset, uint64_t length, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	wl_finding *x = vreport(f, wl_rule_lookup(rule), rule, chunk, element, offset, length, fmt, ap);
	va_end(ap);
	return x;
}

uint64_t wl_findings_dropped(const wl_findings *f, const char *rule)
{
	for (size_t i = 0; i < f->rules_count; i++)
		if (strcmp(f->rules[i].rule, rule) == 0)
			return f->rules[i].dropped;
	return 0;
}

static int cmp_finding(const void *a, const void *b)
{
	const wl_finding *x = a, *y = b;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	int c = strcmp(x->rule, y->rule);
	if (c)
		return c;
	if (x->element != y->element)
		return x->element < y->element ? -1 : 1;
	return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

void wl_findings_remove_rule(wl_findings *f, wl_rule_id id)
{
	const char *rule = wl_rule_name(id);
	if (!rule)
		return;
	size_t k = 0;
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->items[i].rule, rule) != 0)
			f->items[k++] = f->items[i];
	f->count = k;
	for (size_t i = 0; i < f->rules_count; i++)
		if (strcmp(f->rules[i].rule, rule) == 0) {
			f->rules[i].kept = 0;
			f->rules[i].dropped = 0;
		}
}

void wl_findings_sort(wl_findings *f)
{
	if (f->count > 1)
		qsort(f->items, f->count, sizeof *f->items, cmp_finding);
}
