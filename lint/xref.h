/*
 * xref.h - the cross-file checks of a linted folder: each format of
 * lint/registry.c that has cross-file rules contributes an index
 * (wl_xref_ops; W3D's is lint/w3d/xref.h, which documents its rules:
 * missing render objects, hierarchies and textures, pivots and bones out of
 * range across files, duplicate definitions, skin bounds in another file's
 * bind pose).  This engine routes each document to its format's index,
 * walks texture folders for all of them and collects their findings.
 *
 * Use:
 *
 *   wl_xref *x = wl_xref_new();
 *   for each linted file:  wl_xref_add(x, path, doc);   // doc may be freed after
 *   wl_xref_scan_textures(x, root);                      // once per root
 *   wl_xref_check(x, emit, user);                         // findings, sorted
 *   wl_xref_free(x);
 *
 * wl_xref_add copies everything it keeps, so each document can be freed
 * right after it was added.  The functions may be called from several
 * threads at once (each format's index locks itself); the findings do not
 * depend on the order of the calls: each format's are sorted by path,
 * offset and rule id, and the formats follow in registry order.
 */
#ifndef WL_XREF_H
#define WL_XREF_H

#include <stddef.h>
#include <stdint.h>

#include "core/archive/archive.h"
#include "core/chunk.h"
#include "core/rule_ids.h"

typedef struct wl_xref wl_xref;

/** One cross-file finding.  Every string is owned by the index and valid
 *  only during the callback. */
typedef struct wl_xref_finding {
	const char *path;       /* file the finding is in (as given to wl_xref_add) */
	const char *related;    /* the other file involved, or NULL when the
	                           referenced object exists in no file */
	wl_rule_id rule;        /* rule handle (wl_rule_name gives its id) */
	uint64_t offset;        /* absolute byte offset in path */
	uint64_t length;        /* bytes covered */
	const char *chunk_path; /* e.g. "HLOD[TANK]/HLOD_LOD_ARRAY/HLOD_SUB_OBJECT#1" */
	const char *message;    /* lower case, names both files where there are two */
	const char *unresolved; /* the name referenced when no indexed file
	                           defines it and the base game may (a
	                           texture, hierarchy or render object of a
	                           flat name space), else NULL.  Without a
	                           base game (--base, base:) the run folds
	                           these into one note (lint/run/run.h); with
	                           one, each is reported */
	bool unchecked;         /* with unresolved: a name the index could
	                           not check (P3D: a path outside every addon
	                           it holds), counted in the note without a
	                           base game and dropped with one */
} wl_xref_finding;

/** Receives each finding; user is passed through. */
typedef void (*wl_xref_emit_fn)(void *user, const wl_xref_finding *f);

/* What a format contributes (lint/registry.c, wl_lint_format.xref): its
 * index, with the functions of this header for its own documents. */
typedef struct wl_xref_ops {
	void *(*create)(void);
	void (*destroy)(void *index);
	int (*add)(void *index, const char *path, const wl_doc *doc);
	/* 1: recorded as a texture, 0: not a texture of this format, -1: out
	 * of memory. */
	int (*add_texture_file)(void *index, const char *path);
	long (*check)(void *index, wl_xref_emit_fn emit, void *user);
	/* An entry of an archive of the run (or of a base folder) at archive
	 * path `archive`, offered as a file the game can find there: 1 when
	 * recorded, 0 when not one of this format's, -1 when out of memory.
	 * NULL: the format takes no archive entries. */
	int (*add_entry)(void *index, const char *archive, const wl_archive *a, const wl_archive_entry *e);
	/* The places searched, as messages name them (wl_xref_set_scope);
	 * -1 when out of memory.  NULL: the format's messages name none. */
	int (*set_scope)(void *index, const char *scope);
} wl_xref_ops;

/** A new, empty index, or NULL when out of memory. */
wl_xref *wl_xref_new(void);

/** Frees the index (NULL is allowed). */
void wl_xref_free(wl_xref *x);

/**
 * Records what the decoded document defines and references, in the index of
 * its format (doc->model must be the format's model, as after
 * wl_lint_bytes; a document without a model, or of a format without
 * cross-file rules, adds nothing).  path is copied.  Returns 0, or -1 when
 * out of memory (the index then holds part of the file).
 */
int wl_xref_add(wl_xref *x, const char *path, const wl_doc *doc);

/**
 * Offers one file found on disk to every format's index as a texture (each
 * keeps the files that are textures to it: W3D .tga / .dds by base name).
 * Returns 0, or -1 when out of memory.
 */
int wl_xref_add_texture_file(wl_xref *x, const char *path);

/**
 * Offers every readable entry of the archive at path (its document from
 * wl_archive_read or lint.h wl_lint_archive: doc->model is the wl_archive)
 * to every format's index as a file the game finds in it (W3D: BIG
 * textures under Art/Textures; P3D: PBO files at the PBO's prefix).  The
 * model entries themselves are added with wl_xref_add under their names
 * "ARCHIVE:PATH".  Returns 0, or -1 when out of memory.
 */
int wl_xref_add_archive(wl_xref *x, const char *path, const wl_doc *doc);

/**
 * Walks the directory tree at root (symbolic links to directories are not
 * followed; at most 64 levels) and offers every regular file (or link to
 * one) to wl_xref_add_texture_file.  Returns the number of files some index
 * recorded as a texture, or -1 when root cannot be opened or memory runs
 * out.
 */
long wl_xref_scan_textures(wl_xref *x, const char *root);

/**
 * Names the places the index was filled from, for the messages of
 * references found nowhere (e.g. "'mod' or the base 'ZH/Art'": "which no
 * file of 'mod' or the base 'ZH/Art' defines"); the text is copied, raw
 * (the reports escape messages with core/escape.h).  Until it is called
 * the messages say "the folder".  Returns 0, or -1 when out of memory.
 */
int wl_xref_set_scope(wl_xref *x, const char *scope);

/**
 * Runs every format's cross-file checks and calls emit once per finding:
 * the formats in registry order, each's findings sorted by path, offset and
 * rule id.  May be called more than once.  Returns the number of findings,
 * or -1 when out of memory (a format that ran out emits nothing).
 */
long wl_xref_check(wl_xref *x, wl_xref_emit_fn emit, void *user);

#endif
