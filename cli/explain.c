/* explain.c - w3dlint --list-rules and --explain (explain.h). */
#include "explain.h"

#include <stdio.h>
#include <string.h>

#include "lint/config/suggest.h"
#include "opts.h"

void wl_cli_list_rules(const wl_catalog *cat, FILE *out)
{
	size_t n = wl_catalog_count(cat);
	int wid = 4, wcat = 8;
	for (size_t i = 0; i < n; i++) {
		const wl_rule_def *r = wl_catalog_at(cat, i);
		if ((int)strlen(r->id) > wid)
			wid = (int)strlen(r->id);
		if ((int)strlen(r->category) > wcat)
			wcat = (int)strlen(r->category);
	}
	for (size_t i = 0; i < n; i++) {
		const wl_rule_def *r = wl_catalog_at(cat, i);
		fprintf(out, "%-*s  %-7s  %-*s  %-6s  %s%s\n", wid, r->id, wl_severity_name(r->severity), wcat,
			r->category, r->fixable, wl_rule_in_default_set(r) ? "" : "(opt-in) ", r->summary);
	}
}

/* The targets line of --explain: severity per target, and whether the
 * rule is in the default set. */
static void explain_targets(const wl_rule_def *r, FILE *out)
{
	fputs("  targets:  ", out);
	size_t shown = 0;
	for (size_t t = 0; t < wl_target_count(); t++) {
		if (!(r->targets & ((wl_target_mask)1 << t)))
			continue;
		fprintf(out, "%s%s %s", shown++ ? ", " : " ", wl_target_name(t),
			r->target_severity[t] == WL_SEV_OFF ? "unaffected (off)" : wl_severity_name(r->target_severity[t]));
	}
	fputc('\n', out);
	if (r->opt_in)
		fputs("  default:   off (opt-in: turn on with select / --extend-select)\n", out);
	else if (!wl_rule_in_default_set(r))
		fputs("  default:   off (no target is affected: turn on with select / --extend-select)\n", out);
}

int wl_cli_explain_rule(const wl_catalog *cat, const char *id, FILE *out)
{
	const wl_rule_def *r = wl_catalog_find(cat, id);
	if (!r) {
		wl_suggest s;
		wl_suggest_init(&s, id);
		for (size_t i = 0; i < wl_catalog_count(cat); i++)
			wl_suggest_offer(&s, wl_catalog_at(cat, i)->id);
		fprintf(stderr, "w3dlint: unknown rule id '%s'%s%s%s (w3dlint --list-rules lists them)\n", id,
			s.best ? "; did you mean '" : "", s.best ? s.best : "", s.best ? "'?" : "");
		return 2;
	}
	fprintf(out, "%s\n", r->id);
	fprintf(out, "  category:  %s\n", r->category);
	fprintf(out, "  severity:  %s (default)\n", wl_severity_name(r->severity));
	fprintf(out, "  fixable:   %s\n", r->fixable);
	fprintf(out, "  summary:   %s\n", r->summary);
	if (r->source_file && r->source_file[0])
		fprintf(out, "  catalogue: %s\n", r->source_file);
	fprintf(out, "  format:    %s\n", r->format[0] ? r->format : "every format");
	explain_targets(r, out);
	for (size_t i = 0; i < r->sources_count; i++)
		fprintf(out, "  %s %s\n", i ? "          " : "sources:  ", r->sources[i]);
	if (r->sources_count)
		fputs("             (docs/sources.md)\n", out);
	fputc('\n', out);
	wl_cli_wrap(out, r->explanation, 2, 0, 79);
	if (r->params_count) {
		fputs("\nparameters (override in .w3dlint.yaml under rules: ID: params:):\n", out);
		for (size_t i = 0; i < r->params_count; i++) {
			const wl_param_def *p = &r->params[i];
			fprintf(out, "  %s = %g (default)\n", p->name, p->def);
			if (p->description && p->description[0])
				wl_cli_wrap(out, p->description, 6, 0, 79);
		}
	} else {
		fputs("\nparameters: none\n", out);
	}
	return 0;
}
