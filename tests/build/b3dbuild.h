/*
 * b3dbuild.h - builds Blitz3D .b3d bytes in memory for tests, on the W3D
 * byte builder's buffer (w3dbuild.h; little-endian):
 *   wb b; t_w3d_init(&b);
 *   t_b3d_begin(&b, "BB3D"); t_w3d_u32(&b, 1);            // version
 *     t_b3d_node_begin(&b, "root", identity);           // NODE + its fields
 *       t_b3d_begin(&b, "MESH"); t_w3d_u32(&b, (uint32_t)-1);
 *         t_b3d_vrts(&b, 0, 0, 0, xyz, 3);  t_b3d_tris(&b, -1, idx, 1);
 *       t_b3d_end(&b);
 *     t_b3d_end(&b);
 *   t_b3d_end(&b);
 * t_b3d_end() patches the int32 length to the bytes written since the header
 * (no container bit in B3D); t_w3d_end_raw() writes any length, for malformed
 * files.  Allocation failures abort the test process.
 */
#ifndef B3DBUILD_H
#define B3DBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "w3dbuild.h"

/** Opens a chunk with the four-character tag. */
void t_b3d_begin(wb *b, const char tag[4]);
/** Closes the innermost chunk: length = bytes written since its header. */
void t_b3d_end(wb *b);
/** A NUL-terminated string. */
void t_b3d_str(wb *b, const char *s);
/** A transform as NODE stores it: position[3], scale[3], rotation w,x,y,z. */
typedef struct t_b3d_xform {
	float pos[3], scale[3], rot[4];
} t_b3d_xform;
/** The identity transform (scale 1, rotation 1,0,0,0). */
extern const t_b3d_xform t_b3d_identity;
/** Opens a NODE and writes its name and transform (close with t_b3d_end). */
void t_b3d_node_begin(wb *b, const char *name, t_b3d_xform t);
/** A whole VRTS chunk: flags, sets, set_size, then n records of
 *  rec_floats floats each from v (rec_floats = 3 + 3 (flags&1) + 4
 *  (flags&2) + sets x set_size). */
void t_b3d_vrts(wb *b, int32_t flags, int32_t sets, int32_t set_size, const float *v, size_t n);
/** A whole TRIS chunk: brush_id, then n triangles of 3 ids from idx. */
void t_b3d_tris(wb *b, int32_t brush_id, const int32_t *idx, size_t n);
/** A whole BONE chunk: n (vertex_id, weight) pairs. */
void t_b3d_bone(wb *b, const int32_t *vertex, const float *weight, size_t n);
/** A whole KEYS chunk: flags, then n keys, key i being frame[i] followed by
 *  per floats of v (per = 3 (flags&1) + 3 (flags&2) + 4 (flags&4); the
 *  rotation w, x, y, z). */
void t_b3d_keys(wb *b, int32_t flags, const int32_t *frame, const float *v, size_t n);
/** A whole ANIM chunk: flags, frames, fps. */
void t_b3d_anim(wb *b, int32_t flags, int32_t frames, float fps);

/** One TEXS entry (inside t_b3d_begin(b, "TEXS") ... t_b3d_end): file, flags 1,
 *  blend 2, position 0,0, scale 1,1, rotation 0 (28 bytes after the name). */
void t_b3d_tex(wb *b, const char *file);
/** One BRUS entry (after the BRUS chunk's int32 n_texs, which must equal n):
 *  name, colour 1,1,1,1, shininess 0, blend 1, fx 0, then n texture ids. */
void t_b3d_brush(wb *b, const char *name, const int32_t *tex_ids, size_t n);

/** A whole MESH chunk (brush_id) holding the unit quad as two triangles
 *  (TRIS brush -1) over vertices 0-3, then `unused` more vertices no
 *  triangle uses (no normals, no UVs).  Its VRTS chunk header offset goes
 *  to *vrts_at (may be NULL). */
void t_b3d_quad_mesh(wb *b, int32_t brush_id, size_t unused, size_t *vrts_at);

/**
 * The start of t_b3d_quad_model's file, left open inside its MESH (three
 * t_b3d_end close MESH, NODE and BB3D): its TRIS is followed by `slack`
 * zero bytes inside the TRIS.  *vrts_at and *tris_at as there.
 */
void t_b3d_quad_open(wb *b, size_t slack, size_t *vrts_at, size_t *tris_at);

/**
 * A whole valid file: BB3D version 1, no TEXS/BRUS, one NODE "root" with a
 * MESH (brush -1) holding the unit quad (4 vertices, no normals, no UVs)
 * as two triangles.  The offsets of the MESH's VRTS and TRIS chunk headers
 * are stored in *vrts_at and *tris_at (may be NULL).
 */
void t_b3d_quad_model(wb *b, size_t *vrts_at, size_t *tris_at);

/** t_b3d_quad_model with `slack` stray zero bytes at the end of its TRIS
 *  (after the 2 triangles); slack 0 gives the same bytes. */
void t_b3d_quad_model_slack(wb *b, size_t slack, size_t *vrts_at, size_t *tris_at);

#endif
