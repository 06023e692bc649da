/*
 * fix_empty.c - remove-empty-meshes (unsafe): repairs b3d-mesh-no-vertices,
 * b3d-mesh-no-tris and b3d-tris-empty (rules/b3d/geometry.yaml) by
 * removing chunks with wl_edit_remove:
 *   a MESH with no VRTS or an empty VRTS            the MESH (its NODE stays,
 *                                                   as a plain node)
 *   a MESH with no TRIS and no vertex               the MESH
 *   an empty TRIS                                   the TRIS, or its MESH
 *                                                   when no TRIS of it holds a
 *                                                   triangle and it has no
 *                                                   vertex (removing them
 *                                                   would leave a MESH with
 *                                                   no TRIS)
 * A MESH whose VRTS holds vertices but no TRIS holds a triangle stays whole:
 * Blitz3D, Irrlicht and Luanti load its vertices (notes/b3d_reference.md
 * §3: only Assimp and modlib refuse a MESH without triangles), e.g. what a
 * cut file keeps of a MESH cut inside VRTS (issue 17); the rule of its
 * finding is then repaired nowhere in the file (a B3D fixer repairs every
 * finding of a rule or none).
 * Unsafe: a removed MESH takes its vertices with it, and a BONE after it
 * binds to the MESH before it in Irrlicht and Luanti (core/b3d/skin_bind.h);
 * the driver's verification refuses the result when that makes a new error.
 */
#include "fixers.h"

#include <stdlib.h>
#include <string.h>

static bool is(const wl_finding *f, wl_rule_id rule)
{
	return f->severity != WL_SEV_OFF && f->chunk && f->rule_id == rule;
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
static const wl_chunk *target(const wl_fix_ctx *x, const wl_finding *f, wl_rule_id *rule)
{
	static const wl_rule_id rules[] = { WLR_B3D_MESH_NO_VERTICES, WLR_B3D_MESH_NO_TRIS, WLR_B3D_TRIS_EMPTY };
	for (int r = 0; r < 3; r++) {
		if (!is(f, rules[r]) || !wl_fix_rule_wanted(x, rules[r]))
			continue;
		*rule = rules[r];
		const wl_chunk *c = f->chunk;
		if (c->id == B3D_CHUNK_VRTS)
			return c->parent;
		const b3d_mesh *me = mesh_of(x->doc->model, c->id == B3D_CHUNK_MESH ? c : c->parent);
		/* Vertices with no triangle still load (Blitz3D, Irrlicht and
		 * Luanti keep such a MESH): they stay (issue 17). */
		if (me && me->vertex_count && !has_triangles(me))
			return NULL;
		if (c->id == B3D_CHUNK_MESH)
			return c;
		return me && !has_triangles(me) ? me->src : c;
	}
	return NULL;
}

static int apply(wl_fix_ctx *x)
{
	wl_doc *d = x->doc;
	/* A rule with a finding whose MESH stays for its vertices is repaired
	 * nowhere: each B3D fixer repairs every finding of a rule or none
	 * (docs/w3dfix.md "B3D fixers"). */
	wl_rule_id kept[3];
	size_t nkept = 0;
	for (size_t i = 0; i < d->findings.count && nkept < 3; i++) {
		wl_rule_id rule = WL_RULE_NONE;
		if (!target(x, &d->findings.items[i], &rule) && rule) {
			bool seen = false;
			for (size_t k = 0; k < nkept; k++)
				seen |= kept[k] == rule;
			if (!seen)
				kept[nkept++] = rule;
		}
	}
	for (size_t i = 0; i < d->findings.count; i++) {
		wl_rule_id rule = WL_RULE_NONE;
		const wl_chunk *t = target(x, &d->findings.items[i], &rule);
		wl_chunk *c = t ? wl_fix_mut(d, t) : NULL; /* NULL once it or its MESH went */
		bool skip = false;
		for (size_t k = 0; c && k < nkept; k++)
			skip |= kept[k] == rule;
		if (!c || skip)
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

const wl_fixer b3d_fix_remove_empty_meshes = {
	"remove-empty-meshes", true,
	"remove MESH chunks with no vertices or no TRIS, and TRIS chunks with no triangle",
	apply
};
