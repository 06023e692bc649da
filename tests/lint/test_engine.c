/*
 * tests/lint/test_engine.c - the lint engine (lint/lint.c): severities from the
 * catalogue and configuration, and its own findings internal-unknown-rule
 * and out-of-memory.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lint/lint.h"
#include "tests/build/w3dbuild.h"

extern Suite *engine_suite(void);

static size_t count(const wl_doc *d, const char *rule)
{
	size_t n = 0;
	for (size_t i = 0; i < d->findings.count; i++)
		n += strcmp(d->findings.items[i].rule, rule) == 0;
	return n;
}

/* A file with one unknown top-level chunk (fires chunk-unknown). */
static void unknown_chunk_file(wb *b)
{
	t_w3d_init(b);
	t_w3d_chunk(b, 0x7777, "abcd", 4);
}

START_TEST(unknown_rule_id_is_internal_error)
{
	char err[256];
	wl_catalog *small = NULL;
	static const char yaml[] =
		"rules:\n"
		"  - id: file-empty\n    category: chunk\n    severity: error\n    fixable: \"no\"\n"
		"    summary: the file is empty\n    explanation: empty\n";
	ck_assert_int_eq(wl_catalog_add_yaml(&small, "small.yaml", yaml, strlen(yaml), err, sizeof err), 0);
	wb b;
	unknown_chunk_file(&b);
	/* the catalogue lacks chunk-unknown: reported as internal-unknown-rule */
	wl_doc *d = wl_lint_bytes(small, NULL, "t.w3d", b.data, b.len);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(count(d, "internal-unknown-rule"), 1);
	ck_assert_int_eq(d->findings.items[0].severity, WL_SEV_ERROR);
	ck_assert_ptr_nonnull(strstr(d->findings.items[0].message, wl_rule_name(WLR_CHUNK_UNKNOWN)));
	wl_doc_free(d);
	/* near miss: the builtin catalogue knows it */
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_ptr_nonnull(cat);
	d = wl_lint_bytes(cat, NULL, "t.w3d", b.data, b.len);
	ck_assert_uint_eq(count(d, "internal-unknown-rule"), 0);
	ck_assert_uint_eq(count(d, "chunk-unknown"), 1);
	ck_assert_int_eq(d->findings.items[0].severity,
			 wl_catalog_find(cat, wl_rule_name(WLR_CHUNK_UNKNOWN))->severity);
	wl_doc_free(d);
	wl_catalog_free(cat);
	wl_catalog_free(small);
	t_w3d_free(&b);
}
END_TEST

START_TEST(config_turns_rule_off)
{
	char err[256];
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_ptr_nonnull(cat);
	static const char cfgtext[] = "rules:\n  chunk-unknown: off\n";
	wl_config *cfg = wl_config_parse(cat, "c.yaml", cfgtext, strlen(cfgtext), err, sizeof err);
	ck_assert_ptr_nonnull(cfg);
	wb b;
	unknown_chunk_file(&b);
	wl_doc *d = wl_lint_bytes(cat, cfg, "t.w3d", b.data, b.len);
	ck_assert_uint_eq(count(d, "chunk-unknown"), 0);
	ck_assert_int_eq(wl_lint_worst(d), WL_SEV_OFF);
	wl_doc_free(d);
	wl_config_free(cfg);
	wl_catalog_free(cat);
	t_w3d_free(&b);
}
END_TEST

START_TEST(memory_limit_gives_out_of_memory)
{
	char err[256];
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_ptr_nonnull(cat);
	/* All zeros read as an empty MESH every 8 bytes; each decodes into a
	 * mesh record, so 6 MiB of zeros need more than the 96 MiB arena limit
	 * (16 bytes per file byte, core/chunk.h). */
	size_t big = (size_t)6 << 20;
	uint8_t *z = calloc(1, big);
	ck_assert_ptr_nonnull(z);
	wl_doc *d = wl_lint_bytes(cat, NULL, "zeros.w3d", z, big);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(count(d, "out-of-memory"), 1);
	wl_doc_free(d);
	/* near miss: 8 KiB of zeros fit (under the 4 MiB floor) */
	d = wl_lint_bytes(cat, NULL, "zeros.w3d", z, 8 * 1024);
	ck_assert_uint_eq(count(d, "out-of-memory"), 0);
	ck_assert_uint_gt(count(d, "mesh-header-missing"), 0);
	wl_doc_free(d);
	free(z);
	wl_catalog_free(cat);
}
END_TEST

Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("engine");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, unknown_rule_id_is_internal_error);
	tcase_add_test(tc, config_turns_rule_off);
	tcase_add_test(tc, memory_limit_gives_out_of_memory);
	suite_add_tcase(s, tc);
	return s;
}
