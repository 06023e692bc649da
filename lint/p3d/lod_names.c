/* lod_names.c - the Arma names of LOD resolutions (checks.h:
 * wl_p3d_lod_kind, wl_p3d_lod_name), for the messages of the P3D rules.
 *
 * Source: the BI community wiki page "LOD" (community.bistudio.com/wiki/LOD:
 * the LOD kinds and what Binarize and the game expect of each) and the
 * resolution values Object Builder and Binarize give them, as listed by
 * aczwink/ArmA-Modding-Tools src/p3d/Definitions.hpp (LOD_RESOLUTION_*:
 * 1e3 View Gunner ... 1.6e16 View Gunner Fire Geometry, checked there);
 * Geometry Buoyancy 2e13, Geometry PhysX 4e13 and the values above 1.6e16
 * (Sub Parts, the ShadowVolume views, Wreck) follow the order of the same
 * LOD kinds in public Arma tools' LOD type tables and were not checked
 * against a listing of their values; no code copied.  Values below 1000 are visual resolutions; 10000 to
 * 19999 shadow volumes (10000 + n: "ShadowVolume n"); 20000 to 29999 edit
 * LODs; the special LODs are multiples of 1e13 and 1e15. */
#include <math.h>
#include <stdio.h>

#include "checks.h"

typedef struct lodname {
	double res;
	wl_p3d_lodkind kind;
	const char *name;
} lodname;

static const lodname special[] = {
	{ 1000.0, WL_P3D_LOD_VIEW, "View Gunner" },
	{ 1100.0, WL_P3D_LOD_VIEW, "View Pilot" },
	{ 1200.0, WL_P3D_LOD_VIEW, "View Cargo" },
	{ 1e13, WL_P3D_LOD_GEOMETRY, "Geometry" },
	{ 2e13, WL_P3D_LOD_OTHER, "Geometry Buoyancy" },
	{ 4e13, WL_P3D_LOD_OTHER, "Geometry PhysX" },
	{ 1e15, WL_P3D_LOD_MEMORY, "Memory" },
	{ 2e15, WL_P3D_LOD_OTHER, "LandContact" },
	{ 3e15, WL_P3D_LOD_OTHER, "Roadway" },
	{ 4e15, WL_P3D_LOD_OTHER, "Paths" },
	{ 5e15, WL_P3D_LOD_OTHER, "Hit-points" },
	{ 6e15, WL_P3D_LOD_VIEW_GEOMETRY, "View Geometry" },
	{ 7e15, WL_P3D_LOD_FIRE_GEOMETRY, "Fire Geometry" },
	{ 8e15, WL_P3D_LOD_OTHER, "View Cargo Geometry" },
	{ 9e15, WL_P3D_LOD_OTHER, "View Cargo Fire Geometry" },
	{ 1e16, WL_P3D_LOD_VIEW, "View Commander" },
	{ 1.1e16, WL_P3D_LOD_OTHER, "View Commander Geometry" },
	{ 1.2e16, WL_P3D_LOD_OTHER, "View Commander Fire Geometry" },
	{ 1.3e16, WL_P3D_LOD_OTHER, "View Pilot Geometry" },
	{ 1.4e16, WL_P3D_LOD_OTHER, "View Pilot Fire Geometry" },
	{ 1.5e16, WL_P3D_LOD_OTHER, "View Gunner Geometry" },
	{ 1.6e16, WL_P3D_LOD_OTHER, "View Gunner Fire Geometry" },
	{ 1.7e16, WL_P3D_LOD_OTHER, "Sub Parts" },
	{ 1.8e16, WL_P3D_LOD_OTHER, "ShadowVolume - View Cargo" },
	{ 1.9e16, WL_P3D_LOD_OTHER, "ShadowVolume - View Pilot" },
	{ 2e16, WL_P3D_LOD_OTHER, "ShadowVolume - View Gunner" },
	{ 2.1e16, WL_P3D_LOD_OTHER, "Wreck" },
};

/* The table entry of res (the stored float, compared with a relative
 * margin of 1e-6: the special values are not exact in binary32), or
 * NULL. */
static const lodname *lookup(float res)
{
	for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
		if (fabs((double)res - special[i].res) <= special[i].res * 1e-6)
			return &special[i];
	return NULL;
}

wl_p3d_lodkind wl_p3d_lod_kind(float res)
{
	const lodname *n = lookup(res);
	if (n)
		return n->kind;
	if (res >= 0.0f && res < 1000.0f)
		return WL_P3D_LOD_VISUAL;
	if (res >= 10000.0f && res < 20000.0f)
		return WL_P3D_LOD_SHADOW;
	return WL_P3D_LOD_OTHER;
}

const char *wl_p3d_lod_name(float res, char *buf, size_t n)
{
	const lodname *e = lookup(res);
	if (e)
		snprintf(buf, n, "%s", e->name);
	else if (res >= 0.0f && res < 1000.0f)
		snprintf(buf, n, "Resolution %.3f", (double)res);
	else if (res >= 10000.0f && res < 20000.0f)
		snprintf(buf, n, "ShadowVolume %g", (double)(res - 10000.0f));
	else if (res >= 20000.0f && res < 30000.0f)
		snprintf(buf, n, "Edit %g", (double)(res - 20000.0f));
	else
		snprintf(buf, n, "resolution %g", (double)res);
	return buf;
}
