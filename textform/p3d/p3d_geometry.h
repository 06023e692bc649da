/* p3d_geometry.h - the P3D geometry hook (textform/p3d/geometry.c). */
#ifndef WL_TF_P3D_GEOMETRY_H
#define WL_TF_P3D_GEOMETRY_H

#include <jansson.h>

#include "core/chunk.h"
#include "textform/geometry.h"

/** wl_tf_format.geometry for P3D: every LOD of d->model (a p3d_model)
 *  read far enough, faces triangulated, components listed. */
json_t *wl_p3d_geometry_json(const wl_doc *d, const wl_tf_geo_companions *c);

#endif
