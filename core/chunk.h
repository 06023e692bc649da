/*
 * chunk.h - the recovering chunk reader, shared by every chunked format.
 *
 * Input: the bytes of one file (borrowed).  Output: a tree of wl_chunk nodes
 * that covers every byte of the file exactly once, in file order, plus
 * findings.  Bytes that belong to no chunk become WL_NODE_GAP nodes so the
 * writer can reproduce the file byte for byte.
 *
 * The format supplies a wl_format: the header layout and a schema lookup
 * (which ids are known in which parent, which are containers).  Containers
 * are recognised by type, never by the container bit alone, exactly as the
 * Westwood loaders do (notes/w3d_reference.md §1.1: no loader calls
 * Contains_Chunks()).
 *
 * Recovery (ARCHITECTURE.md "Chunk tree"), each reported with offset
 * and length:
 *   chunk-truncated        a chunk runs past the end of the file and its
 *                          content is cut (payload kept up to EOF)
 *   chunk-size-past-eof    a container's size runs past the end of the file
 *                          but its children end complete exactly at EOF
 *   chunk-overruns-parent  a child's size runs past its parent's end and the
 *                          child's size is judged wrong: the child is cut at
 *                          the parent's end
 *   container-size-too-small  a child runs past its parent's end and the
 *                          parent's size is judged wrong (the child tiles its
 *                          own declared extent and what follows the parent's
 *                          declared end is not a valid sibling): the parent
 *                          is extended and keeps adopting valid children
 *   container-size-at-eof  either of the two above where the container's
 *                          children end exactly at the end of the file, in
 *                          a format whose reader ends there
 *                          (wl_format.eof_ends_containers: W3D): the engine
 *                          loads it whole, so a warning
 *   container-bit-on-leaf  the size's bit 31 is set on a chunk known as data
 *   container-bit-missing  bit 31 is clear on a container with children
 *                          (legacy Renegade files: informational only)
 *   chunk-unknown          an id not known in its parent (kept, opaque)
 *   stray-bytes            bytes inside a container that hold no child
 *   trailing-bytes         bytes after the last top-level chunk
 *   chunk-size-wrong       a chunk's declared size is contradicted by the
 *                          bytes: its children stop short of it where a
 *                          valid sibling starts, or what follows it is no
 *                          chunk and a chain of valid siblings starts
 *                          nearby (a grown size that would swallow whole
 *                          siblings, a shrunk one that would leave bytes
 *                          unreadable), or an array's size disagrees with
 *                          the count its header gives (wl_format.counted_size)
 *                          and a valid sibling starts where the counted size
 *                          ends, or a data chunk's records
 *                          (wl_format.whole_records) are whole only at its
 *                          parent's end, fewer bytes than a header after its
 *                          declared end, or an unknown chunk's declared end
 *                          falls inside a chain of valid siblings that starts
 *                          in its payload and runs to its parent's end (or
 *                          fewer bytes than a header before one), or a
 *                          container's last child, valid as its child and as
 *                          its sibling, runs past its declared end by fewer
 *                          bytes than it starts before it (a shrunk size:
 *                          the engines read that child as the container's),
 *                          or a container's declared end, where no valid
 *                          chunk starts, falls inside a valid sibling that
 *                          starts before it and reads on to the end of the
 *                          range (bytes deleted inside the container): the
 *                          chunk is read with the size the bytes or counts
 *                          show (WL_REC_RESIZED)
 *   chunk-resync           an implausible header: the reader scanned forward
 *                          (at most WL_RESYNC_WINDOW bytes at a time) to the
 *                          next plausible chunk; or a header of an unknown id
 *                          inside which a chain of valid chunks starts (bytes
 *                          inserted before a chunk): reading resumes there;
 *                          the skipped bytes are a gap
 *   chunk-depth-limit      nesting deeper than the limit (kept opaque)
 *   file-empty             a zero-length file
 *
 * The reader fails only on out-of-memory (wl_doc.oom); any input is a
 * document.
 */
#ifndef WL_CHUNK_H
#define WL_CHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "finding.h"
#include "format.h"

#define WL_RESYNC_WINDOW ((uint64_t)64 * 1024)
#define WL_MAX_DEPTH 64
/* Per-document arena limit: WL_ARENA_PER_BYTE bytes per file byte, at least
 * WL_ARENA_MIN_LIMIT (also the bound of a P3D block's decoded size).  Real
 * files need far less (the shared corpus: at most 2.5 bytes per byte above
 * 100 KB with 104-byte nodes); a file of 8-byte empty chunks needs 8 (one
 * 64-byte node each) and is read whole; with the file itself and the
 * program's own memory (about 3.6 MB) a process stays within 16 bytes per
 * input byte from 1 MB up (tests/bench_scale.sh); a file that would need
 * more (all zeros as W3D: an empty MESH and its model every 8 bytes) stops
 * at the limit with an out-of-memory finding, so memory stays linear in the
 * input whatever it holds. */
#define WL_ARENA_PER_BYTE ((uint64_t)10)
#define WL_ARENA_MIN_LIMIT ((uint64_t)4 << 20)

/* Schema entry of one chunk type in one parent context. */
typedef struct wl_chunk_type {
	uint32_t id;
	uint16_t ctx;        /* parent context this entry is valid in */
	uint16_t child_ctx;  /* context of its children; 0 = data chunk */
	const char *name;    /* full spec name, e.g. "W3D_CHUNK_MESH_HEADER3" */
	const char *short_name; /* path name, e.g. "MESH_HEADER3" */
	uint32_t elem_size;  /* array chunks: bytes per element, else 0 */
	uint32_t min_size;   /* fixed-size record chunks: struct size, else 0 */
	uint32_t flags;      /* format-specific (WL_TYPE_*) */
} wl_chunk_type;

#define WL_TYPE_OPAQUE 0x1u    /* payload never parsed (e.g. SOUNDROBJ_DEFINITION) */
#define WL_TYPE_EXTENSION 0x2u /* community/BFME extension, not retail */
#define WL_TYPE_OBSOLETE 0x4u  /* obsolete id, still known */
#define WL_TYPE_STRING 0x8u    /* NUL-terminated text payload */
#define WL_TYPE_ONE_FOR_ALL 0x10u /* array whose single element means "the
                                     same for every vertex/triangle" (W3D
                                     id arrays, meshmdlio.cpp:1104, 1148,
                                     1410): a cut one that keeps one
                                     element would change meaning
                                     (fix/fix_structure.c) */
#define WL_TYPE_OPTIONAL 0x20u /* a child its container loads without
                                  (B3D TRIS: one surface of a MESH; ANIM:
                                  a node's animation): a container that
                                  loses a cut one stays a whole element
                                  (fix/fix_structure.c salvage) */

typedef enum wl_node_kind { WL_NODE_CHUNK = 0, WL_NODE_GAP = 1, WL_NODE_ROOT = 2 } wl_node_kind;

/* Recovery marks (wl_chunk.recovery), one bit per case above. */
enum {
	WL_REC_TRUNCATED = 1u << 0,
	WL_REC_PAST_EOF = 1u << 1,
	WL_REC_CLAMPED = 1u << 2,
	WL_REC_EXTENDED = 1u << 3,
	WL_REC_RESYNCED = 1u << 4,  /* found by a forward scan */
	WL_REC_FLAG_ON_LEAF = 1u << 5,
	WL_REC_FLAG_MISSING = 1u << 6,
	WL_REC_DEPTH = 1u << 7,
	WL_REC_STRAY = 1u << 8,     /* gap: stray bytes inside a container */
	WL_REC_TRAILING = 1u << 9,  /* gap: bytes after the last chunk */
	WL_REC_SKIPPED = 1u << 10,  /* gap: bytes skipped by a resync */
	WL_REC_RESIZED = 1u << 11   /* read with the size the bytes show */
};

/* A payload that replaces a chunk's bytes (edit.h), in the arena. */
typedef struct wl_payload {
	size_t size;              /* bytes */
	uint8_t bytes[];
} wl_payload;

/*
 * One node of the tree, 64 bytes (the reader makes one per chunk and per
 * gap, and hands them out of batches with no alignment padding: a file of
 * empty 8-byte chunks costs 8 bytes of nodes per input byte).  Offsets and
 * sizes are 32-bit: a document holds at most WL_DOC_MAX_BYTES.  What most
 * nodes never have lives elsewhere: a decoder's label and an edit's new
 * payload in the document's side table (wl_chunk_label, edit.h), the last
 * child and the count of children are found by walking the children
 * (wl_chunk_last_child, wl_chunk_child_count).
 */
typedef struct wl_chunk {
	uint32_t id;              /* chunk type as read (gap: 0) */
	uint32_t declared_size;   /* payload size from the header, bit 31 masked */
	uint32_t offset;          /* absolute offset of the header (gap: first byte) */
	uint32_t size;            /* payload bytes attributed to this chunk (gap: byte count) */
	uint32_t kind : 2;        /* wl_node_kind */
	uint32_t flag_bit : 1;    /* bit 31 of the size field as read */
	uint32_t container : 1;   /* children were parsed */
	uint32_t replaced : 1;    /* edit state: a new payload (side table) replaces the payload */
	uint32_t path_twins : 1;  /* path index (wl_chunk_path): another node of
	                           * the parent has this kind and id */
	uint32_t path_indexed : 1;/* set on a parent: its children's path_twins
	                           * and same_index are current */
	uint32_t dirty : 5;       /* edit state (edit.h WL_DIRTY_*): rebuilt by
	                           * the writer, not copied */
	uint32_t recovery : 12;   /* WL_REC_* */
	uint32_t header_size : 8; /* bytes of header (gap: 0) */
	/* Container: bytes of its own fields at the start of its payload,
	 * before the first child (wl_format.fields_size; 0 for W3D).  The
	 * children start at wl_chunk_payload_offset(c) + fields. */
	uint32_t fields;
	uint32_t same_index;      /* path index: index among the parent's nodes
	                           * of this kind and id (valid while the
	                           * parent's path_indexed is set) */
	uint32_t side;            /* 1 + its entry in the document's side table
	                           * (label, new payload), 0 when it has none */
	const wl_chunk_type *type;/* schema entry, NULL when unknown or gap */
	struct wl_chunk *parent, *first_child, *next;
} wl_chunk;

_Static_assert(sizeof(wl_chunk) <= 64, "a node is at most 64 bytes (chunk.h)");

/* The largest document: offsets and sizes of nodes are 32-bit.  Input files
 * are far smaller (core/file_io.h WL_INPUT_MAX_BYTES). */
#define WL_DOC_MAX_BYTES ((uint64_t)UINT32_MAX)

/* What a few nodes have (wl_chunk.side): kept out of the node so that the
 * node stays small. */
typedef struct wl_chunk_side {
	const char *label;        /* object name set by a decoder, for paths */
	wl_payload *new_payload;  /* edit state (edit.h): replacement payload
	                           * of a data chunk, or a container's
	                           * replacement fields (when replaced is set);
	                           * in the arena, this chunk's own copy */
} wl_chunk_side;

/* One edit recorded in a document's log (edit.h). */
typedef struct wl_edit {
	const wl_chunk *chunk;   /* node edited (for the chunk path) */
	const char *rule;        /* rule id the edit repairs (static), or NULL */
	const char *what;        /* lower case, "numvertices 5 -> 4" style (arena) */
	uint64_t offset;         /* input offset of the bytes changed (or node) */
} wl_edit;

typedef struct wl_edit_log {
	wl_edit *items;          /* malloc-owned, freed by wl_doc_free */
	size_t count, cap;
} wl_edit_log;

static inline uint64_t wl_chunk_payload_offset(const wl_chunk *c)
{
	return (uint64_t)c->offset + c->header_size;
}
static inline uint64_t wl_chunk_end(const wl_chunk *c)
{
	return (uint64_t)c->offset + c->header_size + c->size;
}


typedef struct wl_doc {
	const char *path;        /* for reports; borrowed */
	const uint8_t *bytes;    /* borrowed file contents */
	uint64_t size;           /* bytes */
	const wl_format *format;
	wl_arena *arena;
	wl_chunk root;           /* WL_NODE_ROOT; its children are the top level */
	wl_findings findings;
	uint64_t chunk_count;    /* nodes of kind WL_NODE_CHUNK */
	bool oom;                /* out of memory: the tree is incomplete */
	void *model;             /* format model built by a decoder (arena) */
	wl_edit_log edits;       /* edits made through edit.h */
	/* The reader's batch of unused nodes (core/chunk.c): node_pool_left
	 * nodes from node_pool on, in the arena; node_batch the last batch's
	 * size in nodes. */
	wl_chunk *node_pool;
	uint32_t node_pool_left, node_batch;
	/* The last node the reader or wl_doc_add_node appended (its ancestors
	 * are the last children of theirs: appending stays O(depth)); NULL
	 * once an edit relinked nodes. */
	wl_chunk *last_added;
	/* The side table (wl_chunk.side): side_count entries in blocks of
	 * WL_SIDE_BLOCK in the arena, side_blocks (malloc-owned) their list. */
	wl_chunk_side **side_blocks;
	uint32_t side_count;
	size_t side_blocks_cap;
} wl_doc;

#define WL_SIDE_BLOCK 256u

/**
 * Reads bytes[0..size) as a chunk file of format fmt.  The bytes and path are
 * borrowed and must outlive the document.  Returns NULL only when out of
 * memory before anything could be built; otherwise a document whose tree
 * covers the whole file (check doc->oom).  Free with wl_doc_free().
 */
wl_doc *wl_doc_read(const wl_format *fmt, const char *path, const uint8_t *bytes, uint64_t size);

/**
 * A document of format fmt whose tree is one gap node holding the whole
 * file (none for an empty file), with no findings: for a file the format's
 * reader refuses to parse (b3d-not-b3d), so reports, the writer and dumps
 * still see every byte.  NULL only when out of memory.
 */
wl_doc *wl_doc_opaque(const wl_format *fmt, const char *path, const uint8_t *bytes, uint64_t size);

/**
 * A document of format fmt over bytes[0..size) with an empty tree and no
 * findings, for a format's own reader (wl_format.read) to fill with
 * wl_doc_add_node.  NULL only when out of memory.
 */
wl_doc *wl_doc_empty(const wl_format *fmt, const char *path, const uint8_t *bytes, uint64_t size);

/**
 * Appends a node of kind (WL_NODE_CHUNK or WL_NODE_GAP) covering
 * [offset, offset+size) as the last child of parent, header_size 0; the
 * caller keeps the children in file order and sets type, id, label.
 * NULL (and d->oom set) when out of memory.
 */
wl_chunk *wl_doc_add_node(wl_doc *d, wl_chunk *parent, uint8_t kind, uint64_t offset, uint64_t size);

/** Frees the document, its arena and its findings (not the bytes). */
void wl_doc_free(wl_doc *d);

/** The payload bytes of c (payload_offset .. +size). */
static inline const uint8_t *wl_chunk_payload(const wl_doc *d, const wl_chunk *c)
{
	return d->bytes + wl_chunk_payload_offset(c);
}

/** The label a decoder gave c (an object's name, for paths), or NULL. */
const char *wl_chunk_label(const wl_doc *d, const wl_chunk *c);

/**
 * Sets c's label (NULL clears it); label must live as long as the
 * document (static or in its arena).  -1 (and d->oom set) when out of
 * memory, else 0.
 */
int wl_chunk_set_label(wl_doc *d, wl_chunk *c, const char *label);

/** c's side-table entry (wl_chunk_side), or NULL when it has none. */
wl_chunk_side *wl_chunk_side_of(const wl_doc *d, const wl_chunk *c);

/** c's side-table entry, made (zeroed) when it has none; NULL (and d->oom
 *  set) when out of memory. */
wl_chunk_side *wl_chunk_side_make(wl_doc *d, wl_chunk *c);

/** The last node among c's children, or NULL (a walk over them). */
wl_chunk *wl_chunk_last_child(const wl_chunk *c);

/** The number of nodes among c's children (chunks and gaps; a walk). */
uint32_t wl_chunk_child_count(const wl_chunk *c);

/**
 * Whether c, a container the reader extended (WL_REC_EXTENDED) or found
 * past the end of the file (WL_REC_PAST_EOF), is the container-size-at-eof
 * case: its format's reader ends containers at the end of the file
 * (wl_format.eof_ends_containers) and c's content, as read, ends exactly
 * there, so nothing follows it at any level.  The reader reports such a
 * container under container-size-at-eof and fix/fix_structure.c repairs it
 * under the same id.
 */
bool wl_chunk_size_wrong_at_eof(const wl_doc *d, const wl_chunk *c);

/** Path name of one chunk ("MESH_HEADER3", or "0x1234" when unknown). */
const char *wl_chunk_name(const wl_doc *d, const wl_chunk *c);

/**
 * Writes the chunk path of c into buf (at most cap bytes, NUL-terminated):
 * NAME[label] when a decoder set a label (wl_chunk_label), NAME#k when the parent holds more
 * than one chunk of that id (k counts from 0 among them), then "/" to the
 * next level; element >= 0 appends "[element]".  Returns buf.
 */
char *wl_chunk_path(const wl_doc *d, const wl_chunk *c, int64_t element, char *buf, size_t cap);

/** First child of parent with the given id, or NULL. */
const wl_chunk *wl_chunk_find(const wl_chunk *parent, uint32_t id);

/** Next sibling after c with the same id, or NULL. */
const wl_chunk *wl_chunk_next_same(const wl_chunk *c);

/**
 * The node whose children are d's objects (what w3dfix's verification
 * keeps, fix/driver.c, and tests/tools/salvage_gen.c damages): the root, or
 * its one chunk when that is a container with fields of its own holding
 * everything (B3D's BB3D with its version; a W3D file of one MESH is one
 * object, not its arrays).
 */
const wl_chunk *wl_doc_object_level(const wl_doc *d);

/**
 * The first offset in [from, to) (absolute, to at most d->size) where a
 * chunk of a type known among parent's children starts that the reader
 * would resync to: its header fits before to, its payload is not empty,
 * a container's first child is known and fits and its children tile its
 * payload (a data chunk's size suits its type), and what follows it is the
 * end of [from, to), another header that fits, or a header of a known id
 * whatever its size (the last object of a file can itself be broken, as
 * RotWK's HLODs are); or where such a chunk starts whose header lies in
 * [from, to) and that runs exactly to the end of the file, reading whole
 * there (bytes inserted before it left the reader resyncing inside it).
 * UINT64_MAX when there is none, or when d's format has no chunk headers
 * (wl_format.read_header; P3D).  For w3dfix's verification (fix/driver.c): bytes a repair drops
 * as unreadable or trailing must hold no such chunk.  Linear in to - from.
 */
uint64_t wl_doc_find_chunk(const wl_doc *d, const wl_chunk *parent, uint64_t from, uint64_t to);

#endif
