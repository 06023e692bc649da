/*
 * p3d.h - the Arma / DayZ P3D model format (read-only): the format
 * descriptor, the node types of its document tree and the model the checks
 * of lint/p3d/ read.
 *
 * Sources: ../shared/notes/p3d_reference.md (facts gathered from the public
 * readers jetelain/bis-file-formats BIS.P3D, gruppe-adler/grad_aff `dev`
 * src/p3d/odol.cpp and arma-tools/arma-file-formats-rs p3d/ *.rs; no code
 * copied), seeds/004_c856c1b65945053a.txt (BI wiki "P3D File Format -
 * ODOLV4x") and the BI wiki pages "P3D File Format - MLOD", "Compressed LZSS
 * File Format" and "Compressed LZO File Format".
 *
 * Byte order: little endian throughout; floats IEEE-754 binary32.
 *
 * ODOL (binarised, magic "ODOL"), top level as read here (p3d_odol.c):
 *   char magic[4] "ODOL"; u32 version;
 *   [v >= 75: u32 reserved[2], both 0 unless the file is encrypted]
 *   [v >= 59: u32 appID]
 *   [v >= 58: asciiz muzzle-flash proxy path]  (grad_aff reads a second
 *             asciiz at exactly v58; jetelain and aff-rs read one: one is
 *             read here, no v58 file was available to decide)
 *   u32 nLods; float resolution[nLods];
 *   ModelInfo, skeleton, [v >= 30: tbool hasAnims + animations]
 *             (version-gated walk: p3d_info.c)
 *   u32 lodStart[nLods]; u32 lodEnd[nLods]; tbool permanent[nLods]
 *   LoadableLodInfo for each LOD whose permanent flag is 0
 *   LOD blobs, each walked to its end (p3d_lod.c); tail (v >= 59: PhysX
 *   cooked data, NXS/CVXM tags).
 * The LOD address table is located by a consistency search (p3d_odol.c:
 * find_table): the first offset after the resolutions where nLods starts
 * and ends lie inside the file, after the table, each start <= its end,
 * every permanent flag is 0 or 1 and the LoadableLodInfo gap before the
 * first LOD is small; an offset whose LODs also tile contiguously is
 * preferred.  The ModelInfo walk confirms it: where the walk ends exactly
 * on the table found (every Arma file of the corpus, v40 to v73), ModelInfo
 * and LoadableLodInfo get walked nodes and their rules run; elsewhere
 * (DayZ v53, whose ModelInfo differs) the search's table is kept,
 * ModelInfo stays one opaque node and p3d-modelinfo-walk names the field
 * that stopped the walk.

 * MLOD (editable, magic "MLOD"), walked structurally (p3d_mlod.c):
 *   char magic[4] "MLOD"; u32 version (257); u32 nLods; then per LOD:
 *   char sig[4] "P3DM"; u32 major (0x1C); u32 minor (0x100); u32 nPoints,
 *   nNormals, nFaces, flags; point {float x,y,z; u32 flags}[nPoints];
 *   float normal[nNormals][3]; face[nFaces] {u32 nVerts; {u32 point,
 *   normal; float u, v}[4]; u32 flags; asciiz texture; asciiz material};
 *   "TAGG"; tag {u8 active; asciiz name; u32 size; u8 data[size]} ... up to
 *   and including the tag named "#EndOfFile#"; float resolution.
 *   SP3X (Operation Flashpoint) LODs: the same header (minor 0x99),
 *   points and normals; a face is char texture[32] then the same 72
 *   fixed bytes with no names; a tag is char name[64], u32 size, data
 *   (aczwink/ArmA-Modding-Tools src/p3d/MLOD_Lod.cpp; p3d_mlod.c).
 *
 * Node tree (wl_chunk, header_size 0, id = P3D_NODE_*): header,
 * resolutions, ModelInfo (walked: {fields, skeleton, fields, animations};
 * else opaque), LODTable {starts, ends, permanent}, LoadableLodInfo
 * (walked: {info[i] per non-permanent LOD i}; else opaque), LOD[i] {head,
 * faces, rest} in file order, tail (ODOL);
 * header, LOD[i] {P3DM, points, normals, faces, TAGG, resolution}, tail
 * (MLOD).  Bytes no node explains are gap nodes; no node is empty.
 */
#ifndef P3D_H
#define P3D_H

#include <stdbool.h>
#include <stdint.h>

#include "core/chunk.h"
#include "core/format.h"

extern const wl_format p3d_format;

/* Node types (wl_chunk.id; names in p3d_types.c). */
enum {
	P3D_NODE_HEADER = 1,   /* magic .. LOD count (ODOL), magic .. nLods (MLOD) */
	P3D_NODE_RESOLUTIONS,  /* float[nLods] */
	P3D_NODE_MODELINFO,    /* ModelInfo + skeleton + animations (walk failed) */
	P3D_NODE_LODTABLE,     /* container: starts, ends, permanent */
	P3D_NODE_LODSTARTS,    /* u32[nLods] */
	P3D_NODE_LODENDS,      /* u32[nLods] */
	P3D_NODE_PERMANENT,    /* tbool[nLods] */
	P3D_NODE_LOADINFO,     /* LoadableLodInfo records (not walked) */
	P3D_NODE_LOD,          /* one LOD, label = its table index */
	P3D_NODE_TAIL,         /* after the last LOD (PhysX data from v59) */
	P3D_NODE_LODHEADER,    /* MLOD: P3DM or SP3X + counts, 28 bytes */
	P3D_NODE_POINTS,       /* MLOD: 16-byte points */
	P3D_NODE_NORMALS,      /* MLOD: 12-byte normals */
	P3D_NODE_FACES,        /* MLOD: variable-size faces */
	P3D_NODE_TAGS,         /* MLOD: TAGG list to #EndOfFile# */
	P3D_NODE_RESOLUTION,   /* MLOD: float resolution after the tags */
	P3D_NODE_LODHEAD,      /* ODOL LOD: proxies .. edges, before the faces */
	P3D_NODE_LODREST,      /* ODOL LOD: sections .. vertex data, after the faces */
	P3D_NODE_INFO,         /* ModelInfo walked (p3d_info.c): container */
	P3D_NODE_INFOFIELDS,   /* ModelInfo fields before / after the skeleton */
	P3D_NODE_SKELETON,     /* ModelInfo's skeleton (name, bones, pivots) */
	P3D_NODE_ANIMATIONS,   /* [v>=30] hasAnims + the animations */
	P3D_NODE_LODINFOS,     /* LoadableLodInfo records walked: container */
	P3D_NODE_LODINFO,      /* one LoadableLodInfo, label = its LOD's index */
	P3D_NODE__COUNT
};

/** The schema entry of node type id (a P3D_NODE_*), or NULL. */
const wl_chunk_type *p3d_type(uint32_t id);
/** Every node type (text form, dumps); *count set. */
const wl_chunk_type *p3d_schema(size_t *count);
/** Lookup for wl_format.lookup: ctx is ignored (ids are unique). */
const wl_chunk_type *p3d_lookup(uint16_t ctx, uint32_t id);
/** Short name of a node type ("LOD"), "0x..." for an unknown one. */
const char *p3d_id_name(uint32_t id);

/** The ODOL versions the public readers know: 7 (OFP) and 28..75. */
bool p3d_version_known(uint32_t version);

struct p3d_lodview;

/* An MLOD tag as the walk read it (p3d_mlod.c): its first byte (P3DM: the
 * active byte, the asciiz name after it; SP3X: the 64-byte name) and its
 * u32 size field (the data follows it).  Offsets fit 32 bits: an MLOD LOD
 * starts below 4 GiB (p3d_lod.start). */
typedef struct p3d_mtag {
	uint32_t at, size_at;
} p3d_mtag;

/* One LOD as located by the reader. */
typedef struct p3d_lod {
	float resolution;
	uint32_t start, end;   /* ODOL: from the LOD table; MLOD: its extent */
	uint8_t permanent;     /* ODOL: the table's flag byte */
	const wl_chunk *node;  /* its LOD node, NULL when it could not be placed */
	bool walked;           /* the reader's walk reached the LOD's end */
	/* ODOL: what its walk read (p3d_lodview.h, arena), NULL when the
	 * LOD was not walked. */
	const struct p3d_lodview *view;
	/* MLOD: counts read from its header. */
	uint32_t n_points, n_normals, n_faces;
	/* MLOD, what the walk read (p3d_mlod.c): the LOD kind, the nodes of
	 * its points and normals (NULL when none or not read: 16-byte points
	 * {float x, y, z; u32 flags}, 12-byte normals) and of its faces with
	 * each face's offset (n_faces, arena; NULL unless every face was
	 * read: P3DM u32 nVerts, 4 x {u32 point, normal; float u, v} ...,
	 * SP3X the same after a 32-byte texture name). */
	bool sp3x;
	const wl_chunk *points, *normals, *faces;
	const uint64_t *face_off;
	/* MLOD: the tags of its TAGG list as walked (n_tags, arena; NULL
	 * when the list was not read) and the list's node: named selections
	 * (data: one weight byte per point, then one byte per face, nonzero
	 * when selected), #Mass# (one float per point), ... #EndOfFile#. */
	const p3d_mtag *tags;
	uint32_t n_tags;
	const wl_chunk *tagnode;
	/* ODOL: the min and max of its decoded positions (finite ones, model
	 * coordinates, metres), set by p3d_lod.c positions() when it has any. */
	bool has_bounds;
	float vmin[3], vmax[3];
} p3d_lod;

/* A ModelInfo float field as the walk read it (p3d_info.c): what it is,
 * where, how many floats (1 or 3), the node it lies in. */
typedef struct p3d_infofloat {
	const char *what;
	uint64_t at;
	uint32_t k;
	const wl_chunk *node;
} p3d_infofloat;

/* An animation's bone index for one LOD (p3d_info.c): i32 at `at`,
 * animation class cls, animation LOD lod (-1: none). */
typedef struct p3d_animbone {
	uint64_t at;
	int32_t bone;
	uint32_t cls, lod;
} p3d_animbone;

typedef struct p3d_model {
	bool mlod;              /* MLOD magic (else ODOL) */
	uint32_t version;       /* the layout read: the header's version, or
	                         * (ODOL) the layout p3d_odol_layout found */
	uint32_t header_version;/* the version field as stored */
	uint32_t layout;        /* set before p3d_read_odol: read with this
	                         * version's layout (0: the header's) */
	bool trial;             /* set before p3d_read_odol: a trial of a
	                         * layout (p3d_odol_layout): stop at the first
	                         * part that does not read */
	bool header_complete;   /* the header up to the resolutions was read */
	bool has_reserved;      /* v >= 75: the two reserved words were read */
	uint32_t reserved[2];
	uint64_t reserved_off;
	uint32_t n_lods;
	uint64_t nlods_off;     /* offset of the u32 nLods */
	uint64_t res_off;       /* offset of resolution[0]; ODOL only */
	uint32_t n_res;         /* resolutions read (ODOL: <= n_lods) */
	bool table_found;       /* ODOL: the LOD table was located */
	bool table_contiguous;  /* the located table tiles its LODs */
	uint64_t table_off;     /* offset of lodStart[0] */
	p3d_lod *lods;          /* n_lods entries (arena) */
	p3d_lod **in_file;      /* ODOL, table found: the n_lods LODs in file
	                         * order (by start), the order they were
	                         * walked and the checks visit them in */
	const wl_chunk *header; /* the header node */
	const wl_chunk *table;  /* the LOD table node, or NULL */
	const wl_chunk *resolutions; /* ODOL resolutions node, or NULL */
	bool skeleton_read;        /* ModelInfo's skeleton was walked */
	uint32_t n_skeleton_bones; /* its bone count (0 when none) */
	bool info_walked;       /* ODOL: the ModelInfo walk (p3d_info.c) landed
	                         * on the LOD table the search found */
	/* ModelInfo's boxes (model coordinates, metres), when info_walked:
	 * bboxMin/Max, [v>=52] bboxMinVisual/MaxVisual, boundingCentre. */
	float bbox_min[3], bbox_max[3];
	float bbox_vis_min[3], bbox_vis_max[3];
	float bounding_centre[3];
	/* What the walk read for the checks, when info_walked (arena):
	 * ModelInfo's float fields; the skeleton's bone names, parent names
	 * and each parent name's offset (n_skeleton_bones each, NULL when
	 * none, in skeleton_node); the animations' bone indices (in
	 * anims_node). */
	const p3d_infofloat *info_floats;
	uint32_t n_info_floats;
	const char **bone_names, **bone_parents;
	const uint64_t *bone_parent_at;
	const wl_chunk *skeleton_node;
	const p3d_animbone *anim_bones;
	uint32_t n_anim_bones;
	const wl_chunk *anims_node;
} p3d_model;

/* The state of one ModelInfo walk (p3d_info.c). */
typedef struct p3d_info_walk {
	uint64_t table;          /* where the walk ended: the LOD table */
	const char *stopped;     /* the field that stopped it, or NULL */
	const char *why;         /* why ("runs past the end of the file") */
	uint64_t stop_at;        /* the offset of that field */
	uint64_t skel_at, skel_end; /* the skeleton's bytes */
	uint64_t anims_at;       /* hasAnims (v>=30), else the table */
	uint32_t n_bones;        /* skeleton bones read */
	uint64_t info_rec;       /* bytes of one LoadableLodInfo record */
	/* Nodes the second pass reports at (set by the caller). */
	const wl_chunk *fields_node, *skel_node, *fields2_node, *anims_node;
} p3d_info_walk;

/**
 * Walks ModelInfo, the skeleton and (v>=30) hasAnims + animations from
 * `from` (the byte after the resolutions; layout in p3d_info.c) and sets
 * w's offsets and m's boxes.  true when it reaches its end (w->table);
 * false with w->stopped, w->why, w->stop_at naming the field that
 * stopped it (past the end, no nul, a count too large for the file, an
 * undecodable mass array, an unknown animation type).  With record (a
 * second pass, w's nodes set) it also records in m what the checks of
 * lint/p3d/check_info.c read: the float fields, the skeleton's names, the
 * animations' bone indices.  Reports nothing.
 */
bool p3d_walk_info(wl_doc *d, p3d_model *m, uint64_t from, p3d_info_walk *w, bool record);

/** Whether the LoadableLodInfo records after the table at w->table (one
 *  per LOD whose permanent flag is 0) end exactly at first, the first
 *  LOD's start; sets w->info_rec. */
bool p3d_info_lod_infos(wl_doc *d, p3d_model *m, p3d_info_walk *w, uint64_t first);

/** Reads an ODOL file (magic checked by the caller) into d's tree and
 *  model (p3d_odol.c), with m->layout's version gates when set;
 *  findings p3d-truncated, p3d-lod-table-not-found, p3d-modelinfo-walk
 *  and those of p3d_walk_lod. */
void p3d_read_odol(wl_doc *d, p3d_model *m);

/** Whether d's ODOL read (m) got through: ModelInfo walked onto the LOD
 *  table and every LOD walked to its end. */
bool p3d_odol_read_ok(const wl_doc *d, const p3d_model *m);

/**
 * Where the read of d under its header's version (m, p3d_read_odol) did
 * not get through and that version is one the readers know: the other
 * known version (40 to 75, the versions of real files first: 73, 70, 68,
 * 59, 53, 50, 48, 40) under whose layout the whole file reads (a trial
 * read: ModelInfo onto a consistent table, every LOD to its end, no
 * reading finding); 0 when none does (p3d_relabel.c).
 */
uint32_t p3d_odol_layout(const wl_doc *d, const p3d_model *m);

/**
 * Walks ODOL LOD l (its table extent) under its node (p3d_lod.c: layout
 * and findings there): head, faces and rest nodes, l's bounds and l's
 * view (p3d_lodview.h); true when the walk lands exactly on the LOD's end.
 */
bool p3d_walk_lod(wl_doc *d, const p3d_model *m, p3d_lod *l, wl_chunk *node);

/** Reads an MLOD file (p3d_mlod.c); findings listed there. */
void p3d_read_mlod(wl_doc *d, p3d_model *m);

/**
 * Appends a node of type id over [off, off+size) under parent (core
 * wl_doc_add_node); NULL when out of memory, and for size 0 (the tree
 * holds no empty node).
 */
wl_chunk *p3d_node(wl_doc *d, wl_chunk *parent, uint32_t id, uint64_t off, uint64_t size);

/** Appends a gap node over [from, to) under parent when to > from. */
void p3d_gap(wl_doc *d, wl_chunk *parent, uint64_t from, uint64_t to);

#endif
