/* p3dbuild_info.c - ODOL ModelInfo and LoadableLodInfo for test files
 * (p3dbuild_info.h). */
#include "p3dbuild_info.h"

#include <stdlib.h>
#include <string.h>

t_p3dinfo_info *t_p3dinfo_next;

static void floats(wb *b, unsigned k, float v)
{
	for (unsigned i = 0; i < k; i++)
		t_w3d_f32(b, v);
}

static void str(wb *b, const char *s)
{
	t_w3d_bytes(b, s, strlen(s) + 1);
}

static void head(wb *b, uint32_t v, t_p3dinfo_info *in)
{
	t_w3d_u32(b, 0);
	floats(b, 2, 1.0f);
	t_w3d_zeros(b, 12 + 12 + 8);
	floats(b, 1, 1.0f);
	in->bbox = b->len;
	for (int i = 0; i < 3; i++)
		t_w3d_f32(b, in->bbox_min[i]);
	for (int i = 0; i < 3; i++)
		t_w3d_f32(b, in->bbox_max[i]);
	floats(b, (v >= 70 ? 1u : 0u) + (v >= 71 ? 1u : 0u), 1.0f);
	for (int i = 0; v >= 52 && i < 6; i++)
		t_w3d_f32(b, in->vis ? in->vis[i] : i < 3 ? in->bbox_min[i] : in->bbox_max[i - 3]);
	floats(b, 9 + 9, 0.0f);
	t_w3d_zeros(b, 4 + (v >= 73));
	floats(b, (v >= 42 ? 4u : 0u) + (v >= 43 ? 2u : 0u), 0.0f);
	t_w3d_zeros(b, (v >= 33 ? 1u : 0u) + (v >= 37 ? 5u : 0u));
	floats(b, v >= 48, 0.0f);
	t_w3d_u8(b, in->n_anims > 0);
}

static void skeleton(wb *b, uint32_t v, t_p3dinfo_info *in)
{
	in->skeleton = b->len;
	if (!in->n_bones) {
		t_w3d_u8(b, 0);
		return;
	}
	str(b, "skeleton");
	if (v >= 23)
		t_w3d_u8(b, 0);
	t_w3d_u32(b, in->n_bones);
	for (uint32_t i = 0; i < in->n_bones; i++) {
		str(b, in->bones[2 * i]);
		if (i < 8)
			in->parent[i] = b->len;
		str(b, in->bones[2 * i + 1]);
	}
	if (v > 40)
		str(b, "");
}

static void tail(wb *b, uint32_t v, uint32_t n, t_p3dinfo_info *in)
{
	t_w3d_u8(b, 0);
	t_w3d_u32(b, 0); /* mass array: none */
	in->mass = b->len;
	floats(b, 4 + (v >= 72), in->zero_mass ? 0.0f : 1.0f);
	t_w3d_zeros(b, (v >= 53 ? 1u : 0u) + (v >= 54 ? 1u : 0u) + 12u + 4u + (v >= 38 ? 1u : 0u));
	str(b, "");
	str(b, "");
	t_w3d_zeros(b, 1 + (v >= 31 ? 4 : 0));
	for (uint32_t i = 0; v >= 57 && i < 3 * n; i++)
		t_w3d_u32(b, 0xFFFFFFFFu);
}

static void animations(wb *b, uint32_t v, t_p3dinfo_info *in)
{
	if (v < 30)
		return;
	t_w3d_u8(b, in->n_anims > 0);
	if (!in->n_anims)
		return;
	in->classes = b->len;
	t_w3d_u32(b, in->n_anims);
	for (uint32_t k = 0; k < in->n_anims; k++) {
		t_w3d_u32(b, 0); /* rotation */
		str(b, "anim");
		str(b, "source");
		floats(b, 4 + (v >= 56 ? 2 : 0), 0.0f);
		t_w3d_u32(b, 0);
		floats(b, 2, 0.0f);
	}
	t_w3d_u32(b, 1); /* one LOD's bones-to-animations */
	t_w3d_u32(b, in->n_bones);
	for (uint32_t i = 0; i < in->n_bones; i++)
		t_w3d_u32(b, 0);
	for (uint32_t k = 0; k < in->n_anims; k++) {
		if (k < 8)
			in->anim[k] = b->len;
		t_w3d_u32(b, (uint32_t)in->anim_bones[k]);
		if (in->anim_bones[k] != -1)
			floats(b, 6, 0.0f);
	}
}

void t_p3dinfo_modelinfo(wb *b, uint32_t v, uint32_t n, t_p3dinfo_info *info)
{
	t_p3dinfo_info none;
	memset(&none, 0, sizeof none);
	for (int k = 0; k < 3; k++) {
		none.bbox_min[k] = -1e9f;
		none.bbox_max[k] = 1e9f;
	}
	t_p3dinfo_info *in = info ? info : &none;
	in->start = b->len;
	head(b, v, in);
	skeleton(b, v, in);
	tail(b, v, n, in);
	animations(b, v, in);
	in->end = b->len;
}

static void shift(size_t *at, size_t from, size_t by)
{
	if (*at >= from)
		*at += by;
}

void t_p3dinfo_loadable(wb *b, t_p3d_layout *at, uint32_t v, uint32_t n, uint32_t k)
{
	size_t rec = 16u + (v >= 39 ? 1u : 0u) + (v >= 51 ? 8u : 0u), by = rec * k, from = at->table + 9u * n;
	uint8_t *tmp = calloc(1, b->len + by);
	if (!tmp)
		abort();
	memcpy(tmp, b->data, from);
	memcpy(tmp + from + by, b->data + from, b->len - from);
	size_t len = b->len + by;
	b->len = 0;
	t_w3d_bytes(b, tmp, len);
	free(tmp);
	for (uint32_t i = 0; i < 2 * n; i++) {
		size_t o = at->table + 4u * i;
		t_w3d_patch_u32(b, o, (uint32_t)(b->data[o] | b->data[o + 1] << 8 | b->data[o + 2] << 16 |
					      (uint32_t)b->data[o + 3] << 24) + (uint32_t)by);
	}
	for (uint32_t i = 0; i < k; i++)
		b->data[at->table + 8u * n + i] = 0;
	for (int i = 0; i < 16; i++) {
		shift(&at->lod[i], from, by);
		shift(&at->lod_end[i], from, by);
		shift(&at->faces[i], from, by);
		shift(&at->positions[i], from, by);
		shift(&at->rest[i], from, by);
	}
	shift(&at->tail, from, by);
}
