/*
 * xref.h - the P3D cross-file index (rules/p3d/references.yaml): P3D's
 * contributor to lint/xref.h, registered in lint/registry.c.
 *
 * An Arma / DayZ model names its textures (.paa, .pac) and materials
 * (.rvmat) by their paths in the game's file system: the addon's prefix
 * and the path inside the addon, '\' separators, letter case ignored
 * ("x\mymod\addons\tank\data\body_co.paa").  An addon's prefix is the
 * `prefix` property of its PBO's header (a PBO without one: the PBO's name
 * without .pbo), and for an addon's source folder the first line of its
 * $PBOPREFIX$ file (or its "prefix=" line) in the folder or one above it
 * (BI wiki "PBO File Format"; Mikero's and HEMTT's $PBOPREFIX$).
 *
 * Names read: ODOL (core/p3d/p3d_lodview.h names): each LOD's texture list,
 * its embedded materials' names and stage textures, its sections' material
 * names; MLOD (P3DM faces): each face's texture and material, once per LOD
 * and name (at the first face naming it; SP3X faces name textures only and
 * are left out).  A name starting with '#' is a procedural texture
 * ("#(argb,8,8,3)color(1,1,1,1)"), not a file.
 *
 * Files known: the entries of the run's PBOs (lint/xref.h
 * wl_xref_add_archive) at PREFIX\ENTRY, and the files of the scanned
 * folders (wl_xref_scan_textures: the folder arguments and --base) under a
 * $PBOPREFIX$ at PREFIX\RELATIVE PATH.  Their prefixes are the run's
 * addons.  A texture named .tga, .png or .jpg is also found as the .paa or
 * .pac of the same path: the file the BI texture tools make of such a
 * source texture (BI wiki "TexView 2 Manual", "Arma: Texture Naming
 * Rules"), the pairs HEMTT's P3D texture check accepts
 * (BrettMayson/HEMTT libs/p3d/src/functions/missing.rs: .tga and .png as
 * .paa).  No BI page found states how the game or Binarize maps the name;
 * .jpg and .pac go beyond HEMTT's pairs on the strength of those tools.
 *
 * Rules (warning):
 *   p3d-texture-missing   a texture path inside one of the run's addons
 *                         that no file of the run (or base) is at
 *   p3d-material-missing  the same for a material (.rvmat)
 * A path whose prefix is no addon of the run (the base game: a3\, ca\,
 * dz\; another mod) is not checked unless --base brings that addon: it is
 * emitted as unchecked (lint/xref.h wl_xref_finding.unresolved and
 * .unchecked), which the run counts in its note when no base game was
 * given and drops otherwise.  One finding per LOD and name, at the name's
 * bytes, in the file that names it.
 */
#ifndef WL_P3D_XREF_H
#define WL_P3D_XREF_H

#include "lint/xref.h"

/* The index's functions for lint/xref.h (lint/registry.c). */
extern const wl_xref_ops p3d_xref_ops;

#endif
