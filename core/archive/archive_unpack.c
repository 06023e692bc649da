/* archive_unpack.c - one entry's bytes as the game reads them
 * (archive.h wl_archive_unpack): stored ones copied, LZSS-packed PBO
 * entries unpacked (core/lzss.h) within the ratio an LZSS stream allows. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lzss.h"
#include "archive.h"

int wl_archive_unpack(const wl_archive_entry *e, const uint8_t *in, uint8_t **out, char *why, size_t why_cap)
{
	*out = NULL;
	if (e->method != WL_PBO_METHOD_NONE && !e->packed) {
		snprintf(why, why_cap, "packing method 0x%08lX is not known", (unsigned long)e->method);
		return -1;
	}
	if (e->packed && e->size > e->stored * WL_LZSS_MAX_RATIO) {
		snprintf(why, why_cap, "%llu bytes unpacked cannot come from %llu packed bytes",
			 (unsigned long long)e->size, (unsigned long long)e->stored);
		return -1;
	}
	if (e->size > SIZE_MAX - 1) {
		snprintf(why, why_cap, "out of memory");
		return -1;
	}
	uint8_t *p = malloc(e->size ? (size_t)e->size : 1);
	if (!p) {
		snprintf(why, why_cap, "out of memory");
		return -1;
	}
	if (!e->packed) {
		memcpy(p, in, (size_t)e->size);
		*out = p;
		return 0;
	}
	size_t used = 0;
	wl_lzss_result rc = wl_lzss_decode(in, (size_t)e->stored, p, (size_t)e->size, &used);
	if (rc != WL_LZSS_OK) {
		snprintf(why, why_cap, "%s",
			 rc == WL_LZSS_CUT ? "the LZSS stream ends before its output is complete"
			 : rc == WL_LZSS_BAD ? "the LZSS stream holds a pointer of distance 0"
					     : "the LZSS checksum does not match the unpacked bytes");
		free(p);
		return -1;
	}
	*out = p;
	return 0;
}
