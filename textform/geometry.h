/*
 * geometry.h - what the formats' geometry hooks (wl_tf_format.geometry)
 * share: one mesh of the JSON that `w3ddump --geometry` writes and the web
 * page draws (issue 28, docs/web.md).
 *
 * The helpers take any object (a mesh, W3D's "aabtree").  Names and chunk
 * paths are written in the escaped form of core/escape.h, as the reports
 * write them: a finding's "chunk_path" starts with its mesh's "path".
 *
 * A mesh object:
 *   "name"       the mesh's name as the reports show it
 *   "path"       its chunk path (findings inside it start with it)
 *   "positions"  [x, y, z, ...]: 3 floats per vertex, the file's own
 *                coordinates and units
 *   "normals"    [x, y, z, ...] per vertex, when the file has them
 *   "uvs"        [u, v, ...] per vertex (the first set, as stored), when it
 *                has them
 *   "triangles"  [a, b, c, ...]: 3 vertex indices per triangle, as stored
 *                (an index may be out of range in a damaged file: the
 *                viewer skips such a triangle)
 *   "vertex_arrays", "triangle_arrays"  [{"path", "first", "count"}]:
 *                the chunks the vertices and triangles come from, in
 *                order: a finding at PATH[i] is vertex (triangle) first + i
 *   "vertex_channels"  [{"path", "first", "count"}]: the other chunks
 *                whose element i is vertex first + i (W3D: VERTEX_NORMALS,
 *                VERTEX_INFLUENCES, ...)
 *   "bones"      per vertex, the bone (pivot or joint) index it is bound
 *                to, when the file binds vertices; "bone_names" names them
 *                and (B3D) "bone_paths" gives each one's chunk path, at the
 *                top level beside "meshes"
 *   "transform"  [16 floats], column-major: world from mesh, when the file
 *                places the mesh (W3D: a rigid mesh an HLOD of the file
 *                puts on a bone of its hierarchy, the file's own or
 *                NAME.w3d's, the bone's base pose); absent: the identity, the mesh as stored
 *   "posed_positions"  (W3D skins) [x, y, z, ...] per vertex, the stored
 *                vertex (bone-relative) put back into the bind pose through
 *                its primary bone's base pose, when the hierarchy is found
 *                (the file's own or NAME.w3d's) and every vertex can be
 *                posed; the viewer draws
 *                these instead of "positions" (indices are the same)
 *   "hierarchy_file"  (W3D) the path of the file whose hierarchy gave
 *                "transform" or "posed_positions", when not this one: the
 *                NAME.w3d the engine loads a hierarchy it lacks from
 *                (wl_tf_geo_companions)
 *   "aabtree"    (W3D) the mesh's AABTREE, when it has one: an object with
 *                "path" (the AABTREE chunk's), "header_path" (its
 *                AABTREE_HEADER's, when present), "node_arrays" and
 *                "polyindex_arrays" ([{"path", "first", "count"}] like
 *                vertex_arrays: AABTREE_NODES[i] is node first + i,
 *                AABTREE_POLYINDICES[k] slot first + k), "boxes" (6 floats
 *                per node: min x, y, z, max x, y, z, mesh coordinates),
 *                "leaf_first" and "leaf_count" (per node: a leaf's first
 *                POLYINDICES slot and its poly count; -1 and 0 for an
 *                internal node), "polyindices" (per slot, the triangle it
 *                names, as stored: it may be out of range)
 *
 * At the top level beside "meshes" (W3D): "subobjects" [{"path", "name",
 * "bone", "kind", "mesh"}], every HLOD_SUB_OBJECT of every HLOD in file
 * order: its chunk path, the render object it names, its BoneIndex as
 * read, "lod", "aggregate" or "proxy", and the index in "meshes" of the
 * mesh of the file it names (case-insensitive, the first of that name),
 * or -1.
 */
#ifndef WL_TF_GEOMETRY_H
#define WL_TF_GEOMETRY_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"

/*
 * Other files a model's loader reads by name, which the geometry may use to
 * place what the file alone cannot (W3D: the engine loads a hierarchy NAME
 * it lacks from NAME.w3d, Get_HTree, assetmgr.cpp:898-920; its skins and
 * the meshes an HLOD puts on its bones are placed by it).  The front end
 * finds and reads them (cli/companions.h).
 */
typedef struct wl_tf_geo_companions {
	/* The document, with its typed model, of the file the loader of d
	 * would read for name (ext: the file extension it adds, ".w3d"), or
	 * NULL when there is none; it stays the front end's until the
	 * geometry is written. */
	const wl_doc *(*find)(void *ud, const wl_doc *d, const char *name, const char *ext);
	void *ud;
} wl_tf_geo_companions;

/** The escaped form of s (core/escape.h: what the reports print, so a
 *  chunk path equals the reports' "chunk_path" and any bytes give valid
 *  UTF-8) as a JSON string; NULL when out of memory. */
json_t *wl_tf_geo_string(const char *s);

/** A new mesh object with name and path (the chunk path of src), both
 *  escaped (wl_tf_geo_string). */
json_t *wl_tf_geo_mesh(const wl_doc *d, const char *name, const wl_chunk *src);

/** Appends {"path": PATH-of-src, "first": first, "count": count} to the
 *  mesh's array key ("vertex_arrays" or "triangle_arrays"). */
void wl_tf_geo_span(json_t *mesh, const char *key, const wl_doc *d, const wl_chunk *src, size_t first,
		    size_t count);

/** Appends n floats to the mesh's array key (made when absent). */
void wl_tf_geo_floats(json_t *mesh, const char *key, const float *v, size_t n);

/** Appends n unsigned integers to the mesh's array key. */
void wl_tf_geo_uints(json_t *mesh, const char *key, const uint32_t *v, size_t n);

/** Appends one signed integer to the object's array key. */
void wl_tf_geo_int(json_t *obj, const char *key, int64_t v);

/** Sets the object's key to the chunk path of src (a JSON string). */
void wl_tf_geo_path(json_t *obj, const char *key, const wl_doc *d, const wl_chunk *src);

#endif
