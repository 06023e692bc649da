/* b3dlint.c - the B3D lint helper for rule tests (b3dlint.h). */
#include "b3dlint.h"

#include <check.h>
#include <stdio.h>

#include "build_refs.h"

wl_doc *b3l_lint(const wb *b)
{
	return br_lint(b, "t.b3d");
}

wl_doc *b3l_take(wb *b)
{
	wl_doc *d = b3l_lint(b);
	wb_free(b);
	return d;
}

void b3l_free(wl_doc *d)
{
	br_free(d);
}

const wl_finding *b3l_one(const wl_doc *d, const char *rule, uint64_t offset, uint64_t length)
{
	ck_assert_uint_eq(ru_count(d, rule), 1);
	const wl_finding *f = ru_find_at(d, rule, offset);
	ck_assert_ptr_nonnull(f);
	if (length)
		ck_assert_uint_eq(f->length, length);
	return f;
}

void b3l_dump(const wl_doc *d)
{
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		fprintf(stderr, "%s @%llu+%llu: %s\n", f->rule, (unsigned long long)f->offset,
			(unsigned long long)f->length, f->message);
	}
}
