/*
 * build_mesh.h - writes a valid minimal W3D MESH for the mesh and AABTree
 * tests (tests/build/w3dbuild.h), with knobs to inject defects, and runs the mesh
 * and AABTree checks on the result.
 *
 * The mesh "TANK.BODY": 4 vertices of a unit square in z = 0, 2 triangles
 * (0,1,2) and (0,2,3), normals, shade indices, MATERIAL_INFO, SHADERS (1),
 * VERTEX_MATERIALS (1), TEXTURES (1), then `passes` MATERIAL_PASS chunks,
 * each with VERTEX_MATERIAL_IDS (1 id), SHADER_IDS (1 id), DCG (4) and
 * `stages` TEXTURE_STAGE chunks holding TEXTURE_IDS (one per triangle) and
 * STAGE_TEXCOORDS (4).  With `aabtree`: a canonical 3-node tree, root 0
 * internal (front 1, back 2), leaf 1 = poly slot 0 (triangle 0), leaf 2 =
 * slot 1 (triangle 1), exact boxes (0,0,0)..(1,1,0).
 *
 * Every interesting offset (absolute, bytes) is recorded in t_mesh_layout so a
 * test can patch a field with t_w3d_patch_u32() and assert the finding offset.
 */
#ifndef BUILD_MESH_H
#define BUILD_MESH_H

#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"
#include "w3dbuild.h"

typedef struct t_mesh_opts {
	int aabtree;            /* write the AABTREE */
	int no_header;          /* omit MESH_HEADER3 */
	int header_late;        /* write VERTICES before MESH_HEADER3 */
	int extra_vertices;     /* extra entries appended to VERTICES */
	int extra_tris;         /* extra (valid) triangles appended to TRIANGLES */
	int passes;             /* MATERIAL_PASS chunks (default when 0: 1) */
	int stages;             /* TEXTURE_STAGE per pass (-1: none; 0: 1) */
	int vmid_count;         /* VERTEX_MATERIAL_IDS entries (0: 1) */
	int texcoord_delta;     /* entries added to STAGE_TEXCOORDS */
	int per_face_ids;       /* PER_FACE_TEXCOORD_IDS entries (0: none) */
	int aab_extra_nodes;    /* leaf nodes (count 0) appended, header too */
	int aab_no_nodes;       /* write an empty AABTREE_NODES (NodeCount 0) */
	int aab_header_late;    /* write POLYINDICES before AABTREE_HEADER */
	int two_bone;           /* write 0x0E influences with two-bone records */
} t_mesh_opts;

typedef struct t_mesh_layout {
	size_t mesh;            /* MESH chunk header */
	size_t header;          /* MESH_HEADER3 chunk header */
	size_t header_data;     /* its payload: NumTris at +40, NumVertices +44 */
	size_t vertices;        /* VERTICES chunk header */
	size_t tris;            /* TRIANGLES chunk header */
	size_t tris_data;       /* payload; triangle i at +32*i */
	size_t normals;         /* VERTEX_NORMALS chunk header */
	size_t matinfo_data;    /* MATERIAL_INFO payload */
	size_t pass[8];         /* MATERIAL_PASS chunk headers */
	size_t vmids[8];        /* VERTEX_MATERIAL_IDS chunk header, per pass */
	size_t dcg[8];          /* DCG chunk header, per pass */
	size_t stage[8][4];     /* TEXTURE_STAGE chunk headers */
	size_t texcoords[8];    /* STAGE_TEXCOORDS of stage 0, per pass */
	size_t texids[8];       /* TEXTURE_IDS of stage 0, per pass */
	size_t per_face[8];     /* PER_FACE_TEXCOORD_IDS of stage 0, per pass */
	size_t aab;             /* AABTREE chunk header */
	size_t aab_header;      /* AABTREE_HEADER chunk header */
	size_t aab_header_data; /* NodeCount at +0, PolyCount at +4 */
	size_t aab_poly;        /* AABTREE_POLYINDICES chunk header */
	size_t aab_poly_data;   /* slot i at +4*i */
	size_t aab_nodes;       /* AABTREE_NODES chunk header */
	size_t aab_nodes_data;  /* node i at +32*i; FrontOrPoly0 +24, Back +28 */
} t_mesh_layout;

/** Appends the mesh to b (which may already hold chunks); fills *lay. */
void t_mesh_write_mesh(wb *b, const t_mesh_opts *o, t_mesh_layout *lay);

/** Reads an exact-size private copy of b, builds the model and runs
 *  w3d_check_mesh and w3d_check_aabtree (catalogue and config NULL). */
wl_doc *t_mesh_lint(const wb *b);
/** Same for raw bytes. */
wl_doc *t_mesh_lint_bytes(const uint8_t *p, size_t n);
/** Frees the document and its copy of the bytes. */
void t_mesh_free(wl_doc *d);

/** Number of findings of rule. */
size_t t_mesh_count(const wl_doc *d, const char *rule);
/** 1 when a finding of rule is at exactly offset. */
int t_mesh_has(const wl_doc *d, const char *rule, uint64_t offset);
/** Prints every finding (for debugging a failing test). */
void t_mesh_dump(const wl_doc *d);

/* ---- table-driven rule cases ---- */

/** An offset in the built file: the value of a t_mesh_layout member plus add. */
typedef struct t_mesh_at {
	size_t member; /* offsetof(t_mesh_layout, ...) */
	size_t add;
} t_mesh_at;
#define T_MESH_AT(member, add) { offsetof(t_mesh_layout, member), (add) }

enum { T_MESH_NO_PATCH = 0, T_MESH_U32, T_MESH_F32 };

/** A value written over the built file before it is linted. */
typedef struct t_mesh_patch {
	int kind; /* T_MESH_NO_PATCH, T_MESH_U32 (u), T_MESH_F32 (f) */
	t_mesh_at at;
	uint32_t u;
	float f;
} t_mesh_patch;

/** Writes the n patches p (T_MESH_NO_PATCH entries are skipped) over b, at
 *  offsets taken from lay. */
void t_mesh_apply_patches(wb *b, const t_mesh_layout *lay, const t_mesh_patch *p, size_t n);

/**
 * One assertion on the mesh built from o (aabtree forced on when the runner
 * is asked to), patched with p, linted: a finding of rule at `at` (fires),
 * or none of rule (!fires); count > 0 also asserts exactly count findings
 * of rule.  again: the assertion is made on the previous step's document
 * (o and p are then not used).
 */
typedef struct t_mesh_step {
	const char *rule; /* NULL ends a list of steps */
	int fires;
	t_mesh_at at;
	size_t count;
	int again;
	t_mesh_opts o;
	t_mesh_patch p[2];
} t_mesh_step;

/** Runs the steps up to the one with rule NULL; name (the case) and the
 *  step index are in every failure message.  tree: every mesh gets the
 *  AABTREE (o.aabtree = 1). */
void t_mesh_run_steps(const char *name, const t_mesh_step *steps, int tree);

#endif
