/*
 * check_materials.c - B3D TEXS and BRUS entries (rules/b3d/materials.yaml).
 *
 * Rule ids reported here, each at the exact bytes named:
 *   b3d-texture-id-out-of-range  a BRUS texture_id is neither -1 nor below the
 *                                TEXS entry count (its 4 bytes); the message
 *                                names an unknown chunk under BB3D when the
 *                                file has no TEXS (a renamed TEXS, `XXXX`)
 *   b3d-brush-texture-count      BRUS n_texs above 8 (its 4 bytes)
 *   b3d-brush-texture-negative   BRUS n_texs negative (its 4 bytes)
 *   b3d-brush-texture-layers     BRUS n_texs 5 to 8: Luanti uses 4 layers
 *                                (its 4 bytes)
 *   b3d-texture-path-backslash   a TEXS file name holds '\' (the name bytes)
 *   b3d-texture-path-absolute    a TEXS file name is absolute or starts with
 *                                a drive letter (the name bytes)
 *   b3d-float-not-finite         a TEXS position/scale/rotation or a BRUS
 *                                colour/shininess is NaN or infinite (those
 *                                20 bytes of the entry)
 */
#include <inttypes.h>
#include <stdio.h>

#include "check_util.h"

void b3d_check_materials(wl_lint_ctx *ctx);

/* Assimp B3DImporter::ReadBRUS and modlib refuse more (spec: up to 8). */
#define BRUS_MAX_TEXS 8
/* Luanti/Irrlicht MATERIAL_MAX_TEXTURES (irr/include/SMaterial.h). */
#define LUANTI_MAX_LAYERS 4

/* The first unknown chunk directly under BB3D, or NULL. */
static const wl_chunk *unknown_under_bb3d(const b3d_model *m)
{
	for (const wl_chunk *k = m->bb3d->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && !k->type)
			return k;
	return NULL;
}

static void texture_ids(wl_lint_ctx *ctx, const b3d_brush *b, size_t bi, int32_t n, const char *hint)
{
	const b3d_model *m = ctx->model;
	for (int32_t j = 0; j < n; j++) {
		int32_t id = b3c_i32(b->texture_ids + 4 * (size_t)j);
		if (id == -1 || (id >= 0 && (uint64_t)id < m->texture_count))
			continue;
		wl_report(&ctx->doc->findings, WLR_B3D_TEXTURE_ID_OUT_OF_RANGE, b->src, (int64_t)bi,
			  b->texture_ids_offset + 4 * (uint64_t)j, 4,
			  "brush %zu ('%.*s') texture_id[%" PRId32 "] is %" PRId32 ", but TEXS holds %zu "
			  "texture(s)%s: Assimp refuses the model (\"Bad texture id\"), Irrlicht and "
			  "Luanti draw the layer without a texture",
			  bi, b3c_shown(b->name_len), b->name, j, id, m->texture_count, hint);
	}
}

static void brushes(wl_lint_ctx *ctx)
{
	const b3d_model *m = ctx->model;
	wl_findings *f = &ctx->doc->findings;
	int32_t n = m->brush_texture_slots;
	uint64_t at = wl_chunk_payload_offset(m->brus);
	if (n < 0)
		wl_report(f, WLR_B3D_BRUSH_TEXTURE_NEGATIVE, m->brus, -1, at, 4,
			  "BRUS n_texs is %" PRId32 ": Irrlicht and Luanti read it as unsigned and run far "
			  "past the chunk (Irrlicht 1.8 hangs), Assimp refuses the model (\"Bad texture "
			  "count\")",
			  n);
	else if (n > BRUS_MAX_TEXS)
		wl_report(f, WLR_B3D_BRUSH_TEXTURE_COUNT, m->brus, -1, at, 4,
			  "BRUS n_texs is %" PRId32 ", above %d: Assimp refuses the model (\"Bad texture "
			  "count\"), modlib too",
			  n, BRUS_MAX_TEXS);
	else if (n > LUANTI_MAX_LAYERS)
		wl_report(f, WLR_B3D_BRUSH_TEXTURE_LAYERS, m->brus, -1, at, 4,
			  "BRUS n_texs is %" PRId32 ": Irrlicht and Luanti use %d texture layers and "
			  "ignore the rest",
			  n, LUANTI_MAX_LAYERS);
	char hint[128] = "";
	const wl_chunk *u = m->texs ? NULL : unknown_under_bb3d(m);
	if (u)
		snprintf(hint, sizeof hint,
			 " (the file has no TEXS, but unknown chunk '%s' at offset %" PRIu64
			 " under BB3D: a renamed TEXS?)",
			 wl_chunk_name(ctx->doc, u), (uint64_t)u->offset);
	for (size_t i = 0; i < m->brush_count; i++) {
		const b3d_brush *b = &m->brushes[i];
		if (!b3c_finite_v(b->color, 4) || !isfinite(b->shininess))
			wl_report(f, WLR_B3D_FLOAT_NOT_FINITE, b->src, (int64_t)i, b->values_offset, 20,
				  "brush %zu ('%.*s') has a NaN or infinite colour or shininess",
				  i, b3c_shown(b->name_len), b->name);
		if (b->texture_ids)
			texture_ids(ctx, b, i, n, hint);
	}
}

static bool is_absolute(const char *s, size_t n)
{
	if (n >= 1 && (s[0] == '/' || s[0] == '\\'))
		return true;
	return n >= 2 && s[1] == ':' && ((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z'));
}

static void textures(wl_lint_ctx *ctx)
{
	const b3d_model *m = ctx->model;
	wl_findings *f = &ctx->doc->findings;
	for (size_t i = 0; i < m->texture_count; i++) {
		const b3d_texture *t = &m->textures[i];
		int len = b3c_shown(t->name_len);
		if (memchr(t->name, '\\', t->name_len))
			wl_report(f, WLR_B3D_TEXTURE_PATH_BACKSLASH, t->src, (int64_t)i, t->offset, t->name_len + 1,
				  "texture %zu file name '%.*s' uses '\\': Irrlicht and Luanti read it as '/', "
				  "other tools on Linux do not",
				  i, len, t->name);
		if (is_absolute(t->name, t->name_len))
			wl_report(f, WLR_B3D_TEXTURE_PATH_ABSOLUTE, t->src, (int64_t)i, t->offset, t->name_len + 1,
				  "texture %zu file name '%.*s' is an absolute path: it names a folder of "
				  "the author's machine",
				  i, len, t->name);
		if (!b3c_finite_v(t->pos, 2) || !b3c_finite_v(t->scale, 2) || !isfinite(t->rotation))
			wl_report(f, WLR_B3D_FLOAT_NOT_FINITE, t->src, (int64_t)i, t->values_offset + 8, 20,
				  "texture %zu ('%.*s') has a NaN or infinite position, scale or rotation",
				  i, len, t->name);
	}
}

void b3d_check_materials(wl_lint_ctx *ctx)
{
	const b3d_model *m = ctx->model;
	if (!m || !m->bb3d)
		return;
	textures(ctx);
	if (m->brus && m->brus_ok)
		brushes(ctx);
}
