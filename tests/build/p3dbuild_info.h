/*
 * p3dbuild_info.h - the ODOL ModelInfo (skeleton and animations included)
 * of the test files built by t_p3d_odol (p3dbuild.h), laid out per
 * core/p3d/p3d_info.c for any version, and LoadableLodInfo records.
 */
#ifndef P3DBUILD_INFO_H
#define P3DBUILD_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "p3dbuild.h"

/* What one ModelInfo holds (zero: no skeleton, no animations, boxes 0),
 * and where its parts were written (offsets in the file). */
typedef struct t_p3dinfo_info {
	float bbox_min[3], bbox_max[3];  /* ModelInfo's bboxMin/Max */
	const float *vis;                /* v52+: visual box min[3], max[3];
	                                  * NULL: the same as bboxMin/Max */
	const char *const *bones;        /* n_bones pairs: name, parent */
	uint32_t n_bones;
	const int32_t *anim_bones;       /* one bone index per animation class */
	uint32_t n_anims;                /* animation classes (0: hasAnims 0) */
	/* out */
	size_t start;                    /* ModelInfo's first byte */
	size_t bbox;                     /* bboxMin[0] */
	size_t skeleton;                 /* the skeleton's name */
	size_t classes;                  /* the animation class count */
	size_t parent[8];                /* the first 8 bones' parent names */
	size_t anim[8];                  /* the first 8 classes' bone index */
	size_t end;                      /* the byte after the animations */
	int zero_mass;                   /* set: mass (and the rest of its
	                                  * floats) 0, else 1 */
	size_t mass;                     /* the mass float */
} t_p3dinfo_info;

/* The ModelInfo the next t_p3d_odol call writes (then reset to NULL); NULL:
 * an empty one whose boxes are (-1e9, -1e9, -1e9) to (1e9, 1e9, 1e9). */
extern t_p3dinfo_info *t_p3dinfo_next;

/** Writes ModelInfo .. animations for version v and n LODs (info may be
 *  NULL). */
void t_p3dinfo_modelinfo(wb *b, uint32_t v, uint32_t n, t_p3dinfo_info *info);

/** Makes LODs [0, k) of a t_p3d_odol file of n LODs non-permanent: their
 *  flags 0 and one LoadableLodInfo record each inserted after the table,
 *  the table and at's offsets shifted. */
void t_p3dinfo_loadable(wb *b, t_p3d_layout *at, uint32_t v, uint32_t n, uint32_t k);

#endif
