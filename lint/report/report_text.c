/* report_text.c - the text report, message patterns and folding; see
 * report.h. */
#include "report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"

typedef struct text_reporter {
	wl_reporter base;
	FILE *out;
	bool color;
	bool quiet;
	unsigned fold;
	wl_msgbuf mb;      /* the message being written */
} text_reporter;

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_DIM "\033[2m"
#define C_RED "\033[1;31m"
#define C_YELLOW "\033[1;33m"
#define C_CYAN "\033[1;36m"

/* ------------------------------------------------------------ patterns */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_word(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Length of the number starting at s[0] (a digit, or a sign before one). */
static size_t number_len(const char *s)
{
	size_t i = 0;
	if (s[i] == '-' || s[i] == '+')
		i++;
	if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') && is_hex(s[i + 2])) {
		i += 2;
		while (is_hex(s[i]))
			i++;
		return i;
	}
	while (is_digit(s[i]))
		i++;
	if (s[i] == '.' && is_digit(s[i + 1])) {
		i++;
		while (is_digit(s[i]))
			i++;
	}
	if ((s[i] == 'e' || s[i] == 'E') &&
	    (is_digit(s[i + 1]) || ((s[i + 1] == '-' || s[i + 1] == '+') && is_digit(s[i + 2])))) {
		i += 2;
		while (is_digit(s[i]))
			i++;
	}
	return i;
}

static void put_char(char *out, size_t cap, size_t at, char c)
{
	if (cap && at < cap - 1)
		out[at] = c;
}

size_t wl_report_pattern(const char *msg, char *out, size_t cap)
{
	size_t at = 0;
	const char *p = msg;
	char prev = ' ';
	while (*p) {
		bool starts_number = !is_word(prev) && prev != '.' &&
				     (is_digit(*p) || ((*p == '-' || *p == '+') && is_digit(p[1])));
		if (starts_number) {
			size_t n = number_len(p);
			put_char(out, cap, at++, '#');
			prev = p[n - 1];
			p += n;
			continue;
		}
		if (*p == '\'' && !is_word(prev)) {
			const char *end = strchr(p + 1, '\'');
			if (end) {
				put_char(out, cap, at++, '\'');
				put_char(out, cap, at++, '*');
				put_char(out, cap, at++, '\'');
				prev = '\'';
				p = end + 1;
				continue;
			}
		}
		put_char(out, cap, at++, *p);
		prev = *p;
		p++;
	}
	if (cap)
		out[at < cap ? at : cap - 1] = 0;
	return at;
}

/* ------------------------------------------------------- file reports */

const char *wl_file_report_chunk_path(const wl_file_report *f, size_t i, char *buf, size_t cap)
{
	if (f->chunk_paths)
		return f->chunk_paths[i] ? f->chunk_paths[i] : "";
	if (!f->doc) {
		if (cap)
			buf[0] = 0;
		return buf;
	}
	const wl_finding *x = &f->findings[i];
	wl_chunk_path(f->doc, x->chunk, x->element, buf, cap);
	return buf;
}

const char *wl_file_report_format(const wl_file_report *f)
{
	if (f->format)
		return f->format;
	if (f->doc && f->doc->format && f->doc->format->name)
		return f->doc->format->name;
	return "unknown";
}

/* ------------------------------------------------------------- folding */

typedef struct fold_key {
	const char *rule;
	char *pattern;
	size_t index;     /* position in the report */
} fold_key;

static int cmp_fold_key(const void *x, const void *y)
{
	const fold_key *a = x, *b = y;
	int c = strcmp(a->rule, b->rule);
	if (c == 0)
		c = strcmp(a->pattern, b->pattern);
	if (c == 0)
		c = a->index < b->index ? -1 : a->index > b->index;
	return c;
}

int wl_report_fold_plan(const wl_finding *items, size_t count, wl_fold_entry *out)
{
	if (count == 0)
		return 0;
	fold_key *keys = calloc(count, sizeof *keys);
	if (!keys)
		return -1;
	int rc = 0;
	wl_msgbuf mb = { 0 };
	for (size_t i = 0; i < count; i++) {
		const char *msg = wl_finding_message(&items[i], &mb);
		size_t n = wl_report_pattern(msg, NULL, 0);
		keys[i].pattern = malloc(n + 1);
		if (!keys[i].pattern) {
			rc = -1;
			break;
		}
		wl_report_pattern(msg, keys[i].pattern, n + 1);
		keys[i].rule = items[i].rule ? items[i].rule : "";
		keys[i].index = i;
	}
	if (rc == 0) {
		qsort(keys, count, sizeof *keys, cmp_fold_key);
		size_t g = 0;
		while (g < count) {
			size_t e = g + 1;
			while (e < count && strcmp(keys[e].rule, keys[g].rule) == 0 &&
			       strcmp(keys[e].pattern, keys[g].pattern) == 0)
				e++;
			uint64_t last = items[keys[e - 1].index].offset;
			for (size_t k = g; k < e; k++) {
				wl_fold_entry *o = &out[keys[k].index];
				o->rank = (uint32_t)(k - g);
				o->total = (uint32_t)(e - g);
				o->last = last;
			}
			g = e;
		}
	}
	for (size_t i = 0; i < count; i++)
		free(keys[i].pattern);
	free(keys);
	wl_msgbuf_free(&mb);
	return rc;
}

/* ---------------------------------------------------------------- text */

static const char *sev_color(wl_severity s)
{
	switch (s) {
	case WL_SEV_ERROR: return C_RED;
	case WL_SEV_WARNING: return C_YELLOW;
	default: return C_CYAN;
	}
}

/* Writes s in the escaped form of core/escape.h, so that names taken from
 * a file cannot move the cursor or change the terminal. */
static void put_safe(FILE *out, const char *s)
{
	wl_escape_put(out, (const uint8_t *)s, strlen(s));
}

static void put_path(const text_reporter *t, const char *path)
{
	if (t->color)
		fputs(C_BOLD, t->out);
	put_safe(t->out, path);
	if (t->color)
		fputs(C_RESET, t->out);
}

static void put_severity(const text_reporter *t, wl_severity s)
{
	if (t->color)
		fprintf(t->out, "%s%s%s", sev_color(s), wl_severity_name(s), C_RESET);
	else
		fputs(wl_severity_name(s), t->out);
}

static void put_rule(const text_reporter *t, const char *rule)
{
	fprintf(t->out, " %s[%s]%s", t->color ? C_DIM : "", rule, t->color ? C_RESET : "");
}

static void put_finding(text_reporter *t, const wl_file_report *f, size_t i)
{
	const wl_finding *x = &f->findings[i];
	char buf[1024];
	const char *cpath = wl_file_report_chunk_path(f, i, buf, sizeof buf);
	put_path(t, f->path);
	fprintf(t->out, ":0x%" PRIX64 ": ", x->offset);
	put_severity(t, x->severity);
	fputs(": ", t->out);
	put_safe(t->out, wl_finding_message(x, &t->mb));
	put_rule(t, x->rule);
	if (cpath[0]) {
		fputs(" (", t->out);
		put_safe(t->out, cpath);
		fputc(')', t->out);
	}
	if (x->related) {
		fputs(" (see ", t->out);
		put_safe(t->out, x->related);
		fputc(')', t->out);
	}
	fputc('\n', t->out);
}

/* The line standing for the findings of x's group from rank fold on:
 * path:0xOFFSET: severity: N more like "pattern" [rule] (up to 0xLAST) */
static int put_folded(text_reporter *t, const wl_file_report *f, const wl_finding *x,
		      const wl_fold_entry *e)
{
	const char *msg = wl_finding_message(x, &t->mb);
	size_t n = wl_report_pattern(msg, NULL, 0);
	char *pat = malloc(n + 1);
	if (!pat)
		return -1;
	wl_report_pattern(msg, pat, n + 1);
	uint32_t more = e->total - e->rank;
	put_path(t, f->path);
	fprintf(t->out, ":0x%" PRIX64 ": ", x->offset);
	put_severity(t, x->severity);
	fprintf(t->out, ": %" PRIu32 " more %s like \"", more, more == 1 ? "finding" : "findings");
	put_safe(t->out, pat);
	fputc('"', t->out);
	put_rule(t, x->rule);
	fprintf(t->out, " (up to 0x%" PRIX64 "; --fold 0 shows them)\n", e->last);
	free(pat);
	return 0;
}

static int text_file(wl_reporter *r, const wl_file_report *f)
{
	text_reporter *t = (text_reporter *)r;
	if (t->quiet)
		return 0;
	wl_fold_entry *plan = NULL;
	if (t->fold && f->findings_count > t->fold) {
		plan = malloc(f->findings_count * sizeof *plan);
		if (!plan || wl_report_fold_plan(f->findings, f->findings_count, plan) != 0) {
			free(plan);
			return -1;
		}
	}
	int rc = 0;
	for (size_t i = 0; i < f->findings_count && rc == 0; i++) {
		const wl_finding *x = &f->findings[i];
		if (!plan || plan[i].rank < t->fold)
			put_finding(t, f, i);
		else if (plan[i].rank == t->fold)
			rc = put_folded(t, f, x, &plan[i]);
	}
	free(plan);
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < f->dropped_count; i++) {
		put_path(t, f->path);
		fprintf(t->out, ": note: %" PRIu64 " more %s [%s] not shown (at most %d per rule and file)\n",
			f->dropped[i].count, f->dropped[i].count == 1 ? "finding" : "findings",
			f->dropped[i].rule, WL_FINDINGS_PER_RULE_MAX);
	}
	return ferror(t->out) ? -1 : 0;
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void put_stale(const text_reporter *t, const char *baseline, const wl_report_stale *s)
{
	put_path(t, baseline);
	fputs(": note: stale entry: ", t->out);
	put_safe(t->out, s->path);
	if (s->missing)
		fprintf(t->out, " [%s]: %" PRIu64 " recorded, but the file no longer exists\n", s->rule,
			s->recorded);
	else
		fprintf(t->out, " [%s]: %" PRIu64 " recorded, %" PRIu64 " found\n", s->rule, s->recorded,
			s->found);
}

static int text_finish(wl_reporter *r, const wl_report_summary *s)
{
	text_reporter *t = (text_reporter *)r;
	const wl_report_counts *c = &s->totals;
	for (size_t i = 0; i < s->stale_count; i++)
		put_stale(t, s->baseline ? s->baseline : "baseline", &s->stale[i]);
	if (s->stale_count) {
		put_path(t, s->baseline ? s->baseline : "baseline");
		fprintf(t->out, ": note: %zu stale %s; update the baseline with --write-baseline\n", s->stale_count,
			s->stale_count == 1 ? "entry" : "entries");
	}
	if (s->unresolved && s->unresolved->count) {
		char *msg = wl_report_unresolved_message(s->unresolved);
		if (!msg)
			return -1;
		fputs("note: ", t->out);
		put_safe(t->out, msg);
		fputc('\n', t->out);
		free(msg);
	}
	fprintf(t->out, "%" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s",
		c->files, plural(c->files, "file", "files"),
		c->errors, plural(c->errors, "error", "errors"),
		c->warnings, plural(c->warnings, "warning", "warnings"),
		c->infos, plural(c->infos, "info", "infos"));
	if (c->files_with_errors)
		fprintf(t->out, " (%" PRIu64 " %s with errors)", c->files_with_errors,
			plural(c->files_with_errors, "file", "files"));
	if (c->dropped)
		fprintf(t->out, "; %" PRIu64 " of them capped (at most %d per rule and file listed)", c->dropped,
			WL_FINDINGS_PER_RULE_MAX);
	if (s->infos_hidden && c->infos)
		fprintf(t->out, "; infos not listed (--show-infos lists them)");
	if (c->baselined)
		fprintf(t->out, "; %" PRIu64 " in the baseline", c->baselined);
	if (c->not_shown)
		fprintf(t->out, "; %" PRIu64 " %s over --max-findings %" PRIu64 " not shown", c->not_shown,
			plural(c->not_shown, "finding", "findings"), s->max_findings);
	fputc('\n', t->out);
	if (fflush(t->out) != 0 || ferror(t->out))
		return -1;
	return 0;
}

static void text_destroy(wl_reporter *r)
{
	wl_msgbuf_free(&((text_reporter *)r)->mb);
	free(r);
}

wl_reporter *wl_report_text_new(FILE *out, bool color, bool quiet, unsigned fold)
{
	text_reporter *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->base.file = text_file;
	t->base.finish = text_finish;
	t->base.destroy = text_destroy;
	t->out = out;
	t->color = color;
	t->quiet = quiet;
	t->fold = fold;
	return &t->base;
}
