/* fix_util.c - t_fix_expect_fix (fix_util.h). */
#include "fix_util.h"

#include <check.h>
#include <string.h>

#include "fix/driver.h"
#include "reader_util.h"

void t_fix_expect_fix(const char *name, const wb *in, const wb *want, bool unsafe)
{
	wl_fix_options o = { 0 };
	o.catalog = t_cat;
	o.unsafe = unsafe;
	wl_fix_result r;
	ck_assert_int_eq(wl_fix_run(&o, name, in->data, in->len, &r), 0);
	if (!want) {
		ck_assert_msg(!r.changed, "%zu change(s), first %s", r.change_count,
			      r.change_count ? r.changes[0].what : "");
		wl_fix_result_free(&r);
		return;
	}
	ck_assert_msg(r.changed && r.verified, "changed %d verified %d: %s", r.changed, r.verified,
		      r.problem_count ? r.problems[0] : "");
	ck_assert_uint_eq(r.out_len, want->len);
	ck_assert(memcmp(r.out, want->data, want->len) == 0);
	wl_fix_result r2;
	ck_assert_int_eq(wl_fix_run(&o, name, r.out, r.out_len, &r2), 0);
	ck_assert(!r2.changed);
	wl_fix_result_free(&r2);
	wl_fix_result_free(&r);
}
