/*
 * check_bone_ids.c - which vertices a BONE's weight records name
 * (rules/b3d/skin.yaml; notes on the readers: skin_bind.h):
 *
 *   b3d-bone-vertex-out-of-range  a weight record's vertex id is negative
 *                                 or not below the vertex count of the MESH
 *                                 Irrlicht/Luanti bind the BONE to (the last
 *                                 MESH read in file order); one finding per
 *                                 record, at its 8 bytes
 *   b3d-bone-binding-differs      a target of the file binds the BONE's ids
 *                                 to other vertices than Blitz3D, the
 *                                 format's reference (the MESH of the
 *                                 nearest enclosing NODE that has one):
 *                                 Irrlicht/Luanti (the last MESH in file
 *                                 order) when that is another MESH, Assimp
 *                                 (one index over every VRTS of the file)
 *                                 when Blitz3D's MESH does not start at
 *                                 global vertex 0.  Only the file's targets
 *                                 count (all four when it has none): under
 *                                 luanti a BONE only Assimp binds otherwise
 *                                 is not reported.  One finding per BONE
 *                                 chunk (the binding is the chunk's, every
 *                                 record shares it), at the chunk header,
 *                                 naming the readers that differ; BONEs
 *                                 without records are not reported
 *
 * The records are walked once, with the weight rules, by b3d_check_bones
 * (check_weights.c); these are its reporters (check_bones.h).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "check_bones.h"

void b3d_report_bone_vertex(wl_lint_ctx *ctx, const b3d_bone *bo, size_t i, int32_t vertex, uint64_t span)
{
	const b3d_mesh *me = bo->bind_irrlicht;
	uint64_t base = me ? me->global_base : 0;
	uint64_t at = b3d_record_offset(&bo->weights, i);
	const char *what;
	if (vertex < 0 && (uint64_t)(-(int64_t)vertex) <= base)
		what = "Luanti and Irrlicht bind it to a vertex of an earlier MESH";
	else if (vertex < 0 || me)
		what = "Luanti refuses the model, Irrlicht 1.8 reads past its vertex list";
	else
		what = "no MESH comes before it: Luanti refuses the model, Irrlicht before 2023 "
		       "reads past its vertex list";
	wl_report(&ctx->doc->findings, WLR_B3D_BONE_VERTEX_OUT_OF_RANGE, bo->src, (int64_t)i, at, 8,
		  "weight %zu of the BONE of NODE '%s' names vertex %" PRId32
		  ", outside the %" PRIu64 " vertices of MESH '%s' that Irrlicht/Luanti bind it to "
		  "(the last MESH before it): %s",
		  i, b3d_node_label(bo->node), vertex, span, me ? b3d_mesh_label(me) : "", what);
}

/* Whether the file's targets (all B3D targets when it has none) include
 * one of the comma-separated names. */
static bool for_target(const wl_lint_ctx *ctx, const char *names)
{
	wl_target_mask t = 0;
	if (wl_target_parse(names, &t, NULL, 0) != 0)
		return false;
	return !ctx->targets || (ctx->targets & t);
}

void b3d_report_bone_binding(wl_lint_ctx *ctx, const b3d_bone *bo)
{
	const b3d_mesh *irr = bo->bind_irrlicht, *blitz = bo->bind_blitz;
	if (!bo->weights.count || !irr)
		return;
	/* Blitz3D, the format's reference, indexes blitz's own vertices; a
	 * target differs from it when it indexes others. */
	bool irr_differs = irr != blitz && for_target(ctx, "luanti,irrlicht");
	bool assimp_differs = (!blitz || blitz->global_base != 0) && for_target(ctx, "assimp");
	if (!irr_differs && !assimp_differs)
		return;
	char blitz_desc[160], irr_desc[200] = "", assimp_desc[64] = "";
	if (blitz)
		snprintf(blitz_desc, sizeof blitz_desc, "MESH '%s' (vertex id + 0)", b3d_mesh_label(blitz));
	else
		snprintf(blitz_desc, sizeof blitz_desc, "no MESH (no enclosing NODE has one)");
	if (irr_differs)
		snprintf(irr_desc, sizeof irr_desc,
			 ", Irrlicht/Luanti to MESH '%s' (the last MESH before it; global vertex %" PRIu64 " + id)",
			 b3d_mesh_label(irr), irr->global_base);
	if (assimp_differs)
		snprintf(assimp_desc, sizeof assimp_desc, ", Assimp to global vertex 0 + id");
	wl_report(&ctx->doc->findings, WLR_B3D_BONE_BINDING_DIFFERS, bo->src, -1, bo->src->offset,
		  bo->src->header_size,
		  "the BONE of NODE '%s' binds other vertices in %s than in Blitz3D, the format's reference: "
		  "Blitz3D to %s%s%s",
		  b3d_node_label(bo->node),
		  irr_differs && assimp_differs ? "Irrlicht/Luanti and Assimp" : irr_differs ? "Irrlicht/Luanti" : "Assimp",
		  blitz_desc, irr_desc, assimp_desc);
}
