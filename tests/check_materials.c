/* check_materials.c - the rules of lint/check_materials.c and
 * lint/check_mesh_flags.c: for each rule a case that fires (rule id and
 * offset) and a near miss that does not, run through wl_lint_bytes with the
 * built-in catalogue. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "../core/w3d/w3d_format.h"
#include "build_anim.h"
#include "build_refs.h"
#include "robust_util.h"

extern Suite *materials_suite(void);
extern const char *const w3d_check_materials_rules[];
extern const char *const w3d_check_mesh_flags_rules[];

static br_mesh_at AT;

/* Builds the mesh o, lints it, returns the document (free with br_free). */
static wl_doc *lint_mesh(const br_mesh_opts *o)
{
	wb b;
	wb_init(&b);
	br_mesh(&b, o, &AT);
	wl_doc *d = br_lint(&b, "tank.w3d");
	wb_free(&b);
	return d;
}

/* Offsets of the layout, chosen after the mesh is built. */
enum { SHADERS, VMIDS, SHADER_IDS, TEX_IDS, VM_INFO, TRIS, SHADE, HEADER };

static size_t base_of(int which)
{
	switch (which) {
	case SHADERS: return AT.shaders;
	case VMIDS: return AT.vmids_data;
	case SHADER_IDS: return AT.shader_ids_data;
	case TEX_IDS: return AT.tex_ids_data;
	case VM_INFO: return AT.vm_info_data;
	case TRIS: return AT.tris_data;
	case SHADE: return AT.shade_data;
	default: return AT.header_data;
	}
}

/* Asserts that rule fires for o at the offset base_of(which) + add. */
static void fires(const br_mesh_opts *o, const char *rule, int which, size_t add)
{
	wl_doc *d = lint_mesh(o);
	size_t off = base_of(which) + add;
	if (!br_at(d, rule, off))
		br_dump(d);
	ck_assert_ptr_nonnull(br_at(d, rule, off));
	br_free(d);
}

static void quiet(const br_mesh_opts *o, const char *rule)
{
	wl_doc *d = lint_mesh(o);
	if (br_count(d, rule))
		br_dump(d);
	ck_assert_uint_eq(br_count(d, rule), 0);
	br_free(d);
}

START_TEST(valid_mesh_has_none_of_these_rules)
{
	br_mesh_opts o = br_mesh_defaults();
	wl_doc *d = lint_mesh(&o);
	for (const char *const *r = w3d_check_materials_rules; *r; r++)
		ck_assert_uint_eq(br_count(d, *r), 0);
	for (const char *const *r = w3d_check_mesh_flags_rules; *r; r++)
		ck_assert_uint_eq(br_count(d, *r), 0);
	br_free(d);
}
END_TEST

START_TEST(shaders_before_material_info)
{
	br_mesh_opts o = br_mesh_defaults();
	o.shaders_first = true;
	fires(&o, "shaders-before-material-info", SHADERS, 0);
	/* the ids are not reported a second time as out of range */
	wl_doc *d = lint_mesh(&o);
	ck_assert_uint_eq(br_count(d, "shader-id-out-of-range"), 0);
	br_free(d);
	o.shaders_first = false;
	quiet(&o, "shaders-before-material-info");
}
END_TEST

START_TEST(ids_out_of_range)
{
	br_mesh_opts o = br_mesh_defaults();
	o.vmat_id = 1; /* one vertex material */
	fires(&o, "vertex-material-id-out-of-range", VMIDS, 0);
	o = br_mesh_defaults();
	o.vmat_count = 2;
	o.vmat_id = 1; /* near miss: two of them */
	quiet(&o, "vertex-material-id-out-of-range");

	o = br_mesh_defaults();
	o.shader_id = 1;
	fires(&o, "shader-id-out-of-range", SHADER_IDS, 0);
	o.shader_count = 2;
	quiet(&o, "shader-id-out-of-range");

	o = br_mesh_defaults();
	o.tex_id_1 = 1; /* triangle 1 of the per-triangle array */
	fires(&o, "texture-id-out-of-range", TEX_IDS, 4);
	o.tex_id_1 = 0xFFFFFFFFu; /* near miss: "no texture" per triangle */
	quiet(&o, "texture-id-out-of-range");
	o = br_mesh_defaults();
	o.single_tex_id = true;
	o.tex_id = 0xFFFFFFFFu; /* a single 0xFFFFFFFF is not special */
	fires(&o, "texture-id-out-of-range", TEX_IDS, 0);
}
END_TEST

START_TEST(shader_fields)
{
	br_mesh_opts o = br_mesh_defaults();
	o.shader[5] = 6; /* primary gradient: ZH max is 5 */
	wl_doc *d = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(d, "shader-field-out-of-range", AT.shaders_data + 5));
	br_free(d);
	o.shader[5] = 5; /* MODULATE2X exists in Zero Hour */
	o.shader[9] = 12; /* detail color func MODALPHAADDCOLOR */
	quiet(&o, "shader-field-out-of-range");
	o.shader[12] = 2; /* alpha test is a bool */
	d = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(d, "shader-field-out-of-range", AT.shaders_data + 12));
	br_free(d);
}
END_TEST

START_TEST(vertex_material_values)
{
	br_mesh_opts o = br_mesh_defaults();
	o.opacity = 1.5f;
	wl_doc *d = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(d, "vertex-material-value-range", AT.vm_info_data + 24));
	br_free(d);
	o.opacity = 0.0f;
	o.shininess = 1000.0f;
	quiet(&o, "vertex-material-value-range");
	o.translucency = NAN;
	d = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(d, "vertex-material-value-range", AT.vm_info_data + 28));
	br_free(d);

	o = br_mesh_defaults();
	o.vm_attributes = 0x00150000u; /* stage 0 mapping 0x15 */
	fires(&o, "vertex-material-mapping-unknown", VM_INFO, 0);
	o.vm_attributes = 0x00140000u; /* GRID_WS_ENVIRONMENT (ZH) */
	quiet(&o, "vertex-material-mapping-unknown");
	o.vm_attributes = 0x00000010u; /* an unused bit */
	wl_doc *e = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(e, "vertex-material-mapping-unknown", AT.vm_info_data));
	br_free(e);
}
END_TEST

START_TEST(texture_info_and_name)
{
	br_mesh_opts o = br_mesh_defaults();
	o.texture_info = true;
	o.frame_count = 0;
	wl_doc *d = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(d, "texture-info-invalid", AT.tex_info_data + 4));
	br_free(d);
	o.frame_count = 4;
	o.frame_rate = 0;
	d = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(d, "texture-info-invalid", AT.tex_info_data + 8));
	br_free(d);
	o.frame_rate = 15;
	o.anim_type = 3;
	quiet(&o, "texture-info-invalid");
	o.anim_type = 4;
	d = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(d, "texture-info-invalid", AT.tex_info_data + 2));
	br_free(d);

	o = br_mesh_defaults();
	o.no_texture_name = true;
	d = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(d, "texture-name-missing", AT.texture));
	br_free(d);
	o.no_texture_name = false;
	quiet(&o, "texture-name-missing");
}
END_TEST

START_TEST(vertex_material_ids_uniform)
{
	br_mesh_opts o = br_mesh_defaults();
	o.vmat_count = 2;
	o.per_vertex_vmids = true;
	o.vmid_v2 = 1; /* vertex 2 is in both triangles */
	fires(&o, "vertex-material-ids-not-uniform", VMIDS, 8);
	o.vmid_v2 = 0;
	quiet(&o, "vertex-material-ids-not-uniform");
}
END_TEST

START_TEST(surface_type_and_shade_indices)
{
	br_mesh_opts o = br_mesh_defaults();
	o.surface_type = 32;
	fires(&o, "surface-type-out-of-range", TRIS, 44);
	o.surface_type = 31;
	quiet(&o, "surface-type-out-of-range");

	o = br_mesh_defaults();
	o.shade[3] = 4;
	fires(&o, "shade-index-out-of-range", SHADE, 12);
	o = br_mesh_defaults();
	o.shade[1] = 2; /* forward */
	fires(&o, "shade-index-not-master", SHADE, 4);
	o = br_mesh_defaults();
	o.shade[2] = 1;
	o.shade[3] = 2; /* 2 is not its own master */
	fires(&o, "shade-index-not-master", SHADE, 12);
	o = br_mesh_defaults();
	o.shade[2] = 0;
	o.shade[3] = 0; /* near miss: masters first, self-referencing */
	quiet(&o, "shade-index-not-master");
	quiet(&o, "shade-index-out-of-range");
}
END_TEST

START_TEST(header_fields)
{
	br_mesh_opts o = br_mesh_defaults();
	o.version = 0x00040000;
	fires(&o, "mesh-version-old", HEADER, 0);
	o.version = 0x00040001;
	quiet(&o, "mesh-version-old");

	o = br_mesh_defaults();
	o.sort_level = 33;
	fires(&o, "sort-level-out-of-range", HEADER, 56);
	o.sort_level = 32;
	quiet(&o, "sort-level-out-of-range");

	o = br_mesh_defaults();
	o.attributes = 0x00070000u;
	fires(&o, "geometry-type-unknown", HEADER, 4);
	o.attributes = 0x00060000u; /* camera oriented */
	quiet(&o, "geometry-type-unknown");

	o = br_mesh_defaults();
	o.vertex_channels = 1; /* normals present, bit missing */
	fires(&o, "vertex-channels-mismatch", HEADER, 68);
	o.vertex_channels = 3;
	o.face_channels = 0;
	fires(&o, "vertex-channels-mismatch", HEADER, 72);
	o.face_channels = 1;
	quiet(&o, "vertex-channels-mismatch");

	o = br_mesh_defaults();
	o.attributes = 0x10; /* physical collision */
	fires(&o, "collision-mesh-without-aabtree", HEADER, 4);
	o.aabtree = true;
	quiet(&o, "collision-mesh-without-aabtree");
}
END_TEST

START_TEST(prelit)
{
	br_mesh_opts o = br_mesh_defaults();
	o.attributes = 0x02000000u; /* vertex prelit without unlit */
	o.prelit_chunk = W3D_CHUNK_PRELIT_VERTEX;
	wl_doc *d = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(d, "prelit-inconsistent", AT.header_data + 4));
	br_free(d);
	o.attributes = 0x03000000u; /* unlit bit set, but no PRELIT_UNLIT wrapper */
	d = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(d, "prelit-inconsistent", AT.header_data + 4));
	br_free(d);
	o.attributes = 0; /* wrapper without its bit */
	d = lint_mesh(&o);
	ck_assert_ptr_nonnull(br_at(d, "prelit-inconsistent", AT.prelit));
	/* the material rules also look inside the wrapper */
	ck_assert_uint_eq(br_count(d, "shader-id-out-of-range"), 0);
	br_free(d);
	o = br_mesh_defaults();
	quiet(&o, "prelit-inconsistent");
}
END_TEST

START_TEST(sorted_mesh_size)
{
	br_mesh_opts o = br_mesh_defaults();
	o.tris = 21846; /* 3 x 21846 = 65538 */
	o.sort_level = 1;
	fires(&o, "sorted-mesh-too-large", HEADER, 40);
	o.sort_level = 0;
	quiet(&o, "sorted-mesh-too-large"); /* opaque: dest blend ZERO */
	o.shader[3] = 1;                    /* dest blend ONE, no alpha test */
	fires(&o, "sorted-mesh-too-large", HEADER, 40);
	o.tris = 21845;
	quiet(&o, "sorted-mesh-too-large");
}
END_TEST

START_TEST(rule_lists_in_catalogue)
{
	ck_assert_uint_eq(ba_missing_from_catalogue(w3d_check_mesh_flags_rules), 0);
	ck_assert_uint_eq(ba_missing_from_catalogue(w3d_check_materials_rules), 0);
}
END_TEST

START_TEST(mutations_are_safe)
{
	br_mesh_opts o = br_mesh_defaults();
	o.texture_info = true;
	o.influences = true;
	o.per_vertex_vmids = true;
	wb b;
	wb_init(&b);
	br_mesh(&b, &o, &AT);
	rb_lint_variants(b.data, b.len, &(rb_opts){ br_lint_bytes, br_free, 4242, 1500, NULL });
	wb_free(&b);
}
END_TEST

Suite *materials_suite(void)
{
	const TTest *tests[] = {
		valid_mesh_has_none_of_these_rules, shaders_before_material_info, ids_out_of_range,
		shader_fields, vertex_material_values, texture_info_and_name, vertex_material_ids_uniform,
		surface_type_and_shade_indices, header_fields, prelit, sorted_mesh_size, rule_lists_in_catalogue, mutations_are_safe,
		NULL
	};
	return rb_suite_of("materials", "rules", 120, tests, NULL);
}
