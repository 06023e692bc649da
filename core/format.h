/*
 * format.h - the format descriptor: what the engines know of a file format,
 * and the one registry that lists the formats (core/registry.c).
 *
 * The engines (core/, lint/, fix/, textform/, cli/ at their roots) never
 * name a format: they detect one with wl_format_detect(), read the file
 * through its descriptor and hand the document to the per-format parts of
 * the other layers through those layers' registries (lint/registry.c,
 * fix/registry.c, textform/registry.c), which find them by wl_format.name.
 *
 * Chunk (TLV) formats - W3D and B3D - fill the layout part and leave `read`
 * NULL: core/chunk.c reads them (wl_doc_read).  Other formats (P3D) give
 * their own `read`, which builds the same kind of node tree.
 */
#ifndef WL_FORMAT_H
#define WL_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wl_doc;
struct wl_chunk;
struct wl_chunk_type;

/* The bytes wl_format.detect looks at, at most. */
#define WL_DETECT_BYTES 64

/* Content detection scores (wl_format.detect). */
enum {
	WL_DETECT_NO = 0,     /* the bytes are not this format */
	WL_DETECT_WEAK = 25,  /* a plausible first header, no magic */
	WL_DETECT_MAGIC = 100 /* the format's magic bytes matched */
};

typedef struct wl_format {
	/* --- identity --- */
	const char *name;   /* short lower-case id: "w3d"; reports' `format` */
	const char *title;  /* for help and messages: "Westwood/EA W3D" */
	/* File-name extensions a folder walk picks up, lower case without the
	 * dot, NULL-terminated; matched in any letter case. */
	const char *const *extensions;
	/* How surely bytes[0..size) are this format: WL_DETECT_*.  Looks at
	 * most at the first WL_DETECT_BYTES bytes; never fails. */
	int (*detect)(const uint8_t *bytes, uint64_t size);
	/* A file taken for this format (by its name) whose detect() is
	 * WL_DETECT_NO is refused by the reader with one finding that looks
	 * only at its first refused_head bytes (B3D, P3D: the magic); the
	 * input reader then reads no more of it (core/file_io.h
	 * WL_READ_SNIFF).  0: such a file is read whole (W3D resyncs over
	 * anything). */
	uint8_t refused_head;

	/* --- reading --- */
	/* Reads a whole file (see wl_doc_read for the contract); NULL means the
	 * chunk reader of core/chunk.c with the layout below. */
	struct wl_doc *(*read)(const struct wl_format *f, const char *path, const uint8_t *bytes,
			       uint64_t size);
	/* Decodes the typed model of a document read with this format into the
	 * document's arena (doc->model is set to it) and reports the decoders'
	 * findings.  NULL only when out of memory (doc->oom). */
	void *(*build_model)(struct wl_doc *doc);
	/* Dialects (`--game`): parses a dialect name (false: not one of this
	 * format's), and applies one to a built model.  NULL: no dialects. */
	bool (*dialect_parse)(const char *name, int *out);
	void (*dialect_set)(void *model, int dialect);
	const char *dialect_names;  /* "renegade, generals, bfme, w3dhub" */
	/* w3dfix and w3dasm may write files of this format (false: read-only,
	 * as P3D). */
	bool writable;
	/* w3dfix may repair these bytes although the format is not writable
	 * (P3D: MLOD files, never ODOL); false with *why (static text, for
	 * "not repaired: WHY") when it may not.  NULL: writable decides. */
	bool (*repairable)(const uint8_t *bytes, uint64_t size, const char **why);

	/* --- chunk layout (TLV formats) --- */
	uint8_t header_size;       /* bytes per chunk header */
	bool has_container_bit;    /* bit 31 of the size marks containers */
	/* The engine's reader ends every open container when a header read
	 * fails at the end of the file (W3D: ChunkLoadClass::Open_Chunk
	 * returns false), so a container whose size is wrong but whose
	 * children end exactly there loads whole: container-size-at-eof, a
	 * warning, instead of container-size-too-small / chunk-size-past-eof
	 * (wl_chunk_size_wrong_at_eof in core/chunk.h). */
	bool eof_ends_containers;
	/* Reads a header at p (header_size bytes available). */
	void (*read_header)(const uint8_t *p, uint32_t *id, uint32_t *size, bool *flag);
	/* Schema entry of id inside parent context ctx (0 = top level), or NULL. */
	const struct wl_chunk_type *(*lookup)(uint16_t ctx, uint32_t id);
	/* Short name of an id in any context, for messages ("0x1234" if none). */
	const char *(*id_name)(uint32_t id);
	/* The whole schema table (text form, dictionaries). */
	const struct wl_chunk_type *(*schema)(size_t *count);
	/* Containers whose payload starts with fields of their own before the
	 * sub-chunks (B3D: BB3D's version, NODE's name and transform, MESH's
	 * brush_id): the number of bytes of those fields for a container of
	 * type t whose payload is payload[0..avail); at most avail (a field
	 * running past avail takes all of it).  NULL: every container payload
	 * is sub-chunks only (W3D). */
	uint64_t (*fields_size)(const struct wl_chunk_type *t, const uint8_t *payload, uint64_t avail);
	/* Chunk ids are four ASCII characters (B3D tags): paths and messages
	 * print the tag, not a number. */
	bool tag_ids;
	/* The records of a data chunk of type id whose payload is
	 * payload[0..n) (bytes that exist): how many leading bytes of it are
	 * whole records, the chunk's header fields included (n when the
	 * payload is whole records and nothing else); 0 when not even the
	 * header fields are whole.  NULL: the schema's elem_size decides (W3D
	 * arrays).  Used by fix/fix_structure.c drop-unreadable (what a chunk
	 * cut by the end of the file keeps) and by the chunk reader (a size
	 * whose records are not whole, where the parent's end makes them
	 * whole, is wrong: core/chunk.c, chunk-size-wrong). */
	uint64_t (*whole_records)(uint32_t id, const uint8_t *payload, uint64_t n);
	/* The payload size in bytes that counts give a data chunk of type t
	 * about to be read as parent's next child, its payload at absolute
	 * offset payload: counts read before it (a header among parent's
	 * children already read) or at the start of its own payload (a
	 * channel's frame or key count); 0 when none does.  The chunk reader
	 * takes a declared size that disagrees with it as wrong when a valid
	 * sibling starts where the counted size ends (core/chunk.c,
	 * chunk-size-wrong).  NULL: no counts (B3D). */
	uint64_t (*counted_size)(const struct wl_doc *d, const struct wl_chunk *parent,
				 const struct wl_chunk_type *t, uint64_t payload);
} wl_format;

/** The registered formats, in detection order; *count set. */
const wl_format *const *wl_formats(size_t *count);

/** Whether w3dfix may repair bytes of format f (wl_format.writable, else
 *  wl_format.repairable); when not, *why says why (static text). */
bool wl_format_repairable(const wl_format *f, const uint8_t *bytes, uint64_t size, const char **why);

/** The format named name ("w3d"), or NULL. */
const wl_format *wl_format_find(const char *name);

/** The format whose extensions include path's, in any letter case, or NULL. */
const wl_format *wl_format_by_extension(const char *path);

/**
 * The format of a file: the best content score (wl_format.detect) when one
 * is above WL_DETECT_NO; else the format of path's extension; else the
 * first registered format (W3D), whose reader reports what it finds.
 * path may be NULL.  Never NULL.
 */
const wl_format *wl_format_detect(const uint8_t *bytes, uint64_t size, const char *path);

/**
 * How many leading bytes of a file its reader needs: size, or fewer for a
 * file the format picked for it refuses by its first bytes
 * (wl_format.refused_head).  head holds the file's first
 * min(size, WL_DETECT_BYTES) bytes; size is the whole file's; path as for
 * wl_format_detect.
 */
uint64_t wl_format_read_extent(const uint8_t *head, uint64_t size, const char *path);

/** Reads bytes with format f (f->read, or the chunk reader). */
struct wl_doc *wl_format_read(const wl_format *f, const char *path, const uint8_t *bytes,
			      uint64_t size);

/**
 * Parses a dialect name against every format: on success *f is the format
 * it belongs to and *dialect its value.  "auto" is every format's default
 * and gives *f = NULL.  False for an unknown name.
 */
bool wl_format_dialect_parse(const char *name, const wl_format **f, int *dialect);

/** "renegade, generals, ..." of every format, comma-separated (static). */
const char *wl_format_dialect_names(void);

#endif
