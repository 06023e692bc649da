/* robust_util.c - see robust_util.h. */
#include "robust_util.h"

#include <stdlib.h>
#include <string.h>

#include "build_anim.h"
#include "reader_util.h"

void t_robust_flip_bits(uint8_t *buf, size_t n)
{
	for (int k = 0; k < 4; k++)
		buf[(size_t)rand() % n] ^= (uint8_t)(1u << (rand() % 8));
}

static void lint_one(const uint8_t *p, size_t n, const t_robust_opts *o)
{
	wl_doc *d = o->lint(p, n);
	ck_assert_ptr_nonnull(d);
	const char *why = t_findings_bounds_error(d);
	ck_assert_msg(why == NULL, "%zu bytes: %s", n, why ? why : "");
	o->free_doc(d);
}

void t_robust_lint_variants(const uint8_t *p, size_t n, const t_robust_opts *o)
{
	for (size_t k = 0; k <= n; k++)
		lint_one(p, k, o);
	if (n == 0)
		return;
	t_robust_mutate_fn mutate = o->mutate ? o->mutate : t_robust_flip_bits;
	uint8_t *copy = t_copy(p, n);
	srand(o->seed);
	for (int round = 0; round < o->rounds; round++) {
		memcpy(copy, p, n);
		mutate(copy, n);
		lint_one(copy, n, o);
	}
	free(copy);
}

Suite *t_robust_suite_of(const char *name, const char *tcase, int timeout, const TTest *const *tests)
{
	Suite *s = suite_create(name);
	t_robust_add_tests(s, tcase, timeout, tests);
	return s;
}

TCase *t_robust_add_tests(Suite *s, const char *tcase, int timeout, const TTest *const *tests)
{
	TCase *tc = tcase_create(tcase);
	if (timeout > 0)
		tcase_set_timeout(tc, timeout);
	for (size_t i = 0; tests[i]; i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	return tc;
}

void t_robust_add_loop(Suite *s, const char *tcase, int timeout, const TTest *t, int n)
{
	TCase *tc = tcase_create(tcase);
	if (timeout > 0)
		tcase_set_timeout(tc, timeout);
	tcase_add_loop_test(tc, t, 0, n);
	suite_add_tcase(s, tc);
}
