/*
 * check_dialect.c - chunks only BFME loads, in files read for another game
 * (rules/w3d/dialect.yaml; core/w3d/game.h for the BFME chunks):
 *
 *   chunk-bfme-only   a BFME chunk that carries what the mesh or animation
 *                     shows, and that the Renegade-engine loaders skip:
 *                     a SHADER_MATERIALS (0x50) of a mesh with no
 *                     MATERIAL_PASS (0x38), whose material is then only
 *                     the BFME one; a COMPRESSED_ANIMATION_MOTION_CHANNEL
 *                     (0x284), the channel then animates nothing.
 *
 * The rule is off for `bfme` (rules/w3d/dialect.yaml targets:), so its
 * message speaks of the games that skip the chunk.  One finding per chunk,
 * over the whole chunk (header and payload).
 */
#include <inttypes.h>

#include "checks.h"

void w3d_check_dialect(wl_lint_ctx *ctx);

/* The bytes of chunk c: its header and payload. */
static uint64_t whole(const wl_chunk *c)
{
	return (uint64_t)c->header_size + c->size;
}

void w3d_check_dialect(wl_lint_ctx *ctx)
{
	const w3d_model *m = ctx->model;
	for (size_t i = 0; i < m->mesh_count; i++) {
		const w3d_mesh *me = m->meshes[i];
		const wl_chunk *sm = me->src ? wl_chunk_find(me->src, W3D_CHUNK_SHADER_MATERIALS) : NULL;
		if (sm && !wl_chunk_find(me->src, W3D_CHUNK_MATERIAL_PASS))
			wl_report(&ctx->doc->findings, WLR_CHUNK_BFME_ONLY, sm, -1, sm->offset, whole(sm),
				  "mesh '%s' has its material only as a bfme shader material (0x50) and no "
				  "material pass; the renegade and zero hour mesh loaders skip the chunk and "
				  "draw the mesh without a material",
				  me->name);
	}
	for (size_t i = 0; i < m->compressed_animation_count; i++) {
		const w3d_compressed_animation *a = m->compressed_animations[i];
		for (size_t k = 0; k < a->channel_count; k++) {
			const w3d_canim_channel *ch = &a->channels[k];
			if (ch->src && ch->src->id == W3D_CHUNK_COMPRESSED_ANIMATION_MOTION_CHANNEL)
				wl_report(&ctx->doc->findings, WLR_CHUNK_BFME_ONLY, ch->src, -1, ch->src->offset,
					  whole(ch->src),
					  "animation '%s' animates pivot %u with a bfme motion channel (0x284); "
					  "the renegade and zero hour animation loaders skip the chunk, so the "
					  "pivot does not move",
					  a->name, (unsigned)ch->pivot);
		}
	}
}
