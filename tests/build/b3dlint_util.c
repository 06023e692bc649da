/* b3dlint_util.c - linting built .b3d bytes in tests (b3dlint_util.h). */
#include "b3dlint_util.h"

#include <check.h>
#include <string.h>

#include "lint/lint.h"
#include "reader_util.h"

static wl_catalog *cat(void)
{
	static wl_catalog *c;
	if (!c) {
		char err[512];
		c = wl_catalog_load_builtin(err, sizeof err);
		ck_assert_msg(c != NULL, "%s", err);
	}
	return c;
}

static wl_config *cfg_of_last;

wl_doc *t_b3dutil_lint(const wb *b, const char *config)
{
	wl_config *cfg = NULL;
	if (config) {
		char err[256];
		cfg = wl_config_parse(cat(), "t.yaml", config, strlen(config), err, sizeof err);
		ck_assert_msg(cfg != NULL, "%s", err);
	}
	uint8_t *copy = t_copy(b->data, b->len);
	wl_doc *d = wl_lint_bytes(cat(), cfg, "t.b3d", copy, b->len);
	ck_assert_ptr_nonnull(d);
	cfg_of_last = cfg;
	return d;
}

wl_doc *t_b3dutil_lint_bytes(const uint8_t *p, size_t n)
{
	wb b = { .data = (uint8_t *)(uintptr_t)p, .len = n };
	return t_b3dutil_lint(&b, "rules:\n  b3d-weight-zero: info\n");
}

wl_doc *t_b3dutil_lint_layout(const wb *b, wl_target_mask layout, wl_target_mask *targets)
{
	wl_lint_opts lo = { NULL, layout };
	uint8_t *copy = t_copy(b->data, b->len);
	wl_doc *d = wl_lint_bytes_opts(cat(), NULL, &lo, "t.b3d", copy, b->len, targets);
	ck_assert_ptr_nonnull(d);
	cfg_of_last = NULL;
	return d;
}

void t_b3dutil_free(wl_doc *d)
{
	t_free(d);
	wl_config_free(cfg_of_last);
	cfg_of_last = NULL;
}

size_t t_b3dutil_count(const wl_doc *d, const char *rule)
{
	return t_count(d, rule);
}

const wl_finding *t_b3dutil_find(const wl_doc *d, const char *rule, size_t nth)
{
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(d->findings.items[i].rule, rule) == 0 && nth-- == 0)
			return &d->findings.items[i];
	return NULL;
}

size_t t_b3dutil_count_of(const wb *b, const char *rule)
{
	wl_doc *d = t_b3dutil_lint(b, NULL);
	size_t n = t_b3dutil_count(d, rule);
	t_b3dutil_free(d);
	return n;
}
