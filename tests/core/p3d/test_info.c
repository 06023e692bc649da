/* tests/core/p3d/test_info.c - the ODOL ModelInfo walk (core/p3d/p3d_info.c,
 * p3d_odol.c) on hand-built files (tests/build/p3dbuild_info.c): its nodes, the
 * table it lands on, p3d-modelinfo-walk, and the rules it reports. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "core/p3d/p3d.h"
#include "lint/lint.h"
#include "tests/build/p3dbuild_info.h"
#include "tests/build/p3dlint.h"
#include "tests/build/reader_util.h"

extern Suite *p3d_info_suite(void);

static const float RES3[] = { 1e13f, 2.0f, 1.0f };
static const uint32_t VERSIONS[] = { 40, 48, 50, 53, 59, 68, 70, 73, 75 };
static const char *const BONES[] = { "root", "", "arm", "Root", "hand", "arm" };
static const int32_t ANIMS[] = { 0, -1, 2 };

/* A 3-LOD file of version v whose ModelInfo has BONES and ANIMS (info
 * filled), LODs 0 and 1 non-permanent. */
static void build(wb *b, uint32_t v, t_p3dinfo_info *info, t_p3d_layout *at)
{
	memset(info, 0, sizeof *info);
	info->bones = BONES;
	info->n_bones = 3;
	info->anim_bones = ANIMS;
	info->n_anims = v >= 30 ? 3 : 0;
	t_w3d_init(b);
	t_p3dinfo_next = info;
	t_p3d_odol(b, v, 3, RES3, NULL, 0, at);
	t_p3dinfo_loadable(b, at, v, 3, 2);
}

START_TEST(test_walk_nodes)
{
	for (size_t k = 0; k < sizeof VERSIONS / sizeof VERSIONS[0]; k++) {
		uint32_t v = VERSIONS[k];
		wb b;
		t_p3dinfo_info in;
		t_p3d_layout at;
		build(&b, v, &in, &at);
		wl_doc *d = t_p3dlint_lint(&b);
		ck_assert_msg(d->findings.count == 0, "v%u: %zu findings: %s", v, d->findings.count,
			      d->findings.count ? d->findings.items[0].message : "");
		const p3d_model *m = d->model;
		ck_assert(m->info_walked && m->table_found);
		ck_assert_uint_eq(m->table_off, at.table);
		ck_assert(m->skeleton_read);
		ck_assert_uint_eq(m->n_skeleton_bones, 3);
		wl_chunk *info = t_chunk_at(d, in.start, P3D_NODE_INFO);
		ck_assert_ptr_nonnull(info);
		ck_assert_uint_eq(info->size, at.table - in.start);
		ck_assert_ptr_nonnull(t_chunk_at(d, in.skeleton, P3D_NODE_SKELETON));
		ck_assert_ptr_nonnull(t_chunk_at(d, in.start, P3D_NODE_INFOFIELDS));
		wl_chunk *infos = t_chunk_at(d, at.table + 27, P3D_NODE_LODINFOS);
		ck_assert_ptr_nonnull(infos);
		ck_assert_uint_eq(infos->size, at.lod[0] - at.table - 27);
		wl_chunk *rec = t_child(infos, 1);
		ck_assert_ptr_nonnull(rec);
		char path[64];
		wl_chunk_path(d, rec, -1, path, sizeof path);
		ck_assert_str_eq(path, "LoadableLodInfo/info[1]");
		ck_assert(m->lods[0].walked && m->lods[2].walked);
		t_p3dlint_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

/* The walk stops at a field (fire), or ends elsewhere than the table: the
 * search's table is kept and one info names the field. */
START_TEST(test_walk_mismatch)
{
	wb b;
	t_p3dinfo_info in;
	t_p3d_layout at;
	build(&b, 73, &in, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-modelinfo-walk"), 0);
	/* The animation class count: far more than the file holds. */
	size_t p = in.classes;
	wl_doc *d;
	t_w3d_patch_u32(&b, p, 0x7FFFFFFF);
	d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-modelinfo-walk"), 1);
	const wl_finding *f = t_find(d, "p3d-modelinfo-walk");
	ck_assert_int_eq(f->severity, WL_SEV_INFO);
	ck_assert_msg(strstr(f->message, "animation class count") != NULL, "%s", f->message);
	const p3d_model *m = d->model;
	ck_assert(m->table_found && !m->info_walked && !m->skeleton_read);
	ck_assert_uint_eq(m->table_off, at.table);
	ck_assert_ptr_nonnull(t_chunk_at(d, in.start, P3D_NODE_MODELINFO));
	ck_assert(m->lods[0].walked);
	t_p3dlint_free(d);
	/* Class 1 moves bone 1 but its axis is not stored: the walk reads 24
	 * bytes more and ends inside the table. */
	t_w3d_patch_u32(&b, p, 3);
	t_w3d_patch_u32(&b, in.anim[1], 1);
	d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-modelinfo-walk"), 1);
	m = d->model;
	ck_assert_uint_eq(m->table_off, at.table);
	ck_assert(!m->info_walked);
	t_p3dlint_free(d);
	t_w3d_free(&b);
}
END_TEST

/* A non-permanent flag without its LoadableLodInfo record. */
START_TEST(test_loadable_mismatch)
{
	wb b;
	t_p3dinfo_info in;
	t_p3d_layout at;
	build(&b, 59, &in, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-modelinfo-walk"), 0);
	b.data[at.table + 8 * 3 + 2] = 0; /* LOD 2 asks for a third record */
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-modelinfo-walk"), 1);
	ck_assert_ptr_nonnull(t_chunk_at(d, at.table + 27, P3D_NODE_LOADINFO));
	t_p3dlint_free(d);
	t_w3d_free(&b);
}
END_TEST

/* A bone whose parent names no bone: one warning per bone, at the parent
 * name; the parent "Root" of "arm" names "root" (letter case ignored). */
START_TEST(test_skeleton_parent)
{
	wb b;
	t_p3dinfo_info in;
	t_p3d_layout at;
	build(&b, 73, &in, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-skeleton-parent"), 0);
	memcpy(b.data + in.parent[2], "arx", 3);
	wl_doc *d = t_p3dlint_lint(&b);
	const wl_finding *f = t_p3dlint_one(d, "p3d-skeleton-parent", in.parent[2], 4);
	ck_assert_int_eq(f->element, 2);
	ck_assert_int_eq(f->severity, WL_SEV_WARNING);
	t_p3dlint_free(d);
	memcpy(b.data + in.parent[1], "Roox", 4);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-skeleton-parent"), 2);
	t_w3d_free(&b);
}
END_TEST

/* An animation's bone index outside the skeleton (3 bones): one error per
 * index; -1 (no bone) and 2 are the near misses. */
START_TEST(test_animation_bone)
{
	wb b;
	t_p3dinfo_info in;
	t_p3d_layout at;
	build(&b, 50, &in, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-animation-bone"), 0);
	t_w3d_patch_u32(&b, in.anim[2], 3);
	wl_doc *d = t_p3dlint_lint(&b);
	const wl_finding *f = t_p3dlint_one(d, "p3d-animation-bone", in.anim[2], 4);
	ck_assert_int_eq(f->element, 2);
	ck_assert_int_eq(f->severity, WL_SEV_ERROR);
	t_p3dlint_free(d);
	t_w3d_patch_u32(&b, in.anim[0], (uint32_t)-2);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-animation-bone"), 2);
	t_w3d_free(&b);
}
END_TEST

/* A NaN or infinity in a ModelInfo float field: one p3d-not-finite per
 * field (the bounding box minimum and maximum here). */
START_TEST(test_info_not_finite)
{
	wb b;
	t_p3dinfo_info in;
	t_p3d_layout at;
	build(&b, 68, &in, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-not-finite"), 0);
	t_w3d_patch_f32(&b, in.bbox + 4, NAN);
	wl_doc *d = t_p3dlint_lint(&b);
	t_p3dlint_one(d, "p3d-not-finite", in.bbox, 12);
	t_p3dlint_free(d);
	t_w3d_patch_f32(&b, in.bbox + 20, INFINITY);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-not-finite"), 2);
	t_w3d_free(&b);
}
END_TEST

static const float CUBE[3][3] = { { -1, -1, -1 }, { 1, 1, 1 }, { 0, 0.5f, 0 } };

/* A 3-LOD file of version v whose first LOD (resolution 1, graphical)
 * has 3 vertices (pos) and whose ModelInfo box is (-1,-1,-1)..(1,1,1)
 * (visual box: vis, or the same). */
static void build_box(wb *b, uint32_t v, const float (*pos)[3], const float *vis, t_p3d_layout *at)
{
	static t_p3dinfo_info in;
	memset(&in, 0, sizeof in);
	for (int k = 0; k < 3; k++) {
		in.bbox_min[k] = -1;
		in.bbox_max[k] = 1;
	}
	in.vis = vis;
	t_p3d_lod lods[3];
	memset(lods, 0, sizeof lods);
	lods[2].nverts = 3;
	lods[2].pos = pos;
	t_w3d_init(b);
	t_p3dinfo_next = &in;
	t_p3d_odol(b, v, 3, RES3, lods, 0, at);
}

/* Vertices outside ModelInfo's box: one warning per vertex at the
 * positions block; a vertex 0.5 mm outside is the near miss; the LOD's
 * bounds are its vertices' min and max. */
START_TEST(test_vertex_outside_bbox)
{
	static const uint32_t vs[] = { 50, 73 };
	for (size_t k = 0; k < 2; k++) {
		wb b;
		t_p3d_layout at;
		float pos[3][3];
		memcpy(pos, CUBE, sizeof pos);
		pos[1][0] = 1.0005f;
		build_box(&b, vs[k], (const float (*)[3])pos, NULL, &at);
		wl_doc *d = t_p3dlint_lint(&b);
		ck_assert_uint_eq(t_count(d, "p3d-vertex-outside-bbox"), 0);
		const p3d_lod *l = &((const p3d_model *)d->model)->lods[2];
		ck_assert(l->has_bounds);
		ck_assert(l->vmin[0] == -1 && l->vmax[0] == 1.0005f && l->vmax[1] == 1);
		ck_assert(!((const p3d_model *)d->model)->lods[0].has_bounds);
		t_p3dlint_free(d);
		t_w3d_free(&b);
		pos[1][0] = 1.5f;
		build_box(&b, vs[k], (const float (*)[3])pos, NULL, &at);
		d = t_p3dlint_lint(&b);
		const wl_finding *f = t_p3dlint_one(d, "p3d-vertex-outside-bbox", at.positions[2] + 4, 36 + (vs[k] >= 64));
		ck_assert_int_eq(f->element, 1);
		ck_assert_int_eq(f->severity, WL_SEV_WARNING);
		t_p3dlint_free(d);
		t_w3d_free(&b);
		pos[0][2] = -2.0f;
		build_box(&b, vs[k], (const float (*)[3])pos, NULL, &at);
		ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-vertex-outside-bbox"), 2);
		t_w3d_free(&b);
	}
}
END_TEST

/* The tolerance is the catalogue's parameter (1 mm by default): a vertex
 * 0.5 mm outside fires with a tolerance of 0.1 mm; the rule can be turned
 * off. */
START_TEST(test_bbox_tolerance_param)
{
	const char *r = "p3d-vertex-outside-bbox";
	wb b;
	t_p3d_layout at;
	float pos[3][3];
	memcpy(pos, CUBE, sizeof pos);
	pos[1][0] = 1.0005f;
	build_box(&b, 73, (const float (*)[3])pos, NULL, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, r), 0);
	ck_assert_uint_eq(t_p3dlint_count_config(&b, r, "rules:\n  p3d-vertex-outside-bbox:\n"
					       "    params: {tolerance: 0.0001}\n"), 1);
	ck_assert_uint_eq(t_p3dlint_count_config(&b, r, "rules:\n  p3d-vertex-outside-bbox:\n"
					       "    params: {tolerance: 0.01}\n"), 0);
	t_w3d_free(&b);
	pos[1][0] = 1.5f;
	build_box(&b, 73, (const float (*)[3])pos, NULL, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, r), 1);
	ck_assert_uint_eq(t_p3dlint_count_config(&b, r, "rules:\n  p3d-vertex-outside-bbox: off\n"), 0);
	t_w3d_free(&b);
}
END_TEST

/* v52+: a graphical LOD's vertex inside bboxMin/Max but outside the
 * visual box fires; below v52 there is no visual box. */
START_TEST(test_vertex_outside_visual_bbox)
{
	static const float vis[6] = { -1, -1, -1, 1, 0.25f, 1 };
	wb b;
	t_p3d_layout at;
	build_box(&b, 59, CUBE, vis, &at);
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert_uint_eq(t_count(d, "p3d-vertex-outside-bbox"), 2);
	const wl_finding *f = t_find(d, "p3d-vertex-outside-bbox");
	ck_assert_msg(strstr(f->message, "visual bounding box") != NULL, "%s", f->message);
	t_p3dlint_free(d);
	t_w3d_free(&b);
	build_box(&b, 50, CUBE, vis, &at);
	ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-vertex-outside-bbox"), 0);
	t_w3d_free(&b);
}
END_TEST

Suite *p3d_info_suite(void)
{
	Suite *s = suite_create("p3d_info");
	TCase *tc = tcase_create("walk");
	tcase_add_test(tc, test_walk_nodes);
	tcase_add_test(tc, test_walk_mismatch);
	tcase_add_test(tc, test_loadable_mismatch);
	tcase_add_test(tc, test_skeleton_parent);
	tcase_add_test(tc, test_bbox_tolerance_param);
	tcase_add_test(tc, test_animation_bone);
	tcase_add_test(tc, test_info_not_finite);
	tcase_add_test(tc, test_vertex_outside_bbox);
	tcase_add_test(tc, test_vertex_outside_visual_bbox);
	suite_add_tcase(s, tc);
	return s;
}
