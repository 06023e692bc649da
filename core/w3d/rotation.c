/* rotation.c - pivot rotation encodings; see rotation.h. */
#include "rotation.h"
#include "core/vec.h"

#include <math.h>

#define DEG_PER_RAD 57.295779513082321

void w3d_euler_xyzr_to_quat(const float e[3], double q[4])
{
	double qx[4] = { sin(e[0] / 2.0), 0, 0, cos(e[0] / 2.0) };
	double qy[4] = { 0, sin(e[1] / 2.0), 0, cos(e[1] / 2.0) };
	double qz[4] = { 0, 0, sin(e[2] / 2.0), cos(e[2] / 2.0) };
	double t[4];
	wl_qd_mul(qx, qy, t);
	wl_qd_mul(t, qz, q);
}

bool w3d_quat_to_euler_xyzr(const float q[4], float e[3])
{
	for (int i = 0; i < 4; i++)
		if (!isfinite(q[i]))
			return false;
	double len = wl_q4_len(q);
	if (len < 0.5)
		return false;
	double x = q[0] / len, y = q[1] / len, z = q[2] / len, w = q[3] / len;
	/* the matrix entries R = Rx Ry Rz needs: R02 = sin b,
	 * R12 = -sin a cos b, R22 = cos a cos b, R01 = -cos b sin c,
	 * R00 = cos b cos c; at gimbal lock R21 / R11 give a (c = 0) */
	double r02 = 2 * (x * z + y * w), r12 = 2 * (y * z - x * w), r22 = 1 - 2 * (x * x + y * y);
	double r01 = 2 * (x * y - z * w), r00 = 1 - 2 * (y * y + z * z);
	double r21 = 2 * (y * z + x * w), r11 = 1 - 2 * (x * x + z * z);
	if (r02 > 1)
		r02 = 1;
	if (r02 < -1)
		r02 = -1;
	double b = asin(r02), a, c;
	if (fabs(r02) < 0.9999999) {
		a = atan2(-r12, r22);
		c = atan2(-r01, r00);
	} else {
		a = atan2(r21, r11);
		c = 0;
	}
	e[0] = (float)a;
	e[1] = (float)b;
	e[2] = (float)c;
	return true;
}

double w3d_quat_angle_deg(const double a[4], const double b[4])
{
	double la = 0, lb = 0, dot = 0, d2 = 0;
	for (int j = 0; j < 4; j++) {
		if (!isfinite(a[j]) || !isfinite(b[j]))
			return -1;
		la += a[j] * a[j];
		lb += b[j] * b[j];
		dot += a[j] * b[j];
	}
	if (la < 1e-24 || lb < 1e-24)
		return -1;
	la = sqrt(la);
	lb = sqrt(lb) * (dot < 0 ? -1 : 1);
	for (int j = 0; j < 4; j++) {
		double d = a[j] / la - b[j] / lb;
		d2 += d * d;
	}
	double h = sqrt(d2) / 2;
	return 4.0 * asin(h > 1 ? 1 : h) * DEG_PER_RAD;
}

double w3d_pivot_euler_gap_deg(const w3d_pivot *p)
{
	const float *e = p->euler, *r = p->rotation;
	if (e[0] == 0 && e[1] == 0 && e[2] == 0)
		return -1;
	for (int i = 0; i < 4; i++)
		if (!isfinite(r[i]) || (i < 3 && !isfinite(e[i])))
			return -1;
	double len = wl_q4_len(r);
	if (len < 0.5)
		return -1;
	double qe[4], qr[4] = { r[0], r[1], r[2], r[3] };
	w3d_euler_xyzr_to_quat(e, qe);
	return w3d_quat_angle_deg(qe, qr);
}
