/* b3dlint.c - the B3D lint helper for rule tests (b3dlint.h). */
#include "b3dlint.h"

#include <check.h>
#include <stdio.h>

#include "build_refs.h"

wl_doc *t_b3dlint_lint(const wb *b)
{
	return t_ref_lint(b, "t.b3d");
}

wl_doc *t_b3dlint_take(wb *b)
{
	wl_doc *d = t_b3dlint_lint(b);
	t_w3d_free(b);
	return d;
}

void t_b3dlint_free(wl_doc *d)
{
	t_ref_free(d);
}

const wl_finding *t_b3dlint_one(const wl_doc *d, const char *rule, uint64_t offset, uint64_t length)
{
	ck_assert_uint_eq(t_count(d, rule), 1);
	const wl_finding *f = t_find_at(d, rule, offset);
	ck_assert_ptr_nonnull(f);
	if (length)
		ck_assert_uint_eq(f->length, length);
	return f;
}

void t_b3dlint_dump(const wl_doc *d)
{
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		fprintf(stderr, "%s @%llu+%llu: %s\n", f->rule, (unsigned long long)f->offset,
			(unsigned long long)f->length, f->message);
	}
}
