/*
 * check_no_nodes.c - b3d-no-nodes (rules/b3d/structure.yaml): the first
 * BB3D holds no NODE directly (Assimp's B3DImporter.cpp ReadBB3D fails "No
 * nodes", Blitz3D's loader_b3d.cpp load returns no model).  One finding per
 * file, covering the BB3D chunk.
 */
#include "checks.h"
#include "check_util.h"

void b3d_check_no_nodes(wl_lint_ctx *ctx);

void b3d_check_no_nodes(wl_lint_ctx *ctx)
{
	const b3d_model *m = ctx->model;
	if (!m || !m->bb3d || !wl_lint_enabled(ctx, WLR_B3D_NO_NODES))
		return;
	for (size_t i = 0; i < m->node_count; i++)
		if (!m->nodes[i]->parent)
			return;
	wl_report(&ctx->doc->findings, WLR_B3D_NO_NODES, m->bb3d, -1, m->bb3d->offset,
		  b3c_chunk_len(ctx->doc, m->bb3d),
		  "the BB3D holds no NODE: Assimp refuses the file (\"No nodes\"), Blitz3D loads no "
		  "model, Irrlicht an empty mesh");
}
