/*
 * target.h - targets: the engines a file is made for (`--target`, the
 * configuration's `target:`), as a set (a bit mask over every registered
 * target).
 *
 * The targets are data of the per-format lint parts (lint/registry.h
 * wl_lint_format.targets, .target_aliases, .layout): W3D renegade,
 * generals, bfme, w3dhub; B3D luanti, irrlicht, blitz3d, assimp; P3D arma1,
 * arma2, arma3, dayz.  "any" names every target (the strictest severity of
 * each rule).  The catalogue says per rule how each target is affected
 * (catalog.h `targets:`); wl_rule_target_severity() reads it.
 *
 * A file's targets (wl_lint_file_targets in lint.h): the targets given
 * (`--target` or `target:`) of the file's format; else the targets of its
 * format narrowed by the mod's layout (wl_target_layout) and by what the
 * file itself says (W3D dialect, ODOL version); else all targets of its
 * format.
 */
#ifndef WL_TARGET_H
#define WL_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lint/run/stat_memo.h"

/* Most targets over all formats (bits of wl_target_mask). */
#define WL_TARGETS_MAX 32

typedef uint32_t wl_target_mask;

/** Number of registered targets; names and format names by index
 *  (0 <= i < count; NULL out of range). */
size_t wl_target_count(void);
const char *wl_target_name(size_t i);
const char *wl_target_format(size_t i);

/** The index of target name (aliases such as zh, tt, minetest included;
 *  case-insensitive), or -1. */
int wl_target_find(const char *name);

/** The targets of format fmt ("w3d"); every target for NULL or "". */
wl_target_mask wl_target_format_mask(const char *fmt);

/**
 * Parses a comma-separated list of target names ("any" and "auto"
 * allowed; "auto" alone gives 0, meaning detect).  Returns 0, or -1 with
 * the first unknown name copied to bad (badcap bytes).
 */
int wl_target_parse(const char *list, wl_target_mask *out, char *bad, size_t badcap);

/** "renegade, generals, ..., dayz" (static; for help and messages). */
const char *wl_target_names(void);

/** Writes the names of the targets of m, comma-separated, into buf;
 *  "none" when m is 0.  Returns buf. */
char *wl_target_mask_names(wl_target_mask m, char *buf, size_t cap);

/**
 * The targets the layout of the mod holding path says (0: none known):
 * walks up from path's folder to the repository root (a folder holding
 * .git), the file system root or at most 8 levels, and at each folder
 * tests the layout markers of every format (wl_lint_format.layout: e.g.
 * mod.conf, game.conf, init.lua -> luanti; config.cpp, $PBOPREFIX$ ->
 * arma1..3, dayz; Data/INI -> generals, bfme).  The first folder with a
 * marker decides.  Markers match in any letter case (Data/INI, data/ini,
 * DATA/Ini: wl_stat_memo_mode_ci).
 */
wl_target_mask wl_target_layout(const char *path);

/** wl_target_layout with the probes' answers remembered in memo
 *  (stat_memo.h; NULL: none), for a run's many folders. */
wl_target_mask wl_target_layout_memo(const char *path, wl_stat_memo *memo);

#endif
