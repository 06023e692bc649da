/* p3d_info.c - the version-gated walk of ODOL ModelInfo, its skeleton, the
 * animations and the LoadableLodInfo records (p3d.h: p3d_walk_info).
 *
 * Layout (v40..v73), learnt from jetelain/bis-file-formats
 * BIS.P3D/ODOL/{ModelInfo,Skeleton,SkeletonBoneName,Animations,
 * AnimationClass,LoadableLodInfo,ODOL}.cs and arma-file-formats-rs
 * p3d/{model_info,skeleton,animations,face_data,odol}.rs (no code copied;
 * the two agree on every field read here):
 *   i32 special; float boundingSphere, geometrySphere; i32 remarks,
 *   andHints, orHints; float aimingCentre[3]; u32 colour, colourType;
 *   float viewDensity; float bboxMin[3], bboxMax[3];
 *   [v>=70 float lodDensityCoef] [v>=71 float drawImportance]
 *   [v>=52 float bboxMinVisual[3], bboxMaxVisual[3]]
 *   float boundingCentre[3], geometryCentre[3], centreOfMass[3];
 *   float invInertia[3][3]; u8 autoCentre, lockAutoCentre, canOcclude,
 *   canBeOccluded; [v>=73 u8 aiCovers]
 *   [v>=42 float htMin, htMax, afMax, mfMax] [v>=43 float mFact, tBody]
 *   [v>=33 u8 forceNotAlpha] [v>=37 i32 sbSource; u8 preferShadowVolume]
 *   [v>=48 float shadowOffset] u8 animated;
 *   skeleton: asciiz name; if non-empty: [v>=23 u8 isDiscrete]
 *     u32 nBones; {asciiz bone; asciiz parent}[nBones];
 *     [v>40 asciiz pivotsNameObsolete]
 *   u8 mapType; u32 n; compressed float massArray[n];
 *   float mass, invMass, armor, invArmor; [v>=72 float explosionShielding]
 *   [v>=53 u8 geometrySimple] [v>=54 u8 geometryPhys]
 *   u8 memory, geometry, geometryFire, geometryView, viewPilot,
 *   viewGunner, unknown, viewCargo, landContact, roadway, paths,
 *   hitpoints; u32 minShadow; [v>=38 u8 canBlend]; asciiz class, damage;
 *   u8 frequent; [v>=31 u32]; [v>=57 i32 preferred shadow LODs[3][nLods]]
 * [v>=30 u8 hasAnims; when non-zero the animations:
 *   u32 nClasses; class {u32 type; asciiz name, source; float minPhase,
 *   maxPhase, minValue, maxValue; [v>=56 float period, initPhase];
 *   u32 address; type 0-3 or 4-7: float[2]; 8: float[8]; 9: float
 *   [v>=55 float]}[nClasses]
 *   u32 nLods2; {u32 nBones; {u32 k; u32 class[k]}[nBones]}[nLods2]
 *   {{i32 bone; when bone != -1 and type not 8 or 9: float axis[6]}
 *   [nClasses]}[nLods2]]
 * then the LOD table (u32 start[nLods], end[nLods]; u8 permanent[nLods])
 * and, for each LOD whose permanent flag is 0 (jetelain ODOL.cs; aff-rs
 * names the flag use_defaults), LoadableLodInfo: i32 faces; u32 colour;
 * i32 special; u32 orHints; [v>=39 u8 hasSkeleton] [v>=51 i32 vertices;
 * float faceArea].
 *
 * DayZ (v53/v54) writes a different ModelInfo (DayZObjectBuilder
 * io/data_p3d_odol.py locates the table by a search): the caller keeps its
 * consistency search and uses the walk only where both agree.
 */
#include "p3d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../cursor.h"
#include "p3d_compress.h"

typedef struct iw {
	wl_doc *d;
	p3d_model *m;
	p3d_info_walk *out;
	const uint8_t *b;
	uint64_t pos, size;
	uint32_t v;
	bool stop;
	bool report;           /* second pass: nodes exist, report findings */
	const wl_chunk *node;  /* the node findings of this part go to */
} iw;

static void stop(iw *w, const char *what, const char *why)
{
	if (w->stop)
		return;
	w->stop = true;
	w->out->stopped = what;
	w->out->why = why;
	w->out->stop_at = w->pos;
}

static bool need(iw *w, uint64_t n, const char *what)
{
	if (w->stop)
		return false;
	if (w->size - w->pos >= n)
		return true;
	stop(w, what, "runs past the end of the file");
	return false;
}

static uint32_t u32(iw *w, const char *what)
{
	if (!need(w, 4, what))
		return 0;
	uint32_t x = wl_le32(w->b + w->pos);
	w->pos += 4;
	return x;
}

static uint8_t u8(iw *w, const char *what)
{
	if (!need(w, 1, what))
		return 0;
	return w->b[w->pos++];
}

static void skip(iw *w, uint64_t n, const char *what)
{
	if (need(w, n, what))
		w->pos += n;
}

/* An asciiz; its first byte (NULL when the walk stopped). */
static const char *asciiz(iw *w, const char *what)
{
	if (w->stop)
		return NULL;
	const uint8_t *s = w->b + w->pos;
	const uint8_t *z = memchr(s, 0, (size_t)(w->size - w->pos));
	if (!z) {
		stop(w, what, "has no terminating nul before the end of the file");
		return NULL;
	}
	w->pos = (uint64_t)(z - w->b) + 1;
	return (const char *)s;
}

/* k floats (a scalar or a vector) named what, copied to out when not
 * NULL; in the second pass one p3d-not-finite per field with a NaN or
 * infinite component. */
static void floats(iw *w, unsigned k, const char *what, float *out)
{
	uint64_t at = w->pos;
	if (!need(w, 4ull * k, what))
		return;
	w->pos += 4ull * k;
	bool told = !w->report;
	for (unsigned i = 0; i < k; i++) {
		float f = wl_lef32(w->b + at + 4ull * i);
		if (out)
			out[i] = f;
		if (!told && !isfinite(f)) {
			told = true;
			wl_report(&w->d->findings, "p3d-not-finite", w->node, -1, at, 4ull * k,
				  "ModelInfo's %s at 0x%llx has a non-finite component %u (%g)", what,
				  (unsigned long long)at, i, (double)f);
		}
	}
}

/* From special to animated. */
static void head(iw *w)
{
	p3d_model *m = w->m;
	skip(w, 4, "special");
	floats(w, 1, "bounding sphere", NULL);
	floats(w, 1, "geometry sphere", NULL);
	skip(w, 12, "remarks and hints");
	floats(w, 3, "aiming centre", NULL);
	skip(w, 8, "map colours");
	floats(w, 1, "view density", NULL);
	floats(w, 3, "bounding box minimum", m->bbox_min);
	floats(w, 3, "bounding box maximum", m->bbox_max);
	if (w->v >= 70)
		floats(w, 1, "lod density coefficient", NULL);
	if (w->v >= 71)
		floats(w, 1, "draw importance", NULL);
	if (w->v >= 52) {
		floats(w, 3, "visual bounding box minimum", m->bbox_vis_min);
		floats(w, 3, "visual bounding box maximum", m->bbox_vis_max);
	}
	floats(w, 3, "bounding centre", m->bounding_centre);
	floats(w, 3, "geometry centre", NULL);
	floats(w, 3, "centre of mass", NULL);
	for (int i = 0; i < 3; i++)
		floats(w, 3, "inverse inertia tensor", NULL);
	skip(w, 4 + (w->v >= 73), "occlusion flags");
	if (w->v >= 42)
		for (int i = 0; i < 4; i++)
			floats(w, 1, "armour hint (htMin, htMax, afMax, mfMax)", NULL);
	if (w->v >= 43)
		for (int i = 0; i < 2; i++)
			floats(w, 1, "mFact or tBody", NULL);
	if (w->v >= 33)
		skip(w, 1, "forceNotAlpha");
	if (w->v >= 37)
		skip(w, 5, "shadow source");
	if (w->v >= 48)
		floats(w, 1, "shadow offset", NULL);
	skip(w, 1, "animated");
}

static int name_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = (unsigned char)*a, y = (unsigned char)*b;
		x += (x >= 'A' && x <= 'Z') ? 32 : 0;
		y += (y >= 'A' && y <= 'Z') ? 32 : 0;
		if (x != y || !x)
			return x - y;
	}
}

static int ptr_cmp(const void *a, const void *b)
{
	return name_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* Second pass: one p3d-skeleton-parent per bone whose non-empty parent
 * names no bone of the skeleton (compared without letter case, as the
 * engine's names are).  bones/parents: n names each. */
static void check_parents(iw *w, const char **bones, const char **parents, const uint64_t *at,
			  uint32_t n)
{
	const char **sorted = wl_arena_array(w->d->arena, n, sizeof *sorted);
	if (!sorted) {
		w->d->oom = true;
		return;
	}
	memcpy(sorted, bones, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, ptr_cmp);
	for (uint32_t i = 0; i < n; i++) {
		if (!parents[i][0] || bsearch(&parents[i], sorted, n, sizeof *sorted, ptr_cmp))
			continue;
		wl_report(&w->d->findings, "p3d-skeleton-parent", w->node, i, at[i],
			  strlen(parents[i]) + 1,
			  "skeleton bone %u (\"%.64s\") has parent \"%.64s\", which is no bone of the "
			  "skeleton",
			  (unsigned)i, bones[i], parents[i]);
	}
}

static void skeleton(iw *w)
{
	w->out->skel_at = w->pos;
	const char *name = asciiz(w, "skeleton name");
	if (!name || !name[0]) {
		w->out->skel_end = w->pos;
		return;
	}
	if (w->v >= 23)
		skip(w, 1, "skeleton isDiscrete");
	uint32_t n = u32(w, "skeleton bone count");
	if (!w->stop && n > (w->size - w->pos) / 2) {
		stop(w, "skeleton bone count", "exceeds the bytes left in the file");
		return;
	}
	const char **bones = NULL, **parents = NULL;
	uint64_t *at = NULL;
	if (w->report && n) {
		bones = wl_arena_array(w->d->arena, n, sizeof *bones);
		parents = wl_arena_array(w->d->arena, n, sizeof *parents);
		at = wl_arena_array(w->d->arena, n, sizeof *at);
		if (!bones || !parents || !at) {
			w->d->oom = true;
			bones = NULL;
		}
	}
	for (uint32_t i = 0; i < n && !w->stop; i++) {
		const char *bone = asciiz(w, "skeleton bone name");
		uint64_t p = w->pos;
		const char *parent = asciiz(w, "skeleton bone parent");
		if (bones && parent) {
			bones[i] = bone;
			parents[i] = parent;
			at[i] = p;
		}
	}
	if (w->v > 40)
		asciiz(w, "skeleton pivots name");
	w->out->skel_end = w->pos;
	if (w->stop)
		return;
	w->out->n_bones = n;
	if (bones)
		check_parents(w, bones, parents, at, n);
}

/* From mapType to the preferred shadow LODs. */
static void tail(iw *w)
{
	skip(w, 1, "map type");
	uint32_t n = u32(w, "mass array count");
	if (n && !w->stop) {
		/* LZO/LZSS expand at most about 255:1; and no block decodes to
		 * more than the documents' memory bound (chunk.h
		 * WL_ARENA_PER_BYTE per file byte) plus 1 MiB. */
		uint64_t room = w->size - w->pos;
		uint64_t cap = w->size * WL_ARENA_PER_BYTE + ((uint64_t)1 << 20);
		if (n > (room * 256 + 4096) / 4 || 4ull * n > cap) {
			stop(w, "mass array count", "exceeds what the bytes left can decode to");
			return;
		}
		uint8_t *tmp = malloc((size_t)n * 4);
		if (!tmp) {
			w->d->oom = true;
			stop(w, "mass array", "cannot be decoded (out of memory)");
			return;
		}
		p3d_block bl;
		bool ok = p3d_read_block(w->b, w->size, w->pos, w->v, n, 4, tmp, &bl);
		free(tmp);
		if (!ok) {
			stop(w, "mass array", "does not decode to its count of floats");
			return;
		}
		w->pos += bl.length;
	}
	floats(w, 1, "mass", NULL);
	floats(w, 1, "inverse mass", NULL);
	floats(w, 1, "armour", NULL);
	floats(w, 1, "inverse armour", NULL);
	if (w->v >= 72)
		floats(w, 1, "explosion shielding", NULL);
	skip(w, 12u + (w->v >= 53 ? 1u : 0u) + (w->v >= 54 ? 1u : 0u), "special lod indices");
	skip(w, w->v >= 38 ? 5u : 4u, "min shadow");
	asciiz(w, "property class");
	asciiz(w, "property damage");
	skip(w, 1 + (w->v >= 31 ? 4 : 0), "property frequent");
	if (w->v >= 57)
		skip(w, 12ull * w->m->n_lods, "preferred shadow lods");
}

/* One animation class; its type, or UINT32_MAX when the walk stopped. */
static uint32_t anim_class(iw *w)
{
	uint32_t type = u32(w, "animation type");
	asciiz(w, "animation name");
	asciiz(w, "animation source");
	for (int i = 0; i < 4 + (w->v >= 56 ? 2 : 0); i++)
		floats(w, 1, "animation phase or value", NULL);
	skip(w, 4, "animation source address");
	if (type <= 7) {
		floats(w, 1, type <= 3 ? "animation angle" : "animation offset", NULL);
		floats(w, 1, type <= 3 ? "animation angle" : "animation offset", NULL);
	} else if (type == 8) {
		floats(w, 3, "animation axis position", NULL);
		floats(w, 3, "animation axis direction", NULL);
		floats(w, 1, "animation angle", NULL);
		floats(w, 1, "animation axis offset", NULL);
	} else if (type == 9) {
		floats(w, 1, "animation hide value", NULL);
		if (w->v >= 55)
			skip(w, 4, "animation hide");
	} else if (!w->stop) {
		w->pos -= 4; /* point at the class */
		stop(w, "animation type", "is none of the known types 0..9");
	}
	return w->stop ? UINT32_MAX : type;
}

static void animations(iw *w)
{
	uint32_t n = u32(w, "animation class count");
	if (!w->stop && n > (w->size - w->pos) / 30) {
		stop(w, "animation class count", "exceeds the bytes left in the file");
		return;
	}
	uint8_t *types = n ? malloc(n) : NULL;
	if (n && !types) {
		w->d->oom = true;
		stop(w, "animation classes", "cannot be read (out of memory)");
		return;
	}
	for (uint32_t i = 0; i < n && !w->stop; i++)
		types[i] = (uint8_t)anim_class(w);
	uint32_t lods = u32(w, "animation lod count");
	for (uint32_t r = 0; r < lods && !w->stop; r++) {
		uint32_t bones = u32(w, "animation bone count");
		for (uint32_t k = 0; k < bones && !w->stop; k++)
			skip(w, 4ull * u32(w, "bone animation count"), "bone animation classes");
	}
	for (uint32_t r = 0; r < lods && !w->stop; r++)
		for (uint32_t k = 0; k < n && !w->stop; k++) {
			uint64_t at = w->pos;
			int32_t bone = (int32_t)u32(w, "animation bone index");
			if (w->stop)
				break;
			if (w->report && bone != -1 && (bone < 0 || (uint32_t)bone >= w->out->n_bones))
				wl_report(&w->d->findings, "p3d-animation-bone", w->node, k, at, 4,
					  "animation class %u uses bone %d in lod %u, but the skeleton "
					  "has %u bones",
					  (unsigned)k, (int)bone, (unsigned)r, (unsigned)w->out->n_bones);
			if (bone != -1 && types[k] != 8 && types[k] != 9) {
				floats(w, 3, "animation axis position", NULL);
				floats(w, 3, "animation axis direction", NULL);
			}
		}
	free(types);
}

/* The LoadableLodInfo records after a table at t: false when they do not
 * end exactly where the first LOD starts (first). */
static bool load_infos(iw *w, uint64_t t, uint64_t first)
{
	uint32_t n = w->m->n_lods;
	uint64_t rec = 16u + (w->v >= 39 ? 1u : 0u) + (w->v >= 51 ? 8u : 0u), pos = t + 9ull * n;
	for (uint32_t i = 0; i < n; i++)
		if (w->b[t + 8ull * n + i] == 0)
			pos += rec;
	w->out->info_rec = rec;
	return pos == first;
}

/* One pass over ModelInfo .. animations from `from`. */
static void pass(iw *w, uint64_t from)
{
	p3d_info_walk *o = w->out;
	w->pos = from;
	w->stop = false;
	w->node = o->fields_node;
	head(w);
	w->node = o->skel_node;
	skeleton(w);
	w->node = o->fields2_node;
	tail(w);
	o->anims_at = w->pos;
	if (w->v >= 30 && u8(w, "hasAnims")) {
		w->node = o->anims_node;
		animations(w);
	}
	o->table = w->pos;
}

bool p3d_walk_info(wl_doc *d, p3d_model *m, uint64_t from, p3d_info_walk *out, bool report)
{
	iw w = { d, m, out, d->bytes, from, d->size, m->version, false, report, NULL };
	out->stopped = NULL;
	pass(&w, from);
	return !w.stop;
}

bool p3d_info_lod_infos(wl_doc *d, p3d_model *m, p3d_info_walk *out, uint64_t first)
{
	iw w = { d, m, out, d->bytes, 0, d->size, m->version, false, false, NULL };
	return load_infos(&w, out->table, first);
}
