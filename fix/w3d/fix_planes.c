/*
 * fix_planes.c - safe fixer "recompute-planes": rewrites the plane (Normal
 * at +16, Dist at +28) of every triangle that fails triangle-plane
 * (rules/geometry.yaml; the test and parameters are those of
 * lint/w3d/check_geometry.c): Normal := normalize(cross(v1 - v0, v2 - v0)),
 * Dist := dot(Normal, v0), computed in double from the stored vertices and
 * rounded to binary32 (notes/w3d_reference.md §3.B B6, §6; REN
 * meshbuild.cpp:462-468).
 *
 * Not touched, as the rule does not look at them either:
 *   - skins (geometry type SKIN, VERTEX_INFLUENCES or 0x0C03 present): their
 *     planes belong to the bind pose, which the file does not hold;
 *   - degenerate triangles (zero cross product): no plane exists, the old
 *     one is kept (the engine itself would compute the zero vector);
 *   - triangles with an index past VERTICES or a non-finite vertex, and
 *     triangles whose stored plane is not finite (float-not-finite).
 * Edit notes: one per rewritten triangle for the first 16 of a mesh (chunk
 * TRIANGLES, offset of the Normal, "normal (..) dist d -> normal (..) dist
 * d"), then one note with the number of further triangles.  Deterministic;
 * idempotent because a recomputed plane passes the rule (its rounding error
 * is ~1e-7, far below the tolerances).
 */
#include <math.h>
#include <string.h>

#include "core/vec.h"
#include "fixers.h"

extern const wl_fixer w3d_fix_recompute_planes;

#define TRI_NORMAL 16u
#define TRI_DIST 28u
#define NOTES_PER_MESH 16u

/* The recomputed plane of triangle t when the rule flags it; false when the
 * triangle is to be left alone. */
static bool needs_plane(const w3d_mesh *m, const w3d_triangle *t, double ntol, double dtol, float n_out[3],
			float *d_out)
{
	double v[3][3];
	for (int k = 0; k < 3; k++) {
		if (t->vindex[k] >= m->vertices.count)
			return false;
		const w3d_vec3 *p = &m->vertices.v[t->vindex[k]];
		if (!wl_f3_finite(p->x, p->y, p->z))
			return false;
		wl_v3_set(v[k], p->x, p->y, p->z);
	}
	if (!wl_f3_finite(t->normal.x, t->normal.y, t->normal.z) || !isfinite(t->dist))
		return false;
	double n[3], d, sn[3];
	if (!wl_tri_plane(v[0], v[1], v[2], n, &d))
		return false;
	wl_v3_set(sn, t->normal.x, t->normal.y, t->normal.z);
	if (!wl_plane_differs(sn, t->dist, n, d, wl_v3_maxabs(v[0]), ntol, dtol))
		return false;
	for (int k = 0; k < 3; k++)
		n_out[k] = (float)n[k];
	*d_out = (float)d;
	return true;
}

static int fix_mesh(wl_fix_ctx *x, const w3d_mesh *m, double ntol, double dtol)
{
	if (!m->triangles_src || !m->triangle_count || w3d_mesh_is_skin(m))
		return 0;
	wl_chunk *c = NULL;
	uint8_t *buf = NULL;
	size_t len = 0, changed = 0;
	for (size_t i = 0; i < m->triangle_count; i++) {
		const w3d_triangle *t = &m->triangles[i];
		float n[3], d;
		if (!needs_plane(m, t, ntol, dtol, n, &d))
			continue;
		if (!buf) {
			c = wl_fix_mut(x->doc, m->triangles_src);
			if (!c)
				return 0;
			buf = wl_fix_payload_copy(x->doc, c, &len);
			if (!buf)
				return -1;
			if (len < m->triangle_count * (uint64_t)W3D_TRI_SIZE)
				return 0;
		}
		uint8_t *p = buf + i * W3D_TRI_SIZE;
		for (int k = 0; k < 3; k++)
			wl_fix_put_f32(p + TRI_NORMAL + 4 * k, n[k]);
		wl_fix_put_f32(p + TRI_DIST, d);
		uint64_t off = wl_chunk_payload_offset(c) + i * (uint64_t)W3D_TRI_SIZE + TRI_NORMAL;
		if (changed++ < NOTES_PER_MESH &&
		    wl_edit_note(x->doc, c, WLR_TRIANGLE_PLANE, off,
				 "mesh '%s' triangle %zu plane normal (%g, %g, %g) dist %g -> normal (%g, %g, %g) dist %g",
				 m->name, i, (double)t->normal.x, (double)t->normal.y, (double)t->normal.z,
				 (double)t->dist, (double)n[0], (double)n[1], (double)n[2], (double)d) != 0)
			return -1;
	}
	if (!buf)
		return 0;
	if (changed > NOTES_PER_MESH &&
	    wl_edit_note(x->doc, c, WLR_TRIANGLE_PLANE, wl_chunk_payload_offset(c),
			 "mesh '%s': %zu more triangle planes recomputed (%zu in all)", m->name,
			 changed - NOTES_PER_MESH, changed) != 0)
		return -1;
	return wl_edit_set_payload(x->doc, c, buf, len);
}

static int apply_planes(wl_fix_ctx *x)
{
	const w3d_model *md = x->model;
	if (!md || !wl_fix_rule_wanted(x, WLR_TRIANGLE_PLANE))
		return 0;
	double ntol = wl_config_param(x->config, x->catalog, WLR_TRIANGLE_PLANE, "normal_tolerance");
	double dtol = wl_config_param(x->config, x->catalog, WLR_TRIANGLE_PLANE, "distance_tolerance");
	for (size_t i = 0; i < md->mesh_count; i++)
		if (md->meshes[i] && fix_mesh(x, md->meshes[i], ntol, dtol) != 0)
			return -1;
	return 0;
}


const wl_fixer w3d_fix_recompute_planes = {
	"recompute-planes", false,
	"recompute triangle plane normals and distances from the vertices (non-skin meshes)", apply_planes
};
