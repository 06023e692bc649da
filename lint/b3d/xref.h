/*
 * xref.h - the B3D cross-file index (lint/xref.h's contributor for "b3d",
 * registered in lint/registry.c): the texture files each TEXS entry names,
 * against the image files of the scanned folders.
 *
 * Rule (rules/b3d/materials.yaml):
 *   b3d-texture-file-missing  a TEXS file name whose base name (the part
 *                             after the last '/' or '\\') is no image file
 *                             (.png .jpg .jpeg .tga .bmp .dds, letter case
 *                             ignored) of the scanned folders; one finding
 *                             per TEXS entry, at its name's bytes.  Nothing
 *                             is reported until at least one image file was
 *                             recorded (a folder without textures relies on
 *                             the game's or the mod's others).
 * Irrlicht's CB3DMeshFileLoader loads each TEXS entry by that name through
 * the file system (in the model's folder, then the working folder, with
 * '\\' read as '/'); Luanti uses the texture list of the entity's Lua
 * definition instead when one is given, so the finding is informational.
 */
#ifndef WL_B3D_XREF_H
#define WL_B3D_XREF_H

#include "lint/xref.h"

/** The contributor registered for "b3d" in lint/registry.c. */
extern const wl_xref_ops b3d_xref_ops;

#endif
