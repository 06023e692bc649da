/* check_hierarchy.c - tests of the HIERARCHY decoder and rules
 * (lint/check_hierarchy.c): for each rule a case that fires (rule id and
 * offset asserted) and a near miss that does not. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/w3d/model.h"
#include "build_anim.h"
#include "robust_util.h"

/* Builds a hierarchy with o, lints it, and returns the finding of rule (or
 * NULL); the doc and buffer are released by done(). */
static wb B;
static wl_doc *D;
static ba_hier_at AT;

static const wl_finding *run(const ba_hier_opts *o, const char *rule)
{
	wb_init(&B);
	ba_hierarchy(&B, o, &AT);
	return ba_lint_find(&B, &D, rule);
}

static void done(void)
{
	ba_done(D, &B);
}

START_TEST(valid_is_clean)
{
	ba_hier_opts o = ba_hier_defaults(5);
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

START_TEST(header_missing)
{
	ba_hier_opts o = ba_hier_defaults(3);
	o.no_header = true;
	const wl_finding *f = run(&o, "hierarchy-header-missing");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.object);
	done();
	o = ba_hier_defaults(3);
	ck_assert_ptr_null(run(&o, "hierarchy-header-missing"));
	done();
}
END_TEST

START_TEST(header_not_first)
{
	ba_hier_opts o = ba_hier_defaults(3);
	o.header_last = true;
	const wl_finding *f = run(&o, "hierarchy-header-not-first");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.first_child);
	done();
	o = ba_hier_defaults(3);
	ck_assert_ptr_null(run(&o, "hierarchy-header-not-first"));
	done();
}
END_TEST

START_TEST(pivot_count)
{
	ba_hier_opts o = ba_hier_defaults(3);
	o.header_pivots = 4;
	o.fixups = 4;
	const wl_finding *f = run(&o, "pivot-count-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.header_payload + 20);
	ck_assert_uint_eq(f->length, 4);
	done();
	o = ba_hier_defaults(4);
	ck_assert_ptr_null(run(&o, "pivot-count-mismatch"));
	done();
}
END_TEST

START_TEST(fixup_count)
{
	ba_hier_opts o = ba_hier_defaults(3);
	o.fixups = 2;
	const wl_finding *f = run(&o, "pivot-fixup-count-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.fixups_payload);
	done();
	o = ba_hier_defaults(3);
	o.fixups = -2; /* no fixups at all is fine */
	ck_assert_ptr_null(run(&o, "pivot-fixup-count-mismatch"));
	done();
}
END_TEST

START_TEST(parent_out_of_range)
{
	uint32_t parents[4] = { 0xFFFFFFFFu, 0, 9, 1 };
	ba_hier_opts o = ba_hier_defaults(4);
	o.parents = parents;
	const wl_finding *f = run(&o, "pivot-parent-out-of-range");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.pivots_payload + 2 * 60 + 16);
	ck_assert_int_eq(f->element, 2);
	done();
	parents[2] = 1;
	ck_assert_ptr_null(run(&o, "pivot-parent-out-of-range"));
	done();
}
END_TEST

START_TEST(parent_order)
{
	uint32_t parents[4] = { 0xFFFFFFFFu, 3, 0, 0 };
	ba_hier_opts o = ba_hier_defaults(4);
	o.parents = parents;
	const wl_finding *f = run(&o, "pivot-parent-order");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.pivots_payload + 1 * 60 + 16);
	ck_assert_str_eq(f->message, "pivot 1 'BONE01' has parent 3, not lower than 1");
	done();
	parents[1] = 0; /* parent lower than the index */
	ck_assert_ptr_null(run(&o, "pivot-parent-order"));
	done();
}
END_TEST

START_TEST(root_not_first)
{
	uint32_t parents[3] = { 2, 0, 0xFFFFFFFFu };
	ba_hier_opts o = ba_hier_defaults(3);
	o.parents = parents;
	const wl_finding *f = run(&o, "pivot-root-not-first");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.pivots_payload + 16);
	done();
	uint32_t ok[3] = { 0xFFFFFFFFu, 0, 0 };
	o.parents = ok;
	ck_assert_ptr_null(run(&o, "pivot-root-not-first"));
	done();
}
END_TEST

START_TEST(multiple_roots)
{
	uint32_t parents[4] = { 0xFFFFFFFFu, 0, 0xFFFFFFFFu, 2 };
	ba_hier_opts o = ba_hier_defaults(4);
	o.parents = parents;
	const wl_finding *f = run(&o, "pivot-multiple-roots");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.pivots_payload + 2 * 60 + 16);
	ck_assert_int_eq(f->element, 2);
	done();
	parents[2] = 0;
	ck_assert_ptr_null(run(&o, "pivot-multiple-roots"));
	done();
}
END_TEST

START_TEST(quaternion)
{
	ba_hier_opts o = ba_hier_defaults(4);
	o.bad_rot_pivot = 2;
	o.rot_scale = 1.01f;
	const wl_finding *f = run(&o, "quaternion-not-normalized");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.pivots_payload + 2 * 60 + 44);
	ck_assert_uint_eq(f->length, 16);
	done();
	o.rot_scale = 1.0005f; /* inside the default tolerance 0.001 */
	ck_assert_ptr_null(run(&o, "quaternion-not-normalized"));
	done();
	o.rot_scale = NAN;
	f = run(&o, "quaternion-not-finite");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.pivots_payload + 2 * 60 + 44);
	ck_assert_ptr_null(ba_find(D, "quaternion-not-normalized"));
	done();
	o.rot_scale = 1.0f;
	ck_assert_ptr_null(run(&o, "quaternion-not-finite"));
	done();
}
END_TEST

START_TEST(translation)
{
	ba_hier_opts o = ba_hier_defaults(3);
	wb_init(&B);
	ba_hierarchy(&B, &o, &AT);
	wb_patch_f32(&B, AT.pivots_payload + 60 + 24, INFINITY);
	D = ba_lint(&B);
	const wl_finding *f = ba_find(D, "translation-not-finite");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.pivots_payload + 60 + 20);
	done();
	ck_assert_ptr_null(run(&o, "translation-not-finite"));
	done();
}
END_TEST

/* Every prefix and some byte flips of a valid file parse and lint. */
START_TEST(robust)
{
	ba_hier_opts o = ba_hier_defaults(4);
	wb_init(&B);
	ba_hierarchy(&B, &o, &AT);
	rb_lint_variants(B.data, B.len, &(rb_opts){ ba_lint_bytes, wl_doc_free, 7, 500, rb_flip_bits });
	wb_free(&B);
}
END_TEST

extern Suite *hierarchy_suite(void);
Suite *hierarchy_suite(void)
{
	const TTest *tests[] = {
		valid_is_clean, header_missing, header_not_first, pivot_count, fixup_count,
		parent_out_of_range, parent_order, root_not_first, multiple_roots, quaternion,
		translation, robust, NULL
	};
	return rb_suite_of("hierarchy", "rules", 0, tests, w3d_check_hierarchy_rules);
}
