/* tests/lint/w3d/test_hierarchy.c - tests of the HIERARCHY decoder and rules
 * (lint/w3d/check_hierarchy.c): for each rule a case that fires (rule id and
 * offset asserted) and a near miss that does not. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/model.h"
#include "tests/build/build_anim.h"
#include "tests/build/reader_util.h"
#include "tests/build/robust_util.h"

/* Builds a hierarchy with o, lints it, and returns the finding of rule (or
 * NULL); the doc and buffer are released by done(). */
static wb B;
static wl_doc *D;
static t_anim_hier_at AT;

static const wl_finding *run(const t_anim_hier_opts *o, const char *rule)
{
	t_w3d_init(&B);
	t_anim_hierarchy(&B, o, &AT);
	return t_anim_lint_find(&B, &D, rule);
}

static void done(void)
{
	t_anim_done(D, &B);
}

START_TEST(valid_is_clean)
{
	t_anim_hier_opts o = t_anim_hier_defaults(5);
	run(&o, "x");
	ck_assert_uint_eq(D->findings.count, 0);
	const w3d_model *m = D->model;
	ck_assert_uint_eq(m->hierarchy_count, 1);
	ck_assert_uint_eq(m->hierarchies[0]->pivot_count, 5);
	ck_assert_str_eq(m->hierarchies[0]->name, "SKEL");
	ck_assert_str_eq(m->hierarchies[0]->pivots[3].name, "BONE03");
	char path[128];
	wl_chunk_path(D, m->hierarchies[0]->pivots_chunk, 3, path, sizeof path);
	ck_assert_str_eq(path, "HIERARCHY[SKEL]/PIVOTS[3]");
	done();
}
END_TEST

enum { NO_HEADER = 1, HEADER_LAST = 2, INF_TRANSLATION = 4 };

/* One rule case: the hierarchy t_anim_hier_defaults(pivots) changed as the
 * fields say, linted, then the expectations. */
typedef struct hier_case {
	const char *name;
	unsigned pivots;
	unsigned flags;          /* NO_HEADER, HEADER_LAST, INF_TRANSLATION (pivot 1) */
	int64_t header_pivots;   /* non-zero: o.header_pivots */
	int64_t fixups;          /* non-zero: o.fixups */
	const uint32_t *parents; /* non-NULL: o.parents */
	float rot_scale;         /* non-zero: pivot 2's rotation scaled by it */
	t_expect e[2];
} hier_case;

#define NONE 0xFFFFFFFFu
#define PARENTS(...) ((const uint32_t[]){ __VA_ARGS__ })
/* Offset of field `field` of pivot i. */
#define PIVOT(i, field) T_AT(t_anim_hier_at, pivots_payload, (i) * 60 + (field))

static const hier_case cases[] = {
	{ "header_missing", 3, NO_HEADER,
	  .e = { { "hierarchy-header-missing", 1, T_AT(t_anim_hier_at, object, 0) } } },
	{ "header_present", 3, .e = { { "hierarchy-header-missing" } } },
	{ "header_not_first", 3, HEADER_LAST,
	  .e = { { "hierarchy-header-not-first", 1, T_AT(t_anim_hier_at, first_child, 0) } } },
	{ "header_first", 3, .e = { { "hierarchy-header-not-first" } } },
	{ "pivot_count", 3, .header_pivots = 4, .fixups = 4,
	  .e = { { "pivot-count-mismatch", 1, T_AT(t_anim_hier_at, header_payload, 20), .length = 4 } } },
	{ "pivot_count_ok", 4, .e = { { "pivot-count-mismatch" } } },
	{ "fixup_count", 3, .fixups = 2,
	  .e = { { "pivot-fixup-count-mismatch", 1, T_AT(t_anim_hier_at, fixups_payload, 0) } } },
	{ "no_fixups_is_fine", 3, .fixups = -2, .e = { { "pivot-fixup-count-mismatch" } } },
	{ "parent_out_of_range", 4, .parents = PARENTS(NONE, 0, 9, 1),
	  .e = { { "pivot-parent-out-of-range", 1, PIVOT(2, 16), .element = 2 } } },
	{ "parent_in_range", 4, .parents = PARENTS(NONE, 0, 1, 1),
	  .e = { { "pivot-parent-out-of-range" } } },
	{ "parent_order", 4, .parents = PARENTS(NONE, 3, 0, 0),
	  .e = { { "pivot-parent-order", 1, PIVOT(1, 16),
		   .message = "pivot 1 'BONE01' has parent 3, not lower than 1" } } },
	/* parent lower than the index */
	{ "parent_lower", 4, .parents = PARENTS(NONE, 0, 0, 0), .e = { { "pivot-parent-order" } } },
	{ "root_not_first", 3, .parents = PARENTS(2, 0, NONE),
	  .e = { { "pivot-root-not-first", 1, PIVOT(0, 16) } } },
	{ "root_first", 3, .parents = PARENTS(NONE, 0, 0), .e = { { "pivot-root-not-first" } } },
	{ "multiple_roots", 4, .parents = PARENTS(NONE, 0, NONE, 2),
	  .e = { { "pivot-multiple-roots", 1, PIVOT(2, 16), .element = 2 } } },
	{ "one_root", 4, .parents = PARENTS(NONE, 0, 0, 2), .e = { { "pivot-multiple-roots" } } },
	{ "quaternion_not_normalized", 4, .rot_scale = 1.01f,
	  .e = { { "quaternion-not-normalized", 1, PIVOT(2, 44), .length = 16 } } },
	/* inside the default tolerance 0.001 */
	{ "quaternion_within_tolerance", 4, .rot_scale = 1.0005f,
	  .e = { { "quaternion-not-normalized" } } },
	{ "quaternion_not_finite", 4, .rot_scale = NAN,
	  .e = { { "quaternion-not-finite", 1, PIVOT(2, 44) }, { "quaternion-not-normalized" } } },
	{ "quaternion_finite", 4, .rot_scale = 1.0f, .e = { { "quaternion-not-finite" } } },
	{ "translation_not_finite", 3, INF_TRANSLATION,
	  .e = { { "translation-not-finite", 1, PIVOT(1, 20) } } },
	{ "translation_finite", 3, .e = { { "translation-not-finite" } } },
};

START_TEST(rule_cases)
{
	const hier_case *c = &cases[_i];
	t_anim_hier_opts o = t_anim_hier_defaults(c->pivots);
	o.no_header = c->flags & NO_HEADER;
	o.header_last = c->flags & HEADER_LAST;
	if (c->header_pivots)
		o.header_pivots = c->header_pivots;
	if (c->fixups)
		o.fixups = c->fixups;
	o.parents = c->parents;
	if (c->rot_scale != 0.0f) {
		o.bad_rot_pivot = 2;
		o.rot_scale = c->rot_scale;
	}
	t_w3d_init(&B);
	t_anim_hierarchy(&B, &o, &AT);
	if (c->flags & INF_TRANSLATION)
		t_w3d_patch_f32(&B, AT.pivots_payload + 60 + 24, INFINITY);
	D = t_anim_lint(&B);
	t_expect_all(c->name, D, &AT, c->e, 2);
	done();
}
END_TEST

/* Every prefix and some byte flips of a valid file parse and lint. */
START_TEST(robust)
{
	t_anim_hier_opts o = t_anim_hier_defaults(4);
	t_w3d_init(&B);
	t_anim_hierarchy(&B, &o, &AT);
	t_robust_lint_variants(B.data, B.len, &(t_robust_opts){ t_anim_lint_bytes, wl_doc_free, 7, 500, t_robust_flip_bits });
	t_w3d_free(&B);
}
END_TEST

extern Suite *hierarchy_suite(void);
Suite *hierarchy_suite(void)
{
	const TTest *tests[] = {
		valid_is_clean, robust, NULL
	};
	Suite *s = t_robust_suite_of("hierarchy", "rules", 0, tests);
	t_robust_add_loop(s, "rule_cases", 0, rule_cases, (int)(sizeof cases / sizeof cases[0]));
	return s;
}
