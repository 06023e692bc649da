/* p3dbuild.c - the P3D test builder (p3dbuild.h). */
#include "p3dbuild.h"
#include "p3dbuild_info.h"
#include "p3dbuild_mlod.h"

#include <lzo/lzo1x.h>
#include <stdlib.h>
#include <string.h>

const float T_P3D_UP[64][3] = {
#define UP4 { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 }
#define UP16 UP4, UP4, UP4, UP4
	UP16, UP16, UP16, UP16
#undef UP16
#undef UP4
};

static void u32s(wb *b, int n)
{
	for (int i = 0; i < n; i++)
		t_w3d_u32(b, 0);
}

/* A condensed array of n elements of elem bytes: filled with one zero
 * element (empty when n is 0). */
static void condensed(wb *b, uint32_t n, uint32_t elem)
{
	t_w3d_u32(b, n);
	t_w3d_u8(b, n ? 1 : 0);
	if (n)
		t_w3d_zeros(b, elem);
}

void t_p3d_block(wb *b, uint32_t v, const void *raw, size_t n, int compress)
{
	if (!n)
		return;
	if (v >= 64)
		t_w3d_u8(b, compress ? 1 : 0);
	if (v < 44 && n >= 1024) {
		/* Below v44 the engine's compression is BI LZSS. */
		uint8_t *out = malloc(2 * n + 16);
		t_w3d_bytes(b, out, t_p3d_lzss_encode(raw, n, out));
		free(out);
	} else if (compress == 1 || (v < 64 && n >= 1024)) {
		uint8_t *out = malloc(n + n / 16 + 64 + 3);
		void *wrk = malloc(LZO1X_1_MEM_COMPRESS);
		lzo_uint len = 0;
		lzo_init();
		lzo1x_1_compress(raw, n, out, &len, wrk);
		t_w3d_bytes(b, out, len);
		free(out);
		free(wrk);
	} else if (compress == 2) {
		for (size_t i = 0; i < 40; i++)
			t_w3d_u8(b, 0xFF);
	} else {
		t_w3d_bytes(b, raw, n);
	}
}

/* The positions block of l (count first). */
static void positions(wb *b, uint32_t v, const t_p3d_lod *l)
{
	t_w3d_u32(b, l->nverts);
	if (!l->nverts)
		return;
	size_t n = 12u * l->nverts;
	uint8_t *raw = malloc(n);
	for (uint32_t i = 0; i < l->nverts; i++)
		for (int k = 0; k < 3; k++) {
			float f = l->pos[i][k];
			memcpy(raw + 12u * i + 4u * (unsigned)k, &f, 4);
		}
	t_p3d_block(b, v, raw, n, l->compress);
	free(raw);
}

/* One LOD's structure (p3dbuild.h). */
static void lod_body(wb *b, uint32_t v, const t_p3d_lod *l, size_t *faces, size_t *pos,
		     size_t *rest)
{
	u32s(b, 3); /* proxies, items, bone links */
	if (v >= 50)
		t_w3d_u32(b, l->nverts);
	else
		condensed(b, l->nverts, 4);
	if (v >= 51)
		t_w3d_f32(b, 1.0f);
	u32s(b, 2 + 10 + 1); /* hints, bounds, textures */
	t_w3d_u32(b, l->nmats);
	if (l->mats_len)
		t_w3d_bytes(b, l->mats, l->mats_len);
	u32s(b, 2);          /* edges */
	t_w3d_u32(b, l->nfaces);
	size_t alloc = b->len;
	t_w3d_u32(b, 0); /* the allocation, set below */
	t_w3d_u16(b, 0);
	*faces = b->len;
	uint32_t isz = v >= 69 ? 4 : 2, bytes = 0;
	for (uint32_t f = 0; f < l->nfaces; f++) {
		bytes += (1 + l->faces[f].n) * isz;
		t_w3d_u8(b, (uint8_t)l->faces[f].n);
		for (uint32_t k = 0; k < l->faces[f].n; k++) {
			uint32_t x = l->faces[f].idx[k & 3];
			if (v >= 69)
				t_w3d_u32(b, x);
			else
				t_w3d_u16(b, (uint16_t)x);
		}
	}
	t_w3d_patch_u32(b, alloc, bytes);
	/* one section over every face: no texture, its material named "" */
	t_w3d_u32(b, l->nfaces ? 1 : 0);
	if (l->nfaces) {
		t_w3d_u32(b, 0);
		t_w3d_u32(b, bytes);
		u32s(b, 3);
		t_w3d_u16(b, 0xFFFF);
		t_w3d_u32(b, 0);
		t_w3d_u32(b, UINT32_MAX);
		t_w3d_u8(b, 0);
		if (v >= 36)
			t_w3d_u32(b, 0);
		if (v >= 67)
			t_w3d_u32(b, 0);
	}
	u32s(b, 3 + 3); /* selections .. frames; colours, special */
	t_w3d_u8(b, 1);
	*rest = b->len;
	t_w3d_u32(b, 0); /* sizeOfRestData, set below */
	if (v >= 50)
		condensed(b, l->nverts, 4);
	if (v >= 45)
		u32s(b, 4);
	condensed(b, l->nverts, v >= 45 ? 4 : 8);
	t_w3d_u32(b, 1); /* one UV set */
	*pos = b->len;
	positions(b, v, l);
	condensed(b, l->nverts, v >= 45 ? 4 : 12);
	u32s(b, 3);
	if (v >= 67)
		t_w3d_u32(b, 0);
	if (v >= 68)
		t_w3d_u8(b, 0);
	for (uint32_t i = 0; i < l->pad; i++)
		t_w3d_u8(b, 0xEE);
	t_w3d_patch_u32(b, *rest, (uint32_t)(v >= 68 ? b->len - *rest - 5 : b->len - *rest));
}

void t_p3d_odol(wb *b, uint32_t version, uint32_t n, const float *res, const t_p3d_lod *lods,
	      size_t tail, t_p3d_layout *out)
{
	static const t_p3d_lod empty;
	memset(out, 0, sizeof *out);
	t_w3d_bytes(b, "ODOL", 4);
	out->version = b->len;
	t_w3d_u32(b, version);
	out->reserved = b->len;
	if (version >= 75) {
		t_w3d_u32(b, 0);
		t_w3d_u32(b, 0);
	}
	if (version >= 59)
		t_w3d_u32(b, 0);
	if (version >= 58)
		t_w3d_u8(b, 0);
	out->nlods = b->len;
	t_w3d_u32(b, n);
	out->res = b->len;
	for (uint32_t i = 0; i < n; i++)
		t_w3d_f32(b, res[i]);
	t_p3dinfo_modelinfo(b, version, n, t_p3dinfo_next);
	t_p3dinfo_next = NULL;
	out->table = b->len;
	t_w3d_zeros(b, 9u * n);
	for (uint32_t i = 0; i < n && i < 16; i++) {
		out->lod[i] = b->len;
		if (lods && lods[i].body)
			t_w3d_bytes(b, lods[i].body, lods[i].body_len);
		else
			lod_body(b, version, lods ? &lods[i] : &empty, &out->faces[i],
				 &out->positions[i], &out->rest[i]);
		out->lod_end[i] = b->len;
		t_w3d_patch_u32(b, out->table + 4u * i, (uint32_t)out->lod[i]);
		t_w3d_patch_u32(b, out->table + 4u * (n + i), (uint32_t)out->lod_end[i]);
		b->data[out->table + 8u * n + i] = 1;
	}
	out->tail = b->len;
	for (size_t i = 0; i < tail; i++)
		t_w3d_u8(b, 0xDD);
}

void t_p3d_mlod_begin(wb *b, uint32_t n)
{
	t_w3d_bytes(b, "MLOD", 4);
	t_w3d_u32(b, 257);
	t_w3d_u32(b, n);
}

size_t t_p3d_mlod_lod(wb *b, const float (*pts)[3], uint32_t np, const float (*nrm)[3], uint32_t nn,
		    const t_p3d_face *faces, uint32_t nf, float resolution)
{
	return t_p3d_mlod_lod_tags(b, pts, np, nrm, nn, faces, nf, NULL, 0, NULL, resolution);
}

size_t t_p3d_mlod_lod_tags(wb *b, const float (*pts)[3], uint32_t np, const float (*nrm)[3],
			 uint32_t nn, const t_p3d_face *faces, uint32_t nf, const t_p3d_tag *tags,
			 uint32_t n, size_t *tag_at, float resolution)
{
	t_p3d_mlod_head(b, "P3DM", 0x100, pts, np, nrm, nn, nf);
	size_t first = b->len;
	for (uint32_t f = 0; f < nf; f++) {
		t_w3d_u32(b, faces[f].n);
		for (int k = 0; k < 4; k++) {
			t_w3d_u32(b, faces[f].idx[k]);
			t_w3d_u32(b, faces[f].idx[k]);
			t_w3d_f32(b, 0);
			t_w3d_f32(b, 0);
		}
		t_w3d_u32(b, 0);
		const char *t = faces[f].texture ? faces[f].texture : "";
		const char *m = faces[f].material ? faces[f].material : "";
		t_w3d_bytes(b, t, strlen(t) + 1);
		t_w3d_bytes(b, m, strlen(m) + 1);
	}
	t_w3d_bytes(b, "TAGG", 4);
	for (uint32_t i = 0; i < n; i++) {
		if (tag_at)
			tag_at[i] = b->len;
		t_w3d_u8(b, 1);
		t_w3d_bytes(b, tags[i].name, strlen(tags[i].name) + 1);
		t_w3d_u32(b, tags[i].size);
		t_w3d_bytes(b, tags[i].data, tags[i].size);
	}
	t_w3d_u8(b, 1);
	t_w3d_bytes(b, "#EndOfFile#", 12);
	t_w3d_u32(b, 0);
	t_w3d_f32(b, resolution);
	return first;
}

/* One P3DM LOD of a triangle with a 12-byte "#UVSet#" tag before
 * #EndOfFile# whose size field says 12 + delta. */
static void uv_lod(wb *b, int32_t delta)
{
	static const float pts[3][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } };
	static const float nrm[3][3] = { { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 } };
	static const t_p3d_face tri[1] = { { 3, { 0, 1, 2, 0 } } };
	uint8_t data[12] = { 0 };
	t_p3d_tag tag = { "#UVSet#", data, 12 };
	size_t at;
	t_p3d_mlod_lod_tags(b, pts, 3, nrm, 3, tri, 1, &tag, 1, &at, 1.0f);
	t_w3d_patch_u32(b, at + 1 + 8, (uint32_t)(12 + delta));
}

void t_p3d_uv_file(wb *b, uint32_t n, const int32_t *deltas)
{
	t_w3d_init(b);
	t_p3d_mlod_begin(b, n);
	for (uint32_t i = 0; i < n; i++)
		uv_lod(b, deltas[i]);
}
