/*
 * build_objects.h - test helpers that write valid minimal W3D objects of
 * core/w3d/objects.h (EMITTER, AGGREGATE, HMODEL, DAZZLE, NULL_OBJECT and
 * the other top-level objects) with tests/build/w3dbuild.h, each with knobs to
 * inject one defect, and that lint the result with the object and string
 * checks (lint/w3d/check_objects.c, lint/w3d/check_strings.c).
 *
 * Every builder appends one top-level object to b and records absolute
 * offsets (bytes) of the chunks and fields tests assert on.
 */
#ifndef BUILD_OBJECTS_H
#define BUILD_OBJECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"
#include "w3dbuild.h"

/* --- EMITTER ------------------------------------------------------ */
typedef struct t_obj_emitter_opts {
	uint32_t version;          /* header Version (0x00020000: INFOV2 + PROPS) */
	bool swap_user_info;       /* write INFO before USER_DATA */
	uint32_t props_counts[3];  /* Color, Opacity, Size keyframes declared */
	uint32_t props_keys[3];    /* keys actually written per kind */
	uint32_t rotation_count;   /* ROTATION_KEYFRAMES KeyframeCount */
	uint32_t rotation_keys;    /* keys written (rotation_count + 1 when valid) */
	uint32_t user_string_size; /* SizeofStringParam declared */
	uint32_t user_string_bytes;/* string bytes written */
	bool extra_info;           /* append EMITTER_EXTRA_INFO (ZH) */
} t_obj_emitter_opts;

typedef struct t_obj_emitter_at {
	size_t object;             /* EMITTER chunk header */
	size_t child[5];           /* header offsets of the first five sub-chunks, file order */
	size_t user_payload;       /* USER_DATA payload (SizeofStringParam at +4) */
	size_t props;              /* PROPS chunk header; payload at +8 */
	size_t rotation;           /* ROTATION_KEYFRAMES chunk header */
	size_t info_payload;       /* INFO payload (TextureFilename at +0) */
} t_obj_emitter_at;

/** A valid emitter "FIRE": version 2, one key per PROPS kind, 1 rotation
 *  keyframe (+ start key), a 6-byte user string. */
t_obj_emitter_opts t_obj_emitter_defaults(void);
void t_obj_emitter(wb *b, const t_obj_emitter_opts *o, t_obj_emitter_at *at);

/* --- AGGREGATE ---------------------------------------------------- */
/** Aggregate "AGG" whose INFO declares count sub-objects and holds
 *  written of them; *info is the INFO chunk header offset. */
void t_obj_aggregate(wb *b, uint32_t count, uint32_t written, size_t *info);

/* --- HMODEL ------------------------------------------------------- */
/** HModel "HM" with NumConnections conns and nodes NODE chunks; node[i]
 *  receives the chunk header offset of node i (array of nodes entries, may
 *  be NULL). */
void t_obj_hmodel(wb *b, uint16_t conns, unsigned nodes, size_t *node);

/* --- small objects ------------------------------------------------ */
/** DAZZLE with DAZZLE_NAME "OBJ.DAZ" (when with_name) and type "SUN";
 *  returns the DAZZLE chunk header offset. */
size_t t_obj_dazzle(wb *b, bool with_name);
/** NULL_OBJECT "OBJ.NULL" with extra bytes after its 48-byte record;
 *  returns the chunk header offset. */
size_t t_obj_null_object(wb *b, size_t extra);
/** A top-level LIGHT (point light with near/far attenuation); returns its
 *  header offset. */
size_t t_obj_light(wb *b);
/** A SPHERE (ring false) or RING primitive named name with one channel. */
size_t t_obj_primitive(wb *b, bool ring, const char *name);

/* --- lint --------------------------------------------------------- */
/** Reads an exact-size private copy of p[0..n), builds the model and runs
 *  w3d_check_objects and w3d_check_strings (catalogue and config NULL). */
wl_doc *t_obj_lint_bytes(const uint8_t *p, size_t n);
wl_doc *t_obj_lint(const wb *b);
/** Frees a document of t_obj_lint / t_obj_lint_bytes and its copy. */
void t_obj_free(wl_doc *d);
/** t_obj_lint(b) into *d, asserting a document with a model; returns the model. */
const struct w3d_model *t_obj_model(const wb *b, wl_doc **d);
/** Frees *d (t_obj_free; *d becomes NULL) and b. */
void t_obj_done(wl_doc **d, wb *b);

#endif
