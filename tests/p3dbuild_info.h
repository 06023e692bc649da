/*
 * p3dbuild_info.h - the ODOL ModelInfo (skeleton and animations included)
 * of the test files built by p3b_odol (p3dbuild.h), laid out per
 * core/p3d/p3d_info.c for any version, and LoadableLodInfo records.
 */
#ifndef P3DBUILD_INFO_H
#define P3DBUILD_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "p3dbuild.h"

/* What one ModelInfo holds (zero: no skeleton, no animations, boxes 0),
 * and where its parts were written (offsets in the file). */
typedef struct p3bi_info {
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
} p3bi_info;

/* The ModelInfo the next p3b_odol call writes (then reset to NULL); NULL:
 * an empty one whose boxes are (-1e9, -1e9, -1e9) to (1e9, 1e9, 1e9). */
extern p3bi_info *p3bi_next;

/** Writes ModelInfo .. animations for version v and n LODs (info may be
 *  NULL). */
void p3bi_modelinfo(wb *b, uint32_t v, uint32_t n, p3bi_info *info);

/** Makes LODs [0, k) of a p3b_odol file of n LODs non-permanent: their
 *  flags 0 and one LoadableLodInfo record each inserted after the table,
 *  the table and at's offsets shifted. */
void p3bi_loadable(wb *b, p3b_layout *at, uint32_t v, uint32_t n, uint32_t k);

#endif
