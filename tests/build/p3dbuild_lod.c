/* p3dbuild_lod.c - one ODOL LOD with indices for the LOD-internal rules
 * (p3dbuild_lod.h). */
#include "p3dbuild_lod.h"

#include <stdlib.h>
#include <string.h>

/* u32 count, then the block of n elements of elem bytes from raw (zeros
 * when raw is NULL). */
static void array(wb *b, uint32_t v, const void *raw, uint32_t n, uint32_t elem)
{
	t_w3d_u32(b, n);
	size_t bytes = (size_t)n * elem;
	void *z = raw ? NULL : calloc(1, bytes + 1);
	t_p3d_block(b, v, raw ? raw : z, bytes, 0);
	free(z);
}

/* An index array (u16 below v69, u32 from v69) of n entries. */
static void indices(wb *b, uint32_t v, const uint32_t *x, uint32_t n)
{
	uint32_t isz = v >= 69 ? 4 : 2;
	uint8_t *raw = malloc((size_t)n * isz + 1);
	for (uint32_t i = 0; i < n; i++) {
		if (isz == 4)
			memcpy(raw + 4u * i, &x[i], 4);
		else {
			uint16_t h = (uint16_t)x[i];
			memcpy(raw + 2u * i, &h, 2);
		}
	}
	array(b, v, raw, n, isz);
	free(raw);
}

/* A condensed array: the n x elem floats at f, or filled with zeros when
 * f is NULL. */
static void condensed(wb *b, uint32_t v, uint32_t n, uint32_t elem, const float *f)
{
	if (f) {
		t_w3d_u32(b, n);
		t_w3d_u8(b, 0);
		t_p3d_block(b, v, f, (size_t)n * elem, 0);
		return;
	}
	t_w3d_u32(b, n);
	t_w3d_u8(b, n ? 1 : 0);
	if (n)
		t_w3d_zeros(b, elem);
}

static void head(wb *b, uint32_t v, const t_p3dlod_spec *s, t_p3dlod_at *at)
{
	t_w3d_u32(b, s->n_proxies);
	for (uint32_t i = 0; i < s->n_proxies; i++) {
		t_w3d_bytes(b, "p", 2);
		t_w3d_zeros(b, 48 + 4);
		if (i < 8)
			at->proxy_sel[i] = b->len;
		t_w3d_u32(b, (uint32_t)s->proxies[i].sel);
		t_w3d_u32(b, (uint32_t)s->proxies[i].bone);
		if (v >= 40)
			t_w3d_u32(b, (uint32_t)s->proxies[i].section);
	}
	t_w3d_u32(b, s->n_items);
	at->items = b->len;
	for (uint32_t i = 0; i < s->n_items; i++)
		t_w3d_u32(b, s->items[i]);
	t_w3d_u32(b, s->n_links);
	at->links = b->len + 4;
	for (uint32_t i = 0; i < s->n_links; i++) {
		t_w3d_u32(b, 1);
		t_w3d_u32(b, s->links[i]);
	}
	if (v >= 50)
		t_w3d_u32(b, s->nverts);
	else
		condensed(b, v, s->nverts, 4, NULL);
	if (v >= 51)
		t_w3d_f32(b, 1.0f);
	t_w3d_zeros(b, 8);
	at->bounds = b->len;
	for (int i = 0; i < 10; i++)
		t_w3d_f32(b, s->bounds ? s->bounds[i] : 0.0f);
	t_w3d_u32(b, s->n_textures);
	for (uint32_t i = 0; i < s->n_textures; i++) {
		const char *t = s->texture_names ? s->texture_names[i] : "t";
		t_w3d_bytes(b, t, strlen(t) + 1);
	}
	t_w3d_u32(b, s->n_materials);
	for (uint32_t i = 0; i < s->n_materials; i++) {
		t_w3d_bytes(b, "m", 2);
		t_w3d_u32(b, 3);
		t_w3d_zeros(b, 6 * 16 + 4 + 16 + 1);
	}
	t_w3d_u32(b, 0); /* edges */
	t_w3d_u32(b, 0);
}

static void faces(wb *b, uint32_t v, const t_p3dlod_spec *s, t_p3dlod_at *at)
{
	uint32_t isz = v >= 69 ? 4 : 2, bytes = 0;
	t_w3d_u32(b, s->nfaces);
	at->alloc = b->len;
	t_w3d_u32(b, 0);
	t_w3d_u16(b, 0);
	at->faces = b->len;
	for (uint32_t f = 0; f < s->nfaces; f++) {
		t_w3d_u8(b, (uint8_t)s->faces[f].n);
		bytes += (1 + s->faces[f].n) * isz;
		for (uint32_t k = 0; k < s->faces[f].n; k++) {
			if (isz == 4)
				t_w3d_u32(b, s->faces[f].idx[k & 3]);
			else
				t_w3d_u16(b, (uint16_t)s->faces[f].idx[k & 3]);
		}
	}
	t_w3d_patch_u32(b, at->alloc, bytes + (uint32_t)s->alloc_delta);
	t_w3d_u32(b, s->n_sections);
	for (uint32_t i = 0; i < s->n_sections; i++) {
		const t_p3dlod_section *x = &s->sections[i];
		if (i < 8)
			at->section[i] = b->len;
		t_w3d_u32(b, x->from);
		t_w3d_u32(b, x->to);
		t_w3d_zeros(b, 12);
		t_w3d_u16(b, (uint16_t)x->tex);
		t_w3d_u32(b, 0);
		t_w3d_u32(b, (uint32_t)x->mat);
		if (x->mat == -1)
			t_w3d_bytes(b, "m", 2);
		if (v >= 36)
			t_w3d_u32(b, 0);
		if (v >= 67)
			t_w3d_u32(b, 0);
	}
}

static void selections(wb *b, uint32_t v, const t_p3dlod_spec *s, t_p3dlod_at *at)
{
	t_w3d_u32(b, s->n_sels);
	for (uint32_t i = 0; i < s->n_sels; i++) {
		const t_p3dlod_sel *x = &s->sels[i];
		size_t k = i < 4 ? i : 3;
		const char *name = x->name ? x->name : "s";
		t_w3d_bytes(b, name, strlen(name) + 1);
		at->sel_faces[k] = b->len;
		indices(b, v, x->faces, x->n_faces);
		t_w3d_u32(b, 0);
		t_w3d_u8(b, 0);
		at->sel_secs[k] = b->len;
		array(b, v, x->secs, x->n_secs, 4);
		at->sel_verts[k] = b->len;
		indices(b, v, x->verts, x->n_verts);
		at->sel_weights[k] = b->len;
		array(b, v, NULL, x->n_weights, 1);
	}
	t_w3d_u32(b, 0); /* properties */
	t_w3d_u32(b, 0); /* frames */
	t_w3d_zeros(b, 12);
	t_w3d_u8(b, 1);
}

static void rest(wb *b, uint32_t v, const t_p3dlod_spec *s, t_p3dlod_at *at)
{
	size_t size_at = b->len;
	t_w3d_u32(b, 0);
	if (v >= 50)
		condensed(b, v, s->nverts, 4, NULL);
	at->uv_range = b->len;
	if (v >= 45)
		for (int i = 0; i < 4; i++)
			t_w3d_f32(b, s->uv_range ? s->uv_range[i] : 0.0f);
	at->uvs = b->len;
	condensed(b, v, s->nverts, v >= 45 ? 4 : 8, v < 45 ? s->uvs : NULL);
	t_w3d_u32(b, 1);
	at->positions = b->len;
	array(b, v, s->pos, s->nverts, 12);
	at->normals = b->len;
	condensed(b, v, s->nverts, v >= 45 ? 4 : 12, v < 45 ? s->normals : NULL);
	array(b, v, NULL, s->n_st, v >= 45 ? 8 : 24);
	at->refs = b->len;
	uint8_t *raw = calloc(1, 12u * s->n_refs + 1);
	for (uint32_t i = 0; i < s->n_refs; i++) {
		memcpy(raw + 12u * i, &s->refs[i].n, 4);
		for (int k = 0; k < 4; k++)
			raw[12u * i + 4 + 2 * (unsigned)k] = s->refs[i].bone[k];
	}
	array(b, v, raw, s->n_refs, 12);
	free(raw);
	t_w3d_u32(b, 0); /* neighbour bone refs */
	if (v >= 67)
		t_w3d_u32(b, 0);
	if (v >= 68)
		t_w3d_u8(b, 0);
	t_w3d_patch_u32(b, size_at, (uint32_t)(v >= 68 ? b->len - size_at - 5 : b->len - size_at));
}

void t_p3dlod_body(wb *b, uint32_t v, const t_p3dlod_spec *s, t_p3dlod_at *at)
{
	memset(at, 0, sizeof *at);
	head(b, v, s, at);
	faces(b, v, s, at);
	selections(b, v, s, at);
	rest(b, v, s, at);
}

/* Adds base to every offset of at. */
static void shift(t_p3dlod_at *at, size_t base)
{
	size_t *p = (size_t *)at;
	for (size_t i = 0; i < sizeof *at / sizeof *p; i++)
		if (p[i])
			p[i] += base;
}

void t_p3dlod_odol(wb *b, uint32_t v, const t_p3dlod_spec *s, t_p3dlod_at *at, t_p3d_layout *lay)
{
	const float res[1] = { s->resolution != 0.0f ? s->resolution : 1.0f };
	wb body;
	t_w3d_init(&body);
	t_p3dlod_body(&body, v, s, at);
	t_p3d_lod l;
	memset(&l, 0, sizeof l);
	l.body = body.data;
	l.body_len = body.len;
	t_w3d_init(b);
	t_p3d_odol(b, v, 1, res, &l, 0, lay);
	shift(at, lay->lod[0]);
	t_w3d_free(&body);
}
