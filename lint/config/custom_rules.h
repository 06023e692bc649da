/*
 * custom_rules.h - declarative rules of the user configuration
 * (.w3dlint.yaml `custom-rules:`, see config.h and docs/configuration.md):
 * a named field of the decoded W3D model, and a condition on it.
 *
 *   custom-rules:
 *     - id: custom-texture-prefix        # "custom-" + kebab-case
 *       field: texture-name
 *       match: '^(tx|ui)_[a-z0-9_]+\.(tga|dds)$'
 *       severity: warning
 *
 * Fields (W3D's: lint/w3d/custom_fields.c; each format registers its own in
 * lint/registry.c).  A field names one value of every object of a kind; the rule is
 * evaluated once per occurrence.  Name fields are matched as the raw bytes
 * of the field up to its first NUL (or the whole fixed-size field when it
 * holds no NUL); numeric fields are compared with min/max.  Each occurrence
 * has exact bytes: a finding covers the field itself (offset and length in
 * bytes, absolute in the file) and names the chunk holding it.
 *
 *   field                     kind    bytes (struct @offset, size)
 *   mesh-name                 name    MESH_HEADER3 MeshName @8, 16
 *   container-name            name    MESH_HEADER3 ContainerName @24, 16
 *   mesh-num-triangles        number  MESH_HEADER3 NumTris @40, 4 (uint32)
 *   mesh-num-vertices         number  MESH_HEADER3 NumVertices @44, 4 (uint32)
 *   texture-name              name    TEXTURE_NAME payload (every TEXTURE of
 *                                     the mesh and of its PRELIT_* scopes)
 *   texture-count             number  TEXTURE chunks of the mesh (all
 *                                     scopes); bytes: the first TEXTURES
 *                                     chunk, or the MESH chunk header when
 *                                     there is none
 *   vertex-material-name      name    VERTEX_MATERIAL_NAME payload
 *   vertex-material-count     number  VERTEX_MATERIAL chunks of the mesh;
 *                                     bytes as texture-count (VERTEX_MATERIALS)
 *   hierarchy-name            name    HIERARCHY_HEADER Name @4, 16
 *   pivot-count               number  HIERARCHY_HEADER NumPivots @20, 4
 *   pivot-name                name    PIVOTS element i (60 bytes) Name @0, 16
 *   animation-name            name    (COMPRESSED_)ANIMATION_HEADER Name @4, 16
 *   animation-hierarchy-name  name    ... HierarchyName @20, 16
 *   animation-num-frames      number  ... NumFrames @36, 4 (frames)
 *   animation-frame-rate      number  ... FrameRate @40: 4 bytes (uint32) in
 *                                     ANIMATION_HEADER, 2 (uint16) in
 *                                     COMPRESSED_ANIMATION_HEADER (frames/s)
 *   hlod-name                 name    HLOD_HEADER Name @8, 16
 *   hlod-hierarchy-name       name    HLOD_HEADER HierarchyName @24, 16
 *   hlod-lod-count            number  HLOD_HEADER LodCount @4, 4
 *   sub-object-name           name    HLOD_SUB_OBJECT Name @4, 32 (LOD,
 *                                     aggregate and proxy arrays)
 *   box-name                  name    BOX Name @8, 32
 *
 * Source of the layouts: W3D specification (seeds/000_*.txt) and REN
 * w3d_file.h as cited in core/w3d/mesh.h and core/w3d/hierarchy.h.  Header
 * values are the fields as read (never counts derived from the bytes), so
 * `mesh-num-vertices: {max: 65535}` checks what the loader will allocate.
 * An occurrence whose bytes are absent (a missing or short header) is
 * skipped: the built-in rules report those.
 *
 * Default messages (lower case, naming the values):
 *   "<field> '<value>' does not match '<match>'"
 *   "<field> '<value>' matches '<not-match>', which is not allowed"
 *   "<field> <value> is below the minimum <min>" / "above the maximum <max>"
 *   "<field> '<value>': pattern '<p>' could not be evaluated: <pcre2 message>"
 * Name values are shown with non-printable bytes as '?'.  A rule's own
 * message template may use {rule}, {field}, {value}, {object} (the owning
 * object's name: mesh "CONTAINER.MESH", hierarchy, animation, HLOD or box
 * name) and {{ for a literal brace.
 */
#ifndef WL_CUSTOM_RULES_H
#define WL_CUSTOM_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/finding.h"
#include "pattern.h"

typedef enum wl_field_kind {
	WL_FIELD_NAME = 0,   /* bytes, matched with match / not-match */
	WL_FIELD_NUMBER = 1  /* unsigned integer, compared with min / max */
} wl_field_kind;

/* One selectable field (the table above). */
typedef struct wl_field_def {
	const char *name;     /* selector as written in the configuration */
	wl_field_kind kind;
	int code;             /* internal: which evaluator */
} wl_field_def;

/* The field catalogue: every registered format's fields (lint/registry.c). */

/** The field named name, or NULL. */
const wl_field_def *wl_custom_field_find(const char *name);

/** Number of fields, and field i (0 <= i < count) in table order. */
size_t wl_custom_field_count(void);
const wl_field_def *wl_custom_field_at(size_t i);

/* Prefix every custom rule id must start with (config.h). */
#define WL_CUSTOM_PREFIX "custom-"

/* A declarative rule as loaded by config_read_custom.c (owned by the configuration). */
typedef struct wl_custom_rule {
	const char *id;              /* "custom-...", kebab-case */
	wl_severity severity;        /* default severity (rules: may override) */
	const wl_field_def *field;
	const wl_pattern *match;     /* name fields: must match, or NULL */
	const wl_pattern *not_match; /* name fields: must not match, or NULL */
	bool has_min, has_max;       /* number fields */
	double min, max;             /* inclusive bounds */
	const char *message;         /* template, or NULL for the default */
	const char *description;     /* free text, or NULL */
	const char *origin;          /* "file:line:column" of its id */
} wl_custom_rule;

/** The placeholder of a message template at p ("{rule}" 0, "{field}" 1,
 *  "{value}" 2, "{object}" 3), its length in *n; -1 when p starts none. */
int wl_custom_placeholder_at(const char *p, size_t *n);

/**
 * Checks a message template: returns 0 when every '{' starts {{ or one of
 * the placeholders above; otherwise -1 and writes the offending text (the
 * brace and what follows it, at most 32 bytes) into bad (cap bytes).
 */
int wl_custom_message_check(const char *tmpl, char *bad, size_t cap);


#endif
