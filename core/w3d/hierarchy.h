/* hierarchy.h - PLACEHOLDER: the hierarchy helper replaces this file with the
 * typed HIERARCHY, ANIMATION, COMPRESSED_ANIMATION, HLOD and BOX models. */
#ifndef W3D_HIERARCHY_H
#define W3D_HIERARCHY_H
#include "../chunk.h"
typedef struct w3d_hierarchy w3d_hierarchy;
typedef struct w3d_animation w3d_animation;
typedef struct w3d_compressed_animation w3d_compressed_animation;
typedef struct w3d_hlod w3d_hlod;
typedef struct w3d_box w3d_box;
w3d_hierarchy *w3d_decode_hierarchy(wl_doc *doc, wl_chunk *c);
w3d_animation *w3d_decode_animation(wl_doc *doc, wl_chunk *c);
w3d_compressed_animation *w3d_decode_compressed_animation(wl_doc *doc, wl_chunk *c);
w3d_hlod *w3d_decode_hlod(wl_doc *doc, wl_chunk *c);
w3d_box *w3d_decode_box(wl_doc *doc, wl_chunk *c);
#endif
