/*
 * check_no_tris.c - b3d-no-tris (rules/b3d/geometry.yaml): the file has
 * NODEs but not one TRIS chunk anywhere (Assimp makes one mesh per TRIS and
 * B3DImporter.cpp ReadBB3D fails "No meshes" without one).  One finding per
 * file, covering the BB3D chunk; a file with no NODE at all is
 * b3d-no-nodes.  Each MESH without TRIS is still b3d-mesh-no-tris (modlib
 * refuses that MESH whatever the rest of the file holds).
 */
#include "checks.h"
#include "check_util.h"

void b3d_check_no_tris(wl_lint_ctx *ctx);

void b3d_check_no_tris(wl_lint_ctx *ctx)
{
	const b3d_model *m = ctx->model;
	if (!m || !m->bb3d || !m->node_count || !wl_lint_enabled(ctx, WLR_B3D_NO_TRIS))
		return;
	for (size_t i = 0; i < m->mesh_count; i++)
		if (m->meshes[i]->tris_count)
			return;
	wl_report(&ctx->doc->findings, WLR_B3D_NO_TRIS, m->bb3d, -1, m->bb3d->offset,
		  b3c_chunk_len(ctx->doc, m->bb3d),
		  "the file holds no TRIS chunk (%zu MESH): Assimp refuses it (\"No meshes\"); "
		  "the other loaders draw nothing",
		  m->mesh_count);
}
