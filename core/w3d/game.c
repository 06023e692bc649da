/* game.c - game dialect names and detection; see game.h. */
#include "game.h"

#include <strings.h>

#include "model.h"

static const char *const names[W3D_GAME__COUNT] = { "auto", W3D_GAME_NAMES };
_Static_assert(sizeof names / sizeof names[0] == W3D_GAME__COUNT, "one name per w3d_game");

const char *w3d_game_name(w3d_game g)
{
	return (unsigned)g < W3D_GAME__COUNT ? names[g] : "auto";
}

bool w3d_game_parse(const char *s, w3d_game *out)
{
	static const char *const alias[] = { W3D_GAME_ALIASES };
	for (size_t i = 0; i + 1 < sizeof alias / sizeof alias[0]; i += 2)
		if (strcasecmp(s, alias[i]) == 0) {
			s = alias[i + 1];
			break;
		}
	for (int g = 0; g < W3D_GAME__COUNT; g++)
		if (strcasecmp(s, names[g]) == 0) {
			*out = (w3d_game)g;
			return true;
		}
	return false;
}

/* Evidence classes, strongest first (game.h). */
enum { EV_HUB, EV_BFME, EV_ZH, EV_REN, EV_BFME_WEAK, EV__COUNT };

static const w3d_game class_game[EV__COUNT] = { W3D_GAME_W3DHUB, W3D_GAME_BFME, W3D_GAME_GENERALS,
						W3D_GAME_RENEGADE, W3D_GAME_BFME };

typedef struct found {
	const wl_chunk *chunk[EV__COUNT];
	const char *what[EV__COUNT];
	bool seen[EV__COUNT];
} found;

static void note(found *f, int cls, const wl_chunk *c, const char *what)
{
	if (f->seen[cls])
		return;
	f->seen[cls] = true;
	f->chunk[cls] = c;
	f->what[cls] = what;
}

/* Classifies one chunk by its id in its context. */
static void classify_chunk(found *f, const wl_chunk *c)
{
	if (c->kind != WL_NODE_CHUNK || !c->type)
		return;
	const wl_chunk *p = c->parent;
	bool top = p && p->kind == WL_NODE_ROOT;
	if (c->recovery & WL_REC_FLAG_MISSING)
		note(f, EV_REN, c, "a container chunk without the container bit (legacy exporter)");
	switch (c->id) {
	case 0x0C02:
	case 0x0C03:
		note(f, EV_HUB, c, "a w3d hub mesh chunk (lightmap uv / extended vertex influences)");
		break;
	case 0x0465:
	case 0x0466:
		note(f, EV_HUB, c, "a w3d hub light chunk (spot light 5.0 / pulse)");
		break;
	case 0x0707:
		note(f, EV_HUB, c, "an hlod_light_array chunk");
		break;
	case 0x0050:
	case 0x003F:
		note(f, EV_BFME, c, "a shader material chunk (0x50 / 0x3f)");
		break;
	case 0x0060:
	case 0x0061:
		if (!top)
			note(f, EV_BFME, c, "a tangents / bitangents chunk");
		break;
	case 0x0C00:
	case 0x0C01:
		note(f, EV_BFME, c, "a secondary vertices / normals chunk (two-bone skinning)");
		break;
	case 0x0284:
		note(f, EV_BFME, c, "a compressed animation motion channel (0x284)");
		break;
	case 0x050D:
		note(f, EV_ZH, c, "an emitter_extra_info chunk");
		break;
	case 0x0B00:
		if (top)
			note(f, EV_ZH, c, "a shdmesh chunk");
		break;
	case 0x0A00:
		if (top)
			note(f, EV_REN, c, "a soundrobj chunk (loaded by renegade only)");
		break;
	default:
		break;
	}
}

static void classify_materials(found *f, const w3d_material_set *ms)
{
	for (size_t i = 0; i < ms->shaders.count; i++) {
		const w3d_shader *s = &ms->shaders.v[i];
		if ((s->pri_gradient >= 4 && s->pri_gradient <= 5) ||
		    (s->detail_color_func >= 9 && s->detail_color_func <= 12)) {
			note(f, EV_ZH, ms->shaders.src, "a shader using a zero hour only blend value");
			return;
		}
	}
}

w3d_game w3d_detect_game(const struct w3d_model *m, w3d_game_evidence *ev)
{
	found f = { 0 };
	/* Every chunk once, iteratively (the tree depth is bounded by the
	 * reader, but no recursion is needed). */
	if (m->root) {
		const wl_chunk *c = m->root->first_child;
		while (c) {
			classify_chunk(&f, c);
			if (c->first_child) {
				c = c->first_child;
				continue;
			}
			while (c && !c->next)
				c = c->parent == m->root ? NULL : c->parent;
			if (c)
				c = c->next;
		}
	}
	for (size_t i = 0; i < m->mesh_count; i++) {
		const w3d_mesh *me = m->meshes[i];
		if (me->header.src && (me->header.attributes & 0xC0000000u))
			note(&f, EV_HUB, me->header.src, "mesh flags 0x40000000 / 0x80000000 (prelit / always dynamic light)");
		classify_materials(&f, &me->materials);
		for (int k = 0; k < W3D_PRELIT_KINDS; k++)
			classify_materials(&f, &me->prelit[k]);
		/* The two-bone record layout alone is also what newer exporters
		 * write for Generals mods (weight 100, 0); a second bone with a
		 * weight is two-bone skinning, which only BFME renders. */
		for (size_t v = 0; me->influences.pad_nonzero && v < me->influences.count; v++)
			if (me->influences.v[v].weight[1] != 0) {
				note(&f, EV_BFME_WEAK, me->influences.src,
				     "two-bone vertex influences with a second bone weight");
				break;
			}
	}
	for (size_t i = 0; i < m->compressed_animation_count; i++) {
		const w3d_compressed_animation *a = m->compressed_animations[i];
		if (a->header_ok && a->flavor == W3D_ANIM_FLAVOR_ADAPTIVE_DELTA8)
			note(&f, EV_BFME, a->header, "compressed animation flavor 2 (adaptive delta 8 bit)");
	}
	w3d_game_evidence e = { W3D_GAME_AUTO, NULL, "" };
	for (int cls = 0; cls < EV__COUNT; cls++)
		if (f.seen[cls]) {
			e.game = class_game[cls];
			e.chunk = f.chunk[cls];
			e.what = f.what[cls];
			break;
		}
	if (ev)
		*ev = e;
	return e.game;
}

void w3d_model_set_game(struct w3d_model *m, w3d_game g)
{
	m->detected_game = w3d_detect_game(m, &m->game_evidence);
	m->game = g == W3D_GAME_AUTO ? m->detected_game : g;
}
