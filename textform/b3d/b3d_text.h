/*
 * b3d_text.h - the B3D text form (docs/textform.md §B3D): the keys of each
 * chunk, shared by its writer (textform/b3d/write.c) and assembler
 * (textform/b3d/read.c); the registry entry is textform/b3d/text.c.
 *
 * Layouts: core/b3d/model.h (seeds/002_1af9c1d714b4a023.txt §"Chunk
 * Types"); all values little-endian int32 (written in decimal) or binary32.
 *
 *   BB3D  version                         MESH  brush_id
 *   NODE  name, position [x, y, z], scale [x, y, z], rotation [w, x, y, z]
 *   TEXS  entries: {file, flags, blend, position [x, y], scale [x, y], rotation}
 *   BRUS  n_texs; entries: {name, color [r, g, b, a], shininess, blend, fx,
 *         textures [id...]}
 *   VRTS  flags, tex_coord_sets, tex_coord_set_size; vertices: {position,
 *         normal (flags & 1), color (flags & 2), tex_coords [sets x size]}
 *   TRIS  brush_id; triangles: [a, b, c]
 *   BONE  weights: [vertex, weight]
 *   KEYS  flags; keys: {frame, position (flags & 1), scale (flags & 2),
 *         rotation (flags & 4)}
 *   ANIM  flags, frames, fps
 * Names (NODE name, TEXS file, BRUS name) are NUL-terminated: the text
 * holds the bytes before the NUL, quoted when they are printable ASCII
 * (tab, CR, LF allowed), else `!hex`.
 */
#ifndef WL_TF_B3D_TEXT_H
#define WL_TF_B3D_TEXT_H

#include "textform/registry.h"

/* Bytes of the numbers after a TEXS file[] / a BRUS name[] (before the
 * texture ids) / a NODE name[]. */
#define B3D_TF_TEXS_VALUES 28u
#define B3D_TF_BRUS_VALUES 28u
#define B3D_TF_NODE_VALUES 40u

/* The numbers of a TEXS entry (after file), of a BRUS entry (after name,
 * before textures) and of a NODE (after name), in byte order. */
extern const wl_tf_field b3d_tf_texs_values[5];
extern const wl_tf_field b3d_tf_brus_values[4];
extern const wl_tf_field b3d_tf_node_values[3];

/** Bytes of one VRTS vertex for the header values flags, sets, set_size,
 *  and the number of tex_coords floats (*uv); 0 when the layout is invalid
 *  (negative counts) or larger than limit bytes. */
uint64_t b3d_tf_vertex_size(uint32_t flags, int32_t sets, int32_t set_size, uint64_t limit,
			    uint64_t *uv);

/** Bytes of one KEYS record for flags: 4 + 12 (flags & 1) + 12 (flags & 2)
 *  + 16 (flags & 4). */
uint64_t b3d_tf_key_size(uint32_t flags);

/** The decode and assembler hooks (wl_tf_format; the writer is
 *  wl_tf_yaml_keys over decode).  write.c, read.c. */
bool b3d_tf_decode(const wl_doc *d, const wl_chunk *c, const wl_tf_sink *s);
int b3d_tf_assemble_keys(wl_tf_asm *a, const wl_chunk_type *t, wl_ynode map);

#endif
