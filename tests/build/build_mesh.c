/* build_mesh.c - see build_mesh.h. */
#include "build_mesh.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/model.h"
#include "lint/lint.h"
#include "reader_util.h"

void w3d_check_mesh(wl_lint_ctx *ctx);
void w3d_check_aabtree(wl_lint_ctx *ctx);

static const float verts[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
static const uint32_t tris[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };

static void write_header(wb *b, t_mesh_layout *lay, uint32_t ntris, uint32_t nverts)
{
	lay->header = b->len;
	t_w3d_begin(b, W3D_CHUNK_MESH_HEADER3);
	lay->header_data = b->len;
	t_w3d_u32(b, 0x00040002);       /* Version */
	t_w3d_u32(b, 0);                /* Attributes: NORMAL geometry */
	t_w3d_name(b, "BODY", 16);
	t_w3d_name(b, "TANK", 16);
	t_w3d_u32(b, ntris);
	t_w3d_u32(b, nverts);
	t_w3d_u32(b, 1);                /* NumMaterials */
	t_w3d_u32(b, 0);                /* NumDamageStages */
	t_w3d_u32(b, 0);                /* SortLevel */
	t_w3d_u32(b, 0);                /* PrelitVersion */
	t_w3d_u32(b, 0);                /* FutureCounts */
	t_w3d_u32(b, 3);                /* VertexChannels: location, normal */
	t_w3d_u32(b, 1);                /* FaceChannels */
	t_w3d_vec3(b, 0, 0, 0);
	t_w3d_vec3(b, 1, 1, 0);
	t_w3d_vec3(b, 0.5f, 0.5f, 0);
	t_w3d_f32(b, 0.7072f);
	t_w3d_end(b);
}

static void write_vertices(wb *b, t_mesh_layout *lay, int extra)
{
	lay->vertices = b->len;
	t_w3d_begin(b, W3D_CHUNK_VERTICES);
	for (int i = 0; i < 4 + extra; i++)
		t_w3d_vec3(b, verts[i % 4][0], verts[i % 4][1], verts[i % 4][2]);
	t_w3d_end(b);
}

static void write_node(wb *b, float x0, float y0, float x1, float y1, uint32_t a, uint32_t c)
{
	t_w3d_vec3(b, x0, y0, 0);
	t_w3d_vec3(b, x1, y1, 0);
	t_w3d_u32(b, a);
	t_w3d_u32(b, c);
}

static void write_aabtree(wb *b, const t_mesh_opts *o, t_mesh_layout *lay)
{
	uint32_t nodes = (o->aab_no_nodes ? 0 : 3) + (uint32_t)o->aab_extra_nodes;
	lay->aab = b->len;
	t_w3d_begin(b, W3D_CHUNK_AABTREE);
	for (int pass = 0; pass < 2; pass++) {
		if ((pass == 0) != (o->aab_header_late == 0)) {
			lay->aab_poly = b->len;
			t_w3d_begin(b, W3D_CHUNK_AABTREE_POLYINDICES);
			lay->aab_poly_data = b->len;
			t_w3d_u32(b, 0);
			t_w3d_u32(b, 1);
			t_w3d_end(b);
		} else {
			lay->aab_header = b->len;
			t_w3d_begin(b, W3D_CHUNK_AABTREE_HEADER);
			lay->aab_header_data = b->len;
			t_w3d_u32(b, nodes);
			t_w3d_u32(b, 2);
			t_w3d_zeros(b, 24);
			t_w3d_end(b);
		}
	}
	lay->aab_nodes = b->len;
	t_w3d_begin(b, W3D_CHUNK_AABTREE_NODES);
	lay->aab_nodes_data = b->len;
	if (!o->aab_no_nodes) {
		write_node(b, 0, 0, 1, 1, 1, 2);
		write_node(b, 0, 0, 1, 1, W3D_AABTREE_LEAF_FLAG | 0, 1);
		write_node(b, 0, 0, 1, 1, W3D_AABTREE_LEAF_FLAG | 1, 1);
	}
	for (int i = 0; i < o->aab_extra_nodes; i++)
		write_node(b, 0, 0, 1, 1, W3D_AABTREE_LEAF_FLAG | 0, 0);
	t_w3d_end(b);
	t_w3d_end(b);
}

static void write_pass(wb *b, const t_mesh_opts *o, t_mesh_layout *lay, int p)
{
	int stages = o->stages < 0 ? 0 : o->stages == 0 ? 1 : o->stages;
	int nvmid = o->vmid_count ? o->vmid_count : 1;
	lay->pass[p] = b->len;
	t_w3d_begin(b, W3D_CHUNK_MATERIAL_PASS);
	lay->vmids[p] = b->len;
	t_w3d_begin(b, W3D_CHUNK_VERTEX_MATERIAL_IDS);
	for (int i = 0; i < nvmid; i++)
		t_w3d_u32(b, 0);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_SHADER_IDS);
	t_w3d_u32(b, 0);
	t_w3d_end(b);
	lay->dcg[p] = b->len;
	t_w3d_begin(b, W3D_CHUNK_DCG);
	for (int i = 0; i < 4; i++)
		t_w3d_u32(b, 0xFFFFFFFFu);
	t_w3d_end(b);
	for (int s = 0; s < stages; s++) {
		lay->stage[p][s < 4 ? s : 3] = b->len;
		t_w3d_begin(b, W3D_CHUNK_TEXTURE_STAGE);
		if (s == 0)
			lay->texids[p] = b->len;
		t_w3d_begin(b, W3D_CHUNK_TEXTURE_IDS);
		t_w3d_u32(b, 0);
		t_w3d_u32(b, 0);
		t_w3d_end(b);
		if (s == 0)
			lay->texcoords[p] = b->len;
		t_w3d_begin(b, W3D_CHUNK_STAGE_TEXCOORDS);
		for (int i = 0; i < 4 + o->texcoord_delta; i++) {
			t_w3d_f32(b, verts[i % 4][0]);
			t_w3d_f32(b, verts[i % 4][1]);
		}
		t_w3d_end(b);
		if (o->per_face_ids > 0 && s == 0) {
			lay->per_face[p] = b->len;
			t_w3d_begin(b, W3D_CHUNK_PER_FACE_TEXCOORD_IDS);
			for (int i = 0; i < o->per_face_ids; i++) {
				t_w3d_u32(b, tris[i % 2][0]);
				t_w3d_u32(b, tris[i % 2][1]);
				t_w3d_u32(b, tris[i % 2][2]);
			}
			t_w3d_end(b);
		}
		t_w3d_end(b);
	}
	t_w3d_end(b);
}

void t_mesh_write_mesh(wb *b, const t_mesh_opts *o, t_mesh_layout *lay)
{
	int passes = o->passes ? o->passes : 1;
	uint32_t ntris = 2 + (uint32_t)o->extra_tris;
	memset(lay, 0, sizeof *lay);
	lay->mesh = b->len;
	t_w3d_begin(b, W3D_CHUNK_MESH);
	if (!o->no_header && !o->header_late)
		write_header(b, lay, ntris, 4);
	write_vertices(b, lay, o->extra_vertices);
	if (o->header_late)
		write_header(b, lay, ntris, 4);
	lay->normals = b->len;
	t_w3d_begin(b, W3D_CHUNK_VERTEX_NORMALS);
	for (int i = 0; i < 4; i++)
		t_w3d_vec3(b, 0, 0, 1);
	t_w3d_end(b);
	lay->tris = b->len;
	t_w3d_begin(b, W3D_CHUNK_TRIANGLES);
	lay->tris_data = b->len;
	for (uint32_t i = 0; i < ntris; i++) {
		t_w3d_u32(b, tris[i % 2][0]);
		t_w3d_u32(b, tris[i % 2][1]);
		t_w3d_u32(b, tris[i % 2][2]);
		t_w3d_u32(b, 0);           /* surface type */
		t_w3d_vec3(b, 0, 0, 1);
		t_w3d_f32(b, 0);
	}
	t_w3d_end(b);
	if (o->two_bone) {
		t_w3d_begin(b, W3D_CHUNK_VERTEX_INFLUENCES);
		for (int i = 0; i < 4; i++) {
			t_w3d_u16(b, 0);
			t_w3d_u16(b, 1);
			t_w3d_u16(b, 60);
			t_w3d_u16(b, 40);
		}
		t_w3d_end(b);
	}
	t_w3d_begin(b, W3D_CHUNK_VERTEX_SHADE_INDICES);
	for (uint32_t i = 0; i < 4; i++)
		t_w3d_u32(b, i);
	t_w3d_end(b);
	lay->matinfo_data = t_w3d_material_info(b, (uint32_t)passes, 1, 1, 1);
	t_w3d_begin(b, W3D_CHUNK_VERTEX_MATERIALS);
	t_w3d_vertex_material(b, "Paint", 0, 1, 1, 0);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_SHADERS);
	{
		static const uint8_t shader[16] = { 3, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0 };
		t_w3d_bytes(b, shader, sizeof shader);
	}
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_TEXTURES);
	t_w3d_begin(b, W3D_CHUNK_TEXTURE);
	t_w3d_chunk(b, W3D_CHUNK_TEXTURE_NAME, "tank.tga\0", 9);
	t_w3d_end(b);
	t_w3d_end(b);
	for (int p = 0; p < passes && p < 8; p++)
		write_pass(b, o, lay, p);
	if (o->aabtree)
		write_aabtree(b, o, lay);
	t_w3d_end(b);
}

wl_doc *t_mesh_lint_bytes(const uint8_t *p, size_t n)
{
	uint8_t *copy = t_copy(p, n);
	wl_doc *d = wl_doc_read(&w3d_format, "test.w3d", copy, n);
	if (!d) {
		fprintf(stderr, "build_mesh: out of memory\n");
		abort();
	}
	w3d_model *m = w3d_model_build(d);
	if (m && !d->oom) {
		wl_lint_ctx ctx = { d, m, NULL, NULL };
		w3d_check_mesh(&ctx);
		w3d_check_aabtree(&ctx);
	}
	return d;
}

wl_doc *t_mesh_lint(const wb *b)
{
	return t_mesh_lint_bytes(b->data, b->len);
}

void t_mesh_free(wl_doc *d)
{
	t_free(d); /* our own t_copy'd bytes */
}

size_t t_mesh_count(const wl_doc *d, const char *rule)
{
	return t_count(d, rule);
}

int t_mesh_has(const wl_doc *d, const char *rule, uint64_t offset)
{
	return t_find_at(d, rule, offset) != NULL;
}

void t_mesh_dump(const wl_doc *d)
{
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		char path[256];
		wl_chunk_path(d, f->chunk, f->element, path, sizeof path);
		fprintf(stderr, "  0x%llx+%llu %s: %s (%s)\n", (unsigned long long)f->offset,
			(unsigned long long)f->length, f->rule, f->message, path);
	}
}

static size_t at_offset(const t_mesh_layout *lay, t_mesh_at a)
{
	size_t v;
	memcpy(&v, (const char *)lay + a.member, sizeof v);
	return v + a.add;
}

void t_mesh_apply_patches(wb *b, const t_mesh_layout *lay, const t_mesh_patch *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i].kind == T_MESH_U32)
			t_w3d_patch_u32(b, at_offset(lay, p[i].at), p[i].u);
		else if (p[i].kind == T_MESH_F32)
			t_w3d_patch_f32(b, at_offset(lay, p[i].at), p[i].f);
	}
}

static wl_doc *step_doc(const t_mesh_step *s, int tree, t_mesh_layout *lay)
{
	t_mesh_opts o = s->o;
	if (tree)
		o.aabtree = 1;
	wb b;
	t_w3d_init(&b);
	t_mesh_write_mesh(&b, &o, lay);
	t_mesh_apply_patches(&b, lay, s->p, 2);
	wl_doc *d = t_mesh_lint(&b);
	t_w3d_free(&b);
	return d;
}

void t_mesh_run_steps(const char *name, const t_mesh_step *steps, int tree)
{
	wl_doc *d = NULL;
	t_mesh_layout lay;
	for (size_t i = 0; steps[i].rule; i++) {
		const t_mesh_step *s = &steps[i];
		ck_assert_msg(!s->again || d, "%s step %zu: again with no document", name, i);
		if (!s->again) {
			if (d)
				t_mesh_free(d);
			d = step_doc(s, tree, &lay);
		}
		size_t n = t_mesh_count(d, s->rule);
		if (s->fires) {
			uint64_t at = at_offset(&lay, s->at);
			if (!t_mesh_has(d, s->rule, at))
				t_mesh_dump(d);
			ck_assert_msg(t_mesh_has(d, s->rule, at), "%s step %zu: no %s at %llu", name, i,
				      s->rule, (unsigned long long)at);
		} else {
			ck_assert_msg(n == 0, "%s step %zu: %zu findings of %s, expected none", name, i,
				      n, s->rule);
		}
		if (s->count)
			ck_assert_msg(n == s->count, "%s step %zu: %zu findings of %s, expected %zu", name,
				      i, n, s->rule, s->count);
	}
	if (d)
		t_mesh_free(d);
}
