/* tests/core/test_edit.c - tests of the edit API and the writer (core/edit.h). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/edit.h"
#include "core/w3d/w3d_format.h"
#include "tests/build/reader_util.h"
#include "tests/build/w3dbuild.h"
#include "tests/build/robust_util.h"

extern Suite *edit_suite(void);

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Writes d, checks success, returns the bytes (caller frees). */
static uint8_t *write_doc(const wl_doc *d, size_t *n)
{
	uint8_t *out = NULL;
	ck_assert_int_eq(wl_doc_write(d, &out, n), 0);
	ck_assert_ptr_nonnull(out);
	return out;
}

/* A new file: MESH (left open) { MESH_HEADER3 (116 zero bytes) }. */
static void open_mesh(wb *b)
{
	t_w3d_init(b);
	t_w3d_begin(b, W3D_CHUNK_MESH);
	t_w3d_begin(b, W3D_CHUNK_MESH_HEADER3);
	t_w3d_zeros(b, 116);
	t_w3d_end(b);
}

/* Frees the written bytes, the document and the file built. */
static void finish(uint8_t *out, wl_doc *d, wb *b)
{
	free(out);
	t_free(d);
	t_w3d_free(b);
}

/* MESH { MESH_HEADER3 (116 zero bytes), VERTICES (2 x 12) } then an
 * unknown top-level chunk, then `trailing` stray bytes. */
static void sample(wb *b, size_t trailing)
{
	open_mesh(b);
	t_w3d_begin(b, W3D_CHUNK_VERTICES);
	t_w3d_zeros(b, 24);
	t_w3d_end(b);
	t_w3d_end(b);
	t_w3d_chunk(b, 0x7777, "abcd", 4);
	for (size_t i = 0; i < trailing; i++)
		t_w3d_u8(b, (uint8_t)(0xA0 + i));
}

START_TEST(no_edit_is_identity)
{
	wb b;
	sample(&b, 5); /* unknown chunk + trailing bytes survive */
	wl_doc *d = t_read(b.data, b.len);
	ck_assert_uint_eq(t_count(d, "trailing-bytes"), 1);
	ck_assert_uint_eq(t_count(d, "chunk-unknown"), 1);
	size_t n;
	uint8_t *out = write_doc(d, &n);
	ck_assert_uint_eq(n, b.len);
	ck_assert_mem_eq(out, b.data, n);
	ck_assert_uint_eq(wl_edit_count(d), 0);
	free(out);
	t_free(d);
	/* an empty file writes as empty */
	d = t_read("", 0);
	out = write_doc(d, &n);
	ck_assert_uint_eq(n, 0);
	finish(out, d, &b);
}
END_TEST

START_TEST(set_payload_resizes_ancestors)
{
	wb b;
	sample(&b, 0);
	wl_doc *d = t_read(b.data, b.len);
	wl_chunk *vert = t_chunk_at(d, 8 + 8 + 116, W3D_CHUNK_VERTICES);
	ck_assert_ptr_nonnull(vert);
	uint8_t three[36];
	memset(three, 0x11, sizeof three);
	ck_assert_int_eq(wl_edit_set_payload(d, vert, three, sizeof three), 0);
	ck_assert_uint_eq(wl_edit_written_size(d, vert->parent), 8 + 116 + 8 + 36);
	size_t len;
	const uint8_t *p = wl_edit_payload(d, vert, &len);
	ck_assert_uint_eq(len, 36);
	ck_assert_mem_eq(p, three, 36);
	size_t n;
	uint8_t *out = write_doc(d, &n);
	ck_assert_uint_eq(n, b.len + 12);
	/* MESH size grew by 12, bit 31 kept as read (set) */
	ck_assert_uint_eq(le32(out + 4), (le32(b.data + 4) & 0x7FFFFFFFu) + 12 + 0x80000000u);
	/* header chunk untouched, the vertices replaced, the unknown chunk copied */
	ck_assert_mem_eq(out + 8, b.data + 8, 8 + 116);
	ck_assert_uint_eq(le32(out + 8 + 124 + 4), 36);
	ck_assert_mem_eq(out + 8 + 124 + 8, three, 36);
	ck_assert_mem_eq(out + n - 12, b.data + b.len - 12, 12);
	wl_doc *r = t_read(out, n);
	ck_assert_ptr_null(t_tiling_error(r));
	ck_assert_uint_eq(r->findings.count, 1); /* only the unknown chunk */
	t_free(r);
	finish(out, d, &b);
}
END_TEST

START_TEST(touch_fixes_size_and_bit)
{
	/* MESH whose size is 16 too small (its VERTICES overrun it) and whose
	 * bit 31 is clear: touch rebuilds the size and sets the bit. */
	wb b;
	open_mesh(&b);
	t_w3d_begin(&b, W3D_CHUNK_VERTICES);
	for (int i = 0; i < 6; i++)
		t_w3d_f32(&b, 1.0f); /* not readable as a chunk header */
	t_w3d_end(&b);
	t_w3d_end_raw(&b, 124 + 32 - 16);
	wl_doc *d = t_read(b.data, b.len);
	ck_assert_uint_eq(t_count(d, "container-size-at-eof"), 1); /* nothing follows */
	wl_chunk *mesh = t_chunk_at(d, 0, W3D_CHUNK_MESH);
	ck_assert(mesh->recovery & WL_REC_EXTENDED);
	/* resize: size fixed, bit kept clear */
	ck_assert_int_eq(wl_edit_resize(d, mesh), 0);
	size_t n;
	uint8_t *out = write_doc(d, &n);
	ck_assert_uint_eq(n, b.len);
	ck_assert_uint_eq(le32(out + 4), 124 + 32);
	ck_assert_mem_eq(out + 8, b.data + 8, n - 8);
	free(out);
	/* touch: the bit is recomputed too */
	ck_assert_int_eq(wl_edit_touch(d, mesh), 0);
	out = write_doc(d, &n);
	ck_assert_uint_eq(le32(out + 4), (124 + 32) | 0x80000000u);
	wl_doc *r = t_read(out, n);
	ck_assert_uint_eq(r->findings.count, 0);
	t_free(r);
	free(out);
	/* a gap or the root cannot be touched */
	ck_assert_int_eq(wl_edit_touch(d, &d->root), -1);
	t_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(remove_insert_move)
{
	wb b;
	sample(&b, 3);
	wl_doc *d = t_read(b.data, b.len);
	wl_chunk *gap = t_gap_at(d, b.len - 3);
	ck_assert_ptr_nonnull(gap);
	ck_assert_int_eq(wl_edit_note(d, gap, WLR_TRAILING_BYTES, gap->offset, "%d byte(s): removed", 3), 0);
	ck_assert_int_eq(wl_edit_remove(d, gap), 0);
	ck_assert_int_eq(wl_edit_remove(d, gap), -1); /* already removed */
	ck_assert_uint_eq(wl_edit_count(d), 1);
	ck_assert_str_eq(d->edits.items[0].what, "3 byte(s): removed");
	size_t n;
	uint8_t *out = write_doc(d, &n);
	ck_assert_uint_eq(n, b.len - 3);
	ck_assert_mem_eq(out, b.data, n);
	free(out);

	/* insert a data chunk as the mesh's first child, a container at top */
	wl_chunk *mesh = t_chunk_at(d, 0, W3D_CHUNK_MESH);
	wl_chunk *unk = t_chunk_at(d, mesh->header_size + mesh->size, 0x7777);
	ck_assert_ptr_nonnull(unk);
	ck_assert_ptr_nonnull(wl_edit_insert(d, mesh, NULL, W3D_CHUNK_MESH_USER_TEXT, (const uint8_t *)"hi", 3));
	wl_chunk *box = wl_edit_insert_container(d, &d->root, unk, W3D_CHUNK_HLOD);
	ck_assert_ptr_nonnull(box);
	ck_assert_ptr_null(wl_edit_insert(d, unk, NULL, 1, NULL, 0)); /* not a container */
	ck_assert_ptr_null(wl_edit_insert(d, mesh, unk, 1, NULL, 0)); /* after: not a child */
	/* move the unknown chunk into the new container */
	ck_assert_int_eq(wl_edit_move(d, unk, box, NULL), 0);
	ck_assert_int_eq(wl_edit_move(d, box, box, NULL), -1); /* into itself */
	out = write_doc(d, &n);
	/* MESH: +11 bytes; then HLOD { 0x7777 } with bit 31 set (new) */
	uint32_t mesh_size = le32(b.data + 4) & 0x7FFFFFFFu;
	ck_assert_uint_eq(n, 8 + mesh_size + 11 + 8 + 12);
	ck_assert_uint_eq(le32(out + 4), (mesh_size + 11) | 0x80000000u);
	ck_assert_uint_eq(le32(out + 8), W3D_CHUNK_MESH_USER_TEXT);
	ck_assert_uint_eq(le32(out + 12), 3);
	ck_assert_str_eq((const char *)out + 16, "hi");
	size_t h = 8 + mesh_size + 11;
	ck_assert_uint_eq(le32(out + h), W3D_CHUNK_HLOD);
	ck_assert_uint_eq(le32(out + h + 4), 12 | 0x80000000u);
	ck_assert_mem_eq(out + h + 8, b.data + 8 + mesh_size, 12);
	ck_assert_uint_eq(wl_chunk_child_count(box), 1);
	ck_assert_ptr_eq(unk->parent->first_child, unk);
	finish(out, d, &b);
}
END_TEST

START_TEST(replaced_leaf_keeps_bit)
{
	/* a data chunk with bit 31 set keeps it when its payload is replaced,
	 * loses it when touched (container-bit-on-leaf repair) */
	wb b;
	t_w3d_init(&b);
	t_w3d_begin(&b, 0x0440u /* POINTS: 12-byte array data chunk */);
	t_w3d_zeros(&b, 12);
	t_w3d_end_raw(&b, 12 | 0x80000000u);
	wl_doc *d = t_read(b.data, b.len);
	ck_assert_uint_eq(t_count(d, "container-bit-on-leaf"), 1);
	wl_chunk *c = t_chunk_at(d, 0, 0x0440u /* POINTS: 12-byte array data chunk */);
	uint8_t z[24] = { 0 };
	ck_assert_int_eq(wl_edit_set_payload(d, c, z, 24), 0);
	size_t n;
	uint8_t *out = write_doc(d, &n);
	ck_assert_uint_eq(le32(out + 4), 24 | 0x80000000u);
	free(out);
	ck_assert_int_eq(wl_edit_touch(d, c), 0);
	out = write_doc(d, &n);
	ck_assert_uint_eq(le32(out + 4), 24);
	finish(out, d, &b);
}
END_TEST

START_TEST(truncated_keeps_its_deficit)
{
	/* MESH { MESH_HEADER3, VERTICES cut by the end of the file }: an edit
	 * of the header must leave MESH exactly as short as it was */
	wb b;
	sample(&b, 0);
	size_t cut = 10;
	wl_doc *d = t_read(b.data, b.len - 12 - cut); /* drop the unknown chunk and 10 bytes */
	wl_chunk *mesh = t_chunk_at(d, 0, W3D_CHUNK_MESH);
	ck_assert(mesh->recovery & WL_REC_TRUNCATED);
	wl_chunk *hdr = t_chunk_at(d, 8, W3D_CHUNK_MESH_HEADER3);
	uint8_t big[120] = { 0 };
	ck_assert_int_eq(wl_edit_set_payload(d, hdr, big, sizeof big), 0);
	size_t n;
	uint8_t *out = write_doc(d, &n);
	ck_assert_uint_eq(n, b.len - 12 - cut + 4);
	ck_assert_uint_eq(le32(out + 4), le32(b.data + 4) + 4); /* bit 31 kept, +4 */
	wl_doc *r = t_read(out, n);
	ck_assert_uint_eq(t_count(r, "chunk-truncated"), t_count(d, "chunk-truncated"));
	ck_assert_uint_eq(t_count(r, "chunk-overruns-parent"), 0);
	t_free(r);
	finish(out, d, &b);
}
END_TEST

Suite *edit_suite(void)
{
	const TTest *tests[] = {
		no_edit_is_identity, set_payload_resizes_ancestors, touch_fixes_size_and_bit,
		remove_insert_move, replaced_leaf_keeps_bit, truncated_keeps_its_deficit, NULL
	};
	return t_robust_suite_of("edit", "edit", 0, tests);
}
