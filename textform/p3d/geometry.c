/* geometry.c - P3D LODs for display (wl_tf_format.geometry; keys in
 * textform/geometry.h): each LOD the reader read far enough, as the
 * geometry checks gather it (lint/p3d/mesh.h wl_p3d_mesh_load: MLOD points
 * and faces, ODOL positions and faces, in model coordinates, metres;
 * vertices at one position welded, as the checks see them).  A face of 4
 * vertices is drawn as 2 triangles: "face_triangles" gives, per face, its
 * first triangle (and the count at the end), so a finding at LOD[i]/faces[k]
 * is triangles face_triangles[k] .. face_triangles[k+1] - 1.  "components"
 * lists each component's faces (the named ComponentNN selections, then
 * the connected sets); "vertex_arrays" the node the vertex findings name
 * (MLOD LOD[i]/points[v], ODOL LOD[i][v]: a non-convex vertex). */
#include "textform/geometry.h"
#include "textform/p3d/p3d_geometry.h"

#include "core/p3d/p3d.h"
#include "lint/p3d/checks.h"
#include "lint/p3d/mesh.h"

static void lod_geometry(json_t *out, const wl_doc *d, const p3d_model *m, const p3d_lod *l)
{
	wl_p3d_mesh g;
	if (!l->node || !wl_p3d_mesh_load(d, m, l, &g))
		return;
	char name[64];
	json_t *o = wl_tf_geo_mesh(d, wl_p3d_lod_name(l->resolution, name, sizeof name), l->node);
	if (!o) {
		wl_p3d_mesh_free(&g);
		return;
	}
	if (g.vnode)
		wl_tf_geo_span(o, "vertex_arrays", d, g.vnode, 0, g.nv);
	wl_tf_geo_floats(o, "positions", g.nv ? &g.pos[0][0] : NULL, 3 * (size_t)g.nv);
	wl_tf_geo_uints(o, "triangles", NULL, 0);
	json_t *first = json_array();
	uint32_t nt = 0;
	for (uint32_t f = 0; f < g.nf; f++) {
		json_array_append_new(first, json_integer(nt));
		const uint32_t *v = g.fv[f];
		if (g.fk[f] >= 3) {
			uint32_t t[3] = { v[0], v[1], v[2] };
			wl_tf_geo_uints(o, "triangles", t, 3);
			nt++;
		}
		if (g.fk[f] == 4) {
			uint32_t t[3] = { v[0], v[2], v[3] };
			wl_tf_geo_uints(o, "triangles", t, 3);
			nt++;
		}
	}
	json_array_append_new(first, json_integer(nt));
	json_object_set_new(o, "face_triangles", first);
	if (g.fnode)
		wl_tf_geo_span(o, "face_arrays", d, g.fnode, 0, g.nf);
	json_t *comps = json_array();
	for (uint32_t c = 0; c < g.n_comps; c++) {
		json_t *e = json_object();
		if (g.comps[c].name)
			json_object_set_new(e, "name", json_stringn(g.comps[c].name, g.comps[c].name_len));
		json_t *faces = json_array();
		for (uint32_t k = 0; k < g.comps[c].n; k++)
			json_array_append_new(faces, json_integer(g.comps[c].faces[k]));
		json_object_set_new(e, "faces", faces);
		json_array_append_new(comps, e);
	}
	json_object_set_new(o, "components", comps);
	wl_p3d_mesh_free(&g);
	json_array_append_new(out, o);
}

json_t *wl_p3d_geometry_json(const wl_doc *d, const wl_tf_geo_companions *c)
{
	(void)c; /* no other file places a P3D mesh */
	const p3d_model *m = d->model;
	json_t *meshes = json_array();
	for (uint32_t i = 0; m && m->lods && meshes && i < m->n_lods; i++)
		lod_geometry(meshes, d, m, &m->lods[i]);
	return meshes ? json_pack("{s:o}", "meshes", meshes) : NULL;
}
