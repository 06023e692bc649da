/* p3dbuild_mlod.c - more P3D test builders (p3dbuild_mlod.h). */
#include "p3dbuild_mlod.h"

#include <stdlib.h>
#include <string.h>

size_t t_p3d_lzss_encode(const uint8_t *in, size_t n, uint8_t *out)
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


void t_p3d_mlod_head(wb *b, const char *sig, uint32_t minor, const float (*pts)[3], uint32_t np,
		   const float (*nrm)[3], uint32_t nn, uint32_t nf)
{
	t_w3d_bytes(b, sig, 4);
	t_w3d_u32(b, 0x1C);
	t_w3d_u32(b, minor);
	t_w3d_u32(b, np);
	t_w3d_u32(b, nn);
	t_w3d_u32(b, nf);
	t_w3d_u32(b, 0);
	for (uint32_t i = 0; i < np; i++) {
		t_w3d_vec3(b, pts[i][0], pts[i][1], pts[i][2]);
		t_w3d_u32(b, 0);
	}
	for (uint32_t i = 0; i < nn; i++)
		t_w3d_vec3(b, nrm[i][0], nrm[i][1], nrm[i][2]);
}

/* A 64-byte SP3X tag name and its size. */
static void sp3x_tag(wb *b, const char *name, uint32_t size)
{
	t_w3d_name(b, name, 64);
	t_w3d_u32(b, size);
	t_w3d_zeros(b, size);
}

size_t t_p3d_sp3x_lod(wb *b, const float (*pts)[3], uint32_t np, const float (*nrm)[3], uint32_t nn,
		    const t_p3d_face *faces, const float (*uv)[2], uint32_t nf, float resolution)
{
	t_p3d_mlod_head(b, "SP3X", 0x99, pts, np, nrm, nn, nf);
	size_t first = b->len;
	for (uint32_t f = 0; f < nf; f++) {
		t_w3d_name(b, "tex", 32);
		t_w3d_u32(b, faces[f].n);
		for (int k = 0; k < 4; k++) {
			t_w3d_u32(b, faces[f].idx[k]);
			t_w3d_u32(b, faces[f].idx[k]);
			t_w3d_f32(b, uv ? uv[k][0] : 0);
			t_w3d_f32(b, uv ? uv[k][1] : 0);
		}
		t_w3d_u32(b, 0);
	}
	t_w3d_bytes(b, "TAGG", 4);
	sp3x_tag(b, "#Mass#", 4);
	sp3x_tag(b, "#EndOfFile#", 0);
	t_w3d_f32(b, resolution);
	return first;
}

static void material_stage(wb *b, uint32_t mv)
{
	t_w3d_u32(b, 3);
	t_w3d_bytes(b, "t.paa", 6);
	t_w3d_u32(b, 0);
	if (mv >= 11)
		t_w3d_u8(b, 0);
}

void t_p3d_material(wb *b, uint32_t mv, const char *surface, uint32_t nstages, uint32_t ntexgens)
{
	t_w3d_bytes(b, "m.rvmat", 8);
	t_w3d_u32(b, mv);
	t_w3d_zeros(b, 6 * 16 + 4 + (mv == 16 ? 56 : 0)); /* colours, power */
	t_w3d_u32(b, 102);  /* pixel shader, vertex shader, main light, fog */
	t_w3d_u32(b, 23);
	t_w3d_u32(b, 1);
	t_w3d_u32(b, 1);
	t_w3d_bytes(b, surface, strlen(surface) + 1);
	t_w3d_u32(b, 1);    /* render flags */
	t_w3d_u32(b, 0);
	t_w3d_u32(b, nstages);
	t_w3d_u32(b, ntexgens);
	for (uint32_t i = 0; i < nstages; i++)
		material_stage(b, mv);
	for (uint32_t i = 0; i < ntexgens; i++) {
		t_w3d_u32(b, 1);
		for (int k = 0; k < 12; k++)
			t_w3d_f32(b, k % 4 == 0 ? 1.0f : 0.0f);
	}
	material_stage(b, mv);
}
