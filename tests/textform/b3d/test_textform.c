/*
 * tests/textform/b3d/test_textform.c - the B3D text form (textform/b3d/, docs/textform.md
 * §B3D): every record kind is written with its named fields and assembles
 * back to the same bytes; what does not decode exactly (unterminated names,
 * invalid layouts, slack bytes, unknown chunks, truncation) falls back to
 * hex, tail or a pinned size and still round-trips; an edited value and a
 * hand-written text assemble to bytes built with tests/build/b3dbuild.h; the
 * assembler's B3D errors name line and column.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"
#include "textform/textform.h"
#include "tests/build/b3dbuild.h"
#include "tests/build/reader_util.h"

extern Suite *textform_b3d_suite(void);

/* The text form of b's bytes, read as B3D (malloc'd). */
static char *b3d_text(const wb *b)
{
	return t_text(wl_format_find("b3d"), b->data, b->len, "test.b3d");
}

/* n floats. */
static void f32s(wb *b, const float *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		t_w3d_f32(b, v[i]);
}

/* Dumps b, checks the dump assembles to b's bytes and holds every string of
 * the NULL-terminated list has; frees b. */
static void b3d_roundtrip(wb *b, const char *const *has)
{
	char *text = b3d_text(b);
	t_assembles_to(text, b->data, b->len);
	for (size_t i = 0; has[i]; i++)
		ck_assert_msg(strstr(text, has[i]) != NULL, "no '%s' in\n%.3000s", has[i], text);
	free(text);
	t_w3d_free(b);
}

#define HAS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Asserts that text fails to assemble with "t.txt:LINE:COL: message",
 * where LINE:COL is the first occurrence of `at` in text. */
static void fails_at(const char *text, const char *at, const char *message)
{
	const char *p = strstr(text, at);
	ck_assert_ptr_nonnull(p);
	unsigned line = 1, col = 1;
	for (const char *q = text; q < p; q++, col++)
		if (*q == '\n') {
			line++;
			col = 0;
		}
	char want[256];
	snprintf(want, sizeof want, "t.txt:%u:%u: %s", line, col, message);
	char err[512] = "";
	wl_tf_bytes out;
	ck_assert_int_eq(wl_tf_assemble("t.txt", text, strlen(text), &out, err, sizeof err), -1);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "error '%s', expected '%s'", err, want);
	ck_assert_ptr_null(out.data);
}

/* A BB3D holding whatever the test writes (close with t_b3d_end). */
static void bb3d(wb *b)
{
	t_w3d_init(b);
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
}

/* BB3D, NODE "n", MESH brush 0: where VRTS and TRIS are known (close with
 * three t_b3d_end). */
static void in_mesh(wb *b)
{
	bb3d(b);
	t_b3d_node_begin(b, "n", t_b3d_identity);
	t_b3d_begin(b, "MESH");
	t_w3d_u32(b, 0);
}

static void end3(wb *b)
{
	t_b3d_end(b);
	t_b3d_end(b);
	t_b3d_end(b);
}

/* ---------------------------------------------------------- record kinds */

START_TEST(test_static_mesh_fields)
{
	wb b;
	t_w3d_init(&b);
	t_b3d_quad_model(&b, NULL, NULL);
	b3d_roundtrip(&b, HAS("b3d-text: 1\n", "  - chunk: BB3D", "    version: 1\n",
			      "name: \"root\"\n", "scale: [1, 1, 1]\n", "rotation: [1, 0, 0, 0]\n",
			      "      - chunk: MESH", "brush_id: -1\n", "tex_coord_sets: 0\n",
			      "- {position: [1, 1, 0]}\n", "triangles:\n", "- [0, 2, 3]\n"));
}
END_TEST

START_TEST(test_texs_brus_entries)
{
	wb b;
	bb3d(&b);
	t_b3d_begin(&b, "TEXS");
	t_b3d_str(&b, "skin.png");
	t_w3d_u32(&b, 1);
	t_w3d_u32(&b, 2);
	const float tex[] = { 0.5f, 0, 2, 1, 0.25f };
	f32s(&b, tex, 5);
	t_b3d_end(&b);
	t_b3d_begin(&b, "BRUS");
	t_w3d_u32(&b, 2);
	t_b3d_str(&b, "metal");
	const float brus[] = { 1, 0.5f, 0, 1, 0.75f };
	f32s(&b, brus, 5);
	t_w3d_u32(&b, 1);
	t_w3d_u32(&b, 8);
	t_w3d_u32(&b, 0);
	t_w3d_u32(&b, (uint32_t)-1);
	t_b3d_end(&b);
	t_b3d_end(&b);
	b3d_roundtrip(&b, HAS("- {file: \"skin.png\", flags: 1, blend: 2, position: [0.5, 0], "
			      "scale: [2, 1], rotation: 0.25}\n",
			      "n_texs: 2\n",
			      "- {name: \"metal\", color: [1, 0.5, 0, 1], shininess: 0.75, blend: 1, "
			      "fx: 8, textures: [0, -1]}\n"));
}
END_TEST

START_TEST(test_vertex_keys_follow_flags)
{
	/* Normals, colours and two sets of two tex coords. */
	const float v[] = { 1, 2, 3, 0, 1, 0, 1, 0.5f, 0.25f, 1, 0.1f, 0.2f, 0.3f, 0.4f };
	wb b;
	in_mesh(&b);
	t_b3d_vrts(&b, 3, 2, 2, v, 1);
	end3(&b);
	b3d_roundtrip(&b, HAS("flags: 3\n", "tex_coord_sets: 2\n", "tex_coord_set_size: 2\n",
			      "- {position: [1, 2, 3], normal: [0, 1, 0], color: [1, 0.5, 0.25, 1], "
			      "tex_coords: [0.1, 0.2, 0.3, 0.4]}\n"));
}
END_TEST

START_TEST(test_bone_keys_anim)
{
	const int32_t vid[] = { 0, 3 };
	const float w[] = { 1, 0.5f };
	wb b;
	bb3d(&b);
	t_b3d_node_begin(&b, "arm", t_b3d_identity);
	t_b3d_bone(&b, vid, w, 2);
	t_b3d_begin(&b, "KEYS");
	t_w3d_u32(&b, 7);
	t_w3d_u32(&b, 4);
	const float key[] = { 1, 2, 3, 1, 1, 1, 1, 0, 0, 0 };
	f32s(&b, key, 10);
	t_b3d_end(&b);
	t_b3d_begin(&b, "KEYS");
	t_w3d_u32(&b, 4); /* rotation only */
	t_w3d_u32(&b, 9);
	f32s(&b, key + 6, 4);
	t_b3d_end(&b);
	t_b3d_anim(&b, 0, 30, 24);
	t_b3d_end(&b);
	t_b3d_end(&b);
	b3d_roundtrip(&b, HAS("weights:\n", "- [0, 1]\n", "- [3, 0.5]\n", "flags: 7\n",
			      "- {frame: 4, position: [1, 2, 3], scale: [1, 1, 1], "
			      "rotation: [1, 0, 0, 0]}\n",
			      "- {frame: 9, rotation: [1, 0, 0, 0]}\n", "frames: 30\n", "fps: 24\n"));
}
END_TEST

/* ------------------------------------------------- malformed: fallbacks */

START_TEST(test_malformed_falls_back)
{
	wb b;
	bb3d(&b);
	/* A TEXS name with no NUL: not an entry, the whole payload is hex. */
	t_b3d_begin(&b, "TEXS");
	t_w3d_bytes(&b, "abc", 3);
	t_b3d_end(&b);
	/* An unknown chunk (an SEQS of some exporters): hex under its id. */
	t_b3d_begin(&b, "SEQS");
	t_w3d_u32(&b, 5);
	t_b3d_end(&b);
	/* A NODE whose name runs to the end: its fields are hex. */
	t_b3d_begin(&b, "NODE");
	t_w3d_bytes(&b, "xy", 2);
	t_b3d_end(&b);
	t_b3d_node_begin(&b, "n", t_b3d_identity);
	t_b3d_begin(&b, "MESH");
	t_w3d_u32(&b, 0);
	/* VRTS with a negative tex_coord_sets: no vertices, the rest is tail. */
	t_b3d_begin(&b, "VRTS");
	t_w3d_u32(&b, 0);
	t_w3d_u32(&b, (uint32_t)-1);
	t_w3d_u32(&b, 2);
	t_w3d_u32(&b, 0xAABBCCDDu);
	t_b3d_end(&b);
	/* TRIS with 2 slack bytes after a whole triangle. */
	t_b3d_begin(&b, "TRIS");
	for (uint32_t i = 0; i < 4; i++)
		t_w3d_u32(&b, i);
	t_w3d_bytes(&b, "\x01\x02", 2);
	t_b3d_end(&b);
	end3(&b);
	b3d_roundtrip(&b, HAS("- chunk: TEXS  # @0xC\n        hex: \"61 62 63\"\n",
			      "- chunk: 0x53514553  # SEQS @", "fields: \"78 79\"\n",
			      "tex_coord_sets: -1\n                tex_coord_set_size: 2\n"
			      "                tail: \"dd cc bb aa\"\n",
			      "- [1, 2, 3]\n                tail: \"01 02\"\n"));
}
END_TEST

START_TEST(test_wrong_lengths_are_pinned)
{
	/* A negative length (the reader takes its uint32 value, far past the
	 * end) is pinned as its int32 value; a length cut by the end of the
	 * file as the number. */
	wb b;
	bb3d(&b);
	t_b3d_node_begin(&b, "n", t_b3d_identity);
	t_b3d_begin(&b, "ANIM");
	t_w3d_u32(&b, 0);
	t_w3d_u32(&b, 10);
	t_w3d_f32(&b, 30);
	t_w3d_end_raw(&b, 0xFFFFFFFFu);
	t_b3d_end(&b);
	t_b3d_end(&b);
	char *text = b3d_text(&b);
	ck_assert_msg(strstr(text, "size: -1  #") != NULL, "%s", text);
	t_assembles_to(text, b.data, b.len);
	free(text);
	b.len -= 3; /* BB3D's declared length now runs past the end */
	b3d_roundtrip(&b, HAS("size: "));
}
END_TEST

/* -------------------------------------------- edits and hand-written text */

START_TEST(test_edited_value_assembles)
{
	wb b;
	t_w3d_init(&b);
	t_b3d_quad_model(&b, NULL, NULL);
	char *text = b3d_text(&b);
	/* The second "brush_id: -1" is the TRIS's (the first the MESH's). */
	char *tris = strstr(strstr(text, "brush_id: -1") + 1, "brush_id: -1");
	ck_assert_ptr_nonnull(tris);
	memcpy(tris, "brush_id:  7", 12);
	/* The same model with TRIS brush_id 7 (after the TRIS header). */
	wb want;
	t_w3d_init(&want);
	size_t tris_at;
	t_b3d_quad_model(&want, NULL, &tris_at);
	const uint8_t seven[4] = { 7, 0, 0, 0 };
	memcpy(want.data + tris_at + 8, seven, 4);
	t_assembles_to(text, want.data, want.len);
	free(text);
	t_w3d_free(&want);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_hand_written_lengths_and_defaults)
{
	/* No lengths anywhere; NODE scale and rotation left out (identity). */
	const char *text = "b3d-text: 1\n"
			   "chunks:\n"
			   "  - chunk: BB3D\n"
			   "    version: 1\n"
			   "    children:\n"
			   "      - chunk: NODE\n"
			   "        name: \"root\"\n"
			   "        children:\n"
			   "          - chunk: ANIM\n"
			   "            frames: 12\n"
			   "            fps: 25\n";
	wb want;
	bb3d(&want);
	t_b3d_node_begin(&want, "root", t_b3d_identity);
	t_b3d_anim(&want, 0, 12, 25);
	t_b3d_end(&want);
	t_b3d_end(&want);
	t_assembles_to(text, want.data, want.len);
	t_w3d_free(&want);
}
END_TEST

START_TEST(test_unknown_tag_by_name)
{
	/* By hand, an unknown tag is accepted as itself: its bytes are the id. */
	const char *text = "b3d-text: 1\n"
			   "chunks:\n"
			   "  - chunk: BB3D\n"
			   "    version: 1\n"
			   "    children:\n"
			   "      - chunk: SEQS\n"
			   "        hex: \"05 00 00 00\"\n";
	wb want;
	bb3d(&want);
	t_b3d_begin(&want, "SEQS");
	t_w3d_u32(&want, 5);
	t_b3d_end(&want);
	t_b3d_end(&want);
	t_assembles_to(text, want.data, want.len);
	t_w3d_free(&want);
}
END_TEST

START_TEST(test_assembler_errors)
{
	fails_at("b3d-text: 1\nchunks:\n  - chunk: VRTS\n    flags: 0\n    vertices:\n"
		 "      - {position: [0, 0, 0], normal: [0, 1, 0]}\n",
		 "[0, 1, 0]", "normal: this VRTS has no normals");
	fails_at("b3d-text: 1\nchunks:\n  - chunk: BB3D\n    container_bit: 1\n    children: []\n",
		 "1\n    children", "container_bit: a Blitz3D B3D chunk header has no container bit");
	fails_at("b3d-text: 1\nchunks:\n  - chunk: TRIS\n    triangles:\n      - [0, 1]\n",
		 "[0, 1]", "a triangle of TRIS: expected 3 values, got 2");
	fails_at("b3d-text: 1\nchunks:\n  - chunk: TEXS\n    entries:\n      - {name: \"x\"}\n",
		 "name: \"x", "unknown field 'name' in an entry of TEXS");
	fails_at("b3d-text: 1\nchunks:\n  - chunk: BB3D\n    version: 1\n    fields: \"01\"\n",
		 "\"01\"", "chunk BB3D: give its fields as named keys or as 'fields: HEX', not both");
}
END_TEST

Suite *textform_b3d_suite(void)
{
	Suite *s = suite_create("textform_b3d");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_static_mesh_fields);
	tcase_add_test(tc, test_texs_brus_entries);
	tcase_add_test(tc, test_vertex_keys_follow_flags);
	tcase_add_test(tc, test_bone_keys_anim);
	tcase_add_test(tc, test_malformed_falls_back);
	tcase_add_test(tc, test_wrong_lengths_are_pinned);
	tcase_add_test(tc, test_edited_value_assembles);
	tcase_add_test(tc, test_hand_written_lengths_and_defaults);
	tcase_add_test(tc, test_unknown_tag_by_name);
	tcase_add_test(tc, test_assembler_errors);
	suite_add_tcase(s, tc);
	return s;
}
