/* build_objects.c - see build_objects.h. */
#include "build_objects.h"

#include <check.h>

#include "core/w3d/model.h"
#include "lint/lint.h"
#include "reader_util.h"

void w3d_check_objects(wl_lint_ctx *ctx);
void w3d_check_strings(wl_lint_ctx *ctx);

t_obj_emitter_opts t_obj_emitter_defaults(void)
{
	return (t_obj_emitter_opts){ .version = 0x00020000u,
				  .props_counts = { 1, 1, 1 },
				  .props_keys = { 1, 1, 1 },
				  .rotation_count = 1,
				  .rotation_keys = 2,
				  .user_string_size = 6,
				  .user_string_bytes = 6 };
}

static void user_data(wb *b, const t_obj_emitter_opts *o, t_obj_emitter_at *at)
{
	t_w3d_begin(b, W3D_OBJ_CHUNK_EMITTER_USER_DATA);
	at->user_payload = b->len;
	t_w3d_u32(b, 0);
	t_w3d_u32(b, o->user_string_size);
	t_w3d_zeros(b, 4);
	static const char s[] = "SMOKE\0SMOKE\0";
	for (uint32_t i = 0; i < o->user_string_bytes; i++)
		t_w3d_u8(b, (uint8_t)s[i % (sizeof s - 1)]);
	t_w3d_end(b);
}

static void info(wb *b, t_obj_emitter_at *at)
{
	t_w3d_begin(b, W3D_OBJ_CHUNK_EMITTER_INFO);
	at->info_payload = b->len;
	t_w3d_name(b, "FIRE.TGA", 260);
	for (int i = 0; i < 10; i++)
		t_w3d_f32(b, 1.0f);
	t_w3d_vec3(b, 0, 0, 1);
	t_w3d_vec3(b, 0, 0, -9.8f);
	t_w3d_u32(b, 0x00FFFFFF);
	t_w3d_u32(b, 0x00000000);
	t_w3d_end(b);
}

void t_obj_emitter(wb *b, const t_obj_emitter_opts *o, t_obj_emitter_at *at)
{
	size_t nchild = 0;
	at->object = b->len;
	t_w3d_begin(b, W3D_OBJ_CHUNK_EMITTER);
	at->child[nchild++] = b->len;
	t_w3d_begin(b, W3D_OBJ_CHUNK_EMITTER_HEADER);
	t_w3d_u32(b, o->version);
	t_w3d_name(b, "FIRE", 16);
	t_w3d_end(b);
	at->child[nchild++] = b->len;
	if (o->swap_user_info) {
		info(b, at);
		at->child[nchild++] = b->len;
		user_data(b, o, at);
	} else {
		user_data(b, o, at);
		at->child[nchild++] = b->len;
		info(b, at);
	}
	at->child[nchild++] = b->len;
	t_w3d_begin(b, W3D_OBJ_CHUNK_EMITTER_INFOV2);
	t_w3d_u32(b, 1);
	t_w3d_zeros(b, 64);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, 0);
	t_w3d_zeros(b, 16);
	t_w3d_u32(b, 1); /* RenderMode quad */
	t_w3d_u32(b, 0);
	t_w3d_zeros(b, 24);
	t_w3d_end(b);
	at->child[nchild++] = b->len;
	at->props = b->len;
	t_w3d_begin(b, W3D_OBJ_CHUNK_EMITTER_PROPS);
	for (int i = 0; i < 3; i++)
		t_w3d_u32(b, o->props_counts[i]);
	t_w3d_u32(b, 0);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, 0);
	t_w3d_zeros(b, 16);
	for (int i = 0; i < 3; i++)
		for (uint32_t k = 0; k < o->props_keys[i]; k++) {
			t_w3d_f32(b, (float)k);
			t_w3d_u32(b, 0xFFFFFFFFu);
		}
	t_w3d_end(b);
	at->rotation = b->len;
	t_w3d_begin(b, W3D_OBJ_CHUNK_EMITTER_ROTATION_KEYFRAMES);
	t_w3d_u32(b, o->rotation_count);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, 0);
	t_w3d_u32(b, 0);
	for (uint32_t k = 0; k < o->rotation_keys; k++) {
		t_w3d_f32(b, (float)k);
		t_w3d_f32(b, 1.0f);
	}
	t_w3d_end(b);
	if (o->extra_info) {
		t_w3d_begin(b, W3D_OBJ_CHUNK_EMITTER_EXTRA_INFO);
		t_w3d_f32(b, 0);
		t_w3d_zeros(b, 36);
		t_w3d_end(b);
	}
	t_w3d_end(b);
}

/* Opens the object chunk id and its header chunk hid and writes the start
 * of the header, version and a 16-byte name; the header stays open. */
static void begin_with_header(wb *b, uint32_t id, uint32_t hid, uint32_t version, const char *name)
{
	t_w3d_begin(b, id);
	t_w3d_begin(b, hid);
	t_w3d_u32(b, version);
	t_w3d_name(b, name, 16);
}

void t_obj_aggregate(wb *b, uint32_t count, uint32_t written, size_t *info_at)
{
	begin_with_header(b, W3D_OBJ_CHUNK_AGGREGATE, W3D_OBJ_CHUNK_AGGREGATE_HEADER, 0x00010003u, "AGG");
	t_w3d_end(b);
	*info_at = b->len;
	t_w3d_begin(b, W3D_OBJ_CHUNK_AGGREGATE_INFO);
	t_w3d_name(b, "BASE.MODEL", 32);
	t_w3d_u32(b, count);
	for (uint32_t i = 0; i < written; i++) {
		t_w3d_name(b, "SUB.OBJECT", 32);
		t_w3d_name(b, "BONE01", 32);
	}
	t_w3d_end(b);
	t_w3d_begin(b, W3D_OBJ_CHUNK_AGGREGATE_CLASS_INFO);
	t_w3d_u32(b, 0x1234);
	t_w3d_u32(b, 1);
	t_w3d_zeros(b, 12);
	t_w3d_end(b);
	t_w3d_end(b);
}

void t_obj_hmodel(wb *b, uint16_t conns, unsigned nodes, size_t *node)
{
	begin_with_header(b, W3D_OBJ_CHUNK_HMODEL, W3D_OBJ_CHUNK_HMODEL_HEADER, 0x00040002u, "HM");
	t_w3d_name(b, "HM_SKEL", 16);
	t_w3d_u16(b, conns);
	t_w3d_u16(b, 0); /* tail padding */
	t_w3d_end(b);
	for (unsigned i = 0; i < nodes; i++) {
		if (node)
			node[i] = b->len;
		t_w3d_begin(b, i % 2 ? W3D_OBJ_CHUNK_SKIN_NODE : W3D_OBJ_CHUNK_NODE);
		t_w3d_name(b, "PART", 16);
		t_w3d_u16(b, (uint16_t)i);
		t_w3d_end(b);
	}
	t_w3d_end(b);
}

size_t t_obj_dazzle(wb *b, bool with_name)
{
	size_t at = b->len;
	t_w3d_begin(b, W3D_OBJ_CHUNK_DAZZLE);
	if (with_name)
		t_w3d_chunk(b, W3D_OBJ_CHUNK_DAZZLE_NAME, "OBJ.DAZ", 8);
	t_w3d_chunk(b, W3D_OBJ_CHUNK_DAZZLE_TYPENAME, "SUN", 4);
	t_w3d_end(b);
	return at;
}

size_t t_obj_null_object(wb *b, size_t extra)
{
	size_t at = b->len;
	t_w3d_begin(b, W3D_OBJ_CHUNK_NULL_OBJECT);
	t_w3d_u32(b, 0x00010000u);
	t_w3d_u32(b, 0);
	t_w3d_zeros(b, 8);
	t_w3d_name(b, "OBJ.NULL", 32);
	t_w3d_zeros(b, extra);
	t_w3d_end(b);
	return at;
}

size_t t_obj_light(wb *b)
{
	size_t at = b->len;
	t_w3d_begin(b, W3D_OBJ_CHUNK_LIGHT);
	t_w3d_begin(b, W3D_OBJ_CHUNK_LIGHT_INFO);
	t_w3d_u32(b, 1 | 0x100); /* point, cast shadows */
	t_w3d_u32(b, 0);
	t_w3d_u32(b, 0x00102030);
	t_w3d_u32(b, 0x00FFFFFF);
	t_w3d_u32(b, 0x00808080);
	t_w3d_f32(b, 2.5f);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_OBJ_CHUNK_NEAR_ATTENUATION);
	t_w3d_f32(b, 1);
	t_w3d_f32(b, 2);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_OBJ_CHUNK_FAR_ATTENUATION);
	t_w3d_f32(b, 10);
	t_w3d_f32(b, 20);
	t_w3d_end(b);
	t_w3d_end(b);
	return at;
}

size_t t_obj_primitive(wb *b, bool ring, const char *name)
{
	size_t at = b->len;
	t_w3d_begin(b, ring ? W3D_OBJ_CHUNK_RING : W3D_OBJ_CHUNK_SPHERE);
	t_w3d_begin(b, W3D_OBJ_PRIM_DEF);
	t_w3d_u32(b, 0x00010000u);
	t_w3d_u32(b, 2);
	t_w3d_name(b, name, 32);
	t_w3d_vec3(b, 1, 2, 3);
	t_w3d_vec3(b, 4, 5, 6);
	t_w3d_f32(b, 1.5f);
	t_w3d_zeros(b, 116 - 68);
	t_w3d_name(b, "GLOW.TGA", 32);
	t_w3d_zeros(b, 16); /* shader */
	if (ring)
		t_w3d_u32(b, 1); /* TextureTileCount */
	t_w3d_end(b);
	t_w3d_begin(b, W3D_OBJ_PRIM_FIRST_CHANNEL);
	t_w3d_begin(b, 0x03150809u);
	t_w3d_end(b);
	t_w3d_end(b);
	t_w3d_end(b);
	return at;
}

wl_doc *t_obj_lint_bytes(const uint8_t *p, size_t n)
{
	wl_doc *d = t_read(p, n);
	if (!d)
		return NULL;
	w3d_model *m = w3d_model_build(d);
	if (m && !d->oom) {
		wl_lint_ctx ctx = { d, m, NULL, NULL };
		w3d_check_objects(&ctx);
		w3d_check_strings(&ctx);
	}
	return d;
}

wl_doc *t_obj_lint(const wb *b)
{
	return t_obj_lint_bytes(b->data, b->len);
}

void t_obj_free(wl_doc *d)
{
	t_free(d);
}

const w3d_model *t_obj_model(const wb *b, wl_doc **d)
{
	*d = t_obj_lint(b);
	ck_assert_ptr_nonnull(*d);
	ck_assert_ptr_nonnull((*d)->model);
	return (*d)->model;
}

void t_obj_done(wl_doc **d, wb *b)
{
	t_obj_free(*d);
	t_w3d_free(b);
	*d = NULL;
}
