/* build_skin.c - the skinned test model; see build_skin.h. */
#include "build_skin.h"

#include "reader_util.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char TEXT[] =
	"w3d-text: 1\n"
	"chunks:\n"
	"  - chunk: HIERARCHY\n"
	"    children:\n"
	"      - chunk: HIERARCHY_HEADER\n"
	"        Version: 0x00040001\n"
	"        Name: \"SKIN\"\n"
	"        NumPivots: 3\n"
	"        Center: [0, 0, 0]\n"
	"      - chunk: PIVOTS\n"
	"        items:\n"
	"          - {Name: \"ROOTTRANSFORM\", ParentIdx: -1, Translation: [0, 0, 0], EulerAngles: [0, 0, 0], "
	"Rotation: [0, 0, 0, 1]}\n"
	"          - {Name: \"BONE_A\", ParentIdx: 0, Translation: [1, 0, 0], EulerAngles: [0, 0, 1.5707964], "
	"Rotation: [0, 0, 0.70710677, 0.70710677]}\n"
	"          - {Name: \"BONE_B\", ParentIdx: 1, Translation: [0, 2, 0], EulerAngles: [1.5707964, 0, 0], "
	"Rotation: [0.70710677, 0, 0, 0.70710677]}\n"
	"  - chunk: MESH\n"
	"    children:\n"
	"      - chunk: MESH_HEADER3\n"
	"        Version: 0x00040002\n"
	"        Attributes: 0x00020000\n"
	"        MeshName: \"BODY\"\n"
	"        ContainerName: \"SKIN\"\n"
	"        NumTris: 1\n"
	"        NumVertices: 3\n"
	"        VertexChannels: 0x00000013\n"
	"        FaceChannels: 0x00000001\n"
	"        Min: [%.9g, %.9g, %.9g]\n"
	"        Max: [%.9g, %.9g, %.9g]\n"
	"        SphCenter: [%.9g, %.9g, %.9g]\n"
	"        SphRadius: %.9g\n"
	"      - chunk: VERTICES\n"
	"        items:\n"
	"          - [1, 0, 0]\n"
	"          - [0, 0, 1]\n"
	"          - [0, 1, 0]\n"
	"      - chunk: VERTEX_NORMALS\n"
	"        items:\n"
	"          - [0, 0, 1]\n"
	"          - [0, 0, 1]\n"
	"          - [0, 0, 1]\n"
	"      - chunk: TRIANGLES\n"
	"        items:\n"
	"          - {Vindex: [0, 1, 2], Attributes: 0, Normal: [0, 0, 1], Dist: 0}\n"
	"      - chunk: VERTEX_INFLUENCES\n"
	"        items:\n"
	"          - {BoneIdx: 1}\n"
	"          - {BoneIdx: 2}\n"
	"          - {BoneIdx: 2}\n"
	"  - chunk: HLOD\n"
	"    children:\n"
	"      - chunk: HLOD_HEADER\n"
	"        Version: 0x00010000\n"
	"        LodCount: 1\n"
	"        Name: \"SKIN\"\n"
	"        HierarchyName: \"%s\"\n"
	"      - chunk: HLOD_LOD_ARRAY\n"
	"        children:\n"
	"          - chunk: HLOD_SUB_OBJECT_ARRAY_HEADER\n"
	"            ModelCount: 1\n"
	"            MaxScreenSize: 0\n"
	"          - chunk: HLOD_SUB_OBJECT\n"
	"            BoneIndex: 0\n"
	"            Name: \"SKIN.BODY\"\n";

wl_tf_bytes t_skin_build(const t_skin_bounds *b, const char *hierarchy)
{
	char text[sizeof TEXT + 256];
	int n = snprintf(text, sizeof text, TEXT, (double)b->min[0], (double)b->min[1], (double)b->min[2],
			 (double)b->max[0], (double)b->max[1], (double)b->max[2], (double)b->center[0],
			 (double)b->center[1], (double)b->center[2], (double)b->radius, hierarchy);
	ck_assert(n > 0 && (size_t)n < sizeof text);
	return t_assemble("skin.txt", text, (size_t)n);
}

/* out = m v */
static void mat_vec(const double m[3][3], const double v[3], double out[3])
{
	for (int i = 0; i < 3; i++)
		out[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
}

void t_skin_bind_points(double out[T_SKIN_VERTICES][3])
{
	static const double rz90[3][3] = { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } };
	static const double rx90[3][3] = { { 1, 0, 0 }, { 0, 0, -1 }, { 0, 1, 0 } };
	static const double ta[3] = { 1, 0, 0 }, tb[3] = { 0, 2, 0 };
	static const double v[T_SKIN_VERTICES][3] = { { 1, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 } };
	static const int bone[T_SKIN_VERTICES] = { 1, 2, 2 };
	for (int i = 0; i < T_SKIN_VERTICES; i++) {
		double p[3], q[3];
		memcpy(p, v[i], sizeof p);
		if (bone[i] == 2) { /* BONE_B's own transform, then its parent's */
			mat_vec(rx90, p, q);
			for (int k = 0; k < 3; k++)
				p[k] = q[k] + tb[k];
		}
		mat_vec(rz90, p, q); /* BONE_A */
		for (int k = 0; k < 3; k++)
			out[i][k] = q[k] + ta[k];
	}
}

t_skin_bounds t_skin_exporter_bounds(void)
{
	double p[T_SKIN_VERTICES][3];
	t_skin_bind_points(p);
	t_skin_bounds b;
	for (int k = 0; k < 3; k++) {
		double lo = p[0][k], hi = p[0][k];
		for (int i = 1; i < T_SKIN_VERTICES; i++) {
			lo = fmin(lo, p[i][k]);
			hi = fmax(hi, p[i][k]);
		}
		b.min[k] = (float)lo;
		b.max[k] = (float)hi;
		b.center[k] = (float)((lo + hi) / 2);
	}
	double r = 0;
	for (int i = 0; i < T_SKIN_VERTICES; i++) {
		double d2 = 0;
		for (int k = 0; k < 3; k++)
			d2 += (p[i][k] - b.center[k]) * (p[i][k] - b.center[k]);
		r = fmax(r, sqrt(d2));
	}
	b.radius = nextafterf((float)r, INFINITY);
	return b;
}
