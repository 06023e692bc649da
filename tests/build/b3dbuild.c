/* b3dbuild.c - the B3D test byte builder (b3dbuild.h). */
#include "b3dbuild.h"

#include <string.h>

const t_b3d_xform t_b3d_identity = { { 0, 0, 0 }, { 1, 1, 1 }, { 1, 0, 0, 0 } };

void t_b3d_begin(wb *b, const char tag[4])
{
	uint32_t id = (uint32_t)(uint8_t)tag[0] | (uint32_t)(uint8_t)tag[1] << 8 |
		      (uint32_t)(uint8_t)tag[2] << 16 | (uint32_t)(uint8_t)tag[3] << 24;
	t_w3d_begin(b, id);
}

void t_b3d_end(wb *b)
{
	size_t hdr = b->stack[b->depth - 1];
	t_w3d_end_raw(b, (uint32_t)(b->len - hdr - 8));
}

void t_b3d_str(wb *b, const char *s)
{
	t_w3d_bytes(b, s, strlen(s) + 1);
}

void t_b3d_node_begin(wb *b, const char *name, t_b3d_xform t)
{
	t_b3d_begin(b, "NODE");
	t_b3d_str(b, name);
	for (int i = 0; i < 3; i++)
		t_w3d_f32(b, t.pos[i]);
	for (int i = 0; i < 3; i++)
		t_w3d_f32(b, t.scale[i]);
	for (int i = 0; i < 4; i++)
		t_w3d_f32(b, t.rot[i]);
}

void t_b3d_vrts(wb *b, int32_t flags, int32_t sets, int32_t set_size, const float *v, size_t n)
{
	size_t per = 3u + ((flags & 1) ? 3u : 0u) + ((flags & 2) ? 4u : 0u) +
		     (sets > 0 && set_size > 0 ? (size_t)sets * (size_t)set_size : 0);
	t_b3d_begin(b, "VRTS");
	t_w3d_u32(b, (uint32_t)flags);
	t_w3d_u32(b, (uint32_t)sets);
	t_w3d_u32(b, (uint32_t)set_size);
	for (size_t i = 0; i < n * per; i++)
		t_w3d_f32(b, v[i]);
	t_b3d_end(b);
}

void t_b3d_tris(wb *b, int32_t brush_id, const int32_t *idx, size_t n)
{
	t_b3d_begin(b, "TRIS");
	t_w3d_u32(b, (uint32_t)brush_id);
	for (size_t i = 0; i < 3 * n; i++)
		t_w3d_u32(b, (uint32_t)idx[i]);
	t_b3d_end(b);
}

void t_b3d_bone(wb *b, const int32_t *vertex, const float *weight, size_t n)
{
	t_b3d_begin(b, "BONE");
	for (size_t i = 0; i < n; i++) {
		t_w3d_u32(b, (uint32_t)vertex[i]);
		t_w3d_f32(b, weight[i]);
	}
	t_b3d_end(b);
}

void t_b3d_anim(wb *b, int32_t flags, int32_t frames, float fps)
{
	t_b3d_begin(b, "ANIM");
	t_w3d_u32(b, (uint32_t)flags);
	t_w3d_u32(b, (uint32_t)frames);
	t_w3d_f32(b, fps);
	t_b3d_end(b);
}

void t_b3d_quad_open(wb *b, size_t slack, size_t *vrts_at, size_t *tris_at)
{
	static const float quad[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
	static const int32_t idx[] = { 0, 1, 2, 0, 2, 3 };
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
	t_b3d_node_begin(b, "root", t_b3d_identity);
	t_b3d_begin(b, "MESH");
	t_w3d_u32(b, (uint32_t)-1);
	if (vrts_at)
		*vrts_at = b->len;
	t_b3d_vrts(b, 0, 0, 0, quad, 4);
	if (tris_at)
		*tris_at = b->len;
	t_b3d_begin(b, "TRIS");
	t_w3d_u32(b, (uint32_t)-1);
	for (size_t i = 0; i < 6; i++)
		t_w3d_u32(b, (uint32_t)idx[i]);
	t_w3d_zeros(b, slack);
	t_b3d_end(b);
}

void t_b3d_quad_model_slack(wb *b, size_t slack, size_t *vrts_at, size_t *tris_at)
{
	t_b3d_quad_open(b, slack, vrts_at, tris_at);
	t_b3d_end(b);
	t_b3d_end(b);
	t_b3d_end(b);
}

void t_b3d_quad_model(wb *b, size_t *vrts_at, size_t *tris_at)
{
	t_b3d_quad_model_slack(b, 0, vrts_at, tris_at);
}

void t_b3d_tex(wb *b, const char *file)
{
	static const float xform[] = { 0, 0, 1, 1, 0 };
	t_b3d_str(b, file);
	t_w3d_u32(b, 1); /* flags: colour */
	t_w3d_u32(b, 2); /* blend: multiply */
	for (size_t i = 0; i < 5; i++)
		t_w3d_f32(b, xform[i]);
}

void t_b3d_brush(wb *b, const char *name, const int32_t *tex_ids, size_t n)
{
	t_b3d_str(b, name);
	for (int i = 0; i < 4; i++)
		t_w3d_f32(b, 1); /* red, green, blue, alpha */
	t_w3d_f32(b, 0);         /* shininess */
	t_w3d_u32(b, 1);         /* blend */
	t_w3d_u32(b, 0);         /* fx */
	for (size_t i = 0; i < n; i++)
		t_w3d_u32(b, (uint32_t)tex_ids[i]);
}

void t_b3d_quad_mesh(wb *b, int32_t brush_id, size_t unused, size_t *vrts_at)
{
	static const float quad[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
	static const int32_t idx[] = { 0, 1, 2, 0, 2, 3 };
	t_b3d_begin(b, "MESH");
	t_w3d_u32(b, (uint32_t)brush_id);
	if (vrts_at)
		*vrts_at = b->len;
	t_b3d_begin(b, "VRTS");
	t_w3d_u32(b, 0);
	t_w3d_u32(b, 0);
	t_w3d_u32(b, 0);
	for (size_t i = 0; i < 12; i++)
		t_w3d_f32(b, quad[i]);
	for (size_t i = 0; i < 3 * unused; i++)
		t_w3d_f32(b, 2.0f);
	t_b3d_end(b);
	t_b3d_tris(b, -1, idx, 2);
	t_b3d_end(b);
}

void t_b3d_keys(wb *b, int32_t flags, const int32_t *frame, const float *v, size_t n)
{
	size_t per = ((flags & 1) ? 3u : 0u) + ((flags & 2) ? 3u : 0u) + ((flags & 4) ? 4u : 0u);
	t_b3d_begin(b, "KEYS");
	t_w3d_u32(b, (uint32_t)flags);
	for (size_t i = 0; i < n; i++) {
		t_w3d_u32(b, (uint32_t)frame[i]);
		for (size_t k = 0; k < per; k++)
			t_w3d_f32(b, v[i * per + k]);
	}
	t_b3d_end(b);
}
