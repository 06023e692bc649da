/*
 * rotation.h - the two rotation encodings of a W3dPivotStruct and how they
 * relate (notes/w3d_reference.md §2.3, §3 E4, E5).
 *
 * A pivot stores its rotation twice (w3d_file.h:1298-1305):
 *   EulerAngles  3 x float32, radians, at offset 32, in Westwood's order
 *                EulerOrderXYZr (relative/rotating X, then Y, then Z):
 *                R = Rx(e[0]) * Ry(e[1]) * Rz(e[2]), column vectors
 *                (hiersave.cpp:753-757);
 *   Rotation     quaternion X, Y, Z, W (float32) at offset 44, the one the
 *                runtime reads (htree.cpp:284-293).
 * Every pivot of the real corpus with non-zero EulerAngles follows
 * EulerOrderXYZr.  Quaternions are Hamilton quaternions, X, Y, Z, W order,
 * acting on column vectors (the matrix of quat.cpp:824-845).
 */
#ifndef W3D_ROTATION_H
#define W3D_ROTATION_H

#include "hierarchy.h"

/** The unit quaternion (X, Y, Z, W) of EulerOrderXYZr angles e (radians). */
void w3d_euler_xyzr_to_quat(const float e[3], double q[4]);

/** EulerOrderXYZr angles (radians; e[1] in [-pi/2, pi/2], e[0] and e[2] in
 *  [-pi, pi]) of quaternion q, which is normalised first.  At gimbal lock
 *  (|e[1]| = pi/2) e[2] is 0.  Returns false, leaving e unchanged, when q
 *  is not finite or shorter than 0.5 (no rotation to speak of). */
bool w3d_quat_to_euler_xyzr(const float q[4], float e[3]);

/** The angle in degrees (0..180) between the rotations of quaternions a
 *  and b (any non-zero length, either sign): with both normalised and b's
 *  sign chosen to face a, |a - b| = 2 sin(angle / 4), which stays accurate
 *  near 0 where acos of the dot product does not.  -1 when either is not
 *  finite or has length below 1e-12. */
double w3d_quat_angle_deg(const double a[4], const double b[4]);

/**
 * The angle in degrees (0..180) between the rotation p's EulerAngles
 * describe and p's Rotation, or -1 when the pivot is not compared: its three
 * angles are exactly 0 (the field left unfilled, as several exporters do),
 * a value is not finite, or Rotation is shorter than 0.5.
 */
double w3d_pivot_euler_gap_deg(const w3d_pivot *p);

#endif
