/*
 * gen_scale.c - writes one input of the size-scaling bench
 * (tests/bench_scale.sh), built here, never taken from a corpus:
 *
 *   w3d-zeros   SIZE zero bytes (an empty W3D MESH every 8 bytes)
 *   w3d-empty   one W3D MESH holding empty VERTICES chunks (8 bytes each)
 *   w3d-hlod    one W3D HLOD whose LOD array holds SUB_OBJECTs (44 bytes
 *               each, names SUB00000000 ...)
 *   b3d-zeros   "BB3D", its size, version 1, then zeros
 *   b3d-empty   BB3D holding empty NODE chunks (8 bytes each)
 *   p3d-zeros   "ODOL", version 73, then zeros
 *   p3d-lzo     ODOL v73 of 16 LODs, each with one LZO1X-compressed block
 *               of positions (noise: they barely compress)
 *
 * each about SIZE bytes.  Usage: gen_scale KIND SIZE OUTFILE
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/w3d_format.h"
#include "tests/build/p3dbuild.h"
#include "tests/build/w3dbuild.h"

static void zeros_after(wb *b, size_t size)
{
	if (size > b->len)
		t_w3d_zeros(b, size - b->len);
}

static int build(wb *b, const char *kind, size_t size)
{
	if (strcmp(kind, "w3d-zeros") == 0) {
		zeros_after(b, size);
	} else if (strcmp(kind, "w3d-empty") == 0) {
		t_w3d_begin(b, W3D_CHUNK_MESH);
		while (b->len + 8 <= size)
			t_w3d_chunk(b, W3D_CHUNK_VERTICES, NULL, 0);
		t_w3d_end(b);
	} else if (strcmp(kind, "w3d-hlod") == 0) {
		t_w3d_begin_header(b, W3D_CHUNK_HLOD, W3D_CHUNK_HLOD_HEADER, NULL, 0x00010000u, 1, "BIG", "BIGSKL");
		t_w3d_end(b);
		t_w3d_begin(b, W3D_CHUNK_HLOD_LOD_ARRAY);
		size_t n = size > 100 ? (size - 100) / 44 : 1;
		t_w3d_hlod_array_header(b, (uint32_t)n, 0);
		for (size_t i = 0; i < n; i++) {
			char name[32];
			snprintf(name, sizeof name, "SUB%08zu", i);
			t_w3d_hlod_sub_object(b, 0, name);
		}
		t_w3d_end(b);
		t_w3d_end(b);
	} else if (strcmp(kind, "b3d-zeros") == 0 || strcmp(kind, "b3d-empty") == 0) {
		t_w3d_bytes(b, "BB3D", 4);
		t_w3d_u32(b, 0); /* patched below */
		t_w3d_u32(b, 1);
		if (kind[4] == 'e')
			while (b->len + 8 <= size) {
				t_w3d_bytes(b, "NODE", 4);
				t_w3d_u32(b, 0);
			}
		else
			zeros_after(b, size);
		t_w3d_patch_u32(b, 4, (uint32_t)(b->len - 8));
	} else if (strcmp(kind, "p3d-zeros") == 0) {
		t_w3d_bytes(b, "ODOL", 4);
		t_w3d_u32(b, 73);
		zeros_after(b, size);
	} else if (strcmp(kind, "p3d-lzo") == 0) {
		uint32_t nv = (uint32_t)(size / 16 / 12);
		float(*pos)[3] = malloc((size_t)nv * sizeof *pos);
		if (!pos)
			return -1;
		srand(7);
		for (uint32_t i = 0; i < nv; i++)
			for (int k = 0; k < 3; k++)
				pos[i][k] = (float)rand() / (float)RAND_MAX;
		t_p3d_lod lods[16];
		float res[16];
		memset(lods, 0, sizeof lods);
		for (int l = 0; l < 16; l++) {
			lods[l].nverts = nv;
			lods[l].pos = (const float(*)[3])pos;
			lods[l].compress = 1;
			res[l] = (float)(l + 1);
		}
		t_p3d_layout lay;
		t_p3d_odol(b, 73, 16, res, lods, 0, &lay);
		free(pos);
	} else {
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char *end;
	if (argc != 4 || (strtoull(argv[2], &end, 10), *end)) {
		fprintf(stderr, "usage: gen_scale KIND SIZE OUTFILE\n");
		return 2;
	}
	size_t size = (size_t)strtoull(argv[2], NULL, 10);
	wb b;
	t_w3d_init(&b);
	if (build(&b, argv[1], size)) {
		fprintf(stderr, "gen_scale: unknown kind '%s' (or out of memory)\n", argv[1]);
		return 2;
	}
	FILE *f = fopen(argv[3], "wb");
	if (!f || fwrite(b.data, 1, b.len, f) != b.len || fclose(f) != 0) {
		fprintf(stderr, "gen_scale: %s: %s\n", argv[3], strerror(errno));
		return 2;
	}
	t_w3d_free(&b);
	return 0;
}
