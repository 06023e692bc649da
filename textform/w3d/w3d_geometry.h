/* w3d_geometry.h - the W3D geometry hook (textform/w3d/geometry.c). */
#ifndef WL_TF_W3D_GEOMETRY_H
#define WL_TF_W3D_GEOMETRY_H

#include <jansson.h>

#include "core/chunk.h"
#include "textform/geometry.h"

/** wl_tf_format.geometry for W3D: every MESH of d->model (a w3d_model);
 *  c finds a hierarchy the file lacks (NAME.w3d). */
json_t *wl_w3d_geometry_json(const wl_doc *d, const wl_tf_geo_companions *c);

#endif
