/* tests/core/test_archive.c - the BIG and PBO readers (core/archive/archive.h) over
 * archives built here (tests/build/archbuild.c): clean archives of both BIG
 * magics and of plain and packed PBO entries, and for every archive-* rule
 * a case where it fires, a near miss where it does not, and (rules per
 * record) one more defective record giving exactly one more finding. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/archive/archive.h"
#include "tests/build/archbuild.h"
#include "tests/build/reader_util.h"

extern Suite *archive_suite(void);

static const char MODEL_A[] = "model bytes of tank";
static const char MODEL_B[] = "another model, a little longer than the first";
static const char INI[] = "[Object]\nModel = tank\n";

static const t_arc_entry THREE[] = {
	{ "Art\\W3D\\tank.w3d", MODEL_A, sizeof MODEL_A, false },
	{ "Art\\W3D\\jeep.w3d", MODEL_B, sizeof MODEL_B, false },
	{ "Data\\INI\\tank.ini", INI, sizeof INI - 1, false },
};

static wl_doc *rd(wl_archive_kind k, const wb *b)
{
	wl_doc *d = wl_archive_read(k, "t", b->data, b->len, WL_ARCHIVE_FULL);
	ck_assert_ptr_nonnull(d);
	ck_assert(!d->oom);
	ck_assert_ptr_null(t_findings_bounds_error(d));
	return d;
}

static const wl_archive *arc(const wl_doc *d)
{
	return d->model;
}

static void big(const t_arc_entry *e, size_t n, wb *b, t_arc_layout *at)
{
	t_w3d_init(b);
	t_arc_big(b, "BIGF", e, n, at);
}

START_TEST(big_clean)
{
	static const char *const magics[] = { "BIGF", "BIG4" };
	for (int m = 0; m < 2; m++) {
		wb b;
		t_arc_layout at;
		t_w3d_init(&b);
		t_arc_big(&b, magics[m], THREE, 3, &at);
		wl_doc *d = rd(WL_ARCHIVE_BIG, &b);
		ck_assert_uint_eq(d->findings.count, 0);
		const wl_archive *a = arc(d);
		ck_assert_uint_eq(a->count, 3);
		ck_assert_str_eq(a->entries[0].name, "Art\\W3D\\tank.w3d");
		ck_assert_str_eq(a->entries[0].path, "Art/W3D/tank.w3d");
		for (size_t i = 0; i < 3; i++) {
			ck_assert(a->entries[i].readable);
			ck_assert_uint_eq(a->entries[i].offset, at.data[i]);
			ck_assert_mem_eq(b.data + a->entries[i].offset, THREE[i].data, THREE[i].len);
		}
		wl_doc_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

START_TEST(big_table_truncated)
{
	wb b;
	t_arc_layout at;
	big(THREE, 3, &b, &at);
	b.len = at.record[2] + 5; /* cut inside the third record */
	t_w3d_patch_u32(&b, 4, (uint32_t)b.len);
	wl_doc *d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-table-truncated"), 1);
	ck_assert_uint_eq(t_find(d, "archive-table-truncated")->offset, at.record[2]);
	ck_assert_uint_eq(arc(d)->count, 2); /* the records before the cut are kept */
	wl_doc_free(d);
	/* near miss: cut right after the table (entries past the end, table whole) */
	b.len = at.data[0];
	t_w3d_patch_u32(&b, 4, (uint32_t)b.len);
	d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-table-truncated"), 0);
	ck_assert_uint_eq(arc(d)->count, 3);
	wl_doc_free(d);
	/* a header cut short */
	b.len = 10;
	d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-table-truncated"), 1);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

/* The first-data field (bytes 12-15, big-endian): the table's end (as
 * written) and up to the first entry's bytes is sound; inside the table,
 * past the file or past an entry's start is one finding at the field, and
 * the data then start at the table's end. */
START_TEST(big_data_offset)
{
	wb b;
	t_arc_layout at;
	big(THREE, 3, &b, &at);
	uint32_t end = (uint32_t)at.record[2] + 8 + (uint32_t)strlen(THREE[2].name) + 1;
	static const struct {
		int64_t delta; /* from the table's end; INT64_MAX: 0xFFFFFFFF */
		size_t want;
	} cases[] = { { 0, 0 }, { -1, 1 }, { 1, 1 }, { INT64_MAX, 1 } };
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		uint32_t v = cases[k].delta == INT64_MAX ? 0xFFFFFFFFu : (uint32_t)((int64_t)end + cases[k].delta);
		t_arc_patch_be32(&b, 12, v);
		wl_doc *d = rd(WL_ARCHIVE_BIG, &b);
		ck_assert_uint_eq(t_count(d, "archive-big-data-offset"), cases[k].want);
		if (cases[k].want)
			ck_assert_uint_eq(t_find(d, "archive-big-data-offset")->offset, 12);
		ck_assert_uint_eq(arc(d)->data_start, end);
		ck_assert_uint_eq(arc(d)->count, 3);
		for (size_t i = 0; i < 3; i++)
			ck_assert(arc(d)->entries[i].readable);
		wl_doc_free(d);
	}
	t_w3d_free(&b);
}
END_TEST

START_TEST(big_size_field)
{
	wb b;
	t_arc_layout at;
	big(THREE, 3, &b, &at);
	wl_doc *d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-big-size-field"), 0);
	wl_doc_free(d);
	t_w3d_patch_u32(&b, 4, (uint32_t)b.len + 1);
	d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-big-size-field"), 1);
	ck_assert_uint_eq(t_find(d, "archive-big-size-field")->offset, 4);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(entry_past_end)
{
	wb b;
	t_arc_layout at;
	big(THREE, 3, &b, &at);
	/* near miss: the last entry ends exactly at the end of the file */
	wl_doc *d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-entry-past-end"), 0);
	wl_doc_free(d);
	t_arc_patch_be32(&b, at.record[2] + 4, (uint32_t)(sizeof INI)); /* one byte too many */
	d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-entry-past-end"), 1);
	ck_assert_uint_eq(t_find(d, "archive-entry-past-end")->offset, at.record[2]);
	ck_assert(!arc(d)->entries[2].readable);
	ck_assert(arc(d)->entries[0].readable && arc(d)->entries[1].readable);
	wl_doc_free(d);
	t_arc_patch_be32(&b, at.record[0], 0xFFFFFFF0u); /* one more: offset past the end */
	d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-entry-past-end"), 2);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(entries_overlap)
{
	wb b;
	t_arc_layout at;
	big(THREE, 3, &b, &at);
	wl_doc *d = rd(WL_ARCHIVE_BIG, &b); /* near miss: adjacent entries */
	ck_assert_uint_eq(t_count(d, "archive-entries-overlap"), 0);
	wl_doc_free(d);
	t_arc_patch_be32(&b, at.record[1], (uint32_t)(at.data[1] - 1)); /* one byte into tank.w3d */
	d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-entries-overlap"), 1);
	ck_assert_uint_eq(t_find(d, "archive-entries-overlap")->offset, at.record[1]);
	wl_doc_free(d);
	t_arc_patch_be32(&b, at.record[2], (uint32_t)at.data[0]); /* one more */
	d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-entries-overlap"), 2);
	wl_doc_free(d);
	/* near miss: entry 2 becomes entry 0's very bytes (offset and size): one
	 * stored file under two names loads whole under both */
	t_arc_patch_be32(&b, at.record[2] + 4, (uint32_t)(at.data[1] - at.data[0]));
	d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-entries-overlap"), 1);
	ck_assert_uint_eq(t_find(d, "archive-entries-overlap")->offset, at.record[1]);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(duplicate_name)
{
	t_arc_entry e[3];
	memcpy(e, THREE, sizeof e);
	e[1].name = "art/w3d/TANK.W3";
	wb b;
	t_arc_layout at;
	big(e, 3, &b, &at);
	wl_doc *d = rd(WL_ARCHIVE_BIG, &b); /* near miss: one letter short */
	ck_assert_uint_eq(t_count(d, "archive-duplicate-name"), 0);
	wl_doc_free(d);
	t_w3d_free(&b);
	e[1].name = "art/w3d/TANK.W3D"; /* the same path as the games look it up */
	big(e, 3, &b, &at);
	d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-duplicate-name"), 1);
	wl_doc_free(d);
	t_w3d_free(&b);
	e[2].name = "Art\\W3D\\tank.w3d"; /* one more */
	big(e, 3, &b, &at);
	d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-duplicate-name"), 2);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(unlisted_bytes)
{
	wb b;
	t_arc_layout at;
	big(THREE, 3, &b, &at);
	wl_doc *d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-unlisted-bytes"), 0);
	wl_doc_free(d);
	t_w3d_bytes(&b, "junk!", 5);
	t_w3d_patch_u32(&b, 4, (uint32_t)b.len);
	d = rd(WL_ARCHIVE_BIG, &b);
	ck_assert_uint_eq(t_count(d, "archive-unlisted-bytes"), 1);
	ck_assert_uint_eq(t_find(d, "archive-unlisted-bytes")->length, 5);
	wl_doc_free(d);
	t_w3d_free(&b);
	/* PBO: the last entry listed 3 bytes short, the trailer intact */
	t_w3d_init(&b);
	t_arc_pbo(&b, "x\\mod", THREE, 3, true, &at);
	t_w3d_patch_u32(&b, at.record[2] + strlen(THREE[2].name) + 1 + 16, (uint32_t)THREE[2].len - 3);
	t_arc_pbo_rehash(&b, &at);
	d = rd(WL_ARCHIVE_PBO, &b);
	ck_assert_uint_eq(t_count(d, "archive-unlisted-bytes"), 1);
	ck_assert_uint_eq(t_find(d, "archive-unlisted-bytes")->length, 3);
	ck_assert_uint_eq(t_count(d, "archive-pbo-hash"), 0);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(pbo_clean)
{
	uint8_t big_text[3000];
	for (size_t i = 0; i < sizeof big_text; i++)
		big_text[i] = (uint8_t)"vertex face lod "[i % 16];
	t_arc_entry e[3] = { THREE[0], { "data\\packed.w3d", big_text, sizeof big_text, true }, THREE[2] };
	for (int trailer = 0; trailer < 2; trailer++) {
		wb b;
		t_arc_layout at;
		t_w3d_init(&b);
		t_arc_pbo(&b, "z\\ace\\addons\\tripod", e, 3, trailer, &at);
		wl_doc *d = rd(WL_ARCHIVE_PBO, &b);
		ck_assert_uint_eq(d->findings.count, 0);
		const wl_archive *a = arc(d);
		ck_assert_str_eq(a->prefix, "z\\ace\\addons\\tripod");
		ck_assert_uint_eq(a->count, 3);
		ck_assert_int_eq(a->has_trailer, trailer);
		ck_assert_int_eq(a->hash_ok, trailer);
		ck_assert(a->entries[1].packed);
		ck_assert_uint_eq(a->entries[1].size, sizeof big_text);
		ck_assert_uint_lt(a->entries[1].stored, sizeof big_text);
		for (size_t i = 0; i < 3; i++) {
			uint8_t *out;
			char why[128];
			ck_assert_uint_eq(a->entries[i].offset, at.data[i]);
			ck_assert_int_eq(wl_archive_unpack(&a->entries[i], b.data + a->entries[i].offset, &out, why,
							   sizeof why),
					 0);
			ck_assert_mem_eq(out, e[i].data, e[i].len);
			free(out);
		}
		wl_doc_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

START_TEST(pbo_hash)
{
	wb b;
	t_arc_layout at;
	t_w3d_init(&b);
	t_arc_pbo(&b, NULL, THREE, 3, true, &at);
	wl_doc *d = rd(WL_ARCHIVE_PBO, &b);
	ck_assert_uint_eq(t_count(d, "archive-pbo-hash"), 0);
	wl_doc_free(d);
	b.data[at.data[1]] ^= 1; /* one byte of an entry changed after packing */
	d = rd(WL_ARCHIVE_PBO, &b);
	ck_assert_uint_eq(t_count(d, "archive-pbo-hash"), 1);
	ck_assert_uint_eq(t_find(d, "archive-pbo-hash")->offset, at.trailer);
	for (size_t i = 0; i < 3; i++) /* its entries are still read */
		ck_assert(arc(d)->entries[i].readable);
	wl_doc_free(d);
	/* the table-only depth of the walks does not hash */
	d = wl_archive_read(WL_ARCHIVE_PBO, "t", b.data, b.len, WL_ARCHIVE_TABLE);
	ck_assert_uint_eq(t_count(d, "archive-pbo-hash"), 0);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(pbo_table_truncated)
{
	wb b;
	t_arc_layout at;
	t_w3d_init(&b);
	t_arc_pbo(&b, "p", THREE, 3, false, &at);
	wl_doc *d = rd(WL_ARCHIVE_PBO, &b);
	ck_assert_uint_eq(t_count(d, "archive-table-truncated"), 0);
	wl_doc_free(d);
	b.len = at.record[2] + 10;
	d = rd(WL_ARCHIVE_PBO, &b);
	ck_assert_uint_eq(t_count(d, "archive-table-truncated"), 1);
	ck_assert_uint_eq(t_find(d, "archive-table-truncated")->offset, at.record[2]);
	ck_assert_uint_eq(arc(d)->count, 2);
	wl_doc_free(d);
	b.len = 12; /* inside the header record */
	d = rd(WL_ARCHIVE_PBO, &b);
	ck_assert_uint_eq(t_count(d, "archive-table-truncated"), 1);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(pbo_unpack)
{
	uint8_t text[2000];
	for (size_t i = 0; i < sizeof text; i++)
		text[i] = (uint8_t)"lod section "[i % 12];
	t_arc_entry e[2] = { { "a.w3d", text, sizeof text, true }, { "b.w3d", text, sizeof text, true } };
	wb b;
	t_arc_layout at;
	t_w3d_init(&b);
	t_arc_pbo(&b, NULL, e, 2, true, &at);
	wl_doc *d = rd(WL_ARCHIVE_PBO, &b); /* near miss: 'Cprs', intact */
	ck_assert_uint_eq(t_count(d, "archive-pbo-unpack"), 0);
	wl_doc_free(d);
	/* the last byte of the checksum of a's stream */
	size_t sum = at.data[1] - 1;
	b.data[sum] ^= 0x40;
	t_arc_pbo_rehash(&b, &at);
	d = rd(WL_ARCHIVE_PBO, &b);
	ck_assert_uint_eq(t_count(d, "archive-pbo-unpack"), 1);
	ck_assert(!arc(d)->entries[0].readable && arc(d)->entries[1].readable);
	wl_doc_free(d);
	b.data[sum] ^= 0x40;
	/* one more: b packed with a method nobody knows ('Enco') */
	t_w3d_patch_u32(&b, at.record[1] + 6, 0x456E636Fu);
	b.data[sum] ^= 0x40;
	t_arc_pbo_rehash(&b, &at);
	d = rd(WL_ARCHIVE_PBO, &b);
	ck_assert_uint_eq(t_count(d, "archive-pbo-unpack"), 2);
	wl_doc_free(d);
	/* an unpacked size its packed bytes cannot hold */
	b.data[sum] ^= 0x40;
	t_w3d_patch_u32(&b, at.record[1] + 6, 0x43707273u);
	t_w3d_patch_u32(&b, at.record[1] + 10, 0x7FFFFFFFu);
	t_arc_pbo_rehash(&b, &at);
	d = rd(WL_ARCHIVE_PBO, &b);
	ck_assert_uint_eq(t_count(d, "archive-pbo-unpack"), 1);
	ck_assert(!arc(d)->entries[1].readable);
	wl_doc_free(d);
	t_w3d_free(&b);
}
END_TEST

Suite *archive_suite(void)
{
	Suite *s = suite_create("archive");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, big_clean);
	tcase_add_test(tc, big_table_truncated);
	tcase_add_test(tc, big_size_field);
	tcase_add_test(tc, big_data_offset);
	tcase_add_test(tc, entry_past_end);
	tcase_add_test(tc, entries_overlap);
	tcase_add_test(tc, duplicate_name);
	tcase_add_test(tc, unlisted_bytes);
	tcase_add_test(tc, pbo_clean);
	tcase_add_test(tc, pbo_hash);
	tcase_add_test(tc, pbo_table_truncated);
	tcase_add_test(tc, pbo_unpack);
	suite_add_tcase(s, tc);
	return s;
}
