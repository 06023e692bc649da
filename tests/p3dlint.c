/* p3dlint.c - the P3D lint helper for reader and rule tests (p3dlint.h). */
#include "p3dlint.h"

#include <check.h>
#include <string.h>

#include "core/format.h"
#include "lint/lint.h"
#include "build_refs.h"

wl_doc *p3l_lint(const wb *b)
{
	wl_doc *d = br_lint(b, "x.p3d");
	ck_assert_str_eq(d->format->name, "p3d");
	const char *why = ru_tiling_error(d);
	ck_assert_msg(why == NULL, "%s", why ? why : "");
	why = ru_findings_bounds_error(d);
	ck_assert_msg(why == NULL, "%s", why ? why : "");
	return d;
}

size_t p3l_count(const wb *b, const char *rule)
{
	wl_doc *d = p3l_lint(b);
	size_t n = ru_count(d, rule);
	p3l_free(d);
	return n;
}

size_t p3l_count_config(const wb *b, const char *rule, const char *config)
{
	char err[256];
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(cat != NULL, "%s", err);
	wl_config *cfg = wl_config_parse(cat, "t.yaml", config, strlen(config), err, sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	wl_doc *d = wl_lint_bytes(cat, cfg, "x.p3d", ru_copy(b->data, b->len), b->len);
	ck_assert_ptr_nonnull(d);
	size_t n = ru_count(d, rule);
	ru_free(d);
	wl_config_free(cfg);
	wl_catalog_free(cat);
	return n;
}

const wl_finding *p3l_one(const wl_doc *d, const char *rule, uint64_t offset, uint64_t length)
{
	ck_assert_uint_eq(ru_count(d, rule), 1);
	const wl_finding *f = ru_find(d, rule);
	ck_assert_uint_eq(f->offset, offset);
	ck_assert_uint_eq(f->length, length);
	return f;
}

void p3l_free(wl_doc *d)
{
	br_free(d);
}
