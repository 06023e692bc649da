/* archbuild.c - BIG and PBO archives for tests (archbuild.h). */
#include "archbuild.h"

#include <nettle/sha1.h>
#include <nettle/version.h>
#include <stdlib.h>
#include <string.h>

#include "p3dbuild_mlod.h"

void t_arc_patch_be32(wb *b, size_t offset, uint32_t v)
{
	b->data[offset] = (uint8_t)(v >> 24);
	b->data[offset + 1] = (uint8_t)(v >> 16);
	b->data[offset + 2] = (uint8_t)(v >> 8);
	b->data[offset + 3] = (uint8_t)v;
}

void t_arc_big(wb *b, const char *magic, const t_arc_entry *e, size_t n, t_arc_layout *at)
{
	if (at)
		memset(at, 0, sizeof *at);
	t_w3d_bytes(b, magic, 4);
	t_w3d_zeros(b, 12);
	size_t table = 16;
	for (size_t i = 0; i < n; i++)
		table += 8 + strlen(e[i].name) + 1;
	t_arc_patch_be32(b, 8, (uint32_t)n);
	t_arc_patch_be32(b, 12, (uint32_t)table);
	size_t data = table;
	for (size_t i = 0; i < n; i++) {
		size_t record = b->len;
		if (at) {
			at->record[i] = record;
			at->data[i] = data;
		}
		t_w3d_zeros(b, 8);
		t_arc_patch_be32(b, record, (uint32_t)data);
		t_arc_patch_be32(b, record + 4, (uint32_t)e[i].len);
		t_w3d_bytes(b, e[i].name, strlen(e[i].name) + 1);
		data += e[i].len;
	}
	for (size_t i = 0; i < n; i++)
		t_w3d_bytes(b, e[i].data, e[i].len);
	t_w3d_patch_u32(b, 4, (uint32_t)b->len);
}

void t_arc_pbo_rehash(wb *b, const t_arc_layout *at)
{
	struct sha1_ctx c;
	sha1_init(&c);
	sha1_update(&c, at->trailer, b->data);
#if NETTLE_VERSION_MAJOR > 3 || (NETTLE_VERSION_MAJOR == 3 && NETTLE_VERSION_MINOR >= 10)
	sha1_digest(&c, b->data + at->trailer + 1);
#else
	sha1_digest(&c, SHA1_DIGEST_SIZE, b->data + at->trailer + 1);
#endif
}

void t_arc_pbo(wb *b, const char *prefix, const t_arc_entry *e, size_t n, bool trailer, t_arc_layout *at)
{
	if (at)
		memset(at, 0, sizeof *at);
	uint8_t **packed = calloc(n ? n : 1, sizeof *packed);
	size_t *plen = calloc(n ? n : 1, sizeof *plen);
	if (!packed || !plen)
		abort();
	t_w3d_u8(b, 0);
	t_w3d_bytes(b, "sreV", 4);
	t_w3d_zeros(b, 16);
	if (prefix) {
		t_w3d_bytes(b, "prefix", 7);
		t_w3d_bytes(b, prefix, strlen(prefix) + 1);
	}
	t_w3d_u8(b, 0);
	for (size_t i = 0; i < n; i++) {
		plen[i] = e[i].len;
		if (e[i].pack) {
			packed[i] = malloc(2 * e[i].len + 16);
			if (!packed[i])
				abort();
			plen[i] = t_p3d_lzss_encode(e[i].data, e[i].len, packed[i]);
		}
		if (at)
			at->record[i] = b->len;
		t_w3d_bytes(b, e[i].name, strlen(e[i].name) + 1);
		t_w3d_u32(b, e[i].pack ? 0x43707273u : 0);
		t_w3d_u32(b, e[i].pack ? (uint32_t)e[i].len : 0);
		t_w3d_u32(b, 0);
		t_w3d_u32(b, 0x5F000000u); /* timestamp */
		t_w3d_u32(b, (uint32_t)plen[i]);
	}
	t_w3d_zeros(b, 21); /* the end record: empty path, five zeros */
	for (size_t i = 0; i < n; i++) {
		if (at)
			at->data[i] = b->len;
		t_w3d_bytes(b, packed[i] ? packed[i] : e[i].data, plen[i]);
		free(packed[i]);
	}
	free(packed);
	free(plen);
	if (trailer) {
		t_arc_layout here = { .trailer = b->len };
		t_w3d_zeros(b, 21);
		t_arc_pbo_rehash(b, &here);
		if (at)
			at->trailer = here.trailer;
	}
}
