/*
 * write.c - decodes the keys of a B3D chunk (b3d_text.h) into a sink
 * (registry.h wl_tf_sink): a container's own fields, or a data chunk's
 * records and the bytes after the last whole one.  The text form writes
 * them through its YAML sink (textform/sink_yaml.c), w3ddump through its
 * human and JSON sinks: the B3D layouts are known here only.  Whatever does
 * not decode exactly is left to the engine (false, before any event:
 * `fields:` or `hex:`), or to the tail after the last whole record, so the
 * text assembles to the same bytes.
 */
#include "b3d_text.h"

#include <string.h>

#include "core/b3d/b3d_format.h"
#include "core/cursor.h"

#define F(n, t, c) { n, WL_TF_##t, c, NULL }

static const wl_tf_field i32 = F("", I32, 1), f32 = F("", F32, 1);

static void value(const wl_tf_sink *s, const char *key, const wl_tf_field *f, const uint8_t *p)
{
	s->value(s->ctx, key, f, p, 1, false);
}

static void seq(const wl_tf_sink *s, const char *key, const wl_tf_field *f, const uint8_t *p, uint64_t n)
{
	s->value(s->ctx, key, f, p, (size_t)n, true);
}

/* The fields fs[0..n) at p, each a value (count 1) or a sequence; returns
 * the bytes. */
static size_t fields(const wl_tf_sink *s, const wl_tf_field *fs, size_t n, const uint8_t *p)
{
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		const wl_tf_field *e = fs[i].type == WL_TF_F32 ? &f32 : &i32;
		s->value(s->ctx, fs[i].name, e, p + at, fs[i].count, fs[i].count > 1);
		at += wl_tf_field_size(&fs[i]);
	}
	return at;
}

/* The length with its NUL of the name at p[0..n) when `after` bytes follow
 * the NUL; 0 when there is no NUL or fewer bytes follow. */
static size_t name_len(const uint8_t *p, size_t n, uint64_t after)
{
	const uint8_t *z = memchr(p, 0, n);
	if (!z)
		return 0;
	size_t k = (size_t)(z - p) + 1;
	return n - k >= after ? k : 0;
}

/* TEXS and BRUS entries: a name, `values` bytes of numbers (fs[0..nf)),
 * then (textures) `ids` texture ids.  Returns the bytes of whole entries. */
static size_t entries(const wl_tf_sink *s, const uint8_t *p, size_t n, const char *name, const wl_tf_field *fs,
		      size_t nf, uint64_t values, bool textures, uint64_t ids)
{
	size_t at = 0;
	bool any = false;
	for (size_t k; at < n && (k = name_len(p + at, n - at, values + 4 * ids)) != 0;) {
		if (!any)
			s->list(s->ctx, "entries", true, SIZE_MAX);
		any = true;
		s->item(s->ctx, true, true);
		s->name(s->ctx, name, p + at, k);
		at += k;
		at += fields(s, fs, nf, p + at);
		if (textures) {
			seq(s, "textures", &i32, p + at, ids);
			at += (size_t)(4 * ids);
		}
		s->item(s->ctx, true, false);
	}
	if (any)
		s->list(s->ctx, "entries", false, SIZE_MAX);
	return at;
}

static bool node_fields(const wl_tf_sink *s, const uint8_t *p, size_t n)
{
	size_t k = name_len(p, n, B3D_TF_NODE_VALUES);
	if (!k || n - k != B3D_TF_NODE_VALUES)
		return false;
	s->name(s->ctx, "name", p, k);
	fields(s, b3d_tf_node_values, 3, p + k);
	return true;
}

/* VRTS: the header, then whole vertices. */
static size_t vrts(const wl_tf_sink *s, const uint8_t *p, size_t n)
{
	uint32_t flags = wl_le32(p);
	uint64_t uv;
	uint64_t size = b3d_tf_vertex_size(flags, (int32_t)wl_le32(p + 4), (int32_t)wl_le32(p + 8), n - 12, &uv);
	value(s, "flags", &i32, p);
	value(s, "tex_coord_sets", &i32, p + 4);
	value(s, "tex_coord_set_size", &i32, p + 8);
	size_t at = 12;
	if (!size)
		return at;
	s->list(s->ctx, "vertices", true, (size_t)((n - at) / size));
	for (; n - at >= size; at += (size_t)size) {
		const uint8_t *v = p + at;
		s->item(s->ctx, true, true);
		seq(s, "position", &f32, v, 3);
		v += 12;
		if (flags & 1) {
			seq(s, "normal", &f32, v, 3);
			v += 12;
		}
		if (flags & 2) {
			seq(s, "color", &f32, v, 4);
			v += 16;
		}
		if (uv)
			seq(s, "tex_coords", &f32, v, uv);
		s->item(s->ctx, true, false);
	}
	s->list(s->ctx, "vertices", false, 0);
	return at;
}

/* KEYS: the flags, then whole keys. */
static size_t keys(const wl_tf_sink *s, const uint8_t *p, size_t n)
{
	static const char *const parts[] = { "position", "scale", "rotation" };
	uint32_t flags = wl_le32(p);
	uint64_t size = b3d_tf_key_size(flags);
	value(s, "flags", &i32, p);
	size_t at = 4;
	if (n - at < size)
		return at;
	s->list(s->ctx, "keys", true, (size_t)((n - at) / size));
	for (; n - at >= size; at += (size_t)size) {
		const uint8_t *v = p + at;
		s->item(s->ctx, true, true);
		value(s, "frame", &i32, v);
		v += 4;
		for (unsigned b = 0; b < 3; b++) {
			if (!(flags & 1u << b))
				continue;
			seq(s, parts[b], &f32, v, b == 2 ? 4 : 3);
			v += b == 2 ? 16 : 12;
		}
		s->item(s->ctx, true, false);
	}
	s->list(s->ctx, "keys", false, 0);
	return at;
}

/* `key`: n records of `width` values (first an int32, then `second`), each
 * a sequence. */
static size_t records(const wl_tf_sink *s, const char *key, const uint8_t *p, size_t n, const wl_tf_field *second,
		      size_t width)
{
	size_t size = 4 * width, at = 0;
	if (n < size)
		return 0;
	s->list(s->ctx, key, true, n / size);
	for (; n - at >= size; at += size) {
		s->item(s->ctx, false, true);
		value(s, NULL, &i32, p + at);
		for (size_t i = 1; i < width; i++)
			value(s, NULL, second, p + at + 4 * i);
		s->item(s->ctx, false, false);
	}
	s->list(s->ctx, key, false, 0);
	return at;
}

bool b3d_tf_decode(const wl_doc *d, const wl_chunk *c, const wl_tf_sink *s)
{
	const uint8_t *p = wl_chunk_payload(d, c);
	size_t n = (size_t)(c->container ? c->fields : c->size), at;
	if (!c->type)
		return false;
	switch (c->type->id) {
	case B3D_CHUNK_BB3D:
	case B3D_CHUNK_MESH:
		if (n != 4)
			return false;
		value(s, c->type->id == B3D_CHUNK_BB3D ? "version" : "brush_id", &i32, p);
		return true;
	case B3D_CHUNK_NODE:
		return node_fields(s, p, n);
	case B3D_CHUNK_TEXS:
		if (!name_len(p, n, B3D_TF_TEXS_VALUES))
			return false;
		at = entries(s, p, n, "file", b3d_tf_texs_values, 5, B3D_TF_TEXS_VALUES, false, 0);
		break;
	case B3D_CHUNK_BRUS: {
		if (n < 4)
			return false;
		int32_t ids = (int32_t)wl_le32(p);
		value(s, "n_texs", &i32, p);
		at = 4;
		if (ids >= 0 && (uint64_t)ids <= (n - 4) / 4)
			at += entries(s, p + 4, n - 4, "name", b3d_tf_brus_values, 4, B3D_TF_BRUS_VALUES, true,
				      (uint64_t)ids);
		break;
	}
	case B3D_CHUNK_VRTS:
		if (n < 12)
			return false;
		at = vrts(s, p, n);
		break;
	case B3D_CHUNK_TRIS:
		if (n < 4)
			return false;
		value(s, "brush_id", &i32, p);
		at = 4 + records(s, "triangles", p + 4, n - 4, &i32, 3);
		break;
	case B3D_CHUNK_BONE:
		if (n > 0 && n < 8)
			return false;
		if (n == 0) /* a bone that moves no vertex */
			seq(s, "weights", &f32, p, 0);
		at = records(s, "weights", p, n, &f32, 2);
		break;
	case B3D_CHUNK_KEYS:
		if (n < 4)
			return false;
		at = keys(s, p, n);
		break;
	case B3D_CHUNK_ANIM:
		if (n < 12)
			return false;
		value(s, "flags", &i32, p);
		value(s, "frames", &i32, p + 4);
		value(s, "fps", &f32, p + 8);
		at = 12;
		break;
	default:
		return false;
	}
	if (n > at)
		s->tail(s->ctx, p + at, n - at);
	return true;
}
