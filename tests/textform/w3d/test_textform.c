/*
 * tests/textform/w3d/test_textform.c - the W3D text form (textform/textform.h): dump then
 * assemble gives back the input byte for byte, for valid files built with
 * tests/build/w3dbuild.h, malformed ones (truncated, stray and trailing bytes,
 * unknown chunks, container-bit mistakes, the two RotWK HLOD size shapes,
 * resync garbage) and random bytes; floats that need !f32bits; a
 * hand-written text whose sizes the assembler computes; pinned sizes and
 * container bits; assembler errors with line:column.
 *
 * Expected bytes are built with w3dbuild.h and expected positions are found
 * in the test's own text, never copied from a run.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "core/w3d/hierarchy.h"
#include "core/w3d/objects.h"
#include "core/w3d/w3d_format.h"
#include "textform/textform.h"
#include "tests/build/reader_util.h"
#include "tests/build/robust_util.h"
#include "tests/build/w3dbuild.h"

extern Suite *textform_suite(void);

#define H 8u
#define BIT31 0x80000000u

/* ------------------------------------------------------------ helpers */

/* The text form of p[0..n) (malloc'd, NUL-terminated). */
static char *dump_text(const uint8_t *p, size_t n)
{
	return t_text(&w3d_format, p, n, "test.w3d");
}

/* Assembles text; fails the test with the error when it does not assemble. */
static wl_tf_bytes assemble_ok(const char *text)
{
	return t_assemble("t.txt", text, strlen(text));
}

/* Dump then assemble p[0..n) and compare; returns the text (caller frees). */
static char *roundtrip(const uint8_t *p, size_t n)
{
	char *text = dump_text(p, n);
	wl_tf_bytes out = assemble_ok(text);
	ck_assert_msg(out.len == n, "assembled %zu bytes, input has %zu\n%.1500s", out.len, n, text);
	size_t i = 0;
	while (i < n && out.data[i] == p[i])
		i++;
	ck_assert_msg(i == n, "assembled bytes differ at 0x%zx\n%.1500s", i, text);
	free(out.data);
	return text;
}

static void roundtrip_free(const uint8_t *p, size_t n)
{
	free(roundtrip(p, n));
}

static void expect_in(const char *text, const char *needle)
{
	ck_assert_msg(strstr(text, needle) != NULL, "no '%s' in\n%.4000s", needle, text);
}

/* A NULL-terminated list of strings, for roundtrip_check(). */
#define LIST(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Round-trips b (roundtrip()), asserts that the text holds every string of
 * has and none of lacks (NULL-terminated lists; NULL: no list), then frees
 * the text and b. */
static void roundtrip_check(wb *b, const char *const *has, const char *const *lacks)
{
	char *text = roundtrip(b->data, b->len);
	for (size_t i = 0; has && has[i]; i++)
		expect_in(text, has[i]);
	for (size_t i = 0; lacks && lacks[i]; i++)
		ck_assert_msg(strstr(text, lacks[i]) == NULL, "unexpected '%s' in\n%.4000s", lacks[i],
			      text);
	free(text);
	t_w3d_free(b);
}

/* 1-based line and column of the first occurrence of needle in text. */
static void pos_of(const char *text, const char *needle, unsigned *line, unsigned *col)
{
	const char *at = strstr(text, needle);
	ck_assert_msg(at != NULL, "'%s' not in the test text", needle);
	*line = 1;
	*col = 1;
	for (const char *p = text; p < at; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* Assembly must fail with "t.txt:L:C: ..." where L:C is where `at` starts
 * in text, and the message must contain `what`. */
static void expect_error(const char *text, const char *at, const char *what)
{
	char err[512] = "";
	wl_tf_bytes out;
	ck_assert_int_eq(wl_tf_assemble("t.txt", text, strlen(text), &out, err, sizeof err), -1);
	ck_assert_ptr_null(out.data);
	unsigned line, col;
	pos_of(text, at, &line, &col);
	char prefix[64];
	snprintf(prefix, sizeof prefix, "t.txt:%u:%u: ", line, col);
	ck_assert_msg(strncmp(err, prefix, strlen(prefix)) == 0, "error '%s' does not start with '%s'",
		      err, prefix);
	ck_assert_msg(strstr(err, what) != NULL, "error '%s' does not say '%s'", err, what);
}

/* ------------------------------------------------- built test models */

static void mesh_header(wb *b, const char *name, uint32_t tris, uint32_t verts)
{
	t_w3d_begin(b, W3D_CHUNK_MESH_HEADER3);
	t_w3d_u32(b, 0x00040002);
	t_w3d_u32(b, 0);
	t_w3d_name(b, name, 16);
	t_w3d_name(b, "BOXES", 16);
	t_w3d_u32(b, tris);
	t_w3d_u32(b, verts);
	t_w3d_u32(b, 1);
	t_w3d_u32(b, 0);
	t_w3d_u32(b, 0);
	t_w3d_u32(b, 0);
	t_w3d_u32(b, 0);
	t_w3d_u32(b, 3);
	t_w3d_u32(b, 1);
	t_w3d_vec3(b, 0, 0, 0);
	t_w3d_vec3(b, 1, 1, 0);
	t_w3d_vec3(b, 0.5f, 0.5f, 0);
	t_w3d_f32(b, 0.70710677f);
	t_w3d_end(b);
}

/* A quad mesh with every common chunk, a hierarchy, a raw and a compressed
 * animation, an HLOD and a box: every sizes computed by t_w3d_end. */
static void build_model(wb *b)
{
	static const float v[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
	t_w3d_begin(b, W3D_CHUNK_MESH);
	mesh_header(b, "QUAD", 2, 4);
	t_w3d_begin(b, W3D_CHUNK_VERTICES);
	for (int i = 0; i < 4; i++)
		t_w3d_vec3(b, v[i][0], v[i][1], v[i][2]);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_VERTEX_NORMALS);
	for (int i = 0; i < 4; i++)
		t_w3d_vec3(b, 0, 0, 1);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_TRIANGLES);
	static const uint32_t tri[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };
	for (int i = 0; i < 2; i++) {
		for (int k = 0; k < 3; k++)
			t_w3d_u32(b, tri[i][k]);
		t_w3d_u32(b, 13);
		t_w3d_vec3(b, 0, 0, 1);
		t_w3d_f32(b, 0);
	}
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_VERTEX_INFLUENCES);
	for (int i = 0; i < 4; i++) {
		t_w3d_u16(b, 1);
		t_w3d_zeros(b, 6);
	}
	t_w3d_end(b);
	t_w3d_material_info(b, 1, 1, 1, 1);
	t_w3d_begin(b, W3D_CHUNK_VERTEX_MATERIALS);
	t_w3d_begin(b, W3D_CHUNK_VERTEX_MATERIAL);
	t_w3d_chunk(b, W3D_CHUNK_VERTEX_MATERIAL_NAME, "VM\0", 3);
	t_w3d_begin(b, W3D_CHUNK_VERTEX_MATERIAL_INFO);
	t_w3d_u32(b, 0);
	t_w3d_u32(b, 0x00FFFFFF);
	t_w3d_u32(b, 0x00FFFFFF);
	t_w3d_u32(b, 0);
	t_w3d_u32(b, 0);
	t_w3d_f32(b, 1);
	t_w3d_f32(b, 1);
	t_w3d_f32(b, 0);
	t_w3d_end(b);
	t_w3d_chunk(b, W3D_CHUNK_VERTEX_MAPPER_ARGS0, "UPerSec=1.0\r\nVPerSec=\"2\"\0", 25);
	t_w3d_end(b);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_SHADERS);
	for (int i = 0; i < 16; i++)
		t_w3d_u8(b, (uint8_t)(i % 3));
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_TEXTURES);
	t_w3d_begin(b, W3D_CHUNK_TEXTURE);
	t_w3d_chunk(b, W3D_CHUNK_TEXTURE_NAME, "quad.tga\0", 9);
	t_w3d_begin(b, W3D_CHUNK_TEXTURE_INFO);
	t_w3d_u16(b, 0x0008);
	t_w3d_u16(b, 0);
	t_w3d_u32(b, 1);
	t_w3d_f32(b, 15);
	t_w3d_end(b);
	t_w3d_end(b);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_MATERIAL_PASS);
	t_w3d_chunk(b, W3D_CHUNK_VERTEX_MATERIAL_IDS, "\0\0\0\0", 4);
	t_w3d_chunk(b, W3D_CHUNK_SHADER_IDS, "\0\0\0\0", 4);
	t_w3d_begin(b, W3D_CHUNK_DCG);
	for (int i = 0; i < 4; i++)
		t_w3d_u32(b, 0xFF808080u);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_TEXTURE_STAGE);
	t_w3d_chunk(b, W3D_CHUNK_TEXTURE_IDS, "\0\0\0\0", 4);
	t_w3d_begin(b, W3D_CHUNK_STAGE_TEXCOORDS);
	for (int i = 0; i < 4; i++) {
		t_w3d_f32(b, v[i][0]);
		t_w3d_f32(b, v[i][1]);
	}
	t_w3d_end(b);
	t_w3d_end(b);
	t_w3d_end(b);
	t_w3d_quad_aabtree(b);
	t_w3d_end(b); /* MESH */

	t_w3d_begin(b, W3D_CHUNK_HIERARCHY);
	t_w3d_hierarchy_header(b, "SKL", 2);
	t_w3d_begin(b, W3D_CHUNK_PIVOTS);
	for (int i = 0; i < 2; i++) {
		t_w3d_name(b, i ? "BONE" : "ROOTTRANSFORM", 16);
		t_w3d_u32(b, i ? 0u : 0xFFFFFFFFu);
		t_w3d_vec3(b, 0, (float)i, 0);
		t_w3d_vec3(b, 0, 0, 0);
		t_w3d_f32(b, 0);
		t_w3d_f32(b, 0);
		t_w3d_f32(b, 0);
		t_w3d_f32(b, 1);
	}
	t_w3d_end(b);
	t_w3d_end(b);

	t_w3d_begin(b, W3D_CHUNK_ANIMATION);
	t_w3d_begin_anim_header(b, W3D_CHUNK_ANIMATION_HEADER, 0x00040001, "WALK", "SKL", 2);
	t_w3d_u32(b, 30);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_ANIMATION_CHANNEL);
	t_w3d_u16(b, 0);
	t_w3d_u16(b, 1);
	t_w3d_u16(b, 1);
	t_w3d_u16(b, 0);
	t_w3d_u16(b, 1);
	t_w3d_u16(b, 0);
	t_w3d_f32(b, 0.25f);
	t_w3d_f32(b, -0.5f);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_BIT_CHANNEL);
	t_w3d_u16(b, 0);
	t_w3d_u16(b, 1);
	t_w3d_u16(b, 0);
	t_w3d_u16(b, 1);
	t_w3d_u8(b, 1);
	t_w3d_u8(b, 0x3);
	t_w3d_end(b);
	t_w3d_end(b);

	t_w3d_begin(b, W3D_CHUNK_COMPRESSED_ANIMATION);
	t_w3d_begin_anim_header(b, W3D_CHUNK_COMPRESSED_ANIMATION_HEADER, 1, "RUN", "SKL", 2);
	t_w3d_u16(b, 30);
	t_w3d_u16(b, 0);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_COMPRESSED_ANIMATION_CHANNEL);
	t_w3d_u32(b, 1);
	t_w3d_u16(b, 1);
	t_w3d_u8(b, 1);
	t_w3d_u8(b, 0);
	t_w3d_u32(b, 0);
	t_w3d_f32(b, 2);
	t_w3d_end(b);
	t_w3d_end(b);

	t_w3d_begin_header(b, W3D_CHUNK_HLOD, W3D_CHUNK_HLOD_HEADER, NULL, 0x00010000, 1, "BOXES", "SKL");
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_HLOD_LOD_ARRAY);
	t_w3d_hlod_array_header(b, 1, 0);
	t_w3d_hlod_sub_object(b, 1, "BOXES.QUAD");
	t_w3d_end(b);
	t_w3d_end(b);

	t_w3d_begin(b, W3D_CHUNK_BOX);
	t_w3d_u32(b, 0x00010000);
	t_w3d_u32(b, 2);
	t_w3d_name(b, "BOXES.BOUNDINGBOX", 32);
	t_w3d_u32(b, 0x00FF00FF);
	t_w3d_vec3(b, 0, 0, 0);
	t_w3d_vec3(b, 1, 1, 1);
	t_w3d_end(b);
}

/* ------------------------------------------------------------ tests */

/* Every table matches the schema: its chunk exists, records are as long as
 * the schema's fixed record size, arrays' elements as its element size. */
START_TEST(tables_match_schema)
{
	size_t nt, ns;
	const wl_tf_struct *t = wl_tf_tables(&nt);
	const wl_chunk_type *s = w3d_schema(&ns);
	ck_assert_uint_gt(nt, 40);
	for (size_t i = 0; i < nt; i++) {
		size_t found = 0;
		size_t size = wl_tf_struct_size(&t[i]);
		for (size_t j = 0; j < ns; j++) {
			if (strcmp(s[j].short_name, t[i].chunk))
				continue;
			found++;
			ck_assert_msg(!s[j].child_ctx, "%s is a container", t[i].chunk);
			if (t[i].layout == WL_TF_RECORD && s[j].min_size)
				ck_assert_msg(size == s[j].min_size, "%s: table %zu bytes, schema %u",
					      t[i].chunk, size, (unsigned)s[j].min_size);
			if (t[i].layout == WL_TF_ARRAY)
				ck_assert_msg(size == s[j].elem_size, "%s: element %zu bytes, schema %u",
					      t[i].chunk, size, (unsigned)s[j].elem_size);
		}
		ck_assert_msg(found > 0, "table %s names no schema chunk", t[i].chunk);
		ck_assert_ptr_eq(wl_tf_lookup(t[i].chunk), &t[i]);
		/* Parts: within the view's room, counts and widths naming fields
		 * of the record, ITEMS with an element layout. */
		ck_assert_uint_le(t[i].part_count, WL_TF_MAX_PARTS);
		ck_assert(t[i].part_count == 0 || (t[i].layout == WL_TF_RECORD && !t[i].rest));
		for (size_t k = 0; k < t[i].part_count; k++) {
			const wl_tf_part *pt = &t[i].parts[k];
			ck_assert_int_lt(pt->count_of, (int)t[i].field_count);
			ck_assert_int_lt(pt->width_of, (int)t[i].field_count);
			ck_assert_msg(pt->in != 0, "%s.%s is never written", t[i].chunk, pt->name);
			ck_assert(pt->kind != WL_TF_PART_ITEMS || pt->elem != NULL);
		}
	}
	/* Short names are unique inside each context (the assembler's lookup). */
	for (size_t i = 0; i < ns; i++)
		for (size_t j = i + 1; j < ns; j++)
			ck_assert_msg(s[i].ctx != s[j].ctx || strcmp(s[i].short_name, s[j].short_name),
				      "%s twice in one context", s[i].short_name);
}
END_TEST

START_TEST(valid_model_roundtrip)
{
	wb b;
	t_w3d_init(&b);
	build_model(&b);
	/* Known structs are decoded into named fields, nothing is hex, and no
	 * size or bit is pinned: t_w3d_end writes what the assembler computes. */
	roundtrip_check(&b,
			LIST("NumVertices: 4\n", "MeshName: \"QUAD\"\n", "Max: [1, 1, 0]\n",
			     "string: \"quad.tga\"\n",
			     "string: \"UPerSec=1.0\\r\\nVPerSec=\\\"2\\\"\"\n",
			     "{Name: \"ROOTTRANSFORM\", ParentIdx: -1,", "Data: [0.25, -0.5]\n",
			     "Name: \"BOXES.QUAD\"\n", "FrontOrPoly0: 0x80000000"),
			LIST("hex:", "size:", "container_bit:"));
}
END_TEST

/* Every prefix of the model (truncated at each byte) round-trips; cut
 * chunks pin their declared size. */
START_TEST(truncated_roundtrip)
{
	wb b;
	t_w3d_init(&b);
	build_model(&b);
	for (size_t n = 0; n <= b.len; n++)
		roundtrip_free(b.data, n);
	/* Cut inside MESH_HEADER3: MESH and the header keep their declared sizes
	 * as pins, and the short header is hex. */
	size_t cut = H + H + 50;
	char *text = roundtrip(b.data, cut);
	ck_assert_ptr_nonnull(strstr(text, "truncated"));
	char pin[64];
	snprintf(pin, sizeof pin, "size: %u", (unsigned)(wl_le32(b.data + 4) & ~BIT31));
	ck_assert_msg(strstr(text, pin) != NULL, "no '%s' in\n%.1500s", pin, text);
	ck_assert_ptr_nonnull(strstr(text, "size: 116"));
	free(text);
	t_w3d_free(&b);
}
END_TEST

START_TEST(malformed_roundtrip)
{
	wb b;
	/* stray bytes inside a container, trailing bytes, an unknown chunk
	 * inside MESH and at the top level */
	t_w3d_init(&b);
	t_w3d_begin(&b, W3D_CHUNK_MESH);
	mesh_header(&b, "M", 0, 0);
	t_w3d_chunk(&b, 0x7777, "abc", 3);
	t_w3d_bytes(&b, "\x01\x02\x03", 3);
	t_w3d_end(&b);
	t_w3d_chunk(&b, 0x12345678, "\xff\xfe", 2);
	t_w3d_bytes(&b, "\x09\x09", 2);
	roundtrip_check(&b, LIST("chunk: 0x7777", "- gap: \"01 02 03\"", "- gap: \"09 09\""), NULL);

	/* bit 31 on a data chunk, and missing on a container (legacy) */
	t_w3d_init(&b);
	t_w3d_begin(&b, W3D_CHUNK_HIERARCHY);
	t_w3d_begin(&b, W3D_CHUNK_HIERARCHY_HEADER);
	t_w3d_zeros(&b, 36);
	t_w3d_end_raw(&b, 36 | BIT31);
	t_w3d_end_raw(&b, H + 36);
	roundtrip_check(&b, LIST("container_bit: 1", "container_bit: 0"), NULL);

	/* a record shorter than its struct, an array with left-over bytes, a
	 * name with bytes after its NUL, a name without NUL, a non-ASCII
	 * texture name */
	t_w3d_init(&b);
	t_w3d_begin(&b, W3D_CHUNK_MESH);
	t_w3d_begin(&b, W3D_CHUNK_MESH_HEADER3);
	t_w3d_zeros(&b, 20);
	t_w3d_end(&b);
	t_w3d_begin(&b, W3D_CHUNK_VERTICES);
	t_w3d_vec3(&b, 1, 2, 3);
	t_w3d_bytes(&b, "\xAA\xBB", 2);
	t_w3d_end(&b);
	t_w3d_begin(&b, W3D_CHUNK_TEXTURES);
	t_w3d_begin(&b, W3D_CHUNK_TEXTURE);
	t_w3d_chunk(&b, W3D_CHUNK_TEXTURE_NAME, "caf\xe9.tga\0", 9);
	t_w3d_end(&b);
	t_w3d_end(&b);
	t_w3d_end(&b);
	t_w3d_begin(&b, W3D_CHUNK_HIERARCHY);
	t_w3d_begin(&b, W3D_CHUNK_HIERARCHY_HEADER);
	t_w3d_u32(&b, 0x00040001);
	t_w3d_bytes(&b, "ABC\0GARBAGE\0\0\0\0\0", 16);
	t_w3d_u32(&b, 0);
	t_w3d_vec3(&b, 0, 0, 0);
	t_w3d_end(&b);
	t_w3d_begin(&b, W3D_CHUNK_PIVOTS);
	t_w3d_bytes(&b, "SIXTEEN_CHARS_XX", 16);
	t_w3d_zeros(&b, 44);
	t_w3d_end(&b);
	t_w3d_end(&b);
	roundtrip_check(&b,
			LIST("tail: \"aa bb\"", "Name: !hex \"41 42 43 00 47",
			     "Name: \"SIXTEEN_CHARS_XX\""),
			NULL);
}
END_TEST

/* RotWK shapes (the reader's container-size-too-small and
 * container-size-at-eof cases): an HLOD whose size is 2 sub-objects too
 * small, followed by a hierarchy; an HLOD whose size runs past the end. */
static void rotwk_hlod(wb *b, int subs, int64_t delta)
{
	size_t at;
	t_w3d_begin_header(b, W3D_CHUNK_HLOD, W3D_CHUNK_HLOD_HEADER, &at, 0x00010000, 1, "TANK", "TANK_SKL");
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_HLOD_LOD_ARRAY);
	t_w3d_hlod_array_header(b, (uint32_t)subs, 0);
	for (int i = 0; i < subs; i++)
		t_w3d_hlod_sub_object(b, (uint32_t)i, "TANK.PART");
	t_w3d_end(b);
	t_w3d_end(b);
	uint32_t size = wl_le32(b->data + at + 4) & ~BIT31;
	t_w3d_patch_u32(b, at + 4, (uint32_t)((int64_t)size + delta) | BIT31);
}

START_TEST(rotwk_roundtrip)
{
	wb b;
	t_w3d_init(&b);
	rotwk_hlod(&b, 7, -2 * (int64_t)(H + 36));
	t_w3d_begin(&b, W3D_CHUNK_HIERARCHY);
	t_w3d_begin(&b, W3D_CHUNK_HIERARCHY_HEADER);
	t_w3d_zeros(&b, 36);
	t_w3d_end(&b);
	t_w3d_end(&b);
	wl_doc *d = t_read(b.data, b.len);
	ck_assert_uint_eq(t_count(d, "container-size-too-small"), 1);
	t_free(d);
	char *text = roundtrip(b.data, b.len);
	ck_assert_ptr_nonnull(strstr(text, "extended"));
	free(text);
	t_w3d_free(&b);

	t_w3d_init(&b);
	rotwk_hlod(&b, 8, 924);
	d = t_read(b.data, b.len);
	ck_assert_uint_eq(t_count(d, "container-size-at-eof"), 1); /* nothing follows */
	t_free(d);
	text = roundtrip(b.data, b.len);
	char pin[64];
	snprintf(pin, sizeof pin, "size: %u", (unsigned)(wl_le32(b.data + 4) & ~BIT31));
	ck_assert_msg(strstr(text, pin) != NULL, "no '%s' in\n%.1500s", pin, text);
	free(text);
	t_w3d_free(&b);
}
END_TEST

/* Random bytes, resync garbage and bit-flipped models: always lossless. */
START_TEST(random_roundtrip)
{
	srand(4242);
	uint8_t buf[512];
	for (int r = 0; r < 300; r++) {
		size_t n = (size_t)(rand() % (int)sizeof buf);
		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)(rand() % 4 ? rand() % 8 : rand());
		roundtrip_free(buf, n);
	}
	wb b;
	t_w3d_init(&b);
	build_model(&b);
	uint8_t *m = malloc(b.len);
	ck_assert_ptr_nonnull(m);
	for (int r = 0; r < 600; r++) {
		memcpy(m, b.data, b.len);
		for (int k = 0; k < 4; k++) {
			size_t at = (size_t)rand() % b.len;
			m[at] ^= (uint8_t)(1u << (rand() % 8));
		}
		roundtrip_free(m, b.len);
	}
	free(m);
	t_w3d_free(&b);
}
END_TEST

START_TEST(float_edges)
{
	static const uint32_t bits[] = {
		0x80000000u, /* -0 */
		0x7FC00001u, /* quiet NaN with a payload */
		0x7F800001u, /* signalling NaN */
		0xFFC00000u, /* negative NaN */
		0x7F800000u, /* +inf */
		0xFF800000u, /* -inf */
		0x00000001u, /* smallest denormal */
		0x007FFFFFu, /* largest denormal */
		0x7F7FFFFFu, /* FLT_MAX */
		0x3DCCCCCDu, /* 0.1f */
		0x3F800001u, /* 1 + ulp */
		0x00000000u,
	};
	const size_t n = sizeof bits / sizeof bits[0];
	wb b;
	t_w3d_init(&b);
	t_w3d_begin(&b, W3D_CHUNK_MESH);
	t_w3d_begin(&b, W3D_CHUNK_VERTICES);
	for (size_t i = 0; i < n; i++)
		t_w3d_u32(&b, bits[i]);
	t_w3d_end(&b);
	t_w3d_end(&b);
	char *text = roundtrip(b.data, b.len);
	ck_assert_ptr_nonnull(strstr(text, "!f32bits 0x7FC00001"));
	ck_assert_ptr_nonnull(strstr(text, "!f32bits 0xFF800000"));
	ck_assert_ptr_nonnull(strstr(text, "[-0, "));
	ck_assert_ptr_nonnull(strstr(text, "0.1, ")); /* shortest form */
	/* Only the non-finite values need !f32bits: every finite float
	 * (denormals, FLT_MAX, 1 + ulp) is a decimal that reads back exactly. */
	size_t nonfinite = 0, tagged = 0;
	for (size_t i = 0; i < n; i++) {
		float x;
		memcpy(&x, &bits[i], sizeof x);
		nonfinite += isfinite(x) ? 0u : 1u;
	}
	for (const char *p = text; (p = strstr(p, "!f32bits")); p++)
		tagged++;
	ck_assert_uint_eq(tagged, nonfinite);
	free(text);
	t_w3d_free(&b);

	/* Hand-written forms: .inf, -.inf, .nan, exponents. */
	wl_tf_bytes out = assemble_ok("chunks:\n"
				      "  - chunk: POINTS\n"
				      "    items: [[.inf, -.inf, .nan], [1e-3, -2.5E+2, !f32bits 0x1]]\n");
	ck_assert_uint_eq(out.len, H + 24);
	float f = wl_lef32(out.data + H);
	ck_assert(isinf(f) && f > 0);
	ck_assert(isinf(wl_lef32(out.data + H + 4)) && wl_lef32(out.data + H + 4) < 0);
	ck_assert(isnan(wl_lef32(out.data + H + 8)));
	ck_assert(wl_lef32(out.data + H + 12) == 1e-3f);
	ck_assert(wl_lef32(out.data + H + 16) == -250.0f);
	ck_assert_uint_eq(wl_le32(out.data + H + 20), 1);
	free(out.data);
}
END_TEST

/* A hand-written hierarchy: sizes and container bits computed, fields left
 * out are zero; equals the same model built with w3dbuild.h. */
START_TEST(hand_written)
{
	const char *text = "# a two-bone skeleton\n"
			   "w3d-text: 1\n"
			   "chunks:\n"
			   "  - chunk: HIERARCHY\n"
			   "    children:\n"
			   "      - chunk: HIERARCHY_HEADER\n"
			   "        Version: 0x00040001\n"
			   "        Name: \"SKL\"\n"
			   "        NumPivots: 2\n"
			   "      - chunk: PIVOTS\n"
			   "        items:\n"
			   "          - {Name: \"ROOTTRANSFORM\", ParentIdx: -1, Rotation: [0, 0, 0, 1]}\n"
			   "          - Name: BONE\n"
			   "            ParentIdx: 0\n"
			   "            Translation: [0, 1.5, 0]\n"
			   "            Rotation: [0, 0, 0, 1]\n"
			   "  - chunk: W3D_CHUNK_BOX\n"
			   "    Name: \"SKL.BOX\"\n"
			   "    Extent: [1, 2, 3]\n"
			   "  - chunk: DAZZLE\n"
			   "    children:\n"
			   "      - chunk: DAZZLE_NAME\n"
			   "        string: \"SKL.LIGHT\"\n"
			   "  - gap: \"de ad\"\n";
	wb b;
	t_w3d_init(&b);
	t_w3d_begin(&b, W3D_CHUNK_HIERARCHY);
	t_w3d_hierarchy_header(&b, "SKL", 2);
	t_w3d_begin(&b, W3D_CHUNK_PIVOTS);
	t_w3d_name(&b, "ROOTTRANSFORM", 16);
	t_w3d_u32(&b, 0xFFFFFFFFu);
	t_w3d_zeros(&b, 24 + 12);
	t_w3d_f32(&b, 1);
	t_w3d_name(&b, "BONE", 16);
	t_w3d_u32(&b, 0);
	t_w3d_vec3(&b, 0, 1.5f, 0);
	t_w3d_zeros(&b, 12 + 12);
	t_w3d_f32(&b, 1);
	t_w3d_end(&b);
	t_w3d_end(&b);
	t_w3d_begin(&b, W3D_CHUNK_BOX);
	t_w3d_zeros(&b, 8);
	t_w3d_name(&b, "SKL.BOX", 32);
	t_w3d_zeros(&b, 4 + 12);
	t_w3d_vec3(&b, 1, 2, 3);
	t_w3d_end(&b);
	t_w3d_begin(&b, 0x0900);
	t_w3d_chunk(&b, 0x0901, "SKL.LIGHT\0", 10);
	t_w3d_end(&b);
	t_w3d_bytes(&b, "\xde\xad", 2);
	wl_tf_bytes out = assemble_ok(text);
	ck_assert_uint_eq(out.len, b.len);
	ck_assert_int_eq(memcmp(out.data, b.data, b.len), 0);
	/* The computed header: HIERARCHY's payload, bit 31 set (it has chunks). */
	ck_assert_uint_eq(wl_le32(out.data + 4), (uint32_t)(H + 36 + H + 120) | BIT31);
	free(out.data);
	t_w3d_free(&b);
}
END_TEST

/* size: and container_bit: pin the size field exactly, so broken files can
 * be written on purpose; the reader then sees the damage. */
START_TEST(pinned_size)
{
	const char *text = "chunks:\n"
			   "  - chunk: MESH\n"
			   "    size: 200\n"
			   "    children:\n"
			   "      - chunk: MATERIAL_INFO\n"
			   "        container_bit: 1\n"
			   "        PassCount: 1\n";
	wl_tf_bytes out = assemble_ok(text);
	ck_assert_uint_eq(out.len, H + H + 16);
	ck_assert_uint_eq(wl_le32(out.data + 4), 200u | BIT31);
	ck_assert_uint_eq(wl_le32(out.data + H + 4), 16u | BIT31);
	ck_assert_uint_eq(wl_le32(out.data + H + H), 1);
	wl_doc *d = t_read(out.data, out.len);
	ck_assert_uint_eq(t_count(d, "container-size-at-eof") + t_count(d, "chunk-truncated"), 1);
	ck_assert_uint_eq(t_count(d, "container-bit-on-leaf"), 1);
	t_free(d);
	free(out.data);

	/* Near miss: a pin equal to the computed size changes nothing, and
	 * container_bit: 0 clears the bit a container would get. */
	out = assemble_ok("chunks:\n"
			  "  - chunk: MESH\n"
			  "    size: 24\n"
			  "    container_bit: 0\n"
			  "    children:\n"
			  "      - chunk: MATERIAL_INFO\n"
			  "        PassCount: 1\n");
	ck_assert_uint_eq(wl_le32(out.data + 4), 24u);
	d = t_read(out.data, out.len);
	ck_assert_uint_eq(t_count(d, "container-size-at-eof") + t_count(d, "chunk-size-past-eof") +
				  t_count(d, "chunk-truncated"),
			  0);
	t_free(d);
	free(out.data);
}
END_TEST

START_TEST(assembler_errors)
{
	expect_error("chunks:\n"
		     "  - chunk: MESH\n"
		     "    children:\n"
		     "      - chunk: MESH_HEADER3\n"
		     "        NumVerts: 4\n",
		     "NumVerts", "unknown field 'NumVerts' in MESH_HEADER3");
	expect_error("chunks:\n  - chunk: MESHY\n", "MESHY", "unknown chunk name 'MESHY'");
	expect_error("chunks:\n  - chunk: BOX\n    Color: [1, 2, 300, 0]\n", "300", "out of range");
	expect_error("chunks:\n  - chunk: BOX\n    Center: [1, 2]\n", "[1, 2]", "expected 3 values, got 2");
	expect_error("chunks:\n  - chunk: HLOD_HEADER\n    Name: \"SEVENTEEN_CHARS_X\"\n",
		     "\"SEVENTEEN", "the field holds 16");
	expect_error("chunks:\n  - gap: \"0g\"\n", "\"0g\"", "not a hex digit");
	expect_error("chunks:\n  - gap: \"012\"\n", "\"012\"", "odd number of hex digits");
	expect_error("chunks:\n  - chunk: BOX\n    Extent: [1, 2, abc]\n", "abc", "expected a number");
	expect_error("chunks:\n  - chunk: 0x99\n    hex: \"00\"\n    string: \"a\"\n", "chunk: 0x99",
		     "only one of");
	expect_error("chunks:\n  - chunk: BOX\n    size: -1\n", "-1", "out of range");
	expect_error("w3d-text: 2\nchunks: []\n", "2\n", "not supported");
	expect_error("chunkz: []\n", "chunkz", "unknown key 'chunkz'");
	expect_error("chunks:\n  - chunk: PIVOTS\n    items:\n      - {Nam: \"X\"}\n", "Nam",
		     "unknown field 'Nam'");

	/* libyaml's own errors keep the file:line:column: form. */
	const char *bad = "chunks:\n  - {chunk: MESH, children: [ {chunk: VERTICES, items: [[0, 0\n";
	char err[512] = "";
	wl_tf_bytes out;
	ck_assert_int_eq(wl_tf_assemble("t.txt", bad, strlen(bad), &out, err, sizeof err), -1);
	unsigned line = 0, col = 0;
	ck_assert_msg(sscanf(err, "t.txt:%u:%u: malformed YAML", &line, &col) == 2, "%s", err);
	ck_assert(line >= 1 && line <= 3 && col >= 1);
}
END_TEST

/* Mutated texts (random characters replaced, lines cut) never crash the
 * assembler: they assemble, or fail with a positioned error. */
START_TEST(assembler_robust)
{
	wb b;
	t_w3d_init(&b);
	build_model(&b);
	char *text = dump_text(b.data, b.len);
	size_t n = strlen(text);
	char *m = malloc(n + 1);
	ck_assert_ptr_nonnull(m);
	static const char alphabet[] = " -:[]{},#!\"'\n0123456789xabcdef.|>&*%@";
	srand(777);
	int ok = 0, failed = 0;
	for (int r = 0; r < 400; r++) {
		memcpy(m, text, n + 1);
		size_t len = n;
		if (r % 5 == 4)
			len = (size_t)rand() % n; /* cut */
		for (int k = 0; k < 1 + r % 4; k++)
			m[(size_t)rand() % n] = alphabet[(size_t)rand() % (sizeof alphabet - 1)];
		char err[512] = "";
		wl_tf_bytes out;
		if (wl_tf_assemble("t.txt", m, len, &out, err, sizeof err) == 0) {
			ok++;
			free(out.data);
		} else {
			failed++;
			unsigned line, col;
			ck_assert_msg(sscanf(err, "t.txt:%u:%u: ", &line, &col) == 2, "%s", err);
			ck_assert_ptr_null(out.data);
		}
	}
	/* Both outcomes happen (the mutations are neither all harmless nor all
	 * fatal). */
	ck_assert_int_gt(ok, 0);
	ck_assert_int_gt(failed, 0);
	free(m);
	free(text);
	t_w3d_free(&b);
}
END_TEST

/* --------------------------------------- emitter, aggregate, compressed */

/* The payload of one chunk, built with w3dbuild.h (free with t_w3d_free). */
typedef struct payload {
	uint32_t id;
	wb b;
} payload;

/* The emitter records, each a full struct (W3D_EMITTER_*_SIZE bytes)
 * plus what its counts govern. */
enum { E_USER, E_INFO, E_INFOV2, E_PROPS, E_LINE, E_ROT, E_FRAME, E_BLUR, E_EXTRA, E_COUNT };

static void emitter_payloads(payload e[E_COUNT])
{
	for (int i = 0; i < E_COUNT; i++)
		t_w3d_init(&e[i].b);
	e[E_USER].id = W3D_OBJ_CHUNK_EMITTER_USER_DATA;
	t_w3d_u32(&e[E_USER].b, 7);
	t_w3d_u32(&e[E_USER].b, 6);
	t_w3d_u32(&e[E_USER].b, 0);
	t_w3d_bytes(&e[E_USER].b, "hello\0", 6);

	e[E_INFO].id = W3D_OBJ_CHUNK_EMITTER_INFO;
	wb *b = &e[E_INFO].b;
	t_w3d_name(b, "spark.tga", 260);
	for (int i = 0; i < 10; i++)
		t_w3d_f32(b, 0.25f * (float)i);
	t_w3d_vec3(b, 0, 0, 1);
	t_w3d_vec3(b, 0, -9.5f, 0);
	t_w3d_u32(b, 0xFFFFFFFFu);
	t_w3d_u32(b, 0x00FF8040u);

	e[E_INFOV2].id = W3D_OBJ_CHUNK_EMITTER_INFOV2;
	b = &e[E_INFOV2].b;
	t_w3d_u32(b, 3);
	t_w3d_u32(b, 1); /* CreationVolume: solid sphere */
	t_w3d_vec3(b, 2, 0, 0);
	t_w3d_zeros(b, 16);
	t_w3d_u32(b, 0);
	t_w3d_vec3(b, 0.5f, 0.5f, 1);
	t_w3d_zeros(b, 16);
	t_w3d_f32(b, 1.5f);
	t_w3d_f32(b, 0);
	static const uint8_t sh[16] = { 3, 0, 0, 1, 0, 1, 0, 5, 1 };
	t_w3d_bytes(b, sh, sizeof sh);
	t_w3d_u32(b, 2);
	t_w3d_u32(b, 4);
	t_w3d_zeros(b, 24);

	e[E_PROPS].id = W3D_OBJ_CHUNK_EMITTER_PROPS;
	b = &e[E_PROPS].b;
	t_w3d_u32(b, 2);
	t_w3d_u32(b, 1);
	t_w3d_u32(b, 1);
	t_w3d_u32(b, 0x10203040u);
	t_w3d_f32(b, 0.125f);
	t_w3d_f32(b, 0);
	t_w3d_zeros(b, 16);
	t_w3d_f32(b, 0);
	t_w3d_u32(b, 0xFFFFFFFFu);
	t_w3d_f32(b, 0.5f);
	t_w3d_u32(b, 0x800000FFu);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, 1);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, 2.5f);

	e[E_LINE].id = W3D_OBJ_CHUNK_EMITTER_LINE_PROPERTIES;
	b = &e[E_LINE].b;
	t_w3d_u32(b, 0x01000009u);
	t_w3d_u32(b, 2);
	for (int i = 0; i < 5; i++)
		t_w3d_f32(b, (float)i + 0.5f);
	t_w3d_zeros(b, 36);

	e[E_ROT].id = W3D_OBJ_CHUNK_EMITTER_ROTATION_KEYFRAMES;
	b = &e[E_ROT].b;
	t_w3d_u32(b, 1);
	t_w3d_f32(b, 0.25f);
	t_w3d_f32(b, 0.75f);
	t_w3d_u32(b, 0);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, 1);
	t_w3d_f32(b, 2);

	e[E_FRAME].id = W3D_OBJ_CHUNK_EMITTER_FRAME_KEYFRAMES;
	b = &e[E_FRAME].b;
	t_w3d_u32(b, 0);
	t_w3d_f32(b, 0);
	t_w3d_zeros(b, 8);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, 3);

	e[E_BLUR].id = W3D_OBJ_CHUNK_EMITTER_BLUR_TIME_KEYFRAMES;
	b = &e[E_BLUR].b;
	t_w3d_u32(b, 0);
	t_w3d_f32(b, 0);
	t_w3d_u32(b, 0);
	t_w3d_f32(b, 0);
	t_w3d_f32(b, 0.0625f);

	e[E_EXTRA].id = W3D_OBJ_CHUNK_EMITTER_EXTRA_INFO;
	t_w3d_f32(&e[E_EXTRA].b, 1.5f);
	t_w3d_zeros(&e[E_EXTRA].b, 36);
}

static void free_payloads(payload e[E_COUNT])
{
	for (int i = 0; i < E_COUNT; i++)
		t_w3d_free(&e[i].b);
}

/* An EMITTER holding a header and the payloads e[0..n), the one at `cut`
 * (-1: none) with delta bytes removed (< 0) or 0xEE bytes added (> 0). */
static void build_emitter(wb *b, payload *e, int n, int cut, int delta)
{
	t_w3d_begin(b, W3D_OBJ_CHUNK_EMITTER);
	t_w3d_begin(b, W3D_OBJ_CHUNK_EMITTER_HEADER);
	t_w3d_u32(b, 0x00020000);
	t_w3d_name(b, "SPARKS", 16);
	t_w3d_end(b);
	for (int i = 0; i < n; i++) {
		size_t len = e[i].b.len;
		if (i != cut) {
			t_w3d_chunk(b, e[i].id, e[i].b.data, len);
			continue;
		}
		t_w3d_begin(b, e[i].id);
		t_w3d_bytes(b, e[i].b.data, delta < 0 ? len - (size_t)-delta : len);
		for (int k = 0; k < delta; k++)
			t_w3d_u8(b, 0xEE);
		t_w3d_end(b);
	}
	t_w3d_end(b);
}

/* The emitter tables have the sizes of objects.h and decode every record:
 * no hex, no tail, the values in the dump. */
START_TEST(emitter_fields)
{
	static const struct {
		const char *chunk;
		size_t size;
	} sizes[] = {
		{ "EMITTER_HEADER", W3D_EMITTER_HEADER_SIZE },
		{ "EMITTER_USER_DATA", W3D_EMITTER_USER_SIZE },
		{ "EMITTER_INFO", W3D_EMITTER_INFO_SIZE },
		{ "EMITTER_INFOV2", W3D_EMITTER_INFOV2_SIZE },
		{ "EMITTER_PROPS", W3D_EMITTER_PROPS_SIZE },
		{ "EMITTER_LINE_PROPERTIES", W3D_EMITTER_LINE_SIZE },
		{ "EMITTER_ROTATION_KEYFRAMES", W3D_EMITTER_ROT_HEADER_SIZE },
		{ "EMITTER_FRAME_KEYFRAMES", W3D_EMITTER_FRAME_HEADER_SIZE },
		{ "EMITTER_BLUR_TIME_KEYFRAMES", W3D_EMITTER_BLUR_HEADER_SIZE },
		{ "EMITTER_EXTRA_INFO", W3D_EMITTER_EXTRA_SIZE },
	};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		const wl_tf_struct *t = wl_tf_lookup(sizes[i].chunk);
		ck_assert_msg(t != NULL, "no table for %s", sizes[i].chunk);
		ck_assert_uint_eq(wl_tf_struct_size(t), sizes[i].size);
		for (size_t k = 0; k < t->part_count; k++)
			if (t->parts[k].kind == WL_TF_PART_ITEMS)
				ck_assert_uint_eq(wl_tf_struct_size(t->parts[k].elem), W3D_EMITTER_KEY_SIZE);
	}
	payload e[E_COUNT];
	emitter_payloads(e);
	wb b;
	t_w3d_init(&b);
	build_emitter(&b, e, E_COUNT, -1, 0);
	static const char *const has[] = {
		"Type: 7\n",
		"SizeofStringParam: 6\n",
		"StringParam: \"hello\"\n",
		"TextureFilename: \"spark.tga\"\n",
		"Elasticity: 2.25\n",
		"Acceleration: [0, -9.5, 0]\n",
		"EndColor: [64, 128, 255, 0]\n",
		"BurstSize: 3\n",
		"CreationVolume:\n          ClassID: 1\n          Value1: 2\n",
		"VelRandom:\n          ClassID: 0\n          Value1: 0.5\n",
		"OutwardVel: 1.5\n",
		"Shader:\n          DepthCompare: 3\n",
		"SrcBlend: 5\n",
		"RenderMode: 2\n",
		"FrameMode: 4\n",
		"ColorKeyframes: 2\n",
		"ColorRandom: [64, 48, 32, 16]\n",
		"ColorKeys:\n          - {Time: 0, Color: [255, 255, 255, 255]}\n"
		"          - {Time: 0.5, Color: [255, 0, 0, 128]}\n",
		"OpacityKeys:\n          - {Time: 0, Opacity: 1}\n",
		"SizeKeys:\n          - {Time: 0, Size: 2.5}\n",
		"Flags: 0x01000009\n",
		"VPerSec: 4.5\n",
		"OrientationRandom: 0.75\n",
		"Keys:\n          - {Time: 0, Rotation: 0}\n          - {Time: 1, Rotation: 2}\n",
		"- {Time: 0, Frame: 3}\n",
		"- {Time: 0, BlurTime: 0.0625}\n",
		"FutureStartTime: 1.5\n",
		NULL
	};
	roundtrip_check(&b, has, LIST("hex", "tail:"));

	/* The text assembles by hand too: counts as written, parts in table
	 * order whatever the key order, left-out fields zero. */
	wl_tf_bytes out = assemble_ok("chunks:\n"
				      "  - chunk: EMITTER\n"
				      "    children:\n"
				      "      - chunk: EMITTER_PROPS\n"
				      "        SizeKeys: [{Time: 0, Size: 2.5}]\n"
				      "        ColorKeys:\n"
				      "          - {Time: 0, Color: [255, 255, 255, 255]}\n"
				      "          - {Time: 0.5, Color: [255, 0, 0, 128]}\n"
				      "        OpacityKeys: [{Opacity: 1}]\n"
				      "        ColorKeyframes: 2\n"
				      "        OpacityKeyframes: 1\n"
				      "        SizeKeyframes: 1\n"
				      "        ColorRandom: [64, 48, 32, 16]\n"
				      "        OpacityRandom: 0.125\n"
				      "      - chunk: EMITTER_USER_DATA\n"
				      "        Type: 7\n"
				      "        SizeofStringParam: 6\n"
				      "        StringParam: hello\n");
	wb want;
	t_w3d_init(&want);
	t_w3d_begin(&want, W3D_OBJ_CHUNK_EMITTER);
	t_w3d_chunk(&want, e[E_PROPS].id, e[E_PROPS].b.data, e[E_PROPS].b.len);
	t_w3d_chunk(&want, e[E_USER].id, e[E_USER].b.data, e[E_USER].b.len);
	t_w3d_end(&want);
	ck_assert_uint_eq(out.len, want.len);
	ck_assert_int_eq(memcmp(out.data, want.data, want.len), 0);
	free(out.data);
	t_w3d_free(&want);

	/* Errors name the part and the nested struct. */
	expect_error("chunks:\n  - chunk: EMITTER_PROPS\n    ColorKeys: {Time: 0}\n", "{Time",
		     "expected a sequence of items");
	expect_error("chunks:\n  - chunk: EMITTER_INFOV2\n    Shader: {Depth: 1}\n", "Depth",
		     "unknown field 'Depth' in Shader");
	expect_error("chunks:\n  - chunk: EMITTER_PROPS\n    hex: \"00\"\n    ColorKeys: []\n",
		     "chunk: EMITTER_PROPS", "only one of");
	free_payloads(e);
}
END_TEST

/* Near misses: every emitter record one byte short is hex, with bytes
 * over its parts has a tail, and counts larger than the bytes give the
 * keys present and a tail; all round-trip. */
/* Loop test, _i = each emitter record: one byte short of its fixed struct
 * it is hex; three bytes over, a tail after the fields and parts. */
START_TEST(emitter_record_near_miss)
{
	/* Fixed sizes of the records, in payload order. */
	static const size_t fixed[E_COUNT] = {
		W3D_EMITTER_USER_SIZE,       W3D_EMITTER_INFO_SIZE,        W3D_EMITTER_INFOV2_SIZE,
		W3D_EMITTER_PROPS_SIZE,      W3D_EMITTER_LINE_SIZE,        W3D_EMITTER_ROT_HEADER_SIZE,
		W3D_EMITTER_FRAME_HEADER_SIZE, W3D_EMITTER_BLUR_HEADER_SIZE, W3D_EMITTER_EXTRA_SIZE,
	};
	payload e[E_COUNT];
	emitter_payloads(e);
	wb b;
	t_w3d_init(&b);
	payload one = e[_i];
	one.b.len = fixed[_i];
	build_emitter(&b, &one, 1, 0, -1);
	roundtrip_check(&b, LIST("hex: "), NULL);
	t_w3d_init(&b);
	build_emitter(&b, &e[_i], 1, 0, 3);
	roundtrip_check(&b, LIST("tail: \"ee ee ee\"\n"), LIST("hex:"));
	free_payloads(e);
}
END_TEST

/* Near misses: counts larger than the bytes give the keys present and a
 * tail; all round-trip. */
START_TEST(emitter_near_miss)
{
	payload e[E_COUNT];
	emitter_payloads(e);
	/* PROPS says 5 colour keys and holds 2 and 4 bytes: the 2 keys, then
	 * the rest (the opacity and size keys it names are not there) as tail. */
	wb b;
	t_w3d_init(&b);
	t_w3d_patch_u32(&e[E_PROPS].b, 0, 5);
	e[E_PROPS].b.len = W3D_EMITTER_PROPS_SIZE + 2 * W3D_EMITTER_KEY_SIZE + 4;
	build_emitter(&b, &e[E_PROPS], 1, -1, 0);
	roundtrip_check(&b,
			LIST("ColorKeyframes: 5\n",
			     "- {Time: 0.5, Color: [255, 0, 0, 128]}\n        tail: \"00 00 00 00\"\n"),
			LIST("OpacityKeys"));
	/* USER_DATA: a string that is not clean text is !hex; a size larger
	 * than the bytes gives what is there. */
	t_w3d_init(&b);
	t_w3d_free(&e[E_USER].b);
	t_w3d_init(&e[E_USER].b);
	t_w3d_u32(&e[E_USER].b, 0);
	t_w3d_u32(&e[E_USER].b, 40);
	t_w3d_u32(&e[E_USER].b, 0x00CCCC41u);
	t_w3d_bytes(&e[E_USER].b, "a\0b\xff", 4);
	build_emitter(&b, &e[E_USER], 1, -1, 0);
	roundtrip_check(&b, LIST("Pad: 13421633\n", "StringParam: !hex \"61 00 62 ff\"\n"), NULL);
	free_payloads(e);
}
END_TEST

/* An AGGREGATE: header, INFO with `subs` sub-objects of which `have` are
 * present (then `extra` 0xEE bytes), TEXTURE_REPLACER_INFO, CLASS_INFO
 * (`class_len` bytes of it). */
static void build_aggregate(wb *b, uint32_t subs, uint32_t have, size_t extra, size_t class_len)
{
	t_w3d_begin(b, W3D_OBJ_CHUNK_AGGREGATE);
	t_w3d_begin(b, W3D_OBJ_CHUNK_AGGREGATE_HEADER);
	t_w3d_u32(b, 0x00010000);
	t_w3d_name(b, "TANKAGG", 16);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_OBJ_CHUNK_AGGREGATE_INFO);
	t_w3d_name(b, "TANK", 32);
	t_w3d_u32(b, subs);
	for (uint32_t i = 0; i < have; i++) {
		t_w3d_name(b, i ? "TANK.GUN" : "TANK.HEAD", 32);
		if (i == 2)
			t_w3d_bytes(b, "BONE\0JUNK\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 32);
		else
			t_w3d_name(b, i ? "BONE_GUN" : "BONE_HEAD", 32);
	}
	for (size_t i = 0; i < extra; i++)
		t_w3d_u8(b, 0xEE);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_OBJ_CHUNK_TEXTURE_REPLACER_INFO);
	t_w3d_u32(b, 0);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_OBJ_CHUNK_AGGREGATE_CLASS_INFO);
	uint8_t ci[W3D_AGGREGATE_MISC_SIZE] = { 0x12, 0x34, 0, 0, 1 };
	t_w3d_bytes(b, ci, class_len);
	t_w3d_end(b);
	t_w3d_end(b);
}

START_TEST(aggregate_fields)
{
	ck_assert_uint_eq(wl_tf_struct_size(wl_tf_lookup("AGGREGATE_HEADER")), W3D_AGGREGATE_HEADER_SIZE);
	const wl_tf_struct *info = wl_tf_lookup("AGGREGATE_INFO");
	ck_assert_uint_eq(wl_tf_struct_size(info), W3D_AGGREGATE_INFO_SIZE);
	ck_assert_uint_eq(info->part_count, 1);
	ck_assert_uint_eq(wl_tf_struct_size(info->parts[0].elem), W3D_AGGREGATE_SUBOBJ_SIZE);
	ck_assert_uint_eq(wl_tf_struct_size(wl_tf_lookup("AGGREGATE_CLASS_INFO")), W3D_AGGREGATE_MISC_SIZE);
	wb b;
	t_w3d_init(&b);
	build_aggregate(&b, 2, 2, 0, W3D_AGGREGATE_MISC_SIZE);
	roundtrip_check(&b,
			LIST("BaseModelName: \"TANK\"\n        SubobjectCount: 2\n        Subobjects:\n"
			     "          - {SubobjectName: \"TANK.HEAD\", BoneName: \"BONE_HEAD\"}\n"
			     "          - {SubobjectName: \"TANK.GUN\", BoneName: \"BONE_GUN\"}\n",
			     "ReplacedTexturesCount: 0\n",
			     "OriginalClassID: 0x00003412\n        Flags: 0x00000001\n"),
			LIST("hex", "tail:"));

	/* The old form, sub-objects as tail hex, gives the same bytes. */
	const char *old = "chunks:\n"
			  "  - chunk: AGGREGATE_INFO\n"
			  "    BaseModelName: \"TANK\"\n"
			  "    SubobjectCount: 1\n"
			  "    tail: \"41 00\"\n";
	const char *now = "chunks:\n"
			  "  - chunk: AGGREGATE_INFO\n"
			  "    BaseModelName: \"TANK\"\n"
			  "    SubobjectCount: 1\n"
			  "    Subobjects: [{SubobjectName: A}]\n";
	wl_tf_bytes o1 = assemble_ok(old), o2 = assemble_ok(now);
	ck_assert_uint_eq(o1.len, H + 38);
	ck_assert_uint_eq(o2.len, H + 36 + 64);
	ck_assert_int_eq(memcmp(o1.data + H, o2.data + H, 38), 0);
	free(o1.data);
	free(o2.data);
}
END_TEST

/* Aggregate near misses: build_aggregate(subs, have, extra, class_len),
 * then the strings the text must hold. */
typedef struct aggregate_miss {
	const char *name;
	uint32_t subs, have;
	size_t extra, class_len;
	const char *has[4];
	int short_info;       /* instead: an INFO shorter than its 36 bytes */
	const char *lacks[2];
} aggregate_miss;

static const aggregate_miss aggregate_misses[] = {
	/* SubobjectCount 3, two sub-objects and 10 bytes: two items, a tail. */
	{ "count_over_bytes", 3, 2, 10, W3D_AGGREGATE_MISC_SIZE,
	  { "- {SubobjectName: \"TANK.GUN\", BoneName: \"BONE_GUN\"}\n        tail: " } },
	/* SubobjectCount 1 and two present: the second is tail. */
	{ "count_under_items", 1, 2, 0, W3D_AGGREGATE_MISC_SIZE,
	  { "BONE_HEAD\"}\n        tail: |\n" } },
	/* A bone name with bytes after its NUL is !hex inside the item; a
	 * CLASS_INFO one byte short is hex. */
	{ "bone_hex_class_short", 3, 3, 0, W3D_AGGREGATE_MISC_SIZE - 1,
	  { "BoneName: !hex \"42 4f 4e 45 00 4a", "chunk: AGGREGATE_CLASS_INFO  # @0x",
	    "hex: |\n          12 34 00 00 01 00 00 00" } },
	/* An INFO shorter than its 36 bytes is hex. */
	{ "short_info", .has = { "hex: |\n" }, .short_info = 1, .lacks = { "BaseModelName" } },
};

/* An AGGREGATE whose INFO holds a name and 2 bytes. */
static void build_short_info(wb *b)
{
	t_w3d_begin(b, W3D_OBJ_CHUNK_AGGREGATE);
	t_w3d_begin(b, W3D_OBJ_CHUNK_AGGREGATE_INFO);
	t_w3d_name(b, "TANK", 32);
	t_w3d_u16(b, 1);
	t_w3d_end(b);
	t_w3d_end(b);
}

START_TEST(aggregate_near_miss)
{
	const aggregate_miss *c = &aggregate_misses[_i];
	wb b;
	t_w3d_init(&b);
	if (c->short_info)
		build_short_info(&b);
	else
		build_aggregate(&b, c->subs, c->have, c->extra, c->class_len);
	roundtrip_check(&b, c->has, c->lacks);
}
END_TEST

/* A COMPRESSED_ANIMATION with a header of the given Flavor (no header when
 * flavor < 0, a short one when header_len < 44) and one 0x282 channel:
 * NumTimeCodes n, VectorLen vl, then `data` bytes of data. */
static void build_canim(wb *b, int flavor, size_t header_len, uint32_t n, uint8_t vl,
			const uint8_t *data, size_t len)
{
	t_w3d_begin(b, W3D_CHUNK_COMPRESSED_ANIMATION);
	if (flavor >= 0) {
		wb h;
		t_w3d_init(&h);
		t_w3d_u32(&h, 0x00040001);
		t_w3d_name(&h, "RUN", 16);
		t_w3d_name(&h, "SKL", 16);
		t_w3d_u32(&h, 32);
		t_w3d_u16(&h, 30);
		t_w3d_u16(&h, (uint16_t)flavor);
		t_w3d_chunk(b, W3D_CHUNK_COMPRESSED_ANIMATION_HEADER, h.data, header_len);
		t_w3d_free(&h);
	}
	t_w3d_begin(b, W3D_CHUNK_COMPRESSED_ANIMATION_CHANNEL);
	t_w3d_u32(b, n);
	t_w3d_u16(b, 1);
	t_w3d_u8(b, vl);
	t_w3d_u8(b, 6);
	t_w3d_bytes(b, data, len);
	t_w3d_end(b);
	t_w3d_end(b);
}

START_TEST(canim_fields)
{
	/* Time-coded: packets {TimeCode, Values[VectorLen]}. */
	wb d;
	t_w3d_init(&d);
	for (uint32_t k = 0; k < 3; k++) {
		t_w3d_u32(&d, k == 2 ? BIT31 | 5 : k * 2);
		t_w3d_f32(&d, 0);
		t_w3d_f32(&d, 0.5f * (float)k);
		t_w3d_f32(&d, 0);
		t_w3d_f32(&d, 1);
	}
	wb b;
	t_w3d_init(&b);
	build_canim(&b, W3D_ANIM_FLAVOR_TIMECODED, W3D_CANIM_HEADER_SIZE, 3, 4, d.data, d.len);
	roundtrip_check(&b,
			LIST("NumTimeCodes: 3\n        Pivot: 1\n        VectorLen: 4\n        Flags: 6\n"
			     "        Data:\n"
			     "          - {TimeCode: 0, Values: [0, 0, 0, 1]}\n"
			     "          - {TimeCode: 2, Values: [0, 0.5, 0, 1]}\n"
			     "          - {TimeCode: 2147483653, Values: [0, 1, 0, 1]}\n"),
			LIST("hex", "tail:"));
	/* The old hex Data gives the same bytes as the packets. */
	wl_tf_bytes o1 = assemble_ok("chunks:\n"
				     "  - chunk: COMPRESSED_ANIMATION_CHANNEL\n"
				     "    NumTimeCodes: 1\n"
				     "    VectorLen: 1\n"
				     "    Data: \"03 00 00 00 00 00 80 3f\"\n");
	wl_tf_bytes o2 = assemble_ok("chunks:\n"
				     "  - chunk: COMPRESSED_ANIMATION_CHANNEL\n"
				     "    NumTimeCodes: 1\n"
				     "    VectorLen: 1\n"
				     "    Data: [{TimeCode: 3, Values: [1]}]\n");
	ck_assert_uint_eq(o1.len, H + 16);
	ck_assert_uint_eq(o2.len, o1.len);
	ck_assert_int_eq(memcmp(o1.data, o2.data, o1.len), 0);
	free(o1.data);
	free(o2.data);

	/* Adaptive delta (flavors 1 and 2): Scale, InitialValues, Data hex. */
	for (int flavor = 1; flavor <= 2; flavor++) {
		t_w3d_free(&d);
		t_w3d_init(&d);
		t_w3d_f32(&d, 0.25f);
		t_w3d_f32(&d, 1);
		t_w3d_f32(&d, -2);
		for (int k = 0; k < 9 * 2 + 3; k++)
			t_w3d_u8(&d, (uint8_t)k);
		t_w3d_init(&b);
		build_canim(&b, flavor, W3D_CANIM_HEADER_SIZE, 16, 2, d.data, d.len);
		roundtrip_check(&b,
				LIST("Flags: 6\n        Scale: 0.25\n        InitialValues: [1, -2]\n"
				     "        Data: |\n          00 01 02"),
				LIST("tail:"));
	}
	ck_assert_uint_eq(wl_tf_struct_size(wl_tf_lookup("COMPRESSED_ANIMATION_CHANNEL")) + 4,
			  W3D_AD_CHANNEL_HEADER);
	t_w3d_free(&d);
}
END_TEST

/* Compressed channel near misses: build_canim(flavor, header_len, n, vl)
 * over the first len bytes of i * 7, then the strings the text must and
 * must not hold. */
typedef struct canim_miss {
	const char *name;
	int flavor;
	size_t header_len;
	uint32_t n;
	uint8_t vl;
	size_t len;
	const char *has[3], *lacks[2];
} canim_miss;

#define CH W3D_CANIM_HEADER_SIZE

static const canim_miss canim_misses[] = {
	/* Time-coded, NumTimeCodes 3 and VectorLen 1 but 2.5 packets: two
	 * packets, the half packet as tail. */
	{ "half_packet", 0, CH, 3, 1, 20,
	  { "Data:\n          - {TimeCode: ", "]}\n        tail: \"70 77 7e 85\"\n" } },
	/* NumTimeCodes 1 and two packets: the second is tail. */
	{ "extra_packet", 0, CH, 1, 1, 16, { "]}\n        tail: \"38 3f 46 4d 54 5b 62 69\"\n" } },
	/* Adaptive delta with 2 bytes after the header: no Scale, a tail. */
	{ "no_scale", 1, CH, 16, 1, 2, { "tail: \"00 07\"\n" }, { "Scale:" } },
	/* Adaptive delta with Scale and half the initial values: Scale, tail. */
	{ "half_initial", 2, CH, 16, 2, 6, { "Scale: ", "tail: \"1c 23\"\n" }, { "InitialValues" } },
	/* Flavor unknown (3), header short or missing: Data is hex. */
	{ "flavor_unknown", 3, CH, 2, 1, 16, { "Data: \"00 07 0e 15" }, { "{TimeCode" } },
	{ "header_short", 0, CH - 1, 2, 1, 16, { "Data: \"00 07 0e 15" }, { "{TimeCode" } },
	{ "header_missing", -1, CH, 2, 1, 16, { "Data: \"00 07 0e 15" }, { "{TimeCode" } },
	/* A channel of only its 8-byte header has no Data key. */
	{ "header_only", 0, CH, 0, 1, 0, { NULL }, { "Data" } },
};

START_TEST(canim_near_miss)
{
	const canim_miss *c = &canim_misses[_i];
	uint8_t data[40];
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i * 7);
	wb b;
	t_w3d_init(&b);
	build_canim(&b, c->flavor, c->header_len, c->n, c->vl, data, c->len);
	roundtrip_check(&b, c->has, c->lacks);
}
END_TEST

/* Emitters, aggregates and compressed channels of every flavor with
 * random bits flipped (counts, flavors, sizes) and cut short: lossless. */
START_TEST(objects_mutated_roundtrip)
{
	payload e[E_COUNT];
	emitter_payloads(e);
	wb b;
	t_w3d_init(&b);
	build_emitter(&b, e, E_COUNT, -1, 0);
	build_aggregate(&b, 2, 2, 0, W3D_AGGREGATE_MISC_SIZE);
	uint8_t data[64];
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i % 5 ? 0 : i);
	for (int flavor = 0; flavor < 3; flavor++)
		build_canim(&b, flavor, W3D_CANIM_HEADER_SIZE, 3, 2, data, sizeof data);
	uint8_t *m = malloc(b.len);
	ck_assert_ptr_nonnull(m);
	srand(99);
	for (int r = 0; r < 400; r++) {
		memcpy(m, b.data, b.len);
		for (int k = 0; k < 1 + r % 6; k++) {
			size_t at = (size_t)rand() % b.len;
			m[at] ^= (uint8_t)(r % 3 ? 1u << (rand() % 8) : 0xFF);
		}
		roundtrip_free(m, r % 4 == 3 ? (size_t)rand() % b.len : b.len);
	}
	free(m);
	t_w3d_free(&b);
	free_payloads(e);
}
END_TEST

Suite *textform_suite(void)
{
	const TTest *tests[] = {
		tables_match_schema, valid_model_roundtrip, truncated_roundtrip, malformed_roundtrip,
		rotwk_roundtrip, random_roundtrip, float_edges, hand_written, pinned_size,
		assembler_errors, assembler_robust, emitter_fields, emitter_near_miss, aggregate_fields,
		canim_fields, objects_mutated_roundtrip, NULL
	};
	Suite *s = suite_create("textform");
	TCase *tc = t_robust_add_tests(s, "textform", 120, tests);
	tcase_add_loop_test(tc, emitter_record_near_miss, 0, E_COUNT);
	tcase_add_loop_test(tc, aggregate_near_miss, 0,
			    (int)(sizeof aggregate_misses / sizeof aggregate_misses[0]));
	tcase_add_loop_test(tc, canim_near_miss, 0, (int)(sizeof canim_misses / sizeof canim_misses[0]));
	return s;
}
