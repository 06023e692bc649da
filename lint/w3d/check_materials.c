/*
 * check_materials.c - material rules of a MESH and of its PRELIT_* wrappers
 * (rules/materials.yaml; notes/w3d_reference.md §2.1, §3 A8, C5, C9-C12,
 * C14):
 *
 *   shaders-before-material-info   A8: SHADERS precedes MATERIAL_INFO (or
 *                                  there is no MATERIAL_INFO) in one scope
 *   vertex-material-id-out-of-range C5: a VERTEX_MATERIAL_IDS entry is not
 *                                  below the number of VERTEX_MATERIAL chunks
 *   shader-id-out-of-range         C5: a SHADER_IDS entry is not below the
 *                                  number of shaders the loader reads
 *   texture-id-out-of-range        C5: a TEXTURE_IDS entry is not below the
 *                                  number of TEXTURE chunks (0xFFFFFFFF is
 *                                  "no texture" only in a per-triangle array)
 *   shader-field-out-of-range      C9: a W3dShaderStruct byte outside its
 *                                  enum (Zero Hour maxima, the permissive ones)
 *   vertex-material-value-range    C10: Opacity outside 0..1, Shininess
 *                                  outside 0..1000, Translucency < 0, or a
 *                                  value not finite
 *   vertex-material-mapping-unknown C10: a stage mapping code > 0x14 or one
 *                                  of the unused attribute bits 0x10-0x80 set
 *   texture-info-invalid           C11: AnimType > 3, or an animated
 *                                  texture (FrameCount > 1) with
 *                                  FrameRate <= 0 (FrameCount 0 is what
 *                                  the engines' Save_Texture writes)
 *   texture-name-missing           C12: a TEXTURE has no TEXTURE_NAME
 *   vertex-material-ids-not-uniform C14: per-vertex material ids differ
 *                                  inside one triangle (OpenSAGE rejects it);
 *                                  one finding per such triangle, at its
 *                                  Vindex (TRIANGLES payload + 32 t, 12 bytes)
 *
 * Id rules report every bad entry of each array (offset and 4 bytes; the
 * report folds repeats).  Field rules name the field's exact bytes:
 * shader record i at SHADERS payload + 16 i, field k at + k; a vertex
 * material's Attributes at VERTEX_MATERIAL_INFO payload + 0, Shininess + 20,
 * Opacity + 24, Translucency + 28; TEXTURE_INFO AnimType at + 2,
 * FrameCount + 4, FrameRate + 8.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "checks.h"

void w3d_check_materials(wl_lint_ctx *ctx);

#define NO_TEXTURE 0xFFFFFFFFu

/* The scope's name for messages: "mesh 'X'" or "mesh 'X' prelit_vertex". */
static void scope_name(const wl_lint_ctx *ctx, const w3d_mesh *m, const w3d_material_set *ms, char *buf,
		       size_t cap)
{
	if (ms->src == m->src)
		snprintf(buf, cap, "mesh '%s'", m->name);
	else
		snprintf(buf, cap, "mesh '%s' %s", m->name, wl_chunk_name(ctx->doc, ms->src));
}

/* A8: the loader reads MatInfo.ShaderCount records when it meets SHADERS;
 * MatInfo is zero until MATERIAL_INFO is read (meshmdlio.cpp:943-956). */
static bool check_order(wl_lint_ctx *ctx, const w3d_material_set *ms, const char *scope)
{
	const wl_chunk *shaders = NULL, *info = NULL;
	for (const wl_chunk *k = ms->src->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->id == W3D_CHUNK_SHADERS && !shaders)
			shaders = k;
		else if (k->id == W3D_CHUNK_MATERIAL_INFO && !info)
			info = k;
	}
	if (!shaders || shaders->size < W3D_SHADER_SIZE)
		return true;
	if (info && info->offset < shaders->offset)
		return true;
	wl_report(&ctx->doc->findings, WLR_SHADERS_BEFORE_MATERIAL_INFO, shaders, -1, shaders->offset,
		  (uint64_t)shaders->header_size + shaders->size,
		  info ? "shaders of %s come before its material info; the engine reads 0 shaders, so every "
			 "shader id is out of range"
		       : "%s has shaders but no material info; the engine reads 0 shaders, so every shader id "
			 "is out of range",
		  scope);
	return false;
}

/* Reports each id of arr that is >= limit (0xFFFFFFFF allowed when
 * none_ok), at its 4 bytes. */
static void check_ids(wl_lint_ctx *ctx, wl_rule_id rule, const w3d_u32_array *arr, uint64_t limit,
		      bool none_ok, const char *what, const char *scope, size_t pass, size_t stage,
		      const char *limit_what)
{
	if (!arr->src || arr->count == 0)
		return;
	char where[48];
	wl_pass_stage_name(where, sizeof where, pass, stage);
	for (size_t i = 0; i < arr->count; i++) {
		uint32_t v = arr->v[i];
		if (v < limit || (none_ok && v == NO_TEXTURE))
			continue;
		wl_report(&ctx->doc->findings, rule, arr->src, (int64_t)i,
			  wl_chunk_payload_offset(arr->src) + (uint64_t)i * 4, 4,
			  "%s %s of %s: entry %zu is %" PRIu32 ", but there %s %" PRIu64 " %s", where, what, scope, i,
			  v, limit == 1 ? "is" : "are", limit, limit_what);
	}
}

/* C14: with per-vertex material ids, the three vertices of a triangle share
 * one id (OpenSAGE ModelMesh.W3d.cs:362-392). */
static void check_uniform(wl_lint_ctx *ctx, const w3d_mesh *m, const w3d_material_pass *ps, size_t pass,
			  const char *scope)
{
	const w3d_u32_array *ids = &ps->vertex_material_ids;
	if (!ids->src || ids->src->size == 4 || !m->triangles_src)
		return;
	for (size_t t = 0; t < m->triangle_count; t++) {
		const uint32_t *vi = m->triangles[t].vindex;
		if (vi[0] >= ids->count || vi[1] >= ids->count || vi[2] >= ids->count)
			continue;
		uint32_t a = ids->v[vi[0]], b = ids->v[vi[1]], c = ids->v[vi[2]];
		if (a == b && b == c)
			continue;
		wl_report(&ctx->doc->findings, WLR_VERTEX_MATERIAL_IDS_NOT_UNIFORM, m->triangles_src, (int64_t)t,
			  wl_chunk_payload_offset(m->triangles_src) + (uint64_t)t * W3D_TRI_SIZE, 12,
			  "pass %zu vertex material ids of %s: triangle %zu uses materials %" PRIu32 ", %" PRIu32
			  ", %" PRIu32 " at its vertices %" PRIu32 ", %" PRIu32 ", %" PRIu32,
			  pass, scope, t, a, b, c, vi[0], vi[1], vi[2]);
	}
}

/* C9: exclusive maxima of the shader enums, Zero Hour w3d_file.h (REN has
 * PriGradient 4 and DetailColorFunc 9). */
static const struct {
	int offset;
	const char *name;
	unsigned max;
} shader_fields[] = {
	{ 0, "depth compare", 8 },      { 1, "depth mask", 2 },        { 3, "dest blend", 7 },
	{ 5, "primary gradient", 6 },   { 6, "secondary gradient", 2 }, { 7, "src blend", 4 },
	{ 8, "texturing", 2 },          { 9, "detail color func", 13 }, { 10, "detail alpha func", 4 },
	{ 12, "alpha test", 2 },
};

static void check_shaders(wl_lint_ctx *ctx, const w3d_material_set *ms, const char *scope)
{
	const w3d_shader_array *sa = &ms->shaders;
	if (!sa->src)
		return;
	const uint8_t *raw = wl_chunk_payload(ctx->doc, sa->src);
	uint64_t base = wl_chunk_payload_offset(sa->src);
	for (size_t i = 0; i < sa->count; i++)
		for (size_t k = 0; k < sizeof shader_fields / sizeof shader_fields[0]; k++) {
			uint8_t v = raw[i * W3D_SHADER_SIZE + (size_t)shader_fields[k].offset];
			if (v < shader_fields[k].max)
				continue;
			wl_report(&ctx->doc->findings, WLR_SHADER_FIELD_OUT_OF_RANGE, sa->src, (int64_t)i,
				  base + i * W3D_SHADER_SIZE + (uint64_t)shader_fields[k].offset, 1,
				  "shader %zu of %s has %s %u; the highest known value is %u", i, scope,
				  shader_fields[k].name, v, shader_fields[k].max - 1);
		}
}

/* C10: value ranges and mapping codes of each VERTEX_MATERIAL_INFO. */
static void check_vertex_materials(wl_lint_ctx *ctx, const w3d_material_set *ms, const char *scope)
{
	wl_findings *f = &ctx->doc->findings;
	for (size_t i = 0; i < ms->vertex_material_count; i++) {
		const w3d_vertex_material *vm = &ms->vertex_materials[i];
		const wl_chunk *ic = vm->info_src;
		if (!ic || ic->size < W3D_VERTMAT_INFO_SIZE)
			continue;
		uint64_t p = wl_chunk_payload_offset(ic);
		const w3d_vertex_material_info *in = &vm->info;
		if (!isfinite(in->shininess) || in->shininess < 0 || in->shininess > 1000)
			wl_report(f, WLR_VERTEX_MATERIAL_VALUE_RANGE, ic, -1, p + 20, 4,
				  "vertex material %zu '%s' of %s has shininess %g, outside 0..1000", i, vm->name,
				  scope, (double)in->shininess);
		if (!isfinite(in->opacity) || in->opacity < 0 || in->opacity > 1)
			wl_report(f, WLR_VERTEX_MATERIAL_VALUE_RANGE, ic, -1, p + 24, 4,
				  "vertex material %zu '%s' of %s has opacity %g, outside 0..1", i, vm->name, scope,
				  (double)in->opacity);
		if (!isfinite(in->translucency) || in->translucency < 0)
			wl_report(f, WLR_VERTEX_MATERIAL_VALUE_RANGE, ic, -1, p + 28, 4,
				  "vertex material %zu '%s' of %s has translucency %g, below 0 or not finite", i,
				  vm->name, scope, (double)in->translucency);
		uint32_t a = in->attributes;
		unsigned m0 = (a >> 16) & 0xFFu, m1 = (a >> 8) & 0xFFu;
		if (m0 > 0x14 || m1 > 0x14 || (a & 0xF0u))
			wl_report(f, WLR_VERTEX_MATERIAL_MAPPING_UNKNOWN, ic, -1, p, 4,
				  "vertex material %zu '%s' of %s has attributes 0x%08" PRIx32 " (stage 0 mapping "
				  "0x%x, stage 1 mapping 0x%x, unused bits 0x%x); known mappings end at 0x14",
				  i, vm->name, scope, a, m0, m1, (unsigned)(a & 0xF0u));
	}
}

/* C11 and C12 on each TEXTURE. */
static void check_textures(wl_lint_ctx *ctx, const w3d_material_set *ms, const char *scope)
{
	wl_findings *f = &ctx->doc->findings;
	for (size_t i = 0; i < ms->texture_count; i++) {
		const w3d_texture *t = &ms->textures[i];
		if (!t->name_src)
			wl_report(f, WLR_TEXTURE_NAME_MISSING, t->src, -1, t->src->offset,
				  (uint64_t)t->src->header_size + t->src->size,
				  "texture %zu of %s has no texture name chunk; the engine looks up an "
				  "uninitialised name",
				  i, scope);
		const wl_chunk *ic = t->info_src;
		if (!ic || ic->size < W3D_TEXTURE_INFO_SIZE)
			continue;
		uint64_t p = wl_chunk_payload_offset(ic);
		const w3d_texture_info *in = &t->info;
		if (in->anim_type > 3)
			wl_report(f, WLR_TEXTURE_INFO_INVALID, ic, -1, p + 2, 2,
				  "texture %zu '%s' of %s has animation type %u; known types are 0..3", i, t->name,
				  scope, in->anim_type);
		/* FrameCount 0 is no finding: no retail loader reads it and the
		 * engines' own Save_Texture writes 0 (REN texture.cpp:1047-1059). */
		if (in->frame_count > 1 && !(isfinite(in->frame_rate) && in->frame_rate > 0))
			wl_report(f, WLR_TEXTURE_INFO_INVALID, ic, -1, p + 8, 4,
				  "texture %zu '%s' of %s has %" PRIu32 " frames at frame rate %g; an animated "
				  "texture needs a positive rate",
				  i, t->name, scope, in->frame_count, (double)in->frame_rate);
	}
}

/* Shaders the loader holds: MatInfo.ShaderCount records, but only as many
 * as SHADERS really contains (a short chunk ends the read). */
static uint64_t loaded_shaders(const w3d_material_set *ms)
{
	uint64_t have = ms->shaders.src ? ms->shaders.count : 0;
	if (ms->info.src && ms->info.src->size >= 12 && ms->info.shader_count < have)
		have = ms->info.shader_count;
	return have;
}

static void check_set(wl_lint_ctx *ctx, const w3d_mesh *m, const w3d_material_set *ms)
{
	char scope[96];
	scope_name(ctx, m, ms, scope, sizeof scope);
	bool order_ok = check_order(ctx, ms, scope);
	uint64_t nshaders = loaded_shaders(ms);
	for (size_t i = 0; i < ms->pass_count; i++) {
		const w3d_material_pass *ps = &ms->passes[i];
		check_ids(ctx, WLR_VERTEX_MATERIAL_ID_OUT_OF_RANGE, &ps->vertex_material_ids,
			  ms->vertex_material_count, false, "vertex material ids", scope, i, SIZE_MAX,
			  "vertex materials");
		if (order_ok)
			check_ids(ctx, WLR_SHADER_ID_OUT_OF_RANGE, &ps->shader_ids, nshaders, false, "shader ids",
				  scope, i, SIZE_MAX, "shaders");
		for (size_t s = 0; s < ps->stage_count; s++) {
			const w3d_u32_array *ti = &ps->stages[s].texture_ids;
			/* 0xFFFFFFFF means "no texture" only per triangle (meshmdlio.cpp:1410-1418). */
			bool per_tri = ti->src && ti->src->size != 4;
			check_ids(ctx, WLR_TEXTURE_ID_OUT_OF_RANGE, ti, ms->texture_count, per_tri, "texture ids",
				  scope, i, s, "textures");
		}
		check_uniform(ctx, m, ps, i, scope);
	}
	check_shaders(ctx, ms, scope);
	check_vertex_materials(ctx, ms, scope);
	check_textures(ctx, ms, scope);
}

void w3d_check_materials(wl_lint_ctx *ctx)
{
	const w3d_model *model = ctx->model;
	if (!model)
		return;
	for (size_t i = 0; i < model->mesh_count; i++) {
		const w3d_mesh *m = model->meshes[i];
		if (!m)
			continue;
		check_set(ctx, m, &m->materials);
		for (int k = 0; k < W3D_PRELIT_KINDS; k++)
			if (m->prelit[k].src)
				check_set(ctx, m, &m->prelit[k]);
	}
}
