/* tests/lint/w3d/test_hlod.c - tests of the HLOD / BOX decoders and rules
 * (lint/w3d/check_hlod.c), including the two broken HLOD sizes found in real
 * RotWK files. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/model.h"
#include "tests/build/build_anim.h"
#include "tests/build/reader_util.h"
#include "tests/build/robust_util.h"

static wb B;
static wl_doc *D;
static t_anim_hlod_at AT;

static const wl_finding *run(const t_anim_hlod_opts *o, const char *rule)
{
	t_w3d_init(&B);
	t_anim_hlod(&B, o, &AT);
	return t_anim_lint_find(&B, &D, rule);
}

static void done(void)
{
	t_anim_done(D, &B);
}

static size_t total_subs(const wl_doc *d)
{
	const w3d_model *m = d->model;
	size_t n = 0;
	for (size_t i = 0; i < m->hlod_count; i++)
		n += w3d_hlod_sub_object_count(m->hlods[i]);
	return n;
}

START_TEST(valid_is_clean)
{
	t_anim_hlod_opts o = t_anim_hlod_defaults(2, 3);
	run(&o, "x");
	ck_assert_uint_eq(D->findings.count, 0);
	const w3d_model *m = D->model;
	ck_assert_uint_eq(m->hlod_count, 1);
	ck_assert_uint_eq(m->hlods[0]->lod_array_count, 2);
	ck_assert_str_eq(m->hlods[0]->lods[1].subs[2].name, "TANK.PART02");
	ck_assert_uint_eq(total_subs(D), 6);
	done();
}
END_TEST

enum { NO_HEADER = 1, HEADER_LAST = 2, AGGREGATE_BETWEEN = 4, NO_ARRAY_HEADER = 8 };

/* One rule case: the HLOD t_anim_hlod_defaults(lods, subs) changed as the
 * fields say, linted, then the expectations. */
typedef struct hlod_case {
	const char *name;
	unsigned lods, subs;
	unsigned flags;      /* NO_HEADER, HEADER_LAST, AGGREGATE_BETWEEN, NO_ARRAY_HEADER */
	int64_t lod_count;   /* non-zero: o.lod_count */
	int64_t model_count; /* non-zero: o.model_count */
	t_expect e[2];
} hlod_case;

#define HAT(member, add) T_AT(t_anim_hlod_at, member, add)

static const hlod_case cases[] = {
	{ "header_missing", 1, 2, NO_HEADER, .e = { { "hlod-header-missing", 1, HAT(object, 0) } } },
	{ "header_not_first", 1, 2, HEADER_LAST,
	  .e = { { "hlod-header-not-first", 1, HAT(first_child, 0) } } },
	{ "header_first", 1, 2, .e = { { "hlod-header-not-first" }, { "hlod-header-missing" } } },
	{ "lod_count", 2, 1, .lod_count = 3,
	  .e = { { "hlod-lod-count-mismatch", 1, HAT(header_payload, 4) } } },
	{ "lod_count_ok", 2, 1, .lod_count = 2, .e = { { "hlod-lod-count-mismatch" } } },
	{ "lod_not_contiguous", 2, 1, AGGREGATE_BETWEEN,
	  .e = { { "hlod-lod-arrays-not-contiguous", 1, HAT(array[1], 0) } } },
	/* aggregates after the LOD arrays are fine */
	{ "lod_contiguous", 2, 1, .e = { { "hlod-lod-arrays-not-contiguous" } } },
	{ "array_header_missing", 1, 2, NO_ARRAY_HEADER,
	  .e = { { "hlod-array-header-missing", 1, HAT(array[0], 0) } } },
	{ "array_header_first", 1, 2,
	  .e = { { "hlod-array-header-missing" }, { "hlod-array-header-not-first" } } },
	{ "model_count", 2, 3, .model_count = 4,
	  .e = { { "hlod-model-count-mismatch", 1, HAT(array_header_payload[0], 0) } } },
	{ "model_count_lower", 2, 3, .model_count = 2,
	  .e = { { "hlod-model-count-mismatch" },
		 { "hlod-sub-objects-ignored", 1, HAT(array_header_payload[0], 0) } } },
	{ "model_count_ok", 2, 3, .model_count = 3, .e = { { "hlod-sub-objects-ignored" } } },
};

START_TEST(rule_cases)
{
	const hlod_case *c = &cases[_i];
	t_anim_hlod_opts o = t_anim_hlod_defaults(c->lods, c->subs);
	o.no_header = c->flags & NO_HEADER;
	o.header_last = c->flags & HEADER_LAST;
	o.aggregate_between = c->flags & AGGREGATE_BETWEEN;
	o.no_array_header = c->flags & NO_ARRAY_HEADER;
	if (c->lod_count)
		o.lod_count = c->lod_count;
	if (c->model_count)
		o.model_count = c->model_count;
	run(&o, "x");
	t_expect_all(c->name, D, &AT, c->e, 2);
	done();
}
END_TEST

/* The array header after the sub-objects: built by hand. */
START_TEST(array_header_not_first)
{
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_CHUNK_HLOD);
	t_w3d_begin(&B, W3D_CHUNK_HLOD_HEADER);
	t_w3d_u32(&B, 0x10000);
	t_w3d_u32(&B, 1);
	t_w3d_name(&B, "TANK", 16);
	t_w3d_name(&B, "", 16);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_CHUNK_HLOD_LOD_ARRAY);
	size_t sub = B.len;
	t_w3d_hlod_sub_object(&B, 0, "TANK.A");
	t_w3d_hlod_array_header(&B, 1, 0);
	t_w3d_end(&B);
	t_w3d_end(&B);
	D = t_anim_lint(&B);
	const wl_finding *f = t_anim_find(D, "hlod-array-header-not-first");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, sub);
	done();
}
END_TEST

/* RotWK shape 1: the HLOD's size is too small, so its last sub-objects sit
 * after its declared end; the reader extends it and the decoder must still
 * find every sub-object. */
START_TEST(rotwk_size_too_small)
{
	t_anim_hlod_opts o = t_anim_hlod_defaults(1, 7);
	o.size_delta = -2 * 44;
	t_w3d_init(&B);
	t_anim_hlod(&B, &o, &AT);
	/* a following object, as in the real files */
	t_anim_hier_at h;
	t_anim_hier_opts ho = t_anim_hier_defaults(2);
	t_anim_hierarchy(&B, &ho, &h);
	D = t_anim_lint(&B);
	const w3d_model *m = D->model;
	ck_assert_uint_eq(m->hlod_count, 1);
	ck_assert_uint_eq(total_subs(D), 7);
	ck_assert_uint_eq(m->hierarchy_count, 1);
	ck_assert_ptr_null(t_anim_find(D, "hlod-model-count-mismatch"));
	done();
}
END_TEST

/* RotWK shape 2: the HLOD's size runs past the end of the file. */
START_TEST(rotwk_size_past_eof)
{
	t_anim_hlod_opts o = t_anim_hlod_defaults(1, 8);
	o.size_delta = 924;
	run(&o, "x");
	const w3d_model *m = D->model;
	ck_assert_uint_eq(m->hlod_count, 1);
	ck_assert_uint_eq(total_subs(D), 8);
	ck_assert_ptr_null(t_anim_find(D, "hlod-model-count-mismatch"));
	done();
}
END_TEST

static void box(wb *b, uint32_t attr, float ex)
{
	t_w3d_begin(b, W3D_CHUNK_BOX);
	t_w3d_u32(b, 0x10000);
	t_w3d_u32(b, attr);
	t_w3d_name(b, "TANK.BOUNDINGBOX", 32);
	t_w3d_u32(b, 0x00FF00FF);
	t_w3d_vec3(b, 0, 0, 0);
	t_w3d_vec3(b, ex, 1, 1);
	t_w3d_end(b);
}

/* BOX cases: box(attr, extent x), then the expectations (absolute offsets). */
typedef struct box_case {
	const char *name;
	uint32_t attr;
	float ex;
	t_expect e[2];
} box_case;

static const box_case boxes[] = {
	{ "type_ambiguous", 3, 1, { { "box-type-ambiguous", 1, 0, 12 } } },
	{ "extent_negative", 1, -2, { { "box-type-ambiguous" }, { "box-extent-negative", 1, 0, 8 + 56 } } },
	{ "clean", 2, 0, { { "box-extent-negative" }, { "box-type-ambiguous" } } },
};

START_TEST(box_rules)
{
	const box_case *c = &boxes[_i];
	t_w3d_init(&B);
	box(&B, c->attr, c->ex);
	D = t_anim_lint(&B);
	t_expect_all(c->name, D, NULL, c->e, 2);
	ck_assert_str_eq(((const w3d_model *)D->model)->boxes[0]->name, "TANK.BOUNDINGBOX");
	done();
}
END_TEST

START_TEST(robust)
{
	t_anim_hlod_opts o = t_anim_hlod_defaults(2, 3);
	t_w3d_init(&B);
	t_anim_hlod(&B, &o, &AT);
	box(&B, 1, 1);
	t_robust_lint_variants(B.data, B.len, &(t_robust_opts){ t_anim_lint_bytes, wl_doc_free, 5, 500, t_robust_flip_bits });
	t_w3d_free(&B);
}
END_TEST

extern Suite *hlod_suite(void);
Suite *hlod_suite(void)
{
	const TTest *tests[] = {
		valid_is_clean, array_header_not_first, rotwk_size_too_small, rotwk_size_past_eof,
		robust, NULL
	};
	Suite *s = t_robust_suite_of("hlod", "rules", 0, tests);
	t_robust_add_loop(s, "rule_cases", 0, rule_cases, (int)(sizeof cases / sizeof cases[0]));
	t_robust_add_loop(s, "box_rules", 0, box_rules, (int)(sizeof boxes / sizeof boxes[0]));
	return s;
}
