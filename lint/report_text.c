/* report_text.c - the text report; see report.h. */
#include "report.h"

#include <inttypes.h>
#include <stdlib.h>

typedef struct text_reporter {
	wl_reporter base;
	FILE *out;
	bool color;
	bool quiet;
} text_reporter;

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_DIM "\033[2m"
#define C_RED "\033[1;31m"
#define C_YELLOW "\033[1;33m"
#define C_CYAN "\033[1;36m"

static const char *sev_color(wl_severity s)
{
	switch (s) {
	case WL_SEV_ERROR: return C_RED;
	case WL_SEV_WARNING: return C_YELLOW;
	default: return C_CYAN;
	}
}

/* Writes s with control characters escaped as \xNN, so that names taken
 * from a file cannot move the cursor or change the terminal. */
static void put_safe(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", *p);
		else
			putc(*p, out);
	}
}

static void put_path(const text_reporter *t, const char *path)
{
	if (t->color)
		fputs(C_BOLD, t->out);
	put_safe(t->out, path);
	if (t->color)
		fputs(C_RESET, t->out);
}

static int text_file(wl_reporter *r, const wl_file_report *f)
{
	text_reporter *t = (text_reporter *)r;
	if (t->quiet)
		return 0;
	const wl_findings *fs = &f->doc->findings;
	for (size_t i = 0; i < fs->count; i++) {
		const wl_finding *x = &fs->items[i];
		char cpath[1024];
		wl_chunk_path(f->doc, x->chunk, x->element, cpath, sizeof cpath);
		put_path(t, f->path);
		fprintf(t->out, ":0x%" PRIX64 ": ", x->offset);
		if (t->color)
			fprintf(t->out, "%s%s%s", sev_color(x->severity), wl_severity_name(x->severity), C_RESET);
		else
			fputs(wl_severity_name(x->severity), t->out);
		fputs(": ", t->out);
		put_safe(t->out, x->message);
		fprintf(t->out, " %s[%s]%s", t->color ? C_DIM : "", x->rule, t->color ? C_RESET : "");
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

static int text_finish(wl_reporter *r, const wl_report_counts *c)
{
	text_reporter *t = (text_reporter *)r;
	fprintf(t->out, "%" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s",
		c->files, plural(c->files, "file", "files"),
		c->errors, plural(c->errors, "error", "errors"),
		c->warnings, plural(c->warnings, "warning", "warnings"),
		c->infos, plural(c->infos, "info", "infos"));
	if (c->files_with_errors)
		fprintf(t->out, " (%" PRIu64 " %s with errors)", c->files_with_errors,
			plural(c->files_with_errors, "file", "files"));
	if (c->dropped)
		fprintf(t->out, "; %" PRIu64 " more %s not shown", c->dropped,
			plural(c->dropped, "finding", "findings"));
	fputc('\n', t->out);
	if (fflush(t->out) != 0 || ferror(t->out))
		return -1;
	return 0;
}

static void text_destroy(wl_reporter *r)
{
	free(r);
}

wl_reporter *wl_report_text_new(FILE *out, bool color, bool quiet)
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
	return &t->base;
}
