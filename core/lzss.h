/*
 * lzss.h - Bohemia Interactive's LZSS, shared by the P3D reader (ODOL
 * arrays below v44, core/p3d/p3d_compress.h) and the PBO reader (entries
 * packed with method 'Cprs', core/archive/).
 *
 * Sources: BI wiki "Compressed LZSS File Format"; "PBO File Format"
 * §Compression (the same stream, with the same checksum, per entry).
 *
 * Stream: a flag byte whose bits, low first, say literal (1: one byte) or
 * pointer (0: two bytes b0 b1, distance = b0 | (b1 & 0xF0) << 4 back from
 * the current output position, length = (b1 & 0x0F) + 3; bytes before the
 * start of the output read as 0x20, a space).  After the output: a u32
 * little-endian checksum, the sum of the output bytes taken unsigned or
 * signed (either is accepted: the wiki's readers differ).  Pointers reach
 * 18 bytes from 2, so 17 input bytes (a flag byte and 8 pointers) give at
 * most 144 output bytes: WL_LZSS_MAX_RATIO bounds what a stream can hold.
 */
#ifndef WL_LZSS_H
#define WL_LZSS_H

#include <stddef.h>
#include <stdint.h>

/* Most output bytes per input byte (144 / 17, rounded up). */
#define WL_LZSS_MAX_RATIO 9

typedef enum wl_lzss_result {
	WL_LZSS_OK = 0,
	WL_LZSS_CUT,      /* the input ended before the output (or checksum) was complete */
	WL_LZSS_BAD,      /* a pointer of distance 0 */
	WL_LZSS_CHECKSUM  /* the output is full but the checksum matches neither sum */
} wl_lzss_result;

/**
 * Decodes exactly out_len bytes from in[0..in_len) into out, then reads the
 * checksum.  A run past out_len is cut at out_len.  *consumed: input bytes
 * used, checksum included (on failure: up to where decoding stopped).
 */
wl_lzss_result wl_lzss_decode(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len, size_t *consumed);

#endif
