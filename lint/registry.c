/* registry.c - the lint layer's format registry (registry.h): the one file
 * of lint/'s root that names the format folders. */
#include "registry.h"

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
