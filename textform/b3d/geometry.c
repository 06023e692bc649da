/* geometry.c - B3D meshes for display (wl_tf_format.geometry; keys in
 * textform/geometry.h): each MESH of the typed model (core/b3d/model.h)
 * with its NODE's name, its VRTS vertices (x, y, z at the start of each
 * record; the normal and the first texture coordinate set where the VRTS
 * flags and counts put them) and every TRIS's vertex ids, in the MESH's
 * own coordinates (the NODE transforms are not applied: the finding's
 * bytes are what is shown).  BONE weights name the joint (NODE) each
 * vertex is bound to: its strongest weight's bone, by the mesh the reader
 * binds BONE ids to (Irrlicht's and Luanti's: b3d_bone.bind_irrlicht).
 * bone_names and bone_paths name each NODE and give its chunk path: a
 * finding at NODE[Arm]/BONE[12] is a weight of the bone whose path is
 * NODE[Arm]. */
#include "textform/b3d/b3d_geometry.h"
#include "textform/geometry.h"

#include <stdlib.h>

#include "core/b3d/model.h"
#include "core/cursor.h"

static void vertices(json_t *g, const wl_doc *d, const b3d_vrts *v)
{
	const b3d_records *r = &v->verts;
	if (!r->size)
		return;
	wl_tf_geo_span(g, "vertex_arrays", d, v->src, 0, r->count);
	for (size_t i = 0; i < r->count; i++) {
		const uint8_t *p = b3d_record(r, i);
		float xyz[3] = { wl_lef32(p), wl_lef32(p + 4), wl_lef32(p + 8) };
		wl_tf_geo_floats(g, "positions", xyz, 3);
		if (v->normal_at) {
			float n[3] = { wl_lef32(p + v->normal_at), wl_lef32(p + v->normal_at + 4),
				       wl_lef32(p + v->normal_at + 8) };
			wl_tf_geo_floats(g, "normals", n, 3);
		}
		if (v->sets > 0 && v->set_size >= 2) {
			float uv[2] = { wl_lef32(p + v->uv_at), wl_lef32(p + v->uv_at + 4) };
			wl_tf_geo_floats(g, "uvs", uv, 2);
		}
	}
}

/* The strongest joint of each vertex of mesh me (index into the model's
 * nodes), into bones (vertex_count entries, UINT32_MAX: none). */
static void bind(const b3d_model *m, const b3d_mesh *me, uint32_t *bones, float *best)
{
	for (size_t b = 0; b < m->bone_count; b++) {
		const b3d_bone *bo = m->bones[b];
		if (bo->bind_irrlicht != me || !bo->weights.size)
			continue;
		for (size_t k = 0; k < bo->weights.count; k++) {
			const uint8_t *p = b3d_record(&bo->weights, k);
			int32_t id = (int32_t)wl_le32(p);
			float w = wl_lef32(p + 4);
			if (id >= 0 && (size_t)id < me->vertex_count && w > best[id]) {
				best[id] = w;
				bones[id] = (uint32_t)bo->node->index;
			}
		}
	}
}

static void mesh_geometry(json_t *out, const wl_doc *d, const b3d_model *m, const b3d_mesh *me)
{
	json_t *g = wl_tf_geo_mesh(d, me->node ? me->node->label : "", me->src);
	if (!g)
		return;
	if (me->vrts)
		vertices(g, d, me->vrts);
	if (!json_object_get(g, "positions"))
		wl_tf_geo_floats(g, "positions", NULL, 0);
	size_t first = 0;
	for (size_t t = 0; t < me->tris_count; t++) {
		const b3d_records *r = &me->tris[t]->tris;
		wl_tf_geo_span(g, "triangle_arrays", d, me->tris[t]->src, first, r->count);
		for (size_t i = 0; r->size && i < r->count; i++) {
			const uint8_t *p = b3d_record(r, i);
			uint32_t v[3] = { wl_le32(p), wl_le32(p + 4), wl_le32(p + 8) };
			wl_tf_geo_uints(g, "triangles", v, 3);
		}
		first += r->count;
	}
	if (!json_object_get(g, "triangles"))
		wl_tf_geo_uints(g, "triangles", NULL, 0);
	size_t nv = me->vertex_count;
	uint32_t *bones = nv ? malloc(nv * sizeof *bones) : NULL;
	float *best = nv ? calloc(nv, sizeof *best) : NULL;
	if (bones && best) {
		for (size_t i = 0; i < nv; i++)
			bones[i] = UINT32_MAX;
		bind(m, me, bones, best);
		bool any = false;
		for (size_t i = 0; i < nv && !any; i++)
			any = bones[i] != UINT32_MAX;
		if (any) {
			json_t *a = json_array();
			for (size_t i = 0; i < nv; i++)
				json_array_append_new(a, bones[i] == UINT32_MAX ? json_null()
									   : json_integer((json_int_t)bones[i]));
			json_object_set_new(g, "bones", a);
		}
	}
	free(bones);
	free(best);
	json_array_append_new(out, g);
}

json_t *wl_b3d_geometry_json(const wl_doc *d, const wl_tf_geo_companions *c)
{
	(void)c; /* no other file places a B3D mesh */
	const b3d_model *m = d->model;
	json_t *meshes = json_array();
	for (size_t i = 0; m && meshes && i < m->mesh_count; i++)
		mesh_geometry(meshes, d, m, m->meshes[i]);
	json_t *names = json_array(), *paths = json_array();
	for (size_t i = 0; m && names && paths && i < m->node_count; i++) {
		char path[1024];
		wl_chunk_path(d, m->nodes[i]->src, -1, path, sizeof path);
		json_array_append_new(names, wl_tf_geo_string(m->nodes[i]->label));
		json_array_append_new(paths, wl_tf_geo_string(path));
	}
	if (!meshes || !names || !paths) {
		json_decref(meshes);
		json_decref(names);
		json_decref(paths);
		return NULL;
	}
	return json_pack("{s:o, s:o, s:o}", "meshes", meshes, "bone_names", names, "bone_paths", paths);
}
