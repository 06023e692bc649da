/* archbuild.c - BIG and PBO archives for tests (archbuild.h). */
#include "archbuild.h"

#include <nettle/sha1.h>
#include <nettle/version.h>
#include <stdlib.h>
#include <string.h>

#include "p3dbuild_mlod.h"

void ab_patch_be32(wb *b, size_t offset, uint32_t v)
{
	b->data[offset] = (uint8_t)(v >> 24);
	b->data[offset + 1] = (uint8_t)(v >> 16);
	b->data[offset + 2] = (uint8_t)(v >> 8);
	b->data[offset + 3] = (uint8_t)v;
}

void ab_big(wb *b, const char *magic, const ab_entry *e, size_t n, ab_layout *at)
{
	memset(at, 0, sizeof *at);
	wb_bytes(b, magic, 4);
	wb_zeros(b, 12);
	size_t table = 16;
	for (size_t i = 0; i < n; i++)
		table += 8 + strlen(e[i].name) + 1;
	ab_patch_be32(b, 8, (uint32_t)n);
	ab_patch_be32(b, 12, (uint32_t)table);
	size_t data = table;
	for (size_t i = 0; i < n; i++) {
		at->record[i] = b->len;
		at->data[i] = data;
		wb_zeros(b, 8);
		ab_patch_be32(b, at->record[i], (uint32_t)data);
		ab_patch_be32(b, at->record[i] + 4, (uint32_t)e[i].len);
		wb_bytes(b, e[i].name, strlen(e[i].name) + 1);
		data += e[i].len;
	}
	for (size_t i = 0; i < n; i++)
		wb_bytes(b, e[i].data, e[i].len);
	wb_patch_u32(b, 4, (uint32_t)b->len);
}

void ab_pbo_rehash(wb *b, const ab_layout *at)
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

void ab_pbo(wb *b, const char *prefix, const ab_entry *e, size_t n, bool trailer, ab_layout *at)
{
	memset(at, 0, sizeof *at);
	uint8_t *packed[64] = { 0 };
	size_t plen[64] = { 0 };
	wb_u8(b, 0);
	wb_bytes(b, "sreV", 4);
	wb_zeros(b, 16);
	if (prefix) {
		wb_bytes(b, "prefix", 7);
		wb_bytes(b, prefix, strlen(prefix) + 1);
	}
	wb_u8(b, 0);
	for (size_t i = 0; i < n; i++) {
		plen[i] = e[i].len;
		if (e[i].pack) {
			packed[i] = malloc(2 * e[i].len + 16);
			if (!packed[i])
				abort();
			plen[i] = p3b_lzss_encode(e[i].data, e[i].len, packed[i]);
		}
		at->record[i] = b->len;
		wb_bytes(b, e[i].name, strlen(e[i].name) + 1);
		wb_u32(b, e[i].pack ? 0x43707273u : 0);
		wb_u32(b, e[i].pack ? (uint32_t)e[i].len : 0);
		wb_u32(b, 0);
		wb_u32(b, 0x5F000000u); /* timestamp */
		wb_u32(b, (uint32_t)plen[i]);
	}
	wb_zeros(b, 21); /* the end record: empty path, five zeros */
	for (size_t i = 0; i < n; i++) {
		at->data[i] = b->len;
		wb_bytes(b, packed[i] ? packed[i] : e[i].data, plen[i]);
		free(packed[i]);
	}
	if (trailer) {
		at->trailer = b->len;
		wb_zeros(b, 21);
		ab_pbo_rehash(b, at);
	}
}
