/* tests/lint/test_catalog.c - the rule catalogue loader (lint/catalog.c): valid
 * documents, every kind of load error with its line and column, duplicate
 * ids, and the embedded catalogue. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_io.h"
#include "fix/fix.h"
#include "lint/catalog.h"

static char err[512];

/* A complete rule at two-space indentation, id given. */
#define RULE(id)                                   \
	"  - id: " id "\n"                         \
	"    category: chunk\n"                    \
	"    severity: warning\n"                  \
	"    fixable: \"no\"\n"                    \
	"    summary: something is wrong\n"        \
	"    explanation: >\n"                     \
	"      why it matters.\n"

/* Loads text as t.yaml into a fresh catalogue; returns the result code and
 * frees the catalogue (err keeps the message). */
static int load_rc(const char *text)
{
	wl_catalog *cat = NULL;
	err[0] = 0;
	int rc = wl_catalog_add_yaml(&cat, "t.yaml", text, strlen(text), err, sizeof err);
	if (rc == 0)
		ck_assert_ptr_nonnull(cat);
	else
		ck_assert_ptr_null(cat);
	wl_catalog_free(cat);
	return rc;
}

/* Asserts that text fails to load with exactly the message want. */
static void expect_error(const char *text, const char *want)
{
	ck_assert_int_eq(load_rc(text), -1);
	ck_assert_str_eq(err, want);
}

START_TEST(valid_document_loads)
{
	const char *text =
		"# comment\n"
		"rules:\n"
		RULE("zeta-rule")
		"  - id: alpha-rule\n"
		"    category: quality\n"
		"    severity: info\n"
		"    fixable: safe\n"
		"    summary: first summary\n"
		"    explanation: |\n"
		"      line one\n"
		"      line two\n"
		"\n"
		"    params:\n"
		"      - name: tolerance\n"
		"        default: 0.001\n"
		"        description: allowed difference\n"
		"      - name: limit\n"
		"        default: -2.5e3\n";
	wl_catalog *cat = NULL;
	ck_assert_int_eq(wl_catalog_add_yaml(&cat, "t.yaml", text, strlen(text), err, sizeof err), 0);
	ck_assert_uint_eq(wl_catalog_count(cat), 2);
	const wl_rule_def *a = wl_catalog_at(cat, 0);
	ck_assert_str_eq(a->id, "alpha-rule");
	ck_assert_str_eq(wl_catalog_at(cat, 1)->id, "zeta-rule");
	ck_assert_ptr_null(wl_catalog_at(cat, 2));
	ck_assert_str_eq(a->category, "quality");
	ck_assert_int_eq(a->severity, WL_SEV_INFO);
	ck_assert_str_eq(a->fixable, "safe");
	ck_assert_str_eq(a->summary, "first summary");
	ck_assert_str_eq(a->explanation, "line one\nline two"); /* trailing newline dropped */
	ck_assert_str_eq(a->source_file, "t.yaml");
	ck_assert_uint_eq(a->params_count, 2);
	ck_assert_str_eq(a->params[0].name, "tolerance");
	ck_assert_double_eq(a->params[0].def, 0.001);
	ck_assert_str_eq(a->params[0].description, "allowed difference");
	ck_assert_str_eq(a->params[1].description, "");
	ck_assert_double_eq(a->params[1].def, -2500.0);
	ck_assert_double_eq(wl_catalog_param(cat, "alpha-rule", "tolerance", 9), 0.001);
	ck_assert_double_eq(wl_catalog_param(cat, "alpha-rule", "nope", 9), 9);
	ck_assert_double_eq(wl_catalog_param(cat, "missing-rule", "tolerance", 7), 7);

	const wl_rule_def *z = wl_catalog_find(cat, "zeta-rule");
	ck_assert_ptr_nonnull(z);
	ck_assert_int_eq(z->severity, WL_SEV_WARNING);
	ck_assert_str_eq(z->fixable, "none");
	ck_assert_str_eq(z->explanation, "why it matters.");
	ck_assert_uint_eq(z->params_count, 0);
	ck_assert_ptr_null(wl_catalog_find(cat, "beta-rule"));
	ck_assert_ptr_null(wl_catalog_find(cat, NULL));

	/* A second document adds to the catalogue and keeps id order. */
	const char *more = "rules:\n" RULE("middle-rule");
	ck_assert_int_eq(wl_catalog_add_yaml(&cat, "u.yaml", more, strlen(more), err, sizeof err), 0);
	ck_assert_uint_eq(wl_catalog_count(cat), 3);
	ck_assert_str_eq(wl_catalog_at(cat, 1)->id, "middle-rule");
	ck_assert_str_eq(wl_catalog_at(cat, 1)->source_file, "u.yaml");
	ck_assert_str_eq(wl_catalog_find(cat, "alpha-rule")->summary, "first summary");
	wl_catalog_free(cat);
}
END_TEST

START_TEST(null_catalogue_is_empty)
{
	ck_assert_uint_eq(wl_catalog_count(NULL), 0);
	ck_assert_ptr_null(wl_catalog_at(NULL, 0));
	ck_assert_ptr_null(wl_catalog_find(NULL, wl_rule_name(WLR_FILE_EMPTY)));
	ck_assert_double_eq(wl_catalog_param(NULL, "a", "b", 3.5), 3.5);
	wl_catalog_free(NULL);
	ck_assert_int_eq(load_rc("rules: []\n"), 0);
	ck_assert_int_eq(load_rc("rules:\n"), 0);
}
END_TEST

START_TEST(error_malformed_yaml)
{
	expect_error("rules:\n  - id: a\n    summary: [x\n",
		     "t.yaml:4:1: malformed YAML: did not find expected ',' or ']' while parsing a flow sequence");
	expect_error("rules:\n  - id: \"abc\n",
		     "t.yaml:3:1: malformed YAML: found unexpected end of stream while scanning a quoted scalar");
	/* Invalid UTF-8: libyaml reports an offset, turned into line:column. */
	expect_error("rules:\n  - id: a\xff\n",
		     "t.yaml:2:10: malformed YAML: invalid leading UTF-8 octet");
}
END_TEST

START_TEST(error_structure)
{
	expect_error("", "t.yaml:1:1: empty catalogue (expected a mapping with key 'rules')");
	expect_error("- a\n", "t.yaml:1:1: a catalogue must be a mapping with the key 'rules' (and optionally format and sources)");
	expect_error("rulez: []\n", "t.yaml:1:1: unknown key 'rulez' (a catalogue has the keys rules, format and sources)");
	expect_error("rules: {}\n", "t.yaml:1:8: 'rules' must be a sequence of rule mappings");
	expect_error("rules:\n  - just text\n",
		     "t.yaml:2:5: a rule must be a mapping (id, category, severity, fixable, summary, "
		     "explanation, params)");
	expect_error("rules: []\n---\nrules: []\n", "t.yaml:3:1: only one YAML document is allowed");
	expect_error("rules: []\nrules: []\n", "t.yaml:2:1: duplicate key 'rules' (first at line 1)");
}
END_TEST

/* check: and fixers: (the wiring generated from the catalogue,
 * lint/wiring.h): one name or a list; a bad name is refused. */
START_TEST(check_and_fixers)
{
	wl_catalog *cat = NULL;
	const char *text = "rules:\n" RULE("a-rule") "    check: [mesh_flags, reader]\n"
			   "    fixers: [header-counts]\n" RULE("b-rule") "    check: engine\n";
	ck_assert_int_eq(wl_catalog_add_yaml(&cat, "t.yaml", text, strlen(text), err, sizeof err), 0);
	const wl_rule_def *a = wl_catalog_find(cat, "a-rule"), *b = wl_catalog_find(cat, "b-rule");
	ck_assert_uint_eq(a->checks_count, 2);
	ck_assert_str_eq(a->checks[0], "mesh_flags");
	ck_assert_str_eq(a->checks[1], "reader");
	ck_assert_uint_eq(a->fixers_count, 1);
	ck_assert_str_eq(a->fixers[0], "header-counts");
	ck_assert_uint_eq(b->checks_count, 1);
	ck_assert_str_eq(b->checks[0], "engine");
	ck_assert_uint_eq(b->fixers_count, 0);
	wl_catalog_free(cat);
	expect_error("rules:\n" RULE("a-rule") "    check: Mesh\n",
		     "t.yaml:9:12: rule 'a-rule': bad check name 'Mesh'");
	expect_error("rules:\n" RULE("a-rule") "    fixers: [header_counts]\n",
		     "t.yaml:9:14: rule 'a-rule': bad fixer name 'header_counts'");
	expect_error("rules:\n" RULE("a-rule") "    check: []\n",
		     "t.yaml:9:12: rule 'a-rule': an empty check list");
}
END_TEST

START_TEST(error_unknown_key)
{
	expect_error("rules:\n" RULE("a-rule") "    colour: red\n",
		     "t.yaml:9:5: rule 'a-rule': unknown key 'colour' (expected id, category, severity, "
		     "fixable, summary, explanation, params, format, sources, targets, opt-in, check or "
		     "fixers)");
	expect_error("rules:\n" RULE("a-rule") "    params:\n      - name: x\n        default: 1\n"
		     "        unit: m\n",
		     "t.yaml:12:9: rule 'a-rule': unknown parameter key 'unit' (expected name, default "
		     "or description)");
}
END_TEST

START_TEST(error_missing_key)
{
	expect_error("rules:\n"
		     "  - id: a-rule\n"
		     "    category: chunk\n"
		     "    severity: error\n"
		     "    fixable: \"no\"\n"
		     "    summary: s\n",
		     "t.yaml:2:5: rule 'a-rule' is missing required key 'explanation'");
	expect_error("rules:\n"
		     "  - category: chunk\n"
		     "    severity: error\n",
		     "t.yaml:2:5: rule is missing required key 'id'");
	expect_error("rules:\n" RULE("a-rule") "    params:\n      - name: x\n",
		     "t.yaml:10:9: rule 'a-rule': parameter 'x' is missing required key 'default'");
}
END_TEST

START_TEST(error_bad_values)
{
	expect_error("rules:\n  - id: a-rule\n    severity: fatal\n",
		     "t.yaml:3:15: rule 'a-rule': bad severity 'fatal' (expected error, warning, info or off)");
	expect_error("rules:\n  - id: a-rule\n    fixable: maybe\n",
		     "t.yaml:3:14: rule 'a-rule': bad fixable value 'maybe' (expected none, safe or unsafe)");
	expect_error("rules:\n  - id: a-rule\n    category: colour\n",
		     "t.yaml:3:15: rule 'a-rule': unknown category 'colour' (expected one of chunk, count, "
		     "index, geometry, hierarchy, animation, aabtree, material, name, reference, quality)");
	expect_error("rules:\n  - id: Bad_Id\n",
		     "t.yaml:2:9: rule id 'Bad_Id' is not kebab-case (lower-case letters and digits joined "
		     "by single '-')");
	expect_error("rules:\n  - id: a-rule\n    summary: [a]\n",
		     "t.yaml:3:14: summary must be a scalar, not a sequence");
	expect_error("rules:\n  - id: a-rule\n    summary: \"\"\n",
		     "t.yaml:3:14: rule 'a-rule': summary is empty");
}
END_TEST

START_TEST(error_param_not_number)
{
	expect_error("rules:\n" RULE("a-rule") "    params:\n      - name: x\n        default: abc\n",
		     "t.yaml:11:18: rule 'a-rule': parameter default 'abc' is not a number");
	/* Quoted, hexadecimal and non-finite values are not numbers. */
	expect_error("rules:\n" RULE("a-rule") "    params:\n      - name: x\n        default: \"1\"\n",
		     "t.yaml:11:18: rule 'a-rule': parameter default '1' is not a number");
	expect_error("rules:\n" RULE("a-rule") "    params:\n      - name: x\n        default: 0x10\n",
		     "t.yaml:11:18: rule 'a-rule': parameter default '0x10' is not a number");
	expect_error("rules:\n" RULE("a-rule") "    params:\n      - name: x\n        default: .inf\n",
		     "t.yaml:11:18: rule 'a-rule': parameter default '.inf' is not a number");
	expect_error("rules:\n" RULE("a-rule") "    params:\n      - name: x\n        default: [1]\n",
		     "t.yaml:11:18: rule 'a-rule': parameter default must be a number");
	expect_error("rules:\n" RULE("a-rule") "    params:\n      - name: x\n        default: 1\n"
		     "      - name: x\n        default: 2\n",
		     "t.yaml:12:15: rule 'a-rule': duplicate parameter 'x'");
}
END_TEST

START_TEST(error_duplicate_id)
{
	expect_error("rules:\n" RULE("a-rule") RULE("b-rule") RULE("a-rule"),
		     "t.yaml:16:9: duplicate rule id 'a-rule' (first defined at t.yaml:2:9)");

	/* Across documents: the message names the first file, and the failed
	 * document adds nothing. */
	wl_catalog *cat = NULL;
	const char *one = "rules:\n" RULE("a-rule");
	const char *two = "rules:\n" RULE("c-rule") RULE("a-rule");
	ck_assert_int_eq(wl_catalog_add_yaml(&cat, "one.yaml", one, strlen(one), err, sizeof err), 0);
	ck_assert_int_eq(wl_catalog_add_yaml(&cat, "two.yaml", two, strlen(two), err, sizeof err), -1);
	ck_assert_str_eq(err, "two.yaml:9:9: duplicate rule id 'a-rule' (first defined at one.yaml:2:9)");
	ck_assert_ptr_nonnull(cat);
	ck_assert_uint_eq(wl_catalog_count(cat), 1);
	ck_assert_ptr_null(wl_catalog_find(cat, "c-rule"));
	wl_catalog_free(cat);
}
END_TEST

START_TEST(builtin_catalogue_loads)
{
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(cat != NULL, "builtin catalogue: %s", err);
	/* Sorted by id, strictly (no duplicates). */
	for (size_t i = 1; i < wl_catalog_count(cat); i++)
		ck_assert_int_lt(strcmp(wl_catalog_at(cat, i - 1)->id, wl_catalog_at(cat, i)->id), 0);

	/* The reader's and the engine's ids. */
	static const char *const engine_ids[] = {
		"file-empty", "no-chunks", "chunk-truncated", "chunk-size-past-eof",
		"chunk-overruns-parent", "chunk-size-wrong", "container-size-too-small", "container-bit-on-leaf",
		"container-bit-missing", "chunk-unknown", "stray-bytes", "trailing-bytes",
		"chunk-resync", "chunk-depth-limit", "array-size-not-multiple", "chunk-too-small",
		"out-of-memory", "internal-unknown-rule",
	};
	for (size_t i = 0; i < sizeof engine_ids / sizeof *engine_ids; i++)
		ck_assert_msg(wl_catalog_find(cat, engine_ids[i]) != NULL, "missing %s", engine_ids[i]);
	ck_assert_int_eq(wl_catalog_find(cat, wl_rule_name(WLR_CONTAINER_BIT_MISSING))->severity, WL_SEV_INFO);
	ck_assert_int_eq(wl_catalog_find(cat, wl_rule_name(WLR_TRAILING_BYTES))->severity, WL_SEV_WARNING);
	ck_assert_int_eq(wl_catalog_find(cat, wl_rule_name(WLR_CHUNK_TRUNCATED))->severity, WL_SEV_ERROR);

	/* Every id of rules/chunk.yaml (read from disk) is in the builtin one. */
	size_t len;
	uint8_t *bytes = NULL;
	ck_assert_msg(wl_read_file("rules/chunk.yaml", SIZE_MAX, &bytes, &len) == WL_READ_OK,
		      "rules/chunk.yaml not found (run from the repository root)");
	char *text = (char *)bytes;
	wl_catalog *disk = NULL;
	ck_assert_int_eq(wl_catalog_add_yaml(&disk, "rules/chunk.yaml", text, len, err, sizeof err), 0);
	ck_assert_uint_ge(wl_catalog_count(disk), sizeof engine_ids / sizeof *engine_ids);
	for (size_t i = 0; i < wl_catalog_count(disk); i++) {
		const wl_rule_def *d = wl_catalog_at(disk, i);
		const wl_rule_def *b = wl_catalog_find(cat, d->id);
		ck_assert_msg(b != NULL, "builtin catalogue lacks %s", d->id);
		ck_assert_str_eq(b->source_file, "rules/chunk.yaml");
		ck_assert_str_eq(b->explanation, d->explanation);
	}
	free(text);
	wl_catalog_free(disk);
	wl_catalog_free(cat);
}
END_TEST

/* format, sources, targets and opt-in: read, inherited from the file,
 * per target severities; and their errors. */
START_TEST(targets_and_sources)
{
	const char *text =
		"format: b3d\n"
		"sources:\n"
		"  - \"file source\"\n"
		"rules:\n"
		RULE("plain-rule")
		RULE("target-rule")
		"    sources: [\"own source\", \"second\"]\n"
		"    targets:\n"
		"      luanti: \"off\"\n"
		"      assimp: error\n"
		RULE("opt-rule")
		"    opt-in: true\n"
		RULE("w3d-rule")
		"    format: w3d\n";
	wl_catalog *cat = NULL;
	ck_assert_int_eq(wl_catalog_add_yaml(&cat, "t.yaml", text, strlen(text), err, sizeof err), 0);
	const wl_rule_def *p = wl_catalog_find(cat, "plain-rule");
	const wl_rule_def *t = wl_catalog_find(cat, "target-rule");
	const wl_rule_def *o = wl_catalog_find(cat, "opt-rule");
	const wl_rule_def *w = wl_catalog_find(cat, "w3d-rule");
	ck_assert_str_eq(p->format, "b3d");
	ck_assert_str_eq(w->format, "w3d");
	ck_assert_uint_eq(p->sources_count, 1);
	ck_assert_str_eq(p->sources[0], "file source");
	ck_assert_uint_eq(t->sources_count, 2);
	ck_assert_str_eq(t->sources[0], "own source");
	wl_target_mask lu = (wl_target_mask)1 << wl_target_find("luanti");
	wl_target_mask as = (wl_target_mask)1 << wl_target_find("assimp");
	wl_target_mask ir = (wl_target_mask)1 << wl_target_find("irrlicht");
	ck_assert_int_eq(wl_rule_target_severity(t, lu), WL_SEV_OFF);
	ck_assert_int_eq(wl_rule_target_severity(t, ir), WL_SEV_WARNING);
	ck_assert_int_eq(wl_rule_target_severity(t, as), WL_SEV_ERROR);
	/* several targets: the strictest; none known: the default */
	ck_assert_int_eq(wl_rule_target_severity(t, lu | ir), WL_SEV_WARNING);
	ck_assert_int_eq(wl_rule_target_severity(t, 0), WL_SEV_WARNING);
	ck_assert(wl_rule_in_default_set(t));
	ck_assert(!wl_rule_in_default_set(o));
	/* a W3D rule is about no B3D target: its default severity */
	ck_assert_int_eq(wl_rule_target_severity(w, lu), WL_SEV_WARNING);
	wl_catalog_free(cat);

	expect_error("format: b3d\nrules:\n" RULE("a-rule") "    targets:\n      arma3: info\n",
		     "t.yaml:11:7: rule 'a-rule': 'arma3' is not a target of format b3d (renegade, generals, bfme, "
		     "w3dhub, luanti, irrlicht, blitz3d, assimp, arma1, arma2, arma3, dayz)");
	expect_error("rules:\n" RULE("a-rule") "    targets:\n      luanti: loud\n",
		     "t.yaml:10:15: rule 'a-rule': bad severity 'loud' (expected error, warning, info or off)");
	expect_error("format: x3d\nrules: []\n", "t.yaml:1:9: unknown format 'x3d'");
	expect_error("rules:\n" RULE("a-rule") "    opt-in: maybe\n",
		     "t.yaml:9:13: rule 'a-rule': opt-in must be true or false");
	/* targets must be a mapping */
	expect_error("rules:\n" RULE("a-rule") "    targets: [luanti]\n",
		     "t.yaml:9:14: rule 'a-rule': targets must be a mapping of target names to severities");
}
END_TEST

/* Every b3d- and p3d- rule of the built-in catalogue names its own format
 * and sources (none cites the W3D trees); every fixer id is unique. */
START_TEST(builtin_formats_and_fixer_ids)
{
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_ptr_nonnull(cat);
	for (size_t i = 0; i < wl_catalog_count(cat); i++) {
		const wl_rule_def *r = wl_catalog_at(cat, i);
		const char *want = strncmp(r->id, "b3d-", 4) == 0 ? "b3d" : strncmp(r->id, "p3d-", 4) == 0 ? "p3d" : NULL;
		if (!want)
			continue;
		ck_assert_msg(strcmp(r->format, want) == 0, "%s: format '%s'", r->id, r->format);
		ck_assert_msg(r->sources_count > 0, "%s: no sources", r->id);
		for (size_t k = 0; k < r->sources_count; k++)
			ck_assert_msg(strncmp(r->sources[k], "REN", 3) != 0 && strncmp(r->sources[k], "ZH", 2) != 0,
				      "%s cites %s", r->id, r->sources[k]);
	}
	wl_catalog_free(cat);
	size_t n;
	const wl_fixer *const *fx = wl_fixers(&n);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			ck_assert_msg(strcmp(fx[i]->id, fx[j]->id) != 0, "fixer id %s twice", fx[i]->id);
}
END_TEST

extern Suite *catalog_suite(void);
Suite *catalog_suite(void)
{
	Suite *s = suite_create("catalog");
	TCase *tc = tcase_create("load");
	tcase_add_test(tc, valid_document_loads);
	tcase_add_test(tc, null_catalogue_is_empty);
	tcase_add_test(tc, error_malformed_yaml);
	tcase_add_test(tc, error_structure);
	tcase_add_test(tc, error_unknown_key);
	tcase_add_test(tc, check_and_fixers);
	tcase_add_test(tc, error_missing_key);
	tcase_add_test(tc, error_bad_values);
	tcase_add_test(tc, error_param_not_number);
	tcase_add_test(tc, error_duplicate_id);
	tcase_add_test(tc, builtin_catalogue_loads);
	tcase_add_test(tc, targets_and_sources);
	tcase_add_test(tc, builtin_formats_and_fixer_ids);
	suite_add_tcase(s, tc);
	return s;
}
