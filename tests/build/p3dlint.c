/* p3dlint.c - the P3D lint helper for reader and rule tests (p3dlint.h). */
#include "p3dlint.h"

#include <check.h>
#include <string.h>

#include "core/format.h"
#include "lint/lint.h"
#include "build_refs.h"

wl_doc *t_p3dlint_lint(const wb *b)
{
	wl_doc *d = t_ref_lint(b, "x.p3d");
	ck_assert_str_eq(d->format->name, "p3d");
	const char *why = t_tiling_error(d);
	ck_assert_msg(why == NULL, "%s", why ? why : "");
	why = t_findings_bounds_error(d);
	ck_assert_msg(why == NULL, "%s", why ? why : "");
	return d;
}

size_t t_p3dlint_count(const wb *b, const char *rule)
{
	wl_doc *d = t_p3dlint_lint(b);
	size_t n = t_count(d, rule);
	t_p3dlint_free(d);
	return n;
}

size_t t_p3dlint_count_config(const wb *b, const char *rule, const char *config)
{
	char err[256];
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(cat != NULL, "%s", err);
	wl_config *cfg = wl_config_parse(cat, "t.yaml", config, strlen(config), err, sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	wl_doc *d = wl_lint_bytes(cat, cfg, "x.p3d", t_copy(b->data, b->len), b->len);
	ck_assert_ptr_nonnull(d);
	size_t n = t_count(d, rule);
	t_free(d);
	wl_config_free(cfg);
	wl_catalog_free(cat);
	return n;
}

const wl_finding *t_p3dlint_one(const wl_doc *d, const char *rule, uint64_t offset, uint64_t length)
{
	ck_assert_uint_eq(t_count(d, rule), 1);
	const wl_finding *f = t_find(d, rule);
	ck_assert_uint_eq(f->offset, offset);
	ck_assert_uint_eq(f->length, length);
	return f;
}

void t_p3dlint_free(wl_doc *d)
{
	t_ref_free(d);
}
