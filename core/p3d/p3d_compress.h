/*
 * p3d_compress.h - the compressed arrays of ODOL files: BI's LZSS (below
 * v44), LZO1X (v44 and later, through liblzo2), the 1024-byte rule and the
 * per-array flag byte (v64 and later).
 *
 * Sources: BI wiki "Compressed LZSS File Format" and "Compressed LZO File
 * Format"; ../shared/notes/p3d_reference.md §4 (jetelain BinaryReaderEx
 * ReadCompressed, arma-file-formats-rs decompress_data).  Neither kind of
 * block has a compressed-size prefix: the decoded size is known from the
 * element count, the compressed size only after decoding.
 *
 * Compressible array at a file offset, for count elements of elem bytes
 * (expected = count * elem):
 *   expected == 0            nothing is stored (no flag byte either)
 *   v >= 64                  a flag byte: 0 raw, else compressed
 *   v < 64                   compressed iff expected >= 1024 (the wiki's
 *                            "> 1023" and arma-file-formats-rs's current
 *                            decompress_data; one older revision of it
 *                            used > 1024: they differ only at exactly 1024
 *                            bytes; the corpus walks with >= 1024)
 *   compressed, v < 44       BI LZSS stream + u32 checksum
 *   compressed, v >= 44      an LZO1X stream
 */
#ifndef P3D_COMPRESS_H
#define P3D_COMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decode results. */
typedef enum p3d_dec {
	P3D_DEC_OK = 0,
	P3D_DEC_CUT,       /* the input ended before the output was full */
	P3D_DEC_BAD,       /* the stream is invalid (a pointer before the
	                    * start, an LZO error) or decodes to a size other
	                    * than expected */
	P3D_DEC_CHECKSUM   /* LZSS: the output is full but the checksum after
	                    * it matches neither byte-sum variant */
} p3d_dec;

/** "ok", "cut", "bad", "checksum". */
const char *p3d_dec_name(p3d_dec r);

/**
 * BI LZSS: core/lzss.h wl_lzss_decode (format, checksum, *consumed), its
 * results mapped to p3d_dec (WL_LZSS_CUT -> P3D_DEC_CUT and so on).
 */
p3d_dec p3d_lzss_decode(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
			size_t *consumed);

/**
 * The length in bytes of the LZO1X stream at the start of in[0..in_len),
 * end marker included, found by walking its instructions once without
 * decoding (0 when the input ends before the end marker).  Stream format
 * (liblzo2 doc/LZO.TXT and lzo1x_d.ch; Linux Documentation/staging/lzo.rst):
 * a first byte above 17 is a run of byte - 17 literals; then each
 * instruction byte t is
 *   t < 16 after a match with state 0, or first: literals, t + 3 of them
 *          (t == 0: a length extension, each 0 byte adds 255, the first
 *          non-zero byte b adds 15 + b);
 *   t < 16 otherwise: an M1 match, 1 distance byte;
 *   t >= 64: M2, 1 distance byte;  t >= 32: M3, length t & 31 (0: an
 *          extension as above, base 31), 2 distance bytes;
 *   t >= 16: M4, length t & 7 (0: extension, base 7), 2 distance bytes;
 *          with bit 3 of t clear and distance bits 0 it ends the stream;
 * after each match, the low 2 bits of the byte two before the current
 * position give 0-3 literals that follow it (the state).
 */
size_t p3d_lzo_stream_length(const uint8_t *in, size_t in_len);

/**
 * LZO1X: decodes exactly out_len bytes from the start of in[0..in_len)
 * with one call of liblzo2's lzo1x_decompress_safe over exactly the
 * stream's bytes (p3d_lzo_stream_length; liblzo2 does not return the bytes
 * it consumed).  When the input ends before the end marker the one call is
 * over all of in instead: P3D_DEC_CUT when liblzo2 overruns the input,
 * else P3D_DEC_BAD (invalid before that point).  P3D_DEC_BAD when liblzo2 rejects the stream or
 * it decodes to a size other than out_len.  *consumed set on P3D_DEC_OK.
 */
p3d_dec p3d_lzo_decode(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
		       size_t *consumed);

/** One compressible array as stored (see above). */
typedef struct p3d_block {
	uint64_t offset;      /* file offset of the block (its flag byte, if any) */
	uint64_t length;      /* bytes of the block in the file (flag, stream,
	                       * checksum), when known */
	bool compressed;
	p3d_dec result;
	const uint8_t *data;  /* the expected bytes decoded (out) or in place
	                       * (raw); NULL unless result is P3D_DEC_OK */
} p3d_block;

/**
 * Reads the array at file[pos..) of count x elem bytes per version; out
 * has room for count x elem bytes (used only when compressed).  false with
 * b->result set when the array cannot be read (its raw bytes run past the
 * end: P3D_DEC_CUT).
 */
bool p3d_read_block(const uint8_t *file, uint64_t size, uint64_t pos, uint32_t version,
		    uint64_t count, uint32_t elem, uint8_t *out, p3d_block *b);

#endif
