/* targets.c - the B3D targets; see targets.h. */
#include "targets.h"

#include <stddef.h>

const char *const b3d_targets[] = { "luanti", "irrlicht", "blitz3d", "assimp", NULL };
const char *const b3d_target_aliases[] = { "minetest", "luanti", "irrlichtmt", "luanti", NULL };
/* A Luanti mod has mod.conf (or the older depends.txt) and init.lua; a game
 * game.conf; a modpack modpack.conf (luanti doc/lua_api.md "Mods"). */
const wl_layout_marker b3d_layout[] = {
	{ "mod.conf", "luanti" }, { "game.conf", "luanti" }, { "modpack.conf", "luanti" },
	{ "init.lua", "luanti" }, { NULL, NULL },
};
const char b3d_auto_targets[] = "luanti,irrlicht,blitz3d";
