/* targets.c - the P3D targets; see targets.h. */
#include "targets.h"

#include "core/p3d/p3d.h"

const char *const p3d_targets[] = { "arma1", "arma2", "arma3", "dayz", NULL };
/* An addon's source folder has config.cpp; a PBO's prefix file
 * $PBOPREFIX$ (HEMTT, pboProject); neither tells the game, the ODOL
 * version may. */
const wl_layout_marker p3d_layout[] = {
	{ "config.cpp", "arma1,arma2,arma3,dayz" }, { "$PBOPREFIX$", "arma1,arma2,arma3,dayz" },
	{ "config.bin", "arma1,arma2,arma3,dayz" }, { NULL, NULL },
};

const char *p3d_target_of(const void *model)
{
	const p3d_model *m = model;
	if (m->mlod || m->version == 0)
		return NULL;
	if (m->version <= 43)
		return "arma1";
	if (m->version <= 52)
		return "arma2";
	if (m->version <= 57)
		return "dayz";
	return "arma3";
}
