/* check_hlod.c - tests of the HLOD / BOX decoders and rules
 * (lint/check_hlod.c), including the two broken HLOD sizes found in real
 * RotWK files. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/w3d/model.h"
#include "build_anim.h"
#include "robust_util.h"

static wb B;
static wl_doc *D;
static ba_hlod_at AT;

static const wl_finding *run(const ba_hlod_opts *o, const char *rule)
{
	wb_init(&B);
	ba_hlod(&B, o, &AT);
	return ba_lint_find(&B, &D, rule);
}

static void done(void)
{
	ba_done(D, &B);
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
	ba_hlod_opts o = ba_hlod_defaults(2, 3);
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

START_TEST(header_rules)
{
	ba_hlod_opts o = ba_hlod_defaults(1, 2);
	o.no_header = true;
	const wl_finding *f = run(&o, "hlod-header-missing");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.object);
	done();
	o = ba_hlod_defaults(1, 2);
	o.header_last = true;
	f = run(&o, "hlod-header-not-first");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.first_child);
	done();
	o = ba_hlod_defaults(1, 2);
	ck_assert_ptr_null(run(&o, "hlod-header-not-first"));
	ck_assert_ptr_null(ba_find(D, "hlod-header-missing"));
	done();
}
END_TEST

START_TEST(lod_count)
{
	ba_hlod_opts o = ba_hlod_defaults(2, 1);
	o.lod_count = 3;
	const wl_finding *f = run(&o, "hlod-lod-count-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.header_payload + 4);
	done();
	o.lod_count = 2;
	ck_assert_ptr_null(run(&o, "hlod-lod-count-mismatch"));
	done();
}
END_TEST

START_TEST(lod_contiguous)
{
	ba_hlod_opts o = ba_hlod_defaults(2, 1);
	o.aggregate_between = true;
	const wl_finding *f = run(&o, "hlod-lod-arrays-not-contiguous");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.array[1]);
	done();
	o = ba_hlod_defaults(2, 1); /* aggregates after the LOD arrays are fine */
	ck_assert_ptr_null(run(&o, "hlod-lod-arrays-not-contiguous"));
	done();
}
END_TEST

START_TEST(array_header)
{
	ba_hlod_opts o = ba_hlod_defaults(1, 2);
	o.no_array_header = true;
	const wl_finding *f = run(&o, "hlod-array-header-missing");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.array[0]);
	done();
	o.no_array_header = false;
	ck_assert_ptr_null(run(&o, "hlod-array-header-missing"));
	ck_assert_ptr_null(ba_find(D, "hlod-array-header-not-first"));
	done();
	/* header after the sub-objects: build by hand */
	wb_init(&B);
	wb_begin(&B, W3D_CHUNK_HLOD);
	wb_begin(&B, W3D_CHUNK_HLOD_HEADER);
	wb_u32(&B, 0x10000);
	wb_u32(&B, 1);
	wb_name(&B, "TANK", 16);
	wb_name(&B, "", 16);
	wb_end(&B);
	wb_begin(&B, W3D_CHUNK_HLOD_LOD_ARRAY);
	size_t sub = B.len;
	wb_begin(&B, W3D_CHUNK_HLOD_SUB_OBJECT);
	wb_u32(&B, 0);
	wb_name(&B, "TANK.A", 32);
	wb_end(&B);
	wb_begin(&B, W3D_CHUNK_HLOD_SUB_OBJECT_ARRAY_HEADER);
	wb_u32(&B, 1);
	wb_f32(&B, 0);
	wb_end(&B);
	wb_end(&B);
	wb_end(&B);
	D = ba_lint(&B);
	f = ba_find(D, "hlod-array-header-not-first");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, sub);
	done();
}
END_TEST

START_TEST(model_count)
{
	ba_hlod_opts o = ba_hlod_defaults(2, 3);
	o.model_count = 4;
	const wl_finding *f = run(&o, "hlod-model-count-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.array_header_payload[0]);
	done();
	o.model_count = 2;
	ck_assert_ptr_null(run(&o, "hlod-model-count-mismatch"));
	f = ba_find(D, "hlod-sub-objects-ignored");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, AT.array_header_payload[0]);
	done();
	o.model_count = 3;
	ck_assert_ptr_null(run(&o, "hlod-sub-objects-ignored"));
	done();
}
END_TEST

/* RotWK shape 1: the HLOD's size is too small, so its last sub-objects sit
 * after its declared end; the reader extends it and the decoder must still
 * find every sub-object. */
START_TEST(rotwk_size_too_small)
{
	ba_hlod_opts o = ba_hlod_defaults(1, 7);
	o.size_delta = -2 * 44;
	wb_init(&B);
	ba_hlod(&B, &o, &AT);
	/* a following object, as in the real files */
	ba_hier_at h;
	ba_hier_opts ho = ba_hier_defaults(2);
	ba_hierarchy(&B, &ho, &h);
	D = ba_lint(&B);
	const w3d_model *m = D->model;
	ck_assert_uint_eq(m->hlod_count, 1);
	ck_assert_uint_eq(total_subs(D), 7);
	ck_assert_uint_eq(m->hierarchy_count, 1);
	ck_assert_ptr_null(ba_find(D, "hlod-model-count-mismatch"));
	done();
}
END_TEST

/* RotWK shape 2: the HLOD's size runs past the end of the file. */
START_TEST(rotwk_size_past_eof)
{
	ba_hlod_opts o = ba_hlod_defaults(1, 8);
	o.size_delta = 924;
	run(&o, "x");
	const w3d_model *m = D->model;
	ck_assert_uint_eq(m->hlod_count, 1);
	ck_assert_uint_eq(total_subs(D), 8);
	ck_assert_ptr_null(ba_find(D, "hlod-model-count-mismatch"));
	done();
}
END_TEST

static void box(wb *b, uint32_t attr, float ex)
{
	wb_begin(b, W3D_CHUNK_BOX);
	wb_u32(b, 0x10000);
	wb_u32(b, attr);
	wb_name(b, "TANK.BOUNDINGBOX", 32);
	wb_u32(b, 0x00FF00FF);
	wb_vec3(b, 0, 0, 0);
	wb_vec3(b, ex, 1, 1);
	wb_end(b);
}

START_TEST(box_rules)
{
	wb_init(&B);
	box(&B, 3, 1);
	D = ba_lint(&B);
	const wl_finding *f = ba_find(D, "box-type-ambiguous");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, 12);
	ck_assert_str_eq(((const w3d_model *)D->model)->boxes[0]->name, "TANK.BOUNDINGBOX");
	done();
	wb_init(&B);
	box(&B, 1, -2);
	D = ba_lint(&B);
	ck_assert_ptr_null(ba_find(D, "box-type-ambiguous"));
	f = ba_find(D, "box-extent-negative");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, 8 + 56);
	done();
	wb_init(&B);
	box(&B, 2, 0);
	D = ba_lint(&B);
	ck_assert_ptr_null(ba_find(D, "box-extent-negative"));
	ck_assert_ptr_null(ba_find(D, "box-type-ambiguous"));
	done();
}
END_TEST

START_TEST(robust)
{
	ba_hlod_opts o = ba_hlod_defaults(2, 3);
	wb_init(&B);
	ba_hlod(&B, &o, &AT);
	box(&B, 1, 1);
	rb_lint_variants(B.data, B.len, &(rb_opts){ ba_lint_bytes, wl_doc_free, 5, 500, rb_flip_bits });
	wb_free(&B);
}
END_TEST

extern Suite *hlod_suite(void);
Suite *hlod_suite(void)
{
	const TTest *tests[] = {
		valid_is_clean, header_rules, lod_count, lod_contiguous, array_header, model_count,
		rotwk_size_too_small, rotwk_size_past_eof, box_rules, robust,
		NULL
	};
	return rb_suite_of("hlod", "rules", 0, tests, w3d_check_hlod_rules);
}
