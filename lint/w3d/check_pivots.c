/*
 * check_pivots.c - pivot names, and the names of hierarchies and animations
 * against their file (rules/pivots.yaml; notes/w3d_reference.md §2.3,
 * §3 E6, E7, F3):
 *
 *   pivot-name-duplicate         E6: two pivots of one hierarchy have the
 *                                same name (letter case ignored)
 *   hierarchy-name-not-file-name E7: the hierarchy's Name differs from the
 *                                base name of its file, so on-demand loading
 *                                of "<name>.w3d" does not find it
 *   animation-name-not-file-name F3: an ANIMATION's or COMPRESSED_ANIMATION's
 *                                Name differs from the base name of its file:
 *                                Get_HAnim("TREE.ANIM") loads "ANIM.w3d" on a
 *                                miss (assetmgr.cpp:844-880)
 *
 * Offsets: pivot i's Name at PIVOTS payload + 60 i (16 bytes); the
 * hierarchy Name at HIERARCHY_HEADER payload + 4 (16 bytes); the animation
 * Name at (COMPRESSED_)ANIMATION_HEADER payload + 4 (16 bytes).  Letter case
 * is ignored (the asset manager's lookups and Windows file names).
 */
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "core/w3d/model_lookup.h"

void w3d_check_pivots(wl_lint_ctx *ctx);

/* One pivot for sorting by name; ties by index. */
typedef struct named {
	const char *name;
	size_t index;
} named;

static int by_name(const void *a, const void *b)
{
	const named *x = a, *y = b;
	int c = wl_name_casecmp(x->name, y->name);
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

static void check_duplicates(wl_lint_ctx *ctx, const w3d_hierarchy *h)
{
	size_t n = h->pivot_count;
	if (n < 2 || !h->pivots_chunk)
		return;
	named *order = malloc(n * sizeof *order);
	if (!order) {
		ctx->doc->findings.oom = 1;
		return;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (named){ h->pivots[i].name ? h->pivots[i].name : "", i };
	qsort(order, n, sizeof *order, by_name);
	uint64_t base = wl_chunk_payload_offset(h->pivots_chunk);
	size_t run = 0; /* first entry of the current run of equal names */
	for (size_t k = 1; k < n; k++) {
		if (wl_name_casecmp(order[run].name, order[k].name) != 0) {
			run = k;
			continue;
		}
		size_t dup = order[k].index, first = order[run].index;
		wl_report(&ctx->doc->findings, WLR_PIVOT_NAME_DUPLICATE, h->pivots_chunk, (int64_t)dup,
			  base + (uint64_t)dup * W3D_PIVOT_SIZE, 16,
			  "pivot %zu of hierarchy '%s' is named '%s' like pivot %zu; lookups by name find only "
			  "pivot %zu",
			  dup, h->name, order[k].name, first, first);
	}
	free(order);
}

/* The base name of path without directories and extension, into buf. */
static void base_name(const char *path, char *buf, size_t cap)
{
	const char *s = path;
	for (const char *p = path; *p; p++)
		if (*p == '/' || *p == '\\')
			s = p + 1;
	size_t n = strlen(s);
	const char *dot = strrchr(s, '.');
	if (dot)
		n = (size_t)(dot - s);
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
}

/* animation-name-not-file-name for one animation header (NULL: none). */
static void check_anim_name(wl_lint_ctx *ctx, const wl_chunk *header, bool ok, const char *name, const char *base)
{
	if (!header || !ok || !name || !name[0] || !base[0] || wl_name_eq(base, name))
		return;
	wl_report(&ctx->doc->findings, WLR_ANIMATION_NAME_NOT_FILE_NAME, header, -1, wl_chunk_payload_offset(header) + 4,
		  16,
		  "animation '%s' is in file '%s'; the engine loads a missing animation '<hierarchy>.%s' from "
		  "'%s.w3d'",
		  name, base, name, name);
}

void w3d_check_pivots(wl_lint_ctx *ctx)
{
	const w3d_model *m = ctx->model;
	if (!m)
		return;
	if (ctx->doc->path) {
		char base[256];
		base_name(ctx->doc->path, base, sizeof base);
		for (size_t i = 0; i < m->animation_count; i++) {
			const w3d_animation *a = m->animations[i];
			if (a)
				check_anim_name(ctx, a->header, a->header_ok, a->name, base);
		}
		for (size_t i = 0; i < m->compressed_animation_count; i++) {
			const w3d_compressed_animation *a = m->compressed_animations[i];
			if (a)
				check_anim_name(ctx, a->header, a->header_ok, a->name, base);
		}
	}
	for (size_t i = 0; i < m->hierarchy_count; i++) {
		const w3d_hierarchy *h = m->hierarchies[i];
		if (!h)
			continue;
		check_duplicates(ctx, h);
		if (!h->header_ok || !ctx->doc->path || !h->name[0])
			continue;
		char base[256];
		base_name(ctx->doc->path, base, sizeof base);
		if (base[0] && !wl_name_eq(base, h->name))
			wl_report(&ctx->doc->findings, WLR_HIERARCHY_NAME_NOT_FILE_NAME, h->header, -1,
				  wl_chunk_payload_offset(h->header) + 4, 16,
				  "hierarchy '%s' is in file '%s'; the engine loads a missing hierarchy from "
				  "'%s.w3d'",
				  h->name, base, h->name);
	}
}
