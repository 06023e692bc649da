/* tests/lint/w3d/test_objects.c - tests of the object decoders (core/w3d/objects.h, the
 * mesh additions of mesh.h), the game detection (core/w3d/game.h) and the
 * object rules (lint/w3d/check_objects.c). */
#include <check.h>
#include <string.h>

#include "core/w3d/model.h"
#include "tests/build/build_objects.h"
#include "tests/build/reader_util.h"
#include "tests/build/robust_util.h"


static wb B;
static wl_doc *D;

/* Lints an emitter built with o; returns the model. */
static const w3d_model *emitter(const t_obj_emitter_opts *o, t_obj_emitter_at *at)
{
	t_w3d_init(&B);
	t_obj_emitter(&B, o, at);
	return t_obj_model(&B, &D);
}

START_TEST(emitter_valid)
{
	t_obj_emitter_opts o = t_obj_emitter_defaults();
	t_obj_emitter_at at;
	const w3d_model *m = emitter(&o, &at);
	ck_assert_uint_eq(D->findings.count, 0);
	ck_assert_uint_eq(m->emitter_count, 1);
	const w3d_emitter *e = m->emitters[0];
	ck_assert_str_eq(e->name, "FIRE");
	ck_assert_str_eq(e->texture_filename, "FIRE.TGA");
	ck_assert_str_eq(e->user_string, "SMOKE");
	ck_assert_uint_eq(e->user_string_size, 6);
	ck_assert_uint_eq(e->render_mode, 1);
	ck_assert_uint_eq(e->color_keys.count, 1);
	ck_assert_uint_eq(e->rotation.keys.count, 2);
	ck_assert_uint_eq(e->rotation.keys.offset, at.rotation + 8 + 16);
	ck_assert(e->velocity[2] == 1.0f && e->acceleration[2] == -9.8f);
	ck_assert_str_eq(wl_chunk_label(D, e->src), "FIRE");
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(emitter_order)
{
	t_obj_emitter_opts o = t_obj_emitter_defaults();
	t_obj_emitter_at at;
	o.swap_user_info = true;
	emitter(&o, &at);
	const wl_finding *f = t_find(D, "emitter-chunk-order");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, at.child[1]);
	ck_assert_uint_eq(t_count(D, "emitter-chunk-order"), 1);
	t_obj_done(&D, &B);
	/* near miss: a version 1 emitter needs only the first three in order */
	o = t_obj_emitter_defaults();
	o.version = 0x00010000u;
	emitter(&o, &at);
	ck_assert_uint_eq(t_count(D, "emitter-chunk-order"), 0);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(emitter_props)
{
	t_obj_emitter_opts o = t_obj_emitter_defaults();
	t_obj_emitter_at at;
	o.props_counts[1] = 0;
	o.props_keys[1] = 0;
	emitter(&o, &at);
	const wl_finding *f = t_find(D, "emitter-keyframe-count-zero");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, at.props + 8 + 4);
	ck_assert_uint_eq(t_count(D, "emitter-props-size-mismatch"), 0);
	t_obj_done(&D, &B);
	o = t_obj_emitter_defaults();
	o.props_keys[0] = 2; /* one key more than declared */
	emitter(&o, &at);
	f = t_find(D, "emitter-props-size-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, at.props);
	ck_assert_uint_eq(t_count(D, "emitter-keyframe-count-zero"), 0);
	t_obj_done(&D, &B);
	o = t_obj_emitter_defaults();
	o.props_counts[0] = o.props_keys[0] = 3; /* near miss: consistent */
	emitter(&o, &at);
	ck_assert_uint_eq(t_count(D, "emitter-props-size-mismatch"), 0);
	ck_assert_uint_eq(D->findings.count, 0);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(emitter_keyframes_and_user_data)
{
	t_obj_emitter_opts o = t_obj_emitter_defaults();
	t_obj_emitter_at at;
	o.rotation_keys = 1; /* KeyframeCount 1 needs 2 keys */
	emitter(&o, &at);
	const wl_finding *f = t_find(D, "emitter-keyframes-size-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, at.rotation);
	t_obj_done(&D, &B);
	o = t_obj_emitter_defaults();
	o.rotation_count = 0; /* near miss: only the start key */
	o.rotation_keys = 1;
	emitter(&o, &at);
	ck_assert_uint_eq(t_count(D, "emitter-keyframes-size-mismatch"), 0);
	t_obj_done(&D, &B);
	o = t_obj_emitter_defaults();
	o.user_string_bytes = 4;
	emitter(&o, &at);
	f = t_find(D, "emitter-user-data-size-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, at.user_payload + 4);
	t_obj_done(&D, &B);
	o = t_obj_emitter_defaults();
	o.user_string_size = o.user_string_bytes = 4;
	emitter(&o, &at);
	ck_assert_uint_eq(t_count(D, "emitter-user-data-size-mismatch"), 0);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(aggregate_info)
{
	size_t info;
	t_w3d_init(&B);
	t_obj_aggregate(&B, 2, 1, &info);
	t_obj_model(&B, &D);
	const wl_finding *f = t_find(D, "aggregate-info-size-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, info + 8 + 32);
	t_obj_done(&D, &B);
	t_w3d_init(&B);
	t_obj_aggregate(&B, 2, 2, &info);
	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(D->findings.count, 0);
	ck_assert_uint_eq(m->aggregate_count, 1);
	const w3d_aggregate *a = m->aggregates[0];
	ck_assert_str_eq(a->name, "AGG");
	ck_assert_str_eq(a->base_model_name, "BASE.MODEL");
	ck_assert_uint_eq(a->subobject_array_count, 2);
	ck_assert_str_eq(a->subobjects[1].bone_name, "BONE01");
	ck_assert_uint_eq(a->flags, 1);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(hmodel_nodes)
{
	size_t node[3];
	t_w3d_init(&B);
	t_obj_hmodel(&B, 1, 2, node);
	t_obj_model(&B, &D);
	const wl_finding *f = t_find(D, "hmodel-node-count-exceeds-connections");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, node[1]);
	t_obj_done(&D, &B);
	t_w3d_init(&B);
	t_obj_hmodel(&B, 3, 3, node);
	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(D->findings.count, 0);
	const w3d_hmodel *h = m->hmodels[0];
	ck_assert_str_eq(h->hierarchy_name, "HM_SKEL");
	ck_assert_uint_eq(h->node_count, 3);
	ck_assert_uint_eq(h->nodes[1].kind, W3D_HMODEL_SKIN);
	ck_assert_uint_eq(h->nodes[2].pivot, 2);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(dazzle_and_null)
{
	t_w3d_init(&B);
	size_t dz = t_obj_dazzle(&B, false);
	t_obj_model(&B, &D);
	const wl_finding *f = t_find(D, "dazzle-name-missing");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, dz);
	t_obj_done(&D, &B);
	t_w3d_init(&B);
	t_obj_dazzle(&B, true);
	size_t nu = t_obj_null_object(&B, 0);
	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(D->findings.count, 0);
	ck_assert_str_eq(m->dazzles[0]->name, "OBJ.DAZ");
	ck_assert_str_eq(m->dazzles[0]->type_name, "SUN");
	ck_assert_str_eq(m->null_objects[0]->name, "OBJ.NULL");
	ck_assert_uint_eq(nu, 8 + (8 + 8) + (8 + 4)); /* after the dazzle */
	t_obj_done(&D, &B);
	t_w3d_init(&B);
	nu = t_obj_null_object(&B, 4);
	t_obj_model(&B, &D);
	f = t_find(D, "object-size-mismatch");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, nu);
	ck_assert_uint_eq(f->length, 8 + 52);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(not_loaded_and_primitives)
{
	t_w3d_init(&B);
	size_t li = t_obj_light(&B);
	t_obj_primitive(&B, false, "OBJ.SPHERE");
	t_obj_primitive(&B, true, "OBJ.RING");
	const w3d_model *m = t_obj_model(&B, &D);
	const wl_finding *f = t_find(D, "object-not-loaded");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, li);
	ck_assert_uint_eq(t_count(D, "object-not-loaded"), 1); /* not the primitives */
	const w3d_light *l = m->lights[0];
	ck_assert_uint_eq(l->attributes & W3D_LIGHT_TYPE_MASK, 1);
	ck_assert_uint_eq(l->ambient[0], 0x30);
	ck_assert(l->intensity == 2.5f && l->far_atten[1] == 20.0f);
	ck_assert_uint_eq(m->primitive_count, 2);
	ck_assert(!m->primitives[0]->is_ring && m->primitives[1]->is_ring);
	ck_assert_str_eq(m->primitives[1]->name, "OBJ.RING");
	ck_assert_str_eq(m->primitives[0]->texture_name, "GLOW.TGA");
	ck_assert(m->primitives[1]->def_ok && m->primitives[1]->anim_duration == 1.5f);
	ck_assert_uint_eq(m->primitives[0]->channel_count, 1);
	t_obj_done(&D, &B);
	/* SOUNDROBJ: soundrobj-not-loaded once the file reads as Generals (off for renegade) */
	for (int zh = 0; zh < 2; zh++) {
		t_w3d_init(&B);
		size_t so = B.len;
		t_w3d_begin(&B, W3D_OBJ_CHUNK_SOUNDROBJ);
		t_w3d_begin(&B, W3D_OBJ_CHUNK_SOUNDROBJ_HEADER);
		t_w3d_u32(&B, 0x10000);
		t_w3d_name(&B, "BEEP", 16);
		t_w3d_u32(&B, 0);
		t_w3d_zeros(&B, 32);
		t_w3d_end(&B);
		t_w3d_chunk(&B, W3D_OBJ_CHUNK_SOUNDROBJ_DEFINITION, "\x01\x02", 2);
		t_w3d_end(&B);
		if (zh) {
			t_obj_emitter_opts o = t_obj_emitter_defaults();
			t_obj_emitter_at at;
			o.extra_info = true;
			t_obj_emitter(&B, &o, &at);
		}
		m = t_obj_model(&B, &D);
		ck_assert_str_eq(m->soundrobjs[0]->name, "BEEP");
		ck_assert_ptr_nonnull(m->soundrobjs[0]->definition);
		ck_assert_uint_eq(m->game, zh ? W3D_GAME_GENERALS : W3D_GAME_RENEGADE);
		/* the check reports it; the catalogue turns it off for renegade
		 * (tests/w3d_games.sh runs it through the targets) */
		ck_assert_uint_eq(t_count(D, "soundrobj-not-loaded"), 1);
		ck_assert_uint_eq((uint64_t)t_offset(D, "soundrobj-not-loaded"), so);
		ck_assert_uint_eq(t_count(D, "object-not-loaded"), 0);
		t_obj_done(&D, &B);
	}
}
END_TEST

/* A minimal MESH with a header, TEXTURES and VERTEX_MATERIALS; the knobs
 * inject the A9/A10 defects; *bad gets the offset of the injected chunk. */
static void material_mesh(int stray_in_textures, int stray_in_vmats, int no_vm_info, size_t *bad)
{
	t_w3d_begin(&B, W3D_CHUNK_MESH);
	t_w3d_begin(&B, W3D_CHUNK_MESH_HEADER3);
	t_w3d_u32(&B, 0x00040002u);
	t_w3d_u32(&B, 0);
	t_w3d_name(&B, "BODY", 16);
	t_w3d_name(&B, "TANK", 16);
	t_w3d_zeros(&B, 116 - 40);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_CHUNK_VERTEX_MATERIALS);
	*bad = B.len;
	t_w3d_begin(&B, W3D_CHUNK_VERTEX_MATERIAL);
	t_w3d_chunk(&B, W3D_CHUNK_VERTEX_MATERIAL_NAME, "MAT", 4);
	if (!no_vm_info) {
		t_w3d_begin(&B, W3D_CHUNK_VERTEX_MATERIAL_INFO);
		t_w3d_zeros(&B, 32);
		t_w3d_end(&B);
	}
	t_w3d_end(&B);
	if (stray_in_vmats) {
		*bad = B.len;
		t_w3d_chunk(&B, W3D_CHUNK_TEXTURE_NAME, "X.TGA", 6);
	}
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_CHUNK_TEXTURES);
	t_w3d_begin(&B, W3D_CHUNK_TEXTURE);
	t_w3d_chunk(&B, W3D_CHUNK_TEXTURE_NAME, "A.TGA", 6);
	t_w3d_end(&B);
	if (stray_in_textures) {
		*bad = B.len;
		t_w3d_chunk(&B, W3D_CHUNK_TEXTURE_NAME, "B.TGA", 6);
	}
	t_w3d_end(&B);
	t_w3d_end(&B);
}

START_TEST(material_containers)
{
	size_t bad;
	static const char *const rule[3] = { "textures-child-not-texture", "vertex-materials-child-not-material",
					     "vertex-material-info-missing" };
	for (int k = 0; k < 3; k++) {
		t_w3d_init(&B);
		material_mesh(k == 0, k == 1, k == 2, &bad);
		t_obj_model(&B, &D);
		const wl_finding *f = t_find(D, rule[k]);
		ck_assert_msg(f != NULL, "%s did not fire", rule[k]);
		ck_assert_uint_eq(f->offset, bad);
		for (int j = 0; j < 3; j++)
			if (j != k)
				ck_assert_uint_eq(t_count(D, rule[j]), 0);
		t_obj_done(&D, &B);
	}
	t_w3d_init(&B);
	material_mesh(0, 0, 0, &bad);
	t_obj_model(&B, &D);
	ck_assert_uint_eq(D->findings.count, 0);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(mesh_extras_decoded)
{
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_CHUNK_MESH);
	t_w3d_begin(&B, W3D_CHUNK_MESH_HEADER3);
	t_w3d_u32(&B, 0x00040002u);
	t_w3d_u32(&B, 0);
	t_w3d_name(&B, "BODY", 16);
	t_w3d_name(&B, "", 16);
	t_w3d_zeros(&B, 116 - 40);
	t_w3d_end(&B);
	t_w3d_begin(&B, 0x0D); /* VERTEX_COLORS */
	t_w3d_u32(&B, 0x00030201);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_CHUNK_TANGENTS);
	t_w3d_vec3(&B, 1, 0, 0);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_CHUNK_BITANGENTS);
	t_w3d_vec3(&B, 0, 1, 0);
	t_w3d_end(&B);
	t_w3d_begin(&B, 0x0C00);
	t_w3d_vec3(&B, 7, 8, 9);
	t_w3d_end(&B);
	t_w3d_begin(&B, 0x0C01);
	t_w3d_vec3(&B, 0, 0, 1);
	t_w3d_end(&B);
	t_w3d_begin(&B, 0x58); /* DEFORM */
	t_w3d_u32(&B, 3);
	t_w3d_u32(&B, 1);
	t_w3d_zeros(&B, 12);
	t_w3d_end(&B);
	t_w3d_begin(&B, 0x80); /* PS2_SHADERS */
	t_w3d_bytes(&B, "\x03\x01\x01\x01\x00\x00\x02\x01\x00\x00\x00\x00", 12);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_CHUNK_SHADER_MATERIALS);
	t_w3d_begin(&B, 0x51);
	t_w3d_begin(&B, 0x52);
	t_w3d_u8(&B, 1);
	t_w3d_name(&B, "NormalMapped.fx", 32);
	t_w3d_u8(&B, 0);
	t_w3d_zeros(&B, 3);
	t_w3d_end(&B);
	t_w3d_begin(&B, 0x53); /* texture property */
	t_w3d_u32(&B, 1);
	t_w3d_u32(&B, 13);
	t_w3d_bytes(&B, "DiffuseTexture\0", 13);
	t_w3d_u32(&B, 6);
	t_w3d_bytes(&B, "A.TGA", 6);
	t_w3d_end(&B);
	t_w3d_begin(&B, 0x53); /* vec3 property */
	t_w3d_u32(&B, 4);
	t_w3d_u32(&B, 6);
	t_w3d_bytes(&B, "Color", 6);
	t_w3d_vec3(&B, 0.5f, 0.25f, 1);
	t_w3d_end(&B);
	t_w3d_end(&B);
	t_w3d_end(&B);
	t_w3d_end(&B);
	const w3d_model *m = t_obj_model(&B, &D);
	const w3d_mesh *me = m->meshes[0];
	ck_assert_uint_eq(me->vertex_colors.count, 1);
	ck_assert_uint_eq(me->vertex_colors.v[0].g, 2);
	ck_assert(me->tangents.v[0].x == 1.0f && me->bitangents.v[0].y == 1.0f);
	ck_assert(me->secondary_vertices.v[0].z == 9.0f && me->secondary_normals.count == 1);
	ck_assert_uint_eq(me->deform.set_count, 3);
	ck_assert_uint_eq(me->deform.alpha_passes, 1);
	ck_assert_uint_eq(me->materials.ps2_shaders.count, 1);
	ck_assert_uint_eq(me->materials.ps2_shaders.v[0].b_param, 2);
	ck_assert_uint_eq(me->materials.shader_material_count, 1);
	const w3d_shader_material *sm = &me->materials.shader_materials[0];
	ck_assert_str_eq(sm->type_name, "NormalMapped.fx");
	ck_assert_uint_eq(sm->prop_count, 2);
	ck_assert_str_eq(sm->props[0].name, "DiffuseTextur");
	ck_assert(!sm->props[0].name_terminated); /* 13 of 15 bytes: cut */
	ck_assert_str_eq(sm->props[0].texture, "A.TGA");
	ck_assert(sm->props[1].value_ok && sm->props[1].value[1] == 0.25f);
	ck_assert_uint_eq(m->game, W3D_GAME_BFME);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(game_detection)
{
	w3d_game g;
	ck_assert(w3d_game_parse("ZH", &g) && g == W3D_GAME_GENERALS);
	ck_assert(w3d_game_parse("bfme", &g) && g == W3D_GAME_BFME);
	ck_assert(!w3d_game_parse("c&c3", &g));
	ck_assert_str_eq(w3d_game_name(W3D_GAME_W3DHUB), "w3dhub");
	/* no evidence */
	t_w3d_init(&B);
	t_obj_null_object(&B, 0);
	t_obj_model(&B, &D);
	w3d_model *m = D->model;
	ck_assert_uint_eq(m->game, W3D_GAME_AUTO);
	w3d_model_set_game(m, W3D_GAME_BFME); /* --game override */
	ck_assert_uint_eq(m->game, W3D_GAME_BFME);
	ck_assert_uint_eq(m->detected_game, W3D_GAME_AUTO);
	t_obj_done(&D, &B);
	/* W3D Hub: VERTEX_INFLUENCES_EXTENDED beats a BFME chunk */
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_CHUNK_MESH);
	t_w3d_begin(&B, W3D_CHUNK_TANGENTS);
	t_w3d_vec3(&B, 1, 0, 0);
	t_w3d_end(&B);
	size_t ext = B.len;
	t_w3d_begin(&B, W3D_CHUNK_VERTEX_INFLUENCES_EXTENDED);
	t_w3d_zeros(&B, 14);
	t_w3d_end(&B);
	t_w3d_end(&B);
	t_obj_model(&B, &D);
	m = D->model;
	ck_assert_uint_eq(m->game, W3D_GAME_W3DHUB);
	ck_assert_uint_eq(m->game_evidence.chunk->offset, ext);
	t_obj_done(&D, &B);
	/* Renegade: a legacy container without the container bit */
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_DAZZLE);
	t_w3d_chunk(&B, W3D_OBJ_CHUNK_DAZZLE_NAME, "A.B", 4);
	t_w3d_end_raw(&B, 12);
	t_obj_model(&B, &D);
	m = D->model;
	ck_assert_uint_eq(m->game, W3D_GAME_RENEGADE);
	ck_assert_str_eq(m->dazzles[0]->name, "A.B");
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(robust)
{
	t_w3d_init(&B);
	t_obj_emitter_opts o = t_obj_emitter_defaults();
	t_obj_emitter_at at;
	t_obj_emitter(&B, &o, &at);
	size_t info;
	t_obj_aggregate(&B, 1, 1, &info);
	t_obj_hmodel(&B, 2, 2, NULL);
	t_obj_dazzle(&B, true);
	t_obj_null_object(&B, 0);
	t_obj_light(&B);
	t_obj_primitive(&B, true, "R");
	t_robust_lint_variants(B.data, B.len, &(t_robust_opts){ t_obj_lint_bytes, t_obj_free, 11, 400, t_robust_flip_bits });
	t_w3d_free(&B);
}
END_TEST

extern Suite *objects_suite(void);
Suite *objects_suite(void)
{
	const TTest *tests[] = { emitter_valid, emitter_order, emitter_props, emitter_keyframes_and_user_data,
				 aggregate_info, hmodel_nodes, dazzle_and_null, not_loaded_and_primitives,
				 material_containers, mesh_extras_decoded, game_detection, robust, NULL };
	return t_robust_suite_of("objects", "rules", 0, tests);
}
