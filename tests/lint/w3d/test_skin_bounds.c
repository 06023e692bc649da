/* tests/lint/w3d/test_skin_bounds.c - skin bounds in the bind pose (issue 11 part 2):
 * mesh-bounds-box / mesh-bounds-sphere on a skin whose hierarchy is in the
 * file (lint/check_geometry.c, lint/model_lookup.c wl_mesh_bounds_points,
 * core/w3d/bind_pose.c), skin-bounds-unchecked when it is not, and the real
 * skins of ../shared/corpus/w3d (or $W3DLINT_CORPUS): the exporter's own
 * bounds must not fire, and a box collapsed to its Min corner must.  The
 * fixer side is in tests/fix/w3d/test_geometry.c. */
#define _XOPEN_SOURCE 700
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/file_io.h"
#include "core/w3d/model.h"
#include "lint/lint.h"
#include "core/w3d/model_lookup.h"
#include "tests/build/build_skin.h"
#include "tests/build/reader_util.h"
#include "tests/build/tree_walk.h"
#include "core/platform.h"
#include "tests/build/robust_util.h"

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
	*copy = t_copy(p, n);
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
static void expect(const t_skin_bounds *b, const char *h, size_t box, size_t sphere, size_t unchecked)
{
	wl_tf_bytes t = t_skin_build(b, h);
	uint8_t *copy;
	wl_doc *d = lint(t.data, t.len, &copy);
	ck_assert_uint_eq(t_count(d, "mesh-bounds-box"), box);
	ck_assert_uint_eq(t_count(d, "mesh-bounds-sphere"), sphere);
	ck_assert_uint_eq(t_count(d, "skin-bounds-unchecked"), unchecked);
	uint64_t hp = header_payload(d);
	if (box)
		ck_assert_uint_eq(t_find(d, "mesh-bounds-box")->offset, hp + 76);
	if (sphere)
		ck_assert_uint_eq(t_find(d, "mesh-bounds-sphere")->offset, hp + 100);
	if (unchecked) {
		const wl_finding *f = t_find(d, "skin-bounds-unchecked");
		ck_assert_uint_eq(f->offset, hp + 76);
		ck_assert_uint_eq(f->length, 40);
		ck_assert_int_eq(f->severity, WL_SEV_INFO);
	}
	wl_doc_free(d);
	free(copy);
	free(t.data);
}

/* One lint case: the exporter's bounds (t_skin_exporter_bounds) changed by
 * `change` with value v, the HLOD naming hierarchy `hier`, and the number of
 * findings of mesh-bounds-box, mesh-bounds-sphere and skin-bounds-unchecked. */
enum { KEEP, STORED_BOX, MAX_X_SHORT, RADIUS_SHORT, RADIUS };
static const struct {
	const char *what;
	int change;
	float v;
	const char *hier;
	size_t box, sphere, unchecked;
} cases[] = {
	{ "the exporter's bounds pass", KEEP, 0, "SKIN", 0, 0, 0 },
	{ "the box of the stored, bone-relative vertices fires", STORED_BOX, 0, "SKIN", 1, 0, 0 },
	{ "the box 0.01 short on max x fires", MAX_X_SHORT, 0.01f, "SKIN", 1, 0, 0 },
	{ "near miss: the box 0.0005 short", MAX_X_SHORT, 0.0005f, "SKIN", 0, 0, 0 },
	{ "the sphere 0.01 short fires", RADIUS_SHORT, 0.01f, "SKIN", 0, 1, 0 },
	{ "near miss: the sphere 0.0005 short", RADIUS_SHORT, 0.0005f, "SKIN", 0, 0, 0 },
	/* the HLOD names a hierarchy of another file: said once, at info;
	 * wrong bounds are then not reported */
	{ "hierarchy elsewhere", KEEP, 0, "OTHER", 0, 0, 1 },
	{ "hierarchy elsewhere, bad sphere", RADIUS, 0.1f, "OTHER", 0, 0, 1 },
};

START_TEST(skin_case)
{
	cat_load();
	t_skin_bounds b = t_skin_exporter_bounds();
	float v = cases[_i].v;
	switch (cases[_i].change) {
	case STORED_BOX:
		for (int k = 0; k < 3; k++)
			b.min[k] = 0, b.max[k] = 1;
		break;
	case MAX_X_SHORT:
		b.max[0] -= v;
		break;
	case RADIUS_SHORT:
		b.radius -= v;
		break;
	case RADIUS:
		b.radius = v;
		break;
	default:
		break;
	}
	expect(&b, cases[_i].hier, cases[_i].box, cases[_i].sphere, cases[_i].unchecked);
	wl_catalog_free(CAT);
}
END_TEST

/* ------------------------------------------------------------------ */
/* the real corpus                                                     */
/* ------------------------------------------------------------------ */

static size_t SKINS_CHECKED, SKINS_FIRING, FILES;

static bool has_finding_at(const wl_doc *d, const char *rule, uint64_t off)
{
	return t_find_at(d, rule, off) != NULL;
}

static void visit(const char *path, void *ud)
{
	(void)ud;
	size_t len = strlen(path);
	if (len < 4 || strcasecmp(path + len - 4, ".w3d") != 0)
		return;
	uint8_t *data;
	size_t n;
	if (wl_read_file(path, (size_t)1 << 28, &data, &n) != WL_READ_OK)
		return;
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
		uint8_t *broken = t_copy(data, n);
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
}

START_TEST(real_skins)
{
	const char *root = getenv("W3DLINT_CORPUS");
	if (!root)
		root = "../shared/corpus/w3d";
	struct stat st;
	if (wl_os_stat(root, &st) != 0) {
		printf("skin_bounds: skipped: no corpus at %s\n", root);
		return;
	}
	cat_load();
	SKINS_CHECKED = SKINS_FIRING = FILES = 0;
	ck_assert_int_eq(t_walk_files(root, visit, NULL), 0);
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
	const TTest *tests[] = { real_skins, NULL };
	Suite *s = t_robust_suite_of("skin_bounds", "corpus", 300, tests);
	t_robust_add_loop(s, "rules", 60, skin_case, (int)(sizeof cases / sizeof cases[0]));
	return s;
}
