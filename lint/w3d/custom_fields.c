/*
 * custom_fields.c - the W3D fields of the configuration's declarative rules
 * (the table and the bytes of each field: lint/config/custom_rules.h) and the walk
 * over a w3d_model that tests every occurrence (lint/config/custom_fields.h).
 *
 * Name values are read again from the document's bytes at the field's
 * offset (the decoded names replace non-printable bytes with '?'; patterns
 * see the raw bytes).  Every read is bounded by the chunk's payload and by
 * the file size, so a short or truncated header yields no occurrence.
 */
#include "custom_fields.h"

#include <string.h>

enum field_code {
	F_MESH_NAME,
	F_CONTAINER_NAME,
	F_MESH_NUM_TRIANGLES,
	F_MESH_NUM_VERTICES,
	F_TEXTURE_NAME,
	F_TEXTURE_COUNT,
	F_VERTEX_MATERIAL_NAME,
	F_VERTEX_MATERIAL_COUNT,
	F_HIERARCHY_NAME,
	F_PIVOT_COUNT,
	F_PIVOT_NAME,
	F_ANIMATION_NAME,
	F_ANIMATION_HIERARCHY_NAME,
	F_ANIMATION_NUM_FRAMES,
	F_ANIMATION_FRAME_RATE,
	F_HLOD_NAME,
	F_HLOD_HIERARCHY_NAME,
	F_HLOD_LOD_COUNT,
	F_SUB_OBJECT_NAME,
	F_BOX_NAME
};

const wl_field_def w3d_custom_fields[W3D_CUSTOM_FIELD_COUNT] = {
	{ "mesh-name", WL_FIELD_NAME, F_MESH_NAME },
	{ "container-name", WL_FIELD_NAME, F_CONTAINER_NAME },
	{ "mesh-num-triangles", WL_FIELD_NUMBER, F_MESH_NUM_TRIANGLES },
	{ "mesh-num-vertices", WL_FIELD_NUMBER, F_MESH_NUM_VERTICES },
	{ "texture-name", WL_FIELD_NAME, F_TEXTURE_NAME },
	{ "texture-count", WL_FIELD_NUMBER, F_TEXTURE_COUNT },
	{ "vertex-material-name", WL_FIELD_NAME, F_VERTEX_MATERIAL_NAME },
	{ "vertex-material-count", WL_FIELD_NUMBER, F_VERTEX_MATERIAL_COUNT },
	{ "hierarchy-name", WL_FIELD_NAME, F_HIERARCHY_NAME },
	{ "pivot-count", WL_FIELD_NUMBER, F_PIVOT_COUNT },
	{ "pivot-name", WL_FIELD_NAME, F_PIVOT_NAME },
	{ "animation-name", WL_FIELD_NAME, F_ANIMATION_NAME },
	{ "animation-hierarchy-name", WL_FIELD_NAME, F_ANIMATION_HIERARCHY_NAME },
	{ "animation-num-frames", WL_FIELD_NUMBER, F_ANIMATION_NUM_FRAMES },
	{ "animation-frame-rate", WL_FIELD_NUMBER, F_ANIMATION_FRAME_RATE },
	{ "hlod-name", WL_FIELD_NAME, F_HLOD_NAME },
	{ "hlod-hierarchy-name", WL_FIELD_NAME, F_HLOD_HIERARCHY_NAME },
	{ "hlod-lod-count", WL_FIELD_NUMBER, F_HLOD_LOD_COUNT },
	{ "sub-object-name", WL_FIELD_NAME, F_SUB_OBJECT_NAME },
	{ "box-name", WL_FIELD_NAME, F_BOX_NAME },
};
_Static_assert(F_BOX_NAME + 1 == W3D_CUSTOM_FIELD_COUNT, "W3D_CUSTOM_FIELD_COUNT is the number of fields");


/* The material scopes of a mesh that exist: the mesh, then PRELIT_*. */
static size_t mesh_sets(const w3d_mesh *m, const w3d_material_set **out)
{
	size_t n = 0;
	out[n++] = &m->materials;
	for (size_t i = 0; i < W3D_PRELIT_KINDS; i++)
		if (m->prelit[i].src)
			out[n++] = &m->prelit[i];
	return n;
}

/* texture-count / vertex-material-count of a mesh: the count over every
 * scope, at the first container chunk (TEXTURES / VERTEX_MATERIALS) or at
 * the MESH chunk's header when there is none. */
static void mesh_count(const wl_custom_eval *e, const w3d_mesh *m, bool textures)
{
	const w3d_material_set *sets[1 + W3D_PRELIT_KINDS];
	size_t ns = mesh_sets(m, sets);
	const wl_chunk *at = NULL;
	double count = 0;
	for (size_t i = 0; i < ns; i++) {
		const wl_chunk *c = textures ? sets[i]->textures_src : sets[i]->vertex_materials_src;
		count += (double)(textures ? sets[i]->texture_count : sets[i]->vertex_material_count);
		if (c && !at)
			at = c;
	}
	wl_custom_occ o = { 0 };
	o.object = m->name;
	o.element = -1;
	o.number = count;
	const wl_doc *doc = e->ctx->doc;
	if (at) {
		o.chunk = at;
		o.offset = at->offset;
		o.length = at->header_size + at->size;
	} else {
		o.chunk = m->src;
		o.offset = m->src->offset;
		o.length = m->src->header_size;
	}
	if (o.offset > doc->size)
		return;
	if (doc->size - o.offset < o.length)
		o.length = doc->size - o.offset;
	wl_custom_check(e, &o);
}

static void eval_mesh(const wl_custom_eval *e, const w3d_mesh *m)
{
	const wl_doc *doc = e->ctx->doc;
	const w3d_mesh_header *h = &m->header;
	wl_custom_occ o = { 0 };
	switch (e->rule->field->code) {
	case F_TEXTURE_COUNT:
	case F_VERTEX_MATERIAL_COUNT:
		mesh_count(e, m, e->rule->field->code == F_TEXTURE_COUNT);
		return;
	case F_TEXTURE_NAME:
	case F_VERTEX_MATERIAL_NAME: {
		const w3d_material_set *sets[1 + W3D_PRELIT_KINDS];
		size_t ns = mesh_sets(m, sets);
		bool tex = e->rule->field->code == F_TEXTURE_NAME;
		for (size_t s = 0; s < ns; s++) {
			size_t n = tex ? sets[s]->texture_count : sets[s]->vertex_material_count;
			for (size_t i = 0; i < n; i++) {
				const wl_chunk *c = tex ? sets[s]->textures[i].name_src
							: sets[s]->vertex_materials[i].name_src;
				if (wl_custom_string_chunk(doc, c, &o)) {
					o.object = m->name;
					wl_custom_check(e, &o);
				}
			}
		}
		return;
	}
	default:
		break;
	}
	const wl_custom_header_field hf[] = {
		{ F_MESH_NAME, 8, 16, false, 0 },
		{ F_CONTAINER_NAME, 24, 16, false, 0 },
		{ F_MESH_NUM_TRIANGLES, 40, 4, true, h->num_tris },
		{ F_MESH_NUM_VERTICES, 44, 4, true, h->num_vertices },
	};
	wl_custom_eval_header(e, h->src, hf, sizeof hf / sizeof hf[0], m->name);
}

static void eval_hierarchy(const wl_custom_eval *e, const w3d_hierarchy *h)
{
	const wl_doc *doc = e->ctx->doc;
	wl_custom_occ o = { 0 };
	switch (e->rule->field->code) {
	case F_PIVOT_NAME:
		for (size_t i = 0; i < h->pivot_count; i++) {
			if (!wl_custom_name_field(doc, h->pivots_chunk, (uint64_t)i * W3D_PIVOT_SIZE, 16, &o))
				break;
			o.element = (int64_t)i;
			o.object = h->name;
			wl_custom_check(e, &o);
		}
		return;
	default:
		break;
	}
	const wl_custom_header_field hf[] = {
		{ F_HIERARCHY_NAME, 4, 16, false, 0 },
		{ F_PIVOT_COUNT, 20, 4, true, h->num_pivots },
	};
	if (h->header_ok)
		wl_custom_eval_header(e, h->header, hf, sizeof hf / sizeof hf[0], h->name);
}

/* Raw and compressed animations share the header layout up to @40. */
static void eval_animation(const wl_custom_eval *e, const wl_chunk *header, bool header_ok, const char *name,
			   uint32_t num_frames, uint32_t frame_rate, uint64_t rate_bytes)
{
	const wl_custom_header_field hf[] = {
		{ F_ANIMATION_NAME, 4, 16, false, 0 },
		{ F_ANIMATION_HIERARCHY_NAME, 20, 16, false, 0 },
		{ F_ANIMATION_NUM_FRAMES, 36, 4, true, num_frames },
		{ F_ANIMATION_FRAME_RATE, 40, rate_bytes, true, frame_rate },
	};
	if (header_ok)
		wl_custom_eval_header(e, header, hf, sizeof hf / sizeof hf[0], name);
}

static void eval_hlod(const wl_custom_eval *e, const w3d_hlod *h)
{
	const wl_doc *doc = e->ctx->doc;
	wl_custom_occ o = { 0 };
	switch (e->rule->field->code) {
	case F_SUB_OBJECT_NAME: {
		const w3d_hlod_array *groups[3] = { h->lods, h->aggregates, h->proxies };
		size_t counts[3] = { h->lod_array_count, h->aggregate_count, h->proxy_count };
		for (size_t g = 0; g < 3; g++)
			for (size_t a = 0; a < counts[g]; a++)
				for (size_t i = 0; i < groups[g][a].sub_count; i++) {
					const w3d_hlod_sub_object *s = &groups[g][a].subs[i];
					if (s->ok && wl_custom_name_field(doc, s->src, 4, 32, &o)) {
						o.object = h->name;
						wl_custom_check(e, &o);
					}
				}
		return;
	}
	default:
		break;
	}
	const wl_custom_header_field hf[] = {
		{ F_HLOD_NAME, 8, 16, false, 0 },
		{ F_HLOD_HIERARCHY_NAME, 24, 16, false, 0 },
		{ F_HLOD_LOD_COUNT, 4, 4, true, h->lod_count },
	};
	if (h->header_ok)
		wl_custom_eval_header(e, h->header, hf, sizeof hf / sizeof hf[0], h->name);
}

void w3d_custom_eval(const wl_custom_eval *e)
{
	const w3d_model *m = e->ctx->model;
	for (size_t i = 0; i < m->mesh_count; i++)
		if (m->meshes[i])
			eval_mesh(e, m->meshes[i]);
	for (size_t i = 0; i < m->hierarchy_count; i++)
		if (m->hierarchies[i])
			eval_hierarchy(e, m->hierarchies[i]);
	for (size_t i = 0; i < m->animation_count; i++) {
		const w3d_animation *a = m->animations[i];
		if (a)
			eval_animation(e, a->header, a->header_ok, a->name, a->num_frames, a->frame_rate, 4);
	}
	for (size_t i = 0; i < m->compressed_animation_count; i++) {
		const w3d_compressed_animation *a = m->compressed_animations[i];
		if (a)
			eval_animation(e, a->header, a->header_ok, a->name, a->num_frames, a->frame_rate, 2);
	}
	for (size_t i = 0; i < m->hlod_count; i++)
		if (m->hlods[i])
			eval_hlod(e, m->hlods[i]);
	if (e->rule->field->code == F_BOX_NAME) {
		for (size_t i = 0; i < m->box_count; i++) {
			const w3d_box *b = m->boxes[i];
			wl_custom_occ o = { 0 };
			if (b && wl_custom_name_field(e->ctx->doc, b->src, 8, 32, &o)) {
				o.object = b->name;
				wl_custom_check(e, &o);
			}
		}
	}
}

