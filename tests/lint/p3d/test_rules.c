/* tests/lint/p3d/test_rules.c - the P3D reader (core/p3d/) and checks (lint/p3d/) on small
 * hand-built ODOL and MLOD files (tests/build/p3dbuild.c): every rule fires on
 * its defect and stays silent on the near miss. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/p3d/p3d.h"
#include "lint/lint.h"
#include "tests/build/p3dbuild.h"
#include "tests/build/p3dbuild_info.h"
#include "tests/build/p3dlint.h"
#include "tests/build/reader_util.h"

extern Suite *p3d_suite(void);

static const float RES3[] = { 1e15f, 2.0f, 1.0f }; /* Memory: no geometry rules */

START_TEST(test_odol_tree_and_paths)
{
	static const uint32_t versions[] = { 40, 48, 50, 53, 58, 59, 68, 70, 73, 75 };
	for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++) {
		wb b;
		t_w3d_init(&b);
		t_p3d_layout at;
		t_p3d_odol(&b, versions[v], 3, RES3, NULL, 36, &at);
		wl_doc *d = t_p3dlint_lint(&b);
		ck_assert_msg(d->findings.count == 0, "v%u: %zu findings", versions[v],
			      d->findings.count);
		const p3d_model *m = d->model;
		ck_assert(m->table_found && m->table_contiguous);
		ck_assert_uint_eq(m->table_off, at.table);
		ck_assert_uint_eq(m->lods[2].start, at.lod[2]);
		wl_chunk *lod1 = t_chunk_at(d, at.lod[1], P3D_NODE_LOD);
		ck_assert_ptr_nonnull(lod1);
		ck_assert_uint_eq(lod1->size, at.lod_end[1] - at.lod[1]);
		ck_assert(m->lods[0].walked && m->lods[1].walked && m->lods[2].walked);
		char path[64];
		wl_chunk_path(d, lod1, 7, path, sizeof path);
		ck_assert_str_eq(path, "LOD[1][7]");
		ck_assert_ptr_nonnull(t_chunk_at(d, at.tail, P3D_NODE_TAIL));
		t_p3dlint_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

START_TEST(test_version_and_encryption)
{
	wb b;
	t_w3d_init(&b);
	t_p3d_layout at;
	t_p3d_odol(&b, 75, 3, RES3, NULL, 0, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-version-unknown"), 0);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-encrypted"), 0);
	t_w3d_patch_u32(&b, at.reserved + 4, 0x1234);
	wl_doc *d = t_p3dlint_lint(&b);
	const wl_finding *f = t_find(d, "p3d-encrypted");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, at.reserved);
	ck_assert_uint_eq(f->length, 8);
	ck_assert_int_eq(f->severity, WL_SEV_ERROR);
	t_p3dlint_free(d);
	t_w3d_patch_u32(&b, at.version, 76);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-version-unknown"), 1);
	t_w3d_patch_u32(&b, at.version, 27);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-version-unknown"), 1);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_lod_count_and_truncation)
{
	wb b;
	t_w3d_init(&b);
	t_p3d_layout at;
	t_p3d_odol(&b, 50, 1, RES3, NULL, 0, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-lod-count"), 0);
	size_t full = b.len;
	t_w3d_patch_u32(&b, at.nlods, 0);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-lod-count"), 1);
	/* More resolutions than the file holds: cut, not searched. */
	t_w3d_patch_u32(&b, at.nlods, 0x10000000);
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-lod-count"), 1);
	ck_assert_uint_eq(t_count(d, "p3d-truncated"), 1);
	t_p3dlint_free(d);
	b.len = full;
	/* The header itself cut. */
	b.len = 6;
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-truncated"), 1);
	/* the last LOD in the file: no LOD follows, so a cut, not this rule */
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-lod-end-past-eof"), 0);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_resolutions)
{
	wb b;
	t_w3d_init(&b);
	t_p3d_layout at;
	const float ok[] = { 2.0f, 1.0f, 0.0f };
	t_p3d_odol(&b, 68, 3, ok, NULL, 0, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-resolution-invalid"), 0);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-resolution-duplicate"), 0);
	t_w3d_patch_u32(&b, at.res + 4, 0x7FC00000); /* NaN */
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert_int_eq(t_offset(d, "p3d-resolution-invalid"), (int64_t)at.res + 4);
	ck_assert_int_eq(t_find(d, "p3d-resolution-invalid")->element, 1);
	t_p3dlint_free(d);
	t_w3d_patch_u32(&b, at.res + 4, 0xBF800000); /* -1 */
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-resolution-invalid"), 1);
	t_w3d_patch_u32(&b, at.res + 4, 0x40000000); /* 2, as lod 0 */
	d = t_p3dlint_lint(&b);
	const wl_finding *f = t_find(d, "p3d-resolution-duplicate");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, at.res + 4);
	ck_assert_int_eq(f->severity, WL_SEV_WARNING);
	t_p3dlint_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_lod_table)
{
	wb b;
	t_w3d_init(&b);
	t_p3d_layout at;
	t_p3d_odol(&b, 73, 3, RES3, NULL, 36, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-lod-overlap"), 0);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-lod-gap"), 0);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-lod-order"), 0);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-lod-table-not-found"), 0);
	/* LOD 0 ends 8 bytes early: a gap before LOD 1. */
	t_w3d_patch_u32(&b, at.table + 12, (uint32_t)at.lod[1] - 8);
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert_int_eq(t_offset(d, "p3d-lod-gap"), (int64_t)at.table + 12);
	ck_assert_uint_eq(t_count(d, "p3d-lod-overlap"), 0);
	t_p3dlint_free(d);
	/* LOD 1 starts inside LOD 0. */
	t_w3d_patch_u32(&b, at.table + 12, (uint32_t)at.lod[1]);
	t_w3d_patch_u32(&b, at.table + 4, (uint32_t)at.lod[1] - 8);
	d = t_p3dlint_lint(&b);
	ck_assert_int_eq(t_offset(d, "p3d-lod-overlap"), (int64_t)at.table + 4);
	t_p3dlint_free(d);
	/* LOD 0 ends past the end of the file, though LOD 1 starts inside
	 * it: a wrong end offset, reported at that table entry; LOD 0 is
	 * read up to LOD 1, which is no overlap and no cut (issue 31 item 5). */
	t_w3d_patch_u32(&b, at.table + 4, (uint32_t)at.lod[1]);
	t_w3d_patch_u32(&b, at.table + 12, (uint32_t)b.len + 100);
	d = t_p3dlint_lint(&b);
	ck_assert_int_eq(t_offset(d, "p3d-lod-end-past-eof"), (int64_t)at.table + 12);
	ck_assert_int_eq(t_find(d, "p3d-lod-end-past-eof")->element, 0);
	ck_assert_uint_eq(t_find(d, "p3d-lod-end-past-eof")->length, 4);
	ck_assert_uint_eq(t_count(d, "p3d-lod-end-past-eof"), 1);
	ck_assert_uint_eq(t_count(d, "p3d-lod-overlap"), 0);
	ck_assert_uint_eq(t_count(d, "p3d-truncated"), 0);
	t_p3dlint_free(d);
	t_w3d_patch_u32(&b, at.table + 12, (uint32_t)at.lod[1]);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-lod-end-past-eof"), 0);
	/* LOD 2 ends past the end of the file: no table fits the file, but
	 * the ModelInfo walk lands on this one, so it is kept and the file
	 * is taken as cut short inside LOD 2 (tests/core/p3d/test_damage.c). */
	t_w3d_patch_u32(&b, at.table + 4, (uint32_t)at.lod[1]);
	t_w3d_patch_u32(&b, at.table + 20, (uint32_t)b.len + 1);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-lod-table-not-found"), 0);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-truncated"), 1);
	t_w3d_free(&b);
	/* ... and with ModelInfo damaged too (a skeleton name where there is
	 * none: its walk does not land on the table), no table anywhere. */
	t_p3dinfo_info info;
	memset(&info, 0, sizeof info);
	t_p3dinfo_next = &info;
	t_w3d_init(&b);
	t_p3d_odol(&b, 73, 3, RES3, NULL, 36, &at);
	t_w3d_patch_u32(&b, at.table + 20, (uint32_t)b.len + 1);
	b.data[info.skeleton] = 'x';
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-lod-table-not-found"), 1);
	t_w3d_free(&b);
	/* Ascending resolutions stored in table order: out of order. */
	const float up[] = { 1.0f, 2.0f, 3.0f };
	t_w3d_init(&b);
	t_p3d_odol(&b, 59, 3, up, NULL, 4, &at);
	d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-lod-order"), 2);
	ck_assert_int_eq(t_find(d, "p3d-lod-order")->severity, WL_SEV_INFO);
	t_p3dlint_free(d);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_not_p3d)
{
	wb b;
	t_w3d_init(&b);
	t_w3d_bytes(&b, "JUNKJUNKJUNK", 12);
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(d->findings.count, 1);
	ck_assert_uint_eq(t_count(d, "p3d-not-p3d"), 1);
	t_p3dlint_free(d);
	t_w3d_free(&b);
}
END_TEST

static const float PTS[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };

/* One MLOD LOD of a quad and a triangle; *faces: offset of face 0. */
static void mlod_quad(wb *b, t_p3d_face *f, size_t *faces)
{
	t_w3d_init(b);
	t_p3d_mlod_begin(b, 2);
	*faces = t_p3d_mlod_lod(b, PTS, 4, T_P3D_UP, 4, f, 2, 1.0f);
	t_p3d_mlod_lod(b, PTS, 4, T_P3D_UP, 4, f, 2, 1e15f);
}

START_TEST(test_mlod_walk)
{
	t_p3d_face f[2] = { { 4, { 0, 1, 2, 3 } }, { 3, { 0, 1, 2, 0 } } };
	wb b;
	size_t faces;
	mlod_quad(&b, f, &faces);
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(d->findings.count, 0);
	const p3d_model *m = d->model;
	ck_assert(m->mlod);
	ck_assert(m->lods[0].walked && m->lods[1].walked);
	ck_assert(m->lods[1].resolution == 1e15f);
	ck_assert_uint_eq(m->lods[1].end, b.len);
	t_p3dlint_free(d);
	t_w3d_free(&b);

	/* A 5-vertex face; then a point index out of range. */
	f[1].n = 5;
	mlod_quad(&b, f, &faces);
	d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-face-vertex-count"), 2);
	const wl_finding *v = t_find(d, "p3d-face-vertex-count");
	ck_assert_int_eq(v->element, 1);
	ck_assert_uint_eq(v->offset, faces + 74);
	char path[64];
	ck_assert_str_eq(wl_chunk_path(d, v->chunk, v->element, path, sizeof path), "LOD[0]/faces[1]");
	t_p3dlint_free(d);
	t_w3d_free(&b);
	f[1].n = 3;
	f[1].idx[2] = 4;
	mlod_quad(&b, f, &faces);
	d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-face-index"), 4); /* point + normal, 2 lods */
	ck_assert_uint_eq(t_count(d, "p3d-face-vertex-count"), 0);
	t_p3dlint_free(d);
	t_w3d_free(&b);
	f[1].idx[2] = 3; /* near miss: the last point */
	mlod_quad(&b, f, &faces);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-face-index"), 0);
	t_w3d_free(&b);
}
END_TEST

START_TEST(test_mlod_defects)
{
	t_p3d_face f[2] = { { 4, { 0, 1, 2, 3 } }, { 3, { 0, 1, 2, 0 } } };
	wb b;
	size_t faces;
	mlod_quad(&b, f, &faces);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-not-finite"), 0);
	t_w3d_patch_u32(&b, 12 + 28 + 16 + 4, 0x7F800000); /* point 1 y = inf */
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert_int_eq(t_offset(d, "p3d-not-finite"), 12 + 28 + 16);
	t_p3dlint_free(d);
	t_w3d_free(&b);
	/* The end tag renamed: the list runs to the end of the file. */
	mlod_quad(&b, f, &faces);
	for (size_t i = 0; i + 11 <= b.len; i++)
		if (memcmp(b.data + i, "#EndOfFile#", 11) == 0)
			b.data[i + 1] = 'X';
	d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-mlod-no-eof-tag"), 1);
	t_p3dlint_free(d);
	t_w3d_free(&b);
	/* A LOD signature that is neither P3DM nor SP3X (both named). */
	mlod_quad(&b, f, &faces);
	memcpy(b.data + 12, "SP3Y", 4);
	d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-mlod-lod-signature"), 1);
	ck_assert_ptr_nonnull(strstr(t_find(d, "p3d-mlod-lod-signature")->message, "SP3X"));
	t_p3dlint_free(d);
	t_w3d_free(&b);
	/* Cut inside the faces. */
	mlod_quad(&b, f, &faces);
	b.len = faces + 30;
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-truncated"), 1);
	t_w3d_free(&b);
}
END_TEST

static const float QUAD[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };

/* A one-LOD ODOL of version v with the quad's 4 vertices and faces f. */
static void odol_quad(wb *b, uint32_t v, const t_p3d_face *f, uint32_t pad, int compress,
		      t_p3d_layout *at)
{
	t_p3d_lod l = { 4, QUAD, f, 2, pad, compress };
	t_w3d_init(b);
	t_p3d_odol(b, v, 1, RES3, &l, 0, at);
}

START_TEST(test_odol_walk_faces)
{
	static const uint32_t versions[] = { 48, 50, 68, 69, 73 };
	for (size_t k = 0; k < sizeof versions / sizeof versions[0]; k++) {
		uint32_t v = versions[k], isz = v >= 69 ? 4 : 2;
		t_p3d_face f[2] = { { 4, { 0, 1, 2, 3 } }, { 3, { 0, 1, 2, 0 } } };
		wb b;
		t_p3d_layout at;
		odol_quad(&b, v, f, 0, 0, &at);
		wl_doc *d = t_p3dlint_lint(&b);
		ck_assert_msg(d->findings.count == 0, "v%u: %zu findings", v, d->findings.count);
		ck_assert(((const p3d_model *)d->model)->lods[0].walked);
		t_p3dlint_free(d);
		t_w3d_free(&b);
		f[1].n = 5;
		odol_quad(&b, v, f, 0, 0, &at);
		d = t_p3dlint_lint(&b);
		const wl_finding *fc = t_find(d, "p3d-face-vertex-count");
		ck_assert_ptr_nonnull(fc);
		ck_assert_uint_eq(fc->offset, at.faces[0] + 1 + 4 * isz);
		char path[64];
		ck_assert_str_eq(wl_chunk_path(d, fc->chunk, fc->element, path, sizeof path),
				 "LOD[0]/faces[1]");
		t_p3dlint_free(d);
		t_w3d_free(&b);
		f[1].n = 3;
		f[1].idx[1] = 4;
		odol_quad(&b, v, f, 0, 0, &at);
		d = t_p3dlint_lint(&b);
		/* the vertex count: stored from v50, the clip flags' count below */
		ck_assert_uint_eq(t_count(d, "p3d-face-index"), 1);
		ck_assert_int_eq(t_offset(d, "p3d-face-index"), (int64_t)(at.faces[0] + 1 + 4 * isz + 1 + isz));
		t_p3dlint_free(d);
		t_w3d_free(&b);
		f[1].idx[1] = 3; /* near miss: the last vertex */
		odol_quad(&b, v, f, 0, 0, &at);
		ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-face-index"), 0);
		t_w3d_free(&b);
	}
}
END_TEST

START_TEST(test_odol_walk_end_and_blocks)
{
	t_p3d_face f[2] = { { 4, { 0, 1, 2, 3 } }, { 3, { 0, 1, 2, 0 } } };
	wb b;
	t_p3d_layout at;
	/* 3 bytes after the structure: the walk ends before the LOD's end */
	odol_quad(&b, 59, f, 3, 0, &at);
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert_int_eq(t_offset(d, "p3d-lod-walk"), (int64_t)at.lod_end[0] - 3);
	ck_assert(!((const p3d_model *)d->model)->lods[0].walked);
	t_p3dlint_free(d);
	t_w3d_free(&b);
	/* sizeOfRestData as the builder writes it (p3d_lod.c's rule for each
	 * version) is silent; one more fires, below and from v68 */
	for (uint32_t v = 48; v <= 73; v += 25) {
		odol_quad(&b, v, f, 0, 0, &at);
		ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-rest-size"), 0);
		t_w3d_patch_u32(&b, at.rest[0], t_le32(b.data + at.rest[0]) + 1);
		d = t_p3dlint_lint(&b);
		ck_assert_int_eq(t_offset(d, "p3d-rest-size"), (int64_t)at.rest[0]);
		ck_assert_uint_eq(t_count(d, "p3d-lod-walk"), 0);
		t_p3dlint_free(d);
		t_w3d_free(&b);
	}
	/* v64+: a flagged LZO block decodes; a flagged garbage block does not */
	odol_quad(&b, 73, f, 0, 1, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-block-decode"), 0);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-lod-walk"), 0);
	t_w3d_free(&b);
	odol_quad(&b, 73, f, 0, 2, &at);
	d = t_p3dlint_lint(&b);
	ck_assert_int_eq(t_offset(d, "p3d-block-decode"), (int64_t)at.positions[0] + 4);
	t_p3dlint_free(d);
	t_w3d_free(&b);
	/* a non-finite position */
	float pos[4][3];
	memcpy(pos, QUAD, sizeof pos);
	pos[2][1] = NAN;
	t_p3d_lod l = { 4, (const float (*)[3])pos, f, 2, 0, 1 };
	t_w3d_init(&b);
	t_p3d_odol(&b, 70, 1, RES3, &l, 0, &at);
	d = t_p3dlint_lint(&b);
	const wl_finding *nf = t_find(d, "p3d-not-finite");
	ck_assert_ptr_nonnull(nf);
	ck_assert_int_eq(nf->element, 2);
	ck_assert_uint_eq(nf->offset, at.positions[0] + 4);
	t_p3dlint_free(d);
	t_w3d_free(&b);
}
END_TEST

/* Both sides of the 1024-byte rule below v64, inside a LOD walk. */
START_TEST(test_odol_walk_1024)
{
	static float many[86][3];
	for (int i = 0; i < 86; i++)
		many[i][0] = (float)(i % 7);
	t_p3d_face f[1] = { { 3, { 0, 1, 2, 0 } } };
	const uint32_t counts[] = { 85, 86 }; /* 1020 bytes raw, 1032 LZO */
	for (int k = 0; k < 2; k++) {
		t_p3d_lod l = { counts[k], (const float (*)[3])many, f, 1, 0, 0 };
		wb b;
		t_p3d_layout at;
		t_w3d_init(&b);
		t_p3d_odol(&b, 50, 1, RES3, &l, 0, &at);
		wl_doc *d = t_p3dlint_lint(&b);
		ck_assert_msg(d->findings.count == 0, "%u vertices: %zu findings", counts[k],
			      d->findings.count);
		ck_assert(((const p3d_model *)d->model)->lods[0].walked);
		size_t stored = at.lod_end[0] - at.positions[0];
		if (k == 0)
			ck_assert_uint_gt(stored, 1020);
		else
			ck_assert_uint_lt(stored, 1020); /* compressed */
		t_p3dlint_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

Suite *p3d_suite(void)
{
	Suite *s = suite_create("p3d");
	TCase *tc = tcase_create("p3d");
	tcase_add_test(tc, test_odol_tree_and_paths);
	tcase_add_test(tc, test_version_and_encryption);
	tcase_add_test(tc, test_lod_count_and_truncation);
	tcase_add_test(tc, test_resolutions);
	tcase_add_test(tc, test_lod_table);
	tcase_add_test(tc, test_not_p3d);
	tcase_add_test(tc, test_mlod_walk);
	tcase_add_test(tc, test_mlod_defects);
	tcase_add_test(tc, test_odol_walk_faces);
	tcase_add_test(tc, test_odol_walk_end_and_blocks);
	tcase_add_test(tc, test_odol_walk_1024);
	suite_add_tcase(s, tc);
	return s;
}
