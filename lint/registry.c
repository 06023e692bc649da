/* registry.c - the lint layer's format registry (registry.h): the one file
 * of lint/'s root that names the format folders. */
#include "registry.h"

#include "lint/config/custom_fields.h"

#include <string.h>

#include "b3d/checks.h"
#include "p3d/checks.h"
#include "w3d/checks.h"

/* Each format folder exports one descriptor (lint/<format>/checks.c);
 * add a line per format. */
static const wl_lint_format *const formats[] = { &w3d_lint_format, &b3d_lint_format, &p3d_lint_format };

const wl_lint_format *const *wl_lint_formats(size_t *count)
{
	*count = sizeof formats / sizeof formats[0];
	return formats;
}

const wl_lint_format *wl_lint_format_of(const wl_format *f)
{
	size_t n;
	const wl_lint_format *const *all = wl_lint_formats(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i]->format, f->name) == 0)
			return all[i];
	return NULL;
}

/* The checks every format runs after its own: the configuration's custom
 * rules (custom_check.c). */
static const wl_check_fn engine_checks[] = { wl_custom_rules_run };

const wl_check_fn *wl_lint_engine_checks(size_t *count)
{
	*count = sizeof engine_checks / sizeof engine_checks[0];
	return engine_checks;
}

/* The custom-rule field catalogue (custom_rules.h): every format's fields,
 * in registry order. */
const wl_field_def *wl_custom_field_find(const char *name)
{
	for (size_t i = 0; name && i < wl_custom_field_count(); i++)
		if (strcmp(wl_custom_field_at(i)->name, name) == 0)
			return wl_custom_field_at(i);
	return NULL;
}

size_t wl_custom_field_count(void)
{
	size_t n = 0, count;
	const wl_lint_format *const *lf = wl_lint_formats(&count);
	for (size_t i = 0; i < count; i++)
		n += lf[i]->field_count;
	return n;
}

const wl_field_def *wl_custom_field_at(size_t i)
{
	size_t count;
	const wl_lint_format *const *lf = wl_lint_formats(&count);
	for (size_t k = 0; k < count; k++) {
		if (i < lf[k]->field_count)
			return &lf[k]->fields[i];
		i -= lf[k]->field_count;
	}
	return NULL;
}
