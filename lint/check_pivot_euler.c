/*
 * check_pivot_euler.c - rule pivot-euler-mismatch (rules/pivots.yaml;
 * notes/w3d_reference.md §2.3, §3 E5).
 *
 * A W3dPivotStruct (60 bytes, w3d_file.h:1298-1305) stores its rotation
 * twice: EulerAngles (3 x float32 radians at offset 32) and Rotation (unit
 * quaternion X, Y, Z, W at offset 44).  The runtime reads only Rotation
 * (htree.cpp:284-293); the exporter writes both from one matrix, the Euler
 * angles in Westwood's order EulerOrderXYZr (hiersave.cpp:753-757), i.e.
 * relative (rotating-frame) X, then Y, then Z:
 *
 *     R = Rx(EulerAngles[0]) * Ry(EulerAngles[1]) * Rz(EulerAngles[2])
 *
 * (column vectors; q_e = qx (x) qy (x) qz as Hamilton products).  Every pivot
 * of the real-file corpus with non-zero EulerAngles follows this order.
 *
 * The rule compares the two: it reports a pivot whose EulerAngles describe
 * a rotation more than `tolerance` degrees away from Rotation (the angle of
 * the rotation between them, 2 acos |q_e . q| with q normalised).  Skipped:
 * pivots whose three angles are all exactly 0 (the field left unfilled, as
 * several exporters do: no claim to compare), non-finite values, and a
 * Rotation shorter than 0.5 (quaternion-not-finite / quaternion-not-normalized
 * speak about those).  One finding per hierarchy: the first pivot that
 * disagrees, with the number that do; offset = that pivot's EulerAngles
 * (PIVOTS payload + 60 i + 32, 12 bytes).
 *
 * Severity info: a tool reading EulerAngles (editors, converters) shows a
 * pose the game does not; the game is unaffected.
 */
#include <math.h>

#include "lint.h"

void w3d_check_pivot_euler(wl_lint_ctx *ctx);

/* Every rule id this file reports (NULL-terminated), for catalogue tests. */
extern const char *const w3d_check_pivot_euler_rules[];
const char *const w3d_check_pivot_euler_rules[] = { "pivot-euler-mismatch", NULL };

#define RULE "pivot-euler-mismatch"
#define TOL_DEFAULT_DEG 0.1
#define EULER_OFFSET 32u
#define DEG_PER_RAD 57.295779513082321

/* Hamilton product r = a (x) b, quaternions as X, Y, Z, W. */
static void qmul(const double a[4], const double b[4], double r[4])
{
	r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
	r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
	r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
	r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

/** The quaternion of EulerOrderXYZr angles e (radians). */
static void euler_xyzr_quat(const float e[3], double q[4])
{
	double qx[4] = { sin(e[0] / 2.0), 0, 0, cos(e[0] / 2.0) };
	double qy[4] = { 0, sin(e[1] / 2.0), 0, cos(e[1] / 2.0) };
	double qz[4] = { 0, 0, sin(e[2] / 2.0), cos(e[2] / 2.0) };
	double t[4];
	qmul(qx, qy, t);
	qmul(t, qz, q);
}

/* The angle in degrees between the rotations of p's EulerAngles and
 * Rotation, or a negative value when the pivot is skipped (see above). */
static double euler_gap_deg(const w3d_pivot *p)
{
	const float *e = p->euler, *r = p->rotation;
	if (e[0] == 0 && e[1] == 0 && e[2] == 0)
		return -1;
	for (int i = 0; i < 4; i++)
		if (!isfinite(r[i]) || (i < 3 && !isfinite(e[i])))
			return -1;
	double len = sqrt((double)r[0] * r[0] + (double)r[1] * r[1] + (double)r[2] * r[2] + (double)r[3] * r[3]);
	if (len < 0.5)
		return -1;
	double qe[4];
	euler_xyzr_quat(e, qe);
	double dot = fabs(qe[0] * r[0] + qe[1] * r[1] + qe[2] * r[2] + qe[3] * r[3]) / len;
	if (dot > 1)
		dot = 1;
	return 2.0 * acos(dot) * DEG_PER_RAD;
}

void w3d_check_pivot_euler(wl_lint_ctx *ctx)
{
	const w3d_model *m = ctx->model;
	if (!m || !wl_lint_enabled(ctx, RULE))
		return;
	double tol = wl_lint_param(ctx, RULE, "tolerance", TOL_DEFAULT_DEG);
	for (size_t i = 0; i < m->hierarchy_count; i++) {
		const w3d_hierarchy *h = m->hierarchies[i];
		if (!h || !h->pivots_chunk)
			continue;
		size_t bad = 0, first = 0;
		double first_gap = 0;
		for (size_t k = 0; k < h->pivot_count; k++) {
			double gap = euler_gap_deg(&h->pivots[k]);
			if (gap > tol && !bad++) {
				first = k;
				first_gap = gap;
			}
		}
		if (!bad)
			continue;
		const w3d_pivot *p = &h->pivots[first];
		wl_report(&ctx->doc->findings, RULE, h->pivots_chunk, (int64_t)first,
			  wl_chunk_payload_offset(h->pivots_chunk) + (uint64_t)first * W3D_PIVOT_SIZE + EULER_OFFSET, 12,
			  "pivot %zu '%s' of hierarchy '%s' has EulerAngles (%g, %g, %g) that differ from its Rotation "
			  "(%g, %g, %g, %g) by %.3g degrees (%zu of %zu pivots)",
			  first, p->name ? p->name : "", h->name, (double)p->euler[0], (double)p->euler[1],
			  (double)p->euler[2], (double)p->rotation[0], (double)p->rotation[1], (double)p->rotation[2],
			  (double)p->rotation[3], first_gap, bad, h->pivot_count);
	}
}
