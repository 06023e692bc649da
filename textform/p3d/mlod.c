/*
 * mlod.c - the MLOD text form (mlod.h): the writer, from a strict walk of
 * the file's bytes, and the assembler, through the text form's assembler
 * primitives (textform/registry.h: wl_tf_asm_field, wl_tf_asm_hex).
 */
#include "mlod.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/cursor.h"
#include "core/escape.h"
#include "core/p3d/p3d_mlod.h"
#include "lint/p3d/checks.h"

/* Scalars per line in the flow sequences of tag data. */
#define PER_LINE 16

/* Field descriptors of the assembler primitives (and of the printer). */
static const wl_tf_field F_U32 = { "value", WL_TF_U32, 1, NULL };
static const wl_tf_field F_X32 = { "flags", WL_TF_X32, 1, NULL };
static const wl_tf_field F_F32 = { "value", WL_TF_F32, 1, NULL };
static const wl_tf_field F_U8 = { "weight", WL_TF_U8, 1, NULL };
static const wl_tf_field F_PROP = { "property", WL_TF_NAME, 64, NULL };

/* ------------------------------------------------------------ writing */

static uint32_t u32_at(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A string of n bytes (no NUL): quoted when printable ASCII, else !hex. */
static void put_text(FILE *out, const uint8_t *p, size_t n)
{
	bool clean = true;
	for (size_t i = 0; i < n && clean; i++)
		clean = p[i] >= 0x20 && p[i] <= 0x7E;
	if (clean) {
		wl_tf_put_quoted(out, p, n);
	} else {
		fputs("!hex ", out);
		wl_tf_put_hex(out, p, n, 0, NULL);
	}
}

/* Hex that may span lines (wl_tf_put_hex's block at indent). */
static void put_hex_block(FILE *out, const uint8_t *p, size_t n, int indent)
{
	wl_tf_put_hex(out, p, n, indent, NULL);
}

/* n scalars of field f, es bytes apart from p, as a flow sequence wrapped
 * every PER_LINE values at indent. */
static void put_flow(FILE *out, const wl_tf_field *f, const uint8_t *p, size_t n, size_t es, int indent)
{
	fputc('[', out);
	for (size_t i = 0; i < n; i++) {
		if (i && i % PER_LINE == 0)
			fprintf(out, ",\n%*s", indent, "");
		else if (i)
			fputs(", ", out);
		wl_tf_put_value(out, f, p + i * es);
	}
	fputc(']', out);
}

/* The LOD of the strict walk: where its parts are. */
typedef struct lod_at {
	uint64_t off, faces, tagg, res; /* header, first face, "TAGG", resolution */
	uint32_t np, nn, nf;
} lod_at;

/* Walks the LOD at off strictly (P3DM only): its parts, or false. */
static bool walk_lod(const wl_doc *d, uint64_t off, lod_at *l)
{
	uint64_t end = p3d_mlod_strict_end(d, off, NULL);
	if (!end || memcmp(d->bytes + off, "P3DM", 4) != 0)
		return false;
	const uint8_t *h = d->bytes + off;
	l->off = off;
	l->np = u32_at(h + 12);
	l->nn = u32_at(h + 16);
	l->nf = u32_at(h + 20);
	l->faces = off + P3D_MLOD_LODHEAD + (uint64_t)l->np * P3D_MLOD_POINT + (uint64_t)l->nn * P3D_MLOD_NORMAL;
	uint64_t pos = l->faces;
	for (uint32_t i = 0; i < l->nf; i++)
		pos = p3d_mlod_face_end(d, pos, false); /* nonzero: the strict walk read them */
	l->tagg = pos;
	l->res = end - 4;
	return true;
}

/* A face at p (its end at e): {n, v, flags, texture, material}. */
static void put_face(FILE *out, const uint8_t *p, const uint8_t *e)
{
	fprintf(out, "{n: %u, v: [", (unsigned)u32_at(p));
	for (int k = 0; k < 4; k++) {
		const uint8_t *v = p + 4 + 16 * k;
		fputs(k ? ", [" : "[", out);
		wl_tf_put_value(out, &F_U32, v);
		fputs(", ", out);
		wl_tf_put_value(out, &F_U32, v + 4);
		fputs(", ", out);
		wl_tf_put_value(out, &F_F32, v + 8);
		fputs(", ", out);
		wl_tf_put_value(out, &F_F32, v + 12);
		fputc(']', out);
	}
	fprintf(out, "], flags: 0x%X", (unsigned)u32_at(p + 68));
	const uint8_t *tex = p + P3D_MLOD_FACE, *tz = memchr(tex, 0, (size_t)(e - tex));
	const uint8_t *mat = tz + 1, *mz = memchr(mat, 0, (size_t)(e - mat));
	fputs(", texture: ", out);
	put_text(out, tex, (size_t)(tz - tex));
	fputs(", material: ", out);
	put_text(out, mat, (size_t)(mz - mat));
	fputs("}\n", out);
}

/* The data of tag `name` (size bytes at p) in its decoded keys, each on a
 * line of its own at indent; hex when no decoding fits exactly. */
static void put_tag_data(FILE *out, const char *name, size_t nlen, const uint8_t *p, uint32_t size,
			 const lod_at *l, int indent)
{
#define IS(s) (nlen == sizeof(s) - 1 && memcmp(name, s, nlen) == 0)
	if (size == 0)
		return;
	if (IS("#Mass#") && size == 4ull * l->np) {
		fprintf(out, "%*smass: ", indent, "");
		put_flow(out, &F_F32, p, l->np, 4, indent + 2);
	} else if (IS("#SharpEdges#") && size % 8 == 0) {
		fprintf(out, "%*sedges: ", indent, "");
		put_flow(out, &F_U32, p, size / 4, 4, indent + 2);
	} else if (IS("#UVSet#") && size >= 4 && (size - 4) % 4 == 0) {
		fprintf(out, "%*sstage: ", indent, "");
		wl_tf_put_value(out, &F_U32, p);
		fprintf(out, "\n%*suv: ", indent, "");
		put_flow(out, &F_F32, p + 4, (size - 4) / 4, 4, indent + 2);
	} else if (IS("#Property#") && size == 128) {
		fprintf(out, "%*sproperty: ", indent, "");
		wl_tf_put_value(out, &F_PROP, p);
		fprintf(out, "\n%*svalue: ", indent, "");
		wl_tf_put_value(out, &F_PROP, p + 64);
	} else if (nlen && name[0] != '#' && size == (uint64_t)l->np + l->nf) {
		/* a named selection: a weight byte per point, then per face */
		fprintf(out, "%*spoints: ", indent, "");
		put_flow(out, &F_U8, p, l->np, 1, indent + 2);
		fprintf(out, "\n%*sfaces: ", indent, "");
		put_flow(out, &F_U8, p + l->np, l->nf, 1, indent + 2);
	} else {
		fprintf(out, "%*shex: ", indent, "");
		put_hex_block(out, p, size, indent + 2);
	}
	fputc('\n', out);
#undef IS
}

/* The tags from "TAGG" at l->tagg to #EndOfFile#. */
static void put_tags(FILE *out, const wl_doc *d, const lod_at *l)
{
	fputs("      tags:\n", out);
	uint64_t pos = l->tagg + 4;
	for (;;) {
		bool eof = false;
		uint64_t after = p3d_mlod_tag_size_at(d, pos, false, &eof); /* read by the strict walk */
		const uint8_t *name = d->bytes + pos + 1;
		size_t nlen = (size_t)(after - (pos + 1)) - 1;
		uint32_t size = u32_at(d->bytes + after);
		fputs("        - name: ", out);
		put_text(out, name, nlen);
		fputc('\n', out);
		if (d->bytes[pos] != 1)
			fprintf(out, "          active: %u\n", (unsigned)d->bytes[pos]);
		put_tag_data(out, (const char *)name, nlen, d->bytes + after + 4, size, l, 10);
		pos = after + 4 + size;
		if (eof)
			break;
	}
}

static void put_lod(FILE *out, const wl_doc *d, const lod_at *l)
{
	const uint8_t *h = d->bytes + l->off;
	char buf[64];
	float res;
	memcpy(&res, d->bytes + l->res, 4);
	fputs("    - resolution: ", out);
	wl_tf_put_value(out, &F_F32, d->bytes + l->res);
	fprintf(out, "  # %s\n", wl_p3d_lod_name(res, buf, sizeof buf));
	if (u32_at(h + 4) != 0x1C || u32_at(h + 8) != 0x100)
		fprintf(out, "      version: [0x%X, 0x%X]\n", (unsigned)u32_at(h + 4), (unsigned)u32_at(h + 8));
	if (u32_at(h + 24))
		fprintf(out, "      flags: 0x%X\n", (unsigned)u32_at(h + 24));
	fputs(l->np ? "      points:  # [x, y, z, flags]\n" : "      points: []\n", out);
	for (uint32_t i = 0; i < l->np; i++) {
		const uint8_t *p = h + P3D_MLOD_LODHEAD + (size_t)i * P3D_MLOD_POINT;
		fputs("        - [", out);
		for (int k = 0; k < 3; k++) {
			wl_tf_put_value(out, &F_F32, p + 4 * k);
			fputs(", ", out);
		}
		fprintf(out, "0x%X]\n", (unsigned)u32_at(p + 12));
	}
	fputs(l->nn ? "      normals:  # [x, y, z]\n" : "      normals: []\n", out);
	const uint8_t *nb = h + P3D_MLOD_LODHEAD + (size_t)l->np * P3D_MLOD_POINT;
	for (uint32_t i = 0; i < l->nn; i++) {
		fputs("        - [", out);
		for (int k = 0; k < 3; k++) {
			if (k)
				fputs(", ", out);
			wl_tf_put_value(out, &F_F32, nb + (size_t)i * P3D_MLOD_NORMAL + 4 * k);
		}
		fputs("]\n", out);
	}
	fputs(l->nf ? "      faces:  # n: vertices used; v: [point, normal, u, v] x 4\n" : "      faces: []\n", out);
	uint64_t pos = l->faces;
	for (uint32_t i = 0; i < l->nf; i++) {
		uint64_t end = p3d_mlod_face_end(d, pos, false);
		fputs("        - ", out);
		put_face(out, d->bytes + pos, d->bytes + end);
		pos = end;
	}
	put_tags(out, d, l);
}

int p3d_mlod_write_text(FILE *out, const wl_doc *d, const char *source)
{
	if (d->size < P3D_MLOD_HEADER || memcmp(d->bytes, "MLOD", 4) != 0)
		return 0;
	uint32_t n = u32_at(d->bytes + 8);
	uint64_t off = P3D_MLOD_HEADER;
	/* every LOD walks strictly, or the chunk form is written */
	for (uint32_t i = 0; i < n; i++) {
		lod_at l;
		if (off >= d->size || !walk_lod(d, off, &l))
			return 0;
		off = l.res + 4;
	}
	fputs("# Arma P3D MLOD text form (docs/textform.md); `w3dasm FILE -o OUT.p3d` assembles it.\n", out);
	if (source) {
		fputs("# source: ", out);
		wl_escape_put(out, (const uint8_t *)source, strlen(source));
		fprintf(out, " (%llu bytes)\n", (unsigned long long)d->size);
	}
	fprintf(out, "p3d-text: %d\nmlod:\n", WL_TF_VERSION);
	fprintf(out, "  version: %u\n", (unsigned)u32_at(d->bytes + 4));
	fputs(n ? "  lods:\n" : "  lods: []\n", out);
	off = P3D_MLOD_HEADER;
	for (uint32_t i = 0; i < n; i++) {
		lod_at l;
		walk_lod(d, off, &l);
		put_lod(out, d, &l);
		off = l.res + 4;
	}
	if (off < d->size) {
		fputs("  tail: ", out);
		put_hex_block(out, d->bytes + off, (size_t)(d->size - off), 4);
		fputc('\n', out);
	}
	fflush(out);
	return ferror(out) ? -1 : 1;
}

/* ------------------------------------------------------------ assembling */

/* The value of key in mapping m, or 0. */
static wl_ynode get(const wl_ydoc *y, wl_ynode m, const char *key)
{
	for (size_t i = 0; i < wl_ydoc_count(y, m); i++)
		if (!strcmp(wl_ydoc_text(y, wl_ydoc_key(y, m, i)), key))
			return wl_ydoc_value(y, m, i);
	return 0;
}

/* Fails at the first key of mapping m not in the NULL-terminated list
 * `keys` (or repeated); 0 when there is none. */
static int only_keys(const wl_ydoc *y, wl_ynode m, const char *what, const char *const *keys)
{
	if (wl_ydoc_kind(y, m) != WL_Y_MAPPING)
		return wl_ydoc_fail(y, m, "%s: expected a mapping", what);
	for (size_t i = 0; i < wl_ydoc_count(y, m); i++) {
		wl_ynode k = wl_ydoc_unique_key(y, m, i);
		if (!k)
			return -1;
		const char *s = wl_ydoc_text(y, k);
		size_t j = 0;
		while (keys[j] && strcmp(keys[j], s))
			j++;
		if (!keys[j])
			return wl_ydoc_fail(y, k, "unknown key '%s' in %s", s, what);
	}
	return 0;
}

/* A sequence node of count elements (any count: SIZE_MAX), or a failure. */
static int want_seq(const wl_ydoc *y, wl_ynode n, const char *what, size_t count)
{
	if (wl_ydoc_kind(y, n) != WL_Y_SEQUENCE)
		return wl_ydoc_fail(y, n, "%s: expected a sequence", what);
	if (count != SIZE_MAX && wl_ydoc_count(y, n) != count)
		return wl_ydoc_fail(y, n, "%s: expected %zu values, got %zu", what, count, wl_ydoc_count(y, n));
	return 0;
}

static int put_u32(wl_tf_asm *a, wl_ynode at, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	return wl_tf_asm_put(a, at, b, 4);
}

/* Overwrites the u32 at offset `at` of the output (a size or count known
 * only after what follows it was appended). */
static void set_u32(wl_tf_asm *a, size_t at, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	wl_tf_asm_poke(a, at, b, 4);
}

static size_t out_len(const wl_tf_asm *a)
{
	size_t len;
	wl_tf_asm_bytes(a, &len);
	return len;
}

/* A string (quoted text or !hex) and its NUL. */
static int put_asciiz(wl_tf_asm *a, wl_ynode n, const char *what)
{
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (wl_ydoc_want_scalar(y, n, what))
		return -1;
	int rc = !strcmp(wl_ydoc_tag(y, n), "!hex") ? wl_tf_asm_hex(a, n, what, SIZE_MAX)
						    : wl_tf_asm_put(a, n, wl_ydoc_text(y, n), wl_ydoc_length(y, n));
	const uint8_t z = 0;
	return rc ? rc : wl_tf_asm_put(a, n, &z, 1);
}

/* Each element of sequence n as field f (a scalar each). */
static int put_each(wl_tf_asm *a, wl_ynode n, const char *what, const wl_tf_field *f, size_t count)
{
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (want_seq(y, n, what, count))
		return -1;
	for (size_t i = 0; i < wl_ydoc_count(y, n); i++)
		if (wl_tf_asm_field(a, wl_ydoc_item(y, n, i), f))
			return -1;
	return 0;
}

static int put_points(wl_tf_asm *a, wl_ynode n)
{
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (want_seq(y, n, "points", SIZE_MAX))
		return -1;
	for (size_t i = 0; i < wl_ydoc_count(y, n); i++) {
		wl_ynode p = wl_ydoc_item(y, n, i);
		if (want_seq(y, p, "a point [x, y, z, flags]", 4))
			return -1;
		for (size_t k = 0; k < 4; k++)
			if (wl_tf_asm_field(a, wl_ydoc_item(y, p, k), k < 3 ? &F_F32 : &F_X32))
				return -1;
	}
	return 0;
}

static int put_normals(wl_tf_asm *a, wl_ynode n)
{
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (want_seq(y, n, "normals", SIZE_MAX))
		return -1;
	for (size_t i = 0; i < wl_ydoc_count(y, n); i++)
		if (put_each(a, wl_ydoc_item(y, n, i), "a normal [x, y, z]", &F_F32, 3))
			return -1;
	return 0;
}

static int put_faces(wl_tf_asm *a, wl_ynode n)
{
	static const char *const keys[] = { "n", "v", "flags", "texture", "material", NULL };
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (want_seq(y, n, "faces", SIZE_MAX))
		return -1;
	for (size_t i = 0; i < wl_ydoc_count(y, n); i++) {
		wl_ynode f = wl_ydoc_item(y, n, i);
		if (only_keys(y, f, "a face", keys))
			return -1;
		wl_ynode nv = get(y, f, "n"), v = get(y, f, "v"), tex = get(y, f, "texture"), mat = get(y, f, "material");
		if (!nv || !v || !tex || !mat)
			return wl_ydoc_fail(y, f, "a face needs n, v, texture and material");
		if (wl_tf_asm_field(a, nv, &F_U32) || want_seq(y, v, "v: [point, normal, u, v] x 4", 4))
			return -1;
		for (size_t k = 0; k < 4; k++) {
			wl_ynode vert = wl_ydoc_item(y, v, k);
			if (want_seq(y, vert, "a face vertex [point, normal, u, v]", 4))
				return -1;
			for (size_t j = 0; j < 4; j++)
				if (wl_tf_asm_field(a, wl_ydoc_item(y, vert, j), j < 2 ? &F_U32 : &F_F32))
					return -1;
		}
		if (wl_tf_asm_field(a, get(y, f, "flags"), &F_X32) || put_asciiz(a, tex, "texture") ||
		    put_asciiz(a, mat, "material"))
			return -1;
	}
	return 0;
}

/* One tag: active byte, name, size (computed), data; *eof set for
 * #EndOfFile#. */
static int put_tag(wl_tf_asm *a, wl_ynode t, bool *eof)
{
	static const char *const keys[] = { "name", "active", "hex",   "points", "faces",    "mass",
					    "edges", "stage", "uv", "property", "value", NULL };
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (only_keys(y, t, "a tag", keys))
		return -1;
	wl_ynode name = get(y, t, "name"), act = get(y, t, "active");
	if (!name)
		return wl_ydoc_fail(y, t, "a tag needs a name");
	uint8_t active = 1;
	if (act) {
		size_t at = out_len(a);
		if (wl_tf_asm_field(a, act, &F_U8))
			return -1;
		size_t len;
		active = wl_tf_asm_bytes(a, &len)[at];
	} else if (wl_tf_asm_put(a, t, &active, 1)) {
		return -1;
	}
	size_t name_at = out_len(a);
	if (put_asciiz(a, name, "name"))
		return -1;
	size_t len;
	const uint8_t *o = wl_tf_asm_bytes(a, &len);
	*eof = len - name_at == sizeof P3D_MLOD_EOF_TAG && !memcmp(o + name_at, P3D_MLOD_EOF_TAG, sizeof P3D_MLOD_EOF_TAG);
	size_t size_at = out_len(a);
	if (put_u32(a, t, 0))
		return -1;
	wl_ynode v;
	int rc = 0;
	if ((v = get(y, t, "hex")))
		rc = wl_tf_asm_hex(a, v, "hex", SIZE_MAX);
	if (!rc && (v = get(y, t, "points")))
		rc = put_each(a, v, "points", &F_U8, SIZE_MAX);
	if (!rc && (v = get(y, t, "faces")))
		rc = put_each(a, v, "faces", &F_U8, SIZE_MAX);
	if (!rc && (v = get(y, t, "mass")))
		rc = put_each(a, v, "mass", &F_F32, SIZE_MAX);
	if (!rc && (v = get(y, t, "edges")))
		rc = put_each(a, v, "edges", &F_U32, SIZE_MAX);
	if (!rc && (v = get(y, t, "stage")))
		rc = wl_tf_asm_field(a, v, &F_U32);
	if (!rc && (v = get(y, t, "uv")))
		rc = put_each(a, v, "uv", &F_F32, SIZE_MAX);
	if (!rc && (v = get(y, t, "property")))
		rc = wl_tf_asm_field(a, v, &F_PROP);
	if (!rc && (v = get(y, t, "value")))
		rc = wl_tf_asm_field(a, v, &F_PROP);
	if (rc)
		return -1;
	size_t size = out_len(a) - size_at - 4;
	if (size > UINT32_MAX)
		return wl_ydoc_fail(y, t, "the tag's data is %zu bytes, more than its size field can say", size);
	set_u32(a, size_at, (uint32_t)size);
	return 0;
}

static int put_lod_text(wl_tf_asm *a, wl_ynode l)
{
	static const char *const keys[] = { "resolution", "version", "flags", "counts", "points",
					    "normals",    "faces",   "tags",  NULL };
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (only_keys(y, l, "a LOD", keys))
		return -1;
	wl_ynode res = get(y, l, "resolution"), ver = get(y, l, "version"), counts = get(y, l, "counts");
	wl_ynode pts = get(y, l, "points"), nrm = get(y, l, "normals"), fcs = get(y, l, "faces");
	wl_ynode tags = get(y, l, "tags");
	if (!res || !tags)
		return wl_ydoc_fail(y, l, "a LOD needs a resolution and its tags (up to #EndOfFile#)");
	if (wl_tf_asm_put(a, l, "P3DM", 4))
		return -1;
	if (ver) {
		if (put_each(a, ver, "version: [major, minor]", &F_U32, 2))
			return -1;
	} else if (put_u32(a, l, 0x1C) || put_u32(a, l, 0x100)) {
		return -1;
	}
	size_t counts_at = out_len(a);
	if (put_u32(a, l, 0) || put_u32(a, l, 0) || put_u32(a, l, 0) || wl_tf_asm_field(a, get(y, l, "flags"), &F_X32))
		return -1;
	if ((pts && put_points(a, pts)) || (nrm && put_normals(a, nrm)) || (fcs && put_faces(a, fcs)))
		return -1;
	uint32_t c[3] = { pts ? (uint32_t)wl_ydoc_count(y, pts) : 0, nrm ? (uint32_t)wl_ydoc_count(y, nrm) : 0,
			  fcs ? (uint32_t)wl_ydoc_count(y, fcs) : 0 };
	if (counts) { /* the header's counts pinned */
		size_t at = out_len(a);
		if (put_each(a, counts, "counts: [points, normals, faces]", &F_U32, 3))
			return -1;
		size_t len;
		const uint8_t *o = wl_tf_asm_bytes(a, &len);
		for (int k = 0; k < 3; k++)
			c[k] = u32_at(o + at + 4 * k);
		wl_tf_asm_truncate(a, at); /* read back, then taken off the end */
	}
	for (int k = 0; k < 3; k++)
		set_u32(a, counts_at + 4 * (size_t)k, c[k]);
	if (wl_tf_asm_put(a, tags, "TAGG", 4) || want_seq(y, tags, "tags", SIZE_MAX))
		return -1;
	bool eof = false;
	for (size_t i = 0; i < wl_ydoc_count(y, tags); i++) {
		if (eof)
			return wl_ydoc_fail(y, wl_ydoc_item(y, tags, i), "a tag after #EndOfFile#, which ends the list");
		if (put_tag(a, wl_ydoc_item(y, tags, i), &eof))
			return -1;
	}
	if (!eof)
		return wl_ydoc_fail(y, tags, "the tags must end with the tag #EndOfFile#");
	return wl_tf_asm_field(a, res, &F_F32);
}

int p3d_mlod_assemble(wl_tf_asm *a, wl_ynode m)
{
	static const char *const keys[] = { "version", "lod_count", "lods", "tail", NULL };
	const wl_ydoc *y = wl_tf_asm_doc(a);
	if (only_keys(y, m, "mlod", keys))
		return -1;
	wl_ynode ver = get(y, m, "version"), count = get(y, m, "lod_count"), lods = get(y, m, "lods");
	wl_ynode tail = get(y, m, "tail");
	if (!lods)
		return wl_ydoc_fail(y, m, "mlod needs 'lods:'");
	if (want_seq(y, lods, "lods", SIZE_MAX) || wl_tf_asm_put(a, m, "MLOD", 4))
		return -1;
	if (ver ? wl_tf_asm_field(a, ver, &F_U32) : put_u32(a, m, 257))
		return -1;
	if (count ? wl_tf_asm_field(a, count, &F_U32) : put_u32(a, m, (uint32_t)wl_ydoc_count(y, lods)))
		return -1;
	for (size_t i = 0; i < wl_ydoc_count(y, lods); i++)
		if (put_lod_text(a, wl_ydoc_item(y, lods, i)))
			return -1;
	return tail ? wl_tf_asm_hex(a, tail, "tail", SIZE_MAX) : 0;
}
