/*
 * model.h - the typed W3D model of one file, built from the chunk tree.
 *
 * w3d_model_build() walks the top-level chunks and hands each object chunk to
 * its decoder (mesh.h: MESH; hierarchy.h: HIERARCHY, ANIMATION,
 * COMPRESSED_ANIMATION, HLOD, BOX).  Decoders never fail: a malformed object
 * is decoded as far as its bytes allow, every shortfall becomes a finding,
 * and the object is still listed so rules can look at it.  Every decoded
 * object keeps the chunk it came from (src) so findings name exact bytes.
 *
 * All arrays live in the document's arena; counts are element counts taken
 * from the bytes actually present (payload_size / element_size), never from
 * header fields, so header counts can be compared against them.
 */
#ifndef W3D_MODEL_H
#define W3D_MODEL_H

#include "core/chunk.h"
#include "w3d_format.h"
#include "mesh.h"
#include "hierarchy.h"
#include "objects.h"
#include "game.h"

typedef struct w3d_model {
	w3d_mesh **meshes;                 /* mesh_count elements */
	size_t mesh_count;
	w3d_hierarchy **hierarchies;       /* hierarchy_count elements */
	size_t hierarchy_count;
	w3d_animation **animations;        /* raw ANIMATION objects */
	size_t animation_count;
	w3d_compressed_animation **compressed_animations;
	size_t compressed_animation_count;
	w3d_hlod **hlods;
	size_t hlod_count;
	w3d_box **boxes;
	size_t box_count;
	/* objects.h: the other top-level objects, in file order per kind */
	w3d_morph_animation **morph_animations;
	size_t morph_animation_count;
	w3d_hmodel **hmodels;
	size_t hmodel_count;
	w3d_lodmodel **lodmodels;
	size_t lodmodel_count;
	w3d_collection **collections;
	size_t collection_count;
	w3d_points **points;
	size_t points_count;
	w3d_light **lights;
	size_t light_count;
	w3d_emitter **emitters;
	size_t emitter_count;
	w3d_aggregate **aggregates;
	size_t aggregate_count;
	w3d_primitive **primitives;        /* SPHERE and RING */
	size_t primitive_count;
	w3d_null_object **null_objects;
	size_t null_object_count;
	w3d_lightscape **lightscapes;
	size_t lightscape_count;
	w3d_dazzle **dazzles;
	size_t dazzle_count;
	w3d_soundrobj **soundrobjs;
	size_t soundrobj_count;
	w3d_shdmesh **shdmeshes;
	size_t shdmesh_count;
	/* game.h: the root of the chunk tree, and the game dialect the file is
	 * read as (detected by w3d_model_build; w3d_model_set_game overrides) */
	const wl_chunk *root;
	w3d_game game;
	w3d_game detected_game;
	w3d_game_evidence game_evidence;
} w3d_model;

/**
 * Decodes every top-level object of a W3D document into doc->arena and
 * stores the result in doc->model.  Returns the model, or NULL only when out
 * of memory (doc->oom is then set).  Findings go to doc->findings.
 */
w3d_model *w3d_model_build(wl_doc *doc);

#endif
