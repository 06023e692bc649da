/* tests/core/test_archive_write.c - archives rewritten with entries replaced
 * (core/archive/archive.h wl_archive_rewrite, wl_archive_unwritable) and
 * read from their head (wl_archive_read_head, wl_archive_read_table), over
 * archives built here (tests/build/archbuild.c): no patch gives the input back;
 * a patch moves the later entries (BIG offsets, big-endian), keeps every
 * other entry's bytes, writes a packed PBO entry stored and the SHA-1
 * again; damage that moves bytes stops it, damage in copied bytes does
 * not. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/archive/archive.h"
#include "core/file_io.h"
#include "tests/build/archbuild.h"
#include "tests/build/reader_util.h"

extern Suite *archive_write_suite(void);

static const char A[] = "model bytes of tank";
static const char B[] = "another model, a little longer than the first";
static const char C[] = "[Object]\nModel = tank\n";
static const char NEW[] = "the repaired tank, longer than it was before";

static wl_doc *rd(wl_archive_kind k, const uint8_t *p, size_t n)
{
	wl_doc *d = wl_archive_read(k, "t", p, n, WL_ARCHIVE_FULL);
	ck_assert_ptr_nonnull(d);
	ck_assert(!d->oom);
	return d;
}

/* Entry i of d's archive holds want[0..n) (unpacked). */
static void holds(const wl_doc *d, size_t i, const void *want, size_t n)
{
	const wl_archive *a = d->model;
	uint8_t *out = NULL;
	char why[160];
	ck_assert(a->entries[i].readable);
	ck_assert_int_eq(wl_archive_unpack(&a->entries[i], d->bytes + a->entries[i].offset, &out, why, sizeof why), 0);
	ck_assert_uint_eq(a->entries[i].size, n);
	ck_assert(memcmp(out, want, n) == 0);
	free(out);
}

static void build(wl_archive_kind k, bool pack, wb *b, t_arc_layout *at)
{
	t_arc_entry e[3] = { { "Art\\W3D\\a.w3d", A, sizeof A, pack },
			  { "Art\\W3D\\b.w3d", B, sizeof B, pack },
			  { "Data\\c.ini", C, sizeof C - 1, false } };
	t_w3d_init(b);
	if (k == WL_ARCHIVE_BIG)
		t_arc_big(b, "BIGF", e, 3, at);
	else
		t_arc_pbo(b, "x\\y", e, 3, true, at);
}

START_TEST(no_patch_same_bytes)
{
	for (int k = 0; k < 3; k++) {
		wb b;
		t_arc_layout at;
		build(k == 0 ? WL_ARCHIVE_BIG : WL_ARCHIVE_PBO, k == 2, &b, &at);
		wl_doc *d = rd(k == 0 ? WL_ARCHIVE_BIG : WL_ARCHIVE_PBO, b.data, b.len);
		uint8_t *out;
		size_t n;
		char why[256];
		ck_assert_int_eq(wl_archive_rewrite(d, NULL, 0, &out, &n, why, sizeof why), 0);
		ck_assert_uint_eq(n, b.len);
		ck_assert(memcmp(out, b.data, n) == 0);
		free(out);
		wl_doc_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

START_TEST(replace_moves_the_rest)
{
	for (int k = 0; k < 3; k++) {
		wl_archive_kind kind = k == 0 ? WL_ARCHIVE_BIG : WL_ARCHIVE_PBO;
		wb b;
		t_arc_layout at;
		build(kind, k == 2, &b, &at);
		wl_doc *d = rd(kind, b.data, b.len);
		wl_archive_patch p = { 0, (const uint8_t *)NEW, sizeof NEW };
		uint8_t *out;
		size_t n;
		char why[256];
		ck_assert_int_eq(wl_archive_rewrite(d, &p, 1, &out, &n, why, sizeof why), 0);
		const wl_archive *before = d->model;
		ck_assert_uint_eq(n, b.len + sizeof NEW - before->entries[0].stored);
		wl_doc *e = rd(kind, out, n);
		const wl_archive *a = e->model;
		ck_assert_uint_eq(e->findings.count, 0);
		ck_assert_uint_eq(a->count, 3);
		ck_assert(!a->entries[0].packed);
		holds(e, 0, NEW, sizeof NEW);
		holds(e, 1, B, sizeof B);
		holds(e, 2, C, sizeof C - 1);
		/* the others' stored bytes (packed or not) are the input's */
		for (size_t i = 1; i < 3; i++) {
			ck_assert_uint_eq(a->entries[i].stored, before->entries[i].stored);
			ck_assert_uint_eq(a->entries[i].packed, before->entries[i].packed);
			ck_assert(memcmp(out + a->entries[i].offset, b.data + before->entries[i].offset,
					 (size_t)a->entries[i].stored) == 0);
		}
		if (kind == WL_ARCHIVE_BIG) /* moved by the growth, big-endian */
			ck_assert_uint_eq(out[at.record[1] + 3] | out[at.record[1] + 2] << 8,
					  (at.data[1] + sizeof NEW - sizeof A) & 0xFFFF);
		else
			ck_assert(a->has_trailer && a->hash_ok);
		/* idempotent: the same patch again changes nothing more */
		uint8_t *again;
		size_t n2;
		ck_assert_int_eq(wl_archive_rewrite(e, NULL, 0, &again, &n2, why, sizeof why), 0);
		ck_assert(n2 == n && memcmp(again, out, n) == 0);
		free(again);
		wl_doc_free(e);
		free(out);
		wl_doc_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

START_TEST(damage_refused_or_confined)
{
	wb b;
	t_arc_layout at;
	build(WL_ARCHIVE_BIG, false, &b, &at);
	uint8_t *out = NULL;
	size_t n;
	char why[256];
	wl_archive_patch p = { 0, (const uint8_t *)NEW, sizeof NEW };
	/* the size field off by one: refused, nothing written */
	b.data[4] ^= 1;
	wl_doc *d = rd(WL_ARCHIVE_BIG, b.data, b.len);
	ck_assert_ptr_nonnull(wl_archive_unwritable(d));
	ck_assert_int_eq(wl_archive_rewrite(d, &p, 1, &out, &n, why, sizeof why), -1);
	ck_assert_ptr_null(out);
	ck_assert_ptr_nonnull(strstr(why, wl_rule_name(WLR_ARCHIVE_BIG_SIZE_FIELD)));
	wl_doc_free(d);
	b.data[4] ^= 1;
	/* near miss: a PBO with a duplicate path is written */
	t_arc_entry e[2] = { { "a.w3d", A, sizeof A, false }, { "A.W3D", B, sizeof B, false } };
	wb c;
	t_w3d_init(&c);
	t_arc_pbo(&c, NULL, e, 2, true, &at);
	d = rd(WL_ARCHIVE_PBO, c.data, c.len);
	ck_assert_uint_eq(t_count(d, "archive-duplicate-name"), 1);
	ck_assert_ptr_null(wl_archive_unwritable(d));
	ck_assert_int_eq(wl_archive_rewrite(d, &p, 1, &out, &n, why, sizeof why), 0);
	free(out);
	/* a patch twice, or of no entry: refused */
	wl_archive_patch two[2] = { p, p };
	ck_assert_int_eq(wl_archive_rewrite(d, two, 2, &out, &n, why, sizeof why), -1);
	p.entry = 7;
	ck_assert_int_eq(wl_archive_rewrite(d, &p, 1, &out, &n, why, sizeof why), -1);
	wl_doc_free(d);
	t_w3d_free(&c);
	t_w3d_free(&b);
}
END_TEST

/* Writes b to a temporary file; its name in path. */
static void to_file(const wb *b, char *path)
{
	strcpy(path, "/tmp/w3dlint-arcXXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, b->data, b->len), (ssize_t)b->len);
	close(fd);
}

START_TEST(table_from_head)
{
	uint8_t big[5000];
	memset(big, 'x', sizeof big);
	t_arc_entry e[2] = { { "Art\\W3D\\a.w3d", big, sizeof big, false }, { "b.w3d", B, sizeof B, false } };
	wb b;
	t_arc_layout at;
	t_w3d_init(&b);
	t_arc_big(&b, "BIGF", e, 2, &at);
	char path[64];
	to_file(&b, path);
	uint8_t *head;
	uint64_t size, have;
	ck_assert_int_eq(wl_archive_read_table(path, &head, &size, &have), WL_READ_OK);
	ck_assert_uint_eq(size, b.len);
	ck_assert_uint_lt(have, 100); /* the table only */
	wl_doc *d = wl_archive_read_head(WL_ARCHIVE_BIG, "t", head, have, size, WL_ARCHIVE_FULL);
	wl_doc *w = rd(WL_ARCHIVE_BIG, b.data, b.len);
	const wl_archive *x = d->model, *y = w->model;
	ck_assert(!x->partial);
	ck_assert_uint_eq(x->count, y->count);
	ck_assert_uint_eq(d->findings.count, w->findings.count);
	for (size_t i = 0; i < x->count; i++)
		ck_assert(x->entries[i].offset == y->entries[i].offset && x->entries[i].stored == y->entries[i].stored &&
			  strcmp(x->entries[i].name, y->entries[i].name) == 0);
	wl_doc_free(d);
	wl_doc_free(w);
	free(head);
	/* a data offset inside the table: read whole, no false cut */
	t_arc_patch_be32(&b, 12, 20);
	unlink(path);
	to_file(&b, path);
	ck_assert_int_eq(wl_archive_read_table(path, &head, &size, &have), WL_READ_OK);
	ck_assert_uint_eq(have, size);
	d = wl_archive_read_head(WL_ARCHIVE_BIG, "t", head, have, size, WL_ARCHIVE_FULL);
	ck_assert_uint_eq(t_count(d, "archive-table-truncated"), 0);
	ck_assert_uint_eq(((const wl_archive *)d->model)->count, 2);
	wl_doc_free(d);
	free(head);
	unlink(path);
	t_w3d_free(&b);
}
END_TEST

Suite *archive_write_suite(void)
{
	Suite *s = suite_create("archive_write");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, no_patch_same_bytes);
	tcase_add_test(tc, replace_moves_the_rest);
	tcase_add_test(tc, damage_refused_or_confined);
	tcase_add_test(tc, table_from_head);
	suite_add_tcase(s, tc);
	return s;
}
