/* tests/core/test_chunk_path.c - wl_chunk_path (core/chunk.c) names every node as a
 * scan of its siblings would (NAME#k among the parent's nodes of its kind
 * and id, NAME alone when it is the only one, NAME[label] when labelled),
 * over many siblings of mixed ids, several levels deep, with gaps, and after
 * edits insert and remove siblings (the per-parent index is rebuilt). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/edit.h"
#include "core/w3d/w3d_format.h"
#include "tests/build/w3dbuild.h"

extern Suite *chunk_path_suite(void);

/* The path as the scan of every sibling per level (the old algorithm). */
static void scan_path(const wl_doc *d, const wl_chunk *c, char *buf, size_t cap)
{
	const wl_chunk *stack[WL_MAX_DEPTH + 2];
	int n = 0;
	for (const wl_chunk *k = c; k && k->kind != WL_NODE_ROOT; k = k->parent)
		stack[n++] = k;
	size_t at = 0;
	buf[0] = 0;
	for (int i = n - 1; i >= 0; i--) {
		const wl_chunk *k = stack[i];
		unsigned idx = 0, same = 0;
		for (const wl_chunk *s = k->parent->first_child; s; s = s->next)
			if (s->kind == k->kind && s->id == k->id) {
				if (s == k)
					idx = same;
				same++;
			}
		const char *name = wl_chunk_name(d, k);
		int w;
		const char *label = wl_chunk_label(d, k);
		if (label && label[0])
			w = snprintf(buf + at, cap - at, "%s%s[%s]", i == n - 1 ? "" : "/", name, label);
		else if (same > 1)
			w = snprintf(buf + at, cap - at, "%s%s#%u", i == n - 1 ? "" : "/", name, idx);
		else
			w = snprintf(buf + at, cap - at, "%s%s", i == n - 1 ? "" : "/", name);
		ck_assert(w > 0 && (size_t)w < cap - at);
		at += (size_t)w;
	}
}

static size_t NODES;

static void compare_all(const wl_doc *d, const wl_chunk *parent)
{
	for (const wl_chunk *k = parent->first_child; k; k = k->next) {
		char want[1024], got[1024];
		scan_path(d, k, want, sizeof want);
		wl_chunk_path(d, k, -1, got, sizeof got);
		ck_assert_str_eq(got, want);
		NODES++;
		compare_all(d, k);
	}
}

/* A file of n top-level chunks of mixed ids: meshes holding 0-3 vertex
 * arrays and a material pass with texture stages, unknown chunks, stray
 * bytes inside some meshes. */
static void build(wb *b, unsigned n)
{
	t_w3d_init(b);
	for (unsigned i = 0; i < n; i++) {
		switch (i % 4) {
		case 0:
		case 1:
			t_w3d_begin(b, W3D_CHUNK_MESH);
			for (unsigned v = 0; v < i % 3; v++)
				t_w3d_chunk(b, W3D_CHUNK_VERTICES, NULL, 0);
			if (i % 8 == 1) {
				t_w3d_begin(b, W3D_CHUNK_MATERIAL_PASS);
				for (unsigned s = 0; s < 1 + i % 3; s++) {
					t_w3d_begin(b, W3D_CHUNK_TEXTURE_STAGE);
					t_w3d_chunk(b, W3D_CHUNK_STAGE_TEXCOORDS, NULL, 0);
					t_w3d_end(b);
				}
				t_w3d_end(b);
			}
			if (i % 16 == 5)
				t_w3d_zeros(b, 3); /* stray bytes: a gap node */
			t_w3d_end(b);
			break;
		case 2:
			t_w3d_chunk(b, 0x7777u + i % 5, NULL, 0); /* unknown ids */
			break;
		default:
			t_w3d_chunk(b, W3D_CHUNK_HLOD_SUB_OBJECT, NULL, 0);
			break;
		}
	}
}

START_TEST(paths_match_scan)
{
	wb b;
	build(&b, 4000);
	wl_doc *d = wl_doc_read(&w3d_format, "p.w3d", b.data, b.len);
	ck_assert_ptr_nonnull(d);
	ck_assert(!d->oom);
	/* labels on some nodes: they name the node instead of the index */
	unsigned i = 0;
	for (wl_chunk *k = d->root.first_child; k; k = k->next, i++)
		if (i % 10 == 0)
			ck_assert_int_eq(wl_chunk_set_label(d, k, "L"), 0);
	NODES = 0;
	compare_all(d, &d->root);
	ck_assert_uint_gt(NODES, 4000);
	/* an index entry and a later element */
	char got[256];
	const wl_chunk *m = d->root.first_child->next; /* the second MESH */
	ck_assert_str_eq(wl_chunk_path(d, m->first_child, 7, got, sizeof got), "MESH#1/VERTICES[7]");
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(paths_after_edits)
{
	wb b;
	build(&b, 200);
	wl_doc *d = wl_doc_read(&w3d_format, "p.w3d", b.data, b.len);
	ck_assert_ptr_nonnull(d);
	compare_all(d, &d->root); /* builds the indexes */
	/* remove every third top-level node, insert a MESH after the first:
	 * the indexes of the changed parents are rebuilt */
	wl_chunk *k = d->root.first_child;
	for (unsigned i = 0; k; i++) {
		wl_chunk *next = k->next;
		if (i % 3 == 2)
			ck_assert_int_eq(wl_edit_remove(d, k), 0);
		k = next;
	}
	ck_assert_ptr_nonnull(wl_edit_insert_container(d, &d->root, d->root.first_child, W3D_CHUNK_MESH));
	ck_assert_ptr_nonnull(wl_edit_insert(d, &d->root, NULL, 0x7777u, NULL, 0));
	NODES = 0;
	compare_all(d, &d->root);
	ck_assert_uint_gt(NODES, 100);
	char got[256];
	ck_assert_str_eq(wl_chunk_path(d, d->root.first_child, -1, got, sizeof got), "0x7777#0");
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(deep_path)
{
	/* 1000 texture stages in one pass, each with its texcoords: the last
	 * one's path names its index; and a small buffer is cut, not overrun */
	wb b;
	t_w3d_init(&b);
	t_w3d_begin(&b, W3D_CHUNK_MESH);
	t_w3d_begin(&b, W3D_CHUNK_MATERIAL_PASS);
	for (unsigned s = 0; s < 1000; s++) {
		t_w3d_begin(&b, W3D_CHUNK_TEXTURE_STAGE);
		t_w3d_chunk(&b, W3D_CHUNK_STAGE_TEXCOORDS, NULL, 0);
		t_w3d_end(&b);
	}
	t_w3d_end(&b);
	t_w3d_end(&b);
	wl_doc *d = wl_doc_read(&w3d_format, "p.w3d", b.data, b.len);
	const wl_chunk *pass = d->root.first_child->first_child;
	const wl_chunk *last = wl_chunk_last_child(pass)->first_child;
	char got[256];
	ck_assert_str_eq(wl_chunk_path(d, last, 2, got, sizeof got),
			 "MESH/MATERIAL_PASS/TEXTURE_STAGE#999/STAGE_TEXCOORDS[2]");
	char small[12];
	ck_assert_str_eq(wl_chunk_path(d, last, -1, small, sizeof small), "MESH/MATERI");
	NODES = 0;
	compare_all(d, &d->root);
	ck_assert_uint_eq(NODES, 2002);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

Suite *chunk_path_suite(void)
{
	Suite *s = suite_create("chunk_path");
	TCase *tc = tcase_create("chunk_path");
	tcase_add_test(tc, paths_match_scan);
	tcase_add_test(tc, paths_after_edits);
	tcase_add_test(tc, deep_path);
	suite_add_tcase(s, tc);
	return s;
}
