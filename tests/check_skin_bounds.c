/* check_skin_bounds.c - skin bounds in the bind pose (issue 11 part 2):
 * mesh-bounds-box / mesh-bounds-sphere on a skin whose hierarchy is in the
 * file (lint/check_geometry.c, lint/model_lookup.c wl_mesh_bounds_points,
 * core/w3d/bind_pose.c), skin-bounds-unchecked when it is not, and the real
 * skins of ../shared/corpus/w3d (or $W3DLINT_CORPUS): the exporter's own
 * bounds must not fire, and a box collapsed to its Min corner must.  The
 * fixer side is in tests/check_fix_geometry.c. */
#define _XOPEN_SOURCE 700
#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../core/file_io.h"
#include "../core/w3d/model.h"
#include "../lint/lint.h"
#include "../lint/w3d/model_lookup.h"
#include "build_skin.h"
#include "reader_util.h"
#include "robust_util.h"

extern Suite *skin_bounds_suite(void);

static wl_catalog *CAT;

static void cat_load(void)
{
	char err[256];
	CAT = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(CAT != NULL, "%s", err);
}

/* Lints p[0..n) with every check; *copy receives the bytes the document
 * reads (free after the document). */
static wl_doc *lint(const uint8_t *p, size_t n, uint8_t **copy)
{
	*copy = ru_copy(p, n);
	wl_doc *d = wl_lint_bytes(CAT, NULL, "skin.w3d", *copy, n);
	ck_assert_ptr_nonnull(d);
	return d;
}

/* The file offset of SKIN.BODY's MESH_HEADER3 payload. */
static uint64_t header_payload(const wl_doc *d)
{
	const w3d_model *md = d->model;
	ck_assert_uint_ge(md->mesh_count, 1);
	return wl_chunk_payload_offset(md->meshes[0]->header.src);
}

/* Lints the model with bounds b and HLOD hierarchy name h; asserts the
 * number of findings of box, sphere and skin-bounds-unchecked, and that a
 * box / sphere finding is at its header field. */
static void expect(const bs_bounds *b, const char *h, size_t box, size_t sphere, size_t unchecked)
{
	wl_tf_bytes t = bs_build(b, h);
	uint8_t *copy;
	wl_doc *d = lint(t.data, t.len, &copy);
	ck_assert_uint_eq(ru_count(d, "mesh-bounds-box"), box);
	ck_assert_uint_eq(ru_count(d, "mesh-bounds-sphere"), sphere);
	ck_assert_uint_eq(ru_count(d, "skin-bounds-unchecked"), unchecked);
	uint64_t hp = header_payload(d);
	if (box)
		ck_assert_uint_eq(ru_find(d, "mesh-bounds-box")->offset, hp + 76);
	if (sphere)
		ck_assert_uint_eq(ru_find(d, "mesh-bounds-sphere")->offset, hp + 100);
	if (unchecked) {
		const wl_finding *f = ru_find(d, "skin-bounds-unchecked");
		ck_assert_uint_eq(f->offset, hp + 76);
		ck_assert_uint_eq(f->length, 40);
		ck_assert_int_eq(f->severity, WL_SEV_INFO);
	}
	wl_doc_free(d);
	free(copy);
	free(t.data);
}

START_TEST(exporter_bounds_pass)
{
	cat_load();
	bs_bounds b = bs_exporter_bounds();
	expect(&b, "SKIN", 0, 0, 0);
	wl_catalog_free(CAT);
}
END_TEST

START_TEST(box_misses_body)
{
	cat_load();
	/* the box of the stored, bone-relative vertices: (0,0,0)..(1,1,1) */
	bs_bounds b = bs_exporter_bounds();
	const float lo[3] = { 0, 0, 0 }, hi[3] = { 1, 1, 1 };
	memcpy(b.min, lo, sizeof lo);
	memcpy(b.max, hi, sizeof hi);
	expect(&b, "SKIN", 1, 0, 0);
	/* the bind-pose box 0.01 short on max x fires; 0.0005 short does not */
	b = bs_exporter_bounds();
	b.max[0] -= 0.01f;
	expect(&b, "SKIN", 1, 0, 0);
	b = bs_exporter_bounds();
	b.max[0] -= 0.0005f;
	expect(&b, "SKIN", 0, 0, 0);
	wl_catalog_free(CAT);
}
END_TEST

START_TEST(sphere_misses_body)
{
	cat_load();
	bs_bounds b = bs_exporter_bounds();
	b.radius -= 0.01f;
	expect(&b, "SKIN", 0, 1, 0);
	b = bs_exporter_bounds();
	b.radius -= 0.0005f;
	expect(&b, "SKIN", 0, 0, 0);
	wl_catalog_free(CAT);
}
END_TEST

START_TEST(hierarchy_elsewhere)
{
	cat_load();
	/* the HLOD names a hierarchy of another file: said once, at info;
	 * wrong bounds are then not reported */
	bs_bounds b = bs_exporter_bounds();
	expect(&b, "OTHER", 0, 0, 1);
	b.radius = 0.1f;
	expect(&b, "OTHER", 0, 0, 1);
	wl_catalog_free(CAT);
}
END_TEST

/* ------------------------------------------------------------------ */
/* the real corpus                                                     */
/* ------------------------------------------------------------------ */

static size_t SKINS_CHECKED, SKINS_FIRING, FILES;

static bool has_finding_at(const wl_doc *d, const char *rule, uint64_t off)
{
	return ru_find_at(d, rule, off) != NULL;
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	size_t len = strlen(path);
	if (type != FTW_F || len < 4 || strcasecmp(path + len - 4, ".w3d") != 0)
		return 0;
	uint8_t *data;
	size_t n;
	if (wl_read_file(path, (size_t)1 << 28, &data, &n) != WL_READ_OK)
		return 0;
	FILES++;
	uint8_t *copy;
	wl_doc *d = lint(data, n, &copy);
	const w3d_model *md = d->model;
	for (size_t i = 0; md && i < md->mesh_count; i++) {
		const w3d_mesh *m = md->meshes[i];
		double(*pts)[3];
		if (!m || !w3d_mesh_is_skin(m) || !m->header.src || m->header.bytes < W3D_MESH_HEADER3_SIZE ||
		    !m->vertices.count || wl_mesh_bounds_points(md, m, &pts) != WL_BOUNDS_POINTS_OK)
			continue;
		free(pts);
		SKINS_CHECKED++;
		uint64_t hp = wl_chunk_payload_offset(m->header.src);
		bool fires = has_finding_at(d, "mesh-bounds-box", hp + 76);
		SKINS_FIRING += fires;
		if (fires)
			printf("skin_bounds: %s: mesh '%s' fires mesh-bounds-box\n", path, m->name);
		/* Max := Min: a box that misses the body must fire */
		uint8_t *broken = ru_copy(data, n);
		memcpy(broken + hp + 88, broken + hp + 76, 12);
		uint8_t *bcopy;
		wl_doc *bd = lint(broken, n, &bcopy);
		ck_assert_msg(has_finding_at(bd, "mesh-bounds-box", hp + 76),
			      "%s: mesh '%s' with Max = Min does not fire mesh-bounds-box", path, m->name);
		wl_doc_free(bd);
		free(bcopy);
		free(broken);
	}
	wl_doc_free(d);
	free(copy);
	free(data);
	return 0;
}

START_TEST(real_skins)
{
	const char *root = getenv("W3DLINT_CORPUS");
	if (!root)
		root = "../shared/corpus/w3d";
	struct stat st;
	if (stat(root, &st) != 0) {
		printf("skin_bounds: skipped: no corpus at %s\n", root);
		return;
	}
	cat_load();
	SKINS_CHECKED = SKINS_FIRING = FILES = 0;
	ck_assert_int_eq(nftw(root, visit, 16, FTW_PHYS), 0);
	printf("skin_bounds: %zu files, %zu skins with their hierarchy in the file checked in the bind pose, "
	       "%zu fire mesh-bounds-box\n",
	       FILES, SKINS_CHECKED, SKINS_FIRING);
	/* real exporter output passes: a wrong transform fires on most skins */
	ck_assert_uint_le(SKINS_FIRING * 10, SKINS_CHECKED);
	wl_catalog_free(CAT);
}
END_TEST

Suite *skin_bounds_suite(void)
{
	const TTest *tests[] = { exporter_bounds_pass, box_misses_body, sphere_misses_body, hierarchy_elsewhere,
				 real_skins, NULL };
	return rb_suite_of("skin_bounds", "rules", 300, tests, NULL);
}
