/* w3dbuild.c - see w3dbuild.h. */
#include "w3dbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/w3d_format.h"

void t_w3d_init(wb *b)
{
	memset(b, 0, sizeof *b);
}

void t_w3d_free(wb *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

static void grow(wb *b, size_t n)
{
	if (b->cap - b->len >= n)
		return;
	size_t ncap = b->cap ? b->cap * 2 : 256;
	while (ncap - b->len < n)
		ncap *= 2;
	uint8_t *p = realloc(b->data, ncap);
	if (!p) {
		fprintf(stderr, "w3dbuild: out of memory\n");
		abort();
	}
	b->data = p;
	b->cap = ncap;
}

void t_w3d_bytes(wb *b, const void *p, size_t n)
{
	grow(b, n);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

void t_w3d_zeros(wb *b, size_t n)
{
	grow(b, n);
	memset(b->data + b->len, 0, n);
	b->len += n;
}

void t_w3d_u8(wb *b, uint8_t v)
{
	t_w3d_bytes(b, &v, 1);
}

void t_w3d_u16(wb *b, uint16_t v)
{
	uint8_t p[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
	t_w3d_bytes(b, p, 2);
}

void t_w3d_u32(wb *b, uint32_t v)
{
	uint8_t p[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	t_w3d_bytes(b, p, 4);
}

void t_w3d_f32(wb *b, float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	t_w3d_u32(b, u);
}

void t_w3d_vec3(wb *b, float x, float y, float z)
{
	t_w3d_f32(b, x);
	t_w3d_f32(b, y);
	t_w3d_f32(b, z);
}

void t_w3d_name(wb *b, const char *s, size_t field)
{
	size_t n = strlen(s);
	if (n > field)
		n = field;
	t_w3d_bytes(b, s, n);
	t_w3d_zeros(b, field - n);
}

void t_w3d_begin(wb *b, uint32_t id)
{
	if (b->depth >= 64) {
		fprintf(stderr, "w3dbuild: nesting too deep\n");
		abort();
	}
	if (b->depth > 0)
		b->children[b->depth - 1] = 1;
	b->stack[b->depth] = b->len;
	b->children[b->depth] = 0;
	b->depth++;
	t_w3d_u32(b, id);
	t_w3d_u32(b, 0);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

void t_w3d_end_raw(wb *b, uint32_t size_field)
{
	if (b->depth <= 0) {
		fprintf(stderr, "w3dbuild: t_w3d_end without t_w3d_begin\n");
		abort();
	}
	b->depth--;
	put32(b->data + b->stack[b->depth] + 4, size_field);
}

void t_w3d_end(wb *b)
{
	if (b->depth <= 0) {
		fprintf(stderr, "w3dbuild: t_w3d_end without t_w3d_begin\n");
		abort();
	}
	size_t at = b->stack[b->depth - 1];
	uint32_t size = (uint32_t)(b->len - at - 8);
	t_w3d_end_raw(b, size | (b->children[b->depth - 1] ? 0x80000000u : 0u));
}

void t_w3d_chunk(wb *b, uint32_t id, const void *p, size_t n)
{
	t_w3d_begin(b, id);
	t_w3d_bytes(b, p, n);
	t_w3d_end(b);
}

size_t t_w3d_begin_header(wb *b, uint32_t id, uint32_t hid, size_t *object, uint32_t version, uint32_t word,
			  const char *name1, const char *name2)
{
	if (object)
		*object = b->len;
	t_w3d_begin(b, id);
	t_w3d_begin(b, hid);
	size_t data = b->len;
	t_w3d_u32(b, version);
	t_w3d_u32(b, word);
	t_w3d_name(b, name1, 16);
	t_w3d_name(b, name2, 16);
	return data;
}

size_t t_w3d_begin_anim_header(wb *b, uint32_t id, uint32_t version, const char *name, const char *hierarchy,
			       uint32_t frames)
{
	t_w3d_begin(b, id);
	size_t data = b->len;
	t_w3d_u32(b, version);
	t_w3d_name(b, name, 16);
	t_w3d_name(b, hierarchy, 16);
	t_w3d_u32(b, frames);
	return data;
}

size_t t_w3d_vertex_material(wb *b, const char *name, uint32_t attributes, float shininess, float opacity,
			     float translucency)
{
	t_w3d_begin(b, W3D_CHUNK_VERTEX_MATERIAL);
	t_w3d_chunk(b, W3D_CHUNK_VERTEX_MATERIAL_NAME, name, strlen(name) + 1);
	t_w3d_begin(b, W3D_CHUNK_VERTEX_MATERIAL_INFO);
	size_t data = b->len;
	t_w3d_u32(b, attributes);
	for (int k = 0; k < 4; k++)
		t_w3d_u32(b, 0x00FFFFFFu);
	t_w3d_f32(b, shininess);
	t_w3d_f32(b, opacity);
	t_w3d_f32(b, translucency);
	t_w3d_end(b);
	t_w3d_end(b);
	return data;
}

size_t t_w3d_material_info(wb *b, uint32_t passes, uint32_t vmats, uint32_t shaders, uint32_t textures)
{
	t_w3d_begin(b, W3D_CHUNK_MATERIAL_INFO);
	size_t data = b->len;
	t_w3d_u32(b, passes);
	t_w3d_u32(b, vmats);
	t_w3d_u32(b, shaders);
	t_w3d_u32(b, textures);
	t_w3d_end(b);
	return data;
}

size_t t_w3d_hierarchy_header(wb *b, const char *name, uint32_t pivots)
{
	t_w3d_begin(b, W3D_CHUNK_HIERARCHY_HEADER);
	size_t data = b->len;
	t_w3d_u32(b, 0x00040001);
	t_w3d_name(b, name, 16);
	t_w3d_u32(b, pivots);
	t_w3d_vec3(b, 0, 0, 0);
	t_w3d_end(b);
	return data;
}

size_t t_w3d_hlod_array_header(wb *b, uint32_t models, float max_screen_size)
{
	t_w3d_begin(b, W3D_CHUNK_HLOD_SUB_OBJECT_ARRAY_HEADER);
	size_t data = b->len;
	t_w3d_u32(b, models);
	t_w3d_f32(b, max_screen_size);
	t_w3d_end(b);
	return data;
}

size_t t_w3d_hlod_sub_object(wb *b, uint32_t bone, const char *name)
{
	size_t at = b->len;
	t_w3d_begin(b, W3D_CHUNK_HLOD_SUB_OBJECT);
	t_w3d_u32(b, bone);
	t_w3d_name(b, name, 32);
	t_w3d_end(b);
	return at;
}

void t_w3d_patch_u32(wb *b, size_t offset, uint32_t v)
{
	if (offset + 4 <= b->len)
		put32(b->data + offset, v);
}

void t_w3d_patch_f32(wb *b, size_t offset, float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	t_w3d_patch_u32(b, offset, u);
}

void t_w3d_mesh_with_tree(wb *b, const char *mesh_name, const char *container, const w3d_vec3 *v,
		       size_t nv, const uint32_t *vindex, size_t nt, const w3d_aabtree_built *t)
{
	/* word 0: NORMAL geometry */
	t_w3d_begin_header(b, W3D_CHUNK_MESH, W3D_CHUNK_MESH_HEADER3, NULL, 0x00040002, 0, mesh_name, container);
	t_w3d_u32(b, (uint32_t)nt);
	t_w3d_u32(b, (uint32_t)nv);
	t_w3d_zeros(b, 116 - 48);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_VERTICES);
	for (size_t i = 0; i < nv; i++)
		t_w3d_vec3(b, v[i].x, v[i].y, v[i].z);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_TRIANGLES);
	for (size_t i = 0; i < nt; i++) {
		for (int k = 0; k < 3; k++)
			t_w3d_u32(b, vindex[3 * i + (size_t)k]);
		t_w3d_zeros(b, 20);
	}
	t_w3d_end(b);
	if (t) {
		t_w3d_begin(b, W3D_CHUNK_AABTREE);
		t_w3d_begin(b, W3D_CHUNK_AABTREE_HEADER);
		t_w3d_u32(b, t->node_count);
		t_w3d_u32(b, t->poly_count);
		t_w3d_zeros(b, 24);
		t_w3d_end(b);
		t_w3d_begin(b, W3D_CHUNK_AABTREE_POLYINDICES);
		for (uint32_t i = 0; i < t->poly_count; i++)
			t_w3d_u32(b, t->poly_indices[i]);
		t_w3d_end(b);
		t_w3d_begin(b, W3D_CHUNK_AABTREE_NODES);
		for (uint32_t i = 0; i < t->node_count; i++) {
			const w3d_aabtree_node *n = &t->nodes[i];
			t_w3d_vec3(b, n->min.x, n->min.y, n->min.z);
			t_w3d_vec3(b, n->max.x, n->max.y, n->max.z);
			t_w3d_u32(b, n->front_or_poly0);
			t_w3d_u32(b, n->back_or_poly_count);
		}
		t_w3d_end(b);
		t_w3d_end(b);
	}
	t_w3d_end(b);
}

void t_w3d_pivot(wb *b, const char *name, uint32_t parent, float ty, float qw)
{
	t_w3d_name(b, name, 16);
	t_w3d_u32(b, parent);
	t_w3d_vec3(b, 0, ty, 0);
	t_w3d_vec3(b, 0, 0, 0);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, qw);
}

void t_w3d_vertices_normals(wb *b, const float (*v)[3], size_t n)
{
	t_w3d_begin(b, W3D_CHUNK_VERTICES);
	for (size_t i = 0; i < n; i++)
		t_w3d_vec3(b, v[i][0], v[i][1], v[i][2]);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_VERTEX_NORMALS);
	for (size_t i = 0; i < n; i++)
		t_w3d_vec3(b, 0, 0, 1);
	t_w3d_end(b);
}

void t_w3d_texcoords(wb *b, const float (*v)[3], size_t n)
{
	t_w3d_begin(b, W3D_CHUNK_STAGE_TEXCOORDS);
	for (size_t i = 0; i < n; i++) {
		t_w3d_f32(b, v[i][0]);
		t_w3d_f32(b, v[i][1]);
	}
	t_w3d_end(b);
}

void t_w3d_quad_aabtree(wb *b)
{
	t_w3d_begin(b, W3D_CHUNK_AABTREE);
	t_w3d_begin(b, W3D_CHUNK_AABTREE_HEADER);
	t_w3d_u32(b, 1); /* NodeCount */
	t_w3d_u32(b, 2); /* PolyCount */
	t_w3d_zeros(b, 24);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_AABTREE_POLYINDICES);
	t_w3d_u32(b, 0);
	t_w3d_u32(b, 1);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_AABTREE_NODES);
	t_w3d_vec3(b, 0, 0, 0);
	t_w3d_vec3(b, 1, 1, 0);
	t_w3d_u32(b, W3D_AABTREE_LEAF_FLAG); /* leaf: first poly 0 */
	t_w3d_u32(b, 2);                     /* poly count */
	t_w3d_end(b);
	t_w3d_end(b);
}
