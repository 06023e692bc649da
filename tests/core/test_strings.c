/* tests/core/test_strings.c - tests of the name and string rules
 * (lint/w3d/check_strings.c). */
#include <check.h>
#include <string.h>

#include "core/w3d/model.h"
#include "tests/build/build_objects.h"
#include "tests/build/reader_util.h"
#include "tests/build/robust_util.h"


static wb B;
static wl_doc *D;

static void lint_b(void)
{
	D = t_obj_lint(&B);
	ck_assert_ptr_nonnull(D);
}

static void done(void)
{
	t_obj_free(D);
	t_w3d_free(&B);
	D = NULL;
}

/* A NULL_OBJECT whose 32-byte Name field holds name (NUL-padded, cut at 32). */
static size_t null_named(const char *name)
{
	size_t at = B.len;
	t_w3d_begin(&B, W3D_OBJ_CHUNK_NULL_OBJECT);
	t_w3d_u32(&B, 0x10000);
	t_w3d_u32(&B, 0);
	t_w3d_zeros(&B, 8);
	t_w3d_name(&B, name, 32);
	t_w3d_end(&B);
	return at;
}

START_TEST(fixed_field_not_terminated)
{
	static const char n32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"; /* 32 chars */
	t_w3d_init(&B);
	size_t at = null_named(n32);
	lint_b();
	const wl_finding *f = t_find(D, "name-not-terminated");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, at + 8 + 16);
	ck_assert_uint_eq(f->length, 32);
	ck_assert_ptr_nonnull(strstr(f->message, "null object Name"));
	done();
	t_w3d_init(&B); /* near miss: 31 characters and the NUL */
	null_named("ABCDEFGHIJKLMNOPQRSTUVWXYZ01234");
	lint_b();
	ck_assert_uint_eq(D->findings.count, 0);
	done();
}
END_TEST

START_TEST(pivot_element)
{
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_CHUNK_HIERARCHY);
	t_w3d_hierarchy_header(&B, "SKEL", 2);
	t_w3d_begin(&B, W3D_CHUNK_PIVOTS);
	size_t piv = B.len;
	for (int i = 0; i < 2; i++) {
		t_w3d_name(&B, i ? "BONE_0123456789A" : "ROOTTRANSFORM", 16); /* pivot 1: 16 chars */
		t_w3d_u32(&B, i ? 0 : 0xFFFFFFFFu);
		t_w3d_zeros(&B, 24);
		t_w3d_f32(&B, 0);
		t_w3d_f32(&B, 0);
		t_w3d_f32(&B, 0);
		t_w3d_f32(&B, 1);
	}
	t_w3d_end(&B);
	t_w3d_end(&B);
	lint_b();
	ck_assert_uint_eq(t_count(D, "name-not-terminated"), 1);
	const wl_finding *f = t_find(D, "name-not-terminated");
	ck_assert_uint_eq(f->offset, piv + 60);
	ck_assert_int_eq(f->element, 1);
	done();
}
END_TEST

START_TEST(bad_characters)
{
	t_w3d_init(&B);
	size_t at = null_named("OBJ\tNULL");
	lint_b();
	const wl_finding *f = t_find(D, "name-bad-characters");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, at + 8 + 16 + 3);
	ck_assert_uint_eq(t_count(D, "name-not-terminated"), 0);
	done();
	t_w3d_init(&B);
	null_named("OBJ NULL_1.A");
	lint_b();
	ck_assert_uint_eq(t_count(D, "name-bad-characters"), 0);
	done();
}
END_TEST

/* A mesh with one texture whose TEXTURE_NAME holds n bytes (the last one
 * NUL when terminated) and one vertex material with MAPPER_ARGS0 text;
 * *name_at / *args_at get the chunk header offsets. */
static void texture_mesh(size_t n, int terminated, int args_terminated, size_t *name_at, size_t *args_at)
{
	char buf[400];
	memset(buf, 'A', sizeof buf);
	if (terminated && n)
		buf[n - 1] = '\0';
	t_w3d_begin(&B, W3D_CHUNK_MESH);
	t_w3d_begin(&B, W3D_CHUNK_VERTEX_MATERIALS);
	t_w3d_begin(&B, W3D_CHUNK_VERTEX_MATERIAL);
	t_w3d_chunk(&B, W3D_CHUNK_VERTEX_MATERIAL_NAME, "MAT", 4);
	t_w3d_begin(&B, W3D_CHUNK_VERTEX_MATERIAL_INFO);
	t_w3d_zeros(&B, 32);
	t_w3d_end(&B);
	*args_at = B.len;
	t_w3d_chunk(&B, W3D_CHUNK_VERTEX_MAPPER_ARGS0, "UPerSec=1\0", args_terminated ? 10 : 9);
	t_w3d_end(&B);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_CHUNK_TEXTURES);
	t_w3d_begin(&B, W3D_CHUNK_TEXTURE);
	*name_at = B.len;
	t_w3d_chunk(&B, W3D_CHUNK_TEXTURE_NAME, buf, n);
	t_w3d_end(&B);
	t_w3d_end(&B);
	t_w3d_end(&B);
}

START_TEST(string_chunks)
{
	size_t name_at, args_at;
	t_w3d_init(&B);
	texture_mesh(300, 1, 1, &name_at, &args_at);
	lint_b();
	const wl_finding *f = t_find(D, "name-too-long");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, name_at);
	ck_assert_uint_eq(t_count(D, "name-not-terminated"), 0);
	done();
	t_w3d_init(&B); /* near miss: exactly 256 bytes */
	texture_mesh(256, 1, 1, &name_at, &args_at);
	lint_b();
	ck_assert_uint_eq(D->findings.count, 0);
	done();
	t_w3d_init(&B);
	texture_mesh(5, 0, 1, &name_at, &args_at);
	lint_b();
	f = t_find(D, "name-not-terminated");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, name_at);
	ck_assert_uint_eq(t_count(D, "text-not-terminated"), 0);
	done();
	t_w3d_init(&B);
	texture_mesh(5, 1, 0, &name_at, &args_at);
	lint_b();
	f = t_find(D, "text-not-terminated");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, args_at);
	ck_assert_uint_eq(t_count(D, "name-not-terminated"), 0);
	const w3d_model *m = D->model;
	ck_assert(!m->meshes[0]->materials.vertex_materials[0].mapper_args_terminated[0]);
	ck_assert(m->meshes[0]->materials.textures[0].name_terminated);
	done();
}
END_TEST

START_TEST(dazzle_name_chunk)
{
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_DAZZLE);
	size_t at = B.len;
	t_w3d_chunk(&B, W3D_OBJ_CHUNK_DAZZLE_NAME, "OBJ.DAZ", 7);
	t_w3d_end(&B);
	lint_b();
	const wl_finding *f = t_find(D, "name-not-terminated");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, at);
	done();
	t_w3d_init(&B);
	t_obj_dazzle(&B, true);
	lint_b();
	ck_assert_uint_eq(D->findings.count, 0);
	done();
}
END_TEST

START_TEST(robust)
{
	size_t a, b;
	t_w3d_init(&B);
	texture_mesh(20, 1, 1, &a, &b);
	null_named("OBJ.NULL");
	t_obj_dazzle(&B, true);
	t_robust_lint_variants(B.data, B.len, &(t_robust_opts){ t_obj_lint_bytes, t_obj_free, 7, 300, t_robust_flip_bits });
	t_w3d_free(&B);
}
END_TEST

extern Suite *strings_suite(void);
Suite *strings_suite(void)
{
	const TTest *tests[] = { fixed_field_not_terminated, pivot_element, bad_characters, string_chunks,
				 dazzle_name_chunk, robust, NULL };
	return t_robust_suite_of("strings", "rules", 0, tests);
}
