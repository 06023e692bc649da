/*
 * bind_pose.h - a hierarchy's base pose and a skin's vertices put back into
 * it (notes/w3d_reference.md §2.3, §3 B9, B16).
 *
 * The exporter computes a skin's header bounds in the bind pose, then moves
 * each vertex into the space of its bone (meshsave.cpp:357 vs 371:
 * inv_deform_mesh), so the stored VERTICES of a skin are bone-relative.  The
 * engine deforms them with the bone's transform; in the base pose that is
 * the pivot's base transform chained through its parents (htree.cpp:284-293,
 * Base_Update): local(v) = R(Rotation) v + Translation, and
 * world_i = world_parent(i) o local_i, the root's parent being the identity.
 * Putting vertex v of bone b back into the bind pose is world_b(v).
 *
 * Quaternions are Hamilton quaternions X, Y, Z, W acting on column vectors
 * (rotation.h); each pivot's Rotation is normalised before use.
 */
#ifndef W3D_BIND_POSE_H
#define W3D_BIND_POSE_H

#include <stdbool.h>
#include <stddef.h>

#include "hierarchy.h"
#include "mesh.h"

/** A rigid transform: p -> R(q) p + t (q unit X, Y, Z, W; t model units). */
typedef struct w3d_pose {
	double q[4];
	double t[3];
	bool ok; /* false: the pivot cannot be posed (see w3d_hierarchy_base_pose) */
} w3d_pose;

/** out = R(p->q) v + p->t (out may be v). */
void w3d_pose_apply(const w3d_pose *p, const double v[3], double out[3]);

/**
 * Fills out[i] (i < h->pivot_count) with pivot i's base-pose transform in
 * model space.  A pivot is not ok when its Translation or Rotation is not
 * finite, its Rotation is shorter than 0.5, its ParentIdx is neither the
 * root marker (0xFFFFFFFF) nor an earlier pivot (the exporter writes parents
 * first; hierarchy rules report the others), or its parent is not ok.
 */
void w3d_hierarchy_base_pose(const w3d_hierarchy *h, w3d_pose *out);

/**
 * The positions that the MESH_HEADER3 bounds of m describe, one per stored
 * vertex (m->vertices.count entries, model units): the stored vertex of a
 * rigid mesh, or for a skin (w3d_mesh_is_skin) vertex i put into the bind
 * pose through the pose of its primary bone (bone[0] of VERTEX_INFLUENCES,
 * or of VERTEX_INFLUENCES_EXTENDED when 0x0E is absent).  poses holds
 * pose_count pivot poses (w3d_hierarchy_base_pose); poses NULL means the
 * engine's default one-pivot tree (identity).  A non-finite vertex gives
 * NaN coordinates.  Returns false, out undefined, when a skin vertex cannot
 * be posed: no influence record for it, a bone not below pose_count, or a
 * pose that is not ok (other rules report those).
 */
bool w3d_mesh_bounds_points(const w3d_mesh *m, const w3d_pose *poses, size_t pose_count, double (*out)[3]);

#endif
