/* tests/fix/w3d/test_geometry.c - tests of the geometry fixers recompute-bounds,
 * recompute-planes, normalize-quaternions and reorder-pivots
 * (fix/w3d/fix_bounds.c, fix_planes.c, fix_quaternions.c, fix_pivots.c).
 *
 * For each fixer: a broken input; the repaired values compared with values
 * the test computes itself; the re-lint without the repaired rule and with
 * no new error; idempotence (a second run makes no edit and writes the same
 * bytes); and near misses that must not be edited.  A fixer runs the way
 * w3dfix runs it: lint the bytes (wl_lint_bytes, built-in catalogue), apply
 * it to that document, serialise with wl_doc_write. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/model.h"
#include "fix/fix.h"
#include "tests/build/build_anim.h"
#include "tests/build/build_mesh.h"
#include "tests/build/build_skin.h"
#include "tests/build/reader_util.h"
#include "tests/build/robust_util.h"

extern Suite *fix_geometry_suite(void);

static wl_catalog *CAT;

static void cat_load(void)
{
	char err[256];
	CAT = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(CAT != NULL, "%s", err);
}

static const wl_fixer *fixer(const char *id)
{
	size_t n;
	const wl_fixer *const *all = wl_fixers(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i]->id, id) == 0)
			return all[i];
	ck_abort_msg("fixer %s is not registered", id);
	return NULL;
}

/* One fixer run: output bytes (malloc) and the number of edits. */
typedef struct run {
	uint8_t *out;
	size_t len;
	size_t edits;
} run;

static run apply(const char *id, const uint8_t *in, size_t n)
{
	const wl_fixer *fx = fixer(id);
	uint8_t *copy = t_copy(in, n);
	wl_doc *d = wl_lint_bytes(CAT, NULL, "fix.w3d", copy, n);
	ck_assert_ptr_nonnull(d);
	wl_fix_ctx ctx = { .doc = d, .model = d->model, .catalog = CAT, .config = NULL, .unsafe = true,
			   .forced = true, .filter = NULL };
	ck_assert_int_eq(fx->apply(&ctx), 0);
	run r = { NULL, 0, wl_edit_count(d) };
	ck_assert_int_eq(wl_doc_write(d, &r.out, &r.len), 0);
	wl_doc_free(d);
	free(copy);
	return r;
}

static size_t count_rule(const uint8_t *p, size_t n, const char *rule, size_t *errors)
{
	uint8_t *copy = t_copy(p, n);
	wl_doc *d = wl_lint_bytes(CAT, NULL, "fix.w3d", copy, n);
	ck_assert_ptr_nonnull(d);
	size_t c = t_count(d, rule), e = 0;
	for (size_t i = 0; i < d->findings.count; i++)
		e += d->findings.items[i].severity == WL_SEV_ERROR;
	if (errors)
		*errors = e;
	wl_doc_free(d);
	free(copy);
	return c;
}

/* Runs fixer id on in: asserts it edited, that `rule` fired before and is
 * gone after, that no error was added, and that a second run makes no edit
 * and changes no byte.  Returns the first run (caller frees out). */
static run fix_checked(const char *id, const wb *in, const char *rule)
{
	size_t err_before, err_after;
	ck_assert_uint_gt(count_rule(in->data, in->len, rule, &err_before), 0);
	run r = apply(id, in->data, in->len);
	ck_assert_uint_gt(r.edits, 0);
	ck_assert_uint_eq(count_rule(r.out, r.len, rule, &err_after), 0);
	ck_assert_uint_le(err_after, err_before);
	run again = apply(id, r.out, r.len);
	ck_assert_uint_eq(again.edits, 0);
	ck_assert_uint_eq(again.len, r.len);
	ck_assert(memcmp(again.out, r.out, r.len) == 0);
	free(again.out);
	return r;
}

/* Asserts fixer id makes no edit on in and writes it back unchanged. */
static void no_edit(const char *id, const wb *in)
{
	run r = apply(id, in->data, in->len);
	ck_assert_uint_eq(r.edits, 0);
	ck_assert_uint_eq(r.len, in->len);
	ck_assert(memcmp(r.out, in->data, in->len) == 0);
	free(r.out);
}

static float f32_at(const uint8_t *p, size_t off)
{
	return wl_lef32(p + off);
}

static void patch_vec(wb *b, size_t off, float x, float y, float z)
{
	t_w3d_patch_f32(b, off, x);
	t_w3d_patch_f32(b, off + 4, y);
	t_w3d_patch_f32(b, off + 8, z);
}

static size_t vert(const t_mesh_layout *l, size_t i) { return l->vertices + 8 + 12 * i; }
static size_t tri(const t_mesh_layout *l, size_t i) { return l->tris_data + 32 * i; }

/* Starts b with the valid mesh of build_mesh.h (a skin with two-bone
 * influences when skin is set); fills *l. */
static void mesh(wb *b, t_mesh_layout *l, int skin)
{
	t_mesh_opts o = { 0 };
	o.two_bone = skin;
	t_w3d_init(b);
	t_mesh_write_mesh(b, &o, l);
}

/* ------------------------------------------------------------------ */
/* recompute-bounds                                                    */
/* ------------------------------------------------------------------ */

START_TEST(bounds)
{
	cat_load();
	wb b;
	t_mesh_layout l;
	/* a 3-D square: vertex 2 lifted to z = 2, vertex 3 to z = -1; the
	 * header still holds the flat box and a sphere of radius 0.3 */
	mesh(&b, &l, 0);
	patch_vec(&b, vert(&l, 2), 1, 1, 2);
	patch_vec(&b, vert(&l, 3), 0, 1, -1);
	t_w3d_patch_f32(&b, l.header_data + 112, 0.3f);
	ck_assert_uint_gt(count_rule(b.data, b.len, "mesh-bounds-sphere", NULL), 0);
	run r = fix_checked("recompute-bounds", &b, "mesh-bounds-box");
	ck_assert_uint_eq(r.edits, 2); /* box and sphere */
	ck_assert_uint_eq(count_rule(r.out, r.len, "mesh-bounds-sphere", NULL), 0);
	/* the exact box of the four vertices, computed here */
	const float vs[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 2 }, { 0, 1, -1 } };
	for (int k = 0; k < 3; k++) {
		float lo = vs[0][k], hi = vs[0][k];
		for (int i = 1; i < 4; i++) {
			lo = fminf(lo, vs[i][k]);
			hi = fmaxf(hi, vs[i][k]);
		}
		ck_assert_float_eq(f32_at(r.out, l.header_data + 76 + 4 * (size_t)k), lo);
		ck_assert_float_eq(f32_at(r.out, l.header_data + 88 + 4 * (size_t)k), hi);
	}
	/* the sphere holds every vertex and is no larger than the box's
	 * circumscribed sphere (Ritter's is within that here) */
	double c[3], rad = f32_at(r.out, l.header_data + 112), diag = 0;
	for (int k = 0; k < 3; k++)
		c[k] = f32_at(r.out, l.header_data + 100 + 4 * (size_t)k);
	for (int i = 0; i < 4; i++) {
		double d2 = 0;
		for (int k = 0; k < 3; k++)
			d2 += (vs[i][k] - c[k]) * (vs[i][k] - c[k]);
		ck_assert_double_le(sqrt(d2), rad);
	}
	diag = sqrt(1.0 + 1.0 + 9.0) / 2;
	ck_assert_double_le(rad, diag);
	free(r.out);
	t_w3d_free(&b);

	/* box wrong, sphere right: only the box changes */
	mesh(&b, &l, 0);
	t_w3d_patch_f32(&b, l.header_data + 88, 0.5f);
	r = fix_checked("recompute-bounds", &b, "mesh-bounds-box");
	ck_assert_uint_eq(r.edits, 1);
	ck_assert_float_eq(f32_at(r.out, l.header_data + 88), 1.0f);
	ck_assert(memcmp(r.out + l.header_data + 100, b.data + l.header_data + 100, 16) == 0);
	free(r.out);
	t_w3d_free(&b);

	/* sphere only: the seed pair (0,0,0)-(1,1,0) gives center (0.5, 0.5, 0)
	 * and radius sqrt(0.5) rounded up to binary32 */
	mesh(&b, &l, 0);
	t_w3d_patch_f32(&b, l.header_data + 112, 0.5f);
	r = fix_checked("recompute-bounds", &b, "mesh-bounds-sphere");
	ck_assert_float_eq(f32_at(r.out, l.header_data + 100), 0.5f);
	ck_assert_float_eq(f32_at(r.out, l.header_data + 104), 0.5f);
	ck_assert_float_eq(f32_at(r.out, l.header_data + 108), 0.0f);
	float want = (float)sqrt(0.5);
	if ((double)want < sqrt(0.5))
		want = nextafterf(want, INFINITY);
	ck_assert_float_eq(f32_at(r.out, l.header_data + 112), want);
	free(r.out);
	t_w3d_free(&b);
	wl_catalog_free(CAT);
}
END_TEST

/* ------------------------------------------------------------------ */
/* recompute-planes                                                    */
/* ------------------------------------------------------------------ */

/* The plane of (a, b, c) in double: n = normalize(cross(b-a, c-a)), d = n.a. */
static void plane_of(const float a[3], const float b[3], const float c[3], double n[3], double *d)
{
	double e1[3], e2[3];
	for (int k = 0; k < 3; k++) {
		e1[k] = (double)b[k] - a[k];
		e2[k] = (double)c[k] - a[k];
	}
	n[0] = e1[1] * e2[2] - e1[2] * e2[1];
	n[1] = e1[2] * e2[0] - e1[0] * e2[2];
	n[2] = e1[0] * e2[1] - e1[1] * e2[0];
	double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
	for (int k = 0; k < 3; k++)
		n[k] /= len;
	*d = n[0] * a[0] + n[1] * a[1] + n[2] * a[2];
}

START_TEST(planes)
{
	cat_load();
	wb b;
	t_mesh_layout l;
	/* vertices moved off z = 0; the stored planes stay (0, 0, 1) 0, and
	 * triangle 1 gets a Blender-plugin style Dist */
	const float vs[4][3] = { { 0, 0, 1 }, { 1, 0, 0 }, { 1, 1, 1 }, { 0, 1, 2 } };
	const uint32_t ts[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };
	mesh(&b, &l, 0);
	for (int i = 0; i < 4; i++)
		patch_vec(&b, vert(&l, (size_t)i), vs[i][0], vs[i][1], vs[i][2]);
	t_w3d_patch_f32(&b, tri(&l, 1) + 28, 1.2f);
	run r = fix_checked("recompute-planes", &b, "triangle-plane");
	ck_assert_uint_eq(r.edits, 2);
	for (int t = 0; t < 2; t++) {
		double n[3], d;
		plane_of(vs[ts[t][0]], vs[ts[t][1]], vs[ts[t][2]], n, &d);
		for (int k = 0; k < 3; k++)
			ck_assert_float_eq(f32_at(r.out, tri(&l, (size_t)t) + 16 + 4 * (size_t)k), (float)n[k]);
		ck_assert_float_eq(f32_at(r.out, tri(&l, (size_t)t) + 28), (float)d);
	}
	free(r.out);
	t_w3d_free(&b);

	/* a degenerate triangle keeps its (wrong) plane; the other is fixed */
	mesh(&b, &l, 0);
	t_w3d_patch_u32(&b, tri(&l, 1) + 8, 2); /* (0, 2, 2) */
	patch_vec(&b, tri(&l, 1) + 16, 1, 0, 0);
	patch_vec(&b, tri(&l, 0) + 16, 0, 1, 0);
	r = fix_checked("recompute-planes", &b, "triangle-plane");
	ck_assert_uint_eq(r.edits, 1);
	ck_assert_float_eq(f32_at(r.out, tri(&l, 0) + 24), 1.0f);
	ck_assert(memcmp(r.out + tri(&l, 1), b.data + tri(&l, 1), 32) == 0);
	free(r.out);
	t_w3d_free(&b);
	wl_catalog_free(CAT);
}
END_TEST

/* A skin whose hierarchy is in the file (tests/build/build_skin.h): its bounds
 * are recomputed in the bind pose, from points this test computes with its
 * own matrices; with the hierarchy in another file, nothing is edited. */
START_TEST(bounds_skin_bind_pose)
{
	cat_load();
	t_skin_bounds bad = { { 0, 0, 0 }, { 1, 1, 1 }, { 0.5f, 0.5f, 0.5f }, 0.5f };
	wl_tf_bytes t = t_skin_build(&bad, "SKIN");
	wb b = { .data = t.data, .len = t.len };
	ck_assert_uint_gt(count_rule(b.data, b.len, "mesh-bounds-sphere", NULL), 0);
	run r = fix_checked("recompute-bounds", &b, "mesh-bounds-box");
	ck_assert_uint_eq(r.edits, 2);
	ck_assert_uint_eq(count_rule(r.out, r.len, "mesh-bounds-sphere", NULL), 0);
	/* MESH_HEADER3 payload of the only mesh */
	uint8_t *copy = t_copy(b.data, b.len);
	wl_doc *d = wl_lint_bytes(CAT, NULL, "fix.w3d", copy, b.len);
	ck_assert_ptr_nonnull(d);
	const w3d_model *md = d->model;
	ck_assert_uint_eq(md->mesh_count, 1);
	size_t hdr = (size_t)wl_chunk_payload_offset(md->meshes[0]->header.src);
	wl_doc_free(d);
	free(copy);
	double p[T_SKIN_VERTICES][3];
	t_skin_bind_points(p);
	for (int k = 0; k < 3; k++) {
		double lo = p[0][k], hi = p[0][k];
		for (int i = 1; i < T_SKIN_VERTICES; i++) {
			lo = fmin(lo, p[i][k]);
			hi = fmax(hi, p[i][k]);
		}
		ck_assert_double_eq_tol(f32_at(r.out, hdr + 76 + 4 * (size_t)k), lo, 1e-6);
		ck_assert_double_eq_tol(f32_at(r.out, hdr + 88 + 4 * (size_t)k), hi, 1e-6);
	}
	double rad = f32_at(r.out, hdr + 112);
	for (int i = 0; i < T_SKIN_VERTICES; i++) {
		double d2 = 0;
		for (int k = 0; k < 3; k++) {
			double c = f32_at(r.out, hdr + 100 + 4 * (size_t)k);
			d2 += (p[i][k] - c) * (p[i][k] - c);
		}
		ck_assert_double_le(sqrt(d2), rad + 1e-6);
	}
	free(r.out);
	free(t.data);
	/* the hierarchy is in another file: the skin is left alone */
	t = t_skin_build(&bad, "OTHER");
	b = (wb){ .data = t.data, .len = t.len };
	no_edit("recompute-bounds", &b);
	free(t.data);
}
END_TEST

/* Mesh near misses: the mesh (a skin when skin is set) patched, then the
 * fixer must make no edit. */
typedef struct mesh_miss {
	const char *name, *fixer;
	int skin;
	t_mesh_patch p[3];
} mesh_miss;

#define F32_AT(member, add, v) { T_MESH_F32, T_MESH_AT(member, add), .f = (v) }

static const mesh_miss mesh_misses[] = {
	{ "bounds_valid", "recompute-bounds", 0 },
	/* a skin with bad bounds */
	{ "bounds_skin", "recompute-bounds", 1, { F32_AT(header_data, 88, 0.5f) } },
	{ "planes_valid", "recompute-planes", 0 },
	/* a skin's planes are left alone: triangle 0's normal (0, 1, 0) */
	{ "planes_skin", "recompute-planes", 1,
	  { F32_AT(tris_data, 16, 0), F32_AT(tris_data, 20, 1), F32_AT(tris_data, 24, 0) } },
};

START_TEST(mesh_near_miss)
{
	const mesh_miss *c = &mesh_misses[_i];
	cat_load();
	wb b;
	t_mesh_layout l;
	mesh(&b, &l, c->skin);
	t_mesh_apply_patches(&b, &l, c->p, 3);
	no_edit(c->fixer, &b);
	t_w3d_free(&b);
	wl_catalog_free(CAT);
}
END_TEST

/* ------------------------------------------------------------------ */
/* normalize-quaternions                                               */
/* ------------------------------------------------------------------ */

static void assert_quat(const uint8_t *p, size_t off, const double q[4])
{
	for (int j = 0; j < 4; j++)
		ck_assert_float_eq(f32_at(p, off + 4 * (size_t)j), (float)q[j]);
}

START_TEST(quaternions)
{
	cat_load();
	wb b;
	t_anim_hier_at ha;
	t_anim_anim_at aa;
	t_anim_canim_at ca;
	t_w3d_init(&b);
	t_anim_hier_opts ho = t_anim_hier_defaults(4);
	t_anim_hierarchy(&b, &ho, &ha);
	t_anim_anim_opts ao = t_anim_anim_defaults();
	ao.q_scale = 2.0f;        /* last frame (0, 0, 0, 2) */
	t_anim_animation(&b, &ao, &aa);
	t_anim_canim_opts co = t_anim_canim_defaults(0);
	co.q_scale = 0.5f;        /* last key (0, 0, 0, 0.5) */
	t_anim_compressed_animation(&b, &co, &ca);
	const float q2[4] = { 1, 2, 2, 4 };
	size_t p2 = ha.pivots_payload + 2 * 60 + 44, p3 = ha.pivots_payload + 3 * 60 + 44;
	for (int j = 0; j < 4; j++) {
		t_w3d_patch_f32(&b, p2 + 4 * (size_t)j, q2[j]);
		t_w3d_patch_f32(&b, p3 + 4 * (size_t)j, 0.0f); /* zero quaternion */
	}
	run r = fix_checked("normalize-quaternions", &b, "quaternion-not-normalized");
	ck_assert_uint_eq(r.edits, 4);
	double len = sqrt(1.0 + 4 + 4 + 16);
	const double want2[4] = { 1 / len, 2 / len, 2 / len, 4 / len }, ident[4] = { 0, 0, 0, 1 };
	assert_quat(r.out, p2, want2);
	assert_quat(r.out, p3, ident);
	/* raw channel: frames 0..9, 16 bytes each after the 12-byte header */
	assert_quat(r.out, aa.q_payload + 12 + 9 * 16, ident);
	ck_assert(memcmp(r.out + aa.q_payload + 12, b.data + aa.q_payload + 12, 9 * 16) == 0);
	/* time-coded channel: 5 keys of 20 bytes after the 8-byte header */
	assert_quat(r.out, ca.q_payload + 8 + 4 * 20 + 4, ident);
	free(r.out);
	t_w3d_free(&b);

	/* near miss: |q| = 1.0005 is inside the tolerance */
	t_w3d_init(&b);
	ho.bad_rot_pivot = 1;
	ho.rot_scale = 1.0005f;
	t_anim_hierarchy(&b, &ho, &ha);
	no_edit("normalize-quaternions", &b);
	t_w3d_free(&b);

	/* adaptive delta: the initial value is reported but not touched */
	t_w3d_init(&b);
	co = t_anim_canim_defaults(1);
	co.q_scale = 2.0f;
	t_anim_compressed_animation(&b, &co, &ca);
	ck_assert_uint_gt(count_rule(b.data, b.len, "quaternion-not-normalized", NULL), 0);
	no_edit("normalize-quaternions", &b);
	t_w3d_free(&b);
	wl_catalog_free(CAT);
}
END_TEST

/* ------------------------------------------------------------------ */
/* reorder-pivots                                                      */
/* ------------------------------------------------------------------ */

/* SKEL: ROOTTRANSFORM, BONE01 (parent 3), BONE02 (0), BONE03 (0), fixup row
 * i marked with i; a raw and a time-coded animation of SKEL (channels on
 * pivot 1); HLOD TANK of SKEL whose sub-object 0 is the skin TANK.BODY on
 * bone 1 and sub-object 1 sits on bone 2; the skin's two-bone influences
 * use bones 0 and 1. */
typedef struct rig {
	t_anim_hier_at h;
	t_anim_anim_at a;
	t_anim_canim_at c;
	t_anim_hlod_at hl;
	t_mesh_layout m;
	size_t sub0, sub1, infl;
} rig;

static void write_rig(wb *b, rig *r, const uint32_t *parents)
{
	t_w3d_init(b);
	t_anim_hier_opts ho = t_anim_hier_defaults(4);
	ho.parents = parents;
	t_anim_hierarchy(b, &ho, &r->h);
	for (int i = 0; i < 4; i++)
		t_w3d_patch_f32(b, r->h.fixups_payload + 48 * (size_t)i, (float)i);
	t_anim_anim_opts ao = t_anim_anim_defaults();
	t_anim_animation(b, &ao, &r->a);
	t_anim_canim_opts co = t_anim_canim_defaults(0);
	t_anim_compressed_animation(b, &co, &r->c);
	t_anim_hlod_opts lo = t_anim_hlod_defaults(1, 2);
	t_anim_hlod(b, &lo, &r->hl);
	r->sub0 = r->hl.array_header_payload[0] + 16;
	r->sub1 = r->sub0 + 36 + 8;
	t_w3d_patch_u32(b, r->sub0, 1);
	memset(b->data + r->sub0 + 4, 0, 32);
	memcpy(b->data + r->sub0 + 4, "TANK.BODY", 9);
	t_w3d_patch_u32(b, r->sub1, 2);
	t_mesh_opts mo = { 0 };
	mo.two_bone = 1;
	t_mesh_write_mesh(b, &mo, &r->m);
	r->infl = r->m.tris + 8 + 2 * 32 + 8;
}

START_TEST(reorder)
{
	cat_load();
	wb b;
	rig g;
	const uint32_t parents[4] = { 0xFFFFFFFFu, 3, 0, 0 };
	write_rig(&b, &g, parents);
	run r = fix_checked("reorder-pivots", &b, "pivot-parent-order");
	/* smallest parent-first order: 0, 2, 3, 1 -> new index of 1 is 3,
	 * of 2 is 1, of 3 is 2 */
	static const char *const names[4] = { "ROOTTRANSFORM", "BONE02", "BONE03", "BONE01" };
	const uint32_t new_parent[4] = { 0xFFFFFFFFu, 0, 0, 2 };
	for (size_t k = 0; k < 4; k++) {
		const uint8_t *p = r.out + g.h.pivots_payload + 60 * k;
		ck_assert_str_eq((const char *)p, names[k]);
		ck_assert_uint_eq(t_le32(p + 16), new_parent[k]);
		/* translation (0, old index, 0) travels with the pivot */
		ck_assert_float_eq(f32_at(p, 24), (float)(k == 0 ? 0 : k == 1 ? 2 : k == 2 ? 3 : 1));
	}
	const float rows[4] = { 0, 2, 3, 1 };
	for (size_t k = 0; k < 4; k++)
		ck_assert_float_eq(f32_at(r.out, g.h.fixups_payload + 48 * k), rows[k]);
	/* references: channels on pivot 1 -> 3; sub-objects 1 -> 3, 2 -> 1;
	 * influences (0, 1) -> (0, 3) */
	ck_assert_uint_eq(wl_le16(r.out + g.a.x_payload + 8), 3);
	ck_assert_uint_eq(wl_le16(r.out + g.a.q_payload + 8), 3);
	ck_assert_uint_eq(wl_le16(r.out + g.c.x_payload + 4), 3);
	ck_assert_uint_eq(wl_le16(r.out + g.c.q_payload + 4), 3);
	ck_assert_uint_eq(t_le32(r.out + g.sub0), 3);
	ck_assert_uint_eq(t_le32(r.out + g.sub1), 1);
	for (size_t v = 0; v < 4; v++) {
		ck_assert_uint_eq(wl_le16(r.out + g.infl + 8 * v), 0);
		ck_assert_uint_eq(wl_le16(r.out + g.infl + 8 * v + 2), 3);
		ck_assert_uint_eq(wl_le16(r.out + g.infl + 8 * v + 4), 60); /* weights kept */
	}
	free(r.out);
	t_w3d_free(&b);

	/* near misses: parent-first already; a cycle (1 <-> 2) is not fixable */
	const uint32_t ok[4] = { 0xFFFFFFFFu, 0, 1, 0 };
	write_rig(&b, &g, ok);
	no_edit("reorder-pivots", &b);
	t_w3d_free(&b);
	const uint32_t cycle[4] = { 0xFFFFFFFFu, 2, 1, 0 };
	write_rig(&b, &g, cycle);
	ck_assert_uint_gt(count_rule(b.data, b.len, "pivot-parent-order", NULL), 0);
	no_edit("reorder-pivots", &b);
	t_w3d_free(&b);

	/* objects of another hierarchy keep their indices */
	write_rig(&b, &g, parents);
	memcpy(b.data + g.hl.header_payload + 24, "OTHER", 6);
	r = apply("reorder-pivots", b.data, b.len);
	ck_assert_uint_gt(r.edits, 0);
	ck_assert_uint_eq(t_le32(r.out + g.sub0), 1);
	ck_assert_uint_eq(wl_le16(r.out + g.infl + 2), 1);
	ck_assert_uint_eq(wl_le16(r.out + g.a.x_payload + 8), 3);
	free(r.out);
	t_w3d_free(&b);
	wl_catalog_free(CAT);
}
END_TEST

/* The fixers are registered with the rules they repair and their safety. */
START_TEST(registry)
{
	static const struct {
		const char *id, *rule;
		bool unsafe;
	} want[] = { { "recompute-bounds", "mesh-bounds-box", false },
		     { "recompute-planes", "triangle-plane", false },
		     { "normalize-quaternions", "quaternion-not-normalized", false },
		     { "reorder-pivots", "pivot-parent-order", true } };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const wl_fixer *fx = fixer(want[i].id);
		bool listed = false;
		for (const wl_rule_id *r = wl_fixer_rules(fx); *r != WL_RULE_NONE; r++)
			listed |= strcmp(wl_rule_name(*r), want[i].rule) == 0;
		ck_assert(listed);
		ck_assert_int_eq(fx->unsafe, want[i].unsafe);
	}
}
END_TEST

Suite *fix_geometry_suite(void)
{
	const TTest *tests[] = { bounds, bounds_skin_bind_pose, planes, quaternions, reorder, registry, NULL };
	Suite *s = t_robust_suite_of("fix_geometry", "fixers", 60, tests);
	t_robust_add_loop(s, "mesh_near_miss", 60, mesh_near_miss,
		    (int)(sizeof mesh_misses / sizeof mesh_misses[0]));
	return s;
}
