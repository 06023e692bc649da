/* build_objects.c - see build_objects.h. */
#include "build_objects.h"

#include <check.h>

#include "core/w3d/model.h"
#include "lint/lint.h"
#include "reader_util.h"

void w3d_check_objects(wl_lint_ctx *ctx);
void w3d_check_strings(wl_lint_ctx *ctx);

bo_emitter_opts bo_emitter_defaults(void)
{
	return (bo_emitter_opts){ .version = 0x00020000u,
				  .props_counts = { 1, 1, 1 },
				  .props_keys = { 1, 1, 1 },
				  .rotation_count = 1,
				  .rotation_keys = 2,
				  .user_string_size = 6,
				  .user_string_bytes = 6 };
}

static void user_data(wb *b, const bo_emitter_opts *o, bo_emitter_at *at)
{
	wb_begin(b, W3D_OBJ_CHUNK_EMITTER_USER_DATA);
	at->user_payload = b->len;
	wb_u32(b, 0);
	wb_u32(b, o->user_string_size);
	wb_zeros(b, 4);
	static const char s[] = "SMOKE\0SMOKE\0";
	for (uint32_t i = 0; i < o->user_string_bytes; i++)
		wb_u8(b, (uint8_t)s[i % (sizeof s - 1)]);
	wb_end(b);
}

static void info(wb *b, bo_emitter_at *at)
{
	wb_begin(b, W3D_OBJ_CHUNK_EMITTER_INFO);
	at->info_payload = b->len;
	wb_name(b, "FIRE.TGA", 260);
	for (int i = 0; i < 10; i++)
		wb_f32(b, 1.0f);
	wb_vec3(b, 0, 0, 1);
	wb_vec3(b, 0, 0, -9.8f);
	wb_u32(b, 0x00FFFFFF);
	wb_u32(b, 0x00000000);
	wb_end(b);
}

void bo_emitter(wb *b, const bo_emitter_opts *o, bo_emitter_at *at)
{
	size_t nchild = 0;
	at->object = b->len;
	wb_begin(b, W3D_OBJ_CHUNK_EMITTER);
	at->child[nchild++] = b->len;
	wb_begin(b, W3D_OBJ_CHUNK_EMITTER_HEADER);
	wb_u32(b, o->version);
	wb_name(b, "FIRE", 16);
	wb_end(b);
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
	wb_begin(b, W3D_OBJ_CHUNK_EMITTER_INFOV2);
	wb_u32(b, 1);
	wb_zeros(b, 64);
	wb_f32(b, 0);
	wb_f32(b, 0);
	wb_zeros(b, 16);
	wb_u32(b, 1); /* RenderMode quad */
	wb_u32(b, 0);
	wb_zeros(b, 24);
	wb_end(b);
	at->child[nchild++] = b->len;
	at->props = b->len;
	wb_begin(b, W3D_OBJ_CHUNK_EMITTER_PROPS);
	for (int i = 0; i < 3; i++)
		wb_u32(b, o->props_counts[i]);
	wb_u32(b, 0);
	wb_f32(b, 0);
	wb_f32(b, 0);
	wb_zeros(b, 16);
	for (int i = 0; i < 3; i++)
		for (uint32_t k = 0; k < o->props_keys[i]; k++) {
			wb_f32(b, (float)k);
			wb_u32(b, 0xFFFFFFFFu);
		}
	wb_end(b);
	at->rotation = b->len;
	wb_begin(b, W3D_OBJ_CHUNK_EMITTER_ROTATION_KEYFRAMES);
	wb_u32(b, o->rotation_count);
	wb_f32(b, 0);
	wb_f32(b, 0);
	wb_u32(b, 0);
	for (uint32_t k = 0; k < o->rotation_keys; k++) {
		wb_f32(b, (float)k);
		wb_f32(b, 1.0f);
	}
	wb_end(b);
	if (o->extra_info) {
		wb_begin(b, W3D_OBJ_CHUNK_EMITTER_EXTRA_INFO);
		wb_f32(b, 0);
		wb_zeros(b, 36);
		wb_end(b);
	}
	wb_end(b);
}

/* Opens the object chunk id and its header chunk hid and writes the start
 * of the header, version and a 16-byte name; the header stays open. */
static void begin_with_header(wb *b, uint32_t id, uint32_t hid, uint32_t version, const char *name)
{
	wb_begin(b, id);
	wb_begin(b, hid);
	wb_u32(b, version);
	wb_name(b, name, 16);
}

void bo_aggregate(wb *b, uint32_t count, uint32_t written, size_t *info_at)
{
	begin_with_header(b, W3D_OBJ_CHUNK_AGGREGATE, W3D_OBJ_CHUNK_AGGREGATE_HEADER, 0x00010003u, "AGG");
	wb_end(b);
	*info_at = b->len;
	wb_begin(b, W3D_OBJ_CHUNK_AGGREGATE_INFO);
	wb_name(b, "BASE.MODEL", 32);
	wb_u32(b, count);
	for (uint32_t i = 0; i < written; i++) {
		wb_name(b, "SUB.OBJECT", 32);
		wb_name(b, "BONE01", 32);
	}
	wb_end(b);
	wb_begin(b, W3D_OBJ_CHUNK_AGGREGATE_CLASS_INFO);
	wb_u32(b, 0x1234);
	wb_u32(b, 1);
	wb_zeros(b, 12);
	wb_end(b);
	wb_end(b);
}

void bo_hmodel(wb *b, uint16_t conns, unsigned nodes, size_t *node)
{
	begin_with_header(b, W3D_OBJ_CHUNK_HMODEL, W3D_OBJ_CHUNK_HMODEL_HEADER, 0x00040002u, "HM");
	wb_name(b, "HM_SKEL", 16);
	wb_u16(b, conns);
	wb_u16(b, 0); /* tail padding */
	wb_end(b);
	for (unsigned i = 0; i < nodes; i++) {
		if (node)
			node[i] = b->len;
		wb_begin(b, i % 2 ? W3D_OBJ_CHUNK_SKIN_NODE : W3D_OBJ_CHUNK_NODE);
		wb_name(b, "PART", 16);
		wb_u16(b, (uint16_t)i);
		wb_end(b);
	}
	wb_end(b);
}

size_t bo_dazzle(wb *b, bool with_name)
{
	size_t at = b->len;
	wb_begin(b, W3D_OBJ_CHUNK_DAZZLE);
	if (with_name)
		wb_chunk(b, W3D_OBJ_CHUNK_DAZZLE_NAME, "OBJ.DAZ", 8);
	wb_chunk(b, W3D_OBJ_CHUNK_DAZZLE_TYPENAME, "SUN", 4);
	wb_end(b);
	return at;
}

size_t bo_null_object(wb *b, size_t extra)
{
	size_t at = b->len;
	wb_begin(b, W3D_OBJ_CHUNK_NULL_OBJECT);
	wb_u32(b, 0x00010000u);
	wb_u32(b, 0);
	wb_zeros(b, 8);
	wb_name(b, "OBJ.NULL", 32);
	wb_zeros(b, extra);
	wb_end(b);
	return at;
}

size_t bo_light(wb *b)
{
	size_t at = b->len;
	wb_begin(b, W3D_OBJ_CHUNK_LIGHT);
	wb_begin(b, W3D_OBJ_CHUNK_LIGHT_INFO);
	wb_u32(b, 1 | 0x100); /* point, cast shadows */
	wb_u32(b, 0);
	wb_u32(b, 0x00102030);
	wb_u32(b, 0x00FFFFFF);
	wb_u32(b, 0x00808080);
	wb_f32(b, 2.5f);
	wb_end(b);
	wb_begin(b, W3D_OBJ_CHUNK_NEAR_ATTENUATION);
	wb_f32(b, 1);
	wb_f32(b, 2);
	wb_end(b);
	wb_begin(b, W3D_OBJ_CHUNK_FAR_ATTENUATION);
	wb_f32(b, 10);
	wb_f32(b, 20);
	wb_end(b);
	wb_end(b);
	return at;
}

size_t bo_primitive(wb *b, bool ring, const char *name)
{
	size_t at = b->len;
	wb_begin(b, ring ? W3D_OBJ_CHUNK_RING : W3D_OBJ_CHUNK_SPHERE);
	wb_begin(b, W3D_OBJ_PRIM_DEF);
	wb_u32(b, 0x00010000u);
	wb_u32(b, 2);
	wb_name(b, name, 32);
	wb_vec3(b, 1, 2, 3);
	wb_vec3(b, 4, 5, 6);
	wb_f32(b, 1.5f);
	wb_zeros(b, 116 - 68);
	wb_name(b, "GLOW.TGA", 32);
	wb_zeros(b, 16); /* shader */
	if (ring)
		wb_u32(b, 1); /* TextureTileCount */
	wb_end(b);
	wb_begin(b, W3D_OBJ_PRIM_FIRST_CHANNEL);
	wb_begin(b, 0x03150809u);
	wb_end(b);
	wb_end(b);
	wb_end(b);
	return at;
}

wl_doc *bo_lint_bytes(const uint8_t *p, size_t n)
{
	wl_doc *d = ru_read(p, n);
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

wl_doc *bo_lint(const wb *b)
{
	return bo_lint_bytes(b->data, b->len);
}

void bo_free(wl_doc *d)
{
	ru_free(d);
}

const w3d_model *bo_model(const wb *b, wl_doc **d)
{
	*d = bo_lint(b);
	ck_assert_ptr_nonnull(*d);
	ck_assert_ptr_nonnull((*d)->model);
	return (*d)->model;
}

void bo_done(wl_doc **d, wb *b)
{
	bo_free(*d);
	wb_free(b);
	*d = NULL;
}
