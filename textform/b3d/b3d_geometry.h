/* b3d_geometry.h - the B3D geometry hook (textform/b3d/geometry.c). */
#ifndef WL_TF_B3D_GEOMETRY_H
#define WL_TF_B3D_GEOMETRY_H

#include <jansson.h>

#include "core/chunk.h"
#include "textform/geometry.h"

/** wl_tf_format.geometry for B3D: every MESH of d->model (a b3d_model),
 *  and "bone_names": every NODE's name by node index (the "bones" of a
 *  mesh index it). */
json_t *wl_b3d_geometry_json(const wl_doc *d, const wl_tf_geo_companions *c);

#endif
