/*
 * tests/core/w3d/test_cov_decode_objects.c - the object decoders of core/w3d/objects.h
 * that tests/lint/w3d/test_objects.c does not reach (core/w3d/decode_objects.c):
 * MORPH_ANIMATION, HMODEL node kinds, LODMODEL, COLLECTION (object names,
 * placeholders, transform nodes, a cut name), POINTS, LIGHT (spot, v5.0 spot,
 * pulse), LIGHTSCAPE, AGGREGATE's texture replacer and class info, and
 * SHDMESH with its sub-meshes.  Each object is written with tests/build/w3dbuild.h
 * and every decoded field is compared with what was written.
 */
#include <check.h>
#include <string.h>

#include "core/w3d/model.h"
#include "core/w3d/objects.h"
#include "tests/build/build_objects.h"
#include "tests/build/robust_util.h"

extern Suite *cov_decode_objects_suite(void);

static wb B;
static wl_doc *D;

START_TEST(morph_animation_fields)
{
	t_w3d_init(&B);
	size_t obj = B.len;
	t_w3d_begin(&B, W3D_OBJ_CHUNK_MORPH_ANIMATION);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_MORPHANIM_HEADER);
	t_w3d_u32(&B, 0x00010000u);
	t_w3d_name(&B, "FACE.SMILE", 16);
	t_w3d_name(&B, "FACE", 16);
	t_w3d_u32(&B, 40);
	t_w3d_f32(&B, 15.0f);
	t_w3d_u32(&B, 2);
	t_w3d_end(&B);
	/* channel 0: pose name and three keys */
	t_w3d_begin(&B, W3D_OBJ_CHUNK_MORPHANIM_CHANNEL);
	t_w3d_chunk(&B, W3D_OBJ_CHUNK_MORPHANIM_POSENAME, "SMILE", 6);
	size_t keys = B.len;
	t_w3d_begin(&B, W3D_OBJ_CHUNK_MORPHANIM_KEYDATA);
	for (uint32_t i = 0; i < 3; i++) {
		t_w3d_u32(&B, i * 10);
		t_w3d_u32(&B, i + 100);
	}
	t_w3d_end(&B);
	t_w3d_end(&B);
	/* channel 1: keys only, 12 bytes (one whole key and a partial one) */
	t_w3d_begin(&B, W3D_OBJ_CHUNK_MORPHANIM_CHANNEL);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_MORPHANIM_KEYDATA);
	t_w3d_u32(&B, 7);
	t_w3d_u32(&B, 8);
	t_w3d_u32(&B, 9);
	t_w3d_end(&B);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_MORPHANIM_PIVOTCHANNELDATA);
	for (uint32_t i = 0; i < 5; i++)
		t_w3d_u32(&B, i);
	t_w3d_end(&B);
	t_w3d_end(&B);

	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(m->morph_animation_count, 1);
	const w3d_morph_animation *a = m->morph_animations[0];
	ck_assert_uint_eq(a->src->offset, obj);
	ck_assert(a->header_ok && a->header_first);
	ck_assert_uint_eq(a->version, 0x00010000u);
	ck_assert_str_eq(a->name, "FACE.SMILE");
	ck_assert_str_eq(a->hierarchy_name, "FACE");
	ck_assert(a->name_terminated && a->hierarchy_name_terminated);
	ck_assert_uint_eq(a->frame_count, 40);
	ck_assert(a->frame_rate == 15.0f);
	ck_assert_uint_eq(a->channel_count, 2);
	ck_assert_uint_eq(a->channel_array_count, 2);
	const w3d_morph_channel *c0 = &a->channels[0];
	ck_assert_str_eq(c0->pose_name, "SMILE");
	ck_assert(c0->pose_name_terminated);
	ck_assert_uint_eq(c0->key_count, 3);
	ck_assert_uint_eq(c0->keys_src->offset, keys);
	ck_assert_uint_eq(c0->keys[2][0], 20);
	ck_assert_uint_eq(c0->keys[2][1], 102);
	const w3d_morph_channel *c1 = &a->channels[1];
	ck_assert_ptr_null(c1->pose_name_src);
	ck_assert_str_eq(c1->pose_name, "");
	ck_assert_uint_eq(c1->key_count, 1);
	ck_assert_uint_eq(c1->keys[0][0], 7);
	ck_assert_uint_eq(c1->keys[0][1], 8);
	ck_assert_uint_eq(a->pivot_data_count, 5);
	ck_assert_str_eq(wl_chunk_label(D, a->src), "FACE.SMILE");
	t_obj_done(&D, &B);

	/* near miss: a header of 20 bytes is not ok, names past it are "" */
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_MORPH_ANIMATION);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_MORPHANIM_HEADER);
	t_w3d_u32(&B, 1);
	t_w3d_name(&B, "SHORT", 16);
	t_w3d_end(&B);
	t_w3d_end(&B);
	m = t_obj_model(&B, &D);
	a = m->morph_animations[0];
	ck_assert(!a->header_ok);
	ck_assert_str_eq(a->name, "SHORT");
	ck_assert_str_eq(a->hierarchy_name, "");
	ck_assert_uint_eq(a->channel_array_count, 0);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(hmodel_node_kinds)
{
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_HMODEL);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_HMODEL_HEADER);
	t_w3d_u32(&B, 0x00030000u);
	t_w3d_name(&B, "TANK", 16);
	t_w3d_name(&B, "TANKSKL", 16);
	t_w3d_u16(&B, 3);
	t_w3d_u16(&B, 0);
	t_w3d_end(&B);
	static const uint32_t ids[3] = { W3D_OBJ_CHUNK_SKIN_NODE, W3D_OBJ_CHUNK_NODE,
					 W3D_OBJ_CHUNK_COLLISION_NODE };
	static const char *const names[3] = { "TANK.SKIN", "TANK.BODY", "TANK.BOX" };
	for (int i = 0; i < 3; i++) {
		t_w3d_begin(&B, ids[i]);
		t_w3d_name(&B, names[i], 16);
		t_w3d_u16(&B, (uint16_t)(i == 2 ? 0xFFFF : i + 1));
		t_w3d_end(&B);
	}
	t_w3d_end(&B);
	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(m->hmodel_count, 1);
	const w3d_hmodel *h = m->hmodels[0];
	ck_assert(h->header_ok);
	ck_assert_uint_eq(h->version, 0x00030000u);
	ck_assert_str_eq(h->name, "TANK");
	ck_assert_str_eq(h->hierarchy_name, "TANKSKL");
	ck_assert_uint_eq(h->num_connections, 3);
	ck_assert_uint_eq(h->node_count, 3);
	ck_assert_int_eq(h->nodes[0].kind, W3D_HMODEL_SKIN);
	ck_assert_int_eq(h->nodes[1].kind, W3D_HMODEL_NODE);
	ck_assert_int_eq(h->nodes[2].kind, W3D_HMODEL_COLLISION);
	for (int i = 0; i < 3; i++) {
		ck_assert(h->nodes[i].ok);
		ck_assert_str_eq(h->nodes[i].render_obj_name, names[i]);
	}
	ck_assert_uint_eq(h->nodes[0].pivot, 1);
	ck_assert_uint_eq(h->nodes[2].pivot, 0xFFFF);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(lodmodel_fields)
{
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LODMODEL);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LODMODEL_HEADER);
	t_w3d_u32(&B, 0x00010000u);
	t_w3d_name(&B, "TREE", 16);
	t_w3d_u16(&B, 2);
	t_w3d_u16(&B, 0);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LOD);
	t_w3d_name(&B, "TREE.HI", 32);
	t_w3d_f32(&B, 0.0f);
	t_w3d_f32(&B, 100.0f);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LOD);
	t_w3d_name(&B, "TREE.LO", 32);
	t_w3d_f32(&B, 100.0f);
	t_w3d_end(&B); /* 36 bytes: lod_max missing */
	t_w3d_end(&B);
	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(m->lodmodel_count, 1);
	const w3d_lodmodel *l = m->lodmodels[0];
	ck_assert(l->header_ok && l->header_first);
	ck_assert_str_eq(l->name, "TREE");
	ck_assert_uint_eq(l->num_lods, 2);
	ck_assert_uint_eq(l->lod_count, 2);
	ck_assert(l->lods[0].ok);
	ck_assert_str_eq(l->lods[0].render_obj_name, "TREE.HI");
	ck_assert(l->lods[0].lod_min == 0.0f && l->lods[0].lod_max == 100.0f);
	ck_assert(!l->lods[1].ok);
	ck_assert_str_eq(l->lods[1].render_obj_name, "TREE.LO");
	ck_assert(l->lods[1].lod_min == 100.0f);
	ck_assert_str_eq(wl_chunk_label(D, l->src), "TREE");
	t_obj_done(&D, &B);
}
END_TEST

/* A PLACEHOLDER / TRANSFORM_NODE record: version, a 4x3 matrix whose
 * element (r, c) is base + 3r + c, NameLength, then name_bytes of name. */
static void placeholder(uint32_t id, float base, uint32_t name_len, const char *name, size_t name_bytes)
{
	t_w3d_begin(&B, id);
	t_w3d_u32(&B, 0x00010000u);
	for (int i = 0; i < 12; i++)
		t_w3d_f32(&B, base + (float)i);
	t_w3d_u32(&B, name_len);
	t_w3d_bytes(&B, name, name_bytes);
	t_w3d_end(&B);
}

START_TEST(collection_fields)
{
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_COLLECTION);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_COLLECTION_HEADER);
	t_w3d_u32(&B, 0x00010000u);
	t_w3d_name(&B, "BASE", 16);
	t_w3d_u32(&B, 2);
	t_w3d_zeros(&B, 8);
	t_w3d_end(&B);
	t_w3d_chunk(&B, W3D_OBJ_CHUNK_COLLECTION_OBJ_NAME, "BASE.WALL", 10);
	t_w3d_chunk(&B, W3D_OBJ_CHUNK_COLLECTION_OBJ_NAME, "BASE.GATE", 10);
	placeholder(W3D_OBJ_CHUNK_PLACEHOLDER, 1.0f, 5, "FLAG", 5);
	placeholder(W3D_OBJ_CHUNK_TRANSFORM_NODE, 20.0f, 10, "DOOR", 4); /* 6 bytes short */
	t_w3d_end(&B);
	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(m->collection_count, 1);
	const w3d_collection *c = m->collections[0];
	ck_assert(c->header_ok && c->header_first);
	ck_assert_str_eq(c->name, "BASE");
	ck_assert_uint_eq(c->render_object_count, 2);
	ck_assert_uint_eq(c->obj_name_count, 2);
	ck_assert_str_eq(c->obj_names[0], "BASE.WALL");
	ck_assert_str_eq(c->obj_names[1], "BASE.GATE");
	ck_assert_uint_eq(c->obj_name_srcs[1]->id, W3D_OBJ_CHUNK_COLLECTION_OBJ_NAME);
	ck_assert_uint_eq(c->placeholder_count, 1);
	const w3d_placeholder *p = &c->placeholders[0];
	ck_assert(p->ok && p->name_complete);
	ck_assert_uint_eq(p->version, 0x00010000u);
	ck_assert(p->transform[0][0] == 1.0f && p->transform[3][2] == 12.0f && p->transform[1][1] == 5.0f);
	ck_assert_uint_eq(p->name_len, 5);
	ck_assert_str_eq(p->name, "FLAG");
	ck_assert_uint_eq(c->transform_node_count, 1);
	const w3d_placeholder *t = &c->transform_nodes[0];
	ck_assert(t->ok && !t->name_complete);
	ck_assert(t->transform[2][0] == 26.0f);
	ck_assert_uint_eq(t->name_len, 10);
	ck_assert_str_eq(t->name, "DOOR"); /* the 4 bytes present, no NUL */
	t_obj_done(&D, &B);

	/* near miss: a placeholder shorter than its 56-byte record */
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_COLLECTION);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_PLACEHOLDER);
	t_w3d_u32(&B, 1);
	t_w3d_f32(&B, 3.0f);
	t_w3d_end(&B);
	t_w3d_end(&B);
	m = t_obj_model(&B, &D);
	c = m->collections[0];
	ck_assert_ptr_null(c->header);
	ck_assert_str_eq(c->name, "");
	ck_assert_uint_eq(c->placeholder_count, 1);
	ck_assert(!c->placeholders[0].ok);
	ck_assert(c->placeholders[0].transform[0][0] == 3.0f);
	ck_assert_str_eq(c->placeholders[0].name, "");
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(points_fields)
{
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_POINTS);
	t_w3d_vec3(&B, 1, 2, 3);
	t_w3d_vec3(&B, -4, 5.5f, 6);
	t_w3d_u32(&B, 0xDEADBEEFu); /* 4 stray bytes: not a point */
	t_w3d_end(&B);
	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(m->points_count, 1);
	const w3d_points *p = m->points[0];
	ck_assert_uint_eq(p->count, 2);
	ck_assert(p->v[0][0] == 1.0f && p->v[0][2] == 3.0f);
	ck_assert(p->v[1][0] == -4.0f && p->v[1][1] == 5.5f && p->v[1][2] == 6.0f);
	t_obj_done(&D, &B);
}
END_TEST

/* A LIGHT: spot light info, spot 5.0, pulse; ambient (a, a+1, a+2). */
static void spot_light(uint8_t a)
{
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LIGHT);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LIGHT_INFO);
	t_w3d_u32(&B, 3u | W3D_LIGHT_CAST_SHADOWS);
	t_w3d_u32(&B, 0);
	for (int k = 0; k < 3; k++) {
		t_w3d_u8(&B, (uint8_t)(a + k * 3));
		t_w3d_u8(&B, (uint8_t)(a + k * 3 + 1));
		t_w3d_u8(&B, (uint8_t)(a + k * 3 + 2));
		t_w3d_u8(&B, 0);
	}
	t_w3d_f32(&B, 0.75f);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_SPOT_LIGHT_INFO);
	t_w3d_vec3(&B, 0, 0, -1);
	t_w3d_f32(&B, 0.5f);
	t_w3d_f32(&B, 2.0f);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_NEAR_ATTENUATION);
	t_w3d_f32(&B, 1.0f);
	t_w3d_f32(&B, 2.0f);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_SPOT_LIGHT_INFO_5_0);
	t_w3d_f32(&B, 0.6f);
	t_w3d_f32(&B, 0.3f);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_PULSE);
	t_w3d_zeros(&B, 22);
	t_w3d_end(&B);
	/* a second LIGHT_INFO is ignored */
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LIGHT_INFO);
	t_w3d_zeros(&B, 24);
	t_w3d_end(&B);
	t_w3d_end(&B);
}

static void assert_spot(const w3d_light *l, uint8_t a)
{
	ck_assert_ptr_nonnull(l->info_src);
	ck_assert(l->info_ok);
	ck_assert_uint_eq(l->attributes & W3D_LIGHT_TYPE_MASK, 3);
	ck_assert(l->attributes & W3D_LIGHT_CAST_SHADOWS);
	ck_assert_uint_eq(l->ambient[0], a);
	ck_assert_uint_eq(l->ambient[2], a + 2);
	ck_assert_uint_eq(l->diffuse[0], a + 3);
	ck_assert_uint_eq(l->specular[2], a + 8);
	ck_assert(l->intensity == 0.75f);
	ck_assert_ptr_nonnull(l->spot_src);
	ck_assert(l->spot_direction[2] == -1.0f && l->spot_angle == 0.5f && l->spot_exponent == 2.0f);
	ck_assert(l->near_atten[0] == 1.0f && l->near_atten[1] == 2.0f);
	ck_assert_ptr_null(l->far_src);
	ck_assert_ptr_nonnull(l->spot_5_0_src);
	ck_assert(l->spot_outer_angle == 0.6f && l->spot_inner_angle == 0.3f);
	ck_assert_ptr_nonnull(l->pulse_src);
}

START_TEST(light_spot_and_pulse)
{
	t_w3d_init(&B);
	spot_light(0x10);
	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(m->light_count, 1);
	assert_spot(m->lights[0], 0x10);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(lightscape_lights)
{
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LIGHTSCAPE);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LIGHTSCAPE_LIGHT);
	spot_light(0x40);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LIGHT_TRANSFORM);
	for (int i = 0; i < 12; i++)
		t_w3d_f32(&B, (float)i * 0.5f);
	t_w3d_end(&B);
	t_w3d_end(&B);
	/* a second light with only a transform */
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LIGHTSCAPE_LIGHT);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_LIGHT_TRANSFORM);
	for (int i = 0; i < 12; i++)
		t_w3d_f32(&B, 100.0f + (float)i);
	t_w3d_end(&B);
	t_w3d_end(&B);
	t_w3d_end(&B);
	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(m->lightscape_count, 1);
	const w3d_lightscape *s = m->lightscapes[0];
	ck_assert_uint_eq(s->light_count, 2);
	assert_spot(&s->lights[0].light, 0x40);
	ck_assert_ptr_nonnull(s->lights[0].transform_src);
	ck_assert(s->lights[0].transform[0][1] == 0.5f && s->lights[0].transform[2][3] == 5.5f);
	ck_assert_ptr_null(s->lights[1].light.src);
	ck_assert(s->lights[1].transform[1][0] == 104.0f);
	t_obj_done(&D, &B);
}
END_TEST

START_TEST(aggregate_replacer_and_class)
{
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_AGGREGATE);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_AGGREGATE_HEADER);
	t_w3d_u32(&B, 0x00010002u);
	t_w3d_name(&B, "AGG", 16);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_AGGREGATE_INFO);
	t_w3d_name(&B, "BASEMODEL", 32);
	t_w3d_u32(&B, 2);
	t_w3d_name(&B, "AGG.A", 32);
	t_w3d_name(&B, "BONE_A", 32);
	t_w3d_name(&B, "AGG.B", 32);
	t_w3d_name(&B, "BONE_B", 32);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_TEXTURE_REPLACER_INFO);
	t_w3d_u32(&B, 4);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_AGGREGATE_CLASS_INFO);
	t_w3d_u32(&B, 0x1234u);
	t_w3d_u32(&B, 0x3u);
	t_w3d_zeros(&B, 12);
	t_w3d_end(&B);
	t_w3d_end(&B);
	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(m->aggregate_count, 1);
	const w3d_aggregate *a = m->aggregates[0];
	ck_assert(a->header_ok && a->info_ok);
	ck_assert_uint_eq(a->version, 0x00010002u);
	ck_assert_str_eq(a->name, "AGG");
	ck_assert_str_eq(a->base_model_name, "BASEMODEL");
	ck_assert_uint_eq(a->subobject_count, 2);
	ck_assert_uint_eq(a->subobject_array_count, 2);
	ck_assert_str_eq(a->subobjects[1].subobject_name, "AGG.B");
	ck_assert_str_eq(a->subobjects[1].bone_name, "BONE_B");
	ck_assert_ptr_nonnull(a->texture_replacer);
	ck_assert_uint_eq(a->replaced_textures_count, 4);
	ck_assert_ptr_nonnull(a->class_info);
	ck_assert_uint_eq(a->original_class_id, 0x1234u);
	ck_assert_uint_eq(a->flags, 3);
	t_obj_done(&D, &B);
}
END_TEST

/* SHDSUBMESH with tris/verts, bounds at base, a shader class and nv
 * vertices and normals. */
static void submesh(uint32_t tris, uint32_t verts, float base, uint32_t shader, uint32_t nv)
{
	t_w3d_begin(&B, W3D_OBJ_CHUNK_SHDSUBMESH);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_SHDSUBMESH_HEADER);
	t_w3d_u32(&B, tris);
	t_w3d_u32(&B, verts);
	t_w3d_zeros(&B, 8);
	t_w3d_vec3(&B, base, base, base);
	t_w3d_vec3(&B, base + 1, base + 1, base + 1);
	t_w3d_vec3(&B, base + 0.5f, base + 0.5f, base + 0.5f);
	t_w3d_f32(&B, 0.866f);
	t_w3d_end(&B);
	if (shader) {
		t_w3d_begin(&B, W3D_OBJ_CHUNK_SHDSUBMESH_SHADER);
		t_w3d_begin(&B, W3D_OBJ_CHUNK_SHDSUBMESH_SHADER_CLASSID);
		t_w3d_u32(&B, shader);
		t_w3d_end(&B);
		t_w3d_end(&B);
	}
	t_w3d_begin(&B, W3D_OBJ_CHUNK_SHDSUBMESH_VERTICES);
	for (uint32_t i = 0; i < nv; i++)
		t_w3d_vec3(&B, (float)i, 0, 0);
	t_w3d_end(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_SHDSUBMESH_VERTEX_NORMALS);
	for (uint32_t i = 0; i < nv; i++)
		t_w3d_vec3(&B, 0, 0, 1);
	t_w3d_end(&B);
	t_w3d_end(&B);
}

START_TEST(shdmesh_fields)
{
	t_w3d_init(&B);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_SHDMESH);
	t_w3d_chunk(&B, W3D_OBJ_CHUNK_SHDMESH_NAME, "ZH.SHD", 7);
	t_w3d_begin(&B, W3D_OBJ_CHUNK_SHDMESH_HEADER);
	t_w3d_u32(&B, 0x00010000u);
	t_w3d_u32(&B, 0x5u);
	t_w3d_u32(&B, 12);
	t_w3d_u32(&B, 8);
	t_w3d_u32(&B, 2);
	t_w3d_zeros(&B, 20);
	t_w3d_vec3(&B, -1, -2, -3);
	t_w3d_vec3(&B, 1, 2, 3);
	t_w3d_vec3(&B, 0, 0, 0);
	t_w3d_f32(&B, 3.75f);
	t_w3d_end(&B);
	t_w3d_chunk(&B, W3D_OBJ_CHUNK_SHDMESH_USER_TEXT, "note", 5);
	submesh(4, 3, 10.0f, 7, 3);
	submesh(8, 5, 20.0f, 0, 5);
	t_w3d_end(&B);
	const w3d_model *m = t_obj_model(&B, &D);
	ck_assert_uint_eq(m->shdmesh_count, 1);
	const w3d_shdmesh *s = m->shdmeshes[0];
	ck_assert_str_eq(s->name, "ZH.SHD");
	ck_assert(s->name_terminated);
	ck_assert_str_eq(wl_chunk_label(D, s->src), "ZH.SHD");
	ck_assert(s->header_ok);
	ck_assert_uint_eq(s->version, 0x00010000u);
	ck_assert_uint_eq(s->flags, 5);
	ck_assert_uint_eq(s->num_triangles, 12);
	ck_assert_uint_eq(s->num_vertices, 8);
	ck_assert_uint_eq(s->num_sub_meshes, 2);
	ck_assert(s->box_min[2] == -3.0f && s->box_max[1] == 2.0f && s->sph_radius == 3.75f);
	ck_assert_ptr_nonnull(s->user_text_src);
	ck_assert_uint_eq(s->sub_mesh_count, 2);
	const w3d_shdsubmesh *a = &s->sub_meshes[0], *b = &s->sub_meshes[1];
	ck_assert(a->header_ok);
	ck_assert_uint_eq(a->num_triangles, 4);
	ck_assert_uint_eq(a->num_vertices, 3);
	ck_assert(a->box_min[0] == 10.0f && a->box_max[0] == 11.0f && a->sph_center[1] == 10.5f);
	ck_assert(a->sph_radius == 0.866f);
	ck_assert(a->has_shader_class);
	ck_assert_uint_eq(a->shader_class, 7);
	ck_assert_uint_eq(a->vertex_count, 3);
	ck_assert_uint_eq(a->normal_count, 3);
	ck_assert_uint_eq(b->num_triangles, 8);
	ck_assert(!b->has_shader_class);
	ck_assert_uint_eq(b->shader_class, 0);
	ck_assert_uint_eq(b->vertex_count, 5);
	ck_assert(b->box_min[0] == 20.0f);
	t_obj_done(&D, &B);
}
END_TEST

Suite *cov_decode_objects_suite(void)
{
	const TTest *tests[] = {
		morph_animation_fields, hmodel_node_kinds, lodmodel_fields, collection_fields,
		points_fields, light_spot_and_pulse, lightscape_lights,
		aggregate_replacer_and_class, shdmesh_fields, NULL
	};
	return t_robust_suite_of("cov_decode_objects", "decode", 0, tests);
}
