/* mesh.h - PLACEHOLDER: the mesh helper replaces this file with the typed
 * MESH model (w3d_mesh) and its decoder. */
#ifndef W3D_MESH_H
#define W3D_MESH_H
#include "../chunk.h"
typedef struct w3d_mesh w3d_mesh;
w3d_mesh *w3d_decode_mesh(wl_doc *doc, wl_chunk *c);
#endif
