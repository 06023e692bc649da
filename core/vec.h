/*
 * vec.h - small 3-vector helpers for the geometry rules and fixers (header
 * only, no state).
 *
 * Vectors are double[3] in model units.  Callers widen the file's binary32
 * values to double before computing, so every result below is computed with
 * more precision than the file stores and is deterministic for a given
 * input (no library calls other than sqrt, which IEEE 754 rounds exactly).
 *
 * The plane convention is the W3D one (notes/w3d_reference.md §2.1
 * W3dTriStruct and §3.B B6; REN meshbuild.cpp:462-468): the plane of a
 * triangle (v0, v1, v2) has the unit normal N = normalize(cross(v1 - v0,
 * v2 - v0)) and the distance Dist = dot(N, v0), so a point p lies on it when
 * dot(N, p) = Dist.
 */
#ifndef WL_GEOM_VEC_H
#define WL_GEOM_VEC_H

#include <math.h>
#include <stdbool.h>

/** out = (x, y, z), widening binary32 components to double. */
static inline void wl_v3_set(double out[3], float x, float y, float z)
{
	out[0] = x;
	out[1] = y;
	out[2] = z;
}

/** out = a - b. */
static inline void wl_v3_sub(const double a[3], const double b[3], double out[3])
{
	out[0] = a[0] - b[0];
	out[1] = a[1] - b[1];
	out[2] = a[2] - b[2];
}

/** out = cross(a, b) (right-handed); out must not alias a or b. */
static inline void wl_v3_cross(const double a[3], const double b[3], double out[3])
{
	out[0] = a[1] * b[2] - a[2] * b[1];
	out[1] = a[2] * b[0] - a[0] * b[2];
	out[2] = a[0] * b[1] - a[1] * b[0];
}

/** dot(a, b). */
static inline double wl_v3_dot(const double a[3], const double b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** Euclidean length |a|. */
static inline double wl_v3_len(const double a[3])
{
	return sqrt(wl_v3_dot(a, a));
}

/** Distance |a - b|. */
static inline double wl_v3_dist(const double a[3], const double b[3])
{
	double d[3];
	wl_v3_sub(a, b, d);
	return wl_v3_len(d);
}

/** Largest absolute component max(|a0|, |a1|, |a2|). */
static inline double wl_v3_maxabs(const double a[3])
{
	double m = fabs(a[0]);
	if (fabs(a[1]) > m)
		m = fabs(a[1]);
	if (fabs(a[2]) > m)
		m = fabs(a[2]);
	return m;
}

/** True when the three binary32 components are neither NaN nor infinite. */
static inline bool wl_f3_finite(float x, float y, float z)
{
	return isfinite(x) && isfinite(y) && isfinite(z);
}

/**
 * Plane of the triangle (v0, v1, v2) in the W3D convention above: *n gets
 * the unit normal, *dist the distance dot(n, v0).  Returns false, leaving n
 * and dist untouched, when the triangle is degenerate: the cross product is
 * zero or not finite, so no normal exists (the engine would get the zero
 * vector, since Vector3::Normalize leaves it unchanged; WWMath vector3.h:
 * 401-410, notes/w3d_reference.md B4).
 */
static inline bool wl_tri_plane(const double v0[3], const double v1[3], const double v2[3], double n[3],
				double *dist)
{
	double e1[3], e2[3], c[3];
	wl_v3_sub(v1, v0, e1);
	wl_v3_sub(v2, v0, e2);
	wl_v3_cross(e1, e2, c);
	double len = wl_v3_len(c);
	if (!(len > 0) || !isfinite(len))
		return false;
	n[0] = c[0] / len;
	n[1] = c[1] / len;
	n[2] = c[2] / len;
	*dist = wl_v3_dot(n, v0);
	return true;
}

/**
 * Twice the area of triangle (v0, v1, v2), |cross(v1 - v0, v2 - v0)|, and
 * in *longest2 the squared length of its longest edge (model units
 * squared).  The ratio area2 / longest2 is scale-free: it is the height of
 * the triangle over its longest edge divided by that edge, 0 for collinear
 * vertices.
 */
static inline double wl_tri_area2(const double v0[3], const double v1[3], const double v2[3], double *longest2)
{
	double e1[3], e2[3], e3[3], c[3];
	wl_v3_sub(v1, v0, e1);
	wl_v3_sub(v2, v0, e2);
	wl_v3_sub(v2, v1, e3);
	wl_v3_cross(e1, e2, c);
	double l = wl_v3_dot(e1, e1);
	if (wl_v3_dot(e2, e2) > l)
		l = wl_v3_dot(e2, e2);
	if (wl_v3_dot(e3, e3) > l)
		l = wl_v3_dot(e3, e3);
	*longest2 = l;
	return wl_v3_len(c);
}

/** How far p lies outside the axis-aligned box [mn, mx] (model units): the
 *  largest per-axis excess, 0 when p is inside or on the box. */
static inline double wl_box_excess(const double mn[3], const double mx[3], const double p[3])
{
	double e = 0;
	for (int k = 0; k < 3; k++) {
		if (mn[k] - p[k] > e)
			e = mn[k] - p[k];
		if (p[k] - mx[k] > e)
			e = p[k] - mx[k];
	}
	return e;
}

/**
 * True when a stored plane (unit normal sn, distance sd) differs from the
 * recomputed one (n, d, from wl_tri_plane): |sn - n| > ntol, or
 * |sd - d| > dtol * max(1, scale), where scale is the size of the
 * coordinates involved (wl_v3_maxabs(v0)), so the distance tolerance follows
 * binary32 precision.  A non-finite stored value always differs.
 */
static inline bool wl_plane_differs(const double sn[3], double sd, const double n[3], double d, double scale,
				    double ntol, double dtol)
{
	if (!isfinite(sn[0]) || !isfinite(sn[1]) || !isfinite(sn[2]) || !isfinite(sd))
		return true;
	double s = scale > 1 ? scale : 1;
	return wl_v3_dist(sn, n) > ntol || fabs(sd - d) > dtol * s;
}

/**
 * The band of squared lengths s for which | sqrt(s) - 1 | <= tol holds with
 * a margin far above rounding (relative 1e-9): s in (*lo2, *hi2).  A scan
 * that checks lengths against 1 skips the square root for those and
 * computes it only outside the band, so its results are unchanged.  An
 * empty band for a negative tol.
 */
static inline void wl_unit_band(double tol, double *lo2, double *hi2)
{
	*lo2 = tol >= 0 && tol < 1 ? (1 - tol) * (1 - tol) * (1 + 1e-9) : tol >= 1 ? -1 : INFINITY;
	*hi2 = tol >= 0 ? (1 + tol) * (1 + tol) * (1 - 1e-9) : 0;
}

/** The squared length of quaternion q, as wl_q4_len sums it. */
static inline double wl_q4_len2(const float q[4])
{
	return (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3];
}

/**
 * Length of the quaternion q = (x, y, z, w) as stored (binary32 components
 * widened to double, summed in that order): what the quaternion rules
 * compare with 1 and the fixers divide by.  NaN when a component is NaN.
 */
static inline double wl_q4_len(const float q[4])
{
	return sqrt(wl_q4_len2(q));
}

/** The dot product of quaternions a and b as stored (binary32 widened to
 *  double, summed x, y, z, w): below 0 when they lie in opposite
 *  hemispheres (the hemisphere rule and its fixer). */
static inline double wl_q4_dot(const float a[4], const float b[4])
{
	return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3];
}

/** The Hamilton product out = a x b of quaternions (x, y, z, w) in double;
 *  out may be a or b. */
static inline void wl_qd_mul(const double a[4], const double b[4], double out[4])
{
	double r[4] = {
		a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
		a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
		a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
		a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
	};
	for (int k = 0; k < 4; k++)
		out[k] = r[k];
}

#endif
