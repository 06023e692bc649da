/*
 * report_github.c - GitHub Actions workflow commands; see report.h.
 *
 * One line per finding, which the Actions runner turns into an annotation
 * on the file (GitHub docs, "Workflow commands for GitHub Actions", setting
 * an error / warning / notice message):
 *
 *   ::error file=art/tank.w3d,line=1,title=pivot-parent-order::pivot 7 ... (HIERARCHY[X]/PIVOTS[7], offset 0xC4)
 *
 * line=1 because a binary file has no lines (the byte offset is in the
 * message).  Values are escaped as the runner expects: in the message '%',
 * CR and LF become %25 %0D %0A; in properties also ':' and ',' (%3A %2C).
 * Repeated findings are folded as in the text report.
 */
#include "core/escape.h"
#include "core/path.h"
#include "report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct github_reporter {
	wl_reporter base;
	FILE *out;
	unsigned fold;
	wl_msgbuf mb;      /* the message being written */
} github_reporter;

/* Writes s escaped for a workflow command: first the escaped form of
 * core/escape.h (control bytes and bytes that are not UTF-8), then the
 * runner's escapes of '%', and of ':' and ',' in property values (prop). */
static void put_escaped(FILE *out, const char *s, bool prop)
{
	char *e = wl_escape_dup(s);
	for (const char *p = e ? e : ""; *p; p++) {
		if (*p == '%')
			fputs("%25", out);
		else if (prop && *p == ':')
			fputs("%3A", out);
		else if (prop && *p == ',')
			fputs("%2C", out);
		else
			putc(*p, out);
	}
	free(e);
}

static const char *command_of(wl_severity s)
{
	switch (s) {
	case WL_SEV_ERROR: return "error";
	case WL_SEV_WARNING: return "warning";
	default: return "notice";
	}
}

/* "::CMD file=PATH,line=1,title=TITLE::" */
static void put_head(FILE *out, const char *cmd, const char *path, const char *title)
{
	fprintf(out, "::%s file=", cmd);
	char *slashed = wl_path_slashes(path); /* Windows: '\\' as '/' */
	put_escaped(out, slashed ? slashed : path, true);
	free(slashed);
	fputs(",line=1,title=", out);
	put_escaped(out, title, true);
	fputs("::", out);
}

static int github_file(wl_reporter *r, const wl_file_report *f)
{
	github_reporter *g = (github_reporter *)r;
	FILE *out = g->out;
	wl_fold_entry *plan = NULL;
	if (g->fold && f->findings_count > g->fold) {
		plan = malloc(f->findings_count * sizeof *plan);
		if (!plan || wl_report_fold_plan(f->findings, f->findings_count, plan) != 0) {
			free(plan);
			return -1;
		}
	}
	for (size_t i = 0; i < f->findings_count; i++) {
		const wl_finding *x = &f->findings[i];
		if (plan && plan[i].rank > g->fold)
			continue;
		char buf[1024];
		const char *cpath = wl_file_report_chunk_path(f, i, buf, sizeof buf);
		put_head(out, command_of(x->severity), f->path, x->rule);
		if (plan && plan[i].rank == g->fold) {
			const char *msg = wl_finding_message(x, &g->mb);
			size_t n = wl_report_pattern(msg, NULL, 0);
			char *pat = malloc(n + 1);
			if (!pat) {
				free(plan);
				return -1;
			}
			wl_report_pattern(msg, pat, n + 1);
			uint32_t more = plan[i].total - plan[i].rank;
			fprintf(out, "%" PRIu32 " more %s like \"", more, more == 1 ? "finding" : "findings");
			put_escaped(out, pat, false);
			fprintf(out, "\" (from offset 0x%" PRIX64 " up to 0x%" PRIX64 ")\n", x->offset, plan[i].last);
			free(pat);
			continue;
		}
		put_escaped(out, wl_finding_message(x, &g->mb), false);
		fputs(" (", out);
		if (cpath[0]) {
			put_escaped(out, cpath, false);
			fputs(", ", out);
		}
		fprintf(out, "offset 0x%" PRIX64 ")\n", x->offset);
	}
	free(plan);
	for (size_t i = 0; i < f->dropped_count; i++) {
		put_head(out, "notice", f->path, f->dropped[i].rule);
		fprintf(out, "%" PRIu64 " more %s not shown (at most %d per rule and file)\n", f->dropped[i].count,
			f->dropped[i].count == 1 ? "finding" : "findings", WL_FINDINGS_PER_RULE_MAX);
	}
	return ferror(out) ? -1 : 0;
}

static int github_finish(wl_reporter *r, const wl_report_summary *s)
{
	github_reporter *g = (github_reporter *)r;
	FILE *out = g->out;
	const wl_report_counts *c = &s->totals;
	for (size_t i = 0; i < s->stale_count; i++) {
		const wl_report_stale *st = &s->stale[i];
		put_head(out, "notice", s->baseline ? s->baseline : "baseline", "stale baseline entry");
		put_escaped(out, st->path, false);
		if (st->missing)
			fprintf(out, " [%s]: %" PRIu64 " recorded, but the file no longer exists\n", st->rule,
				st->recorded);
		else
			fprintf(out, " [%s]: %" PRIu64 " recorded, %" PRIu64 " found\n", st->rule, st->recorded,
				st->found);
	}
	if (s->unresolved && s->unresolved->count) {
		char *msg = wl_report_unresolved_message(s->unresolved);
		if (!msg)
			return -1;
		fputs("::notice title=w3dlint::", out);
		put_escaped(out, msg, false);
		fputc('\n', out);
		free(msg);
	}
	fprintf(out, "w3dlint: %" PRIu64 " files, %" PRIu64 " errors, %" PRIu64 " warnings, %" PRIu64 " infos",
		c->files, c->errors, c->warnings, c->infos);
	if (c->dropped)
		fprintf(out, "; %" PRIu64 " more not shown (per-rule cap)", c->dropped);
	if (c->baselined)
		fprintf(out, "; %" PRIu64 " in the baseline", c->baselined);
	if (c->not_shown)
		fprintf(out, "; %" PRIu64 " over --max-findings %" PRIu64 " not shown", c->not_shown, s->max_findings);
	if (s->stale_count)
		fprintf(out, "; %zu stale baseline %s", s->stale_count, s->stale_count == 1 ? "entry" : "entries");
	fputc('\n', out);
	if (fflush(out) != 0 || ferror(out))
		return -1;
	return 0;
}

static void github_destroy(wl_reporter *r)
{
	wl_msgbuf_free(&((github_reporter *)r)->mb);
	free(r);
}

wl_reporter *wl_report_github_new(FILE *out, unsigned fold)
{
	github_reporter *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->base.file = github_file;
	g->base.finish = github_finish;
	g->base.destroy = github_destroy;
	g->out = out;
	g->fold = fold;
	return &g->base;
}
