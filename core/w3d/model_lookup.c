/* model_lookup.c - name lookups over one decoded W3D model; see model_lookup.h. */
#include "model_lookup.h"

#include <math.h>
#include <stdlib.h>

#include "core/vec.h"
#include "bind_pose.h"

static int fold(unsigned char c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

int wl_name_casecmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
	for (;; p++, q++) {
		int x = fold(*p), y = fold(*q);
		if (x != y)
			return x - y;
		if (!x)
			return 0;
	}
}

bool wl_name_eq(const char *a, const char *b)
{
	return a && b && wl_name_casecmp(a, b) == 0;
}

const w3d_hierarchy *wl_find_hierarchy(const w3d_model *m, const char *name, bool *exact)
{
	if (exact)
		*exact = false;
	if (!m || !name || !name[0])
		return NULL;
	for (size_t i = 0; i < m->hierarchy_count; i++) {
		const w3d_hierarchy *h = m->hierarchies[i];
		if (h && h->name && wl_name_eq(h->name, name)) {
			if (exact) {
				const char *a = h->name, *b = name;
				while (*a && *a == *b)
					a++, b++;
				*exact = *a == *b;
			}
			return h;
		}
	}
	return NULL;
}

uint32_t wl_hierarchy_pivots(const w3d_hierarchy *h)
{
	if (h->header_ok)
		return h->num_pivots;
	return h->pivot_count > UINT32_MAX ? UINT32_MAX : (uint32_t)h->pivot_count;
}

bool wl_mesh_is_skin(const w3d_mesh *m)
{
	return m->header.src && m->header.bytes >= 8 &&
	       (m->header.attributes & W3D_MESH_GEOMETRY_MASK) == W3D_MESH_GEOMETRY_SKIN;
}

bool wl_mesh_max_bone(const w3d_mesh *m, uint32_t *max_bone, size_t *vertex, int *slot)
{
	const w3d_influence_array *a = &m->influences;
	if (!a->src || a->count == 0)
		return false;
	uint32_t best = 0;
	size_t at = 0;
	int s = 0;
	bool two = a->layout == W3D_INFLUENCE_TWO_BONE;
	for (size_t i = 0; i < a->count; i++) {
		const w3d_influence *v = &a->v[i];
		if (i == 0 || v->bone[0] > best) {
			best = v->bone[0];
			at = i;
			s = 0;
		}
		if (two && v->weight[1] != 0 && v->bone[1] > best) {
			best = v->bone[1];
			at = i;
			s = 1;
		}
	}
	*max_bone = best;
	*vertex = at;
	*slot = s;
	return true;
}

const w3d_hlod *wl_mesh_owner_hlod(const w3d_model *model, const char *name)
{
	for (size_t i = 0; model && i < model->hlod_count; i++) {
		const w3d_hlod *h = model->hlods[i];
		if (!h || !h->header_ok)
			continue;
		for (int kind = 0; kind < 2; kind++) {
			const w3d_hlod_array *arr = kind ? h->aggregates : h->lods;
			size_t n = kind ? h->aggregate_count : h->lod_array_count;
			for (size_t a = 0; a < n; a++)
				for (size_t s = 0; s < arr[a].sub_count; s++)
					if (arr[a].subs[s].ok && wl_name_eq(arr[a].subs[s].name, name))
						return h;
		}
	}
	return NULL;
}

wl_bounds_points_status wl_mesh_bounds_points(const w3d_model *model, const w3d_mesh *m, double (**out)[3])
{
	*out = NULL;
	const w3d_hierarchy *tree = NULL;
	if (w3d_mesh_is_skin(m)) {
		const w3d_hlod *h = wl_mesh_owner_hlod(model, m->name);
		if (!h)
			return WL_BOUNDS_POINTS_NO_TREE;
		if (h->hierarchy_name && h->hierarchy_name[0]) {
			tree = wl_find_hierarchy(model, h->hierarchy_name, NULL);
			if (!tree)
				return WL_BOUNDS_POINTS_NO_TREE;
		}
	}
	size_t n = m->vertices.count ? m->vertices.count : 1;
	double(*pts)[3] = malloc(n * sizeof *pts);
	size_t np = 0;
	w3d_pose *poses = NULL;
	if (tree) {
		np = tree->pivot_count;
		if (tree->header_ok && tree->num_pivots < np)
			np = tree->num_pivots;
		poses = malloc((tree->pivot_count ? tree->pivot_count : 1) * sizeof *poses);
	}
	if (!pts || (tree && !poses)) {
		free(pts);
		free(poses);
		return WL_BOUNDS_POINTS_OOM;
	}
	if (tree)
		w3d_hierarchy_base_pose(tree, poses);
	bool ok = w3d_mesh_bounds_points(m, poses, np, pts);
	free(poses);
	if (!ok) {
		free(pts);
		return WL_BOUNDS_POINTS_UNPOSABLE;
	}
	*out = pts;
	return WL_BOUNDS_POINTS_OK;
}

size_t wl_points_outside(const double (*pts)[3], size_t n, const double lo[3], const double *hi, double base,
			 double tol, size_t *worst_at, double *worst)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		const double *p = pts[i];
		if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
			continue;
		double e = hi ? wl_box_excess(lo, hi, p) : wl_v3_dist(p, lo);
		if (e - base > tol && (!count++ || e > *worst)) {
			*worst_at = i;
			*worst = e;
		}
	}
	return count;
}
