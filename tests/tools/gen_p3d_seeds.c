/*
 * gen_p3d_seeds.c - writes the P3D fuzz seeds (tests/fuzz/seeds.sh) into a
 * folder, built by the test builders (tests/build/p3dbuild.h,
 * tests/build/p3dbuild_mlod.h), never taken from the real-file corpus:
 *
 *   odol_vNN.p3d   one ODOL file per version gate the reader knows (40 ..
 *                  75): three LODs, the first with 86 vertices (1032
 *                  bytes of positions: compressed, BI LZSS below v44 and
 *                  LZO1X from v44, by the 1024-byte rule below v64 and by
 *                  the flag byte from v64), the second with 85 (1020
 *                  bytes: stored raw), the third a quad with embedded
 *                  materials of versions 10, 11 and 16 (DayZ); a
 *                  PhysX-like tail from v59
 *   odol_1lod.p3d  one v50 LOD (the LOD table search's weak case)
 *   mlod_*.p3d     MLOD files of P3DM LODs, of SP3X LODs, and of both
 *
 * Usage: gen_p3d_seeds OUTDIR   (the folder must exist)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tests/build/p3dbuild.h"
#include "tests/build/p3dbuild_mlod.h"

static const float QUAD[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
static const t_p3d_face FACES[3] = { { 4, { 0, 1, 2, 3 } }, { 3, { 0, 1, 2, 0 } },
				   { 3, { 84, 2, 40, 0 } } };
static const float RES[3] = { 1e13f, 2.5f, 1.0f };

static float MANY[86][3];

static int save(const char *dir, const char *name, const wb *b)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b->data, 1, b->len, f) != b->len || fclose(f) != 0) {
		fprintf(stderr, "gen_p3d_seeds: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

static int odol(const char *dir, uint32_t v)
{
	wb m;
	t_w3d_init(&m);
	t_p3d_material(&m, 10, "", 1, 0);
	t_p3d_material(&m, 11, "s.bisurf", 2, 1);
	t_p3d_material(&m, 16, "", 3, 2);
	const t_p3d_lod lods[3] = {
		{ 86, (const float (*)[3])MANY, FACES, 3, 0, v >= 64 },
		{ 85, (const float (*)[3])MANY, FACES, 2, 0, 0 },
		{ .nverts = 4, .pos = QUAD, .faces = FACES, .nfaces = 2, .nmats = 3, .mats = m.data,
		  .mats_len = m.len },
	};
	wb b;
	t_w3d_init(&b);
	t_p3d_layout at;
	t_p3d_odol(&b, v, 3, RES, lods, v >= 59 ? 36 : 0, &at);
	char name[32];
	snprintf(name, sizeof name, "odol_v%u.p3d", (unsigned)v);
	int rc = save(dir, name, &b);
	t_w3d_free(&b);
	t_w3d_free(&m);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_p3d_seeds OUTDIR\n");
		return 2;
	}
	for (int i = 0; i < 86; i++) {
		MANY[i][0] = (float)(i % 7);
		MANY[i][1] = (float)i * 0.25f;
		MANY[i][2] = -1.0f;
	}
	static const uint32_t versions[] = { 40, 43, 44, 45, 48, 50, 51, 53, 58, 59,
					     63, 64, 67, 68, 69, 70, 73, 75 };
	int rc = 0;
	for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++)
		rc |= odol(argv[1], versions[i]);
	wb b;
	t_p3d_layout at;
	const t_p3d_lod one = { 4, QUAD, FACES, 2, 0, 0 };
	t_w3d_init(&b);
	t_p3d_odol(&b, 50, 1, RES, &one, 0, &at);
	rc |= save(argv[1], "odol_1lod.p3d", &b);
	t_w3d_free(&b);
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 2);
	t_p3d_mlod_lod(&b, QUAD, 4, QUAD, 4, FACES, 2, 1.0f);
	t_p3d_mlod_lod(&b, QUAD, 4, QUAD, 4, FACES, 1, 1e13f);
	rc |= save(argv[1], "mlod_p3dm.p3d", &b);
	t_w3d_free(&b);
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 2);
	t_p3d_sp3x_lod(&b, QUAD, 4, QUAD, 4, FACES, NULL, 2, 1.0f);
	t_p3d_sp3x_lod(&b, QUAD, 4, QUAD, 4, FACES, NULL, 1, 1e13f);
	rc |= save(argv[1], "mlod_sp3x.p3d", &b);
	t_w3d_free(&b);
	t_w3d_init(&b);
	t_p3d_mlod_begin(&b, 2);
	t_p3d_sp3x_lod(&b, QUAD, 4, QUAD, 4, FACES, NULL, 2, 1.0f);
	t_p3d_mlod_lod(&b, QUAD, 4, QUAD, 4, FACES, 2, 1e13f);
	rc |= save(argv[1], "mlod_mixed.p3d", &b);
	t_w3d_free(&b);
	return rc;
}
