/* tests/core/b3d/test_reader.c - the B3D reader and decoder (core/b3d/): detection,
 * container fields, record views, the not-B3D refusal and the writer. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/b3d/model.h"
#include "core/edit.h"
#include "core/format.h"
#include "tests/build/b3dbuild.h"
#include "tests/build/reader_util.h"

/* Reads b's bytes as the format detection picks (named x.b3d). */
static wl_doc *read_b3d(const wb *b)
{
	const wl_format *f = wl_format_detect(b->data, b->len, "x.b3d");
	ck_assert_str_eq(f->name, "b3d");
	wl_doc *d = t_read_fmt(f, b->data, b->len);
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(b3d_model_build(d));
	return d;
}

START_TEST(test_quad_model_decodes)
{
	wb b;
	t_w3d_init(&b);
	size_t vrts_at, tris_at;
	t_b3d_quad_model(&b, &vrts_at, &tris_at);
	wl_doc *d = read_b3d(&b);
	ck_assert_uint_eq(d->findings.count, 0);
	const b3d_model *m = d->model;
	ck_assert(m->version_ok);
	ck_assert_int_eq(m->version, 1);
	ck_assert_uint_eq(m->node_count, 1);
	ck_assert_str_eq(m->nodes[0]->name, "root");
	ck_assert(m->nodes[0]->transform_ok);
	ck_assert(m->nodes[0]->rotation[0] == 1.0f);
	ck_assert_uint_eq(m->mesh_count, 1);
	const b3d_mesh *me = m->meshes[0];
	ck_assert(me->brush_ok);
	ck_assert_int_eq(me->brush_id, -1);
	ck_assert_uint_eq(me->vertex_count, 4);
	ck_assert_uint_eq(me->vrts->verts.size, 12);
	ck_assert_uint_eq(me->vrts->verts.offset, vrts_at + 8 + 12);
	ck_assert_uint_eq(me->tris_count, 1);
	ck_assert_uint_eq(me->tris[0]->tris.count, 2);
	ck_assert_uint_eq(b3d_record_offset(&me->tris[0]->tris, 1), tris_at + 8 + 4 + 12);
	/* The MESH's children start after its 4-byte brush_id. */
	ck_assert_uint_eq(me->src->fields, 4);
	ck_assert_uint_eq(me->src->first_child->offset, vrts_at);
	char path[128];
	wl_chunk_path(d, me->tris[0]->src, 1, path, sizeof path);
	ck_assert_str_eq(path, "BB3D/NODE[root]/MESH/TRIS[1]");
	t_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_write_keeps_fields)
{
	wb b;
	t_w3d_init(&b);
	t_b3d_quad_model(&b, NULL, NULL);
	wl_doc *d = read_b3d(&b);
	/* Rewrite the MESH brush_id through the fields edit API: the writer
	 * re-serialises MESH, NODE and BB3D with their own fields. */
	wl_chunk *mesh = d->root.first_child->first_child->first_child;
	ck_assert_uint_eq(mesh->id, B3D_CHUNK_MESH);
	const uint8_t zero[4] = { 0 };
	ck_assert_int_eq(wl_edit_set_fields(d, mesh, zero, 4), 0);
	uint8_t *out;
	size_t n;
	ck_assert_int_eq(wl_doc_write(d, &out, &n), 0);
	ck_assert_uint_eq(n, b.len);
	size_t diff = 0;
	for (size_t i = 0; i < n; i++)
		diff += out[i] != b.data[i];
	ck_assert_uint_eq(diff, 4); /* 0xFFFFFFFF -> 0 */
	free(out);
	t_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_not_b3d_is_one_finding)
{
	const uint8_t junk[] = { 0x00, 0x05, 0x16, 0x07, 'M', 'a', 'c', ' ', 'O', 'S', ' ', 'X' };
	const wl_format *f = wl_format_detect(junk, sizeof junk, "._x.b3d");
	ck_assert_str_eq(f->name, "b3d");
	wl_doc *d = t_read_fmt(f, junk, sizeof junk);
	ck_assert_uint_eq(d->findings.count, 1);
	ck_assert_str_eq(d->findings.items[0].rule, wl_rule_name(WLR_B3D_NOT_B3D));
	ck_assert_uint_eq(d->findings.items[0].length, sizeof junk);
	uint8_t *out;
	size_t n;
	ck_assert_int_eq(wl_doc_write(d, &out, &n), 0);
	ck_assert(n == sizeof junk && memcmp(out, junk, n) == 0);
	free(out);
	t_free(d);
	/* Near miss: the same bytes with no .b3d name stay W3D's to judge. */
	ck_assert_str_eq(wl_format_detect(junk, sizeof junk, "x.bin")->name, "w3d");
}
END_TEST

START_TEST(test_detect_by_content_any_name)
{
	wb b;
	t_w3d_init(&b);
	t_b3d_quad_model(&b, NULL, NULL);
	ck_assert_str_eq(wl_format_detect(b.data, b.len, "model.w3d")->name, "b3d");
	ck_assert_str_eq(wl_format_detect(b.data, b.len, NULL)->name, "b3d");
	ck_assert_ptr_eq(wl_format_by_extension("a/MODEL.B3D"), wl_format_find("b3d"));
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_unterminated_node_name)
{
	wb b;
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	t_b3d_begin(&b, "NODE");
	t_w3d_bytes(&b, "abc", 3); /* no NUL, nothing else */
	t_b3d_end(&b);
	t_b3d_end(&b);
	wl_doc *d = read_b3d(&b);
	const wl_finding *f = t_find(d, "b3d-string-unterminated");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, 8 + 4 + 8);
	ck_assert_uint_eq(f->length, 3);
	ck_assert_uint_eq(t_count(d, "b3d-string-unterminated"), 1);
	t_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_record_slack_and_near_miss)
{
	for (int extra = 0; extra < 2; extra++) {
		wb b;
		t_w3d_init(&b);
		t_b3d_begin(&b, "BB3D");
		t_w3d_u32(&b, 1);
		t_b3d_node_begin(&b, "n", t_b3d_identity);
		const int32_t v[] = { 0, 1 };
		const float w[] = { 0.5f, 0.5f };
		t_b3d_begin(&b, "BONE");
		for (int i = 0; i < 2; i++) {
			t_w3d_u32(&b, (uint32_t)v[i]);
			t_w3d_f32(&b, w[i]);
		}
		if (extra)
			t_w3d_zeros(&b, 3);
		t_b3d_end(&b);
		t_b3d_end(&b);
		t_b3d_end(&b);
		wl_doc *d = read_b3d(&b);
		ck_assert_uint_eq(t_count(d, "b3d-record-slack"), (size_t)extra);
		const b3d_model *m = d->model;
		ck_assert_uint_eq(m->bone_count, 1);
		ck_assert_uint_eq(m->bones[0]->weights.count, 2);
		if (extra)
			ck_assert_uint_eq(t_find(d, "b3d-record-slack")->length, 3);
		t_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

/* Issue 17: a BRUS whose size shrank by 4 (45 -> 41 in the report) is read
 * with its true size, and the NODE after it is kept (main: no resync, the
 * NODE became 40,453 stray bytes); a TEXS grown by 4 likewise. */
START_TEST(test_brus_size_wrong_keeps_node)
{
	for (int k = 0; k < 2; k++) {
		wb b;
		t_w3d_init(&b);
		t_b3d_begin(&b, "BB3D");
		t_w3d_u32(&b, 1);
		size_t at = b.len;
		if (k == 0) {
			t_b3d_begin(&b, "BRUS");
			t_w3d_u32(&b, 0);
			t_b3d_brush(&b, "skin", NULL, 0);
		} else {
			t_b3d_begin(&b, "TEXS");
			t_b3d_tex(&b, "a.png");
		}
		t_b3d_end(&b);
		size_t node = b.len;
		t_b3d_node_begin(&b, "root", t_b3d_identity);
		t_b3d_quad_mesh(&b, -1, 0, NULL);
		t_b3d_end(&b);
		t_b3d_end(&b);
		uint32_t size = t_le32(b.data + at + 4);
		t_w3d_patch_u32(&b, at + 4, k == 0 ? size - 4 : size + 4);
		wl_doc *d = read_b3d(&b);
		ck_assert_uint_eq(t_count(d, "chunk-size-wrong"), 1);
		ck_assert_uint_eq(t_count(d, "stray-bytes") + t_count(d, "chunk-resync"), 0);
		const b3d_model *m = d->model;
		ck_assert_uint_eq(m->node_count, 1);
		ck_assert_uint_eq(m->mesh_count, 1);
		ck_assert_uint_eq(m->meshes[0]->src->parent->offset, node);
		ck_assert_uint_eq(m->meshes[0]->vertex_count, 4);
		t_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

START_TEST(test_negative_length_is_an_overrun)
{
	wb b;
	t_w3d_init(&b);
	t_b3d_quad_model(&b, NULL, NULL);
	/* TRIS length -1: runs past MESH, NODE and BB3D. */
	size_t tris = 0;
	for (size_t i = 0; i + 4 <= b.len; i++)
		if (memcmp(b.data + i, "TRIS", 4) == 0)
			tris = i;
	memset(b.data + tris + 4, 0xFF, 4);
	wl_doc *d = read_b3d(&b);
	ck_assert(t_count(d, "chunk-overruns-parent") + t_count(d, "chunk-truncated") >= 1);
	ck_assert_ptr_null(t_tiling_error(d));
	t_free(d);
	t_w3d_free(&b);
}
END_TEST

/* Suite declaration (not a START_TEST: tests/test_main.c collects it). */
extern Suite *b3d_reader_suite(void);

Suite *b3d_reader_suite(void)
{
	Suite *s = suite_create("b3d_reader");
	TCase *tc = tcase_create("b3d_reader");
	tcase_add_test(tc, test_quad_model_decodes);
	tcase_add_test(tc, test_write_keeps_fields);
	tcase_add_test(tc, test_not_b3d_is_one_finding);
	tcase_add_test(tc, test_detect_by_content_any_name);
	tcase_add_test(tc, test_unterminated_node_name);
	tcase_add_test(tc, test_record_slack_and_near_miss);
	tcase_add_test(tc, test_negative_length_is_an_overrun);
	tcase_add_test(tc, test_brus_size_wrong_keeps_node);
	suite_add_tcase(s, tc);
	return s;
}
