/* targets.c - the W3D targets; see targets.h.  The names are the dialects
 * of core/w3d/game.h (notes/w3d_reference.md §5). */
#include "targets.h"

#include "core/w3d/model.h"

const char *const w3d_targets[] = { W3D_GAME_NAMES, NULL };
const char *const w3d_target_aliases[] = { W3D_GAME_ALIASES, NULL };
/* A SAGE game's mod keeps its INI files in Data/INI (Generals, Zero Hour,
 * BFME I/II, RotWK); which of them its INI files (layout_ini.c) or the
 * file itself may say. */
const wl_layout_marker w3d_layout[] = { { "Data/INI", "generals,bfme", w3d_ini_refine }, { NULL, NULL, NULL } };

const char *w3d_target_of(const void *model)
{
	const w3d_model *m = model;
	/* Zero Hour evidence (EMITTER_EXTRA_INFO, ShdMesh, the ZH shader
	 * values) means "Zero Hour or a later SAGE game" (core/w3d/game.h):
	 * BFME's loaders read them too, so a BFME mod's file that uses no
	 * BFME-only chunk keeps bfme among its targets. */
	if (m->game == W3D_GAME_GENERALS)
		return "generals,bfme";
	return m->game == W3D_GAME_AUTO ? NULL : w3d_game_name(m->game);
}
