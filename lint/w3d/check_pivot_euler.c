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
 * The rule compares the two (core/w3d/rotation.h): it reports a pivot whose EulerAngles describe
 * a rotation more than `tolerance` degrees away from Rotation (the angle of
 * the rotation between them, w3d_quat_angle_deg).  Skipped:
 * pivots whose three angles are all exactly 0 (the field left unfilled, as
 * several exporters do: no claim to compare), non-finite values, and a
 * Rotation shorter than 0.5 (quaternion-not-finite / quaternion-not-normalized
 * speak about those).  One finding per pivot that disagrees, at its
 * EulerAngles (PIVOTS payload + 60 i + 32, 12 bytes).
 *
 * Severity info: a tool reading EulerAngles (editors, converters) shows a
 * pose the game does not; the game is unaffected.
 */
#include "core/w3d/rotation.h"
#include "checks.h"

void w3d_check_pivot_euler(wl_lint_ctx *ctx);

#define RULE WLR_PIVOT_EULER_MISMATCH
#define TOL_DEFAULT_DEG 0.1

void w3d_check_pivot_euler(wl_lint_ctx *ctx)
{
	const w3d_model *m = ctx->model;
	if (!m || !wl_lint_enabled(ctx, RULE))
		return;
	double tol = wl_lint_param(ctx, RULE, "tolerance");
	for (size_t i = 0; i < m->hierarchy_count; i++) {
		const w3d_hierarchy *h = m->hierarchies[i];
		if (!h || !h->pivots_chunk)
			continue;
		for (size_t k = 0; k < h->pivot_count; k++) {
			double gap = w3d_pivot_euler_gap_deg(&h->pivots[k]);
			if (!(gap > tol))
				continue;
			const w3d_pivot *p = &h->pivots[k];
			wl_report(&ctx->doc->findings, RULE, h->pivots_chunk, (int64_t)k,
				  wl_chunk_payload_offset(h->pivots_chunk) + (uint64_t)k * W3D_PIVOT_SIZE +
					  W3D_PIVOT_EULER_OFFSET,
				  12,
				  "pivot %zu '%s' of hierarchy '%s' has EulerAngles (%g, %g, %g) that differ from its "
				  "Rotation (%g, %g, %g, %g) by %.3g degrees",
				  k, p->name ? p->name : "", h->name, (double)p->euler[0], (double)p->euler[1],
				  (double)p->euler[2], (double)p->rotation[0], (double)p->rotation[1],
				  (double)p->rotation[2], (double)p->rotation[3], gap);
		}
	}
}
