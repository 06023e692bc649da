/* geometry.c - W3D meshes for display (wl_tf_format.geometry; keys in
 * textform/geometry.h): each MESH of the typed model (core/w3d/mesh.h) with
 * its VERTICES, VERTEX_NORMALS, the first stage's texture coordinates of
 * its first material pass (as stored: the loader uses 1 - v), TRIANGLES (W3dTriStruct vindex) and, for a
 * skin, the bone (pivot) of each vertex from VERTEX_INFLUENCES (its first
 * bone; w3d spec §2.6); the chunks of its per-vertex channels
 * (vertex_channels); its AABTREE (§2.2: node boxes, leaves, poly indices);
 * for a rigid mesh an HLOD of the file puts on a bone, the bone's base
 * pose as its "transform"; for a skin, its vertices in the bind pose
 * ("posed_positions"); and every HLOD sub-object
 * with the mesh it names ("subobjects").
 *
 * Where a mesh sits (notes/w3d_reference.md §2.3, §3 G4, G5): an HLOD
 * adds each sub-object's render object to bone BoneIndex of the hierarchy
 * HierarchyName names (hlod.cpp:3516 add_lod_model, HTree->Get_Transform),
 * so a rigid mesh is drawn with that pivot's base transform, T(Translation)
 * R(Rotation) chained through its parents (htree.cpp:281-293, Base_Update;
 * core/w3d/bind_pose.h).  A skin is not placed: its VERTICES are each in
 * the space of its own bone (meshsave.cpp:371 inv_deform_mesh) and the
 * engine deforms them per vertex (meshmdl.cpp:271-395), so no one
 * transform of the mesh draws it: each vertex is posed by its own bone
 * instead ("posed_positions").  The sub-object taken for a mesh is the
 * first naming it in the first HLOD with a complete header that uses it
 * (core/w3d/model_lookup.h wl_mesh_owner_hlod), looking at the top LOD
 * array first (the one whose hierarchy and bounds the engine uses,
 * hlod.cpp:1430-1444), then the lower ones, then the aggregates.  An
 * empty HierarchyName is the engine's default one-pivot tree (bone 0, the
 * identity; animobj.cpp:105-119); a hierarchy another file defines, a bone
 * past the pivots or a pivot that cannot be posed leave the mesh as stored
 * (no "transform": the hierarchy and HLOD rules report those). */
#include "textform/geometry.h"
#include "textform/w3d/w3d_geometry.h"

#include <stdlib.h>

#include "core/w3d/bind_pose.h"
#include "core/w3d/model.h"
#include "core/w3d/model_lookup.h"

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

/* The AABTREE of m (§2.2, w3d_file.h:1233-1252) as the "aabtree" object:
 * the nodes present (node_array_count, never the header's NodeCount),
 * their boxes, each leaf's slot range and the poly indices as stored. */
static void aabtree_geometry(json_t *g, const wl_doc *d, const w3d_mesh *m)
{
	const w3d_aabtree *t = &m->aabtree;
	if (!t->src)
		return;
	json_t *a = json_object();
	if (!a)
		return;
	wl_tf_geo_path(a, "path", d, t->src);
	if (t->header_src)
		wl_tf_geo_path(a, "header_path", d, t->header_src);
	size_t nn = t->nodes_src ? t->node_array_count : 0;
	size_t np = t->poly_indices.src ? t->poly_indices.count : 0;
	if (t->nodes_src)
		wl_tf_geo_span(a, "node_arrays", d, t->nodes_src, 0, nn);
	if (t->poly_indices.src)
		wl_tf_geo_span(a, "polyindex_arrays", d, t->poly_indices.src, 0, np);
	wl_tf_geo_floats(a, "boxes", NULL, 0);
	wl_tf_geo_uints(a, "leaf_count", NULL, 0);
	wl_tf_geo_uints(a, "leaf_first", NULL, 0);
	for (size_t i = 0; i < nn; i++) {
		const w3d_aabtree_node *n = &t->nodes[i];
		const float box[6] = { n->min.x, n->min.y, n->min.z, n->max.x, n->max.y, n->max.z };
		wl_tf_geo_floats(a, "boxes", box, 6);
		bool leaf = w3d_aabtree_node_is_leaf(n);
		wl_tf_geo_int(a, "leaf_first", leaf ? (int64_t)(n->front_or_poly0 & ~W3D_AABTREE_LEAF_FLAG) : -1);
		wl_tf_geo_int(a, "leaf_count", leaf ? (int64_t)n->back_or_poly_count : 0);
	}
	wl_tf_geo_uints(a, "polyindices", np ? t->poly_indices.v : NULL, np);
	json_object_set_new(g, "aabtree", a);
}

static void mesh_geometry(json_t *out, const wl_doc *d, const w3d_mesh *m)
{
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
	aabtree_geometry(g, d, m);
	json_array_append_new(out, g);
}

/* The hierarchies the meshes are placed by and their base poses, each
 * made when first asked for (w3d_hierarchy_base_pose: pivot_count poses):
 * the file's own, or one the engine would load from NAME.w3d (c). */
typedef struct pose_entry {
	const w3d_hierarchy *tree;
	w3d_pose *poses;
} pose_entry;

typedef struct pose_cache {
	const wl_doc *d;
	const w3d_model *md;
	const wl_tf_geo_companions *c;
	pose_entry *e;
	size_t n, cap;
	bool oom;
} pose_cache;

/* Hierarchy name: the file's own, else the one of the file the engine
 * loads it from (Get_HTree: NAME.w3d, assetmgr.cpp:898-920), *from set to
 * that file's document (NULL: the file's own); NULL when neither has it. */
static const w3d_hierarchy *tree_named(const pose_cache *pc, const char *name, const wl_doc **from)
{
	*from = NULL;
	const w3d_hierarchy *t = wl_find_hierarchy(pc->md, name, NULL);
	if (t || !pc->c || !pc->c->find)
		return t;
	const wl_doc *o = pc->c->find(pc->c->ud, pc->d, name, ".w3d");
	if (!o || o->format != pc->d->format || !o->model)
		return NULL;
	t = wl_find_hierarchy(o->model, name, NULL);
	if (t)
		*from = o;
	return t;
}

static const w3d_pose *poses_of(pose_cache *pc, const w3d_hierarchy *h)
{
	for (size_t i = 0; i < pc->n; i++)
		if (pc->e[i].tree == h)
			return pc->e[i].poses;
	if (!h->pivot_count)
		return NULL;
	if (pc->n == pc->cap) {
		size_t cap = pc->cap ? 2 * pc->cap : 4;
		pose_entry *e = realloc(pc->e, cap * sizeof *e);
		if (!e) {
			pc->oom = true;
			return NULL;
		}
		pc->e = e;
		pc->cap = cap;
	}
	w3d_pose *poses = malloc(h->pivot_count * sizeof *poses);
	if (!poses) {
		pc->oom = true;
		return NULL;
	}
	w3d_hierarchy_base_pose(h, poses);
	pc->e[pc->n++] = (pose_entry){ h, poses };
	return poses;
}

static void pose_cache_free(pose_cache *pc)
{
	for (size_t i = 0; i < pc->n; i++)
		free(pc->e[i].poses);
	free(pc->e);
}

/* "hierarchy_file": the path of the file a mesh's hierarchy came from,
 * when not this one. */
static void note_from(json_t *g, const wl_doc *from)
{
	if (from)
		json_object_set_new(g, "hierarchy_file", wl_tf_geo_string(from->path ? from->path : ""));
}

/* The first sub-object of array a that names name, whose 36 bytes are
 * all present, or NULL. */
static const w3d_hlod_sub_object *sub_named(const w3d_hlod_array *a, const char *name)
{
	for (size_t s = 0; s < a->sub_count; s++)
		if (a->subs[s].ok && a->subs[s].name && wl_name_eq(a->subs[s].name, name))
			return &a->subs[s];
	return NULL;
}

/* The sub-object of h that places the mesh name: the top LOD array first,
 * then the lower ones, then the aggregates (see the header comment). */
static const w3d_hlod_sub_object *placing_sub(const w3d_hlod *h, const char *name)
{
	const w3d_hlod_sub_object *so = NULL;
	for (size_t k = h->lod_array_count; !so && k-- > 0;)
		so = sub_named(&h->lods[k], name);
	for (size_t k = 0; !so && k < h->aggregate_count; k++)
		so = sub_named(&h->aggregates[k], name);
	return so;
}

/* Writes m's "transform" when an HLOD of the file places it (rigid only). */
static void mesh_transform(json_t *g, pose_cache *pc, const w3d_mesh *m)
{
	if (w3d_mesh_is_skin(m) || !m->name || !m->name[0])
		return;
	const w3d_hlod *h = wl_mesh_owner_hlod(pc->md, m->name);
	const w3d_hlod_sub_object *so = h ? placing_sub(h, m->name) : NULL;
	if (!so)
		return;
	w3d_pose p = { .q = { 0, 0, 0, 1 }, .ok = true };
	const wl_doc *from = NULL;
	if (h->hierarchy_name[0]) {
		const w3d_hierarchy *hier = tree_named(pc, h->hierarchy_name, &from);
		const w3d_pose *poses = hier ? poses_of(pc, hier) : NULL;
		if (!poses || so->bone_index >= hier->pivot_count || so->bone_index >= wl_hierarchy_pivots(hier))
			return;
		p = poses[so->bone_index];
	} else if (so->bone_index != 0) {
		return;
	}
	if (!p.ok)
		return;
	note_from(g, from);
	/* column j: the image of axis j less the translation; then t */
	float tm[16] = { 0 };
	for (int j = 0; j < 3; j++) {
		double e[3] = { j == 0, j == 1, j == 2 }, r[3];
		w3d_pose_apply(&p, e, r);
		for (int k = 0; k < 3; k++)
			tm[4 * j + k] = (float)(r[k] - p.t[k]);
	}
	for (int k = 0; k < 3; k++)
		tm[12 + k] = (float)p.t[k];
	tm[15] = 1;
	wl_tf_geo_floats(g, "transform", tm, 16);
}

/* A skin placed by a hierarchy (the one the HLOD of the file that uses it
 * names: the file's own, or from NAME.w3d as the engine loads it; an empty
 * name is the one-pivot default, the identity): its vertices put back into
 * the bind pose, each through the base pose of its primary bone
 * (core/w3d/bind_pose.h w3d_mesh_bounds_points, as wl_mesh_bounds_points
 * does for the file's own), as "posed_positions", 3 floats per vertex
 * beside the stored "positions".  None when no hierarchy is found or a
 * vertex cannot be posed (the skin and hierarchy rules report those). */
static void skin_posed(json_t *g, pose_cache *pc, const w3d_mesh *m)
{
	if (!w3d_mesh_is_skin(m) || !m->vertices.count || !m->name || !m->name[0])
		return;
	const w3d_hlod *h = wl_mesh_owner_hlod(pc->md, m->name);
	if (!h)
		return;
	const wl_doc *from = NULL;
	const w3d_hierarchy *tree = NULL;
	const w3d_pose *poses = NULL;
	size_t np = 0;
	if (h->hierarchy_name && h->hierarchy_name[0]) {
		if (!(tree = tree_named(pc, h->hierarchy_name, &from)) || !(poses = poses_of(pc, tree)))
			return;
		np = tree->pivot_count;
		if (tree->header_ok && tree->num_pivots < np)
			np = tree->num_pivots;
	}
	size_t n = m->vertices.count;
	double(*pts)[3] = malloc(n * sizeof *pts);
	float *f = malloc(3 * n * sizeof *f);
	if (pts && f && w3d_mesh_bounds_points(m, poses, np, pts)) {
		for (size_t i = 0; i < 3 * n; i++)
			f[i] = (float)pts[i / 3][i % 3];
		wl_tf_geo_floats(g, "posed_positions", f, 3 * n);
		note_from(g, from);
	}
	free(f);
	free(pts);
}

/* Every HLOD sub-object with the index in meshes of the mesh it names. */
static json_t *subobjects(const wl_doc *d, const w3d_model *md, const w3d_mesh *const *shown, size_t n_shown)
{
	json_t *out = json_array();
	static const char *const kinds[] = { "lod", "aggregate", "proxy" };
	for (size_t i = 0; out && i < md->hlod_count; i++) {
		const w3d_hlod *h = md->hlods[i];
		if (!h)
			continue;
		const struct {
			const w3d_hlod_array *a;
			size_t n;
		} groups[] = { { h->lods, h->lod_array_count }, { h->aggregates, h->aggregate_count },
			       { h->proxies, h->proxy_count } };
		for (size_t g = 0; g < 3; g++)
			for (size_t a = 0; a < groups[g].n; a++)
				for (size_t s = 0; s < groups[g].a[a].sub_count; s++) {
					const w3d_hlod_sub_object *so = &groups[g].a[a].subs[s];
					if (!so->src)
						continue;
					const char *name = so->name ? so->name : "";
					json_int_t mesh = -1;
					for (size_t k = 0; name[0] && k < n_shown && mesh < 0; k++)
						if (wl_name_eq(shown[k]->name, name))
							mesh = (json_int_t)k;
					json_t *o = json_object();
					wl_tf_geo_path(o, "path", d, so->src);
					json_object_set_new(o, "name", wl_tf_geo_string(name));
					json_object_set_new(o, "bone", json_integer((json_int_t)so->bone_index));
					json_object_set_new(o, "kind", json_string(kinds[g]));
					json_object_set_new(o, "mesh", json_integer(mesh));
					json_array_append_new(out, o);
				}
	}
	return out;
}

json_t *wl_w3d_geometry_json(const wl_doc *d, const wl_tf_geo_companions *c)
{
	const w3d_model *md = d->model;
	json_t *meshes = json_array();
	/* the meshes drawn, in the order of "meshes" */
	const w3d_mesh **shown = md && md->mesh_count ? calloc(md->mesh_count, sizeof *shown) : NULL;
	pose_cache pc = { .d = d, .md = md, .c = c };
	size_t n_shown = 0;
	if (!meshes || (md && md->mesh_count && !shown)) {
		json_decref(meshes);
		meshes = NULL;
	}
	for (size_t i = 0; md && meshes && i < md->mesh_count; i++) {
		const w3d_mesh *m = md->meshes[i];
		if (!m || !m->src)
			continue;
		size_t before = json_array_size(meshes);
		mesh_geometry(meshes, d, m);
		if (json_array_size(meshes) == before)
			continue;
		mesh_transform(json_array_get(meshes, before), &pc, m);
		skin_posed(json_array_get(meshes, before), &pc, m);
		shown[n_shown++] = m;
	}
	json_t *g = NULL;
	if (meshes && !pc.oom)
		g = json_pack("{s:o}", "meshes", meshes); /* takes meshes, even on failure */
	else
		json_decref(meshes);
	if (g && md)
		json_object_set_new(g, "subobjects", subobjects(d, md, shown, n_shown));
	pose_cache_free(&pc);
	free(shown);
	return g;
}
