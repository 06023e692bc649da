/*
 * check_strings.c - name and string rules (rules/names.yaml;
 * notes/w3d_reference.md §3 A10-A12, §2.0.1):
 *
 *   name-not-terminated    A12: a fixed-size name field (16, 32 or 260
 *                          bytes) holds no NUL; also a name string chunk
 *                          (TEXTURE_NAME, VERTEX_MATERIAL_NAME, DAZZLE_NAME
 *                          ...) with no NUL (A10)
 *   name-too-long          A10: a TEXTURE_NAME or VERTEX_MATERIAL_NAME chunk
 *                          longer than the loader's 256-byte stack buffer
 *   name-bad-characters    a name holds bytes outside printable ASCII
 *                          (0x20-0x7E) before its NUL
 *   text-not-terminated    A11: MAPPER_ARGS0/1 or a user-text chunk with no
 *                          NUL
 *
 * The rules walk the chunk tree, not the decoded objects, so every fixed
 * name field of every record is seen, also in chunks a decoder skipped
 * (duplicates) or recovered past a broken size.  Fields are read from the
 * file bytes; a field that is not wholly inside the chunk is left to
 * chunk-too-small.  Offsets name the field itself (length = field size) or
 * the string chunk (header + payload).
 */
#include <inttypes.h>
#include <string.h>

#include "checks.h"

void w3d_check_strings(wl_lint_ctx *ctx);

/* One fixed-size name field of a record chunk (w3d_file.h layouts, §2). */
typedef struct name_field {
	uint16_t ctx;      /* parent context of the chunk (W3D_CTX_*) */
	uint32_t id;       /* chunk id in that context */
	uint32_t start;    /* byte offset of element 0 in the payload */
	uint32_t stride;   /* element size for arrays; 0 = one record */
	uint32_t off;      /* field offset inside the record */
	uint32_t len;      /* field size in bytes */
	const char *what;  /* field description */
} name_field;

static const name_field fields[] = {
	{ W3D_CTX_MESH, W3D_CHUNK_MESH_HEADER3, 0, 0, 8, 16, "mesh header MeshName" },
	{ W3D_CTX_MESH, W3D_CHUNK_MESH_HEADER3, 0, 0, 24, 16, "mesh header ContainerName" },
	{ W3D_CTX_HIERARCHY, W3D_CHUNK_HIERARCHY_HEADER, 0, 0, 4, 16, "hierarchy Name" },
	{ W3D_CTX_HIERARCHY, W3D_CHUNK_PIVOTS, 0, 60, 0, 16, "pivot Name" },
	{ W3D_CTX_ANIMATION, W3D_CHUNK_ANIMATION_HEADER, 0, 0, 4, 16, "animation Name" },
	{ W3D_CTX_ANIMATION, W3D_CHUNK_ANIMATION_HEADER, 0, 0, 20, 16, "animation HierarchyName" },
	{ W3D_CTX_COMPRESSED_ANIMATION, W3D_CHUNK_COMPRESSED_ANIMATION_HEADER, 0, 0, 4, 16, "animation Name" },
	{ W3D_CTX_COMPRESSED_ANIMATION, W3D_CHUNK_COMPRESSED_ANIMATION_HEADER, 0, 0, 20, 16,
	  "animation HierarchyName" },
	{ W3D_CTX_MORPH_ANIMATION, W3D_OBJ_CHUNK_MORPHANIM_HEADER, 0, 0, 4, 16, "morph animation Name" },
	{ W3D_CTX_MORPH_ANIMATION, W3D_OBJ_CHUNK_MORPHANIM_HEADER, 0, 0, 20, 16, "morph animation HierarchyName" },
	{ W3D_CTX_HMODEL, W3D_OBJ_CHUNK_HMODEL_HEADER, 0, 0, 4, 16, "hmodel Name" },
	{ W3D_CTX_HMODEL, W3D_OBJ_CHUNK_HMODEL_HEADER, 0, 0, 20, 16, "hmodel HierarchyName" },
	{ W3D_CTX_HMODEL, W3D_OBJ_CHUNK_NODE, 0, 0, 0, 16, "hmodel node RenderObjName" },
	{ W3D_CTX_HMODEL, W3D_OBJ_CHUNK_COLLISION_NODE, 0, 0, 0, 16, "hmodel node RenderObjName" },
	{ W3D_CTX_HMODEL, W3D_OBJ_CHUNK_SKIN_NODE, 0, 0, 0, 16, "hmodel node RenderObjName" },
	{ W3D_CTX_LODMODEL, W3D_OBJ_CHUNK_LODMODEL_HEADER, 0, 0, 4, 16, "lod model Name" },
	{ W3D_CTX_LODMODEL, W3D_OBJ_CHUNK_LOD, 0, 0, 0, 32, "lod RenderObjName" },
	{ W3D_CTX_COLLECTION, W3D_OBJ_CHUNK_COLLECTION_HEADER, 0, 0, 4, 16, "collection Name" },
	{ W3D_CTX_EMITTER, W3D_OBJ_CHUNK_EMITTER_HEADER, 0, 0, 4, 16, "emitter Name" },
	{ W3D_CTX_EMITTER, W3D_OBJ_CHUNK_EMITTER_INFO, 0, 0, 0, 260, "emitter TextureFilename" },
	{ W3D_CTX_AGGREGATE, W3D_OBJ_CHUNK_AGGREGATE_HEADER, 0, 0, 4, 16, "aggregate Name" },
	{ W3D_CTX_AGGREGATE, W3D_OBJ_CHUNK_AGGREGATE_INFO, 0, 0, 0, 32, "aggregate BaseModelName" },
	{ W3D_CTX_AGGREGATE, W3D_OBJ_CHUNK_AGGREGATE_INFO, 36, 64, 0, 32, "aggregate SubobjectName" },
	{ W3D_CTX_AGGREGATE, W3D_OBJ_CHUNK_AGGREGATE_INFO, 36, 64, 32, 32, "aggregate BoneName" },
	{ W3D_CTX_HLOD, W3D_CHUNK_HLOD_HEADER, 0, 0, 8, 16, "hlod Name" },
	{ W3D_CTX_HLOD, W3D_CHUNK_HLOD_HEADER, 0, 0, 24, 16, "hlod HierarchyName" },
	{ W3D_CTX_HLOD_ARRAY, W3D_CHUNK_HLOD_SUB_OBJECT, 0, 0, 4, 32, "hlod sub-object Name" },
	{ W3D_CTX_ROOT, W3D_CHUNK_BOX, 0, 0, 8, 32, "box Name" },
	{ W3D_CTX_ROOT, W3D_OBJ_CHUNK_NULL_OBJECT, 0, 0, 16, 32, "null object Name" },
	{ W3D_CTX_SOUNDROBJ, W3D_OBJ_CHUNK_SOUNDROBJ_HEADER, 0, 0, 4, 16, "sound object Name" },
	{ W3D_CTX_SPHERE, W3D_OBJ_PRIM_DEF, 0, 0, 8, 32, "sphere Name" },
	{ W3D_CTX_SPHERE, W3D_OBJ_PRIM_DEF, 0, 0, 116, 32, "sphere TextureName" },
	{ W3D_CTX_RING, W3D_OBJ_PRIM_DEF, 0, 0, 8, 32, "ring Name" },
	{ W3D_CTX_RING, W3D_OBJ_PRIM_DEF, 0, 0, 116, 32, "ring TextureName" },
	{ W3D_CTX_SHADER_MATERIAL, 0x0052, 0, 0, 1, 32, "shader material TypeName" },
};

/* String chunks whose text is free-form (A11), not a name. */
static bool is_text_chunk(const wl_chunk *c)
{
	uint16_t ctx = c->type->ctx;
	return (ctx == W3D_CTX_VERTEX_MATERIAL &&
		(c->id == W3D_CHUNK_VERTEX_MAPPER_ARGS0 || c->id == W3D_CHUNK_VERTEX_MAPPER_ARGS1)) ||
	       (ctx == W3D_CTX_MESH && c->id == W3D_CHUNK_MESH_USER_TEXT) ||
	       (ctx == W3D_CTX_SHDMESH && c->id == W3D_OBJ_CHUNK_SHDMESH_USER_TEXT);
}

/* Name string chunks read into char[256] on the stack (A10). */
static bool is_buffered_name(const wl_chunk *c)
{
	return (c->type->ctx == W3D_CTX_TEXTURE && c->id == W3D_CHUNK_TEXTURE_NAME) ||
	       (c->type->ctx == W3D_CTX_VERTEX_MATERIAL && c->id == W3D_CHUNK_VERTEX_MATERIAL_NAME);
}

/* Index of the first byte before the NUL (or the end) outside 0x20-0x7E,
 * or -1. */
static int64_t bad_char(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n && p[i]; i++)
		if (p[i] < 0x20 || p[i] > 0x7E)
			return (int64_t)i;
	return -1;
}

/* Copies at most n bytes of p, up to a NUL, into dst (cap > 0 bytes), the
 * bytes as they are (the reports escape them, core/escape.h); returns dst. */
static const char *printable(char *dst, size_t cap, const uint8_t *p, size_t n)
{
	size_t i = 0;
	for (; i < n && i + 1 < cap && p[i]; i++)
		dst[i] = (char)p[i];
	dst[i] = '\0';
	return dst;
}

static void check_field(wl_lint_ctx *ctx, const wl_chunk *c, const name_field *nf, const uint8_t *p,
			uint64_t at, int64_t element)
{
	wl_findings *f = &ctx->doc->findings;
	char buf[64];
	if (!memchr(p, 0, nf->len)) {
		wl_report(f, WLR_NAME_NOT_TERMINATED, c, element, at, nf->len,
			  "%s '%s' fills all %u bytes with no nul terminator", nf->what,
			  printable(buf, sizeof buf, p, nf->len), (unsigned)nf->len);
		return;
	}
	int64_t b = bad_char(p, nf->len);
	if (b >= 0)
		wl_report(f, WLR_NAME_BAD_CHARACTERS, c, element, at + (uint64_t)b, 1,
			  "%s holds byte 0x%02x at position %" PRId64 ", outside printable ascii", nf->what,
			  (unsigned)p[b], b);
}

static void check_record(wl_lint_ctx *ctx, const wl_chunk *c, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const name_field *nf = &fields[i];
		if (nf->ctx != c->type->ctx || nf->id != c->id)
			continue;
		uint64_t base = wl_chunk_payload_offset(c);
		if (!nf->stride) {
			if ((uint64_t)nf->off + nf->len <= len)
				check_field(ctx, c, nf, p + nf->off, base + nf->off, -1);
			continue;
		}
		if (len < nf->start)
			continue;
		size_t n = (len - nf->start) / nf->stride;
		for (size_t e = 0; e < n; e++) {
			size_t o = nf->start + e * nf->stride + nf->off;
			check_field(ctx, c, nf, p + o, base + o, (int64_t)e);
		}
	}
}

static void check_string_chunk(wl_lint_ctx *ctx, const wl_chunk *c, const uint8_t *p, size_t len)
{
	wl_findings *f = &ctx->doc->findings;
	const char *nm = wl_chunk_name(ctx->doc, c);
	if (is_buffered_name(c)) {
		double max = wl_lint_param(ctx, WLR_NAME_TOO_LONG, "max_bytes");
		if ((double)c->size > max)
			wl_report(f, WLR_NAME_TOO_LONG, c, -1, c->offset, c->header_size + c->size,
				  "%s holds %" PRIu64 " bytes; the loader reads it whole into a %.0f-byte buffer", nm,
				  (uint64_t)c->size, max);
	}
	bool text = is_text_chunk(c);
	char buf[41];
	if (!memchr(p, 0, len)) {
		wl_report(f, text ? WLR_TEXT_NOT_TERMINATED : WLR_NAME_NOT_TERMINATED, c, -1, c->offset,
			  c->header_size + c->size, "%s '%s' (%" PRIu64 " bytes) has no nul terminator", nm,
			  printable(buf, sizeof buf, p, len), (uint64_t)c->size);
		return;
	}
	if (!text) {
		int64_t b = bad_char(p, len);
		if (b >= 0)
			wl_report(f, WLR_NAME_BAD_CHARACTERS, c, -1, wl_chunk_payload_offset(c) + (uint64_t)b, 1,
				  "%s holds byte 0x%02x at position %" PRId64 ", outside printable ascii", nm,
				  (unsigned)p[b], b);
	}
}

void w3d_check_strings(wl_lint_ctx *ctx)
{
	const wl_doc *d = ctx->doc;
	const wl_chunk *root = &d->root;
	const wl_chunk *c = root->first_child;
	while (c) {
		/* Chunks cut by a truncation or an overrun have their own finding. */
		if (c->kind == WL_NODE_CHUNK && c->type && !c->type->child_ctx && c->size == c->declared_size &&
		    wl_chunk_payload_offset(c) + c->size <= d->size) {
			const uint8_t *p = wl_chunk_payload(d, c);
			size_t len = (size_t)c->size;
			if (c->type->flags & WL_TYPE_STRING)
				check_string_chunk(ctx, c, p, len);
			else
				check_record(ctx, c, p, len);
		}
		if (c->first_child) {
			c = c->first_child;
			continue;
		}
		while (c && !c->next)
			c = c->parent == root ? NULL : c->parent;
		if (c)
			c = c->next;
	}
}
