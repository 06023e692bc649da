/*
 * gen_catalog.c - build-time generator of the built-in rule catalogue
 * (lint/catalog_table.h): reads rules/ YAML files with the catalogue's own
 * reader and writes them as C tables, so that no tool parses YAML at start.
 *
 * Usage: gen_catalog OUT.c rules/a.yaml rules/b.yaml ...
 * The files are added in the order given, each named as given (that name
 * is the rules' source_file).  A catalogue error (catalog.h's messages,
 * "name:line:column: message") is printed and the exit status is 1; OUT.c
 * is then left alone (status 2 when a rule lacks the check: the built-in
 * catalogue needs, lint/wiring.h).  OUT.c is replaced (renamed over from a file of this
 * process) only when its text changes, so an unchanged catalogue
 * recompiles nothing.
 *
 * The generator is linked with the library minus the generated tables;
 * the built-in catalogue is never used here, so it is defined empty below.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/file_io.h"
#include "lint/catalog_table.h"
#include "lint/wiring.h"

const wl_catalog_slot wl_builtin_slots[1];
const size_t wl_builtin_count = 0;
const uint32_t wl_builtin_by_handle[WL_RULES_END];

/* Not used here (no rule is checked or fixed): empty. */
const wl_check_fn *wl_wired_checks(const char *format, size_t *count)
{
	(void)format;
	*count = 0;
	return NULL;
}

const wl_rule_id *wl_wired_fixer_rules(const char *fixer_id)
{
	static const wl_rule_id none[] = { WL_RULE_NONE };
	(void)fixer_id;
	return none;
}

/* s as a C string literal: printable ASCII as is (but '"', '\\' and '?',
 * against trigraphs), every other byte as a three-digit octal escape;
 * NULL as NULL. */
static void put_string(FILE *out, const char *s)
{
	if (!s) {
		fputs("NULL", out);
		return;
	}
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\' || *p == '?')
			fprintf(out, "\\%c", *p);
		else if (*p >= 0x20 && *p < 0x7f)
			fputc(*p, out);
		else
			fprintf(out, "\\%03o", *p);
	}
	fputc('"', out);
}

/* Do two rules cite the same source lines? */
static int same_sources(const wl_rule_def *a, const wl_rule_def *b)
{
	if (a->sources_count != b->sources_count)
		return 0;
	for (size_t k = 0; k < a->sources_count; k++)
		if (strcmp(a->sources[k], b->sources[k]) != 0)
			return 0;
	return 1;
}

/* A list of names as a static array NAME_I. */
static void put_names(FILE *out, const char *name, size_t i, const char *const *v, size_t n)
{
	if (!n)
		return;
	fprintf(out, "static const char *const %s_%zu[] = {", name, i);
	for (size_t k = 0; k < n; k++) {
		fputs(k ? ", " : " ", out);
		put_string(out, v[k]);
	}
	fputs(" };\n", out);
}

/* The arrays a rule points at, written before the slots: parameters per
 * rule (params_I), source lists once per distinct text (sources_J: most
 * files' rules cite their file's list).  source_index[i] is rule i's list. */
static int put_arrays(FILE *out, const wl_catalog *cat, size_t n, size_t *source_index)
{
	const wl_rule_def **lists = calloc(n ? n : 1, sizeof *lists);
	if (!lists)
		return -1;
	size_t nlists = 0;
	for (size_t i = 0; i < n; i++) {
		const wl_rule_def *r = &wl_catalog_slot_at(cat, i)->def;
		if (r->params_count) {
			fprintf(out, "static const wl_param_def params_%zu[] = {\n", i);
			for (size_t k = 0; k < r->params_count; k++) {
				fputs("\t{ ", out);
				put_string(out, r->params[k].name);
				fprintf(out, ", %a, ", r->params[k].def);
				put_string(out, r->params[k].description);
				fputs(" },\n", out);
			}
			fputs("};\n", out);
		}
		size_t j = 0;
		while (j < nlists && !same_sources(lists[j], r))
			j++;
		source_index[i] = j;
		if (j < nlists || !r->sources_count)
			continue;
		lists[nlists++] = r;
		fprintf(out, "static const char *const sources_%zu[] = {\n", j);
		for (size_t k = 0; k < r->sources_count; k++) {
			fputc('\t', out);
			put_string(out, r->sources[k]);
			fputs(",\n", out);
		}
		fputs("};\n", out);
	}
	for (size_t i = 0; i < n; i++) {
		const wl_rule_def *r = &wl_catalog_slot_at(cat, i)->def;
		put_names(out, "checks", i, r->checks, r->checks_count);
		put_names(out, "fixers", i, r->fixers, r->fixers_count);
	}
	free(lists);
	return 0;
}

static void put_slot(FILE *out, const wl_catalog_slot *s, size_t i, size_t source_index)
{
	const wl_rule_def *r = &s->def;
	fputs("\t{ {\n\t\t.id = ", out);
	put_string(out, r->id);
	fputs(",\n\t\t.category = ", out);
	put_string(out, r->category);
	fprintf(out, ",\n\t\t.severity = (wl_severity)%d,\n\t\t.fixable = ", (int)r->severity);
	put_string(out, r->fixable);
	fputs(",\n\t\t.summary = ", out);
	put_string(out, r->summary);
	fputs(",\n\t\t.explanation = ", out);
	put_string(out, r->explanation);
	if (r->params_count)
		fprintf(out, ",\n\t\t.params = params_%zu, .params_count = %zu", i, r->params_count);
	fputs(",\n\t\t.source_file = ", out);
	put_string(out, r->source_file);
	fputs(",\n\t\t.format = ", out);
	put_string(out, r->format);
	if (r->sources_count)
		fprintf(out, ",\n\t\t.sources = sources_%zu, .sources_count = %zu", source_index,
			r->sources_count);
	fprintf(out, ",\n\t\t.targets = 0x%08lxu,\n\t\t.target_severity = {", (unsigned long)r->targets);
	for (size_t t = 0; t < WL_TARGETS_MAX; t++)
		fprintf(out, " (wl_severity)%d,", (int)r->target_severity[t]);
	fprintf(out, " },\n\t\t.opt_in = %s,\n", r->opt_in ? "true" : "false");
	if (r->checks_count)
		fprintf(out, "\t\t.checks = checks_%zu, .checks_count = %zu,\n", i, r->checks_count);
	if (r->fixers_count)
		fprintf(out, "\t\t.fixers = fixers_%zu, .fixers_count = %zu,\n", i, r->fixers_count);
	fprintf(out, "\t}, %lu, %lu },\n", s->line, s->column);
}

/* Is name one of the check: values that are no check function? */
static int not_a_function(const char *name)
{
	return strcmp(name, "reader") == 0 || strcmp(name, "xref") == 0 || strcmp(name, "engine") == 0;
}

/* Is s among v[0..n)? */
static int among(const char *const *v, size_t n, const char *s)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(v[k], s) == 0)
			return 1;
	return 0;
}

/* wl_wired_checks (lint/wiring.h): per format, its check functions in the
 * order of the rules (by id) first naming them.  A rule without check: is
 * an error (every built-in rule says what reports it). */
static int put_checks(FILE *out, const wl_catalog *cat, size_t n)
{
	const char **fmts = calloc(n + 1, sizeof *fmts), **fns = calloc(n * 4 + 1, sizeof *fns);
	size_t nf = 0;
	int rc = !fmts || !fns;
	for (size_t i = 0; i < n && !rc; i++) {
		const wl_rule_def *r = &wl_catalog_slot_at(cat, i)->def;
		if (!r->checks_count) {
			fprintf(stderr, "%s: rule '%s' has no check: (what reports it: a check name, reader, "
				"xref or engine)\n", r->source_file, r->id);
			rc = 2;
		} else if (r->format[0] && !among(fmts, nf, r->format)) {
			fmts[nf++] = r->format;
		}
	}
	for (size_t f = 0; f < nf && !rc; f++) {
		size_t nfn = 0;
		for (size_t i = 0; i < n; i++) {
			const wl_rule_def *r = &wl_catalog_slot_at(cat, i)->def;
			if (strcmp(r->format, fmts[f]) != 0)
				continue;
			for (size_t k = 0; k < r->checks_count; k++)
				if (!not_a_function(r->checks[k]) && !among(fns, nfn, r->checks[k]) && nfn < n * 4)
					fns[nfn++] = r->checks[k];
		}
		for (size_t k = 0; k < nfn; k++)
			fprintf(out, "void %s_check_%s(wl_lint_ctx *ctx);\n", fmts[f], fns[k]);
		fprintf(out, "static const wl_check_fn checks_of_%s[] = {\n", fmts[f]);
		for (size_t k = 0; k < nfn; k++)
			fprintf(out, "\t%s_check_%s,\n", fmts[f], fns[k]);
		fprintf(out, "\tNULL\n};\n\n");
	}
	if (!rc) {
		fputs("const wl_check_fn *wl_wired_checks(const char *format, size_t *count)\n{\n", out);
		for (size_t f = 0; f < nf; f++)
			fprintf(out, "\tif (strcmp(format, \"%s\") == 0) {\n\t\t*count = sizeof checks_of_%s / "
				"sizeof *checks_of_%s - 1;\n\t\treturn checks_of_%s;\n\t}\n",
				fmts[f], fmts[f], fmts[f], fmts[f]);
		fputs("\t*count = 0;\n\treturn NULL;\n}\n\n", out);
	}
	free(fmts);
	free(fns);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* wl_wired_fixer_rules (lint/wiring.h): per fixer id (sorted), the rules
 * naming it, by id. */
static int put_fixer_rules(FILE *out, const wl_catalog *cat, size_t n)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += wl_catalog_slot_at(cat, i)->def.fixers_count;
	const char **ids = calloc(total + 1, sizeof *ids);
	if (!ids)
		return 1;
	size_t ni = 0;
	for (size_t i = 0; i < n; i++) {
		const wl_rule_def *r = &wl_catalog_slot_at(cat, i)->def;
		for (size_t k = 0; k < r->fixers_count; k++)
			if (!among(ids, ni, r->fixers[k]))
				ids[ni++] = r->fixers[k];
	}
	qsort(ids, ni, sizeof *ids, cmp_str);
	for (size_t j = 0; j < ni; j++) {
		fprintf(out, "static const wl_rule_id fixer_rules_%zu[] = {", j);
		for (size_t i = 0; i < n; i++) {
			const wl_rule_def *r = &wl_catalog_slot_at(cat, i)->def;
			if (among(r->fixers, r->fixers_count, ids[j]))
				fprintf(out, " (wl_rule_id)%d /* %s */,", (int)wl_rule_lookup(r->id), r->id);
		}
		fputs(" WL_RULE_NONE };\n", out);
	}
	fputs("static const struct { const char *id; const wl_rule_id *rules; } fixer_rules[] = {\n", out);
	for (size_t j = 0; j < ni; j++) {
		fputs("\t{ ", out);
		put_string(out, ids[j]);
		fprintf(out, ", fixer_rules_%zu },\n", j);
	}
	if (!ni)
		fputs("\t{ NULL, NULL },\n", out);
	fprintf(out, "};\n\n"
		     "const wl_rule_id *wl_wired_fixer_rules(const char *fixer_id)\n{\n"
		     "\tstatic const wl_rule_id none[] = { WL_RULE_NONE };\n"
		     "\tsize_t lo = 0, hi = %zu;\n"
		     "\twhile (lo < hi) {\n"
		     "\t\tsize_t mid = lo + (hi - lo) / 2;\n"
		     "\t\tint c = strcmp(fixer_id, fixer_rules[mid].id);\n"
		     "\t\tif (c == 0)\n\t\t\treturn fixer_rules[mid].rules;\n"
		     "\t\tif (c < 0)\n\t\t\thi = mid;\n\t\telse\n\t\t\tlo = mid + 1;\n"
		     "\t}\n\treturn none;\n}\n", ni);
	free(ids);
	return 0;
}

static int write_tables(FILE *out, const wl_catalog *cat)
{
	size_t n = wl_catalog_count(cat);
	size_t *source_index = calloc(n ? n : 1, sizeof *source_index);
	if (!source_index)
		return -1;
	fputs("/* Generated by scripts/gen_catalog.c from the rules/ catalogue: do not edit. */\n"
	      "#include <stdbool.h>\n"
	      "#include <string.h>\n"
	      "#include \"lint/catalog_table.h\"\n"
	      "#include \"lint/wiring.h\"\n\n", out);
	if (put_arrays(out, cat, n, source_index)) {
		free(source_index);
		return -1;
	}
	fputs("\nconst wl_catalog_slot wl_builtin_slots[] = {\n", out);
	for (size_t i = 0; i < n; i++)
		put_slot(out, wl_catalog_slot_at(cat, i), i, source_index[i]);
	if (!n)
		fputs("\t{ { .id = NULL }, 0, 0 },\n", out);
	fprintf(out, "};\n\nconst size_t wl_builtin_count = %zu;\n\n", n);
	fputs("const uint32_t wl_builtin_by_handle[WL_RULES_END] = {\n", out);
	const uint32_t *by = wl_catalog_by_handle(cat);
	for (size_t h = 1; by && h < WL_RULES_END; h++)
		if (by[h])
			fprintf(out, "\t[%zu] = %luu, /* %s */\n", h, (unsigned long)by[h],
				wl_rule_name((wl_rule_id)h));
	fputs("};\n\n", out);
	free(source_index);
	int rc = put_checks(out, cat, n);
	return rc ? rc : put_fixer_rules(out, cat, n);
}

/* Is the file at path exactly text[0..len)? */
static int same_file(const char *path, const char *text, size_t len)
{
	uint8_t *old = NULL;
	size_t old_len = 0;
	if (wl_read_file(path, SIZE_MAX, &old, &old_len) != WL_READ_OK)
		return 0;
	int same = old_len == len && memcmp(old, text, len) == 0;
	free(old);
	return same;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: gen_catalog OUT.c RULES.yaml...\n", stderr);
		return 2;
	}
	wl_catalog *cat = NULL;
	char err[512];
	for (int i = 2; i < argc; i++) {
		uint8_t *text = NULL;
		size_t len = 0;
		if (wl_read_file(argv[i], SIZE_MAX, &text, &len) != WL_READ_OK) {
			perror(argv[i]);
			wl_catalog_free(cat);
			return 1;
		}
		int rc = wl_catalog_add_yaml(&cat, argv[i], (const char *)text, len, err, sizeof err);
		free(text);
		if (rc) {
			fprintf(stderr, "%s\n", err);
			wl_catalog_free(cat);
			return 1;
		}
	}
	char *buf = NULL;
	size_t buf_len = 0;
	FILE *mem = open_memstream(&buf, &buf_len);
	int rc = !mem ? 1 : write_tables(mem, cat);
	if (mem && fclose(mem))
		rc = 1;
	wl_catalog_free(cat);
	if (rc) {
		if (rc == 1)
			fputs("gen_catalog: out of memory\n", stderr);
		free(buf);
		return rc;
	}
	if (!same_file(argv[1], buf, buf_len)) {
		/* a name of this process's own: two makes may run at once */
		size_t cap = strlen(argv[1]) + 32;
		char *tmp = malloc(cap);
		if (!tmp) {
			free(buf);
			return 1;
		}
		snprintf(tmp, cap, "%s.tmp%ld", argv[1], (long)getpid());
		FILE *f = fopen(tmp, "w");
		int bad = !f || fwrite(buf, 1, buf_len, f) != buf_len;
		if (f && fclose(f))
			bad = 1;
		if (bad || rename(tmp, argv[1])) {
			perror(tmp);
			remove(tmp);
			free(tmp);
			free(buf);
			return 1;
		}
		free(tmp);
	}
	free(buf);
	return 0;
}
