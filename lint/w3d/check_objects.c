/*
 * check_objects.c - rules on the top-level objects of core/w3d/objects.h and
 * on the material containers of meshes (rules/objects.yaml;
 * notes/w3d_reference.md §3 A7, A9, A10, H1-H8, §1.5):
 *
 *   emitter-chunk-order          A7: EMITTER does not start with HEADER,
 *                                USER_DATA, INFO (and, for Version > 0x10000,
 *                                INFOV2, PROPS) in that order
 *   textures-child-not-texture   A9: a TEXTURES child other than TEXTURE
 *   vertex-materials-child-not-material  A9: a VERTEX_MATERIALS child other
 *                                than VERTEX_MATERIAL
 *   vertex-material-info-missing A10: a VERTEX_MATERIAL without
 *                                VERTEX_MATERIAL_INFO
 *   object-size-mismatch         H1/H2: a BOX or NULL_OBJECT chunk larger
 *                                than its 68/48-byte record
 *   emitter-keyframe-count-zero  H3: a PROPS keyframe count is 0
 *   emitter-props-size-mismatch  H3: PROPS != 40 + 8 (C + O + S) bytes
 *   emitter-keyframes-size-mismatch  H4: ROTATION/FRAME/BLUR_TIME keyframes
 *                                != header + 8 (KeyframeCount + 1) bytes
 *   emitter-user-data-size-mismatch  H5: USER_DATA != 12 + SizeofStringParam
 *   aggregate-info-size-mismatch H7: AGGREGATE_INFO != 36 + 64 SubobjectCount
 *   hmodel-node-count-exceeds-connections  H8: more NODE/COLLISION_NODE/
 *                                SKIN_NODE chunks than NumConnections
 *   dazzle-name-missing          H6: a DAZZLE without DAZZLE_NAME
 *   object-not-loaded            §1.5: a top-level object no retail loader
 *                                registers (POINTS, LIGHT, LIGHTSCAPE, SHDMESH)
 *   soundrobj-not-loaded         a top-level SOUNDROBJ: only Renegade (and
 *                                W3D Hub's engine) registers its loader; off
 *                                for those targets (objects.yaml)
 *
 * Size rules judge only chunks read whole (size == declared size); a chunk
 * shorter than its fixed record is chunk-too-small (core/chunk.c).
 */
#include <inttypes.h>

#include "checks.h"

void w3d_check_objects(wl_lint_ctx *ctx);

static bool whole(const wl_chunk *c)
{
	return c->size == c->declared_size;
}

static uint64_t chunk_len(const wl_chunk *c)
{
	return c->header_size + c->size;
}

static const char *name_of(const wl_doc *d, const wl_chunk *c)
{
	return wl_chunk_name(d, c);
}

/* ---- A7 ---------------------------------------------------------- */

static void check_emitter_order(wl_lint_ctx *ctx, const w3d_emitter *e)
{
	static const uint32_t order[] = { W3D_OBJ_CHUNK_EMITTER_HEADER, W3D_OBJ_CHUNK_EMITTER_USER_DATA,
					  W3D_OBJ_CHUNK_EMITTER_INFO, W3D_OBJ_CHUNK_EMITTER_INFOV2,
					  W3D_OBJ_CHUNK_EMITTER_PROPS };
	size_t need = e->header_ok && e->version > W3D_EMITTER_VERSION_V2 ? 5 : 3;
	const wl_chunk *k = e->src->first_child;
	for (size_t i = 0; i < need; i++) {
		while (k && k->kind != WL_NODE_CHUNK)
			k = k->next;
		if (!k) {
			wl_report(&ctx->doc->findings, WLR_EMITTER_CHUNK_ORDER, e->src, -1, e->src->offset,
				  e->src->header_size, "emitter '%s' ends after %zu sub-chunks; the loader expects %s next",
				  e->name, i, ctx->doc->format->id_name(order[i]));
			return;
		}
		if (k->id != order[i]) {
			wl_report(&ctx->doc->findings, WLR_EMITTER_CHUNK_ORDER, k, -1, k->offset, chunk_len(k),
				  "emitter '%s' sub-chunk %zu is %s; the loader expects %s", e->name, i,
				  name_of(ctx->doc, k), ctx->doc->format->id_name(order[i]));
			return;
		}
		k = k->next;
	}
}

/* ---- H3-H5 ------------------------------------------------------- */

static void check_emitter_sizes(wl_lint_ctx *ctx, const w3d_emitter *e)
{
	wl_findings *f = &ctx->doc->findings;
	if (e->props && e->props_ok) {
		const wl_chunk *c = e->props;
		uint64_t p = wl_chunk_payload_offset(c);
		const uint32_t cnt[3] = { e->color_keyframes, e->opacity_keyframes, e->size_keyframes };
		static const char *const what[3] = { "ColorKeyframes", "OpacityKeyframes", "SizeKeyframes" };
		for (int i = 0; i < 3; i++)
			if (cnt[i] == 0)
				wl_report(f, WLR_EMITTER_KEYFRAME_COUNT_ZERO, c, -1, p + 4 * (uint64_t)i, 4,
					  "emitter '%s' props %s is 0; the count includes the start key and must be at least 1",
					  e->name, what[i]);
		uint64_t need = w3d_emitter_props_need(e);
		if (whole(c) && c->size != need)
			wl_report(f, WLR_EMITTER_PROPS_SIZE_MISMATCH, c, -1, c->offset, chunk_len(c),
				  "emitter '%s' props hold %" PRIu64 " bytes; 40 + 8 x (%u + %u + %u) keys = %" PRIu64,
				  e->name, (uint64_t)c->size, cnt[0], cnt[1], cnt[2], need);
	}
	const w3d_emitter_keyframes *kf[3] = { &e->rotation, &e->frame, &e->blur_time };
	for (int i = 0; i < 3; i++) {
		const wl_chunk *c = kf[i]->src;
		if (!c || !kf[i]->header_ok || !whole(c))
			continue;
		uint64_t need = w3d_emitter_keyframes_need(kf[i]);
		if (c->size != need)
			wl_report(f, WLR_EMITTER_KEYFRAMES_SIZE_MISMATCH, c, -1, c->offset, chunk_len(c),
				  "emitter '%s' %s hold %" PRIu64 " bytes; header %u + 8 x (KeyframeCount %u + 1) = %" PRIu64,
				  e->name, name_of(ctx->doc, c), (uint64_t)c->size, kf[i]->header_size, kf[i]->keyframe_count, need);
	}
	if (e->user_data && e->user_data_ok && whole(e->user_data)) {
		const wl_chunk *c = e->user_data;
		uint64_t need = W3D_EMITTER_USER_SIZE + (uint64_t)e->user_string_size;
		if (c->size != need)
			wl_report(f, WLR_EMITTER_USER_DATA_SIZE_MISMATCH, c, -1, wl_chunk_payload_offset(c) + 4, 4,
				  "emitter '%s' user data holds %" PRIu64 " bytes; 12 + SizeofStringParam %u = %" PRIu64,
				  e->name, (uint64_t)c->size, e->user_string_size, need);
	}
}

/* ---- A9, A10 ----------------------------------------------------- */

static void check_material_scope(wl_lint_ctx *ctx, const w3d_mesh *m, const wl_chunk *scope)
{
	wl_findings *f = &ctx->doc->findings;
	for (const wl_chunk *k = scope->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK || !k->container)
			continue;
		bool tex = k->id == W3D_CHUNK_TEXTURES, vm = k->id == W3D_CHUNK_VERTEX_MATERIALS;
		if (!tex && !vm)
			continue;
		for (const wl_chunk *q = k->first_child; q; q = q->next) {
			if (q->kind != WL_NODE_CHUNK)
				continue;
			if (tex && q->id != W3D_CHUNK_TEXTURE)
				wl_report(f, WLR_TEXTURES_CHILD_NOT_TEXTURE, q, -1, q->offset, chunk_len(q),
					  "mesh '%s' textures holds chunk 0x%x (%s), not a texture", m->name,
					  (unsigned)q->id, name_of(ctx->doc, q));
			else if (vm && q->id != W3D_CHUNK_VERTEX_MATERIAL)
				wl_report(f, WLR_VERTEX_MATERIALS_CHILD_NOT_MATERIAL, q, -1, q->offset, chunk_len(q),
					  "mesh '%s' vertex_materials holds chunk 0x%x (%s), not a vertex_material",
					  m->name, (unsigned)q->id, name_of(ctx->doc, q));
		}
	}
}

static void check_vertex_materials(wl_lint_ctx *ctx, const w3d_mesh *m, const w3d_material_set *ms)
{
	for (size_t i = 0; i < ms->vertex_material_count; i++) {
		const w3d_vertex_material *v = &ms->vertex_materials[i];
		if (!v->info_src)
			wl_report(&ctx->doc->findings, WLR_VERTEX_MATERIAL_INFO_MISSING, v->src, -1, v->src->offset,
				  chunk_len(v->src), "mesh '%s' vertex material %zu '%s' has no vertex_material_info",
				  m->name, i, v->name);
	}
}

static void check_mesh(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	check_material_scope(ctx, m, m->src);
	check_vertex_materials(ctx, m, &m->materials);
	for (int k = 0; k < W3D_PRELIT_KINDS; k++)
		if (m->prelit[k].src) {
			check_material_scope(ctx, m, m->prelit[k].src);
			check_vertex_materials(ctx, m, &m->prelit[k]);
		}
}

/* ---- H1, H2, H6-H8 ----------------------------------------------- */

static void check_record_size(wl_lint_ctx *ctx, const wl_chunk *c, const char *name, uint64_t size)
{
	if (whole(c) && c->size > size)
		wl_report(&ctx->doc->findings, WLR_OBJECT_SIZE_MISMATCH, c, -1, c->offset, chunk_len(c),
			  "%s '%s' holds %" PRIu64 " bytes; its record is %" PRIu64 " (the rest is never read)",
			  name_of(ctx->doc, c), name, (uint64_t)c->size, size);
}

static void check_aggregate(wl_lint_ctx *ctx, const w3d_aggregate *a)
{
	const wl_chunk *c = a->info;
	if (!c || !a->info_ok || !whole(c))
		return;
	uint64_t need = W3D_AGGREGATE_INFO_SIZE + (uint64_t)W3D_AGGREGATE_SUBOBJ_SIZE * a->subobject_count;
	if (c->size != need)
		wl_report(&ctx->doc->findings, WLR_AGGREGATE_INFO_SIZE_MISMATCH, c, -1,
			  wl_chunk_payload_offset(c) + 32, 4,
			  "aggregate '%s' info holds %" PRIu64 " bytes; 36 + 64 x SubobjectCount %u = %" PRIu64,
			  a->name, (uint64_t)c->size, a->subobject_count, need);
}

static void check_hmodel(wl_lint_ctx *ctx, const w3d_hmodel *h)
{
	if (!h->header_ok || h->node_count <= h->num_connections)
		return;
	const w3d_hmodel_node *n = &h->nodes[h->num_connections];
	wl_report(&ctx->doc->findings, WLR_HMODEL_NODE_COUNT_EXCEEDS_CONNECTIONS, n->src, -1, n->src->offset,
		  chunk_len(n->src), "hmodel '%s' has %zu nodes but NumConnections is %u", h->name, h->node_count,
		  (unsigned)h->num_connections);
}

static void not_loaded(wl_lint_ctx *ctx, const wl_chunk *c, const char *why)
{
	wl_report(&ctx->doc->findings, WLR_OBJECT_NOT_LOADED, c, -1, c->offset, c->header_size,
		  "%s is not loaded by any retail game: %s", name_of(ctx->doc, c), why);
}

void w3d_check_objects(wl_lint_ctx *ctx)
{
	const w3d_model *m = ctx->model;
	for (size_t i = 0; i < m->mesh_count; i++)
		check_mesh(ctx, m->meshes[i]);
	for (size_t i = 0; i < m->emitter_count; i++) {
		check_emitter_order(ctx, m->emitters[i]);
		check_emitter_sizes(ctx, m->emitters[i]);
	}
	for (size_t i = 0; i < m->box_count; i++)
		check_record_size(ctx, m->boxes[i]->src, m->boxes[i]->name, W3D_BOX_SIZE);
	for (size_t i = 0; i < m->null_object_count; i++)
		check_record_size(ctx, m->null_objects[i]->src, m->null_objects[i]->name, W3D_NULL_OBJECT_SIZE);
	for (size_t i = 0; i < m->aggregate_count; i++)
		check_aggregate(ctx, m->aggregates[i]);
	for (size_t i = 0; i < m->hmodel_count; i++)
		check_hmodel(ctx, m->hmodels[i]);
	for (size_t i = 0; i < m->dazzle_count; i++) {
		const w3d_dazzle *d = m->dazzles[i];
		if (!d->name_src)
			wl_report(&ctx->doc->findings, WLR_DAZZLE_NAME_MISSING, d->src, -1, d->src->offset,
				  d->src->header_size, "dazzle (type '%s') has no dazzle_name", d->type_name);
	}
	for (size_t i = 0; i < m->points_count; i++)
		not_loaded(ctx, m->points[i]->src, "no prototype loader is registered for it");
	for (size_t i = 0; i < m->light_count; i++)
		not_loaded(ctx, m->lights[i]->src, "no prototype loader is registered for it");
	for (size_t i = 0; i < m->lightscape_count; i++)
		not_loaded(ctx, m->lightscapes[i]->src, "no prototype loader is registered for it");
	for (size_t i = 0; i < m->shdmesh_count; i++)
		not_loaded(ctx, m->shdmeshes[i]->src, "shdmesh loads only in builds with USE_WWSHADE");
	/* soundrobj-not-loaded is off for renegade and w3dhub (objects.yaml) */
	for (size_t i = 0; i < m->soundrobj_count; i++) {
		const wl_chunk *c = m->soundrobjs[i]->src;
		wl_report(&ctx->doc->findings, WLR_SOUNDROBJ_NOT_LOADED, c, -1, c->offset, c->header_size,
			  "%s is not loaded by generals or bfme: only renegade registers the soundrobj loader",
			  name_of(ctx->doc, c));
	}
}
