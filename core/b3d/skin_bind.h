/*
 * skin_bind.h - how Irrlicht and Luanti bind BONE weight records to mesh
 * vertices: model semantics, kept in core so that the skinning checks
 * (lint/b3d/check_bone_ids.c, check_weights.c, check_keys.c, check_anim.c)
 * and the fixers (fix/b3d/fix_weights.c) share them without fix depending
 * on lint.
 *
 * Irrlicht/Luanti (irr/src/CB3DMeshFileLoader.cpp readChunkMESH,
 * readChunkVRTS, readChunkBONE): a MESH sets VerticesStart to the number of
 * vertices read so far; every VRTS of it appends its vertices; a BONE adds
 * VerticesStart of the last MESH read (b3d_bone.bind_irrlicht) to each
 * vertex id and looks the sum up in the list of vertices read so far.  For
 * a MESH the ids that land on its own vertices are therefore
 * [0, b3d_irr_span) (every VRTS of the MESH, not only the first).
 */
#ifndef WL_B3D_SKIN_BIND_H
#define WL_B3D_SKIN_BIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cursor.h"
#include "model.h"

/** Vertices of every VRTS of me (the next MESH's global_base, or the
 *  model's total, minus me's global_base): the ids a BONE bound to me may
 *  use. */
uint64_t b3d_irr_span(const b3d_model *m, const b3d_mesh *me);

/** The printable name of the NODE holding me (its path label), "" when it
 *  has none. */
const char *b3d_mesh_label(const b3d_mesh *me);

/** The printable name of node n, "" when it has none. */
const char *b3d_node_label(const struct b3d_node *n);

/**
 * A bitmap of span bits (calloc, caller frees): bit v set when a triangle
 * of a TRIS of me names vertex v (ids outside [0, span) are ignored; they
 * are the TRIS rules' business).  NULL when out of memory (span 0 gives a
 * valid one-byte map).
 */
uint8_t *b3d_used_vertices(const b3d_mesh *me, uint64_t span);

/** Bit v of map. */
static inline bool b3d_bit(const uint8_t *map, uint64_t v)
{
	return (map[v / 8] >> (v % 8)) & 1u;
}

/** A BONE weight record: vertex id and weight (8 bytes, spec §BONE). */
typedef struct b3d_weight {
	int32_t vertex;
	float weight;
} b3d_weight;

/** Record i of bone's weights (inline: the weight checks read every one). */
static inline b3d_weight b3d_weight_at(const b3d_bone *bone, size_t i)
{
	const uint8_t *p = b3d_record(&bone->weights, i);
	b3d_weight w = { (int32_t)wl_le32(p), wl_lef32(p + 4) };
	return w;
}

#endif
