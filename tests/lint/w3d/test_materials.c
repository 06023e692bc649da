/* tests/lint/w3d/test_materials.c - the rules of lint/w3d/check_materials.c and
 * lint/w3d/check_mesh_flags.c: for each rule a case that fires (rule id and
 * offset) and a near miss that does not, run through wl_lint_bytes with the
 * built-in catalogue. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/w3d/w3d_format.h"
#include "lint/catalog.h"
#include "tests/build/build_anim.h"
#include "tests/build/build_refs.h"
#include "tests/build/robust_util.h"

extern Suite *materials_suite(void);

static t_ref_mesh_at AT;

/* Builds the mesh o, lints it, returns the document (free with t_ref_free). */
static wl_doc *lint_mesh(const t_ref_mesh_opts *o)
{
	wb b;
	t_w3d_init(&b);
	t_ref_mesh(&b, o, &AT);
	wl_doc *d = t_ref_lint(&b, "tank.w3d");
	t_w3d_free(&b);
	return d;
}

/* Offsets of the layout, chosen after the mesh is built. */
enum { HEADER, SHADERS, SHADERS_DATA, VMIDS, SHADER_IDS, TEX_IDS, VM_INFO, TEX_INFO, TEXTURE, TRIS, SHADE,
       PRELIT };

static size_t base_of(int which)
{
	switch (which) {
	case SHADERS: return AT.shaders;
	case SHADERS_DATA: return AT.shaders_data;
	case VMIDS: return AT.vmids_data;
	case SHADER_IDS: return AT.shader_ids_data;
	case TEX_IDS: return AT.tex_ids_data;
	case VM_INFO: return AT.vm_info_data;
	case TEX_INFO: return AT.tex_info_data;
	case TEXTURE: return AT.texture;
	case TRIS: return AT.tris_data;
	case SHADE: return AT.shade_data;
	case PRELIT: return AT.prelit;
	default: return AT.header_data;
	}
}

/* One option of t_ref_mesh_opts set to a value: its type and offset. */
enum { U32 = 1, I32, U16, U8, F32, BOOL };
typedef struct set {
	int kind;
	size_t field;
	double v;
} set;
#define SET(kind, field, v) { kind, offsetof(t_ref_mesh_opts, field), (v) }

static void apply(t_ref_mesh_opts *o, const set *s)
{
	unsigned char *p = (unsigned char *)o + s->field;
	switch (s->kind) {
	case U32: *(uint32_t *)(void *)p = (uint32_t)s->v; break;
	case I32: *(int32_t *)(void *)p = (int32_t)s->v; break;
	case U16: *(uint16_t *)(void *)p = (uint16_t)s->v; break;
	case U8: *p = (uint8_t)s->v; break;
	case F32: *(float *)(void *)p = (float)s->v; break;
	case BOOL: *(bool *)(void *)p = s->v != 0; break;
	default: break;
	}
}

/*
 * One step of a case: the options of the previous step (the defaults when
 * fresh, or at the first step) with the settings s applied, built and
 * linted; fires: a finding of rule at base_of(which) + add; !fires: none.
 */
typedef struct mat_step {
	const char *rule; /* NULL ends the steps */
	int fires;
	int which;
	size_t add;
	int fresh;
	set s[3];
} mat_step;

typedef struct mat_case {
	const char *name;
	mat_step steps[12];
} mat_case;

#define FIRES(rule, which, add, ...) { rule, 1, which, add, 0, { __VA_ARGS__ } }
#define QUIET(rule, ...) { rule, 0, 0, 0, 0, { __VA_ARGS__ } }
/* The same from t_ref_mesh_defaults(). */
#define FIRES_NEW(rule, which, add, ...) { rule, 1, which, add, 1, { __VA_ARGS__ } }
#define QUIET_NEW(rule, ...) { rule, 0, 0, 0, 1, { __VA_ARGS__ } }

static const mat_case cases[] = {
	{ "shaders_before_material_info", {
		FIRES("shaders-before-material-info", SHADERS, 0, SET(BOOL, shaders_first, 1)),
		/* the ids are not reported a second time as out of range */
		QUIET("shader-id-out-of-range"),
		QUIET("shaders-before-material-info", SET(BOOL, shaders_first, 0)),
	} },
	{ "ids_out_of_range", {
		/* one vertex material */
		FIRES_NEW("vertex-material-id-out-of-range", VMIDS, 0, SET(U32, vmat_id, 1)),
		/* near miss: two of them */
		QUIET_NEW("vertex-material-id-out-of-range", SET(U32, vmat_count, 2), SET(U32, vmat_id, 1)),
		FIRES_NEW("shader-id-out-of-range", SHADER_IDS, 0, SET(U32, shader_id, 1)),
		QUIET("shader-id-out-of-range", SET(U32, shader_count, 2)),
		/* triangle 1 of the per-triangle array */
		FIRES_NEW("texture-id-out-of-range", TEX_IDS, 4, SET(U32, tex_id_1, 1)),
		/* near miss: "no texture" per triangle */
		QUIET("texture-id-out-of-range", SET(U32, tex_id_1, 0xFFFFFFFFu)),
		/* a single 0xFFFFFFFF is not special */
		FIRES_NEW("texture-id-out-of-range", TEX_IDS, 0, SET(BOOL, single_tex_id, 1),
			  SET(U32, tex_id, 0xFFFFFFFFu)),
	} },
	{ "shader_fields", {
		/* primary gradient: ZH max is 5 */
		FIRES("shader-field-out-of-range", SHADERS_DATA, 5, SET(U8, shader[5], 6)),
		/* MODULATE2X exists in Zero Hour; detail color func MODALPHAADDCOLOR */
		QUIET("shader-field-out-of-range", SET(U8, shader[5], 5), SET(U8, shader[9], 12)),
		/* alpha test is a bool */
		FIRES("shader-field-out-of-range", SHADERS_DATA, 12, SET(U8, shader[12], 2)),
	} },
	{ "vertex_material_values", {
		FIRES("vertex-material-value-range", VM_INFO, 24, SET(F32, opacity, 1.5)),
		QUIET("vertex-material-value-range", SET(F32, opacity, 0), SET(F32, shininess, 1000)),
		FIRES("vertex-material-value-range", VM_INFO, 28, SET(F32, translucency, NAN)),
		/* stage 0 mapping 0x15 */
		FIRES_NEW("vertex-material-mapping-unknown", VM_INFO, 0, SET(U32, vm_attributes, 0x00150000u)),
		/* GRID_WS_ENVIRONMENT (ZH) */
		QUIET("vertex-material-mapping-unknown", SET(U32, vm_attributes, 0x00140000u)),
		/* an unused bit */
		FIRES("vertex-material-mapping-unknown", VM_INFO, 0, SET(U32, vm_attributes, 0x00000010u)),
	} },
	{ "texture_info_and_name", {
		/* FrameCount 0: what the engines' own Save_Texture writes, and no
		 * loader reads it */
		QUIET("texture-info-invalid", SET(BOOL, texture_info, 1), SET(U32, frame_count, 0)),
		FIRES("texture-info-invalid", TEX_INFO, 8, SET(U32, frame_count, 4), SET(F32, frame_rate, 0)),
		QUIET("texture-info-invalid", SET(F32, frame_rate, 15), SET(U16, anim_type, 3)),
		FIRES("texture-info-invalid", TEX_INFO, 2, SET(U16, anim_type, 4)),
		FIRES_NEW("texture-name-missing", TEXTURE, 0, SET(BOOL, no_texture_name, 1)),
		QUIET("texture-name-missing", SET(BOOL, no_texture_name, 0)),
	} },
	{ "vertex_material_ids_uniform", {
		/* vertex 2 is in both triangles: one finding per triangle */
		FIRES("vertex-material-ids-not-uniform", TRIS, 0, SET(U32, vmat_count, 2),
		      SET(BOOL, per_vertex_vmids, 1), SET(U32, vmid_v2, 1)),
		QUIET("vertex-material-ids-not-uniform", SET(U32, vmid_v2, 0)),
	} },
	{ "surface_type_and_shade_indices", {
		FIRES("surface-type-out-of-range", TRIS, 44, SET(U32, surface_type, 32)),
		QUIET("surface-type-out-of-range", SET(U32, surface_type, 31)),
		FIRES_NEW("shade-index-out-of-range", SHADE, 12, SET(U32, shade[3], 4)),
		/* forward */
		FIRES_NEW("shade-index-not-master", SHADE, 4, SET(U32, shade[1], 2)),
		/* 2 is not its own master */
		FIRES_NEW("shade-index-not-master", SHADE, 12, SET(U32, shade[2], 1), SET(U32, shade[3], 2)),
		/* near miss: masters first, self-referencing */
		QUIET_NEW("shade-index-not-master", SET(U32, shade[2], 0), SET(U32, shade[3], 0)),
		QUIET("shade-index-out-of-range"),
	} },
	{ "header_fields", {
		FIRES("mesh-version-old", HEADER, 0, SET(U32, version, 0x00040000)),
		QUIET("mesh-version-old", SET(U32, version, 0x00040001)),
		FIRES_NEW("sort-level-out-of-range", HEADER, 56, SET(I32, sort_level, 33)),
		QUIET("sort-level-out-of-range", SET(I32, sort_level, 32)),
		FIRES_NEW("geometry-type-unknown", HEADER, 4, SET(U32, attributes, 0x00070000u)),
		/* camera oriented */
		QUIET("geometry-type-unknown", SET(U32, attributes, 0x00060000u)),
		/* normals present, bit missing */
		FIRES_NEW("vertex-channels-mismatch", HEADER, 68, SET(U32, vertex_channels, 1)),
		FIRES("vertex-channels-mismatch", HEADER, 72, SET(U32, vertex_channels, 3),
		      SET(U32, face_channels, 0)),
		QUIET("vertex-channels-mismatch", SET(U32, face_channels, 1)),
		/* physical collision */
		FIRES_NEW("collision-mesh-without-aabtree", HEADER, 4, SET(U32, attributes, 0x10)),
		QUIET("collision-mesh-without-aabtree", SET(BOOL, aabtree, 1)),
	} },
	{ "prelit", {
		/* vertex prelit without unlit */
		FIRES("prelit-inconsistent", HEADER, 4, SET(U32, attributes, 0x02000000u),
		      SET(U32, prelit_chunk, W3D_CHUNK_PRELIT_VERTEX)),
		/* unlit bit set, but no PRELIT_UNLIT wrapper */
		FIRES("prelit-inconsistent", HEADER, 4, SET(U32, attributes, 0x03000000u)),
		/* wrapper without its bit */
		FIRES("prelit-inconsistent", PRELIT, 0, SET(U32, attributes, 0)),
		/* the material rules also look inside the wrapper */
		QUIET("shader-id-out-of-range"),
		QUIET_NEW("prelit-inconsistent"),
	} },
	{ "sorted_mesh_size", {
		/* 3 x 21846 = 65538 */
		FIRES("sorted-mesh-too-large", HEADER, 40, SET(U32, tris, 21846), SET(I32, sort_level, 1)),
		/* opaque: dest blend ZERO */
		QUIET("sorted-mesh-too-large", SET(I32, sort_level, 0)),
		/* dest blend ONE, no alpha test */
		FIRES("sorted-mesh-too-large", HEADER, 40, SET(U8, shader[3], 1)),
		QUIET("sorted-mesh-too-large", SET(U32, tris, 21845)),
	} },
};

START_TEST(rule_cases)
{
	const mat_case *c = &cases[_i];
	t_ref_mesh_opts o = t_ref_mesh_defaults();
	for (size_t i = 0; c->steps[i].rule; i++) {
		const mat_step *st = &c->steps[i];
		if (st->fresh)
			o = t_ref_mesh_defaults();
		for (size_t k = 0; k < 3 && st->s[k].kind; k++)
			apply(&o, &st->s[k]);
		wl_doc *d = lint_mesh(&o);
		if (st->fires) {
			size_t off = base_of(st->which) + st->add;
			if (!t_ref_at(d, st->rule, off))
				t_ref_dump(d);
			ck_assert_msg(t_ref_at(d, st->rule, off) != NULL, "%s step %zu: no %s at %zu", c->name, i,
				      st->rule, off);
		} else {
			if (t_ref_count(d, st->rule))
				t_ref_dump(d);
			ck_assert_msg(t_ref_count(d, st->rule) == 0, "%s step %zu: %zu findings of %s", c->name, i,
				      t_ref_count(d, st->rule), st->rule);
		}
		t_ref_free(d);
	}
}
END_TEST

START_TEST(valid_mesh_has_none_of_these_rules)
{
	t_ref_mesh_opts o = t_ref_mesh_defaults();
	wl_doc *d = lint_mesh(&o);
	/* every rule of the two catalogue files, the list from the catalogue */
	char err[256];
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(cat != NULL, "%s", err);
	size_t listed = 0;
	for (size_t i = 0; i < wl_catalog_count(cat); i++) {
		const wl_rule_def *r = wl_catalog_at(cat, i);
		if (strcmp(r->source_file, "rules/w3d/materials.yaml") != 0 &&
		    strcmp(r->source_file, "rules/w3d/mesh_flags.yaml") != 0)
			continue;
		listed++;
		ck_assert_msg(t_ref_count(d, r->id) == 0, "%s", r->id);
	}
	ck_assert_uint_gt(listed, 10);
	wl_catalog_free(cat);
	t_ref_free(d);
}
END_TEST

START_TEST(rule_lists_in_catalogue)
{
	ck_assert_uint_eq(t_anim_missing_from_catalogue(), 0);
}
END_TEST

START_TEST(mutations_are_safe)
{
	t_ref_mesh_opts o = t_ref_mesh_defaults();
	o.texture_info = true;
	o.influences = true;
	o.per_vertex_vmids = true;
	wb b;
	t_w3d_init(&b);
	t_ref_mesh(&b, &o, &AT);
	t_robust_lint_variants(b.data, b.len, &(t_robust_opts){ t_ref_lint_bytes, t_ref_free, 4242, 1500, NULL });
	t_w3d_free(&b);
}
END_TEST

Suite *materials_suite(void)
{
	const TTest *tests[] = {
		valid_mesh_has_none_of_these_rules, rule_lists_in_catalogue, mutations_are_safe, NULL
	};
	Suite *s = t_robust_suite_of("materials", "rules", 120, tests);
	t_robust_add_loop(s, "rule_cases", 120, rule_cases, (int)(sizeof cases / sizeof cases[0]));
	return s;
}
