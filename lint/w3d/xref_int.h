/*
 * xref_int.h - what the parts of W3D's cross-file index share: the index
 * (struct w3d_xref) with what each file defines (xdef) and references
 * (xref_ent).  xref_index.c fills it (w3d_xref_add, the textures, archive
 * entries), xref_check.c runs the checks over it (w3d_xref_check), xref.c
 * registers it with lint/xref.c.  Rules and their cases: xref.h.
 */
#ifndef WL_LINT_W3D_XREF_INT_H
#define WL_LINT_W3D_XREF_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/w3d/bind_pose.h"
#include "xref.h"

#define PATH_CAP 256

typedef enum def_kind { DEF_ROBJ = 0, DEF_HIER = 1, DEF_ANIM = 2 } def_kind;

/* A skin mesh whose hierarchy is not in its own file (wl_mesh_bounds_points
 * said WL_BOUNDS_POINTS_NO_TREE): what checking its bounds in the bind pose
 * needs. */
typedef struct xskin {
	char *hier;          /* HierarchyName of the HLOD of the mesh's file that
	                        uses it; NULL when no HLOD of that file does */
	size_t n;            /* vertices */
	float (*v)[3];       /* stored (bone-relative) vertices */
	uint16_t *bone;      /* primary bone of each */
	float min[3], max[3], center[3], radius; /* MESH_HEADER3 bounds */
	uint64_t hdr_off;    /* MESH_HEADER3 payload */
	char *hdr_cpath;
} xskin;

/* Something a file defines. */
typedef struct xdef {
	def_kind kind;
	uint32_t file;
	char *name;          /* as written (printable copy) */
	uint64_t off, len;   /* the object chunk */
	char *cpath;
	uint32_t pivots;     /* DEF_HIER */
	bool has_bones;      /* DEF_ROBJ skin mesh with 0x0E influences */
	uint32_t max_bone;
	uint32_t (*bones)[2];/* bone[0], bone[1] of each 0x0E record; UINT32_MAX:
	                        slot unused (single-bone layout, or weight 0) */
	size_t bone_n;
	uint64_t bones_off;  /* VERTEX_INFLUENCES payload */
	char *bones_cpath;   /* its chunk path, without an element index */
	xskin *skin;         /* DEF_ROBJ: a skin to check here, or NULL */
	w3d_pose *poses;     /* DEF_HIER: base pose of each pivot, or NULL */
	uint32_t pose_count; /* pivots the engine loads (wl_hierarchy_pivots) */
} xdef;

typedef enum ref_kind {
	REF_SUB = 0,      /* HLOD LOD / aggregate sub-object: name + bone */
	REF_PROXY = 1,    /* HLOD proxy: bone only */
	REF_HLOD_HIER = 2,/* HLOD HierarchyName */
	REF_ANIM = 3,     /* animation HierarchyName + max channel pivot */
	REF_TEXTURE = 4   /* texture file name */
} ref_kind;

/* Something a file references. */
typedef struct xref_ent {
	ref_kind kind;
	uint32_t file;
	char *name;       /* referenced name (sub-object, hierarchy, texture) */
	char *owner;      /* HLOD / animation / mesh name, for messages */
	char *hier;       /* REF_SUB / REF_PROXY: the HLOD's HierarchyName */
	uint32_t value;   /* REF_SUB/PROXY: BoneIndex; REF_ANIM: max pivot */
	bool has_value;   /* REF_ANIM: at least one channel */
	uint64_t off, len;
	char *cpath;
	uint64_t off2;    /* REF_ANIM: the pivot field of the max channel */
	char *cpath2;
} xref_ent;

struct w3d_xref {
	pthread_mutex_t lock;
	char *scope;       /* the places searched, for messages (NULL: "the folder") */
	char **files;
	size_t file_count, file_cap;
	xdef *defs;
	size_t def_count, def_cap;
	xref_ent *refs;
	size_t ref_count, ref_cap;
	char **textures;     /* folded stems of .tga/.dds files */
	size_t texture_count, texture_cap;
	bool oom;
};

/** The folded stem of a texture name (malloc'd): base name without
 *  directories and without a .tga/.dds extension, ASCII upper case; NULL
 *  for other extensions when require_ext, or when out of memory
 *  (xref_index.c). */
char *w3d_xref_texture_stem(const char *name, bool require_ext);

#endif
