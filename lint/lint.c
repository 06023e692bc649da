/* lint.c - the lint engine; see lint.h. */
#include "lint.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/archive/archive.h"
#include "core/filekind.h"
#include "registry.h"
#include "wiring.h"

double wl_lint_param(const wl_lint_ctx *ctx, wl_rule_id rule, const char *param)
{
	wl_param_memo *pm = ctx->params;
	if (!pm || !param)
		return wl_config_param(ctx->config, ctx->catalog, rule, param);
	size_t h = ((size_t)rule * 0x9E3779B1u) ^ (size_t)((uintptr_t)param >> 3);
	for (size_t k = 0; k < WL_PARAM_MEMO_SLOTS; k++) {
		size_t i = (h + k) & (WL_PARAM_MEMO_SLOTS - 1);
		if (pm->slot[i].param == param && pm->slot[i].rule == rule)
			return pm->slot[i].value;
		if (!pm->slot[i].param) {
			double v = wl_config_param(ctx->config, ctx->catalog, rule, param);
			pm->slot[i].param = param;
			pm->slot[i].rule = rule;
			pm->slot[i].value = v;
			return v;
		}
	}
	return wl_config_param(ctx->config, ctx->catalog, rule, param);
}

bool wl_lint_enabled_named(const wl_lint_ctx *ctx, const char *rule)
{
	return rule && wl_config_severity_for(ctx->config, ctx->cli, ctx->catalog, rule, ctx->file_key,
					      ctx->targets) != WL_SEV_OFF;
}

bool wl_lint_enabled(const wl_lint_ctx *ctx, wl_rule_id rule)
{
	return wl_lint_enabled_named(ctx, wl_rule_name(rule));
}

/* Gives each finding its effective severity for the file file_key (may be
 * NULL) and removes the ones off.  Findings of one rule mostly come
 * together, so the last rule's severity is remembered. */
static void apply_severities(wl_doc *doc, const wl_catalog *cat, const wl_config *cfg,
			     const wl_cli_rules *cli, const char *file_key, wl_target_mask targets)
{
	wl_findings *f = &doc->findings;
	const char *last = NULL;
	wl_severity last_sev = WL_SEV_OFF;
	size_t w = 0;
	for (size_t i = 0; i < f->count; i++) {
		wl_finding x = f->items[i];
		const wl_rule_def *def = x.rule_id ? wl_catalog_rule(cat, x.rule_id) : wl_catalog_find(cat, x.rule);
		if (!def && !wl_config_custom_find(cfg, x.rule)) {
			wl_msgbuf b = { 0 };
			x.message = wl_arena_printf(doc->arena, "internal: rule id '%s' is not in the catalogue: %s",
						    x.rule, wl_finding_message(&x, &b));
			wl_msgbuf_free(&b);
			if (!x.message)
				x.message = "internal: rule id missing from the catalogue";
			x.rule_id = WLR_INTERNAL_UNKNOWN_RULE;
			x.rule = wl_rule_name(x.rule_id);
			x.severity = WL_SEV_ERROR;
		} else {
			if (!last || strcmp(last, x.rule) != 0) {
				last = x.rule;
				last_sev = wl_config_severity_for(cfg, cli, cat, x.rule, file_key, targets);
			}
			x.severity = last_sev;
		}
		if (x.severity == WL_SEV_OFF)
			continue;
		f->items[w++] = x;
	}
	f->count = w;
	/* Findings of a rule that is off were not kept: nor are they counted
	 * as left out. */
	for (size_t k = 0; k < f->rules_count; k++)
		if (f->rules[k].dropped &&
		    wl_config_severity_for(cfg, cli, cat, f->rules[k].rule, file_key, targets) == WL_SEV_OFF)
			f->rules[k].dropped = 0;
}

/* The end of every lint: the out-of-memory finding, the effective
 * severities, report order; frees key. */
static void finish(wl_doc *doc, const wl_catalog *cat, const wl_config *cfg, const wl_cli_rules *cli,
		   char *key, wl_target_mask tm, uint64_t size)
{
	if ((doc->oom || doc->findings.oom) && wl_arena_capped(doc->arena))
		wl_report(&doc->findings, WLR_OUT_OF_MEMORY, NULL, -1, 0, size,
			  "reached the memory cap of %llu bytes shared by the files linted at once "
			  "(--memory-cap, configuration memory-cap) while reading; the report is incomplete",
			  (unsigned long long)wl_mem_cap());
	else if ((doc->oom || doc->findings.oom) && wl_arena_limited(doc->arena))
		wl_report(&doc->findings, WLR_OUT_OF_MEMORY, NULL, -1, 0, size,
			  "reached the per-file memory limit of %llu bytes (%llu per input byte, at least "
			  "%llu) while reading; the report is incomplete",
			  (unsigned long long)wl_arena_limit(doc->arena),
			  (unsigned long long)WL_ARENA_PER_BYTE, (unsigned long long)WL_ARENA_MIN_LIMIT);
	else if (doc->oom || doc->findings.oom)
		wl_report(&doc->findings, WLR_OUT_OF_MEMORY, NULL, -1, 0, size,
			  "ran out of memory (or hit the per-file limit) while reading; the report is incomplete");
	apply_severities(doc, cat, cfg, cli, key, tm);
	free(key);
	wl_findings_sort(&doc->findings);
}

/* The file's absolute path, only needed for per-path ignores (NULL
 * otherwise, or when out of memory: doc->oom set). */
static char *file_key(wl_doc *doc, const wl_config *cfg, const char *path)
{
	char *key = NULL;
	if (wl_config_has_path_ignores(cfg) && path) {
		key = wl_config_file_key(path);
		if (!key)
			doc->oom = true;
	}
	return key;
}

wl_doc *wl_lint_bytes(const wl_catalog *cat, const wl_config *cfg, const char *path,
		      const uint8_t *bytes, uint64_t size)
{
	return wl_lint_bytes_opts(cat, cfg, NULL, path, bytes, size, NULL);
}

/* The targets given for a file of format fmt (the command line's, else the
 * configuration's), restricted to fmt; 0 when none is. */
static wl_target_mask given_targets(const wl_format *fmt, const wl_config *cfg, const wl_lint_opts *lo)
{
	wl_target_mask all = wl_target_format_mask(fmt->name);
	if (lo && lo->cli && (lo->cli->target & all))
		return lo->cli->target & all;
	return wl_config_target(cfg) & all;
}

/* Applies a single given target that is a dialect of fmt to model m. */
static void apply_dialect(const wl_format *fmt, void *m, wl_target_mask given)
{
	if (!m || !fmt->dialect_parse || !fmt->dialect_set || !given || (given & (given - 1)))
		return;
	for (size_t t = 0; t < WL_TARGETS_MAX; t++) {
		int dialect;
		if ((given >> t) & 1 && fmt->dialect_parse(wl_target_name(t), &dialect))
			fmt->dialect_set(m, dialect);
	}
}

/* The file's targets (see wl_lint_bytes_opts). */
static wl_target_mask file_targets(const wl_format *fmt, const wl_lint_format *lf, const void *m,
				   wl_target_mask given, const wl_lint_opts *lo)
{
	if (given || !lo)
		return given;
	wl_target_mask all = wl_target_format_mask(fmt->name), t = all;
	bool narrowed = false;
	if (lo && (lo->layout & t)) {
		t &= lo->layout;
		narrowed = true;
	}
	const char *said = lf && lf->target_of && m ? lf->target_of(m) : NULL;
	wl_target_mask d = 0;
	if (said && wl_target_parse(said, &d, NULL, 0) == 0 && (d & t)) {
		t &= d;
		narrowed = true;
	}
	/* Nothing says what the file is for: the format's default targets. */
	wl_target_mask a = 0;
	if (!narrowed && lf && lf->auto_targets && wl_target_parse(lf->auto_targets, &a, NULL, 0) == 0 && (a & all))
		t = a & all;
	return t;
}

wl_doc *wl_lint_bytes_opts(const wl_catalog *cat, const wl_config *cfg, const wl_lint_opts *lo,
			   const char *path, const uint8_t *bytes, uint64_t size, wl_target_mask *targets)
{
	const wl_format *fmt = wl_format_detect(bytes, size, path);
	/* An archive, image or text file behind a model's name (core/filekind.h):
	 * one finding over the whole file, never read as a model. */
	const wl_file_kind *kind = wl_file_kind_of(bytes, size, path);
	wl_doc *doc = kind ? wl_doc_opaque(fmt, path, bytes, size) : wl_format_read(fmt, path, bytes, size);
	if (!doc)
		return NULL;
	const wl_cli_rules *cli = lo ? lo->cli : NULL;
	const wl_lint_format *lf = wl_lint_format_of(fmt);
	wl_target_mask given = given_targets(fmt, cfg, lo);
	wl_target_mask tm = file_targets(fmt, lf, NULL, given, lo);
	if (kind)
		wl_report(&doc->findings, WLR_FILE_NOT_A_MODEL, NULL, -1, 0, size, "the file holds a %s, not a %s model",
			  kind->title, fmt->title);
	char *key = file_key(doc, cfg, path);
	if (!doc->oom && !kind) {
		void *m = fmt->build_model ? fmt->build_model(doc) : NULL;
		apply_dialect(fmt, m, given);
		tm = file_targets(fmt, lf, m, given, lo);
		if ((m || !fmt->build_model) && !doc->oom) {
			wl_param_memo params = { 0 };
			wl_lint_ctx ctx = { doc, m, cat, cfg, key, cli, tm, &params };
			size_t n = 0;
			/* the checks its rules name (`check:`, lint/wiring.h) */
			const wl_check_fn *fns = lf ? wl_wired_checks(fmt->name, &n) : NULL;
			for (size_t i = 0; i < n && !doc->oom; i++)
				fns[i](&ctx);
			fns = wl_lint_engine_checks(&n);
			for (size_t i = 0; i < n && !doc->oom; i++)
				fns[i](&ctx);
		}
	}
	finish(doc, cat, cfg, cli, key, tm, size);
	if (targets)
		*targets = tm;
	return doc;
}

wl_doc *wl_lint_archive(const wl_catalog *cat, const wl_config *cfg, const char *path, const uint8_t *bytes,
			uint64_t have, uint64_t size)
{
	const wl_file_kind *kind = wl_file_kind_of(bytes, have, path);
	wl_archive_kind ak;
	if (!kind || !wl_archive_kind_of(kind->id, &ak))
		return NULL;
	wl_doc *doc = wl_archive_read_head(ak, path, bytes, have, size, WL_ARCHIVE_FULL);
	if (!doc)
		return NULL;
	char *key = file_key(doc, cfg, path);
	finish(doc, cat, cfg, NULL, key, 0, size);
	return doc;
}

uint64_t wl_lint_count(const wl_doc *doc, wl_severity min)
{
	const wl_findings *f = &doc->findings;
	uint64_t n = 0;
	for (size_t i = 0; i < f->count; i++)
		n += f->items[i].severity >= min;
	/* the cap keeps a rule's first findings: one of them gives the
	 * severity of the ones left out */
	for (size_t k = 0; k < f->rules_count; k++) {
		if (!f->rules[k].dropped)
			continue;
		for (size_t i = 0; i < f->count; i++)
			if (strcmp(f->items[i].rule, f->rules[k].rule) == 0) {
				if (f->items[i].severity >= min)
					n += f->rules[k].dropped;
				break;
			}
	}
	return n;
}

wl_severity wl_lint_worst(const wl_doc *doc)
{
	wl_severity w = WL_SEV_OFF;
	for (size_t i = 0; i < doc->findings.count; i++)
		if (doc->findings.items[i].severity > w)
			w = doc->findings.items[i].severity;
	return w;
}

void wl_pass_stage_name(char *buf, size_t cap, size_t pass, size_t stage)
{
	if (stage == SIZE_MAX)
		snprintf(buf, cap, "pass %zu", pass);
	else
		snprintf(buf, cap, "pass %zu stage %zu", pass, stage);
}
