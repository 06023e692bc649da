/*
 * fix_empty.c - remove-empty-meshes (unsafe): repairs b3d-mesh-no-vertices,
 * b3d-mesh-no-tris and b3d-tris-empty (rules/b3d/geometry.yaml) by
 * removing chunks with wl_edit_remove:
 *   a MESH with no VRTS, an empty VRTS or no TRIS   the MESH (its NODE stays,
 *                                                   as a plain node)
 *   an empty TRIS                                   the TRIS, or its MESH
 *                                                   when no TRIS of it holds a
 *                                                   triangle (removing them
 *                                                   would leave a MESH with
 *                                                   no TRIS)
 * Unsafe: a removed MESH takes its vertices with it, and a BONE after it
 * binds to the MESH before it in Irrlicht and Luanti (core/b3d/skin_bind.h);
 * the driver's verification refuses the result when that makes a new error.
 */
#include "fixers.h"

#include <stdlib.h>
#include <string.h>

static bool is(const wl_finding *f, const char *rule)
{
	return f->severity != WL_SEV_OFF && f->chunk && strcmp(f->rule, rule) == 0;
}

static const b3d_mesh *mesh_of(const b3d_model *m, const wl_chunk *c)
{
	for (size_t i = 0; m && i < m->mesh_count; i++)
		if (m->meshes[i]->src == c)
			return m->meshes[i];
	return NULL;
}

static bool has_triangles(const b3d_mesh *me)
{
	for (size_t i = 0; i < me->tris_count; i++)
		if (me->tris[i]->tris.count)
			return true;
	return false;
}

/* The chunk that finding f asks to remove, or NULL. */
static const wl_chunk *target(const wl_fix_ctx *x, const wl_finding *f, const char **rule)
{
	static const char *const rules[] = { "b3d-mesh-no-vertices", "b3d-mesh-no-tris", "b3d-tris-empty" };
	for (int r = 0; r < 3; r++) {
		if (!is(f, rules[r]) || !wl_fix_rule_wanted(x, rules[r]))
			continue;
		*rule = rules[r];
		const wl_chunk *c = f->chunk;
		if (c->id == B3D_CHUNK_MESH)
			return c;
		if (c->id == B3D_CHUNK_VRTS)
			return c->parent;
		const b3d_mesh *me = c->id == B3D_CHUNK_TRIS ? mesh_of(x->doc->model, c->parent) : NULL;
		return me && !has_triangles(me) ? me->src : c;
	}
	return NULL;
}

static int apply(wl_fix_ctx *x)
{
	wl_doc *d = x->doc;
	for (size_t i = 0; i < d->findings.count; i++) {
		const char *rule = NULL;
		const wl_chunk *t = target(x, &d->findings.items[i], &rule);
		wl_chunk *c = t ? wl_fix_mut(d, t) : NULL; /* NULL once it or its MESH went */
		if (!c)
			continue;
		uint64_t size = wl_edit_written_size(d, c);
		const char *what = wl_chunk_name(d, c);
		wl_chunk *parent = c->parent;
		if (wl_edit_remove(d, c) != 0) {
			if (d->oom)
				return -1;
			continue;
		}
		if (wl_edit_note(d, parent, rule, c->offset, "%s: %llu byte(s) -> removed", what,
				 (unsigned long long)size + 8) != 0)
			return -1;
	}
	return 0;
}

static const char *const rules[] = { "b3d-mesh-no-vertices", "b3d-mesh-no-tris", "b3d-tris-empty", NULL };
const wl_fixer wl_fix_b3d_remove_empty_meshes = {
	"remove-empty-meshes", rules, true,
	"remove MESH chunks with no vertices or no TRIS, and TRIS chunks with no triangle",
	apply
};
