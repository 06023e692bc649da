/* build_refs.c - see build_refs.h. */
#include "build_refs.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/w3d_format.h"
#include "lint/lint.h"
#include "reader_util.h"

static const float verts[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
static const uint32_t tris[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };

t_ref_mesh_opts t_ref_mesh_defaults(void)
{
	t_ref_mesh_opts o;
	memset(&o, 0, sizeof o);
	o.mesh = "BODY";
	o.container = "TANK";
	o.version = 0x00040002;
	o.vertex_channels = 3;
	o.face_channels = 1;
	o.shader_count = 1;
	o.vmat_count = 1;
	o.texture_count = 1;
	static const uint8_t shader[16] = { 3, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0 };
	memcpy(o.shader, shader, sizeof shader);
	o.shininess = 1;
	o.opacity = 1;
	o.texture_name = "tank.tga";
	o.frame_count = 1;
	for (uint32_t i = 0; i < 4; i++)
		o.shade[i] = i;
	o.tris = 2;
	return o;
}

/* Records the current offset in *at for element 0 (the offsets tests
 * assert on are those of the first material / texture). */
static void first_at(size_t *at, uint32_t i, const wb *b)
{
	if (i == 0)
		*at = b->len;
}

/* MATERIAL_INFO and SHADERS, in the order o->shaders_first asks for. */
static void write_info_shaders(wb *b, const t_ref_mesh_opts *o, t_ref_mesh_at *at)
{
	for (int pass = 0; pass < 2; pass++) {
		bool info_now = (pass == 0) != o->shaders_first;
		if (info_now) {
			t_w3d_material_info(b, 1, o->vmat_count, o->shader_count, o->texture_count);
		} else {
			at->shaders = b->len;
			t_w3d_begin(b, W3D_CHUNK_SHADERS);
			at->shaders_data = b->len;
			for (uint32_t i = 0; i < o->shader_count; i++)
				t_w3d_bytes(b, o->shader, 16);
			t_w3d_end(b);
		}
	}
}

/* VERTEX_MATERIALS of o->vmat_count materials. */
static void write_vertex_materials(wb *b, const t_ref_mesh_opts *o, t_ref_mesh_at *at)
{
	t_w3d_begin(b, W3D_CHUNK_VERTEX_MATERIALS);
	for (uint32_t i = 0; i < o->vmat_count; i++) {
		size_t info = t_w3d_vertex_material(b, "Paint", o->vm_attributes, o->shininess, o->opacity,
						    o->translucency);
		if (i == 0)
			at->vm_info_data = info;
	}
	t_w3d_end(b);
}

/* TEXTURES of o->texture_count textures. */
static void write_textures(wb *b, const t_ref_mesh_opts *o, t_ref_mesh_at *at)
{
	t_w3d_begin(b, W3D_CHUNK_TEXTURES);
	for (uint32_t i = 0; i < o->texture_count; i++) {
		first_at(&at->texture, i, b);
		t_w3d_begin(b, W3D_CHUNK_TEXTURE);
		if (!(i == 0 && o->no_texture_name)) {
			first_at(&at->tex_name, i, b);
			t_w3d_chunk(b, W3D_CHUNK_TEXTURE_NAME, o->texture_name, strlen(o->texture_name) + 1);
		}
		if (o->texture_info) {
			t_w3d_begin(b, W3D_CHUNK_TEXTURE_INFO);
			first_at(&at->tex_info_data, i, b);
			t_w3d_u16(b, 0);
			t_w3d_u16(b, o->anim_type);
			t_w3d_u32(b, o->frame_count);
			t_w3d_f32(b, o->frame_rate);
			t_w3d_end(b);
		}
		t_w3d_end(b);
	}
	t_w3d_end(b);
}

/* The one MATERIAL_PASS with its TEXTURE_STAGE. */
static void write_pass(wb *b, const t_ref_mesh_opts *o, t_ref_mesh_at *at)
{
	t_w3d_begin(b, W3D_CHUNK_MATERIAL_PASS);
	t_w3d_begin(b, W3D_CHUNK_VERTEX_MATERIAL_IDS);
	at->vmids_data = b->len;
	for (int i = 0; i < (o->per_vertex_vmids ? 4 : 1); i++)
		t_w3d_u32(b, i == 2 ? o->vmid_v2 : o->vmat_id);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_SHADER_IDS);
	at->shader_ids_data = b->len;
	t_w3d_u32(b, o->shader_id);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_TEXTURE_STAGE);
	t_w3d_begin(b, W3D_CHUNK_TEXTURE_IDS);
	at->tex_ids_data = b->len;
	t_w3d_u32(b, o->tex_id);
	if (!o->single_tex_id)
		t_w3d_u32(b, o->tex_id_1);
	t_w3d_end(b);
	t_w3d_texcoords(b, verts, 4);
	t_w3d_end(b);
	t_w3d_end(b);
}

void t_ref_mesh(wb *b, const t_ref_mesh_opts *o, t_ref_mesh_at *at)
{
	memset(at, 0, sizeof *at);
	at->header_data = t_w3d_begin_header(b, W3D_CHUNK_MESH, W3D_CHUNK_MESH_HEADER3, &at->mesh, o->version,
				       o->attributes, o->mesh, o->container);
	t_w3d_u32(b, o->tris);
	t_w3d_u32(b, 4);
	t_w3d_u32(b, 1);
	t_w3d_u32(b, 0);
	t_w3d_u32(b, (uint32_t)o->sort_level);
	t_w3d_u32(b, 0);
	t_w3d_u32(b, 0);
	t_w3d_u32(b, o->vertex_channels);
	t_w3d_u32(b, o->face_channels);
	t_w3d_vec3(b, 0, 0, 0);
	t_w3d_vec3(b, 1, 1, 0);
	t_w3d_vec3(b, 0.5f, 0.5f, 0);
	t_w3d_f32(b, 0.7072f);
	t_w3d_end(b);
	t_w3d_vertices_normals(b, verts, 4);
	t_w3d_begin(b, W3D_CHUNK_TRIANGLES);
	at->tris_data = b->len;
	for (int i = 0; i < 2; i++) {
		t_w3d_u32(b, tris[i][0]);
		t_w3d_u32(b, tris[i][1]);
		t_w3d_u32(b, tris[i][2]);
		t_w3d_u32(b, i == 1 ? o->surface_type : 0);
		t_w3d_vec3(b, 0, 0, 1);
		t_w3d_f32(b, 0);
	}
	t_w3d_end(b);
	if (o->influences) {
		t_w3d_begin(b, W3D_CHUNK_VERTEX_INFLUENCES);
		at->infl_data = b->len;
		for (int i = 0; i < 4; i++) {
			t_w3d_u16(b, i == 2 ? o->bone_v2 : 0);
			t_w3d_zeros(b, 6);
		}
		t_w3d_end(b);
	}
	t_w3d_begin(b, W3D_CHUNK_VERTEX_SHADE_INDICES);
	at->shade_data = b->len;
	for (int i = 0; i < 4; i++)
		t_w3d_u32(b, o->shade[i]);
	t_w3d_end(b);
	if (o->prelit_chunk) {
		at->prelit = b->len;
		t_w3d_begin(b, o->prelit_chunk);
	}
	write_info_shaders(b, o, at);
	write_vertex_materials(b, o, at);
	write_textures(b, o, at);
	write_pass(b, o, at);
	if (o->prelit_chunk)
		t_w3d_end(b);
	if (o->aabtree)
		t_w3d_quad_aabtree(b);
	t_w3d_end(b);
}

void t_ref_hierarchy(wb *b, const char *name, unsigned n, const char *const *names, size_t *header_data,
		  size_t *pivots_data)
{
	t_w3d_begin(b, W3D_CHUNK_HIERARCHY);
	size_t hdata = t_w3d_hierarchy_header(b, name, n);
	if (header_data)
		*header_data = hdata;
	t_w3d_begin(b, W3D_CHUNK_PIVOTS);
	if (pivots_data)
		*pivots_data = b->len;
	for (unsigned i = 0; i < n; i++) {
		char pn[16];
		snprintf(pn, sizeof pn, "P%u", i);
		t_w3d_pivot(b, names ? names[i] : pn, i ? i - 1 : 0xFFFFFFFFu, 0, 1);
	}
	t_w3d_end(b);
	t_w3d_end(b);
}

t_ref_hlod_opts t_ref_hlod_defaults(const char *name, const char *hierarchy)
{
	t_ref_hlod_opts o;
	memset(&o, 0, sizeof o);
	o.name = name;
	o.hierarchy = hierarchy;
	o.version = 0x00010000;
	o.lods = 1;
	o.screen[0] = FLT_MAX;
	o.subs = 1;
	o.sub_names[0] = "TANK.BODY";
	return o;
}

static void write_array(wb *b, uint32_t id, float screen, unsigned n, const char *const *names,
			const uint32_t *bones, size_t *header_data, size_t *sub_data)
{
	t_w3d_begin(b, id);
	size_t hdata = t_w3d_hlod_array_header(b, n, screen);
	if (header_data)
		*header_data = hdata;
	for (unsigned s = 0; s < n; s++)
		sub_data[s] = t_w3d_hlod_sub_object(b, bones[s], names[s] ? names[s] : "") + 8;
	t_w3d_end(b);
}

void t_ref_hlod(wb *b, const t_ref_hlod_opts *o, t_ref_hlod_at *at)
{
	memset(at, 0, sizeof *at);
	at->header_data = t_w3d_begin_header(b, W3D_CHUNK_HLOD, W3D_CHUNK_HLOD_HEADER, &at->object, o->version,
				       o->lods, o->name, o->hierarchy);
	t_w3d_end(b);
	for (unsigned l = 0; l < o->lods && l < 3; l++)
		write_array(b, W3D_CHUNK_HLOD_LOD_ARRAY, o->screen[l], o->subs, o->sub_names, o->bones,
			    &at->array_header_data[l], at->sub_data[l]);
	if (o->proxies)
		write_array(b, W3D_CHUNK_HLOD_PROXY_ARRAY, 0, o->proxies, o->sub_names, o->bones, NULL,
			    at->proxy_data);
	t_w3d_end(b);
}

/* Opens the animation chunk id and its header chunk hid, writes the start
 * both headers share (version, name, hierarchy name, frame count); the
 * header stays open.  *header_data (when not NULL) = header payload. */
static void begin_anim(wb *b, uint32_t id, uint32_t hid, size_t *header_data, uint32_t version,
		       const char *name, const char *hier, uint32_t frames)
{
	t_w3d_begin(b, id);
	t_w3d_begin(b, hid);
	if (header_data)
		*header_data = b->len;
	t_w3d_u32(b, version);
	t_w3d_name(b, name, 16);
	t_w3d_name(b, hier, 16);
	t_w3d_u32(b, frames);
}

void t_ref_anim(wb *b, const char *name, const char *hier, uint32_t frames, uint32_t rate, unsigned n,
	     const uint16_t *pivots, const uint16_t *types, int vis_pivot, size_t *header_data, size_t *ch_data,
	     size_t *bit_data)
{
	begin_anim(b, W3D_CHUNK_ANIMATION, W3D_CHUNK_ANIMATION_HEADER, header_data, 0x00040001, name, hier,
		   frames);
	t_w3d_u32(b, rate);
	t_w3d_end(b);
	uint16_t last = frames ? (uint16_t)(frames - 1) : 0;
	for (unsigned i = 0; i < n; i++) {
		uint16_t vl = types[i] == 6 ? 4 : 1;
		t_w3d_begin(b, W3D_CHUNK_ANIMATION_CHANNEL);
		if (ch_data)
			ch_data[i] = b->len;
		t_w3d_u16(b, 0);
		t_w3d_u16(b, last);
		t_w3d_u16(b, vl);
		t_w3d_u16(b, types[i]);
		t_w3d_u16(b, pivots[i]);
		t_w3d_u16(b, 0);
		for (unsigned f = 0; f <= last; f++)
			for (unsigned k = 0; k < vl; k++)
				t_w3d_f32(b, vl == 4 && k == 3 ? 1.0f : 0.0f);
		t_w3d_end(b);
	}
	if (vis_pivot >= 0) {
		t_w3d_begin(b, W3D_CHUNK_BIT_CHANNEL);
		if (bit_data)
			*bit_data = b->len;
		t_w3d_u16(b, 0);
		t_w3d_u16(b, last);
		t_w3d_u16(b, 0);
		t_w3d_u16(b, (uint16_t)vis_pivot);
		t_w3d_u8(b, 1);
		for (unsigned k = 0; k < (last + 1u + 7u) / 8u; k++)
			t_w3d_u8(b, 0xFF);
		t_w3d_end(b);
	}
	t_w3d_end(b);
}

void t_ref_canim(wb *b, const char *name, const char *hier, uint32_t frames, uint16_t flavor, uint16_t pivot,
	      const uint32_t *times, unsigned nkeys, float scale, size_t *header_data, size_t *ch_data,
	      size_t *bit_data)
{
	begin_anim(b, W3D_CHUNK_COMPRESSED_ANIMATION, W3D_CHUNK_COMPRESSED_ANIMATION_HEADER, header_data, 1,
		   name, hier, frames);
	t_w3d_u16(b, 30);
	t_w3d_u16(b, flavor);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_COMPRESSED_ANIMATION_CHANNEL);
	if (ch_data)
		*ch_data = b->len;
	if (flavor == 0) {
		t_w3d_u32(b, nkeys);
		t_w3d_u16(b, pivot);
		t_w3d_u8(b, 1);
		t_w3d_u8(b, 0);
		for (unsigned k = 0; k < nkeys; k++) {
			t_w3d_u32(b, times[k]);
			t_w3d_f32(b, (float)k);
		}
	} else {
		t_w3d_u32(b, frames);
		t_w3d_u16(b, pivot);
		t_w3d_u8(b, 1);
		t_w3d_u8(b, 0);
		t_w3d_f32(b, scale);
		t_w3d_f32(b, 0);
		for (uint32_t blk = 0; blk < (frames + 15) / 16; blk++)
			t_w3d_zeros(b, 9);
		t_w3d_zeros(b, 3);
	}
	t_w3d_end(b);
	if (flavor == 0) {
		t_w3d_begin(b, W3D_CHUNK_COMPRESSED_BIT_CHANNEL);
		if (bit_data)
			*bit_data = b->len;
		t_w3d_u32(b, nkeys);
		t_w3d_u16(b, pivot);
		t_w3d_u8(b, 0);
		t_w3d_u8(b, 1);
		for (unsigned k = 0; k < nkeys; k++)
			t_w3d_u32(b, times[k]);
		t_w3d_end(b);
	}
	t_w3d_end(b);
}

static wl_catalog *catalogue(void)
{
	static wl_catalog *cat;
	if (!cat) {
		char err[512];
		cat = wl_catalog_load_builtin(err, sizeof err);
		if (!cat) {
			fprintf(stderr, "build_refs: catalogue: %s\n", err);
			abort();
		}
	}
	return cat;
}

static wl_doc *lint_named(const uint8_t *p, size_t n, const char *path)
{
	uint8_t *copy = t_copy(p, n);
	wl_doc *d = wl_lint_bytes(catalogue(), NULL, path, copy, n);
	if (!d) {
		fprintf(stderr, "build_refs: out of memory\n");
		abort();
	}
	return d;
}

wl_doc *t_ref_lint(const wb *b, const char *path)
{
	return lint_named(b->data, b->len, path);
}

wl_doc *t_ref_lint_bytes(const uint8_t *p, size_t n)
{
	return lint_named(p, n, "fuzz.w3d");
}

void t_ref_free(wl_doc *d)
{
	t_free(d);
}

const wl_finding *t_ref_at(const wl_doc *d, const char *rule, uint64_t offset)
{
	return t_find_at(d, rule, offset);
}

size_t t_ref_count(const wl_doc *d, const char *rule)
{
	return t_count(d, rule);
}

void t_ref_dump(const wl_doc *d)
{
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		fprintf(stderr, "  0x%llx %s: %s\n", (unsigned long long)f->offset, f->rule, f->message);
	}
}
