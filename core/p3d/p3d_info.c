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

#include "p3d_compress.h"
#include "p3d_walk.h"

#include "core/grow.h"

typedef struct iw {
	wl_doc *d;
	p3d_model *m;
	p3d_info_walk *out;
	p3d_walker k;          /* over the whole file */
	uint32_t v;
	bool record;           /* second pass: record what the checks read */
	const wl_chunk *node;  /* the node this part's records go to */
	/* Records of the second pass (malloc; moved to the arena at its end). */
	p3d_infofloat *floats;
	size_t n_floats, cap_floats;
	p3d_animbone *anims;
	size_t n_anims, cap_anims;
} iw;

static bool stopped(const iw *w)
{
	return w->k.stop != P3D_STOP_NONE;
}

/* Grows a malloc vector of elem-byte items to hold one more. */
static bool grow(iw *w, void **v, size_t n, size_t *cap, size_t elem)
{
	if (wl_grow(v, cap, n + 1, elem))
		return true;
	w->d->oom = true;
	return false;
}

/* k floats (a scalar or a vector) named what, copied to out when not
 * NULL; recorded in the second pass (p3d-not-finite: lint/p3d). */
static void floats(iw *w, unsigned k, const char *what, float *out)
{
	uint64_t at = p3d_pos(&w->k);
	if (!p3d_need(&w->k, 4ull * k, what))
		return;
	for (unsigned i = 0; i < k; i++) {
		float f = wl_cursor_f32(&w->k.c);
		if (out)
			out[i] = f;
	}
	if (w->record && grow(w, (void **)&w->floats, w->n_floats, &w->cap_floats, sizeof *w->floats))
		w->floats[w->n_floats++] = (p3d_infofloat){ what, at, k, w->node };
}

/* From special to animated. */
static void head(iw *w)
{
	p3d_model *m = w->m;
	p3d_walker *k = &w->k;
	p3d_skip(k, 4, "special");
	floats(w, 1, "bounding sphere", NULL);
	floats(w, 1, "geometry sphere", NULL);
	p3d_skip(k, 12, "remarks and hints");
	floats(w, 3, "aiming centre", NULL);
	p3d_skip(k, 8, "map colours");
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
	p3d_skip(k, 4 + (w->v >= 73), "occlusion flags");
	if (w->v >= 42)
		for (int i = 0; i < 4; i++)
			floats(w, 1, "armour hint (htMin, htMax, afMax, mfMax)", NULL);
	if (w->v >= 43)
		for (int i = 0; i < 2; i++)
			floats(w, 1, "mFact or tBody", NULL);
	if (w->v >= 33)
		p3d_skip(k, 1, "forceNotAlpha");
	if (w->v >= 37)
		p3d_skip(k, 5, "shadow source");
	if (w->v >= 48)
		floats(w, 1, "shadow offset", NULL);
	p3d_skip(k, 1, "animated");
}

static void skeleton(iw *w)
{
	p3d_walker *k = &w->k;
	p3d_model *m = w->m;
	w->out->skel_at = p3d_pos(k);
	const char *name = p3d_asciiz(k, "skeleton name");
	if (!name || !name[0]) {
		w->out->skel_end = p3d_pos(k);
		return;
	}
	if (w->v >= 23)
		p3d_skip(k, 1, "skeleton isDiscrete");
	uint32_t n = p3d_u32(k, "skeleton bone count");
	if (!stopped(w) && n > p3d_left(k) / 2) {
		p3d_walker_stop(k, P3D_STOP_OTHER, "skeleton bone count",
				"exceeds the bytes left in the file");
		return;
	}
	const char **bones = NULL, **parents = NULL;
	uint64_t *at = NULL;
	if (w->record && n) {
		bones = wl_arena_array(w->d->arena, n, sizeof *bones);
		parents = wl_arena_array(w->d->arena, n, sizeof *parents);
		at = wl_arena_array(w->d->arena, n, sizeof *at);
		if (!bones || !parents || !at) {
			w->d->oom = true;
			bones = NULL;
		}
	}
	for (uint32_t i = 0; i < n && !stopped(w); i++) {
		const char *bone = p3d_asciiz(k, "skeleton bone name");
		uint64_t p = p3d_pos(k);
		const char *parent = p3d_asciiz(k, "skeleton bone parent");
		if (bones && parent) {
			bones[i] = bone;
			parents[i] = parent;
			at[i] = p;
		}
	}
	if (w->v > 40)
		p3d_asciiz(k, "skeleton pivots name");
	w->out->skel_end = p3d_pos(k);
	if (stopped(w))
		return;
	w->out->n_bones = n;
	if (bones) {
		m->bone_names = bones;
		m->bone_parents = parents;
		m->bone_parent_at = at;
		m->skeleton_node = w->node;
	}
}

/* From mapType to the preferred shadow LODs. */
static void tail(iw *w)
{
	p3d_walker *k = &w->k;
	p3d_skip(k, 1, "map type");
	uint32_t n = p3d_u32(k, "mass array count");
	if (n && !stopped(w)) {
		/* LZO/LZSS expand at most about 255:1; and no block decodes to
		 * more than the documents' memory bound (chunk.h
		 * WL_ARENA_PER_BYTE per file byte) plus 1 MiB. */
		uint64_t room = p3d_left(k);
		uint64_t cap = w->d->size * WL_ARENA_PER_BYTE + ((uint64_t)1 << 20);
		if (n > (room * 256 + 4096) / 4 || 4ull * n > cap) {
			p3d_walker_stop(k, P3D_STOP_OTHER, "mass array count",
					"exceeds what the bytes left can decode to");
			return;
		}
		uint8_t *tmp = malloc((size_t)n * 4);
		if (!tmp) {
			w->d->oom = true;
			p3d_walker_stop(k, P3D_STOP_OTHER, "mass array",
					"cannot be decoded (out of memory)");
			return;
		}
		p3d_block bl;
		bool ok = p3d_read_block(w->d->bytes, w->d->size, p3d_pos(k), w->v, n, 4, tmp, &bl);
		free(tmp);
		if (!ok) {
			p3d_walker_stop(k, P3D_STOP_OTHER, "mass array",
					"does not decode to its count of floats");
			return;
		}
		p3d_skip(k, bl.length, "mass array");
	}
	floats(w, 1, "mass", NULL);
	floats(w, 1, "inverse mass", NULL);
	floats(w, 1, "armour", NULL);
	floats(w, 1, "inverse armour", NULL);
	if (w->v >= 72)
		floats(w, 1, "explosion shielding", NULL);
	p3d_skip(k, 12u + (w->v >= 53 ? 1u : 0u) + (w->v >= 54 ? 1u : 0u), "special lod indices");
	p3d_skip(k, w->v >= 38 ? 5u : 4u, "min shadow");
	p3d_asciiz(k, "property class");
	p3d_asciiz(k, "property damage");
	p3d_skip(k, 1 + (w->v >= 31 ? 4 : 0), "property frequent");
	if (w->v >= 57)
		p3d_skip(k, 12ull * w->m->n_lods, "preferred shadow lods");
}

/* One animation class; its type, or UINT32_MAX when the walk stopped. */
static uint32_t anim_class(iw *w)
{
	p3d_walker *k = &w->k;
	uint32_t type = p3d_u32(k, "animation type");
	p3d_asciiz(k, "animation name");
	p3d_asciiz(k, "animation source");
	for (int i = 0; i < 4 + (w->v >= 56 ? 2 : 0); i++)
		floats(w, 1, "animation phase or value", NULL);
	p3d_skip(k, 4, "animation source address");
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
			p3d_skip(k, 4, "animation hide");
	} else if (!stopped(w)) {
		k->c.pos -= 4; /* point at the class */
		p3d_walker_stop(k, P3D_STOP_OTHER, "animation type", "is none of the known types 0..9");
	}
	return stopped(w) ? UINT32_MAX : type;
}

static void animations(iw *w)
{
	p3d_walker *k = &w->k;
	uint32_t n = p3d_u32(k, "animation class count");
	if (!stopped(w) && n > p3d_left(k) / 30) {
		p3d_walker_stop(k, P3D_STOP_OTHER, "animation class count",
				"exceeds the bytes left in the file");
		return;
	}
	uint8_t *types = n ? malloc(n) : NULL;
	if (n && !types) {
		w->d->oom = true;
		p3d_walker_stop(k, P3D_STOP_OTHER, "animation classes", "cannot be read (out of memory)");
		return;
	}
	for (uint32_t i = 0; i < n && !stopped(w); i++)
		types[i] = (uint8_t)anim_class(w);
	uint32_t lods = p3d_u32(k, "animation lod count");
	for (uint32_t r = 0; r < lods && !stopped(w); r++) {
		uint32_t bones = p3d_u32(k, "animation bone count");
		for (uint32_t b = 0; b < bones && !stopped(w); b++)
			p3d_skip(k, 4ull * p3d_u32(k, "bone animation count"), "bone animation classes");
	}
	for (uint32_t r = 0; r < lods && !stopped(w); r++)
		for (uint32_t c = 0; c < n && !stopped(w); c++) {
			uint64_t at = p3d_pos(k);
			int32_t bone = (int32_t)p3d_u32(k, "animation bone index");
			if (stopped(w))
				break;
			if (w->record &&
			    grow(w, (void **)&w->anims, w->n_anims, &w->cap_anims, sizeof *w->anims))
				w->anims[w->n_anims++] = (p3d_animbone){ at, bone, c, r };
			if (bone != -1 && types[c] != 8 && types[c] != 9) {
				floats(w, 3, "animation axis position", NULL);
				floats(w, 3, "animation axis direction", NULL);
			}
		}
	free(types);
}

/* One pass over ModelInfo .. animations from `from`. */
static void pass(iw *w)
{
	p3d_info_walk *o = w->out;
	w->node = o->fields_node;
	head(w);
	w->node = o->skel_node;
	skeleton(w);
	w->node = o->fields2_node;
	tail(w);
	o->anims_at = p3d_pos(&w->k);
	if (w->v >= 30 && p3d_u8(&w->k, "hasAnims")) {
		w->node = o->anims_node;
		animations(w);
	}
	o->table = p3d_pos(&w->k);
}

/* Moves n records of elem bytes from a malloc vector into the arena. */
static void *to_arena(iw *w, void *v, size_t n, size_t elem)
{
	void *a = n ? wl_arena_array(w->d->arena, n, elem) : NULL;
	if (n && !a)
		w->d->oom = true;
	if (a)
		memcpy(a, v, n * elem);
	free(v);
	return a;
}

bool p3d_walk_info(wl_doc *d, p3d_model *m, uint64_t from, p3d_info_walk *out, bool record)
{
	iw w;
	memset(&w, 0, sizeof w);
	w.d = d;
	w.m = m;
	w.out = out;
	w.k = p3d_walker_make(d->bytes, d->size, from);
	w.v = m->version;
	w.record = record;
	out->stopped = NULL;
	pass(&w);
	if (record) {
		m->info_floats = to_arena(&w, w.floats, w.n_floats, sizeof *w.floats);
		m->n_info_floats = m->info_floats ? (uint32_t)w.n_floats : 0;
		m->anim_bones = to_arena(&w, w.anims, w.n_anims, sizeof *w.anims);
		m->n_anim_bones = m->anim_bones ? (uint32_t)w.n_anims : 0;
		m->anims_node = out->anims_node;
	} else {
		free(w.floats);
		free(w.anims);
	}
	if (!stopped(&w))
		return true;
	out->stopped = w.k.what;
	out->stop_at = w.k.at;
	out->why = w.k.stop == P3D_STOP_END   ? "runs past the end of the file"
		   : w.k.stop == P3D_STOP_NUL ? "has no terminating nul before the end of the file"
					      : w.k.why;
	return false;
}

bool p3d_info_lod_infos(wl_doc *d, p3d_model *m, p3d_info_walk *out, uint64_t first)
{
	/* The LoadableLodInfo records after the table at out->table, one per
	 * LOD whose permanent flag is 0 (the table's flags, read through a
	 * cursor): false when they do not end exactly at first. */
	uint32_t n = m->n_lods;
	uint64_t t = out->table;
	uint64_t rec = 16u + (m->version >= 39 ? 1u : 0u) + (m->version >= 51 ? 8u : 0u), pos = t + 9ull * n;
	wl_cursor c = wl_cursor_make(d->bytes + t + 8ull * n, n, t + 8ull * n);
	for (uint32_t i = 0; i < n; i++)
		if (wl_cursor_u8(&c) == 0)
			pos += rec;
	out->info_rec = rec;
	return pos == first;
}
