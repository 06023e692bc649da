/*
 * build_anim.h - test helpers that write valid minimal HIERARCHY, ANIMATION,
 * COMPRESSED_ANIMATION (time-coded and adaptive delta) and HLOD objects with
 * tests/build/w3dbuild.h, each with knobs to inject one defect, and that lint the
 * result with the hierarchy/animation/HLOD checks.
 *
 * Every builder appends one top-level object to b and records the absolute
 * offsets (bytes) of the fields tests assert on in its *_at struct.
 */
#ifndef BUILD_ANIM_H
#define BUILD_ANIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chunk.h"
#include "w3dbuild.h"

/* --- HIERARCHY ---------------------------------------------------- */
typedef struct t_anim_hier_opts {
	unsigned pivots;          /* pivots written (>= 1) */
	int64_t header_pivots;    /* NumPivots field; < 0 = pivots */
	int64_t fixups;           /* PIVOT_FIXUPS records; < 0 = pivots; -2 none */
	bool no_header;           /* omit HIERARCHY_HEADER */
	bool header_last;         /* write HIERARCHY_HEADER after PIVOTS */
	const uint32_t *parents;  /* parents[i]; NULL = root then chain i-1 */
	int bad_rot_pivot;        /* pivot whose rotation is rot_scale * identity; -1 none */
	float rot_scale;
} t_anim_hier_opts;

typedef struct t_anim_hier_at {
	size_t header_payload;    /* HIERARCHY_HEADER payload (NumPivots at +20) */
	size_t pivots_payload;    /* PIVOTS payload; pivot i at +60*i */
	size_t first_child;       /* header offset of the first sub-chunk */
	size_t fixups_payload;
	size_t object;            /* HIERARCHY chunk header */
} t_anim_hier_at;

t_anim_hier_opts t_anim_hier_defaults(unsigned pivots);
void t_anim_hierarchy(wb *b, const t_anim_hier_opts *o, t_anim_hier_at *at);

/* --- raw ANIMATION ------------------------------------------------ */
typedef struct t_anim_anim_opts {
	uint32_t num_frames;      /* header NumFrames */
	uint16_t first, last;     /* every channel's frame range */
	int64_t data_delta;       /* bytes added to (or cut from) channel 0's data */
	uint16_t q_vector_len;    /* vector length written in the Q channel (4) */
	float q_scale;            /* scale of the Q keys (1 = unit) */
	bool no_header, header_last;
	bool bit_channel;         /* add a visibility channel over first..last */
	int64_t bit_delta;        /* bytes added to / cut from the bit data */
} t_anim_anim_opts;

typedef struct t_anim_anim_at {
	size_t object;
	size_t first_child;
	size_t x_payload;         /* X channel (channel 0) payload */
	size_t q_payload;         /* Q channel payload; data at +12 */
	size_t bit_payload;
} t_anim_anim_at;

t_anim_anim_opts t_anim_anim_defaults(void);
void t_anim_animation(wb *b, const t_anim_anim_opts *o, t_anim_anim_at *at);

/* --- COMPRESSED_ANIMATION ----------------------------------------- */
typedef struct t_anim_canim_opts {
	uint16_t flavor;          /* 0 time-coded, 1 adaptive delta */
	uint32_t num_frames;
	uint32_t keys;            /* time-coded: keys per channel at 0, step, 2 step... */
	uint32_t step;
	int64_t count_delta;      /* added to channel 0's NumTimeCodes / NumFrames field */
	int64_t size_delta;       /* bytes added to / cut from channel 0's data */
	float q_scale;            /* scale of the Q channel's keys / initial value */
	int bad_key;              /* Q channel key whose time is set to key_time; -1 none */
	uint32_t key_time;
	bool no_header;
} t_anim_canim_opts;

typedef struct t_anim_canim_at {
	size_t object;
	size_t header_payload;
	size_t x_payload;         /* channel 0 (X, VL 1) payload */
	size_t q_payload;         /* Q channel payload; data at +8 (TC) / +12 (AD) */
} t_anim_canim_at;

t_anim_canim_opts t_anim_canim_defaults(uint16_t flavor);
void t_anim_compressed_animation(wb *b, const t_anim_canim_opts *o, t_anim_canim_at *at);

/* --- HLOD --------------------------------------------------------- */
typedef struct t_anim_hlod_opts {
	unsigned lods;            /* LOD arrays written */
	int64_t lod_count;        /* header LodCount; < 0 = lods */
	unsigned subs;            /* sub-objects per LOD array */
	int64_t model_count;      /* ModelCount of array 0; < 0 = subs */
	bool no_header, header_last;
	bool no_array_header;     /* array 0 has no SUB_OBJECT_ARRAY_HEADER */
	bool aggregate_between;   /* an aggregate array between LOD arrays 0 and 1 */
	int64_t size_delta;       /* added to the HLOD chunk's size field (RotWK) */
} t_anim_hlod_opts;

typedef struct t_anim_hlod_at {
	size_t object;            /* HLOD chunk header */
	size_t header_payload;    /* HLOD_HEADER payload (LodCount at +4) */
	size_t first_child;
	size_t array[4];          /* LOD array i chunk header */
	size_t array_header_payload[4]; /* its SUB_OBJECT_ARRAY_HEADER payload */
	size_t aggregate;
} t_anim_hlod_at;

t_anim_hlod_opts t_anim_hlod_defaults(unsigned lods, unsigned subs);
void t_anim_hlod(wb *b, const t_anim_hlod_opts *o, t_anim_hlod_at *at);

/* --- linting ------------------------------------------------------ */
/** Reads b's bytes, builds the model and runs the hierarchy, animation and
 *  HLOD checks.  Free with wl_doc_free() before freeing b. */
wl_doc *t_anim_lint(const wb *b);
wl_doc *t_anim_lint_bytes(const uint8_t *p, size_t n);
/** First finding of rule, or NULL. */
const wl_finding *t_anim_find(const wl_doc *d, const char *rule);
/** Lints b into *out (a test failure when it cannot) and returns the first
 *  finding of rule, or NULL. */
const wl_finding *t_anim_lint_find(const wb *b, wl_doc **out, const char *rule);
/** Frees the document d and the buffer b of a t_anim_lint_find() call. */
void t_anim_done(wl_doc *d, wb *b);
/** Number of findings of rule. */
size_t t_anim_count(const wl_doc *d, const char *rule);

/* Rule ids reported by each check file (NULL-terminated). */

/** Number of rule handles (core/rule_ids.h) that are not the built-in
 *  catalogue's rule of that id, plus catalogue rules without a handle;
 *  each is printed to stderr.  (The compiler checks that every handle the
 *  code names exists; this checks that the handles and the catalogue the
 *  binary embeds agree.) */
size_t t_anim_missing_from_catalogue(void);

#endif
