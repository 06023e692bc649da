/* tables.c - what the id fixers (fix_ids.c) and trim-record-slack
 * (fix_slack.c) ask of B3D's two tables, TEXS and BRUS (fixers.h). */
#include "fixers.h"

#include "core/b3d/b3d_format.h"
#include "core/cursor.h"

bool b3d_fix_table_whole(const wl_doc *d, const wl_chunk *c)
{
	if (!c)
		return true;
	if (c->kind != WL_NODE_CHUNK || c->recovery || c->size != c->declared_size)
		return false;
	size_t len;
	const uint8_t *p = wl_edit_payload(d, c, &len);
	return p && b3d_whole_records(c->id, p, len) == len;
}

bool b3d_fix_ids_reach(const b3d_model *m, const wl_chunk *table, size_t whole)
{
	if (table == m->texs) {
		int32_t n = m->brush_texture_slots;
		if (!m->brus_ok || n < 0)
			return false;
		for (size_t i = 0; i < m->brush_count; i++)
			for (int32_t j = 0; j < n; j++) {
				const b3d_brush *b = &m->brushes[i];
				if (!b->texture_ids)
					continue;
				int32_t id = (int32_t)wl_le32(b->texture_ids + 4 * (size_t)j);
				if (id >= 0 && (uint64_t)id >= whole)
					return true;
			}
		return false;
	}
	if (table == m->brus) {
		for (size_t i = 0; i < m->mesh_count; i++) {
			const b3d_mesh *s = m->meshes[i];
			if (s->brush_ok && s->brush_id >= 0 && (uint64_t)s->brush_id >= whole)
				return true;
			for (size_t t = 0; t < s->tris_count; t++)
				if (s->tris[t]->brush_ok && s->tris[t]->brush_id >= 0 &&
				    (uint64_t)s->tris[t]->brush_id >= whole)
					return true;
		}
	}
	return false;
}
