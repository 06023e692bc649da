/*
 * write.c - writes the keys of a B3D chunk (b3d_text.h): a container's own
 * fields, or a data chunk's records and `tail:`.  Whatever does not decode
 * exactly is left to the engine (false: `fields:` or `hex:`), or to `tail:`
 * after the last whole record, so the text assembles to the same bytes.
 */
#include "b3d_text.h"

#include <string.h>

#include "../../core/b3d/b3d_format.h"
#include "../../core/cursor.h"

#define F(n, t, c) { n, WL_TF_##t, c, NULL }

static const wl_tf_field i32 = F("", I32, 1), f32 = F("", F32, 1);

/* n elements of type f (count 1) at p as a flow sequence. */
static void put_seq(FILE *out, const wl_tf_field *f, const uint8_t *p, uint64_t n)
{
	fputc('[', out);
	for (uint64_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		wl_tf_put_value(out, f, p + 4 * i);
	}
	fputc(']', out);
}

/* A NUL-terminated name: its n bytes with the NUL. */
static void put_name(FILE *out, const uint8_t *p, size_t n)
{
	if (wl_tf_clean_text(p, n)) {
		wl_tf_put_quoted(out, p, n - 1);
		return;
	}
	fputs("!hex \"", out);
	for (size_t i = 0; i + 1 < n; i++)
		fprintf(out, i ? " %02x" : "%02x", p[i]);
	fputc('"', out);
}

/* "key: value" on a line of its own. */
static void put_key(FILE *out, int indent, const char *key, const wl_tf_field *f, const uint8_t *p)
{
	fprintf(out, "%*s%s: ", indent, "", key);
	wl_tf_put_value(out, f, p);
	fputc('\n', out);
}

/* The fields fs[0..n) at p as ", name: value" pairs of a flow mapping;
 * returns the bytes. */
static size_t put_pairs(FILE *out, const wl_tf_field *fs, size_t n, const uint8_t *p)
{
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		fprintf(out, ", %s: ", fs[i].name);
		wl_tf_put_value(out, &fs[i], p + at);
		at += wl_tf_field_size(&fs[i]);
	}
	return at;
}

static void put_tail(FILE *out, int indent, const uint8_t *p, size_t n)
{
	if (!n)
		return;
	fprintf(out, "%*stail: ", indent, "");
	wl_tf_put_hex(out, p, n, indent + 2, NULL);
	fputc('\n', out);
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
static size_t put_entries(FILE *out, int indent, const uint8_t *p, size_t n, const char *name,
			  const wl_tf_field *fs, size_t nf, uint64_t values, bool textures, uint64_t ids)
{
	size_t at = 0;
	bool any = false;
	for (size_t k; at < n && (k = name_len(p + at, n - at, values + 4 * ids)) != 0;) {
		if (!any)
			fprintf(out, "%*sentries:\n", indent, "");
		any = true;
		fprintf(out, "%*s- {%s: ", indent + 2, "", name);
		put_name(out, p + at, k);
		at += k;
		at += put_pairs(out, fs, nf, p + at);
		if (textures) {
			fputs(", textures: ", out);
			put_seq(out, &i32, p + at, ids);
			at += (size_t)(4 * ids);
		}
		fputs("}\n", out);
	}
	return at;
}

static bool node_fields(FILE *out, int indent, const uint8_t *p, size_t n)
{
	size_t k = name_len(p, n, B3D_TF_NODE_VALUES);
	if (!k || n - k != B3D_TF_NODE_VALUES)
		return false;
	fprintf(out, "%*sname: ", indent, "");
	put_name(out, p, k);
	fputc('\n', out);
	for (size_t i = 0; i < 3; i++) {
		put_key(out, indent, b3d_tf_node_values[i].name, &b3d_tf_node_values[i], p + k);
		k += wl_tf_field_size(&b3d_tf_node_values[i]);
	}
	return true;
}

/* VRTS: the header, then whole vertices. */
static size_t vrts(FILE *out, int indent, const uint8_t *p, size_t n)
{
	uint32_t flags = wl_le32(p);
	uint64_t uv;
	uint64_t size = b3d_tf_vertex_size(flags, (int32_t)wl_le32(p + 4), (int32_t)wl_le32(p + 8),
					   n - 12, &uv);
	put_key(out, indent, "flags", &i32, p);
	put_key(out, indent, "tex_coord_sets", &i32, p + 4);
	put_key(out, indent, "tex_coord_set_size", &i32, p + 8);
	size_t at = 12;
	if (!size)
		return at;
	fprintf(out, "%*svertices:\n", indent, "");
	for (; n - at >= size; at += (size_t)size) {
		const uint8_t *v = p + at;
		fprintf(out, "%*s- {position: ", indent + 2, "");
		put_seq(out, &f32, v, 3);
		v += 12;
		if (flags & 1) {
			fputs(", normal: ", out);
			put_seq(out, &f32, v, 3);
			v += 12;
		}
		if (flags & 2) {
			fputs(", color: ", out);
			put_seq(out, &f32, v, 4);
			v += 16;
		}
		if (uv) {
			fputs(", tex_coords: ", out);
			put_seq(out, &f32, v, uv);
		}
		fputs("}\n", out);
	}
	return at;
}

/* KEYS: the flags, then whole keys. */
static size_t keys(FILE *out, int indent, const uint8_t *p, size_t n)
{
	static const char *const parts[] = { "position", "scale", "rotation" };
	uint32_t flags = wl_le32(p);
	uint64_t size = b3d_tf_key_size(flags);
	put_key(out, indent, "flags", &i32, p);
	size_t at = 4;
	if (n - at >= size)
		fprintf(out, "%*skeys:\n", indent, "");
	for (; n - at >= size; at += (size_t)size) {
		const uint8_t *v = p + at;
		fprintf(out, "%*s- {frame: ", indent + 2, "");
		wl_tf_put_value(out, &i32, v);
		v += 4;
		for (unsigned b = 0; b < 3; b++) {
			if (!(flags & 1u << b))
				continue;
			fprintf(out, ", %s: ", parts[b]);
			put_seq(out, &f32, v, b == 2 ? 4 : 3);
			v += b == 2 ? 16 : 12;
		}
		fputs("}\n", out);
	}
	return at;
}

/* `key:` then n records of `width` int32/float values (first an int32,
 * then `second`), one flow sequence a line. */
static size_t pairs(FILE *out, int indent, const char *key, const uint8_t *p, size_t n,
		    const wl_tf_field *second, size_t width)
{
	size_t size = 4 * width, at = 0;
	if (n >= size)
		fprintf(out, "%*s%s:\n", indent, "", key);
	for (; n - at >= size; at += size) {
		fprintf(out, "%*s- [", indent + 2, "");
		wl_tf_put_value(out, &i32, p + at);
		for (size_t i = 1; i < width; i++) {
			fputs(", ", out);
			wl_tf_put_value(out, second, p + at + 4 * i);
		}
		fputs("]\n", out);
	}
	return at;
}

bool b3d_tf_write_keys(FILE *out, const wl_doc *d, const wl_chunk *c, int indent)
{
	const uint8_t *p = wl_chunk_payload(d, c);
	size_t n = (size_t)(c->container ? c->fields : c->size), at;
	switch (c->type->id) {
	case B3D_CHUNK_BB3D:
	case B3D_CHUNK_MESH:
		if (n != 4)
			return false;
		put_key(out, indent, c->type->id == B3D_CHUNK_BB3D ? "version" : "brush_id", &i32, p);
		return true;
	case B3D_CHUNK_NODE:
		return node_fields(out, indent, p, n);
	case B3D_CHUNK_TEXS:
		if (!name_len(p, n, B3D_TF_TEXS_VALUES))
			return false;
		at = put_entries(out, indent, p, n, "file", b3d_tf_texs_values, 5, B3D_TF_TEXS_VALUES,
				 false, 0);
		break;
	case B3D_CHUNK_BRUS: {
		if (n < 4)
			return false;
		int32_t ids = (int32_t)wl_le32(p);
		put_key(out, indent, "n_texs", &i32, p);
		at = 4;
		if (ids >= 0 && (uint64_t)ids <= (n - 4) / 4)
			at += put_entries(out, indent, p + 4, n - 4, "name", b3d_tf_brus_values, 4,
					  B3D_TF_BRUS_VALUES, true, (uint64_t)ids);
		break;
	}
	case B3D_CHUNK_VRTS:
		if (n < 12)
			return false;
		at = vrts(out, indent, p, n);
		break;
	case B3D_CHUNK_TRIS:
		if (n < 4)
			return false;
		put_key(out, indent, "brush_id", &i32, p);
		at = 4 + pairs(out, indent, "triangles", p + 4, n - 4, &i32, 3);
		break;
	case B3D_CHUNK_BONE:
		if (n > 0 && n < 8)
			return false;
		if (n == 0) /* a bone that moves no vertex */
			fprintf(out, "%*sweights: []\n", indent, "");
		at = pairs(out, indent, "weights", p, n, &f32, 2);
		break;
	case B3D_CHUNK_KEYS:
		if (n < 4)
			return false;
		at = keys(out, indent, p, n);
		break;
	case B3D_CHUNK_ANIM:
		if (n < 12)
			return false;
		put_key(out, indent, "flags", &i32, p);
		put_key(out, indent, "frames", &i32, p + 4);
		put_key(out, indent, "fps", &f32, p + 8);
		at = 12;
		break;
	default:
		return false;
	}
	put_tail(out, indent, p + at, n - at);
	return true;
}
