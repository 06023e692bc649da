/*
 * check_bones.h - the BONE weight-record checks, run as one pass over the
 * records (b3d_check_bones in check_weights.c drives it): the bindings and
 * vertex ids of check_bone_ids.c, the weights of check_weights.c.  Each
 * record is decoded once; a record whose vertex id is outside the MESH
 * Irrlicht/Luanti bind the BONE to is b3d-bone-vertex-out-of-range and
 * the weight rules skip it.
 */
#ifndef WL_B3D_CHECK_BONES_H
#define WL_B3D_CHECK_BONES_H

#include <stdint.h>

#include "checks.h"
#include "core/b3d/skin_bind.h"

/** The registered check: every rule of rules/b3d/skin.yaml. */
void b3d_check_bones(wl_lint_ctx *ctx);

/**
 * b3d-bone-vertex-out-of-range for record i of BONE bo (vertex id vertex),
 * whose id is negative or not below span, the vertex count of the MESH
 * Irrlicht/Luanti bind bo to (0 when no MESH comes before it).  One
 * finding at the record's 8 bytes (check_bone_ids.c).
 */
void b3d_report_bone_vertex(wl_lint_ctx *ctx, const b3d_bone *bo, size_t i, int32_t vertex, uint64_t span);

/**
 * b3d-bone-binding-differs for BONE bo when a target of the file
 * (ctx->targets; every B3D target when 0) binds its ids to other vertices
 * than Blitz3D: Irrlicht/Luanti (luanti, irrlicht) to another MESH,
 * Assimp (assimp) to global vertices other than Blitz3D's MESH's.  One
 * finding at the chunk header naming those readers; none for a BONE
 * without records or without an Irrlicht MESH (check_bone_ids.c).
 */
void b3d_report_bone_binding(wl_lint_ctx *ctx, const b3d_bone *bo);

#endif
