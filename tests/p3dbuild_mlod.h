/*
 * p3dbuild_mlod.h - more P3D test builders (beside p3dbuild.h): BI's LZSS
 * encoder (for ODOL below v44), used by p3dbuild.c and the fuzz seeds
 * (tests/gen_p3d_seeds.c).  Little endian; allocation failures abort.
 */
#ifndef P3DBUILD_MLOD_H
#define P3DBUILD_MLOD_H

#include <stddef.h>
#include <stdint.h>

#include "p3dbuild.h"

/**
 * A greedy BI LZSS encoder (format in core/p3d/p3d_compress.h): matches of
 * 3..18 bytes at distances 1..4095, then the unsigned byte-sum checksum.
 * out has room for 2 * n + 16 bytes; returns the encoded length.
 */
size_t p3b_lzss_encode(const uint8_t *in, size_t n, uint8_t *out);

#endif
