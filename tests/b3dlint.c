/* b3dlint.c - the B3D lint helper for rule tests (b3dlint.h). */
#include "b3dlint.h"

#include <stdio.h>
#include <stdlib.h>

#include "../lint/lint.h"

static const wl_catalog *catalogue(void)
{
	static wl_catalog *cat;
	if (!cat) {
		char err[512];
		cat = wl_catalog_load_builtin(err, sizeof err);
		if (!cat) {
			fprintf(stderr, "b3dlint: catalogue: %s\n", err);
			abort();
		}
	}
	return cat;
}

wl_doc *b3l_lint(const wb *b)
{
	uint8_t *copy = ru_copy(b->data, b->len);
	wl_doc *d = wl_lint_bytes(catalogue(), NULL, "t.b3d", copy, b->len);
	if (!d) {
		fprintf(stderr, "b3dlint: out of memory\n");
		abort();
	}
	return d;
}

void b3l_free(wl_doc *d)
{
	ru_free(d);
}

void b3l_dump(const wl_doc *d)
{
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		fprintf(stderr, "%s @%llu+%llu: %s\n", f->rule, (unsigned long long)f->offset,
			(unsigned long long)f->length, f->message);
	}
}
