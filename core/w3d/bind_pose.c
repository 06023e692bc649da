/* bind_pose.c - see bind_pose.h. */
#include "bind_pose.h"
#include "core/vec.h"

#include <math.h>

/* v' = v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z) of unit q. */
static void quat_rotate(const double q[4], const double v[3], double out[3])
{
	double c[3] = { q[1] * v[2] - q[2] * v[1], q[2] * v[0] - q[0] * v[2], q[0] * v[1] - q[1] * v[0] };
	double cc[3] = { q[1] * c[2] - q[2] * c[1], q[2] * c[0] - q[0] * c[2], q[0] * c[1] - q[1] * c[0] };
	for (int k = 0; k < 3; k++)
		out[k] = v[k] + 2 * (q[3] * c[k] + cc[k]);
}

void w3d_pose_apply(const w3d_pose *p, const double v[3], double out[3])
{
	double r[3];
	quat_rotate(p->q, v, r);
	for (int k = 0; k < 3; k++)
		out[k] = r[k] + p->t[k];
}

/* Pivot p's own transform; false when it cannot be used. */
static bool local_pose(const w3d_pivot *p, w3d_pose *out)
{
	for (int k = 0; k < 4; k++)
		if (!isfinite(p->rotation[k]))
			return false;
	double len = wl_q4_len(p->rotation);
	if (!(len >= 0.5))
		return false;
	for (int k = 0; k < 4; k++)
		out->q[k] = p->rotation[k] / len;
	for (int k = 0; k < 3; k++) {
		if (!isfinite(p->translation[k]))
			return false;
		out->t[k] = p->translation[k];
	}
	return true;
}

void w3d_hierarchy_base_pose(const w3d_hierarchy *h, w3d_pose *out)
{
	for (size_t i = 0; i < h->pivot_count; i++) {
		w3d_pose *o = &out[i];
		w3d_pose local;
		o->ok = local_pose(&h->pivots[i], &local);
		if (!o->ok)
			continue;
		uint32_t parent = h->pivots[i].parent;
		if (parent == 0xFFFFFFFFu) {
			*o = local;
			o->ok = true;
			continue;
		}
		if (parent >= i || !out[parent].ok) {
			o->ok = false;
			continue;
		}
		/* world_parent o local: q = qp ql, t = R(qp) tl + tp */
		const w3d_pose *pp = &out[parent];
		wl_qd_mul(pp->q, local.q, o->q);
		w3d_pose_apply(pp, local.t, o->t);
	}
}

bool w3d_mesh_bounds_points(const w3d_mesh *m, const w3d_pose *poses, size_t pose_count, double (*out)[3])
{
	bool skin = w3d_mesh_is_skin(m);
	const w3d_influence_array *inf = m->influences.src ? &m->influences : &m->influences_ext;
	if (skin && inf->count < m->vertices.count)
		return false;
	for (size_t i = 0; i < m->vertices.count; i++) {
		const w3d_vec3 *v = &m->vertices.v[i];
		double p[3] = { v->x, v->y, v->z };
		if (!skin || !w3d_vec3_finite(v)) {
			for (int k = 0; k < 3; k++)
				out[i][k] = w3d_vec3_finite(v) ? p[k] : NAN;
			continue;
		}
		size_t bone = inf->v[i].bone[0];
		if (!poses) {
			if (bone != 0)
				return false;
			for (int k = 0; k < 3; k++)
				out[i][k] = p[k];
			continue;
		}
		if (bone >= pose_count || !poses[bone].ok)
			return false;
		w3d_pose_apply(&poses[bone], p, out[i]);
	}
	return true;
}
