/*
 * p3d_mlod.h - what the MLOD walk (p3d_mlod.c) and its strict, silent
 * twin for resynchronisation (p3d_mlod_scan.c) share: the layout sizes of
 * core/p3d/p3d.h's MLOD part and the bounded readers of a face and a tag
 * head.  Offsets are absolute in d's bytes; every read is checked against
 * d->size (nothing from the file is trusted); none reports a finding.
 */
#ifndef P3D_MLOD_H
#define P3D_MLOD_H

#include "p3d.h"

#define P3D_MLOD_HEADER 12u   /* MLOD, version, nLods */
#define P3D_MLOD_LODHEAD 28u  /* P3DM/SP3X, major, minor, 3 counts, flags */
#define P3D_MLOD_POINT 16u
#define P3D_MLOD_NORMAL 12u
#define P3D_MLOD_FACE 72u     /* nVerts, 4 x 16-byte vertex, flags */
#define P3D_MLOD_SP3X_TEX 32u /* SP3X: the face's fixed-size texture name */
#define P3D_MLOD_SP3X_TAG 64u /* SP3X: the tag's fixed-size name */
#define P3D_MLOD_EOF_TAG "#EndOfFile#"

/** Whether the 4 bytes at off are a LOD signature (P3DM or SP3X). */
bool p3d_mlod_signature(const wl_doc *d, uint64_t off);

/** The offset after the asciiz at off (its NUL included), or 0 when it
 *  has no NUL before end. */
uint64_t p3d_mlod_asciiz_end(const wl_doc *d, uint64_t off, uint64_t end);

/** The end of the face at pos (P3DM: after its texture and material
 *  names; SP3X: its fixed size), or 0 when it runs past the end of the
 *  file. */
uint64_t p3d_mlod_face_end(const wl_doc *d, uint64_t pos, bool sp3x);

/** The tag at pos (P3DM: active byte and asciiz name; SP3X: a 64-byte
 *  name): the offset of its u32 size field, or 0 when that runs past the
 *  end; *eof set when its name is #EndOfFile#. */
uint64_t p3d_mlod_tag_size_at(const wl_doc *d, uint64_t pos, bool sp3x, bool *eof);

/**
 * The end of the LOD at off walked strictly, with nothing recovered and
 * nothing reported (p3d_mlod_scan.c): a P3DM or SP3X signature, the point,
 * normal and face counts of its header (counts[3] instead when not NULL),
 * the points and normals inside the file, every face whole, "TAGG", tags
 * whose sizes lie inside the file up to #EndOfFile#, the 4-byte
 * resolution.  0 when any part does not read so.  Linear in the LOD's
 * bytes.
 */
uint64_t p3d_mlod_strict_end(const wl_doc *d, uint64_t off, const uint32_t *counts);

/* At most this many signatures are walked (p3d_mlod_strict_end) by one
 * resynchronisation. */
#define P3D_MLOD_RESYNC_TRIES 256u

/**
 * Resynchronisation after a LOD that cannot be walked: the first offset
 * at or after from where a LOD starts whose strict walk succeeds
 * (P3D_MLOD_RESYNC_TRIES signatures at most are tried), or 0 when none.
 * Linear in the bytes scanned.
 */
uint64_t p3d_mlod_resync(const wl_doc *d, uint64_t from);

/* At most this many values of one count whose first face passes are
 * walked further by p3d_mlod_true_counts (more: no correction). */
#define P3D_MLOD_COUNT_WALKS 16u

/**
 * A LOD at off that does not walk strictly under its header's counts but
 * would under exactly one other value of exactly one of them (the point,
 * normal or face count; the others as stored): its faces with 3 or 4
 * vertices whose point and normal indices lie below the counts, then a
 * tag list read strictly to #EndOfFile#, the resolution and the end of the
 * file or a LOD signature.  counts[3] gets the header's counts with that
 * one corrected; returns its index (0 points, 1 normals, 2 faces), or -1
 * when no such value, or more than one, exists (a count is then not
 * corrected: the LOD is left to resync).  The tag list is looked for first
 * (the first "TAGG" after the header from which the tags, the resolution
 * and the next LOD or the end of the file read): no count is tried past
 * it, and without it none is tried.  Each value tried is rejected by its
 * first face but for at most P3D_MLOD_COUNT_WALKS: about linear in the
 * LOD's bytes.
 */
int p3d_mlod_true_counts(const wl_doc *d, uint64_t off, uint32_t counts[3]);

#endif
