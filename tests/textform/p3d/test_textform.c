/*
 * tests/textform/p3d/test_textform.c - the MLOD text form (textform/p3d/mlod.h,
 * docs/textform.md §P3D): an MLOD file built with tests/build/p3dbuild.h dumps
 * with its points, faces and every kind of tag decoded and assembles back
 * to the same bytes; an edited point changes exactly its bytes; pinned
 * counts and an inactive tag round-trip; a damaged MLOD keeps the
 * read-only chunk form, which w3dasm refuses with the reason; the
 * assembler's errors name line and column.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"
#include "textform/textform.h"
#include "tests/build/p3dbuild.h"
#include "tests/build/p3dbuild_mlod.h"
#include "tests/build/reader_util.h"

extern Suite *textform_p3d_suite(void);

static char *p3d_text(const wb *b)
{
	return t_text(wl_format_find("p3d"), b->data, b->len, "test.p3d");
}

/* Asserts that text does not assemble and the error holds `want`. */
static void refused(const char *text, const char *want)
{
	char err[512] = "";
	wl_tf_bytes out;
	ck_assert_int_eq(wl_tf_assemble("t.txt", text, strlen(text), &out, err, sizeof err), -1);
	ck_assert_msg(strstr(err, want) != NULL, "error '%s' lacks '%s'", err, want);
}

static const float PTS[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0.5f } };
static const t_p3d_face FACES[2] = { { 3, { 0, 1, 2, 0 }, "data\\wall_co.paa", "data\\wall.rvmat" },
				     { 4, { 1, 3, 2, 0 }, "", "" } };

/* A two-LOD MLOD file whose first LOD carries every kind of tag the text
 * form decodes, and two it keeps as hex; *first_face: the offset of the
 * first LOD's first face. */
static void build(wb *b, size_t *first_face)
{
	static const uint8_t sel[4 + 2] = { 1, 1, 0, 1, 1, 0 };   /* np + nf weights */
	static const uint8_t odd[5] = { 1, 2, 3, 4, 5 };            /* not np + nf: hex */
	static const float mass[4] = { 1.5f, 2, 0, 10 };
	static const uint32_t edges[4] = { 0, 1, 1, 3 };
	uint8_t uv[4 + 7 * 8] = { 0 };                             /* stage 0, 7 (u, v) */
	uint8_t prop[128] = { 0 };
	memcpy(prop, "class", 5);
	memcpy(prop + 64, "house", 5);
	static const uint8_t hidden[3] = { 7, 8, 9 };
	const t_p3d_tag tags[] = {
		{ "Component01", sel, sizeof sel }, { "odd", odd, sizeof odd }, { "#Mass#", mass, sizeof mass },
		{ "#SharpEdges#", edges, sizeof edges }, { "#UVSet#", uv, sizeof uv },
		{ "#Property#", prop, sizeof prop }, { "#Hidden#", hidden, sizeof hidden },
	};
	t_w3d_init(b);
	t_p3d_mlod_begin(b, 2);
	*first_face = t_p3d_mlod_lod_tags(b, PTS, 4, T_P3D_UP, 4, FACES, 2, tags, sizeof tags / sizeof tags[0], NULL,
					  1.0f);
	t_p3d_mlod_lod(b, PTS, 3, T_P3D_UP, 3, FACES, 1, 1e13f); /* a Geometry LOD */
}

START_TEST(every_tag_roundtrip)
{
	wb b;
	size_t ff;
	build(&b, &ff);
	char *text = p3d_text(&b);
	static const char *const has[] = {
		"p3d-text: 1", "mlod:", "version: 257", "- resolution: 1", "points:  # [x, y, z, flags]",
		"- [1, 1, 0.5, 0x0]", "{n: 3, v: [[0, 0, 0, 0], [1, 1, 0, 0], [2, 2, 0, 0], [0, 0, 0, 0]], flags: 0x0, "
		"texture: \"data\\\\wall_co.paa\", material: \"data\\\\wall.rvmat\"}",
		"- name: \"Component01\"\n          points: [1, 1, 0, 1]\n          faces: [1, 0]",
		"- name: \"odd\"\n          hex: \"01 02 03 04 05\"", "mass: [1.5, 2, 0, 10]", "edges: [0, 1, 1, 3]",
		"stage: 0", "property: \"class\"\n          value: \"house\"", "- name: \"#Hidden#\"\n          hex: \"07 08 09\"",
		"- name: \"#EndOfFile#\"", "- resolution: 1e+13  # Geometry",
	};
	for (size_t i = 0; i < sizeof has / sizeof has[0]; i++)
		ck_assert_msg(strstr(text, has[i]) != NULL, "no '%s' in\n%.4000s", has[i], text);
	t_assembles_to(text, b.data, b.len);
	free(text);
	t_w3d_free(&b);
}
END_TEST

/* Moving one point in the text changes exactly its 4 bytes. */
START_TEST(edited_point)
{
	wb b;
	size_t ff;
	build(&b, &ff);
	char *text = p3d_text(&b);
	char *at = strstr(text, "- [1, 1, 0.5, 0x0]");
	ck_assert_ptr_nonnull(at);
	size_t len = strlen(text);
	char *edited = malloc(len + 8);
	size_t head = (size_t)(at - text);
	memcpy(edited, text, head);
	strcpy(edited + head, "- [1, 1, 0.25, 0x0]");
	strcat(edited, at + strlen("- [1, 1, 0.5, 0x0]"));
	/* point 3's z: after the 12-byte file header and the 28-byte LOD header */
	size_t z = 12 + 28 + 3 * 16 + 8;
	float q = 0.25f;
	memcpy(b.data + z, &q, 4);
	t_assembles_to(edited, b.data, b.len);
	free(edited);
	free(text);
	t_w3d_free(&b);
}
END_TEST

/* Counts that disagree with the lists, an inactive tag, a tail and the
 * pinned LOD count come back as written. */
START_TEST(pins_roundtrip)
{
	wb b;
	size_t ff;
	build(&b, &ff);
	/* the second LOD's tag #EndOfFile# inactive; a 3-byte tail */
	size_t eof = b.len - 4 - 4 - 12 - 1;
	ck_assert_int_eq(b.data[eof], 1);
	b.data[eof] = 0;
	t_w3d_bytes(&b, "\x01\x02\x03", 3);
	char *text = p3d_text(&b);
	ck_assert_msg(strstr(text, "active: 0") && strstr(text, "tail: \"01 02 03\""), "%.4000s", text);
	t_assembles_to(text, b.data, b.len);
	free(text);
	const char *pinned = "p3d-text: 1\nmlod:\n  lod_count: 5\n  lods:\n    - resolution: 2\n"
			     "      counts: [7, 0, 0]\n      points: [[0, 0, 0, 0]]\n      tags:\n"
			     "        - {name: \"#EndOfFile#\"}\n";
	char err[512];
	wl_tf_bytes out;
	ck_assert_int_eq(wl_tf_assemble("t.txt", pinned, strlen(pinned), &out, err, sizeof err), 0);
	ck_assert_uint_eq(out.len, 12 + 28 + 16 + 4 + 1 + 12 + 4 + 4);
	ck_assert_int_eq(out.data[8], 5);   /* nLods as pinned */
	ck_assert_int_eq(out.data[24], 7);  /* nPoints as pinned */
	free(out.data);
	t_w3d_free(&b);
}
END_TEST

/* A cut MLOD is not written as an MLOD text form: the chunk form, which
 * w3dasm refuses with the reason (ODOL files: tests/p3d_dump.sh). */
START_TEST(damaged_readonly)
{
	wb b;
	size_t ff;
	build(&b, &ff);
	char *text = t_text(wl_format_find("p3d"), b.data, b.len - 9, "cut.p3d");
	ck_assert_msg(strstr(text, "mlod:") == NULL && strstr(text, "chunks:") != NULL, "%.2000s", text);
	refused(text, "read-only in the chunk form");
	free(text);
	t_w3d_free(&b);
}
END_TEST

START_TEST(assembler_errors)
{
	refused("p3d-text: 1\nmlod:\n  lods:\n    - resolution: 1\n      faces: [{n: 3, v: [[0,0,0,0],[0,0,0,0],[0,0,0,0],"
		"[0,0,0,0]], colour: 1, texture: \"\", material: \"\"}]\n      tags: [{name: \"#EndOfFile#\"}]\n",
		"t.txt:5:68:");
	refused("p3d-text: 1\nmlod:\n  lods:\n    - resolution: 1\n      faces: [{n: 3, v: [[0,0,0,0],[0,0,0,0],[0,0,0,0],"
		"[0,0,0,0]], colour: 1, texture: \"\", material: \"\"}]\n      tags: [{name: \"#EndOfFile#\"}]\n",
		"unknown key 'colour' in a face");
	refused("p3d-text: 1\nmlod:\n  lods:\n    - resolution: 1\n      tags: [{name: \"a\"}]\n",
		"the tags must end with the tag #EndOfFile#");
	refused("p3d-text: 1\nmlod:\n  lods:\n    - resolution: 1\n      points: [[0, 0, 0]]\n"
		"      tags: [{name: \"#EndOfFile#\"}]\n",
		"a point [x, y, z, flags]: expected 4 values, got 3");
	refused("p3d-text: 1\nmlod:\n  lods: []\nchunks: []\n", "not both");
	/* near miss: the smallest valid text */
	const char *ok = "mlod:\n  lods: []\np3d-text: 1\n";
	char err[512];
	wl_tf_bytes out;
	ck_assert_msg(wl_tf_assemble("t.txt", ok, strlen(ok), &out, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(out.len, 12);
	ck_assert_int_eq(memcmp(out.data, "MLOD\x01\x01\x00\x00\x00\x00\x00\x00", 12), 0);
	free(out.data);
}
END_TEST

Suite *textform_p3d_suite(void)
{
	Suite *s = suite_create("textform_p3d");
	TCase *tc = tcase_create("mlod");
	tcase_add_test(tc, every_tag_roundtrip);
	tcase_add_test(tc, edited_point);
	tcase_add_test(tc, pins_roundtrip);
	tcase_add_test(tc, damaged_readonly);
	tcase_add_test(tc, assembler_errors);
	suite_add_tcase(s, tc);
	return s;
}
