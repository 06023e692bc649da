/* model_lookup.c - name lookups over one decoded W3D model; see model_lookup.h. */
#include "model_lookup.h"

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
