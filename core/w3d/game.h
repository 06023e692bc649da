/*
 * game.h - the game dialect a W3D file is read as, and its detection.
 *
 * The W3D games share chunk ids but not every layout or loader
 * (notes/w3d_reference.md §1.5, §2.0.3, §5):
 *   RENEGADE  C&C Renegade (REN loaders): legacy files without container
 *             bits, SOUNDROBJ registered, Renegade shader/mapping maxima.
 *   GENERALS  C&C Generals / Zero Hour (ZH): EMITTER_EXTRA_INFO, ShdMesh
 *             headers, the extra ZH shader and mapper enum values.
 *   BFME      BFME I/II (layouts from OpenSAGE and the Blender plugin):
 *             two-bone VERTEX_INFLUENCES (uint16 bone[2]; uint16 weight[2]
 *             in percent), SHADER_MATERIALS 0x50-0x53, SHADER_MATERIAL_ID
 *             0x3F, TANGENTS/BITANGENTS, SECONDARY_VERTICES/NORMALS,
 *             COMPRESSED_ANIMATION_MOTION_CHANNEL 0x284, compressed-animation
 *             Flavor 2 (adaptive delta, 8 bit).
 *   W3DHUB    Renegade-engine community tools (W3D Hub / Tiberian
 *             Technologies max2w3d lineage): VERTEX_INFLUENCES_EXTENDED
 *             0xC03, LIGHTMAP_UV 0xC02, SPOT_LIGHT_INFO_5_0, PULSE,
 *             HLOD_LIGHT_ARRAY, mesh flags 0x40000000/0x80000000 (§5.1).
 *   AUTO      no dialect chosen; as a detection result: no evidence found.
 *
 * Selection: w3d_model_build() detects the dialect; a front end's `--game`
 * overrides it with w3d_model_set_game() before the checks run.
 */
#ifndef W3D_GAME_H
#define W3D_GAME_H

#include <stdbool.h>

#include "core/chunk.h"

/* The W3D games' names, written once: the target names of --target, the
 * configuration's target: and the reports (lint/w3d/targets.c), in the
 * order of w3d_game from W3D_GAME_RENEGADE; and the aliases, pairs of
 * (alias, name). */
#define W3D_GAME_NAMES "renegade", "generals", "bfme", "w3dhub"
#define W3D_GAME_ALIASES "zh", "generals", "zerohour", "generals", "tt", "w3dhub"

typedef enum w3d_game {
	W3D_GAME_AUTO = 0,
	W3D_GAME_RENEGADE,
	W3D_GAME_GENERALS,
	W3D_GAME_BFME,
	W3D_GAME_W3DHUB,
	W3D_GAME__COUNT
} w3d_game;

/** The first decisive piece of evidence for a detected dialect. */
typedef struct w3d_game_evidence {
	w3d_game game;          /* the dialect it points to (AUTO: none found) */
	const wl_chunk *chunk;  /* the chunk that shows it, or NULL */
	const char *what;       /* static lower-case description, "" when none */
} w3d_game_evidence;

struct w3d_model;

/** "auto", "renegade", "generals", "bfme", "w3dhub". */
const char *w3d_game_name(w3d_game g);

/** Parses a --game value (case-insensitive; "zh" and "zerohour" also mean
 *  generals, "tt" means w3dhub).  Returns false for an unknown name. */
bool w3d_game_parse(const char *s, w3d_game *out);

/**
 * Detects the dialect of a decoded model from the chunks and fields it
 * holds.  Evidence, strongest first (the first class found wins):
 *   1. W3DHUB: a chunk 0xC02, 0xC03, 0x465, 0x466 or 0x707, or a mesh
 *      Attributes bit 0x40000000/0x80000000 (TRI scripts/w3d.h).
 *   2. BFME: a chunk 0x50 (SHADER_MATERIALS), 0x3F, 0x60, 0x61, 0xC00, 0xC01
 *      or 0x284, or a COMPRESSED_ANIMATION_HEADER with Flavor 2.
 *   3. GENERALS: a chunk 0x50D (EMITTER_EXTRA_INFO) or 0xB00 (SHDMESH), or a
 *      shader with PriGradient 4-5 or DetailColorFunc 9-12 (ZH-only values,
 *      §2.0.3).
 *   4. RENEGADE: a SOUNDROBJ 0xA00 (not registered by ZH), or a container
 *      with children whose container bit is clear (legacy files written
 *      before the bit existed, chunkio.h:82-87).
 *   5. BFME (weak): 0x0E VERTEX_INFLUENCES in the two-bone layout with a
 *      non-zero second weight (§5.2; the layout with weights 100/0 alone is
 *      also written for Generals mods by newer exporters).
 * GENERALS evidence means "Zero Hour or a later SAGE game": a BFME file that
 * uses none of the BFME-only chunks is read as Generals, whose loaders it
 * shares.
 * Returns AUTO when nothing points anywhere.  *ev (may be NULL) receives
 * the evidence.  Reads only the model and its chunk tree (m->root).
 */
w3d_game w3d_detect_game(const struct w3d_model *m, w3d_game_evidence *ev);

/**
 * Sets m->detected_game and m->game_evidence by w3d_detect_game(), then
 * m->game to g, or to the detected dialect when g is AUTO.
 */
void w3d_model_set_game(struct w3d_model *m, w3d_game g);

#endif
