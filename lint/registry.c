/* registry.c - the lint layer's format registry (registry.h). */
#include "registry.h"

#include <string.h>

#include "b3d/checks.h"
#include "w3d/checks.h"

static const wl_lint_format formats[] = {
	{ "w3d", wl_w3d_checks },
	{ "b3d", wl_b3d_checks },
};

const wl_lint_format *wl_lint_format_of(const wl_format *f)
{
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (strcmp(formats[i].format, f->name) == 0)
			return &formats[i];
	return NULL;
}
