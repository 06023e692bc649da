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

br_mesh_opts br_mesh_defaults(void)
{
	br_mesh_opts o;
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

static void write_materials(wb *b, const br_mesh_opts *o, br_mesh_at *at)
{
	for (int pass = 0; pass < 2; pass++) {
		bool info_now = (pass == 0) != o->shaders_first;
		if (info_now) {
			wb_begin(b, W3D_CHUNK_MATERIAL_INFO);
			wb_u32(b, 1);
			wb_u32(b, o->vmat_count);
			wb_u32(b, o->shader_count);
			wb_u32(b, o->texture_count);
			wb_end(b);
		} else {
			at->shaders = b->len;
			wb_begin(b, W3D_CHUNK_SHADERS);
			at->shaders_data = b->len;
			for (uint32_t i = 0; i < o->shader_count; i++)
				wb_bytes(b, o->shader, 16);
			wb_end(b);
		}
	}
	wb_begin(b, W3D_CHUNK_VERTEX_MATERIALS);
	for (uint32_t i = 0; i < o->vmat_count; i++) {
		wb_begin(b, W3D_CHUNK_VERTEX_MATERIAL);
		wb_chunk(b, W3D_CHUNK_VERTEX_MATERIAL_NAME, "Paint\0", 6);
		wb_begin(b, W3D_CHUNK_VERTEX_MATERIAL_INFO);
		first_at(&at->vm_info_data, i, b);
		wb_u32(b, o->vm_attributes);
		for (int k = 0; k < 4; k++)
			wb_u32(b, 0x00FFFFFFu);
		wb_f32(b, o->shininess);
		wb_f32(b, o->opacity);
		wb_f32(b, o->translucency);
		wb_end(b);
		wb_end(b);
	}
	wb_end(b);
	wb_begin(b, W3D_CHUNK_TEXTURES);
	for (uint32_t i = 0; i < o->texture_count; i++) {
		first_at(&at->texture, i, b);
		wb_begin(b, W3D_CHUNK_TEXTURE);
		if (!(i == 0 && o->no_texture_name)) {
			first_at(&at->tex_name, i, b);
			wb_chunk(b, W3D_CHUNK_TEXTURE_NAME, o->texture_name, strlen(o->texture_name) + 1);
		}
		if (o->texture_info) {
			wb_begin(b, W3D_CHUNK_TEXTURE_INFO);
			first_at(&at->tex_info_data, i, b);
			wb_u16(b, 0);
			wb_u16(b, o->anim_type);
			wb_u32(b, o->frame_count);
			wb_f32(b, o->frame_rate);
			wb_end(b);
		}
		wb_end(b);
	}
	wb_end(b);
	wb_begin(b, W3D_CHUNK_MATERIAL_PASS);
	wb_begin(b, W3D_CHUNK_VERTEX_MATERIAL_IDS);
	at->vmids_data = b->len;
	for (int i = 0; i < (o->per_vertex_vmids ? 4 : 1); i++)
		wb_u32(b, i == 2 ? o->vmid_v2 : o->vmat_id);
	wb_end(b);
	wb_begin(b, W3D_CHUNK_SHADER_IDS);
	at->shader_ids_data = b->len;
	wb_u32(b, o->shader_id);
	wb_end(b);
	wb_begin(b, W3D_CHUNK_TEXTURE_STAGE);
	wb_begin(b, W3D_CHUNK_TEXTURE_IDS);
	at->tex_ids_data = b->len;
	wb_u32(b, o->tex_id);
	if (!o->single_tex_id)
		wb_u32(b, o->tex_id_1);
	wb_end(b);
	wb_texcoords(b, verts, 4);
	wb_end(b);
	wb_end(b);
}

/* Opens chunk id (its header offset in *object) and its header chunk hid,
 * writes the start both headers share (version, a u32, two 16-byte names)
 * and returns the header payload offset; the header stays open. */
static size_t begin_header(wb *b, uint32_t id, uint32_t hid, size_t *object, uint32_t version,
			   uint32_t word, const char *name1, const char *name2)
{
	*object = b->len;
	wb_begin(b, id);
	wb_begin(b, hid);
	size_t data = b->len;
	wb_u32(b, version);
	wb_u32(b, word);
	wb_name(b, name1, 16);
	wb_name(b, name2, 16);
	return data;
}

void br_mesh(wb *b, const br_mesh_opts *o, br_mesh_at *at)
{
	memset(at, 0, sizeof *at);
	at->header_data = begin_header(b, W3D_CHUNK_MESH, W3D_CHUNK_MESH_HEADER3, &at->mesh, o->version,
				       o->attributes, o->mesh, o->container);
	wb_u32(b, o->tris);
	wb_u32(b, 4);
	wb_u32(b, 1);
	wb_u32(b, 0);
	wb_u32(b, (uint32_t)o->sort_level);
	wb_u32(b, 0);
	wb_u32(b, 0);
	wb_u32(b, o->vertex_channels);
	wb_u32(b, o->face_channels);
	wb_vec3(b, 0, 0, 0);
	wb_vec3(b, 1, 1, 0);
	wb_vec3(b, 0.5f, 0.5f, 0);
	wb_f32(b, 0.7072f);
	wb_end(b);
	wb_vertices_normals(b, verts, 4);
	wb_begin(b, W3D_CHUNK_TRIANGLES);
	at->tris_data = b->len;
	for (int i = 0; i < 2; i++) {
		wb_u32(b, tris[i][0]);
		wb_u32(b, tris[i][1]);
		wb_u32(b, tris[i][2]);
		wb_u32(b, i == 1 ? o->surface_type : 0);
		wb_vec3(b, 0, 0, 1);
		wb_f32(b, 0);
	}
	wb_end(b);
	if (o->influences) {
		wb_begin(b, W3D_CHUNK_VERTEX_INFLUENCES);
		at->infl_data = b->len;
		for (int i = 0; i < 4; i++) {
			wb_u16(b, i == 2 ? o->bone_v2 : 0);
			wb_zeros(b, 6);
		}
		wb_end(b);
	}
	wb_begin(b, W3D_CHUNK_VERTEX_SHADE_INDICES);
	at->shade_data = b->len;
	for (int i = 0; i < 4; i++)
		wb_u32(b, o->shade[i]);
	wb_end(b);
	if (o->prelit_chunk) {
		at->prelit = b->len;
		wb_begin(b, o->prelit_chunk);
	}
	write_materials(b, o, at);
	if (o->prelit_chunk)
		wb_end(b);
	if (o->aabtree)
		wb_quad_aabtree(b);
	wb_end(b);
}

void br_hierarchy(wb *b, const char *name, unsigned n, const char *const *names, size_t *header_data,
		  size_t *pivots_data)
{
	wb_begin(b, W3D_CHUNK_HIERARCHY);
	wb_begin(b, W3D_CHUNK_HIERARCHY_HEADER);
	if (header_data)
		*header_data = b->len;
	wb_u32(b, 0x00040001);
	wb_name(b, name, 16);
	wb_u32(b, n);
	wb_vec3(b, 0, 0, 0);
	wb_end(b);
	wb_begin(b, W3D_CHUNK_PIVOTS);
	if (pivots_data)
		*pivots_data = b->len;
	for (unsigned i = 0; i < n; i++) {
		char pn[16];
		snprintf(pn, sizeof pn, "P%u", i);
		wb_pivot(b, names ? names[i] : pn, i ? i - 1 : 0xFFFFFFFFu, 0, 1);
	}
	wb_end(b);
	wb_end(b);
}

br_hlod_opts br_hlod_defaults(const char *name, const char *hierarchy)
{
	br_hlod_opts o;
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
	wb_begin(b, id);
	wb_begin(b, W3D_CHUNK_HLOD_SUB_OBJECT_ARRAY_HEADER);
	if (header_data)
		*header_data = b->len;
	wb_u32(b, n);
	wb_f32(b, screen);
	wb_end(b);
	for (unsigned s = 0; s < n; s++) {
		wb_begin(b, W3D_CHUNK_HLOD_SUB_OBJECT);
		sub_data[s] = b->len;
		wb_u32(b, bones[s]);
		wb_name(b, names[s] ? names[s] : "", 32);
		wb_end(b);
	}
	wb_end(b);
}

void br_hlod(wb *b, const br_hlod_opts *o, br_hlod_at *at)
{
	memset(at, 0, sizeof *at);
	at->header_data = begin_header(b, W3D_CHUNK_HLOD, W3D_CHUNK_HLOD_HEADER, &at->object, o->version,
				       o->lods, o->name, o->hierarchy);
	wb_end(b);
	for (unsigned l = 0; l < o->lods && l < 3; l++)
		write_array(b, W3D_CHUNK_HLOD_LOD_ARRAY, o->screen[l], o->subs, o->sub_names, o->bones,
			    &at->array_header_data[l], at->sub_data[l]);
	if (o->proxies)
		write_array(b, W3D_CHUNK_HLOD_PROXY_ARRAY, 0, o->proxies, o->sub_names, o->bones, NULL,
			    at->proxy_data);
	wb_end(b);
}

/* Opens the animation chunk id and its header chunk hid, writes the start
 * both headers share (version, name, hierarchy name, frame count); the
 * header stays open.  *header_data (when not NULL) = header payload. */
static void begin_anim(wb *b, uint32_t id, uint32_t hid, size_t *header_data, uint32_t version,
		       const char *name, const char *hier, uint32_t frames)
{
	wb_begin(b, id);
	wb_begin(b, hid);
	if (header_data)
		*header_data = b->len;
	wb_u32(b, version);
	wb_name(b, name, 16);
	wb_name(b, hier, 16);
	wb_u32(b, frames);
}

void br_anim(wb *b, const char *name, const char *hier, uint32_t frames, uint32_t rate, unsigned n,
	     const uint16_t *pivots, const uint16_t *types, int vis_pivot, size_t *header_data, size_t *ch_data,
	     size_t *bit_data)
{
	begin_anim(b, W3D_CHUNK_ANIMATION, W3D_CHUNK_ANIMATION_HEADER, header_data, 0x00040001, name, hier,
		   frames);
	wb_u32(b, rate);
	wb_end(b);
	uint16_t last = frames ? (uint16_t)(frames - 1) : 0;
	for (unsigned i = 0; i < n; i++) {
		uint16_t vl = types[i] == 6 ? 4 : 1;
		wb_begin(b, W3D_CHUNK_ANIMATION_CHANNEL);
		if (ch_data)
			ch_data[i] = b->len;
		wb_u16(b, 0);
		wb_u16(b, last);
		wb_u16(b, vl);
		wb_u16(b, types[i]);
		wb_u16(b, pivots[i]);
		wb_u16(b, 0);
		for (unsigned f = 0; f <= last; f++)
			for (unsigned k = 0; k < vl; k++)
				wb_f32(b, vl == 4 && k == 3 ? 1.0f : 0.0f);
		wb_end(b);
	}
	if (vis_pivot >= 0) {
		wb_begin(b, W3D_CHUNK_BIT_CHANNEL);
		if (bit_data)
			*bit_data = b->len;
		wb_u16(b, 0);
		wb_u16(b, last);
		wb_u16(b, 0);
		wb_u16(b, (uint16_t)vis_pivot);
		wb_u8(b, 1);
		for (unsigned k = 0; k < (last + 1u + 7u) / 8u; k++)
			wb_u8(b, 0xFF);
		wb_end(b);
	}
	wb_end(b);
}

void br_canim(wb *b, const char *name, const char *hier, uint32_t frames, uint16_t flavor, uint16_t pivot,
	      const uint32_t *times, unsigned nkeys, float scale, size_t *header_data, size_t *ch_data,
	      size_t *bit_data)
{
	begin_anim(b, W3D_CHUNK_COMPRESSED_ANIMATION, W3D_CHUNK_COMPRESSED_ANIMATION_HEADER, header_data, 1,
		   name, hier, frames);
	wb_u16(b, 30);
	wb_u16(b, flavor);
	wb_end(b);
	wb_begin(b, W3D_CHUNK_COMPRESSED_ANIMATION_CHANNEL);
	if (ch_data)
		*ch_data = b->len;
	if (flavor == 0) {
		wb_u32(b, nkeys);
		wb_u16(b, pivot);
		wb_u8(b, 1);
		wb_u8(b, 0);
		for (unsigned k = 0; k < nkeys; k++) {
			wb_u32(b, times[k]);
			wb_f32(b, (float)k);
		}
	} else {
		wb_u32(b, frames);
		wb_u16(b, pivot);
		wb_u8(b, 1);
		wb_u8(b, 0);
		wb_f32(b, scale);
		wb_f32(b, 0);
		for (uint32_t blk = 0; blk < (frames + 15) / 16; blk++)
			wb_zeros(b, 9);
		wb_zeros(b, 3);
	}
	wb_end(b);
	if (flavor == 0) {
		wb_begin(b, W3D_CHUNK_COMPRESSED_BIT_CHANNEL);
		if (bit_data)
			*bit_data = b->len;
		wb_u32(b, nkeys);
		wb_u16(b, pivot);
		wb_u8(b, 0);
		wb_u8(b, 1);
		for (unsigned k = 0; k < nkeys; k++)
			wb_u32(b, times[k]);
		wb_end(b);
	}
	wb_end(b);
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
	uint8_t *copy = ru_copy(p, n);
	wl_doc *d = wl_lint_bytes(catalogue(), NULL, path, copy, n);
	if (!d) {
		fprintf(stderr, "build_refs: out of memory\n");
		abort();
	}
	return d;
}

wl_doc *br_lint(const wb *b, const char *path)
{
	return lint_named(b->data, b->len, path);
}

wl_doc *br_lint_bytes(const uint8_t *p, size_t n)
{
	return lint_named(p, n, "fuzz.w3d");
}

void br_free(wl_doc *d)
{
	ru_free(d);
}

const wl_finding *br_at(const wl_doc *d, const char *rule, uint64_t offset)
{
	return ru_find_at(d, rule, offset);
}

size_t br_count(const wl_doc *d, const char *rule)
{
	return ru_count(d, rule);
}

void br_dump(const wl_doc *d)
{
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		fprintf(stderr, "  0x%llx %s: %s\n", (unsigned long long)f->offset, f->rule, f->message);
	}
}
