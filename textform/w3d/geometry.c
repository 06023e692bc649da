/* geometry.c - W3D meshes for display (wl_tf_format.geometry; keys in
 * textform/geometry.h): each MESH of the typed model (core/w3d/mesh.h) with
 * its VERTICES, VERTEX_NORMALS, the first stage's texture coordinates of
 * its first material pass (as stored: the loader uses 1 - v), TRIANGLES (W3dTriStruct vindex) and, for a
 * skin, the bone (pivot) of each vertex from VERTEX_INFLUENCES (its first
 * bone; w3d spec §2.6); the chunks of its per-vertex channels
 * (vertex_channels). */
#include "textform/geometry.h"
#include "textform/w3d/w3d_geometry.h"

#include "core/w3d/model.h"

/* The texture coordinates of the first stage of the first material pass
 * (STAGE_TEXCOORDS in its TEXTURE_STAGE, or in the pass itself as some
 * exporters write it), as stored (the loader flips v), or NULL. */
static const w3d_texcoord_array *first_uvs(const w3d_mesh *m)
{
	if (!m->materials.pass_count)
		return NULL;
	const w3d_material_pass *p = &m->materials.passes[0];
	if (p->stage_count && p->stages[0].texcoords.count)
		return &p->stages[0].texcoords;
	return p->texcoords.count ? &p->texcoords : NULL;
}

/* The chunks other than VERTICES whose element i is vertex i (normals,
 * influences, shade indices, colours, the texture coordinates drawn), so
 * that a finding at MESH[X]/VERTEX_NORMALS[57] highlights vertex 57. */
static void vertex_channels(json_t *g, const wl_doc *d, const w3d_mesh *m, const w3d_texcoord_array *uv)
{
	const struct {
		const wl_chunk *src;
		size_t count;
	} ch[] = {
		{ m->normals.src, m->normals.count },
		{ m->secondary_normals.src, m->secondary_normals.count },
		{ m->influences.src, m->influences.count },
		{ m->influences_ext.src, m->influences_ext.count },
		{ m->shade_indices.src, m->shade_indices.count },
		{ m->vertex_colors.src, m->vertex_colors.count },
		{ uv ? uv->src : NULL, uv ? uv->count : 0 },
	};
	for (size_t i = 0; i < sizeof ch / sizeof ch[0]; i++)
		if (ch[i].src)
			wl_tf_geo_span(g, "vertex_channels", d, ch[i].src, 0, ch[i].count);
}

static void mesh_geometry(json_t *out, const wl_doc *d, const w3d_mesh *m)
{
	if (!m || !m->src)
		return;
	json_t *g = wl_tf_geo_mesh(d, m->name, m->src);
	if (!g)
		return;
	size_t nv = m->vertices.count;
	if (m->vertices.src)
		wl_tf_geo_span(g, "vertex_arrays", d, m->vertices.src, 0, nv);
	wl_tf_geo_floats(g, "positions", nv ? &m->vertices.v[0].x : NULL, 3 * nv);
	if (m->normals.count == nv && nv)
		wl_tf_geo_floats(g, "normals", &m->normals.v[0].x, 3 * nv);
	const w3d_texcoord_array *uv = first_uvs(m);
	if (uv && uv->count == nv && nv)
		wl_tf_geo_floats(g, "uvs", &uv->v[0].u, 2 * nv);
	if (m->triangles_src)
		wl_tf_geo_span(g, "triangle_arrays", d, m->triangles_src, 0, m->triangle_count);
	for (size_t i = 0; i < m->triangle_count; i++)
		wl_tf_geo_uints(g, "triangles", m->triangles[i].vindex, 3);
	if (!json_object_get(g, "triangles"))
		wl_tf_geo_uints(g, "triangles", NULL, 0);
	vertex_channels(g, d, m, uv);
	if (m->influences.count == nv && nv) {
		for (size_t i = 0; i < nv; i++) {
			uint32_t b = m->influences.v[i].bone[0];
			wl_tf_geo_uints(g, "bones", &b, 1);
		}
	}
	json_array_append_new(out, g);
}

json_t *wl_w3d_geometry_json(const wl_doc *d)
{
	const w3d_model *md = d->model;
	json_t *meshes = json_array();
	for (size_t i = 0; md && meshes && i < md->mesh_count; i++)
		mesh_geometry(meshes, d, md->meshes[i]);
	return meshes ? json_pack("{s:o}", "meshes", meshes) : NULL;
}
