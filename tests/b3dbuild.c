/* b3dbuild.c - the B3D test byte builder (b3dbuild.h). */
#include "b3dbuild.h"

#include <string.h>

const b3b_xform b3b_identity = { { 0, 0, 0 }, { 1, 1, 1 }, { 1, 0, 0, 0 } };

void b3b_begin(wb *b, const char tag[4])
{
	uint32_t id = (uint32_t)(uint8_t)tag[0] | (uint32_t)(uint8_t)tag[1] << 8 |
		      (uint32_t)(uint8_t)tag[2] << 16 | (uint32_t)(uint8_t)tag[3] << 24;
	wb_begin(b, id);
}

void b3b_end(wb *b)
{
	size_t hdr = b->stack[b->depth - 1];
	wb_end_raw(b, (uint32_t)(b->len - hdr - 8));
}

void b3b_str(wb *b, const char *s)
{
	wb_bytes(b, s, strlen(s) + 1);
}

void b3b_node_begin(wb *b, const char *name, b3b_xform t)
{
	b3b_begin(b, "NODE");
	b3b_str(b, name);
	for (int i = 0; i < 3; i++)
		wb_f32(b, t.pos[i]);
	for (int i = 0; i < 3; i++)
		wb_f32(b, t.scale[i]);
	for (int i = 0; i < 4; i++)
		wb_f32(b, t.rot[i]);
}

void b3b_vrts(wb *b, int32_t flags, int32_t sets, int32_t set_size, const float *v, size_t n)
{
	size_t per = 3u + ((flags & 1) ? 3u : 0u) + ((flags & 2) ? 4u : 0u) +
		     (sets > 0 && set_size > 0 ? (size_t)sets * (size_t)set_size : 0);
	b3b_begin(b, "VRTS");
	wb_u32(b, (uint32_t)flags);
	wb_u32(b, (uint32_t)sets);
	wb_u32(b, (uint32_t)set_size);
	for (size_t i = 0; i < n * per; i++)
		wb_f32(b, v[i]);
	b3b_end(b);
}

void b3b_tris(wb *b, int32_t brush_id, const int32_t *idx, size_t n)
{
	b3b_begin(b, "TRIS");
	wb_u32(b, (uint32_t)brush_id);
	for (size_t i = 0; i < 3 * n; i++)
		wb_u32(b, (uint32_t)idx[i]);
	b3b_end(b);
}

void b3b_bone(wb *b, const int32_t *vertex, const float *weight, size_t n)
{
	b3b_begin(b, "BONE");
	for (size_t i = 0; i < n; i++) {
		wb_u32(b, (uint32_t)vertex[i]);
		wb_f32(b, weight[i]);
	}
	b3b_end(b);
}

void b3b_anim(wb *b, int32_t flags, int32_t frames, float fps)
{
	b3b_begin(b, "ANIM");
	wb_u32(b, (uint32_t)flags);
	wb_u32(b, (uint32_t)frames);
	wb_f32(b, fps);
	b3b_end(b);
}

void b3b_quad_model(wb *b, size_t *vrts_at, size_t *tris_at)
{
	static const float quad[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
	static const int32_t idx[] = { 0, 1, 2, 0, 2, 3 };
	b3b_begin(b, "BB3D");
	wb_u32(b, 1);
	b3b_node_begin(b, "root", b3b_identity);
	b3b_begin(b, "MESH");
	wb_u32(b, (uint32_t)-1);
	if (vrts_at)
		*vrts_at = b->len;
	b3b_vrts(b, 0, 0, 0, quad, 4);
	if (tris_at)
		*tris_at = b->len;
	b3b_tris(b, -1, idx, 2);
	b3b_end(b);
	b3b_end(b);
	b3b_end(b);
}

void b3b_tex(wb *b, const char *file)
{
	static const float xform[] = { 0, 0, 1, 1, 0 };
	b3b_str(b, file);
	wb_u32(b, 1); /* flags: colour */
	wb_u32(b, 2); /* blend: multiply */
	for (size_t i = 0; i < 5; i++)
		wb_f32(b, xform[i]);
}

void b3b_brush(wb *b, const char *name, const int32_t *tex_ids, size_t n)
{
	b3b_str(b, name);
	for (int i = 0; i < 4; i++)
		wb_f32(b, 1); /* red, green, blue, alpha */
	wb_f32(b, 0);         /* shininess */
	wb_u32(b, 1);         /* blend */
	wb_u32(b, 0);         /* fx */
	for (size_t i = 0; i < n; i++)
		wb_u32(b, (uint32_t)tex_ids[i]);
}

void b3b_quad_mesh(wb *b, int32_t brush_id, size_t unused, size_t *vrts_at)
{
	static const float quad[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
	static const int32_t idx[] = { 0, 1, 2, 0, 2, 3 };
	b3b_begin(b, "MESH");
	wb_u32(b, (uint32_t)brush_id);
	if (vrts_at)
		*vrts_at = b->len;
	b3b_begin(b, "VRTS");
	wb_u32(b, 0);
	wb_u32(b, 0);
	wb_u32(b, 0);
	for (size_t i = 0; i < 12; i++)
		wb_f32(b, quad[i]);
	for (size_t i = 0; i < 3 * unused; i++)
		wb_f32(b, 2.0f);
	b3b_end(b);
	b3b_tris(b, -1, idx, 2);
	b3b_end(b);
}

void b3b_keys(wb *b, int32_t flags, const int32_t *frame, const float *v, size_t n)
{
	size_t per = ((flags & 1) ? 3u : 0u) + ((flags & 2) ? 3u : 0u) + ((flags & 4) ? 4u : 0u);
	b3b_begin(b, "KEYS");
	wb_u32(b, (uint32_t)flags);
	for (size_t i = 0; i < n; i++) {
		wb_u32(b, (uint32_t)frame[i]);
		for (size_t k = 0; k < per; k++)
			wb_f32(b, v[i * per + k]);
	}
	b3b_end(b);
}
