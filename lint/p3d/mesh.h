/*
 * mesh.h - one P3D LOD's faces and vertex positions gathered for the
 * geometry checks (check_components.c) and the MLOD fixers, alike for
 * MLOD (points, faces and selection tags: core/p3d/p3d.h p3d_lod) and
 * ODOL (positions, faces and named selections: core/p3d/p3d_lodview.h),
 * read through the cursor.  Positions in model coordinates (metres).
 *
 * Vertices at the same position (bit-identical floats) are welded: ODOL
 * splits a point into one vertex per normal and UV, and edges match by
 * position.  A face's vertices are kept in file order (ODOL stores them
 * reversed against MLOD, wiki "P3D Lod Faces": the checks orient each
 * component by its signed volume, so either order works).
 *
 * Components: the named selections called ComponentNN (any case, one or
 * more digits), else (for the faces no such selection holds) the sets of
 * faces connected through shared positions.  Proxy faces belong to no
 * component: a face whose points all lie in a named selection called
 * proxy:PATH (any case) is the triangle that places a proxy model (BI
 * wiki "P3D File Format - MLOD": proxies are named selections proxy:
 * path.index holding one triangle; Binarize turns them into the LOD's
 * proxy list), not part of a solid.
 */
#ifndef WL_P3D_MESH_H
#define WL_P3D_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/p3d/p3d.h"
#include "core/p3d/p3d_compress.h"

typedef struct wl_p3d_comp {
	const char *name;      /* the selection's name (in the file), NULL
	                        * for a connected set no selection holds */
	uint32_t name_len;
	uint32_t *faces;       /* face indices, ascending (malloc) */
	uint32_t n;
} wl_p3d_comp;

typedef struct wl_p3d_mesh {
	uint32_t nv;           /* vertices (MLOD points) */
	float (*pos)[3];       /* nv positions */
	uint32_t *weld;        /* nv: the lowest vertex at the same position */
	uint32_t nf;           /* faces */
	uint8_t *fk;           /* each face's vertex count: 3 or 4, 0 when the
	                        * face is not usable (count, index) */
	uint32_t (*fv)[4];     /* each face's welded vertex indices */
	uint64_t *f_at;        /* each face's first byte and length */
	uint32_t *f_len;
	const wl_chunk *fnode; /* the faces' node */
	const wl_chunk *vnode; /* the node the vertices' findings go to */
	const p3d_block *vbl;  /* ODOL: the positions block (p3d_elem_span) */
	uint64_t v_off;        /* MLOD: the first point's byte */
	uint32_t version;
	bool mlod;
	wl_p3d_comp *comps;    /* the components */
	uint32_t n_comps;
	uint32_t n_named;      /* comps[0 .. n_named) are ComponentNN
	                        * selections, the rest connected sets */
	uint8_t *proxy;        /* nf bytes: 1 for a proxy face (in no
	                        * component) */
	uint32_t n_proxy;      /* how many */
} wl_p3d_mesh;

/** Gathers LOD l of model m into *g (everything malloc; wl_p3d_mesh_free
 *  frees it); false (nothing to free) when l was not read far enough or
 *  memory ran out. */
bool wl_p3d_mesh_load(const wl_doc *d, const p3d_model *m, const p3d_lod *l, wl_p3d_mesh *g);

void wl_p3d_mesh_free(wl_p3d_mesh *g);

/** The bytes a finding about vertex i covers: MLOD its 16-byte point;
 *  ODOL its 12 bytes in a raw positions block, the block when
 *  compressed. */
void wl_p3d_mesh_vertex_span(const wl_p3d_mesh *g, uint32_t i, uint64_t *off, uint64_t *len);

/* One MLOD face's vertices as stored (core/p3d/p3d.h: P3DM u32 nVerts,
 * 4 x {u32 point, normal; float u, v}; SP3X the same after its 32-byte
 * texture name). */
typedef struct wl_p3d_mface {
	uint32_t k;            /* nVerts as stored */
	uint32_t point[4], normal[4]; /* the first min(k, 4) are set */
	uint64_t at;           /* the face's first byte (nVerts for P3DM) */
} wl_p3d_mface;

/** Reads face i of MLOD LOD l (l->face_off set, i < l->n_faces) through
 *  the cursor into *f. */
void wl_p3d_mlod_face(const wl_doc *d, const p3d_lod *l, uint32_t i, wl_p3d_mface *f);

/** Whether name (len bytes) is ComponentNN: "component" in any case then
 *  one or more digits and nothing else. */
bool wl_p3d_component_name(const char *name, size_t len);

/** Whether name (len bytes) names a proxy selection: "proxy:" in any
 *  case, then the proxy model's path and index. */
bool wl_p3d_proxy_name(const char *name, size_t len);

#endif
