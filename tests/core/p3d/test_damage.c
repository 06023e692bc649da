/* tests/core/p3d/test_damage.c - damaged and mislabelled P3D files reported where
 * the damage is (issue 19 item 2), on files built by tests/p3dbuild*.c.
 * Each case: the defect fires, a near miss does not, one more defective
 * element is one more finding. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "core/p3d/p3d.h"
#include "tests/build/p3dbuild.h"
#include "tests/build/p3dbuild_lod.h"
#include "tests/build/p3dbuild_mlod.h"
#include "tests/build/p3dlint.h"

extern Suite *p3d_damage_suite(void);

static const t_p3d_face TRI[1] = { { 3, { 0, 1, 2, 0 } } };

/* A clean LOD of 3 vertices, one triangle in one section. */
static void tri_spec(uint32_t v, t_p3dlod_spec *s, t_p3dlod_section *sec)
{
	uint32_t isz = v >= 69 ? 4 : 2;
	memset(s, 0, sizeof *s);
	s->nverts = 3;
	s->faces = TRI;
	s->nfaces = 1;
	s->n_textures = 1;
	*sec = (t_p3dlod_section){ 0, 4 * isz, 0, -1 };
	s->sections = sec;
	s->n_sections = 1;
}

/* An ODOL file of n (<= 4) copies of the LOD of tri_spec; lay its
 * layout, at the LOD body's offsets (relative to a LOD's start). */
static void tri_file(wb *b, uint32_t v, uint32_t n, t_p3d_layout *lay, t_p3dlod_at *at)
{
	static const float res[4] = { 4, 3, 2, 1 };
	t_p3dlod_spec s;
	t_p3dlod_section sec;
	tri_spec(v, &s, &sec);
	wb body;
	t_w3d_init(&body);
	t_p3dlod_body(&body, v, &s, at);
	t_p3d_lod lods[4];
	memset(lods, 0, sizeof lods);
	for (uint32_t i = 0; i < n; i++) {
		lods[i].body = body.data;
		lods[i].body_len = body.len;
	}
	t_w3d_init(b);
	t_p3d_odol(b, v, n, res, lods, 0, lay);
	t_w3d_free(&body);
}

/* Findings of rule whose message contains part. */
static size_t count_msg(const wl_doc *d, const char *rule, const char *part)
{
	size_t n = 0;
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(d->findings.items[i].rule, rule) == 0 &&
		    strstr(d->findings.items[i].message, part))
			n++;
	return n;
}

/* A proxy or section count the LOD's bytes cannot hold: one p3d-lod-walk
 * at the count field (4 bytes), not at the LOD's end; the clean file is
 * walked; two damaged LODs give two findings. */
START_TEST(test_count_at_field)
{
	static const uint32_t vs[] = { 48, 50, 68, 73 };
	for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
		uint32_t v = vs[k];
		wb b;
		t_p3d_layout lay;
		t_p3dlod_at at;
		tri_file(&b, v, 2, &lay, &at);
		wl_doc *d = t_p3dlint_lint(&b);
		ck_assert_uint_eq(t_count(d, "p3d-lod-walk"), 0);
		ck_assert(((const p3d_model *)d->model)->lods[1].walked);
		t_p3dlint_free(d);
		/* the proxy count of LOD 0: 0x40000000 */
		t_w3d_patch_u32(&b, lay.lod[0], 0x40000000u);
		d = t_p3dlint_lint(&b);
		const wl_finding *f = t_p3dlint_one(d, "p3d-lod-walk", lay.lod[0], 4);
		ck_assert_msg(strstr(f->message, "count of proxies") != NULL, "%s", f->message);
		ck_assert_uint_eq(f->severity, WL_SEV_ERROR);
		t_p3dlint_free(d);
		/* one more: LOD 1's section count too */
		t_w3d_patch_u32(&b, lay.lod[1] + at.section[0] - 4, 0x01000000u);
		d = t_p3dlint_lint(&b);
		ck_assert_uint_eq(t_count(d, "p3d-lod-walk"), 2);
		ck_assert(t_find_at(d, "p3d-lod-walk", lay.lod[1] + at.section[0] - 4) != NULL);
		ck_assert_uint_eq(count_msg(d, "p3d-lod-walk", "count of sections"), 1);
		t_p3dlint_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

/* The boundary: a proxy count whose proxies (65 bytes at least from v40)
 * just fit the bytes left is read, and the walk stops later, on the
 * garbage the proxies leave (the near miss: nothing at the count); one
 * more proxy is reported at the count. */
START_TEST(test_count_fits)
{
	wb b;
	t_p3d_layout lay;
	t_p3dlod_at at;
	tri_file(&b, 73, 1, &lay, &at);
	uint32_t fit = (uint32_t)((lay.lod_end[0] - lay.lod[0] - 4) / 65);
	t_w3d_patch_u32(&b, lay.lod[0], fit);
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert_ptr_null(t_find_at(d, "p3d-lod-walk", lay.lod[0]));
	ck_assert_uint_eq(t_count(d, "p3d-lod-walk"), 1);
	t_p3dlint_free(d);
	t_w3d_patch_u32(&b, lay.lod[0], fit + 1);
	d = t_p3dlint_lint(&b);
	t_p3dlint_one(d, "p3d-lod-walk", lay.lod[0], 4);
	t_p3dlint_free(d);
	t_w3d_free(&b);
}
END_TEST

/* A file cut inside LOD 1 of 3 keeps its LOD table: p3d-truncated over
 * what is left of LOD 1, LOD 0 walked, no p3d-lod-table-not-found; cut
 * at LOD 2's start, the finding is at LOD 2's start offset in the table;
 * the whole file (the near miss) has none.  More LODs past the cut are
 * the same defect: still one finding. */
START_TEST(test_cut_keeps_table)
{
	static const uint32_t vs[] = { 48, 73 };
	for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
		wb b;
		t_p3d_layout lay;
		t_p3dlod_at at;
		tri_file(&b, vs[k], 3, &lay, &at);
		ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-truncated"), 0);
		size_t len = b.len;
		b.len = lay.lod[1] + (lay.lod_end[1] - lay.lod[1]) / 2;
		wl_doc *d = t_p3dlint_lint(&b);
		t_p3dlint_one(d, "p3d-truncated", lay.lod[1], b.len - lay.lod[1]);
		ck_assert_uint_eq(t_count(d, "p3d-lod-table-not-found"), 0);
		const p3d_model *m = d->model;
		ck_assert(m->table_found && m->lods[0].walked && !m->lods[1].walked);
		t_p3dlint_free(d);
		b.len = lay.lod[2];
		d = t_p3dlint_lint(&b);
		t_p3dlint_one(d, "p3d-truncated", lay.table + 8, 4);
		ck_assert_uint_eq(t_count(d, "p3d-lod-table-not-found"), 0);
		t_p3dlint_free(d);
		b.len = len;
		t_w3d_free(&b);
	}
}
END_TEST

/* An MLOD tag declaring 4 bytes fewer (or 4 more, or a size past the end
 * of the file) than it holds: one p3d-mlod-tag-size at its size field, no
 * p3d-mlod-no-eof-tag, the LOD walked; the right size is the near miss; a
 * second LOD with the same defect is one more finding. */
START_TEST(test_mlod_tag_size)
{
	static const int32_t deltas[][2] = { { 0, 0 }, { -4, 0 }, { 4, 0 }, { -4, -4 },
					     { 0x100000, 0 }, { 0, 0x100000 } };
	static const size_t want[] = { 0, 1, 1, 2, 1, 1 };
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		wb b;
		t_p3d_uv_file(&b, 2, deltas[k]);
		wl_doc *d = t_p3dlint_lint(&b);
		ck_assert_msg(t_count(d, "p3d-mlod-tag-size") == want[k], "case %zu: %zu", k,
			      t_count(d, "p3d-mlod-tag-size"));
		ck_assert_uint_eq(t_count(d, "p3d-mlod-no-eof-tag"), 0);
		ck_assert_uint_eq(d->findings.count, want[k]);
		const p3d_model *m = d->model;
		ck_assert(m->lods[0].walked && m->lods[1].walked);
		if (want[k]) {
			/* LOD 0's tag: TAGG, active byte, "#UVSet#" */
			const wl_finding *f = t_find(d, "p3d-mlod-tag-size");
			ck_assert_uint_eq(f->length, 4);
			ck_assert_uint_eq(b.data[f->offset - 9], 1);
			ck_assert(memcmp(b.data + f->offset - 8, "#UVSet#", 8) == 0);
			ck_assert_msg(strstr(f->message, "#UVSet#") != NULL, "%s", f->message);
		}
		t_p3dlint_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

/* A v50, v68 or v73 file whose header says 39 (or v73 saying 70): one
 * p3d-version-mislabel at the version field naming the layout, and the
 * file read under it (every LOD walked, no p3d-lod-walk); the right
 * version is the near miss, and so is an unknown one (p3d-version-unknown
 * alone: no layout is guessed for it).  A file has one version field. */
START_TEST(test_version_mislabel)
{
	static const uint32_t real[] = { 50, 68, 73, 73 }, said[] = { 39, 39, 39, 70 };
	for (size_t k = 0; k < sizeof real / sizeof real[0]; k++) {
		wb b;
		t_p3d_layout lay;
		t_p3dlod_at at;
		tri_file(&b, real[k], 2, &lay, &at);
		ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-version-mislabel"), 0);
		t_w3d_patch_u32(&b, lay.version, said[k]);
		wl_doc *d = t_p3dlint_lint(&b);
		const wl_finding *f = t_p3dlint_one(d, "p3d-version-mislabel", lay.version, 4);
		char want[32];
		snprintf(want, sizeof want, "the layout is v%u's", (unsigned)real[k]);
		ck_assert_msg(strstr(f->message, want) != NULL, "%s", f->message);
		ck_assert_uint_eq(f->severity, WL_SEV_ERROR);
		const p3d_model *m = d->model;
		ck_assert(m->lods[0].walked && m->lods[1].walked);
		ck_assert_uint_eq(m->version, real[k]);
		ck_assert_uint_eq(m->header_version, said[k]);
		ck_assert_uint_eq(t_count(d, "p3d-lod-walk"), 0);
		ck_assert_uint_eq(t_count(d, "p3d-modelinfo-walk"), 0);
		t_p3dlint_free(d);
		t_w3d_patch_u32(&b, lay.version, 99);
		ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-version-mislabel"), 0);
		ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-version-unknown"), 1);
		t_w3d_free(&b);
	}
}
END_TEST

Suite *p3d_damage_suite(void)
{
	Suite *s = suite_create("p3d_damage");
	TCase *tc = tcase_create("damage");
	tcase_add_test(tc, test_count_at_field);
	tcase_add_test(tc, test_count_fits);
	tcase_add_test(tc, test_cut_keeps_table);
	tcase_add_test(tc, test_mlod_tag_size);
	tcase_add_test(tc, test_version_mislabel);
	suite_add_tcase(s, tc);
	return s;
}
