/* model.c - dispatches top-level W3D chunks to their decoders; see model.h. */
#include "model.h"

#include <string.h>

/* Appends p to a growing arena array (doubling; old blocks stay in the
 * arena, which is released with the document). */
static int push(wl_arena *a, void ***items, size_t *count, size_t *cap, void *p)
{
	if (!p)
		return 0;
	if (*count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		void **n = wl_arena_array(a, ncap, sizeof *n);
		if (!n)
			return -1;
		if (*count)
			memcpy(n, *items, *count * sizeof *n);
		*items = n;
		*cap = ncap;
	}
	(*items)[(*count)++] = p;
	return 0;
}

#define PUSH(list, countf, capv, obj)                                                 \
	do {                                                                         \
		if (push(doc->arena, (void ***)&m->list, &m->countf, &capv, (obj)) < 0) \
			doc->oom = true;                                             \
	} while (0)

w3d_model *w3d_model_build(wl_doc *doc)
{
	w3d_model *m = wl_arena_alloc(doc->arena, sizeof *m);
	if (!m) {
		doc->oom = true;
		return NULL;
	}
	size_t cm = 0, ch = 0, ca = 0, cc = 0, cl = 0, cb = 0;
	size_t cmo = 0, chm = 0, clm = 0, cco = 0, cpt = 0, cli = 0, cem = 0, cag = 0, cpr = 0,
	       cnu = 0, cls = 0, cdz = 0, cso = 0, csh = 0;
	for (wl_chunk *c = doc->root.first_child; c && !doc->oom; c = c->next) {
		if (c->kind != WL_NODE_CHUNK || !c->type)
			continue;
		switch (c->id) {
		case W3D_CHUNK_MESH:
			PUSH(meshes, mesh_count, cm, w3d_decode_mesh(doc, c));
			break;
		case W3D_CHUNK_HIERARCHY:
			PUSH(hierarchies, hierarchy_count, ch, w3d_decode_hierarchy(doc, c));
			break;
		case W3D_CHUNK_ANIMATION:
			PUSH(animations, animation_count, ca, w3d_decode_animation(doc, c));
			break;
		case W3D_CHUNK_COMPRESSED_ANIMATION:
			PUSH(compressed_animations, compressed_animation_count, cc,
			     w3d_decode_compressed_animation(doc, c));
			break;
		case W3D_CHUNK_HLOD:
			PUSH(hlods, hlod_count, cl, w3d_decode_hlod(doc, c));
			break;
		case W3D_CHUNK_BOX:
			PUSH(boxes, box_count, cb, w3d_decode_box(doc, c));
			break;
		case W3D_OBJ_CHUNK_MORPH_ANIMATION:
			PUSH(morph_animations, morph_animation_count, cmo, w3d_decode_morph_animation(doc, c));
			break;
		case W3D_OBJ_CHUNK_HMODEL:
			PUSH(hmodels, hmodel_count, chm, w3d_decode_hmodel(doc, c));
			break;
		case W3D_OBJ_CHUNK_LODMODEL:
			PUSH(lodmodels, lodmodel_count, clm, w3d_decode_lodmodel(doc, c));
			break;
		case W3D_OBJ_CHUNK_COLLECTION:
			PUSH(collections, collection_count, cco, w3d_decode_collection(doc, c));
			break;
		case W3D_OBJ_CHUNK_POINTS:
			PUSH(points, points_count, cpt, w3d_decode_points(doc, c));
			break;
		case W3D_OBJ_CHUNK_LIGHT:
			PUSH(lights, light_count, cli, w3d_decode_light(doc, c));
			break;
		case W3D_OBJ_CHUNK_EMITTER:
			PUSH(emitters, emitter_count, cem, w3d_decode_emitter(doc, c));
			break;
		case W3D_OBJ_CHUNK_AGGREGATE:
			PUSH(aggregates, aggregate_count, cag, w3d_decode_aggregate(doc, c));
			break;
		case W3D_OBJ_CHUNK_SPHERE:
		case W3D_OBJ_CHUNK_RING:
			PUSH(primitives, primitive_count, cpr, w3d_decode_primitive(doc, c));
			break;
		case W3D_OBJ_CHUNK_NULL_OBJECT:
			PUSH(null_objects, null_object_count, cnu, w3d_decode_null_object(doc, c));
			break;
		case W3D_OBJ_CHUNK_LIGHTSCAPE:
			PUSH(lightscapes, lightscape_count, cls, w3d_decode_lightscape(doc, c));
			break;
		case W3D_OBJ_CHUNK_DAZZLE:
			PUSH(dazzles, dazzle_count, cdz, w3d_decode_dazzle(doc, c));
			break;
		case W3D_OBJ_CHUNK_SOUNDROBJ:
			PUSH(soundrobjs, soundrobj_count, cso, w3d_decode_soundrobj(doc, c));
			break;
		case W3D_OBJ_CHUNK_SHDMESH:
			PUSH(shdmeshes, shdmesh_count, csh, w3d_decode_shdmesh(doc, c));
			break;
		default:
			break;
		}
	}
	m->root = &doc->root;
	if (!doc->oom)
		w3d_model_set_game(m, W3D_GAME_AUTO);
	doc->model = m;
	return m;
}
