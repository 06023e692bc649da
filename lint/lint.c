/* lint.c - the lint engine; see lint.h. */
#include "lint.h"

#include <string.h>

#include "checks.h"

double wl_lint_param(const wl_lint_ctx *ctx, const char *rule, const char *param, double fallback)
{
	return wl_config_param(ctx->config, ctx->catalog, rule, param, fallback);
}

bool wl_lint_enabled(const wl_lint_ctx *ctx, const char *rule)
{
	return wl_config_severity(ctx->config, ctx->catalog, rule) != WL_SEV_OFF;
}

/* Gives each finding its effective severity and removes the ones off. */
static void apply_severities(wl_doc *doc, const wl_catalog *cat, const wl_config *cfg)
{
	wl_findings *f = &doc->findings;
	size_t w = 0;
	for (size_t i = 0; i < f->count; i++) {
		wl_finding x = f->items[i];
		if (!wl_catalog_find(cat, x.rule)) {
			x.message = wl_arena_printf(doc->arena, "internal: rule id '%s' is not in the catalogue: %s",
						    x.rule, x.message);
			if (!x.message)
				x.message = "internal: rule id missing from the catalogue";
			x.rule = "internal-unknown-rule";
			x.severity = WL_SEV_ERROR;
		} else {
			x.severity = wl_config_severity(cfg, cat, x.rule);
		}
		if (x.severity == WL_SEV_OFF)
			continue;
		f->items[w++] = x;
	}
	f->count = w;
}

wl_doc *wl_lint_bytes(const wl_catalog *cat, const wl_config *cfg, const char *path,
		      const uint8_t *bytes, uint64_t size)
{
	wl_doc *doc = wl_doc_read(&w3d_format, path, bytes, size);
	if (!doc)
		return NULL;
	if (!doc->oom) {
		w3d_model *m = w3d_model_build(doc);
		if (m && !doc->oom) {
			wl_lint_ctx ctx = { doc, m, cat, cfg };
			size_t n;
			const wl_check_fn *fns = wl_w3d_checks(&n);
			for (size_t i = 0; i < n && !doc->oom; i++)
				fns[i](&ctx);
		}
	}
	if (doc->oom || doc->findings.oom)
		wl_report(&doc->findings, "out-of-memory", NULL, -1, 0, size,
			  "ran out of memory (or hit the per-file limit) while reading; the report is incomplete");
	apply_severities(doc, cat, cfg);
	wl_findings_sort(&doc->findings);
	return doc;
}

wl_severity wl_lint_worst(const wl_doc *doc)
{
	wl_severity w = WL_SEV_OFF;
	for (size_t i = 0; i < doc->findings.count; i++)
		if (doc->findings.items[i].severity > w)
			w = doc->findings.items[i].severity;
	return w;
}
