/*
 * mlod.h - the MLOD text form (docs/textform.md §P3D): an editable MLOD
 * file (Object Builder's source P3D) as decoded YAML, which w3dasm writes
 * back byte for byte.  ODOL (binarised) files keep the read-only chunk form.
 *
 *   p3d-text: 1
 *   mlod:
 *     version: 257
 *     lods:
 *       - resolution: 1                  # the 4 bytes after the tags
 *         points:  [[x, y, z, flags], ...]
 *         normals: [[x, y, z], ...]
 *         faces:   [{n: 4, v: [[point, normal, u, v] x 4], flags: 0x0,
 *                    texture: "...", material: "..."}, ...]
 *         tags:    [{name: "#Mass#", mass: [...]}, {name: "Component01",
 *                    points: [...], faces: [...]}, ..., {name: "#EndOfFile#"}]
 *     tail: "hex"                        # bytes after the last LOD, if any
 *
 * Layout (core/p3d/p3d.h, MLOD part; BI community wiki "P3D File Format -
 * MLOD"; little endian, floats binary32): "MLOD", u32 version, u32 nLods;
 * per LOD "P3DM", u32 major, minor, nPoints, nNormals, nFaces, flags; the
 * points, normals and faces; "TAGG"; tags {u8 active; asciiz name; u32
 * size; data} up to #EndOfFile#; float resolution.  Tag data decoded: a
 * named selection (np + nf weight bytes: `points:`, `faces:`), #Mass# (np
 * floats), #SharpEdges# (u32 point pairs), #UVSet# (u32 stage, float u, v
 * pairs), #Property# (two char[64]: `property:`, `value:`); any other tag,
 * or data of another size, is `hex:`.  Counts and sizes are computed from
 * the lists; `lod_count:` and a LOD's `counts: [np, nn, nf]` pin the
 * header values where they differ; a tag's `active:` is written when not 1.
 */
#ifndef WL_TF_P3D_MLOD_H
#define WL_TF_P3D_MLOD_H

#include <stdio.h>

#include "core/chunk.h"
#include "core/yaml_doc.h"
#include "textform/registry.h"

/**
 * Writes the MLOD text form of d when d is an MLOD file whose every LOD is
 * a P3DM LOD that walks strictly (core/p3d/p3d_mlod.h
 * p3d_mlod_strict_end): returns 1.  0, having written nothing, for any
 * other P3D file (ODOL, SP3X LODs, a damaged MLOD): the engine's read-only
 * chunk form follows.  -1 when out reports a write error.
 */
int p3d_mlod_write_text(FILE *out, const wl_doc *d, const char *source);

/**
 * Appends the bytes of the `mlod:` mapping m (layout above) to a.  Returns
 * 0, or -1 after wl_ydoc_fail at the offending node (an unknown key, a
 * value out of range, a list of the wrong shape).
 */
int p3d_mlod_assemble(wl_tf_asm *a, wl_ynode m);

#endif
