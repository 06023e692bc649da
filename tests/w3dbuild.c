/* w3dbuild.c - see w3dbuild.h. */
#include "w3dbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/w3d_format.h"

void wb_init(wb *b)
{
	memset(b, 0, sizeof *b);
}

void wb_free(wb *b)
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

void wb_bytes(wb *b, const void *p, size_t n)
{
	grow(b, n);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

void wb_zeros(wb *b, size_t n)
{
	grow(b, n);
	memset(b->data + b->len, 0, n);
	b->len += n;
}

void wb_u8(wb *b, uint8_t v)
{
	wb_bytes(b, &v, 1);
}

void wb_u16(wb *b, uint16_t v)
{
	uint8_t p[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
	wb_bytes(b, p, 2);
}

void wb_u32(wb *b, uint32_t v)
{
	uint8_t p[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	wb_bytes(b, p, 4);
}

void wb_f32(wb *b, float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	wb_u32(b, u);
}

void wb_vec3(wb *b, float x, float y, float z)
{
	wb_f32(b, x);
	wb_f32(b, y);
	wb_f32(b, z);
}

void wb_name(wb *b, const char *s, size_t field)
{
	size_t n = strlen(s);
	if (n > field)
		n = field;
	wb_bytes(b, s, n);
	wb_zeros(b, field - n);
}

void wb_begin(wb *b, uint32_t id)
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
	wb_u32(b, id);
	wb_u32(b, 0);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

void wb_end_raw(wb *b, uint32_t size_field)
{
	if (b->depth <= 0) {
		fprintf(stderr, "w3dbuild: wb_end without wb_begin\n");
		abort();
	}
	b->depth--;
	put32(b->data + b->stack[b->depth] + 4, size_field);
}

void wb_end(wb *b)
{
	if (b->depth <= 0) {
		fprintf(stderr, "w3dbuild: wb_end without wb_begin\n");
		abort();
	}
	size_t at = b->stack[b->depth - 1];
	uint32_t size = (uint32_t)(b->len - at - 8);
	wb_end_raw(b, size | (b->children[b->depth - 1] ? 0x80000000u : 0u));
}

void wb_chunk(wb *b, uint32_t id, const void *p, size_t n)
{
	wb_begin(b, id);
	wb_bytes(b, p, n);
	wb_end(b);
}

void wb_patch_u32(wb *b, size_t offset, uint32_t v)
{
	if (offset + 4 <= b->len)
		put32(b->data + offset, v);
}

void wb_patch_f32(wb *b, size_t offset, float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	wb_patch_u32(b, offset, u);
}

void wb_mesh_with_tree(wb *b, const char *mesh_name, const char *container, const w3d_vec3 *v,
		       size_t nv, const uint32_t *vindex, size_t nt, const w3d_aabtree_built *t)
{
	wb_begin(b, W3D_CHUNK_MESH);
	wb_begin(b, W3D_CHUNK_MESH_HEADER3);
	wb_u32(b, 0x00040002);
	wb_u32(b, 0); /* NORMAL geometry */
	wb_name(b, mesh_name, 16);
	wb_name(b, container, 16);
	wb_u32(b, (uint32_t)nt);
	wb_u32(b, (uint32_t)nv);
	wb_zeros(b, 116 - 48);
	wb_end(b);
	wb_begin(b, W3D_CHUNK_VERTICES);
	for (size_t i = 0; i < nv; i++)
		wb_vec3(b, v[i].x, v[i].y, v[i].z);
	wb_end(b);
	wb_begin(b, W3D_CHUNK_TRIANGLES);
	for (size_t i = 0; i < nt; i++) {
		for (int k = 0; k < 3; k++)
			wb_u32(b, vindex[3 * i + (size_t)k]);
		wb_zeros(b, 20);
	}
	wb_end(b);
	if (t) {
		wb_begin(b, W3D_CHUNK_AABTREE);
		wb_begin(b, W3D_CHUNK_AABTREE_HEADER);
		wb_u32(b, t->node_count);
		wb_u32(b, t->poly_count);
		wb_zeros(b, 24);
		wb_end(b);
		wb_begin(b, W3D_CHUNK_AABTREE_POLYINDICES);
		for (uint32_t i = 0; i < t->poly_count; i++)
			wb_u32(b, t->poly_indices[i]);
		wb_end(b);
		wb_begin(b, W3D_CHUNK_AABTREE_NODES);
		for (uint32_t i = 0; i < t->node_count; i++) {
			const w3d_aabtree_node *n = &t->nodes[i];
			wb_vec3(b, n->min.x, n->min.y, n->min.z);
			wb_vec3(b, n->max.x, n->max.y, n->max.z);
			wb_u32(b, n->front_or_poly0);
			wb_u32(b, n->back_or_poly_count);
		}
		wb_end(b);
		wb_end(b);
	}
	wb_end(b);
}

void wb_pivot(wb *b, const char *name, uint32_t parent, float ty, float qw)
{
	wb_name(b, name, 16);
	wb_u32(b, parent);
	wb_vec3(b, 0, ty, 0);
	wb_vec3(b, 0, 0, 0);
	wb_f32(b, 0);
	wb_f32(b, 0);
	wb_f32(b, 0);
	wb_f32(b, qw);
}

void wb_vertices_normals(wb *b, const float (*v)[3], size_t n)
{
	wb_begin(b, W3D_CHUNK_VERTICES);
	for (size_t i = 0; i < n; i++)
		wb_vec3(b, v[i][0], v[i][1], v[i][2]);
	wb_end(b);
	wb_begin(b, W3D_CHUNK_VERTEX_NORMALS);
	for (size_t i = 0; i < n; i++)
		wb_vec3(b, 0, 0, 1);
	wb_end(b);
}

void wb_texcoords(wb *b, const float (*v)[3], size_t n)
{
	wb_begin(b, W3D_CHUNK_STAGE_TEXCOORDS);
	for (size_t i = 0; i < n; i++) {
		wb_f32(b, v[i][0]);
		wb_f32(b, v[i][1]);
	}
	wb_end(b);
}

void wb_quad_aabtree(wb *b)
{
	wb_begin(b, W3D_CHUNK_AABTREE);
	wb_begin(b, W3D_CHUNK_AABTREE_HEADER);
	wb_u32(b, 1); /* NodeCount */
	wb_u32(b, 2); /* PolyCount */
	wb_zeros(b, 24);
	wb_end(b);
	wb_begin(b, W3D_CHUNK_AABTREE_POLYINDICES);
	wb_u32(b, 0);
	wb_u32(b, 1);
	wb_end(b);
	wb_begin(b, W3D_CHUNK_AABTREE_NODES);
	wb_vec3(b, 0, 0, 0);
	wb_vec3(b, 1, 1, 0);
	wb_u32(b, W3D_AABTREE_LEAF_FLAG); /* leaf: first poly 0 */
	wb_u32(b, 2);                     /* poly count */
	wb_end(b);
	wb_end(b);
}
