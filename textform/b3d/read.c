/*
 * read.c - assembles the keys of a B3D chunk (b3d_text.h) into its bytes:
 * a container's own fields, or a data chunk's payload before `tail:`.
 * Keys left out are zeros, except a NODE's scale (1, 1, 1) and rotation
 * (1, 0, 0, 0).  Records follow the flags given before them: a VRTS vertex
 * takes `normal` only with flags & 1, `color` only with flags & 2, and
 * exactly sets x size `tex_coords`; a KEYS key its parts by flags & 1, 2, 4.
 * Counts are never computed: BRUS n_texs and VRTS/KEYS flags are as given.
 */
#include "b3d_text.h"

#include <string.h>

#include "core/b3d/b3d_format.h"
#include "core/cursor.h"

#define F(n, t, c) { n, WL_TF_##t, c, NULL }
#define MAX_KEYS 6

/* The value of key in mapping map, or 0. */
static wl_ynode get(const wl_ydoc *y, wl_ynode map, const char *key)
{
	for (size_t i = 0; i < wl_ydoc_count(y, map); i++)
		if (!strcmp(wl_ydoc_text(y, wl_ydoc_key(y, map, i)), key))
			return wl_ydoc_value(y, map, i);
	return 0;
}

/* Item mapping n of `what` holds only keys[0..nk) (each once); their values
 * into v[]. */
static int item_keys(wl_tf_asm *a, wl_ynode n, const char *what, const char *const *keys,
		     size_t nk, wl_ynode *v)
{
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (wl_ydoc_kind(y, n) != WL_Y_MAPPING)
		return wl_ydoc_fail(y, n, "%s must be a mapping of its fields", what);
	memset(v, 0, nk * sizeof *v);
	for (size_t i = 0; i < wl_ydoc_count(y, n); i++) {
		wl_ynode k = wl_ydoc_unique_key(y, n, i);
		if (!k)
			return -1;
		size_t j = 0;
		while (j < nk && (!keys[j] || strcmp(keys[j], wl_ydoc_text(y, k))))
			j++;
		if (j == nk)
			return wl_ydoc_fail(y, k, "unknown field '%s' in %s", wl_ydoc_text(y, k), what);
		v[j] = wl_ydoc_value(y, n, i);
	}
	return 0;
}

/* A NUL-terminated name from scalar n (0: empty): the text, or !hex bytes,
 * then the NUL. */
static int put_name(wl_tf_asm *a, wl_ynode n, const char *what)
{
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (n) {
		if (wl_ydoc_want_scalar(y, n, what))
			return -1;
		if (!strcmp(wl_ydoc_tag(y, n), "!hex")) {
			if (wl_tf_asm_hex(a, n, what, SIZE_MAX))
				return -1;
		} else if (wl_tf_asm_put(a, n, wl_ydoc_text(y, n), wl_ydoc_length(y, n))) {
			return -1;
		}
	}
	return wl_tf_asm_put(a, n, "", 1);
}

/* count values of type t (a sequence of exactly count, or zeros when n is
 * 0; any count when `any`). */
static int put_seq(wl_tf_asm *a, wl_ynode n, const char *what, wl_tf_type t, uint64_t count,
		   bool any)
{
	const wl_ydoc *y = wl_tf_asm_doc(a);
	wl_tf_field one = F(what, I32, 1);
	one.type = (uint8_t)t;
	if (!n) {
		for (uint64_t i = 0; i < count; i++)
			if (wl_tf_asm_field(a, 0, &one))
				return -1;
		return 0;
	}
	if (wl_ydoc_kind(y, n) != WL_Y_SEQUENCE)
		return wl_ydoc_fail(y, n, "%s: expected a sequence of values", what);
	if (!any && wl_ydoc_count(y, n) != count)
		return wl_ydoc_fail(y, n, "%s: expected %llu values, got %zu", what,
				    (unsigned long long)count, wl_ydoc_count(y, n));
	for (size_t i = 0; i < wl_ydoc_count(y, n); i++)
		if (wl_tf_asm_field(a, wl_ydoc_item(y, n, i), &one))
			return -1;
	return 0;
}

/* The records of sequence key `key` in map (none when left out), each by
 * put_one. */
static int put_list(wl_tf_asm *a, wl_ynode map, const char *key,
		    int (*put_one)(wl_tf_asm *a, wl_ynode item, const void *ctx), const void *ctx)
{
	const wl_ydoc *y = wl_tf_asm_doc(a);
	wl_ynode n = get(y, map, key);
	if (!n || (wl_ydoc_kind(y, n) == WL_Y_SCALAR && wl_ydoc_is_null(y, n)))
		return 0;
	if (wl_ydoc_kind(y, n) != WL_Y_SEQUENCE)
		return wl_ydoc_fail(y, n, "%s: expected a sequence", key);
	for (size_t i = 0; i < wl_ydoc_count(y, n); i++)
		if (put_one(a, wl_ydoc_item(y, n, i), ctx))
			return -1;
	return 0;
}

/* A field of the chunk mapping (zeros when left out). */
static int put_key(wl_tf_asm *a, wl_ynode map, const char *key, wl_tf_type t)
{
	wl_tf_field f = F(key, I32, 1);
	f.type = (uint8_t)t;
	return wl_tf_asm_field(a, get(wl_tf_asm_doc(a), map, key), &f);
}

/* The int32 written `back` bytes before the end of the output. */
static uint32_t written(const wl_tf_asm *a, size_t back)
{
	size_t len;
	const uint8_t *p = wl_tf_asm_bytes(a, &len);
	return wl_le32(p + len - back);
}

/* A TEXS entry (ctx NULL) or a BRUS entry. */
static int put_entry(wl_tf_asm *a, wl_ynode item, const void *ctx)
{
	static const char *const texs[] = { "file", "flags", "blend", "position", "scale", "rotation" };
	static const char *const brus[] = { "name", "color", "shininess", "blend", "fx", "textures" };
	bool is_brus = ctx != NULL;
	wl_ynode v[MAX_KEYS];
	if (item_keys(a, item, is_brus ? "an entry of BRUS" : "an entry of TEXS",
		      is_brus ? brus : texs, 6, v) ||
	    put_name(a, v[0], is_brus ? "name" : "file"))
		return -1;
	const wl_tf_field *fs = is_brus ? b3d_tf_brus_values : b3d_tf_texs_values;
	for (size_t i = 0; i < (is_brus ? 4u : 5u); i++)
		if (wl_tf_asm_field(a, v[i + 1], &fs[i]))
			return -1;
	return is_brus ? put_seq(a, v[5], "textures", WL_TF_I32, 0, true) : 0;
}

/* A VRTS vertex; ctx: uint64_t[2] { flags, tex_coords count }. */
static int put_vertex(wl_tf_asm *a, wl_ynode item, const void *ctx)
{
	static const char *const keys[] = { "position", "normal", "color", "tex_coords" };
	const uint64_t *lay = ctx;
	wl_ynode v[MAX_KEYS];
	if (item_keys(a, item, "a vertex of VRTS", keys, 4, v))
		return -1;
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (v[1] && !(lay[0] & 1))
		return wl_ydoc_fail(y, v[1], "normal: this VRTS has no normals (flags & 1 is clear)");
	if (v[2] && !(lay[0] & 2))
		return wl_ydoc_fail(y, v[2], "color: this VRTS has no colours (flags & 2 is clear)");
	return put_seq(a, v[0], "position", WL_TF_F32, 3, false) ||
	       (lay[0] & 1 && put_seq(a, v[1], "normal", WL_TF_F32, 3, false)) ||
	       (lay[0] & 2 && put_seq(a, v[2], "color", WL_TF_F32, 4, false)) ||
	       put_seq(a, v[3], "tex_coords", WL_TF_F32, lay[1], false) ? -1 : 0;
}

/* A KEYS key; ctx: the uint32_t flags. */
static int put_anim_key(wl_tf_asm *a, wl_ynode item, const void *ctx)
{
	static const char *const keys[] = { "frame", "position", "scale", "rotation" };
	uint32_t flags = *(const uint32_t *)ctx;
	wl_ynode v[MAX_KEYS];
	if (item_keys(a, item, "a key of KEYS", keys, 4, v))
		return -1;
	wl_tf_field frame = F("frame", I32, 1);
	if (wl_tf_asm_field(a, v[0], &frame))
		return -1;
	for (unsigned b = 0; b < 3; b++) {
		if (v[b + 1] && !(flags & 1u << b))
			return wl_ydoc_fail(wl_tf_asm_doc(a), v[b + 1],
					    "%s: this KEYS has none (flags & %u is clear)", keys[b + 1],
					    1u << b);
		if (flags & 1u << b && put_seq(a, v[b + 1], keys[b + 1], WL_TF_F32, b == 2 ? 4 : 3, false))
			return -1;
	}
	return 0;
}

/* A TRIS triangle [a, b, c] or a BONE weight [vertex, weight]: ctx NULL. */
static int put_triangle(wl_tf_asm *a, wl_ynode item, const void *ctx)
{
	(void)ctx;
	return put_seq(a, item, "a triangle of TRIS", WL_TF_I32, 3, false);
}

static int put_weight(wl_tf_asm *a, wl_ynode item, const void *ctx)
{
	(void)ctx;
	const wl_ydoc *y = wl_tf_asm_doc(a);
	wl_tf_field vertex = F("vertex", I32, 1), weight = F("weight", F32, 1);
	if (wl_ydoc_kind(y, item) != WL_Y_SEQUENCE || wl_ydoc_count(y, item) != 2)
		return wl_ydoc_fail(y, item, "a weight of BONE is [vertex, weight]");
	return wl_tf_asm_field(a, wl_ydoc_item(y, item, 0), &vertex) ||
	       wl_tf_asm_field(a, wl_ydoc_item(y, item, 1), &weight) ? -1 : 0;
}

/* NODE fields: name, position, scale, rotation (defaults: identity). */
static int put_node(wl_tf_asm *a, wl_ynode map)
{
	/* position 0, 0, 0; scale 1, 1, 1; rotation 1, 0, 0, 0 (binary32 LE) */
#define ONE 0x00, 0x00, 0x80, 0x3F
	static const uint8_t identity[40] = { [12] = ONE, ONE, ONE, ONE };
#undef ONE
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (put_name(a, get(y, map, "name"), "name"))
		return -1;
	size_t at = 0;
	for (size_t i = 0; i < 3; i++) {
		const wl_tf_field *f = &b3d_tf_node_values[i];
		wl_ynode n = get(y, map, f->name);
		if (n ? wl_tf_asm_field(a, n, f) : wl_tf_asm_put(a, map, identity + at, 4 * f->count))
			return -1;
		at += 4 * f->count;
	}
	return 0;
}

int b3d_tf_assemble_keys(wl_tf_asm *a, const wl_chunk_type *t, wl_ynode map)
{
	const wl_ydoc *y = wl_tf_asm_doc(a);
	switch (t->id) {
	case B3D_CHUNK_BB3D:
		return put_key(a, map, "version", WL_TF_I32);
	case B3D_CHUNK_MESH:
		return put_key(a, map, "brush_id", WL_TF_I32);
	case B3D_CHUNK_NODE:
		return put_node(a, map);
	case B3D_CHUNK_TEXS:
		return put_list(a, map, "entries", put_entry, NULL);
	case B3D_CHUNK_BRUS:
		return put_key(a, map, "n_texs", WL_TF_I32) ||
		       put_list(a, map, "entries", put_entry, y) ? -1 : 0;
	case B3D_CHUNK_VRTS: {
		if (put_key(a, map, "flags", WL_TF_I32) || put_key(a, map, "tex_coord_sets", WL_TF_I32) ||
		    put_key(a, map, "tex_coord_set_size", WL_TF_I32))
			return -1;
		uint64_t lay[2] = { written(a, 12), 0 };
		if (!b3d_tf_vertex_size((uint32_t)lay[0], (int32_t)written(a, 8), (int32_t)written(a, 4),
					UINT32_MAX, &lay[1])) {
			wl_ynode v = get(y, map, "vertices");
			if (v && wl_ydoc_kind(y, v) == WL_Y_SEQUENCE && wl_ydoc_count(y, v))
				return wl_ydoc_fail(y, v, "vertices: tex_coord_sets and "
							  "tex_coord_set_size give no valid layout");
			return 0;
		}
		return put_list(a, map, "vertices", put_vertex, lay);
	}
	case B3D_CHUNK_TRIS:
		return put_key(a, map, "brush_id", WL_TF_I32) ||
		       put_list(a, map, "triangles", put_triangle, NULL) ? -1 : 0;
	case B3D_CHUNK_BONE:
		return put_list(a, map, "weights", put_weight, NULL);
	case B3D_CHUNK_KEYS: {
		if (put_key(a, map, "flags", WL_TF_I32))
			return -1;
		uint32_t flags = written(a, 4);
		return put_list(a, map, "keys", put_anim_key, &flags);
	}
	case B3D_CHUNK_ANIM:
		return put_key(a, map, "flags", WL_TF_I32) || put_key(a, map, "frames", WL_TF_I32) ||
		       put_key(a, map, "fps", WL_TF_F32) ? -1 : 0;
	default:
		return 0;
	}
}
