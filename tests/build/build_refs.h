/*
 * build_refs.h - test builders for the material, mesh-flag, skin, pivot,
 * channel, HLOD-LOD and cross-file tests (tests/lint/w3d/test_materials.c,
 * tests/lint/w3d/test_skin.c, tests/lint/test_xref.c).  Each appends one valid top-level object to
 * a tests/build/w3dbuild.h buffer, with knobs to inject one defect, and records
 * the absolute offsets (bytes) tests assert on.
 *
 * The mesh: 4 vertices of a unit square, 2 triangles (0,1,2) (0,2,3),
 * normals, identity shade indices, MATERIAL_INFO, VERTEX_MATERIALS,
 * SHADERS, TEXTURES, one MATERIAL_PASS with one TEXTURE_STAGE.
 */
#ifndef BUILD_REFS_H
#define BUILD_REFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"
#include "w3dbuild.h"

typedef struct t_ref_mesh_opts {
	const char *mesh, *container;  /* names (16-byte fields) */
	uint32_t version;              /* MESH_HEADER3.Version */
	uint32_t attributes;
	int32_t sort_level;
	uint32_t vertex_channels;      /* written as is */
	uint32_t face_channels;
	bool shaders_first;            /* SHADERS before MATERIAL_INFO */
	uint32_t shader_count;         /* SHADERS records (and ShaderCount) */
	uint32_t vmat_count;           /* VERTEX_MATERIAL chunks */
	uint32_t texture_count;        /* TEXTURE chunks */
	uint32_t vmat_id, shader_id;   /* the single ids of the pass */
	bool per_vertex_vmids;         /* VERTEX_MATERIAL_IDS per vertex:
	                                  vmat_id, except vertex 2 = vmid_v2 */
	uint32_t vmid_v2;
	uint32_t tex_id;               /* texture id of triangle 0 */
	uint32_t tex_id_1;             /* texture id of triangle 1 */
	bool single_tex_id;            /* TEXTURE_IDS with one id (tex_id) */
	uint8_t shader[16];            /* the shader record(s) */
	uint32_t vm_attributes;
	float shininess, opacity, translucency;
	bool texture_info;             /* write TEXTURE_INFO */
	uint16_t anim_type;
	uint32_t frame_count;
	float frame_rate;
	bool no_texture_name;          /* TEXTURE 0 without TEXTURE_NAME */
	const char *texture_name;
	uint32_t surface_type;         /* of triangle 1 */
	uint32_t shade[4];             /* shade indices */
	bool influences;               /* write VERTEX_INFLUENCES */
	uint16_t bone_v2;              /* bone of vertex 2 (others 0) */
	bool aabtree;                  /* write an AABTREE */
	uint32_t tris;                 /* NumTris written in the header (2) */
	uint32_t prelit_chunk;         /* 0, or a PRELIT_* id whose wrapper
	                                  holds the materials */
} t_ref_mesh_opts;

typedef struct t_ref_mesh_at {
	size_t mesh;             /* MESH chunk header */
	size_t header_data;      /* MESH_HEADER3 payload */
	size_t shaders;          /* SHADERS chunk header */
	size_t shaders_data;
	size_t vmids_data;       /* VERTEX_MATERIAL_IDS payload */
	size_t shader_ids_data;
	size_t tex_ids_data;
	size_t vm_info_data;     /* VERTEX_MATERIAL_INFO payload of material 0 */
	size_t texture;          /* TEXTURE 0 chunk header */
	size_t tex_name;         /* TEXTURE_NAME chunk header of texture 0 */
	size_t tex_info_data;
	size_t tris_data;
	size_t infl_data;        /* VERTEX_INFLUENCES payload */
	size_t shade_data;
	size_t prelit;           /* the PRELIT_* wrapper chunk header */
} t_ref_mesh_at;

/** Valid defaults: mesh BODY in container TANK, version 4.2, channels 3. */
t_ref_mesh_opts t_ref_mesh_defaults(void);
void t_ref_mesh(wb *b, const t_ref_mesh_opts *o, t_ref_mesh_at *at);

/** A HIERARCHY name with n pivots (parent chain); pivot names from names
 *  (NULL: "P0", "P1", ...).  *pivots_data (may be NULL) = PIVOTS payload,
 *  *header_data = HIERARCHY_HEADER payload. */
void t_ref_hierarchy(wb *b, const char *name, unsigned n, const char *const *names, size_t *header_data,
		  size_t *pivots_data);

typedef struct t_ref_hlod_opts {
	const char *name, *hierarchy;
	uint32_t version;
	unsigned lods;                 /* LOD arrays (<= 3) */
	float screen[3];               /* MaxScreenSize of each LOD array */
	unsigned subs;                 /* sub-objects per LOD array (<= 4) */
	const char *sub_names[4];      /* names of the sub-objects */
	uint32_t bones[4];             /* their BoneIndex */
	unsigned proxies;              /* sub-objects in a proxy array (<= 4) */
} t_ref_hlod_opts;

typedef struct t_ref_hlod_at {
	size_t object, header_data;
	size_t array_header_data[3];   /* SUB_OBJECT_ARRAY_HEADER payloads */
	size_t sub_data[3][4];         /* HLOD_SUB_OBJECT payloads */
	size_t proxy_data[4];
} t_ref_hlod_at;

t_ref_hlod_opts t_ref_hlod_defaults(const char *name, const char *hierarchy);
void t_ref_hlod(wb *b, const t_ref_hlod_opts *o, t_ref_hlod_at *at);

/** A raw ANIMATION of n channels (pivots[i], types[i]; VectorLen 4 for Q,
 *  else 1) over frames 0..frames-1, plus one visibility bit channel for
 *  vis_pivot when vis_pivot >= 0.  ch_data[i] = channel i payload,
 *  *header_data the header payload, *bit_data the bit channel payload. */
void t_ref_anim(wb *b, const char *name, const char *hier, uint32_t frames, uint32_t rate, unsigned n,
	     const uint16_t *pivots, const uint16_t *types, int vis_pivot, size_t *header_data, size_t *ch_data,
	     size_t *bit_data);

/** A time-coded COMPRESSED_ANIMATION: one X channel for pivot with keys at
 *  times[0..nkeys) (raw uint32, bit 31 included), one bit channel for pivot
 *  with the same times; or (flavor 1) one adaptive-delta X channel with
 *  scale.  Offsets: channel and bit channel payloads. */
void t_ref_canim(wb *b, const char *name, const char *hier, uint32_t frames, uint16_t flavor, uint16_t pivot,
	      const uint32_t *times, unsigned nkeys, float scale, size_t *header_data, size_t *ch_data,
	      size_t *bit_data);

/* --- linting with every registered check and the built-in catalogue --- */
/** Lints an exactly sized private copy of b's bytes, named path, with
 *  wl_lint_bytes (built-in catalogue, no configuration).  Aborts the test
 *  program when out of memory.  Free with t_ref_free(). */
wl_doc *t_ref_lint(const wb *b, const char *path);
/** Same for n raw bytes at p (copied), named "fuzz.w3d". */
wl_doc *t_ref_lint_bytes(const uint8_t *p, size_t n);
/** Frees a document of t_ref_lint and its copy of the bytes. */
void t_ref_free(wl_doc *d);
/** The finding of rule at exactly offset, or NULL. */
const wl_finding *t_ref_at(const wl_doc *d, const char *rule, uint64_t offset);
/** Number of findings of rule. */
size_t t_ref_count(const wl_doc *d, const char *rule);
/** Prints every finding to stderr (for debugging a failing test). */
void t_ref_dump(const wl_doc *d);

#endif
