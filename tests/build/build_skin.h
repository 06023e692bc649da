/*
 * build_skin.h - a small skinned model in the W3D text form (docs/
 * textform.md), assembled in memory, for the skin-bounds tests
 * (tests/lint/w3d/test_skin_bounds.c, tests/fix/w3d/test_geometry.c).
 *
 * Hierarchy SKIN: ROOTTRANSFORM (identity); BONE_A, parent 0, Translation
 * (1, 0, 0), Rotation 90 degrees about Z; BONE_B, parent 1, Translation
 * (0, 2, 0), Rotation 90 degrees about X.  Skin mesh SKIN.BODY (geometry
 * type SKIN, VERTEX_INFLUENCES): vertex 0 (1, 0, 0) on BONE_A, vertices 1
 * (0, 0, 1) and 2 (0, 1, 0) on BONE_B, one triangle.  HLOD SKIN naming
 * hierarchy `hierarchy` with the sub-object SKIN.BODY on bone 0.
 *
 * The rotations are chosen so that a wrong transform order (rotation after
 * translation), a missing parent chain or a wrong rotation sense all move
 * the bind-pose vertices: t_skin_bind_points computes them with plain 3 x 3
 * matrices, independently of core/w3d/bind_pose.c.
 */
#ifndef BUILD_SKIN_H
#define BUILD_SKIN_H

#include <stddef.h>
#include <stdint.h>

#include "textform/textform.h"

/** The header bounds written into SKIN.BODY's MESH_HEADER3. */
typedef struct t_skin_bounds {
	float min[3], max[3], center[3], radius;
} t_skin_bounds;

/** The number of vertices of SKIN.BODY. */
#define T_SKIN_VERTICES 3

/** Assembles the model with bounds b; hierarchy is the HLOD's
 *  HierarchyName ("SKIN" names the file's own hierarchy).  Fails the
 *  running Check test when the text does not assemble; free out.data. */
wl_tf_bytes t_skin_build(const t_skin_bounds *b, const char *hierarchy);

/** The bind-pose positions of the T_SKIN_VERTICES vertices, computed here. */
void t_skin_bind_points(double out[T_SKIN_VERTICES][3]);

/** The exporter's bounds: the exact box of t_skin_bind_points and a sphere
 *  (box centre, radius to the farthest point, rounded up) that holds them. */
t_skin_bounds t_skin_exporter_bounds(void);

#endif
