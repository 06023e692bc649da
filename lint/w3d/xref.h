/*
 * xref.h - the W3D cross-file index of a linted folder (rules/w3d/
 * reference.yaml): W3D's contributor to lint/xref.h, registered in
 * lint/registry.c.  The functions are those of lint/xref.h for W3D
 * documents only; lint/xref.c calls them.
 *
 * When w3dlint lints a folder, every W3D file can name objects that live in
 * other files: HLOD sub-objects name render objects ("CONTAINER.MESH"),
 * HLODs and animations name a hierarchy, meshes and emitters name texture
 * files.  The engine resolves these names at load time through its asset
 * manager, case-insensitively and by name only, whichever file defined
 * them (notes/w3d_reference.md §1.5, §3 A13, B16, F1, F4, G4, G5).
 *
 * Use:
 *
 *   w3d_xref *x = w3d_xref_new();
 *   for each linted file:  w3d_xref_add(x, path, doc);   // doc may be freed after
 *   wl_xref_scan_textures(x, root);                      // once per root
 *   w3d_xref_check(x, emit, user);                         // findings, sorted
 *   w3d_xref_free(x);
 *
 * wl_xref_add copies everything it keeps (names, offsets, chunk paths), so
 * each document can be freed right after it was added.  The functions lock
 * an internal mutex, so worker threads may add documents concurrently; the
 * findings do not depend on the order of the calls (they are sorted by path,
 * offset and rule id before they are emitted).
 *
 * Rules (severities come from the catalogue, rules/reference.yaml):
 *   reference-mesh-missing      an HLOD LOD or aggregate sub-object names a
 *                               render object that no file of the folder
 *                               defines (meshes, boxes, HLODs, null objects,
 *                               dazzles, emitters, aggregates, spheres, rings,
 *                               hierarchical / LOD models, collections)
 *   reference-hierarchy-missing an HLOD's or animation's HierarchyName names a
 *                               hierarchy no file defines
 *   reference-hierarchy-too-few-pivots an animation channel's pivot is not
 *                               below the pivot count of its hierarchy, which
 *                               is in another file
 *   reference-bone-out-of-range an HLOD sub-object's BoneIndex, or a bone of
 *                               a skin mesh it uses, is not below the pivot
 *                               count of the HLOD's hierarchy, where the
 *                               objects are not all in one file
 *   reference-texture-missing   a texture named by a mesh (TEXTURE_NAME) or
 *                               an emitter (EMITTER_INFO.TextureFilename) is
 *                               not a .tga or .dds file of the scanned tree
 *   mesh-bounds-box, mesh-bounds-sphere  a skin mesh whose hierarchy is in
 *                               another file: its vertices put into that
 *                               hierarchy's base pose (core/w3d/bind_pose.h;
 *                               the hierarchy named by the HLOD of the
 *                               skin's file, or else by the first HLOD of
 *                               the folder that uses it) are compared with
 *                               its header bounds, with the catalogue's
 *                               default tolerance 0.001 (lint/check_geometry.c
 *                               does it when the hierarchy is in the file)
 *   skin-bounds-unchecked       such a skin whose hierarchy no file defines,
 *                               or that no HLOD of the folder uses; w3dlint
 *                               drops the single-file skin-bounds-unchecked
 *                               of every indexed file, this takes over
 *   duplicate-definition        one name (render object, hierarchy or
 *                               animation "HIERARCHY.ANIM") is defined in two
 *                               different files
 *
 * The three *-missing findings carry the name referenced
 * (wl_xref_finding.unresolved): without a base game the run folds them
 * into one note.
 *
 * Relations inside one file are left to the single-file rules
 * (skin-bone-out-of-range, hlod-bone-index-out-of-range,
 * anim-channel-pivot-out-of-range), so no finding is reported twice.
 */
#ifndef WL_W3D_XREF_H
#define WL_W3D_XREF_H

#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"
#include "lint/xref.h"

typedef struct w3d_xref w3d_xref;

/** A new, empty index, or NULL when out of memory. */
w3d_xref *w3d_xref_new(void);

/** Frees the index (NULL is allowed). */
void w3d_xref_free(w3d_xref *x);

/**
 * Records what the decoded document defines and references (doc->model
 * must be the w3d_model built by w3d_model_build, as after wl_lint_bytes;
 * a document without a model adds nothing).  path is copied.  Returns 0, or
 * -1 when out of memory (the index then holds part of the file).
 */
int w3d_xref_add(w3d_xref *x, const char *path, const wl_doc *doc);

/**
 * Records one texture file found on disk.  Only the file's base name counts,
 * letter case ignored, and .tga / .dds stand for each other (the games look
 * textures up by base name in case-insensitive archives and directories,
 * and load a .dds in place of a named .tga).  Other extensions are ignored.
 * Returns 1 when recorded, 0 when not a W3D texture file, -1 when out of
 * memory.  Until at least one texture file has been recorded, the check
 * reports no reference-texture-missing (a folder without textures relies on
 * the game's).
 */
int w3d_xref_add_texture_file(w3d_xref *x, const char *path);

/**
 * An entry of an archive of the run (lint/xref.h wl_xref_add_archive): a
 * .tga or .dds entry of a BIG archive under Art/Textures/ (letter case
 * ignored; the folder the SAGE games load textures from, ZH
 * W3DFileSystem.h TGA_DIR_PATH) is recorded as by
 * w3d_xref_add_texture_file.  Returns 1 when recorded, 0 when not, -1
 * when out of memory.
 */
int w3d_xref_add_entry(w3d_xref *x, const char *archive, const wl_archive *a, const wl_archive_entry *e);

/**
 * The places the index was filled from, as the messages of references
 * found nowhere name them (lint/xref.h wl_xref_set_scope); copied.  Until
 * set they say "the folder".  Returns 0, or -1 when out of memory.
 */
int w3d_xref_set_scope(w3d_xref *x, const char *scope);

/**
 * Checks every recorded reference against every recorded definition and
 * calls emit once per finding, sorted by path, offset and rule id.  May be
 * called more than once.  Returns the number of findings, or -1 when out of
 * memory (no finding is emitted then).
 */
long w3d_xref_check(w3d_xref *x, wl_xref_emit_fn emit, void *user);

/** The contributor registered for "w3d" in lint/registry.c. */
extern const wl_xref_ops w3d_xref_ops;

#endif
