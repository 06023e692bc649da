/*
 * check_mesh_flags.c - MESH header fields, surface types and shade indices
 * (rules/mesh_flags.yaml; notes/w3d_reference.md §2.1, §3 B5, B8, B10-B14,
 * B18, B19):
 *
 *   surface-type-out-of-range   B5: a triangle's Attributes (surface type)
 *                               >= 32 (SURFACE_TYPE_MAX)
 *   shade-index-out-of-range    B8: a VERTEX_SHADE_INDICES entry is not a
 *                               vertex of the mesh
 *   shade-index-not-master      B8: an entry points forward (si[v] > v) or
 *                               to a vertex that is not its own master
 *   vertex-channels-mismatch    B10: VertexChannels / FaceChannels disagree
 *                               with the chunks present
 *   mesh-version-old            B11: mesh Version below 4.1
 *   sort-level-out-of-range     B12: SortLevel outside 0..32
 *   geometry-type-unknown       B13: a geometry type the loader does not
 *                               know (not 0..6 << 16)
 *   prelit-inconsistent         B14: PRELIT_* attribute bits and the
 *                               PRELIT_* wrapper chunks disagree
 *   collision-mesh-without-aabtree B18: collision bits set, no AABTREE
 *   sorted-mesh-too-large       B19: an alpha-sorted mesh with 3 NumTris
 *                               >= 65536 (16-bit sorting index buffer)
 *
 * Header fields (MESH_HEADER3 payload): Version +0, Attributes +4, NumTris
 * +40, SortLevel +56, VertexChannels +68, FaceChannels +72.  Per-element
 * rules report every bad element at its own bytes (the report folds repeats).
 */
#include <inttypes.h>
#include <stdio.h>

#include "checks.h"
#include "core/w3d/model_lookup.h"

void w3d_check_mesh_flags(wl_lint_ctx *ctx);

/* w3d_file.h:1075-1128 */
#define SURFACE_TYPE_MAX 32u
#define COLLISION_TYPE_MASK 0x00000FF0u
#define PRELIT_MASK 0x0F000000u
#define PRELIT_UNLIT 0x01000000u
#define VERTEX_CHANNEL_LOCATION 0x1u
#define VERTEX_CHANNEL_NORMAL 0x2u
#define VERTEX_CHANNEL_BONEID 0x10u
#define MAX_SORT_LEVEL 32
#define MESH_VERSION_4_1 0x00040001u

static void check_surface_types(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	uint64_t base = wl_chunk_payload_offset(m->triangles_src);
	for (size_t i = 0; i < m->triangle_count; i++)
		if (m->triangles[i].attributes >= SURFACE_TYPE_MAX)
			wl_report(&ctx->doc->findings, WLR_SURFACE_TYPE_OUT_OF_RANGE, m->triangles_src, (int64_t)i,
				  base + (uint64_t)i * W3D_TRI_SIZE + 12, 4,
				  "triangle %zu of mesh '%s' has surface type %" PRIu32 "; surface types end at %u", i,
				  m->name, m->triangles[i].attributes, SURFACE_TYPE_MAX - 1);
}

/* B8: si[v] < NumVertices, si[v] <= v and si[si[v]] == si[v]
 * (meshgeometry.cpp:1285-1350: masters are met first). */
static void check_shade_indices(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	const w3d_u32_array *si = &m->shade_indices;
	if (!si->src || si->count == 0)
		return;
	uint64_t nv = si->count;
	if (w3d_mesh_header_has_counts(&m->header) && m->header.num_vertices < nv)
		nv = m->header.num_vertices;
	uint64_t base = wl_chunk_payload_offset(si->src);
	wl_findings *f = &ctx->doc->findings;
	for (size_t v = 0; v < si->count; v++) {
		uint32_t s = si->v[v];
		uint64_t off = base + 4u * (uint64_t)v;
		if (s >= nv)
			wl_report(f, WLR_SHADE_INDEX_OUT_OF_RANGE, si->src, (int64_t)v, off, 4,
				  "shade index of vertex %zu of mesh '%s' is %" PRIu32 ", but the mesh has %" PRIu64
				  " vertices",
				  v, m->name, s, nv);
		else if (s > v)
			wl_report(f, WLR_SHADE_INDEX_NOT_MASTER, si->src, (int64_t)v, off, 4,
				  "shade index of vertex %zu of mesh '%s' is %" PRIu32
				  ", a later vertex; masters must come first",
				  v, m->name, s);
		else if (si->v[s] != s)
			wl_report(f, WLR_SHADE_INDEX_NOT_MASTER, si->src, (int64_t)v, off, 4,
				  "shade index of vertex %zu of mesh '%s' is %" PRIu32 ", which is not its own master",
				  v, m->name, s);
	}
}

static void check_header_fields(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	wl_findings *f = &ctx->doc->findings;
	const w3d_mesh_header *h = &m->header;
	const wl_chunk *hc = h->src;
	uint64_t p = wl_chunk_payload_offset(hc);
	if (h->bytes >= 4 && h->version < MESH_VERSION_4_1)
		wl_report(f, WLR_MESH_VERSION_OLD, hc, -1, p, 4,
			  "mesh '%s' has version %" PRIu32 ".%" PRIu32 "; below 4.1 the engine ignores the "
			  "geometry type (camera-aligned, skin)",
			  m->name, h->version >> 16, h->version & 0xFFFFu);
	if (h->bytes < 8)
		return;
	uint32_t a = h->attributes;
	uint32_t geom = a & W3D_MESH_GEOMETRY_MASK;
	if (geom > 0x00060000u)
		wl_report(f, WLR_GEOMETRY_TYPE_UNKNOWN, hc, -1, p + 4, 4,
			  "mesh '%s' has geometry type 0x%" PRIx32 " (attributes 0x%08" PRIx32 "); the engine "
			  "knows 0x0..0x6 and draws this one as a normal mesh",
			  m->name, geom >> 16, a);
	if (h->bytes >= 60 && (h->sort_level < 0 || h->sort_level > MAX_SORT_LEVEL))
		wl_report(f, WLR_SORT_LEVEL_OUT_OF_RANGE, hc, -1, p + 56, 4,
			  "mesh '%s' has sort level %" PRId32 "; the engine allows 0..%d", m->name,
			  h->sort_level, MAX_SORT_LEVEL);
	if (h->bytes >= 76) {
		uint32_t vc = h->vertex_channels;
		const char *why = NULL;
		if (!(vc & VERTEX_CHANNEL_LOCATION))
			why = "lacks the location bit (1)";
		else if (!(vc & VERTEX_CHANNEL_NORMAL) != !m->normals.src)
			why = m->normals.src ? "lacks the normal bit (2) but the mesh has vertex normals"
					     : "has the normal bit (2) but the mesh has no vertex normals";
		else if (!(vc & VERTEX_CHANNEL_BONEID) != !(m->influences.src || m->influences_ext.src))
			why = m->influences.src || m->influences_ext.src
				      ? "lacks the bone id bit (0x10) but the mesh has vertex influences"
						: "has the bone id bit (0x10) but the mesh has no vertex influences";
		if (why)
			wl_report(f, WLR_VERTEX_CHANNELS_MISMATCH, hc, -1, p + 68, 4,
				  "vertex channels 0x%" PRIx32 " of mesh '%s' %s", vc, m->name, why);
		else if (h->face_channels != 1)
			wl_report(f, WLR_VERTEX_CHANNELS_MISMATCH, hc, -1, p + 72, 4,
				  "face channels of mesh '%s' are 0x%" PRIx32 ", not 1 (face)", m->name,
				  h->face_channels);
	}
	/* B14: the PRELIT_* bits and their wrappers (meshmdlio.cpp:323-376). */
	uint32_t bits = a & PRELIT_MASK;
	if (bits && !(bits & PRELIT_UNLIT))
		wl_report(f, WLR_PRELIT_INCONSISTENT, hc, -1, p + 4, 4,
			  "mesh '%s' has prelit bits 0x%08" PRIx32 " without the unlit bit 0x01000000", m->name, bits);
	for (int k = 0; k < W3D_PRELIT_KINDS; k++) {
		uint32_t bit = PRELIT_UNLIT << k;
		const wl_chunk *w = m->prelit[k].src;
		if ((bits & bit) && !w)
			wl_report(f, WLR_PRELIT_INCONSISTENT, hc, -1, p + 4, 4,
				  "mesh '%s' sets prelit bit 0x%08" PRIx32 " but has no %s chunk; in that lighting "
				  "mode it loads no materials",
				  m->name, bit, w3d_id_name(W3D_CHUNK_PRELIT_UNLIT + (uint32_t)k));
		else if (!(bits & bit) && w)
			wl_report(f, WLR_PRELIT_INCONSISTENT, w, -1, w->offset, (uint64_t)w->header_size + w->size,
				  "mesh '%s' has a %s chunk but not its prelit bit 0x%08" PRIx32 "; the engine skips it",
				  m->name, wl_chunk_name(ctx->doc, w), bit);
	}
	if ((a & COLLISION_TYPE_MASK) && !m->aabtree.src)
		wl_report(f, WLR_COLLISION_MESH_WITHOUT_AABTREE, hc, -1, p + 4, 4,
			  "mesh '%s' has collision bits 0x%03" PRIx32 " but no aabtree; the engine builds one "
			  "at load time",
			  m->name, a & COLLISION_TYPE_MASK);
}

/* B19 / C13: pass 0 with a blending destination and no alpha test, or a
 * sort level, makes the mesh sorted; the sorting index buffer is 16-bit. */
static void check_sorted_size(wl_lint_ctx *ctx, const w3d_mesh *m)
{
	const w3d_mesh_header *h = &m->header;
	if (!w3d_mesh_header_has_counts(h) || 3ull * h->num_tris < 65536)
		return;
	bool sorted = h->bytes >= 60 && h->sort_level > 0;
	const w3d_material_set *ms = &m->materials;
	if (!sorted && ms->pass_count > 0 && ms->shaders.count > 0) {
		const w3d_u32_array *ids = &ms->passes[0].shader_ids;
		uint32_t id = ids->src && ids->count ? ids->v[0] : 0;
		if (id < ms->shaders.count) {
			const w3d_shader *s = &ms->shaders.v[id];
			sorted = s->dest_blend != 0 && s->alpha_test == 0;
		}
	}
	if (sorted)
		wl_report(&ctx->doc->findings, WLR_SORTED_MESH_TOO_LARGE, h->src, -1,
			  wl_chunk_payload_offset(h->src) + 40, 4,
			  "mesh '%s' is alpha-sorted and has %" PRIu32 " triangles; the sorting index buffer "
			  "holds fewer than 65536 indices (%" PRIu64 " needed)",
			  m->name, h->num_tris, (uint64_t)3 * h->num_tris);
}

void w3d_check_mesh_flags(wl_lint_ctx *ctx)
{
	const w3d_model *model = ctx->model;
	if (!model)
		return;
	for (size_t i = 0; i < model->mesh_count; i++) {
		const w3d_mesh *m = model->meshes[i];
		if (!m)
			continue;
		if (m->triangles_src)
			check_surface_types(ctx, m);
		check_shade_indices(ctx, m);
		if (m->header.src) {
			check_header_fields(ctx, m);
			check_sorted_size(ctx, m);
		}
	}
}
