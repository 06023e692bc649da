/* tests/lint/w3d/test_mesh.c - MESH decoding and the rules of lint/w3d/check_mesh.c: for each
 * rule a case that fires (rule id and offset) and a near miss that does not. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/w3d/model.h"
#include "tests/build/build_mesh.h"
#include "tests/build/robust_util.h"

/* Builds the mesh with o, lets patch edit it, lints it. */
static wl_doc *run(const t_mesh_opts *o, t_mesh_layout *lay)
{
	wb b;
	t_w3d_init(&b);
	t_mesh_write_mesh(&b, o, lay);
	wl_doc *d = t_mesh_lint(&b);
	t_w3d_free(&b);
	return d;
}

static const w3d_mesh *mesh0(const wl_doc *d)
{
	const w3d_model *m = d->model;
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->mesh_count, 1);
	return m->meshes[0];
}

START_TEST(valid_mesh_is_clean_and_decoded)
{
	t_mesh_opts o = { .aabtree = 1 };
	t_mesh_layout lay;
	wl_doc *d = run(&o, &lay);
	if (d->findings.count)
		t_mesh_dump(d);
	ck_assert_uint_eq(d->findings.count, 0);
	const w3d_mesh *m = mesh0(d);
	ck_assert_str_eq(m->name, "TANK.BODY");
	ck_assert_uint_eq(m->header.num_tris, 2);
	ck_assert_uint_eq(m->header.num_vertices, 4);
	ck_assert_uint_eq(m->header.version, 0x00040002);
	ck_assert(m->header.mesh_name_terminated);
	ck_assert_uint_eq(m->vertices.count, 4);
	ck_assert(m->vertices.v[2].x == 1.0f && m->vertices.v[2].y == 1.0f);
	ck_assert_uint_eq(m->normals.count, 4);
	ck_assert_uint_eq(m->triangle_count, 2);
	ck_assert_uint_eq(m->triangles[1].vindex[2], 3);
	ck_assert_uint_eq(m->shade_indices.count, 4);
	ck_assert_uint_eq(m->materials.info.pass_count, 1);
	ck_assert_uint_eq(m->materials.shaders.count, 1);
	ck_assert_uint_eq(m->materials.shaders.v[0].depth_compare, 3);
	ck_assert_uint_eq(m->materials.vertex_material_count, 1);
	ck_assert_str_eq(m->materials.vertex_materials[0].name, "Paint");
	ck_assert(m->materials.vertex_materials[0].info.opacity == 1.0f);
	ck_assert_uint_eq(m->materials.texture_count, 1);
	ck_assert_str_eq(m->materials.textures[0].name, "tank.tga");
	ck_assert_uint_eq(m->materials.pass_count, 1);
	ck_assert_uint_eq(m->materials.passes[0].stage_count, 1);
	ck_assert_uint_eq(m->materials.passes[0].stages[0].texture_ids.count, 2);
	ck_assert_uint_eq(m->materials.passes[0].stages[0].texcoords.count, 4);
	ck_assert_uint_eq(m->materials.passes[0].dcg.count, 4);
	ck_assert_uint_eq(m->aabtree.node_count, 3);
	ck_assert_uint_eq(m->aabtree.node_array_count, 3);
	ck_assert_uint_eq(m->aabtree.poly_indices.count, 2);
	ck_assert_ptr_eq(wl_chunk_label(d, m->src), m->name);
	char path[128];
	wl_chunk_path(d, m->triangles_src, 1, path, sizeof path);
	ck_assert_str_eq(path, "MESH[TANK.BODY]/TRIANGLES[1]");
	t_mesh_free(d);
}
END_TEST

/* The decoded name keeps the raw bytes; every output escapes them once
 * (core/escape.h), so a name cannot reach a terminal unescaped. */
START_TEST(label_keeps_raw_bytes)
{
	t_mesh_opts o = { 0 };
	t_mesh_layout lay;
	wb b;
	t_w3d_init(&b);
	t_mesh_write_mesh(&b, &o, &lay);
	b.data[lay.header_data + 8] = 0x01;  /* 'B' of BODY */
	b.data[lay.header_data + 9] = 0xC3;
	wl_doc *d = t_mesh_lint(&b);
	ck_assert_str_eq(mesh0(d)->name, "TANK.\x01\xC3" "DY");
	char *e = wl_escape_dup(mesh0(d)->name);
	ck_assert_str_eq(e, "TANK.\\x01\\xc3DY");
	free(e);
	t_mesh_free(d);
	/* no container name: just the mesh name */
	memset(b.data + lay.header_data + 24, 0, 16);
	d = t_mesh_lint(&b);
	ck_assert_str_eq(mesh0(d)->name, "\x01\xC3" "DY");
	t_mesh_free(d);
	t_w3d_free(&b);
}
END_TEST

/* The rule cases: for each rule a mesh that fires (rule id and offset) and
 * a near miss that does not (t_mesh_run_steps), one check per case. */
#define HDR(rel, v) .p = { { T_MESH_U32, T_MESH_AT(header_data, rel), (v), 0 } }
#define MATINFO(rel, v) .p = { { T_MESH_U32, T_MESH_AT(matinfo_data, rel), (v), 0 } }
#define TRIS(rel, v) .p = { { T_MESH_U32, T_MESH_AT(tris_data, rel), (v), 0 } }

typedef struct mesh_case {
	const char *name;
	t_mesh_step steps[8];
} mesh_case;

static const mesh_case cases[] = {
	{ "header_missing", {
		{ "mesh-header-missing", 1, T_MESH_AT(mesh, 0), .o = { .no_header = 1 } },
		{ "mesh-header-not-first", 0, .again = 1 },
		{ "mesh-header-missing", 0 },
	} },
	{ "header_not_first", {
		{ "mesh-header-not-first", 1, T_MESH_AT(vertices, 0), .o = { .header_late = 1 } },
		{ "mesh-header-missing", 0, .again = 1 },
		{ "mesh-header-not-first", 0 },
	} },
	{ "vertex_count_mismatch", {
		{ "mesh-vertex-count-mismatch", 1, T_MESH_AT(vertices, 0), 1, .o = { .extra_vertices = 1 } },
		{ "mesh-vertex-count-mismatch", 1, T_MESH_AT(texcoords[0], 0), .o = { .texcoord_delta = -1 } },
		{ "mesh-vertex-count-mismatch", 0 },
		/* header NumVertices 5: every per-vertex array fires */
		{ "mesh-vertex-count-mismatch", 1, T_MESH_AT(normals, 0), HDR(44, 5) },
		{ "mesh-vertex-count-mismatch", 1, T_MESH_AT(dcg[0], 0), .again = 1 },
	} },
	{ "triangle_count_mismatch", {
		{ "mesh-triangle-count-mismatch", 1, T_MESH_AT(tris, 0), HDR(40, 3) },
		/* 3 triangles, header says 3 */
		{ "mesh-triangle-count-mismatch", 0, .o = { .extra_tris = 1 } },
	} },
	{ "header_counts", {
		/* mesh-empty: NumTris 0 fires at the NumTris field; the valid mesh not */
		{ "mesh-empty", 1, T_MESH_AT(header_data, 40), HDR(40, 0) },
		{ "mesh-empty", 0 },
		{ "mesh-array-missing", 0, .again = 1 },
		{ "mesh-too-many-vertices", 0, .again = 1 },
		/* mesh-too-many-vertices: 65537 fires, 65536 (the limit) does not */
		{ "mesh-too-many-vertices", 1, T_MESH_AT(header_data, 44), HDR(44, 65537) },
		{ "mesh-too-many-vertices", 0, HDR(44, 65536) },
	} },
	{ "pass_count_mismatch", {
		{ "material-pass-count-mismatch", 1, T_MESH_AT(matinfo_data, 0), MATINFO(0, 2) },
		{ "material-pass-count-mismatch", 0, .o = { .passes = 2 } },
	} },
	{ "shader_count_mismatch", {
		{ "material-shader-count-mismatch", 1, T_MESH_AT(matinfo_data, 8), MATINFO(8, 2) },
		{ "material-shader-count-mismatch", 0, MATINFO(8, 1) },
	} },
	{ "material_count_mismatch", {
		{ "material-count-mismatch", 1, T_MESH_AT(matinfo_data, 4), MATINFO(4, 0) },
		{ "material-count-mismatch", 1, T_MESH_AT(matinfo_data, 12), MATINFO(12, 3) },
		{ "material-count-mismatch", 0, MATINFO(12, 1) },
	} },
	{ "id_array_length", {
		{ "material-id-array-length", 1, T_MESH_AT(vmids[0], 0), .o = { .vmid_count = 3 } },
		/* one per vertex */
		{ "material-id-array-length", 0, .o = { .vmid_count = 4 } },
		{ "material-id-array-length", 1, T_MESH_AT(per_face[0], 0), .o = { .per_face_ids = 1 } },
		{ "material-id-array-length", 0, .o = { .per_face_ids = 2 } },
		/* texture ids: 2 per triangle is fine, header NumTris 3 makes it wrong */
		{ "material-id-array-length", 1, T_MESH_AT(texids[0], 0), HDR(40, 3) },
	} },
	{ "pass_limit", {
		{ "material-pass-limit", 1, T_MESH_AT(pass[4], 0), .o = { .passes = 5 } },
		{ "material-pass-limit", 0, .o = { .passes = 4 } },
	} },
	{ "array_missing", {
		/* VERTICES renamed to an id unknown in MESH: the header's count field */
		{ "mesh-array-missing", 1, T_MESH_AT(header_data, 44), 1, .p = { { T_MESH_U32, T_MESH_AT(vertices, 0), 0x7F, 0 } } },
		/* TRIANGLES renamed likewise */
		{ "mesh-array-missing", 1, T_MESH_AT(header_data, 40), .p = { { T_MESH_U32, T_MESH_AT(tris, 0), 0x7E, 0 } } },
		/* near miss: header says 0 triangles and there is no TRIANGLES: only
		 * mesh-empty, not mesh-array-missing */
		{ "mesh-array-missing", 0, .p = { { T_MESH_U32, T_MESH_AT(tris, 0), 0x7E, 0 },
						  { T_MESH_U32, T_MESH_AT(header_data, 40), 0, 0 } } },
		{ "mesh-empty", 1, T_MESH_AT(header_data, 40), .again = 1 },
	} },
	{ "triangle_index_out_of_range", {
		/* triangle 1 vertex 2: 70000, 4 (one past the end) fire */
		{ "triangle-index-out-of-range", 1, T_MESH_AT(tris_data, 32 + 8), 1, TRIS(32 + 8, 70000) },
		{ "triangle-index-out-of-range", 1, T_MESH_AT(tris_data, 32 + 8), TRIS(32 + 8, 4) },
		/* the last vertex */
		{ "triangle-index-out-of-range", 0, TRIS(32 + 8, 3) },
	} },
	{ "stage_limit", {
		{ "texture-stage-limit", 1, T_MESH_AT(stage[0][2], 0), .o = { .stages = 3 } },
		{ "texture-stage-limit", 0, .o = { .stages = 2 } },
	} },
};

START_TEST(rule_cases)
{
	t_mesh_run_steps(cases[_i].name, cases[_i].steps, 0);
}
END_TEST

/* The message and element of triangle-index-out-of-range (its offsets:
 * the case table). */
START_TEST(triangle_index_message)
{
	t_mesh_opts o = { 0 };
	t_mesh_layout lay;
	wb b;
	t_w3d_init(&b);
	t_mesh_write_mesh(&b, &o, &lay);
	t_w3d_patch_u32(&b, lay.tris_data + 32 + 8, 70000);
	wl_doc *d = t_mesh_lint(&b);
	ck_assert_uint_eq(t_mesh_count(d, "triangle-index-out-of-range"), 1);
	ck_assert_int_eq(d->findings.items[0].element, 1);
	ck_assert_ptr_nonnull(strstr(d->findings.items[0].message,
				     "triangle 1 vertex index 2 is 70000, but the mesh has 4 vertices"));
	t_mesh_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(influence_layouts)
{
	t_mesh_layout lay;
	t_mesh_opts o = { .two_bone = 1 };
	wl_doc *d = run(&o, &lay);
	const w3d_mesh *m = mesh0(d);
	ck_assert_uint_eq(m->influences.count, 4);
	ck_assert_int_eq(m->influences.layout, W3D_INFLUENCE_TWO_BONE);
	ck_assert_uint_eq(m->influences.v[0].bone[1], 1);
	ck_assert_uint_eq(m->influences.v[0].weight[0], 60);
	ck_assert_uint_eq(t_mesh_count(d, "mesh-vertex-count-mismatch"), 0);
	const w3d_mesh *const *ms = (const w3d_mesh *const *)((const w3d_model *)d->model)->meshes;
	ck_assert_int_eq(w3d_file_influence_layout(ms, 1), W3D_INFLUENCE_TWO_BONE);
	t_mesh_free(d);

	/* original single-bone records (zero pad) and the 14-byte extended ones */
	wb b;
	t_w3d_init(&b);
	t_w3d_begin(&b, W3D_CHUNK_MESH);
	t_w3d_begin(&b, W3D_CHUNK_MESH_HEADER3);
	t_w3d_zeros(&b, 44);
	t_w3d_u32(&b, 2); /* NumVertices */
	t_w3d_zeros(&b, W3D_MESH_HEADER3_SIZE - 48);
	t_w3d_end(&b);
	t_w3d_begin(&b, W3D_CHUNK_VERTEX_INFLUENCES);
	t_w3d_u16(&b, 7); t_w3d_zeros(&b, 6);
	t_w3d_u16(&b, 9); t_w3d_zeros(&b, 6);
	t_w3d_end(&b);
	size_t ext = b.len;
	t_w3d_begin(&b, W3D_CHUNK_VERTEX_INFLUENCES_EXTENDED);
	for (int i = 0; i < 3; i++) { /* 3 records: one too many */
		t_w3d_u16(&b, 1); t_w3d_u16(&b, 2); t_w3d_u16(&b, 3); t_w3d_u16(&b, 4);
		t_w3d_u16(&b, 30000); t_w3d_u16(&b, 20000); t_w3d_u16(&b, 10000);
	}
	t_w3d_end(&b);
	t_w3d_end(&b);
	d = t_mesh_lint(&b);
	m = mesh0(d);
	ck_assert_int_eq(m->influences.layout, W3D_INFLUENCE_SINGLE);
	ck_assert_uint_eq(m->influences.v[1].bone[0], 9);
	ck_assert_int_eq(m->influences_ext.layout, W3D_INFLUENCE_EXTENDED);
	ck_assert_uint_eq(m->influences_ext.count, 3);
	ck_assert_uint_eq(m->influences_ext.v[2].bone[3], 4);
	ck_assert_uint_eq(m->influences_ext.v[2].weight[2], 10000);
	ms = (const w3d_mesh *const *)((const w3d_model *)d->model)->meshes;
	ck_assert_int_eq(w3d_file_influence_layout(ms, 1), W3D_INFLUENCE_SINGLE);
	ck_assert(t_mesh_has(d, "mesh-vertex-count-mismatch", ext));
	t_mesh_free(d);
	t_w3d_free(&b);
}
END_TEST

/* STAGE_TEXCOORDS and a PRELIT wrapper: decoded in their own scopes. */
START_TEST(prelit_and_pass_texcoords)
{
	wb b;
	t_w3d_init(&b);
	t_w3d_begin(&b, W3D_CHUNK_MESH);
	t_w3d_begin(&b, W3D_CHUNK_MESH_HEADER3);
	t_w3d_zeros(&b, 40);
	t_w3d_u32(&b, 1); /* NumTris */
	t_w3d_u32(&b, 3); /* NumVertices */
	t_w3d_zeros(&b, W3D_MESH_HEADER3_SIZE - 48);
	t_w3d_end(&b);
	t_w3d_begin(&b, W3D_CHUNK_PRELIT_VERTEX);
	t_w3d_material_info(&b, 1, 0, 0, 0);
	t_w3d_begin(&b, W3D_CHUNK_MATERIAL_PASS);
	size_t tc = b.len;
	t_w3d_begin(&b, W3D_CHUNK_STAGE_TEXCOORDS);
	t_w3d_zeros(&b, 8 * 2); /* 2, not 3 */
	t_w3d_end(&b);
	t_w3d_end(&b);
	t_w3d_end(&b);
	t_w3d_end(&b);
	wl_doc *d = t_mesh_lint(&b);
	const w3d_mesh *m = mesh0(d);
	const w3d_material_set *ps = &m->prelit[W3D_CHUNK_PRELIT_VERTEX - W3D_CHUNK_PRELIT_UNLIT];
	ck_assert_ptr_nonnull(ps->src);
	ck_assert_uint_eq(ps->pass_count, 1);
	ck_assert_uint_eq(ps->passes[0].texcoords.count, 2);
	ck_assert(t_mesh_has(d, "mesh-vertex-count-mismatch", tc));
	ck_assert_uint_eq(t_mesh_count(d, "material-pass-count-mismatch"), 0);
	ck_assert_uint_eq(m->materials.pass_count, 0);
	t_mesh_free(d);
	t_w3d_free(&b);
}
END_TEST

/* 1 to 4 random bytes: a flipped bit, 0xFF or a random value. */
static void flip_bytes(uint8_t *copy, size_t n)
{
	int flips = 1 + rand() % 4;
	for (int k = 0; k < flips; k++) {
		size_t at = (size_t)rand() % n;
		int mode = rand() % 3;
		copy[at] = mode == 0 ? (uint8_t)(copy[at] ^ (1u << (rand() % 8)))
			 : mode == 1 ? 0xFF : (uint8_t)rand();
	}
}

/* Every prefix and many byte-flipped variants parse and lint. */
START_TEST(robust_prefixes_and_flips)
{
	t_mesh_opts o = { .aabtree = 1, .stages = 2, .per_face_ids = 2, .two_bone = 1 };
	t_mesh_layout lay;
	wb b;
	t_w3d_init(&b);
	t_mesh_write_mesh(&b, &o, &lay);
	t_robust_lint_variants(b.data, b.len, &(t_robust_opts){ t_mesh_lint_bytes, t_mesh_free, 12345, 3000, flip_bytes });
	t_w3d_free(&b);
}
END_TEST

extern Suite *mesh_suite(void);
Suite *mesh_suite(void)
{
	const TTest *tests[] = {
		valid_mesh_is_clean_and_decoded, label_keeps_raw_bytes, triangle_index_message,
		influence_layouts, prelit_and_pass_texcoords,
		robust_prefixes_and_flips, NULL
	};
	Suite *s = t_robust_suite_of("mesh", "mesh", 60, tests);
	t_robust_add_loop(s, "mesh_rules", 60, rule_cases, (int)(sizeof cases / sizeof cases[0]));
	return s;
}
