/*
 * gen_demo.c - writes the example models of `make demo` (corpus/demo/README.md)
 * into a folder:
 *
 *   clean_quad.w3d      a small valid mesh: a unit square of two triangles
 *   bad_mesh.w3d        the same mesh with a triangle index out of range and
 *                       a header vertex count that disagrees with VERTICES
 *   bad_hierarchy.w3d   a hierarchy whose last pivot names a parent that does
 *                       not exist and whose rotation is not a unit quaternion
 *   truncated.w3d       the clean mesh cut short in the middle of a chunk
 *
 * Field layouts: notes/w3d_reference.md §2.1 (mesh) and §2.3 (hierarchy).
 * Usage: gen_demo OUTDIR   (the folder must exist)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/w3d_format.h"
#include "tests/build/w3dbuild.h"

#define MESH_VERSION 0x00040002u   /* 4.2 */
#define VCHAN_LOCATION 1u
#define VCHAN_NORMAL 2u
#define PIVOT_ROOT 0xFFFFFFFFu

typedef struct demo_mesh {
	uint32_t header_vertices;  /* NumVertices written in the header */
	uint32_t bad_index;        /* replaces the last index of triangle 1 when nonzero */
} demo_mesh;

/* A unit square in the z = 0 plane, two triangles facing +z. */
static const float QUAD_V[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
static const uint32_t QUAD_T[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };

static void mesh_header(wb *b, const char *name, uint32_t tris, uint32_t verts)
{
	t_w3d_begin(b, W3D_CHUNK_MESH_HEADER3);
	t_w3d_u32(b, MESH_VERSION);
	t_w3d_u32(b, 0);                    /* Attributes: normal geometry */
	t_w3d_name(b, name, 16);            /* MeshName */
	t_w3d_name(b, "DEMO", 16);          /* ContainerName */
	t_w3d_u32(b, tris);                 /* NumTris */
	t_w3d_u32(b, verts);                /* NumVertices */
	t_w3d_u32(b, 0);                    /* NumMaterials */
	t_w3d_u32(b, 0);                    /* NumDamageStages */
	t_w3d_u32(b, 0);                    /* SortLevel */
	t_w3d_u32(b, 0);                    /* PrelitVersion */
	t_w3d_u32(b, 0);                    /* FutureCounts[0] */
	t_w3d_u32(b, VCHAN_LOCATION | VCHAN_NORMAL);
	t_w3d_u32(b, 1);                    /* FaceChannels: FACE */
	t_w3d_vec3(b, 0, 0, 0);             /* Min */
	t_w3d_vec3(b, 1, 1, 0);             /* Max */
	t_w3d_vec3(b, 0.5f, 0.5f, 0);       /* SphCenter */
	t_w3d_f32(b, 0.70710678f);          /* SphRadius = |(0.5, 0.5, 0)| */
	t_w3d_end(b);
}

static void mesh(wb *b, const char *name, const demo_mesh *d)
{
	t_w3d_begin(b, W3D_CHUNK_MESH);
	mesh_header(b, name, 2, d->header_vertices);
	t_w3d_vertices_normals(b, QUAD_V, 4);
	t_w3d_begin(b, W3D_CHUNK_TRIANGLES);
	for (int t = 0; t < 2; t++) {
		for (int k = 0; k < 3; k++)
			t_w3d_u32(b, (t == 1 && k == 2 && d->bad_index) ? d->bad_index : QUAD_T[t][k]);
		t_w3d_u32(b, 0);            /* Attributes: surface type 0 */
		t_w3d_vec3(b, 0, 0, 1);     /* plane normal */
		t_w3d_f32(b, 0);            /* Dist = dot(normal, v0) */
	}
	t_w3d_end(b);
	t_w3d_end(b);
}

static void pivot(wb *b, const char *name, uint32_t parent, float tx, const float q[4])
{
	t_w3d_name(b, name, 16);
	t_w3d_u32(b, parent);
	t_w3d_vec3(b, tx, 0, 0);            /* Translation */
	t_w3d_vec3(b, 0, 0, 0);             /* EulerAngles (unused by the runtime) */
	for (int i = 0; i < 4; i++)      /* Rotation X, Y, Z, W */
		t_w3d_f32(b, q[i]);
}

static void bad_hierarchy(wb *b)
{
	static const float ident[4] = { 0, 0, 0, 1 };
	static const float twice[4] = { 0, 0, 0, 2 };   /* |q| = 2 */
	t_w3d_begin(b, W3D_CHUNK_HIERARCHY);
	t_w3d_hierarchy_header(b, "DEMOSKL", 3);
	t_w3d_begin(b, W3D_CHUNK_PIVOTS);
	pivot(b, "ROOTTRANSFORM", PIVOT_ROOT, 0, ident);
	pivot(b, "BONE_ARM", 0, 1, twice);
	pivot(b, "BONE_HAND", 7, 2, ident);   /* parent 7: there are 3 pivots */
	t_w3d_end(b);
	t_w3d_end(b);
}

static int write_file(const char *dir, const char *name, const uint8_t *p, size_t n)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *fp = fopen(path, "wb");
	if (!fp) {
		fprintf(stderr, "gen_demo: %s: %s\n", path, strerror(errno));
		return -1;
	}
	size_t put = fwrite(p, 1, n, fp);
	if (fclose(fp) != 0 || put != n) {
		fprintf(stderr, "gen_demo: %s: write error\n", path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_demo OUTDIR\n");
		return 2;
	}
	const char *dir = argv[1];
	int bad = 0;
	wb b;

	t_w3d_init(&b);
	mesh(&b, "QUAD", &(demo_mesh){ 4, 0 });
	bad |= write_file(dir, "clean_quad.w3d", b.data, b.len);
	/* Cut inside TRIANGLES: the last triangle loses its plane. */
	bad |= write_file(dir, "truncated.w3d", b.data, b.len - 20);
	t_w3d_free(&b);

	t_w3d_init(&b);
	mesh(&b, "QUAD", &(demo_mesh){ 5, 7 });
	bad |= write_file(dir, "bad_mesh.w3d", b.data, b.len);
	t_w3d_free(&b);

	t_w3d_init(&b);
	bad_hierarchy(&b);
	bad |= write_file(dir, "bad_hierarchy.w3d", b.data, b.len);
	t_w3d_free(&b);

	return bad ? 1 : 0;
}
