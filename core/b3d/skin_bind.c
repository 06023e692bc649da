/* skin_bind.c - Irrlicht/Luanti BONE binding helpers (skin_bind.h). */
#include "skin_bind.h"

#include <stdlib.h>

#include "core/cursor.h"

uint64_t b3d_irr_span(const b3d_model *m, const b3d_mesh *me)
{
	uint64_t end = me->index + 1 < m->mesh_count ? m->meshes[me->index + 1]->global_base
						     : m->total_vertices;
	return end >= me->global_base ? end - me->global_base : 0;
}

const char *b3d_node_label(const struct b3d_node *n)
{
	return n && n->label ? n->label : "";
}

const char *b3d_mesh_label(const b3d_mesh *me)
{
	return b3d_node_label(me->node);
}

uint8_t *b3d_used_vertices(const b3d_mesh *me, uint64_t span)
{
	uint8_t *map = calloc((size_t)(span / 8 + 1), 1);
	if (!map)
		return NULL;
	for (size_t t = 0; t < me->tris_count; t++) {
		const b3d_records *r = &me->tris[t]->tris;
		if (!r->size)
			continue;
		for (size_t i = 0; i < r->count; i++) {
			const uint8_t *p = b3d_record(r, i);
			for (int k = 0; k < 3; k++) {
				int32_t v = (int32_t)wl_le32(p + 4 * k);
				if (v >= 0 && (uint64_t)v < span)
					map[v / 8] |= (uint8_t)(1u << (v % 8));
			}
		}
	}
	return map;
}

