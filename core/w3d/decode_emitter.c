/* decode_emitter.c - the EMITTER decoder; see objects.h.
 *
 * Layouts: notes/w3d_reference.md §2.10 (REN part_ldr.cpp, w3d_file.h
 * :1681-1760).  The loader reads HEADER, USER_DATA and INFO first, then,
 * for Version > 0x10000, INFOV2 and PROPS, then the optional chunks by id
 * (part_ldr.cpp:349-405); this decoder takes every known child wherever it
 * is (the order is a rule, emitter-chunk-order) and keeps the first of each. */
#include "objects.h"

#include "core/cursor.h"
#include "decode_util.h"
#include "hierarchy.h"

static wl_cursor cursor_of(const wl_doc *doc, const wl_chunk *k)
{
	size_t len;
	const uint8_t *p = w3d_payload_clamped(doc, k, &len);
	return wl_cursor_make(p, len, wl_chunk_payload_offset(k));
}

/* Takes up to want keys of 8 bytes from the cursor (as many whole keys as
 * remain when fewer). */
static void take_keys(wl_cursor *cur, uint64_t want, w3d_emitter_keys *k)
{
	size_t have = wl_cursor_remaining(cur) / W3D_EMITTER_KEY_SIZE;
	size_t n = want < have ? (size_t)want : have;
	k->offset = wl_cursor_offset(cur);
	k->data = wl_cursor_take(cur, n * W3D_EMITTER_KEY_SIZE);
	k->count = k->data ? n : 0;
}

static void decode_header(wl_doc *doc, wl_chunk *c, const wl_chunk *k, w3d_emitter *e)
{
	wl_cursor cur = cursor_of(doc, k);
	e->header = k;
	e->header_ok = cur.len >= W3D_EMITTER_HEADER_SIZE;
	e->version = wl_cursor_u32(&cur);
	const uint8_t *nm = wl_cursor_take(&cur, 16);
	if (nm) {
		const char *s = w3d_label_from_field(doc, c, nm, 16, &e->name_terminated);
		e->name = s ? s : "";
	}
}

static void decode_user_data(wl_doc *doc, const wl_chunk *k, w3d_emitter *e)
{
	wl_cursor cur = cursor_of(doc, k);
	e->user_data = k;
	e->user_data_ok = cur.len >= W3D_EMITTER_USER_SIZE;
	e->user_type = wl_cursor_u32(&cur);
	e->user_string_size = wl_cursor_u32(&cur);
	if (!e->user_data_ok)
		return;
	wl_cursor_skip(&cur, 4); /* StringParam[1] + pad */
	size_t avail = wl_cursor_remaining(&cur);
	size_t n = e->user_string_size < avail ? e->user_string_size : avail;
	const uint8_t *s = wl_cursor_take(&cur, n);
	size_t len = 0;
	while (s && len < n && s[len])
		len++;
	char *t = wl_arena_strndup(doc->arena, s ? (const char *)s : "", len);
	if (!t)
		doc->oom = true;
	else
		e->user_string = t;
}

static void decode_info(wl_doc *doc, const wl_chunk *k, w3d_emitter *e)
{
	wl_cursor cur = cursor_of(doc, k);
	e->info = k;
	e->info_ok = cur.len >= W3D_EMITTER_INFO_SIZE;
	const uint8_t *tf = wl_cursor_take(&cur, 260);
	if (tf) {
		const char *s = w3d_name_field(doc, tf, 260, &e->texture_filename_terminated);
		e->texture_filename = s ? s : "";
	}
	float *f[] = { &e->start_size, &e->end_size, &e->lifetime, &e->emission_rate, &e->max_emissions,
		       &e->velocity_random, &e->position_random, &e->fade_time, &e->gravity, &e->elasticity };
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		*f[i] = wl_cursor_f32(&cur);
	w3d_read_f32s(&cur, e->velocity, 3);
	w3d_read_f32s(&cur, e->acceleration, 3);
	wl_cursor_bytes(&cur, e->start_color, 4);
	wl_cursor_bytes(&cur, e->end_color, 4);
}

static void read_randomizer(wl_cursor *cur, w3d_volume_randomizer *r)
{
	r->class_id = wl_cursor_u32(cur);
	w3d_read_f32s(cur, r->value, 3);
	wl_cursor_skip(cur, 16); /* reserved[4] */
}

static void decode_info_v2(wl_doc *doc, const wl_chunk *k, w3d_emitter *e)
{
	wl_cursor cur = cursor_of(doc, k);
	e->info_v2 = k;
	e->info_v2_ok = cur.len >= W3D_EMITTER_INFOV2_SIZE;
	e->burst_size = wl_cursor_u32(&cur);
	read_randomizer(&cur, &e->creation_volume);
	read_randomizer(&cur, &e->velocity_randomizer);
	e->outward_vel = wl_cursor_f32(&cur);
	e->vel_inherit = wl_cursor_f32(&cur);
	wl_cursor_bytes(&cur, e->shader, 16);
	e->render_mode = wl_cursor_u32(&cur);
	e->frame_mode = wl_cursor_u32(&cur);
}

static void decode_props(wl_doc *doc, const wl_chunk *k, w3d_emitter *e)
{
	wl_cursor cur = cursor_of(doc, k);
	e->props = k;
	e->props_ok = cur.len >= W3D_EMITTER_PROPS_SIZE;
	e->color_keyframes = wl_cursor_u32(&cur);
	e->opacity_keyframes = wl_cursor_u32(&cur);
	e->size_keyframes = wl_cursor_u32(&cur);
	wl_cursor_bytes(&cur, e->color_random, 4);
	e->opacity_random = wl_cursor_f32(&cur);
	e->size_random = wl_cursor_f32(&cur);
	wl_cursor_skip(&cur, 16); /* reserved[4] */
	if (!e->props_ok)
		return;
	take_keys(&cur, e->color_keyframes, &e->color_keys);
	take_keys(&cur, e->opacity_keyframes, &e->opacity_keys);
	take_keys(&cur, e->size_keyframes, &e->size_keys);
}

static void decode_keyframes(wl_doc *doc, const wl_chunk *k, uint32_t header_size, w3d_emitter_keyframes *kf)
{
	wl_cursor cur = cursor_of(doc, k);
	kf->src = k;
	kf->header_size = header_size;
	kf->header_ok = cur.len >= header_size;
	kf->keyframe_count = wl_cursor_u32(&cur);
	kf->random = wl_cursor_f32(&cur);
	if (k->id == W3D_OBJ_CHUNK_EMITTER_ROTATION_KEYFRAMES)
		kf->orientation_random = wl_cursor_f32(&cur);
	if (!kf->header_ok)
		return;
	wl_cursor_skip(&cur, header_size - cur.pos); /* reserved words */
	take_keys(&cur, (uint64_t)kf->keyframe_count + 1, &kf->keys);
}

static void decode_line(wl_doc *doc, const wl_chunk *k, w3d_emitter *e)
{
	wl_cursor cur = cursor_of(doc, k);
	e->line_properties = k;
	e->line_flags = wl_cursor_u32(&cur);
	e->subdivision_level = wl_cursor_u32(&cur);
	e->noise_amplitude = wl_cursor_f32(&cur);
	e->merge_abort_factor = wl_cursor_f32(&cur);
	e->texture_tile_factor = wl_cursor_f32(&cur);
	e->u_per_sec = wl_cursor_f32(&cur);
	e->v_per_sec = wl_cursor_f32(&cur);
}

w3d_emitter *w3d_decode_emitter(wl_doc *doc, wl_chunk *c)
{
	w3d_emitter *e = w3d_alloc_decoded(
		doc, &(w3d_emitter){ .src = c, .name = "", .user_string = "", .texture_filename = "" }, sizeof *e);
	if (!e)
		return NULL;
	for (const wl_chunk *k = c->first_child; k && !doc->oom; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		switch (k->id) {
		case W3D_OBJ_CHUNK_EMITTER_HEADER:
			if (!e->header)
				decode_header(doc, c, k, e);
			break;
		case W3D_OBJ_CHUNK_EMITTER_USER_DATA:
			if (!e->user_data)
				decode_user_data(doc, k, e);
			break;
		case W3D_OBJ_CHUNK_EMITTER_INFO:
			if (!e->info)
				decode_info(doc, k, e);
			break;
		case W3D_OBJ_CHUNK_EMITTER_INFOV2:
			if (!e->info_v2)
				decode_info_v2(doc, k, e);
			break;
		case W3D_OBJ_CHUNK_EMITTER_PROPS:
			if (!e->props)
				decode_props(doc, k, e);
			break;
		case W3D_OBJ_CHUNK_EMITTER_LINE_PROPERTIES:
			if (!e->line_properties)
				decode_line(doc, k, e);
			break;
		case W3D_OBJ_CHUNK_EMITTER_ROTATION_KEYFRAMES:
			if (!e->rotation.src)
				decode_keyframes(doc, k, W3D_EMITTER_ROT_HEADER_SIZE, &e->rotation);
			break;
		case W3D_OBJ_CHUNK_EMITTER_FRAME_KEYFRAMES:
			if (!e->frame.src)
				decode_keyframes(doc, k, W3D_EMITTER_FRAME_HEADER_SIZE, &e->frame);
			break;
		case W3D_OBJ_CHUNK_EMITTER_BLUR_TIME_KEYFRAMES:
			if (!e->blur_time.src)
				decode_keyframes(doc, k, W3D_EMITTER_BLUR_HEADER_SIZE, &e->blur_time);
			break;
		case W3D_OBJ_CHUNK_EMITTER_EXTRA_INFO:
			if (!e->extra_info) {
				wl_cursor cur = cursor_of(doc, k);
				e->extra_info = k;
				e->future_start_time = wl_cursor_f32(&cur);
			}
			break;
		default:
			break;
		}
	}
	return doc->oom ? NULL : e;
}

uint64_t w3d_emitter_props_need(const w3d_emitter *e)
{
	return W3D_EMITTER_PROPS_SIZE +
	       (uint64_t)W3D_EMITTER_KEY_SIZE *
		       ((uint64_t)e->color_keyframes + e->opacity_keyframes + e->size_keyframes);
}

uint64_t w3d_emitter_keyframes_need(const w3d_emitter_keyframes *k)
{
	return k->header_size + (uint64_t)W3D_EMITTER_KEY_SIZE * ((uint64_t)k->keyframe_count + 1);
}
