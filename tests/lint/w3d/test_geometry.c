/* tests/lint/w3d/test_geometry.c - tests of the MESH geometry rules
 * (lint/w3d/check_geometry.c, rules/geometry.yaml): for each rule a case that
 * fires (rule id, offset and length asserted) and a near miss that does
 * not, the skin exemptions, and a robustness sweep.  The mesh is the valid
 * unit square of tests/build/build_mesh.h, patched; files are linted with the
 * whole engine and the built-in catalogue (wl_lint_bytes). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/model.h"
#include "lint/lint.h"
#include "tests/build/build_anim.h"
#include "tests/build/build_mesh.h"
#include "tests/build/reader_util.h"
#include "tests/build/robust_util.h"

extern Suite *geometry_suite(void);

static const char *const MY_RULES[] = { "mesh-bounds-box", "mesh-bounds-sphere", "triangle-plane",
					"triangle-degenerate", "float-not-finite", "vertex-normal-length" };

static wb B;
static t_mesh_layout L;
static wl_catalog *CAT;
static uint8_t *COPY;
static wl_doc *D;

/* Starts a fresh valid mesh in B (layout in L). */
static void start(const t_mesh_opts *o)
{
	static const t_mesh_opts none;
	t_w3d_init(&B);
	t_mesh_write_mesh(&B, o ? o : &none, &L);
}

/* Lints B with every check and the built-in catalogue into D. */
static void lint(void)
{
	char err[256];
	CAT = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(CAT != NULL, "%s", err);
	COPY = t_copy(B.data, B.len);
	D = wl_lint_bytes(CAT, NULL, "test.w3d", COPY, B.len);
	ck_assert_ptr_nonnull(D);
}

static void done(void)
{
	wl_doc_free(D);
	free(COPY);
	wl_catalog_free(CAT);
	t_w3d_free(&B);
	D = NULL;
}

/* The one finding of rule (fails when there are several), or NULL. */
static const wl_finding *one(const char *rule)
{
	ck_assert_uint_le(t_count(D, rule), 1);
	return t_find(D, rule);
}

/* Offsets in the square mesh. */
static size_t hdr(size_t field) { return L.header_data + field; }
static size_t vert(size_t i) { return L.vertices + 8 + 12 * i; }
static size_t tri(size_t i) { return L.tris_data + 32 * i; }
static size_t normal(size_t i) { return L.normals + 8 + 12 * i; }

static void patch_vec(size_t off, float x, float y, float z)
{
	t_w3d_patch_f32(&B, off, x);
	t_w3d_patch_f32(&B, off + 4, y);
	t_w3d_patch_f32(&B, off + 8, z);
}

START_TEST(valid_is_clean)
{
	start(NULL);
	lint();
	for (size_t i = 0; i < sizeof MY_RULES / sizeof MY_RULES[0]; i++)
		ck_assert_msg(t_count(D, MY_RULES[i]) == 0, "%s fired on the valid mesh", MY_RULES[i]);
	done();
}
END_TEST

START_TEST(bounds_box)
{
	/* vertex 2 moved 0.01 past Max.x = 1 */
	start(NULL);
	patch_vec(vert(2), 1.01f, 1, 0);
	lint();
	const wl_finding *f = one("mesh-bounds-box");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, hdr(76));
	ck_assert_uint_eq(f->length, 24);
	ck_assert_int_eq(f->severity, WL_SEV_WARNING);
	ck_assert_ptr_nonnull(strstr(f->message, "vertex 2"));
	done();
	/* near miss: 0.0005 outside, inside the default tolerance 0.001 */
	start(NULL);
	patch_vec(vert(2), 1.0005f, 1, 0);
	lint();
	ck_assert_ptr_null(one("mesh-bounds-box"));
	done();
	/* Min above Max */
	start(NULL);
	patch_vec(hdr(76), 0, 2, 0);
	lint();
	f = one("mesh-bounds-box");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(strstr(f->message, "min y 2 is above max y 1"));
	done();
	/* skins are exempt: same defect with geometry type SKIN */
	start(NULL);
	patch_vec(vert(2), 5, 5, 5);
	t_w3d_patch_u32(&B, hdr(4), 0x00020000u);
	lint();
	ck_assert_ptr_null(one("mesh-bounds-box"));
	ck_assert_ptr_null(one("mesh-bounds-sphere"));
	done();
	/* ... and with VERTEX_INFLUENCES (two-bone layout) */
	t_mesh_opts o = { 0 };
	o.two_bone = 1;
	start(&o);
	patch_vec(vert(2), 5, 5, 5);
	lint();
	ck_assert_ptr_null(one("mesh-bounds-box"));
	done();
}
END_TEST

START_TEST(bounds_sphere)
{
	/* radius 0.5 < distance sqrt(0.5) of every corner from (0.5, 0.5, 0) */
	start(NULL);
	t_w3d_patch_f32(&B, hdr(112), 0.5f);
	lint();
	const wl_finding *f = one("mesh-bounds-sphere");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, hdr(100));
	ck_assert_uint_eq(f->length, 16);
	ck_assert_ptr_nonnull(strstr(f->message, "the farthest"));
	ck_assert_ptr_null(one("mesh-bounds-box"));
	done();
	/* near miss: radius 0.7066, 0.0005 short of sqrt(0.5) = 0.70711 */
	start(NULL);
	t_w3d_patch_f32(&B, hdr(112), 0.7066f);
	lint();
	ck_assert_ptr_null(one("mesh-bounds-sphere"));
	done();
	/* a negative radius */
	start(NULL);
	t_w3d_patch_f32(&B, hdr(112), -1.0f);
	lint();
	f = one("mesh-bounds-sphere");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(strstr(f->message, "negative"));
	done();
}
END_TEST

START_TEST(plane)
{
	/* triangle 1's normal flipped */
	start(NULL);
	patch_vec(tri(1) + 16, 0, 0, -1);
	lint();
	const wl_finding *f = one("triangle-plane");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, tri(1) + 16);
	ck_assert_uint_eq(f->length, 16);
	ck_assert_int_eq(f->element, 1);
	ck_assert_int_eq(f->severity, WL_SEV_INFO);
	done();
	/* one more wrong plane, one more finding, at its own triangle */
	start(NULL);
	patch_vec(tri(1) + 16, 0, 0, -1);
	patch_vec(tri(0) + 16, 0, 0, -1);
	lint();
	ck_assert_uint_eq(t_count(D, "triangle-plane"), 2);
	ck_assert_uint_eq(t_find(D, "triangle-plane")->offset, tri(0) + 16);
	done();
	/* near miss: a normal off by 0.0005 */
	start(NULL);
	patch_vec(tri(1) + 16, 0.0005f, 0, 1);
	lint();
	ck_assert_ptr_null(one("triangle-plane"));
	done();
	/* the Blender plugin's Dist = |centroid| (triangle 0: |(2/3, 1/3, 0)|) */
	start(NULL);
	t_w3d_patch_f32(&B, tri(0) + 28, (float)sqrt(5.0 / 9.0));
	lint();
	f = one("triangle-plane");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, tri(0) + 16);
	ck_assert_int_lt(f->severity, WL_SEV_ERROR);
	done();
	/* skins are exempt */
	start(NULL);
	patch_vec(tri(1) + 16, 0, 0, -1);
	t_w3d_patch_u32(&B, hdr(4), 0x00020000u);
	lint();
	ck_assert_ptr_null(one("triangle-plane"));
	done();
}
END_TEST

START_TEST(degenerate)
{
	/* triangle 1 = (0, 2, 2): repeated index */
	start(NULL);
	t_w3d_patch_u32(&B, tri(1) + 8, 2);
	lint();
	const wl_finding *f = one("triangle-degenerate");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, tri(1));
	ck_assert_uint_eq(f->length, 12);
	ck_assert_int_eq(f->element, 1);
	ck_assert_ptr_nonnull(strstr(f->message, "repeats a vertex index"));
	ck_assert_ptr_null(one("triangle-plane")); /* no plane to compare */
	done();
	/* collinear: vertex 3 moved onto the diagonal 0-2 */
	start(NULL);
	patch_vec(vert(3), 0.5f, 0.5f, 0);
	lint();
	f = one("triangle-degenerate");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, tri(1));
	done();
	/* near miss: thin but not degenerate (height/edge about 1e-4) */
	start(NULL);
	patch_vec(vert(3), 0.5f, 0.5002f, 0);
	lint();
	ck_assert_ptr_null(one("triangle-degenerate"));
	done();
	/* skins: a repeated index still counts */
	start(NULL);
	t_w3d_patch_u32(&B, tri(1) + 8, 2);
	t_w3d_patch_u32(&B, hdr(4), 0x00020000u);
	lint();
	ck_assert_ptr_nonnull(one("triangle-degenerate"));
	done();
}
END_TEST

START_TEST(not_finite)
{
	/* a NaN vertex */
	start(NULL);
	t_w3d_patch_f32(&B, vert(3) + 4, NAN);
	lint();
	const wl_finding *f = one("float-not-finite");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, vert(3));
	ck_assert_uint_eq(f->length, 12);
	ck_assert_int_eq(f->severity, WL_SEV_ERROR);
	ck_assert_ptr_null(one("mesh-bounds-box")); /* the NaN vertex is skipped */
	done();
	/* an infinite triangle Dist */
	start(NULL);
	t_w3d_patch_f32(&B, tri(0) + 28, INFINITY);
	lint();
	f = one("float-not-finite");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, tri(0) + 16);
	done();
	/* a NaN header radius: float-not-finite and mesh-bounds-sphere */
	start(NULL);
	t_w3d_patch_f32(&B, hdr(112), NAN);
	lint();
	f = one("float-not-finite");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, hdr(76));
	ck_assert_ptr_nonnull(one("mesh-bounds-sphere"));
	done();
	/* near miss: huge but finite */
	start(NULL);
	t_w3d_patch_f32(&B, normal(0), 3e38f);
	lint();
	ck_assert_ptr_null(one("float-not-finite"));
	done();
}
END_TEST

START_TEST(not_finite_animation)
{
	/* raw X channel value 3 set to NaN (channel 0 data at +12) */
	t_anim_anim_opts o = t_anim_anim_defaults();
	t_anim_anim_at at;
	t_w3d_init(&B);
	t_anim_animation(&B, &o, &at);
	t_w3d_patch_f32(&B, at.x_payload + 12 + 4 * 3, NAN);
	lint();
	const wl_finding *f = one("float-not-finite");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, at.x_payload + 12 + 12);
	ck_assert_int_eq(f->element, 3);
	done();
	/* near miss: the same file unpatched */
	t_w3d_init(&B);
	t_anim_animation(&B, &o, &at);
	lint();
	ck_assert_ptr_null(one("float-not-finite"));
	done();
	/* time-coded X key 2 value infinite: key packets of 8 bytes at +8 */
	t_anim_canim_opts co = t_anim_canim_defaults(0);
	t_anim_canim_at cat;
	t_w3d_init(&B);
	t_anim_compressed_animation(&B, &co, &cat);
	t_w3d_patch_f32(&B, cat.x_payload + 8 + 2 * 8 + 4, -INFINITY);
	lint();
	f = one("float-not-finite");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, cat.x_payload + 8 + 2 * 8 + 4);
	done();
	/* adaptive delta: a NaN Scale (X channel, header field at +8) */
	co = t_anim_canim_defaults(1);
	t_w3d_init(&B);
	t_anim_compressed_animation(&B, &co, &cat);
	t_w3d_patch_f32(&B, cat.x_payload + 8, NAN);
	lint();
	f = one("float-not-finite");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, cat.x_payload + 8);
	done();
}
END_TEST

START_TEST(normal_length)
{
	start(NULL);
	patch_vec(normal(2), 0, 0, 0);
	lint();
	const wl_finding *f = one("vertex-normal-length");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, normal(2));
	ck_assert_uint_eq(f->length, 12);
	ck_assert_int_eq(f->element, 2);
	done();
	/* one more zero normal, one more finding */
	start(NULL);
	patch_vec(normal(2), 0, 0, 0);
	patch_vec(normal(3), 0, 0, 0);
	lint();
	ck_assert_uint_eq(t_count(D, "vertex-normal-length"), 2);
	done();
	start(NULL);
	patch_vec(normal(1), 0, 0, 1.02f);
	lint();
	f = one("vertex-normal-length");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, normal(1));
	done();
	/* near miss: length 1.005, inside the default tolerance 0.01 */
	start(NULL);
	patch_vec(normal(1), 0, 0, 1.005f);
	lint();
	ck_assert_ptr_null(one("vertex-normal-length"));
	done();
}
END_TEST

/* Robustness: truncations and bit flips of a mesh whose geometry rules all
 * fire, linted by the whole engine. */
static wl_catalog *SWEEP_CAT;

static wl_doc *sweep_lint(const uint8_t *p, size_t n)
{
	uint8_t *copy = t_copy(p, n);
	wl_doc *d = wl_lint_bytes(SWEEP_CAT, NULL, "fuzz.w3d", copy, n);
	if (!d)
		free(copy);
	return d;
}

static void sweep_free(wl_doc *d)
{
	const uint8_t *bytes = d->bytes;
	wl_doc_free(d);
	free((void *)(uintptr_t)bytes);
}

START_TEST(robust)
{
	char err[256];
	SWEEP_CAT = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_ptr_nonnull(SWEEP_CAT);
	start(NULL);
	patch_vec(vert(2), 1.5f, 1, 0);
	t_w3d_patch_f32(&B, hdr(112), 0.2f);
	patch_vec(tri(1) + 16, 1, 0, 0);
	t_w3d_patch_f32(&B, vert(3), NAN);
	patch_vec(normal(0), 0, 0, 0);
	t_robust_lint_variants(B.data, B.len, &(t_robust_opts){ sweep_lint, sweep_free, 4242, 1500, NULL });
	t_w3d_free(&B);
	wl_catalog_free(SWEEP_CAT);
}
END_TEST

Suite *geometry_suite(void)
{
	const TTest *tests[] = { valid_is_clean, bounds_box, bounds_sphere, plane, degenerate,
					      not_finite, not_finite_animation, normal_length, robust, NULL };
	return t_robust_suite_of("geometry", "rules", 120, tests);
}
