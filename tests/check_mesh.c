/* check_mesh.c - MESH decoding and the rules of lint/check_mesh.c: for each
 * rule a case that fires (rule id and offset) and a near miss that does not. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "../core/w3d/model.h"
#include "build_mesh.h"
#include "robust_util.h"

/* Builds the mesh with o, lets patch edit it, lints it. */
static wl_doc *run(const bm_opts *o, bm_layout *lay)
{
	wb b;
	wb_init(&b);
	bm_write_mesh(&b, o, lay);
	wl_doc *d = bm_lint(&b);
	wb_free(&b);
	return d;
}

static wl_doc *run_patched(const bm_opts *o, bm_layout *lay, size_t field_rel, int which,
			   uint32_t v)
{
	wb b;
	wb_init(&b);
	bm_write_mesh(&b, o, lay);
	size_t base = which == 0 ? lay->header_data : which == 1 ? lay->tris_data : lay->matinfo_data;
	wb_patch_u32(&b, base + field_rel, v);
	wl_doc *d = bm_lint(&b);
	wb_free(&b);
	return d;
}

enum { AT_HEADER = 0, AT_TRIS = 1, AT_MATINFO = 2 };

static const w3d_mesh *mesh0(const wl_doc *d)
{
	const w3d_model *m = d->model;
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->mesh_count, 1);
	return m->meshes[0];
}

START_TEST(valid_mesh_is_clean_and_decoded)
{
	bm_opts o = { .aabtree = 1 };
	bm_layout lay;
	wl_doc *d = run(&o, &lay);
	if (d->findings.count)
		bm_dump(d);
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
	ck_assert_ptr_eq(m->src->label, m->name);
	char path[128];
	wl_chunk_path(d, m->triangles_src, 1, path, sizeof path);
	ck_assert_str_eq(path, "MESH[TANK.BODY]/TRIANGLES[1]");
	bm_free(d);
}
END_TEST

START_TEST(label_is_printable)
{
	bm_opts o = { 0 };
	bm_layout lay;
	wb b;
	wb_init(&b);
	bm_write_mesh(&b, &o, &lay);
	b.data[lay.header_data + 8] = 0x01;  /* 'B' of BODY */
	b.data[lay.header_data + 9] = 0xC3;
	wl_doc *d = bm_lint(&b);
	ck_assert_str_eq(mesh0(d)->name, "TANK.??DY");
	bm_free(d);
	/* no container name: just the mesh name */
	memset(b.data + lay.header_data + 24, 0, 16);
	d = bm_lint(&b);
	ck_assert_str_eq(mesh0(d)->name, "??DY");
	bm_free(d);
	wb_free(&b);
}
END_TEST

START_TEST(header_missing)
{
	bm_opts o = { .no_header = 1 };
	bm_layout lay;
	wl_doc *d = run(&o, &lay);
	ck_assert(bm_has(d, "mesh-header-missing", lay.mesh));
	ck_assert_uint_eq(bm_count(d, "mesh-header-not-first"), 0);
	bm_free(d);
	bm_opts ok = { 0 };
	d = run(&ok, &lay);
	ck_assert_uint_eq(bm_count(d, "mesh-header-missing"), 0);
	bm_free(d);
}
END_TEST

START_TEST(header_not_first)
{
	bm_opts o = { .header_late = 1 };
	bm_layout lay;
	wl_doc *d = run(&o, &lay);
	ck_assert(bm_has(d, "mesh-header-not-first", lay.vertices));
	ck_assert_uint_eq(bm_count(d, "mesh-header-missing"), 0);
	bm_free(d);
	bm_opts ok = { 0 };
	d = run(&ok, &lay);
	ck_assert_uint_eq(bm_count(d, "mesh-header-not-first"), 0);
	bm_free(d);
}
END_TEST

START_TEST(vertex_count_mismatch)
{
	bm_opts o = { .extra_vertices = 1 };
	bm_layout lay;
	wl_doc *d = run(&o, &lay);
	ck_assert(bm_has(d, "mesh-vertex-count-mismatch", lay.vertices));
	ck_assert_uint_eq(bm_count(d, "mesh-vertex-count-mismatch"), 1);
	bm_free(d);
	bm_opts t = { .texcoord_delta = -1 };
	d = run(&t, &lay);
	ck_assert(bm_has(d, "mesh-vertex-count-mismatch", lay.texcoords[0]));
	bm_free(d);
	/* near miss: NumVertices patched to 5 with 5 vertices present still
	 * mismatches the normals, so patch to match everything instead */
	bm_opts ok = { 0 };
	d = run(&ok, &lay);
	ck_assert_uint_eq(bm_count(d, "mesh-vertex-count-mismatch"), 0);
	bm_free(d);
	/* header NumVertices 5: every per-vertex array fires */
	d = run_patched(&ok, &lay, 44, AT_HEADER, 5);
	ck_assert(bm_has(d, "mesh-vertex-count-mismatch", lay.normals));
	ck_assert(bm_has(d, "mesh-vertex-count-mismatch", lay.dcg[0]));
	bm_free(d);
}
END_TEST

START_TEST(triangle_count_mismatch)
{
	bm_opts o = { 0 };
	bm_layout lay;
	wl_doc *d = run_patched(&o, &lay, 40, AT_HEADER, 3);
	ck_assert(bm_has(d, "mesh-triangle-count-mismatch", lay.tris));
	bm_free(d);
	bm_opts ok = { .extra_tris = 1 }; /* 3 triangles, header says 3 */
	d = run(&ok, &lay);
	ck_assert_uint_eq(bm_count(d, "mesh-triangle-count-mismatch"), 0);
	bm_free(d);
}
END_TEST

START_TEST(triangle_index_out_of_range)
{
	bm_opts o = { 0 };
	bm_layout lay;
	wl_doc *d = run_patched(&o, &lay, 32 + 8, AT_TRIS, 70000);
	ck_assert(bm_has(d, "triangle-index-out-of-range", lay.tris_data + 32 + 8));
	ck_assert_uint_eq(bm_count(d, "triangle-index-out-of-range"), 1);
	ck_assert_int_eq(d->findings.items[0].element, 1);
	ck_assert_ptr_nonnull(strstr(d->findings.items[0].message,
				     "triangle 1 vertex index 2 is 70000, but the mesh has 4 vertices"));
	bm_free(d);
	d = run_patched(&o, &lay, 32 + 8, AT_TRIS, 4);
	ck_assert(bm_has(d, "triangle-index-out-of-range", lay.tris_data + 32 + 8));
	bm_free(d);
	d = run_patched(&o, &lay, 32 + 8, AT_TRIS, 3); /* the last vertex */
	ck_assert_uint_eq(bm_count(d, "triangle-index-out-of-range"), 0);
	bm_free(d);
}
END_TEST

START_TEST(header_counts)
{
	bm_opts o = { 0 };
	bm_layout lay;
	/* mesh-empty: NumTris 0 fires at the NumTris field; the valid mesh not */
	wl_doc *d = run_patched(&o, &lay, 40, AT_HEADER, 0);
	ck_assert(bm_has(d, "mesh-empty", lay.header_data + 40));
	bm_free(d);
	d = run(&o, &lay);
	ck_assert_uint_eq(bm_count(d, "mesh-empty"), 0);
	ck_assert_uint_eq(bm_count(d, "mesh-array-missing"), 0);
	ck_assert_uint_eq(bm_count(d, "mesh-too-many-vertices"), 0);
	bm_free(d);
	/* mesh-too-many-vertices: 65537 fires, 65536 (the limit) does not */
	d = run_patched(&o, &lay, 44, AT_HEADER, 65537);
	ck_assert(bm_has(d, "mesh-too-many-vertices", lay.header_data + 44));
	bm_free(d);
	d = run_patched(&o, &lay, 44, AT_HEADER, 65536);
	ck_assert_uint_eq(bm_count(d, "mesh-too-many-vertices"), 0);
	bm_free(d);
}
END_TEST

START_TEST(array_missing)
{
	bm_opts o = { 0 };
	bm_layout lay;
	wb b;
	/* VERTICES renamed to an id unknown in MESH: the header's count field */
	wb_init(&b);
	bm_write_mesh(&b, &o, &lay);
	wb_patch_u32(&b, lay.vertices, 0x7F);
	wl_doc *d = bm_lint(&b);
	ck_assert(bm_has(d, "mesh-array-missing", lay.header_data + 44));
	ck_assert_uint_eq(bm_count(d, "mesh-array-missing"), 1);
	bm_free(d);
	wb_free(&b);
	/* TRIANGLES renamed likewise */
	wb_init(&b);
	bm_write_mesh(&b, &o, &lay);
	wb_patch_u32(&b, lay.tris, 0x7E);
	d = bm_lint(&b);
	ck_assert(bm_has(d, "mesh-array-missing", lay.header_data + 40));
	bm_free(d);
	wb_free(&b);
	/* near miss: header says 0 triangles and there is no TRIANGLES: only
	 * mesh-empty, not mesh-array-missing */
	wb_init(&b);
	bm_write_mesh(&b, &o, &lay);
	wb_patch_u32(&b, lay.tris, 0x7E);
	wb_patch_u32(&b, lay.header_data + 40, 0);
	d = bm_lint(&b);
	ck_assert_uint_eq(bm_count(d, "mesh-array-missing"), 0);
	ck_assert(bm_has(d, "mesh-empty", lay.header_data + 40));
	bm_free(d);
	wb_free(&b);
}
END_TEST

START_TEST(pass_count_mismatch)
{
	bm_opts o = { 0 };
	bm_layout lay;
	wl_doc *d = run_patched(&o, &lay, 0, AT_MATINFO, 2);
	ck_assert(bm_has(d, "material-pass-count-mismatch", lay.matinfo_data));
	bm_free(d);
	bm_opts ok = { .passes = 2 };
	d = run(&ok, &lay);
	ck_assert_uint_eq(bm_count(d, "material-pass-count-mismatch"), 0);
	bm_free(d);
}
END_TEST

START_TEST(shader_count_mismatch)
{
	bm_opts o = { 0 };
	bm_layout lay;
	wl_doc *d = run_patched(&o, &lay, 8, AT_MATINFO, 2);
	ck_assert(bm_has(d, "material-shader-count-mismatch", lay.matinfo_data + 8));
	bm_free(d);
	d = run_patched(&o, &lay, 8, AT_MATINFO, 1);
	ck_assert_uint_eq(bm_count(d, "material-shader-count-mismatch"), 0);
	bm_free(d);
}
END_TEST

START_TEST(material_count_mismatch)
{
	bm_opts o = { 0 };
	bm_layout lay;
	wl_doc *d = run_patched(&o, &lay, 4, AT_MATINFO, 0);
	ck_assert(bm_has(d, "material-count-mismatch", lay.matinfo_data + 4));
	bm_free(d);
	d = run_patched(&o, &lay, 12, AT_MATINFO, 3);
	ck_assert(bm_has(d, "material-count-mismatch", lay.matinfo_data + 12));
	bm_free(d);
	d = run_patched(&o, &lay, 12, AT_MATINFO, 1);
	ck_assert_uint_eq(bm_count(d, "material-count-mismatch"), 0);
	bm_free(d);
}
END_TEST

START_TEST(id_array_length)
{
	bm_layout lay;
	bm_opts o = { .vmid_count = 3 };
	wl_doc *d = run(&o, &lay);
	ck_assert(bm_has(d, "material-id-array-length", lay.vmids[0]));
	bm_free(d);
	bm_opts ok = { .vmid_count = 4 }; /* one per vertex */
	d = run(&ok, &lay);
	ck_assert_uint_eq(bm_count(d, "material-id-array-length"), 0);
	bm_free(d);
	bm_opts pf = { .per_face_ids = 1 };
	d = run(&pf, &lay);
	ck_assert(bm_has(d, "material-id-array-length", lay.per_face[0]));
	bm_free(d);
	bm_opts pfok = { .per_face_ids = 2 };
	d = run(&pfok, &lay);
	ck_assert_uint_eq(bm_count(d, "material-id-array-length"), 0);
	bm_free(d);
	/* texture ids: 2 per triangle is fine, header NumTris 3 makes it wrong */
	bm_opts t = { 0 };
	d = run_patched(&t, &lay, 40, AT_HEADER, 3);
	ck_assert(bm_has(d, "material-id-array-length", lay.texids[0]));
	bm_free(d);
}
END_TEST

START_TEST(pass_limit)
{
	bm_layout lay;
	bm_opts o = { .passes = 5 };
	wl_doc *d = run(&o, &lay);
	ck_assert(bm_has(d, "material-pass-limit", lay.pass[4]));
	bm_free(d);
	bm_opts ok = { .passes = 4 };
	d = run(&ok, &lay);
	ck_assert_uint_eq(bm_count(d, "material-pass-limit"), 0);
	bm_free(d);
}
END_TEST

START_TEST(stage_limit)
{
	bm_layout lay;
	bm_opts o = { .stages = 3 };
	wl_doc *d = run(&o, &lay);
	ck_assert(bm_has(d, "texture-stage-limit", lay.stage[0][2]));
	bm_free(d);
	bm_opts ok = { .stages = 2 };
	d = run(&ok, &lay);
	ck_assert_uint_eq(bm_count(d, "texture-stage-limit"), 0);
	bm_free(d);
}
END_TEST

START_TEST(influence_layouts)
{
	bm_layout lay;
	bm_opts o = { .two_bone = 1 };
	wl_doc *d = run(&o, &lay);
	const w3d_mesh *m = mesh0(d);
	ck_assert_uint_eq(m->influences.count, 4);
	ck_assert_int_eq(m->influences.layout, W3D_INFLUENCE_TWO_BONE);
	ck_assert_uint_eq(m->influences.v[0].bone[1], 1);
	ck_assert_uint_eq(m->influences.v[0].weight[0], 60);
	ck_assert_uint_eq(bm_count(d, "mesh-vertex-count-mismatch"), 0);
	const w3d_mesh *const *ms = (const w3d_mesh *const *)((const w3d_model *)d->model)->meshes;
	ck_assert_int_eq(w3d_file_influence_layout(ms, 1), W3D_INFLUENCE_TWO_BONE);
	bm_free(d);

	/* original single-bone records (zero pad) and the 14-byte extended ones */
	wb b;
	wb_init(&b);
	wb_begin(&b, W3D_CHUNK_MESH);
	wb_begin(&b, W3D_CHUNK_MESH_HEADER3);
	wb_zeros(&b, 44);
	wb_u32(&b, 2); /* NumVertices */
	wb_zeros(&b, W3D_MESH_HEADER3_SIZE - 48);
	wb_end(&b);
	wb_begin(&b, W3D_CHUNK_VERTEX_INFLUENCES);
	wb_u16(&b, 7); wb_zeros(&b, 6);
	wb_u16(&b, 9); wb_zeros(&b, 6);
	wb_end(&b);
	size_t ext = b.len;
	wb_begin(&b, W3D_CHUNK_VERTEX_INFLUENCES_EXTENDED);
	for (int i = 0; i < 3; i++) { /* 3 records: one too many */
		wb_u16(&b, 1); wb_u16(&b, 2); wb_u16(&b, 3); wb_u16(&b, 4);
		wb_u16(&b, 30000); wb_u16(&b, 20000); wb_u16(&b, 10000);
	}
	wb_end(&b);
	wb_end(&b);
	d = bm_lint(&b);
	m = mesh0(d);
	ck_assert_int_eq(m->influences.layout, W3D_INFLUENCE_SINGLE);
	ck_assert_uint_eq(m->influences.v[1].bone[0], 9);
	ck_assert_int_eq(m->influences_ext.layout, W3D_INFLUENCE_EXTENDED);
	ck_assert_uint_eq(m->influences_ext.count, 3);
	ck_assert_uint_eq(m->influences_ext.v[2].bone[3], 4);
	ck_assert_uint_eq(m->influences_ext.v[2].weight[2], 10000);
	ms = (const w3d_mesh *const *)((const w3d_model *)d->model)->meshes;
	ck_assert_int_eq(w3d_file_influence_layout(ms, 1), W3D_INFLUENCE_SINGLE);
	ck_assert(bm_has(d, "mesh-vertex-count-mismatch", ext));
	bm_free(d);
	wb_free(&b);
}
END_TEST

/* STAGE_TEXCOORDS and a PRELIT wrapper: decoded in their own scopes. */
START_TEST(prelit_and_pass_texcoords)
{
	wb b;
	wb_init(&b);
	wb_begin(&b, W3D_CHUNK_MESH);
	wb_begin(&b, W3D_CHUNK_MESH_HEADER3);
	wb_zeros(&b, 40);
	wb_u32(&b, 1); /* NumTris */
	wb_u32(&b, 3); /* NumVertices */
	wb_zeros(&b, W3D_MESH_HEADER3_SIZE - 48);
	wb_end(&b);
	wb_begin(&b, W3D_CHUNK_PRELIT_VERTEX);
	wb_begin(&b, W3D_CHUNK_MATERIAL_INFO);
	wb_u32(&b, 1); wb_u32(&b, 0); wb_u32(&b, 0); wb_u32(&b, 0);
	wb_end(&b);
	wb_begin(&b, W3D_CHUNK_MATERIAL_PASS);
	size_t tc = b.len;
	wb_begin(&b, W3D_CHUNK_STAGE_TEXCOORDS);
	wb_zeros(&b, 8 * 2); /* 2, not 3 */
	wb_end(&b);
	wb_end(&b);
	wb_end(&b);
	wb_end(&b);
	wl_doc *d = bm_lint(&b);
	const w3d_mesh *m = mesh0(d);
	const w3d_material_set *ps = &m->prelit[W3D_CHUNK_PRELIT_VERTEX - W3D_CHUNK_PRELIT_UNLIT];
	ck_assert_ptr_nonnull(ps->src);
	ck_assert_uint_eq(ps->pass_count, 1);
	ck_assert_uint_eq(ps->passes[0].texcoords.count, 2);
	ck_assert(bm_has(d, "mesh-vertex-count-mismatch", tc));
	ck_assert_uint_eq(bm_count(d, "material-pass-count-mismatch"), 0);
	ck_assert_uint_eq(m->materials.pass_count, 0);
	bm_free(d);
	wb_free(&b);
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
	bm_opts o = { .aabtree = 1, .stages = 2, .per_face_ids = 2, .two_bone = 1 };
	bm_layout lay;
	wb b;
	wb_init(&b);
	bm_write_mesh(&b, &o, &lay);
	rb_lint_variants(b.data, b.len, &(rb_opts){ bm_lint_bytes, bm_free, 12345, 3000, flip_bytes });
	wb_free(&b);
}
END_TEST

extern Suite *mesh_suite(void);
Suite *mesh_suite(void)
{
	const TTest *tests[] = {
		valid_mesh_is_clean_and_decoded, label_is_printable, header_missing,
		header_not_first, vertex_count_mismatch, triangle_count_mismatch,
		triangle_index_out_of_range, header_counts, array_missing, pass_count_mismatch,
		shader_count_mismatch, material_count_mismatch, id_array_length, pass_limit,
		stage_limit, influence_layouts, prelit_and_pass_texcoords,
		robust_prefixes_and_flips, NULL
	};
	return rb_suite_of("mesh", "mesh", 60, tests, NULL);
}
