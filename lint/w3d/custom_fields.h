/*
 * custom_fields.h - the W3D fields of the configuration's custom rules
 * (lint/config/custom_rules.h lists them with their bytes), registered for "w3d"
 * in lint/registry.c.
 */
#ifndef WL_W3D_CUSTOM_FIELDS_H
#define WL_W3D_CUSTOM_FIELDS_H

#include "core/w3d/model.h"
#include "lint/config/custom_fields.h"

/* Entries of w3d_custom_fields (checked against the table at compile time). */
#define W3D_CUSTOM_FIELD_COUNT 20

extern const wl_field_def w3d_custom_fields[W3D_CUSTOM_FIELD_COUNT];

/** Evaluates e's rule over the W3D model of e->ctx (every occurrence of
 *  the rule's field). */
void w3d_custom_eval(const wl_custom_eval *e);

#endif
