/* p3dbuild_mlod.c - more P3D test builders (p3dbuild_mlod.h). */
#include "p3dbuild_mlod.h"

#include <stdlib.h>
#include <string.h>

size_t p3b_lzss_encode(const uint8_t *in, size_t n, uint8_t *out)
{
	size_t ip = 0, op = 0;
	uint32_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += in[i];
	while (ip < n) {
		size_t flag_at = op++;
		uint8_t flags = 0;
		for (int bit = 0; bit < 8 && ip < n; bit++) {
			size_t best = 0, dist = 0;
			for (size_t d = 1; d <= 4095 && d <= ip; d++) {
				size_t l = 0;
				while (l < 18 && ip + l < n && in[ip + l] == in[ip + l - d])
					l++;
				if (l > best) {
					best = l;
					dist = d;
				}
			}
			if (best >= 3) {
				out[op++] = (uint8_t)(dist & 0xFF);
				out[op++] = (uint8_t)(((dist >> 4) & 0xF0) | (best - 3));
				ip += best;
			} else {
				flags |= (uint8_t)(1u << bit);
				out[op++] = in[ip++];
			}
		}
		out[flag_at] = flags;
	}
	out[op++] = (uint8_t)sum;
	out[op++] = (uint8_t)(sum >> 8);
	out[op++] = (uint8_t)(sum >> 16);
	out[op++] = (uint8_t)(sum >> 24);
	return op;
}


void p3b_mlod_head(wb *b, const char *sig, uint32_t minor, const float (*pts)[3], uint32_t np,
		   const float (*nrm)[3], uint32_t nn, uint32_t nf)
{
	wb_bytes(b, sig, 4);
	wb_u32(b, 0x1C);
	wb_u32(b, minor);
	wb_u32(b, np);
	wb_u32(b, nn);
	wb_u32(b, nf);
	wb_u32(b, 0);
	for (uint32_t i = 0; i < np; i++) {
		wb_vec3(b, pts[i][0], pts[i][1], pts[i][2]);
		wb_u32(b, 0);
	}
	for (uint32_t i = 0; i < nn; i++)
		wb_vec3(b, nrm[i][0], nrm[i][1], nrm[i][2]);
}

/* A 64-byte SP3X tag name and its size. */
static void sp3x_tag(wb *b, const char *name, uint32_t size)
{
	wb_name(b, name, 64);
	wb_u32(b, size);
	wb_zeros(b, size);
}

size_t p3b_sp3x_lod(wb *b, const float (*pts)[3], uint32_t np, const float (*nrm)[3], uint32_t nn,
		    const p3b_face *faces, const float (*uv)[2], uint32_t nf, float resolution)
{
	p3b_mlod_head(b, "SP3X", 0x99, pts, np, nrm, nn, nf);
	size_t first = b->len;
	for (uint32_t f = 0; f < nf; f++) {
		wb_name(b, "tex", 32);
		wb_u32(b, faces[f].n);
		for (int k = 0; k < 4; k++) {
			wb_u32(b, faces[f].idx[k]);
			wb_u32(b, faces[f].idx[k]);
			wb_f32(b, uv ? uv[k][0] : 0);
			wb_f32(b, uv ? uv[k][1] : 0);
		}
		wb_u32(b, 0);
	}
	wb_bytes(b, "TAGG", 4);
	sp3x_tag(b, "#Mass#", 4);
	sp3x_tag(b, "#EndOfFile#", 0);
	wb_f32(b, resolution);
	return first;
}

static void material_stage(wb *b, uint32_t mv)
{
	wb_u32(b, 3);
	wb_bytes(b, "t.paa", 6);
	wb_u32(b, 0);
	if (mv >= 11)
		wb_u8(b, 0);
}

void p3b_material(wb *b, uint32_t mv, const char *surface, uint32_t nstages, uint32_t ntexgens)
{
	wb_bytes(b, "m.rvmat", 8);
	wb_u32(b, mv);
	wb_zeros(b, 6 * 16 + 4 + (mv == 16 ? 56 : 0)); /* colours, power */
	wb_u32(b, 102);  /* pixel shader, vertex shader, main light, fog */
	wb_u32(b, 23);
	wb_u32(b, 1);
	wb_u32(b, 1);
	wb_bytes(b, surface, strlen(surface) + 1);
	wb_u32(b, 1);    /* render flags */
	wb_u32(b, 0);
	wb_u32(b, nstages);
	wb_u32(b, ntexgens);
	for (uint32_t i = 0; i < nstages; i++)
		material_stage(b, mv);
	for (uint32_t i = 0; i < ntexgens; i++) {
		wb_u32(b, 1);
		for (int k = 0; k < 12; k++)
			wb_f32(b, k % 4 == 0 ? 1.0f : 0.0f);
	}
	material_stage(b, mv);
}
