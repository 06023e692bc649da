/* tests/lint/p3d/test_geometry.c - the special-LOD rules (issue 19 item 3:
 * lint/p3d/check_components.c, check_mass.c, lod_names.c) on MLOD and
 * ODOL files built by tests/p3dbuild*.c, ODOL at the version gates the
 * rules read through (LZSS below v44, the positions' flag byte from v64,
 * 32-bit face indices from v69).  Each rule: it fires, a near miss does
 * not, one more defective element is one more finding. */
#include <check.h>
#include <string.h>

#include "core/cursor.h"
#include "core/msgargs.h"
#include "core/p3d/p3d.h"
#include "fix/driver.h"
#include "lint/p3d/checks.h"
#include "tests/build/p3dbuild.h"
#include "tests/build/p3dbuild_info.h"
#include "tests/build/p3dbuild_lod.h"
#include "tests/build/p3dbuild_mlod.h"
#include "tests/build/p3dlint.h"

extern Suite *p3d_geometry_suite(void);

static const uint32_t VERSIONS[] = { 40, 50, 63, 64, 68, 69, 73 };
#define N_VERSIONS (sizeof VERSIONS / sizeof VERSIONS[0])

#define GEOMETRY 1e13f
#define FIRE 7e15f
#define VIEW 6e15f

/* A test mesh: points, faces and up to 4 components (face ranges). */
typedef struct mesh {
	float p[64][3];
	t_p3d_face f[64];
	uint32_t np, nf;
	uint32_t comp_from[4], comp_to[4], n_comps;
} mesh;

static void quad(mesh *m, uint32_t base, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	m->f[m->nf++] = (t_p3d_face){ 4, { base + a, base + b, base + c, base + d } };
}

static void tri(mesh *m, uint32_t base, uint32_t a, uint32_t b, uint32_t c)
{
	m->f[m->nf++] = (t_p3d_face){ 3, { base + a, base + b, base + c, base + a } };
}

static void point(mesh *m, float x, float y, float z)
{
	m->p[m->np][0] = x;
	m->p[m->np][1] = y;
	m->p[m->np][2] = z;
	m->np++;
}

/* The unit cube at x offset dx, 8 points (index x + 2y + 4z), 6 quads
 * wound consistently; `skip` faces (a bit each) left out. */
static void cube(mesh *m, float dx, unsigned skip)
{
	uint32_t b = m->np;
	for (int i = 0; i < 8; i++)
		point(m, dx + (float)(i & 1), (float)((i >> 1) & 1), (float)((i >> 2) & 1));
	static const uint32_t q[6][4] = { { 0, 2, 3, 1 }, { 4, 5, 7, 6 }, { 0, 1, 5, 4 },
					  { 2, 6, 7, 3 }, { 0, 4, 6, 2 }, { 1, 3, 7, 5 } };
	m->comp_from[m->n_comps] = m->nf;
	for (int i = 0; i < 6; i++)
		if (!(skip & (1u << i)))
			quad(m, b, q[i][0], q[i][1], q[i][2], q[i][3]);
	m->comp_to[m->n_comps++] = m->nf;
}

/* The unit cube at x offset dx with a V groove along y in its top, whose
 * bottom line is at height h: closed; concave when h < 1 (the four top
 * corners lie (1 - h) / sqrt((1 - h)^2 + 1/4) m in front of the far
 * groove face's plane). */
static void groove(mesh *m, float dx, float h)
{
	uint32_t b = m->np;
	for (int i = 0; i < 8; i++)
		point(m, dx + (float)(i & 1), (float)((i >> 1) & 1), (float)((i >> 2) & 1));
	point(m, dx + 0.5f, 0, h); /* 8 */
	point(m, dx + 0.5f, 1, h); /* 9 */
	m->comp_from[m->n_comps] = m->nf;
	quad(m, b, 0, 2, 3, 1);
	quad(m, b, 0, 4, 6, 2);
	quad(m, b, 1, 3, 7, 5);
	quad(m, b, 0, 1, 5, 8);
	tri(m, b, 0, 8, 4);
	tri(m, b, 2, 6, 9);
	quad(m, b, 2, 9, 7, 3);
	quad(m, b, 4, 8, 9, 6);
	quad(m, b, 8, 5, 7, 9);
	m->comp_to[m->n_comps++] = m->nf;
}

/* Reverses face i's winding. */
static void flip(mesh *m, uint32_t i)
{
	t_p3d_face *f = &m->f[i];
	for (uint32_t k = 0; k < f->n / 2; k++) {
		uint32_t t = f->idx[k];
		f->idx[k] = f->idx[f->n - 1 - k];
		f->idx[f->n - 1 - k] = t;
	}
}

/* Selection names that replace the components' default names (NULL:
 * the default ComponentNN), for the proxy tests; reset after use. */
static const char *sel_name[4];

/* The rule an ODOL file gets for MLOD rule id: p3d-component-X becomes
 * p3d-odol-component-X (binarised models, info); others are the same. */
static const char *odol_rule(const char *rule)
{
	static char buf[4][64];
	static int next;
	const char *stem = "p3d-component-";
	if (strncmp(rule, stem, strlen(stem)) != 0)
		return rule;
	char *b = buf[next++ & 3];
	snprintf(b, sizeof buf[0], "p3d-odol-component-%s", rule + strlen(stem));
	return b;
}

/* Selection data of MLOD component c: one byte per point, one per face. */
static void mlod_sel(const mesh *m, uint32_t c, uint8_t *data)
{
	memset(data, 0, m->np + m->nf);
	for (uint32_t f = m->comp_from[c]; f < m->comp_to[c]; f++) {
		data[m->np + f] = 1;
		for (uint32_t k = 0; k < m->f[f].n; k++)
			data[m->f[f].idx[k]] = 1;
	}
}

/* An MLOD file of one LOD of resolution res holding m, with its first
 * `named` components in selections Component01.. and (mass >= 0) a
 * #Mass# tag of that mass per point. */
static void mlod_file(wb *b, const mesh *m, float res, uint32_t named, float mass)
{
	static const char *const names[4] = { "Component01", "Component02", "component03",
					      "Component04" };
	static uint8_t data[4][128];
	static float masses[64];
	t_p3d_tag tags[5];
	uint32_t n = 0;
	for (uint32_t c = 0; c < named; c++) {
		mlod_sel(m, c, data[c]);
		tags[n++] = (t_p3d_tag){ sel_name[c] ? sel_name[c] : names[c], data[c], m->np + m->nf };
	}
	if (mass >= 0) {
		for (uint32_t i = 0; i < m->np; i++)
			masses[i] = mass;
		tags[n++] = (t_p3d_tag){ "#Mass#", masses, 4 * m->np };
	}
	t_w3d_init(b);
	t_p3d_mlod_begin(b, 1);
	t_p3d_mlod_lod_tags(b, (const float (*)[3])m->p, m->np, T_P3D_UP, m->np, m->f,
			  m->nf, tags, n, NULL, res);
}

/* An ODOL file of version v of one LOD of resolution res holding m, its
 * first `named` components in selections component01..; ModelInfo's mass
 * 0 when zero_mass.  *lay its layout, *at the LOD's offsets. */
static void odol_file(wb *b, uint32_t v, const mesh *m, float res, uint32_t named, int zero_mass,
		      t_p3d_layout *lay, t_p3dlod_at *at)
{
	static uint32_t faces[4][64], verts[4][64];
	static const char *const names[4] = { "component01", "component02", "component03",
					      "component04" };
	t_p3dlod_sel sels[4];
	memset(sels, 0, sizeof sels);
	for (uint32_t c = 0; c < named; c++) {
		uint32_t nf = 0, nv = 0;
		uint8_t used[64] = { 0 };
		for (uint32_t f = m->comp_from[c]; f < m->comp_to[c]; f++) {
			faces[c][nf++] = f;
			for (uint32_t k = 0; k < m->f[f].n; k++)
				used[m->f[f].idx[k]] = 1;
		}
		for (uint32_t i = 0; i < m->np; i++)
			if (used[i])
				verts[c][nv++] = i;
		sels[c] = (t_p3dlod_sel){ faces[c], nf, NULL, 0, verts[c], nv, 0,
					  sel_name[c] ? sel_name[c] : names[c] };
	}
	t_p3dlod_spec s;
	memset(&s, 0, sizeof s);
	s.nverts = m->np;
	s.pos = (const float (*)[3])m->p;
	s.faces = m->f;
	s.nfaces = m->nf;
	s.sels = sels;
	s.n_sels = named;
	s.resolution = res;
	static t_p3dinfo_info info;
	memset(&info, 0, sizeof info);
	for (int k = 0; k < 3; k++) {
		info.bbox_min[k] = -1e9f;
		info.bbox_max[k] = 1e9f;
	}
	info.zero_mass = zero_mass;
	t_p3dinfo_next = &info;
	t_p3dlod_odol(b, v, &s, at, lay);
}

static size_t mlod_count(const mesh *m, float res, uint32_t named, const char *rule)
{
	wb b;
	mlod_file(&b, m, res, named, 1.0f);
	size_t n = t_p3dlint_count(&b, rule);
	t_w3d_free(&b);
	return n;
}

static size_t odol_count(uint32_t v, const mesh *m, float res, uint32_t named, const char *rule)
{
	wb b;
	t_p3d_layout lay;
	t_p3dlod_at at;
	odol_file(&b, v, m, res, named, 0, &lay, &at);
	size_t n = t_p3dlint_count(&b, odol_rule(rule));
	t_w3d_free(&b);
	return n;
}

/* Asserts that m in a LOD of resolution res with `named` components named
 * gets `want` findings of rule in MLOD and in ODOL at every version (the
 * component rules under their ODOL ids there). */
static void expect(const mesh *m, float res, uint32_t named, const char *rule, size_t want)
{
	ck_assert_uint_eq(mlod_count(m, res, named, rule), want);
	for (size_t i = 0; i < N_VERSIONS; i++) {
		size_t n = odol_count(VERSIONS[i], m, res, named, rule);
		ck_assert_msg(n == want, "v%u: %zu findings of %s, want %zu", (unsigned)VERSIONS[i], n,
			      rule, want);
	}
}

static const char *const RULES[] = { "p3d-component-open", "p3d-component-convex",
				     "p3d-component-name", "p3d-geometry-mass" };

/* A closed convex cube named Component01 in each kind of geometry LOD:
 * no finding of any of the rules. */
START_TEST(test_clean)
{
	mesh m = { 0 };
	cube(&m, 0, 0);
	const float res[3] = { GEOMETRY, FIRE, VIEW };
	for (int r = 0; r < 3; r++)
		for (int k = 0; k < 4; k++)
			expect(&m, res[r], 1, RULES[k], 0);
}
END_TEST

/* Open edges: a cube without its top has 4 (each used by one face); one
 * more missing face (the bottom, not adjacent) 4 more; a face turned
 * the other way 4 (each edge used twice in one direction). */
START_TEST(test_open)
{
	const char *r = "p3d-component-open";
	mesh m = { 0 };
	cube(&m, 0, 1u << 1);
	expect(&m, GEOMETRY, 1, r, 4);
	expect(&m, FIRE, 1, r, 4);
	expect(&m, 1.0f, 1, r, 0); /* a visual LOD: not checked */
	memset(&m, 0, sizeof m);
	cube(&m, 0, (1u << 1) | (1u << 0));
	expect(&m, VIEW, 1, r, 8);
	memset(&m, 0, sizeof m);
	cube(&m, 0, 0);
	flip(&m, 2);
	expect(&m, GEOMETRY, 1, r, 4);
	/* at the first face using the edge: MLOD, the bottom (face 0) for the
	 * flipped front face's bottom edge */
	wb b;
	mlod_file(&b, &m, GEOMETRY, 1, 1.0f);
	wl_doc *d = t_p3dlint_lint(&b);
	const wl_chunk *fn = NULL;
	const p3d_model *pm = d->model;
	fn = pm->lods[0].faces;
	ck_assert_ptr_nonnull(fn);
	ck_assert_int_eq(t_offset(d, r), (int64_t)fn->offset);
	t_p3dlint_free(d);
	t_w3d_free(&b);
}
END_TEST

/* Convexity: the grooved cube's 4 top corners lie in front of the groove
 * faces (4 findings); two grooved components 8; a groove shallower than
 * the tolerance none; the tolerance is the catalogue's parameter. */
START_TEST(test_convex)
{
	const char *r = "p3d-component-convex";
	mesh m = { 0 };
	groove(&m, 0, 0.5f);
	expect(&m, GEOMETRY, 1, r, 4);
	expect(&m, FIRE, 1, "p3d-component-open", 0);
	groove(&m, 3, 0.5f);
	expect(&m, FIRE, 2, r, 8);
	memset(&m, 0, sizeof m);
	groove(&m, 0, 0.9998f); /* corners 0.4 mm in front */
	expect(&m, GEOMETRY, 1, r, 0);
	memset(&m, 0, sizeof m);
	groove(&m, 0, 0.5f); /* corners 0.707 m in front */
	wb b;
	mlod_file(&b, &m, GEOMETRY, 1, 1.0f);
	ck_assert_uint_eq(t_p3dlint_count_config(&b, r, "rules:\n  p3d-component-convex:\n"
						"    params: {tolerance: 0.8}\n"),
			  0);
	ck_assert_uint_eq(t_p3dlint_count_config(&b, r, "rules:\n  p3d-component-convex:\n"
						"    params: {tolerance: 0.6}\n"),
			  4);
	/* at the vertex: MLOD point 4 (the first corner), after the file's
	 * 12 and the LOD's 28 header bytes */
	wl_doc *d = t_p3dlint_lint(&b);
	ck_assert_int_eq(t_offset(d, r), 12 + 28 + 16 * 4);
	wl_msgbuf mb = { 0 };
	ck_assert_ptr_nonnull(strstr(wl_finding_message(&d->findings.items[0], &mb), "Geometry lod"));
	wl_msgbuf_free(&mb);
	t_p3dlint_free(d);
	t_w3d_free(&b);
	/* ODOL: point 4's 12 bytes in the raw positions block (count, from
	 * v64 the flag byte) */
	for (size_t i = 0; i < N_VERSIONS; i++) {
		uint32_t v = VERSIONS[i];
		t_p3d_layout lay;
		t_p3dlod_at at;
		odol_file(&b, v, &m, GEOMETRY, 1, 0, &lay, &at);
		d = t_p3dlint_lint(&b);
		ck_assert_int_eq(t_offset(d, odol_rule(r)), (int64_t)(at.positions + 4 + (v >= 64) + 12 * 4));
		t_p3dlint_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

/* Naming: two cubes, the first in Component01: one finding (the second);
 * none named: two; both named: none. */
START_TEST(test_name)
{
	const char *r = "p3d-component-name";
	mesh m = { 0 };
	cube(&m, 0, 0);
	cube(&m, 3, 0);
	expect(&m, GEOMETRY, 1, r, 1);
	expect(&m, FIRE, 0, r, 2);
	expect(&m, VIEW, 2, r, 0);
	expect(&m, 1e15f, 0, r, 0); /* Memory: not checked */
}
END_TEST

/* Mass: MLOD without #Mass# or with masses summing to 0, ODOL with
 * ModelInfo's mass 0, in a Geometry LOD with faces; near misses: with
 * mass, or a LOD that is not the Geometry LOD. */
START_TEST(test_mass)
{
	const char *r = "p3d-geometry-mass";
	mesh m = { 0 };
	cube(&m, 0, 0);
	wb b;
	mlod_file(&b, &m, GEOMETRY, 1, -1);
	ck_assert_uint_eq(t_p3dlint_count(&b, r), 1);
	t_w3d_free(&b);
	mlod_file(&b, &m, GEOMETRY, 1, 0);
	ck_assert_uint_eq(t_p3dlint_count(&b, r), 1);
	t_w3d_free(&b);
	mlod_file(&b, &m, GEOMETRY, 1, 2.5f);
	ck_assert_uint_eq(t_p3dlint_count(&b, r), 0);
	t_w3d_free(&b);
	mlod_file(&b, &m, FIRE, 1, -1);
	ck_assert_uint_eq(t_p3dlint_count(&b, r), 0);
	t_w3d_free(&b);
	for (size_t i = 0; i < N_VERSIONS; i++) {
		uint32_t v = VERSIONS[i];
		t_p3d_layout lay;
		t_p3dlod_at at;
		odol_file(&b, v, &m, GEOMETRY, 1, 1, &lay, &at);
		wl_doc *d = t_p3dlint_lint(&b);
		ck_assert_msg(t_count(d, r) == 1, "v%u", (unsigned)v);
		t_p3dlint_free(d);
		t_w3d_free(&b);
		odol_file(&b, v, &m, FIRE, 1, 1, &lay, &at);
		ck_assert_uint_eq(t_p3dlint_count(&b, r), 0);
		t_w3d_free(&b);
		odol_file(&b, v, &m, GEOMETRY, 1, 0, &lay, &at);
		ck_assert_uint_eq(t_p3dlint_count(&b, r), 0);
		t_w3d_free(&b);
	}
}
END_TEST

/* Severity per variant: the grooved, open, unnamed geometry warns in an
 * MLOD source (p3d-component-*) and is an info in a binarised ODOL model
 * (p3d-odol-component-*), one finding per defect in both. */
START_TEST(test_variant_severity)
{
	mesh m = { 0 };
	groove(&m, 0, 0.5f);   /* 4 convex findings */
	cube(&m, 3, 1u << 1);  /* 4 open edges, unnamed: 1 name finding */
	wb b;
	mlod_file(&b, &m, GEOMETRY, 1, 1.0f);
	wl_doc *d = t_p3dlint_lint(&b);
	static const char *const comp[3] = { "p3d-component-convex", "p3d-component-open",
					     "p3d-component-name" };
	static const size_t want[3] = { 4, 4, 1 };
	for (int k = 0; k < 3; k++) {
		ck_assert_uint_eq(t_count(d, comp[k]), want[k]);
		ck_assert_uint_eq(t_count(d, odol_rule(comp[k])), 0);
	}
	for (size_t i = 0; i < d->findings.count; i++)
		ck_assert_int_eq(d->findings.items[i].severity, WL_SEV_WARNING);
	t_p3dlint_free(d);
	t_w3d_free(&b);
	for (size_t v = 0; v < N_VERSIONS; v++) {
		t_p3d_layout lay;
		t_p3dlod_at at;
		odol_file(&b, VERSIONS[v], &m, GEOMETRY, 1, 0, &lay, &at);
		d = t_p3dlint_lint(&b);
		for (int k = 0; k < 3; k++) {
			ck_assert_uint_eq(t_count(d, comp[k]), 0);
			ck_assert_uint_eq(t_count(d, odol_rule(comp[k])), want[k]);
		}
		size_t infos = 0;
		for (size_t i = 0; i < d->findings.count; i++)
			infos += d->findings.items[i].severity == WL_SEV_INFO;
		ck_assert_uint_eq(infos, 9);
		t_p3dlint_free(d);
		t_w3d_free(&b);
	}
}
END_TEST

/* A proxy triangle (sides 1, 2 and sqrt(5) m, as Object Builder places
 * one) next to a named cube: in a proxy:PATH selection it is in no
 * component, so no rule fires (MLOD, and ODOL at every version); the
 * same triangle in a selection of another name is a stray open face set
 * (3 open edges, 1 unnamed set). */
START_TEST(test_proxy)
{
	mesh m = { 0 };
	cube(&m, 0, 0);
	uint32_t b0 = m.np;
	point(&m, 3, 0, 0);
	point(&m, 3, 0, 2);
	point(&m, 4, 0, 0);
	m.comp_from[m.n_comps] = m.nf;
	tri(&m, b0, 0, 1, 2);
	m.comp_to[m.n_comps++] = m.nf;
	const float res[3] = { GEOMETRY, FIRE, VIEW };
	sel_name[1] = "proxy:\\a3\\data_f\\proxies\\driver.001";
	for (int r = 0; r < 3; r++)
		for (int k = 0; k < 3; k++)
			expect(&m, res[r], 2, RULES[k], 0);
	sel_name[1] = "Proxy:\\ca\\temp\\proxies\\cargo.002"; /* any case */
	expect(&m, GEOMETRY, 2, "p3d-component-open", 0);
	sel_name[1] = "proxies";   /* near miss: not a proxy selection */
	expect(&m, GEOMETRY, 2, "p3d-component-open", 3);
	expect(&m, GEOMETRY, 2, "p3d-component-name", 1);
	sel_name[1] = NULL;        /* outside any selection */
	expect(&m, FIRE, 1, "p3d-component-open", 3);
	expect(&m, FIRE, 1, "p3d-component-name", 1);
}
END_TEST

/* Runs the fixers (unsafe when asked) over b: *out the result when
 * changed (verified), else NULL. */
static wl_fix_result fix(const wb *b, bool unsafe)
{
	wl_fix_options o = { 0 };
	o.catalog = t_cat;
	o.unsafe = unsafe;
	wl_fix_result r;
	ck_assert_int_eq(wl_fix_run(&o, "t.p3d", b->data, b->len, &r), 0);
	ck_assert_msg(!r.changed || r.verified, "%s", r.problem_count ? r.problems[0] : "");
	return r;
}

/* component-convex-hull (unsafe): the grooved cube becomes the cube's
 * hull, 12 triangles over its 8 corners (the groove's 2 points unused),
 * which passes every component rule; a second run changes nothing; not
 * without --unsafe; a convex cube is left alone; two grooved components
 * both. */
START_TEST(test_hull_fix)
{
	for (uint32_t comps = 1; comps <= 2; comps++) {
		mesh m = { 0 };
		groove(&m, 0, 0.5f);
		if (comps == 2)
			groove(&m, 3, 0.5f);
		wb b;
		mlod_file(&b, &m, GEOMETRY, comps, 1.0f);
		ck_assert_uint_eq(t_p3dlint_count(&b, "p3d-component-convex"), 4 * comps);
		wl_fix_result r = fix(&b, false);
		ck_assert(!r.changed);
		wl_fix_result_free(&r);
		r = fix(&b, true);
		ck_assert(r.changed);
		wb out = { 0 };
		t_w3d_init(&out);
		t_w3d_bytes(&out, r.out, r.out_len);
		wl_doc *d = t_p3dlint_lint(&out);
		for (int k = 0; k < 4; k++)
			ck_assert_msg(t_count(d, RULES[k]) == 0, "%s", RULES[k]);
		const p3d_model *pm = d->model;
		const p3d_lod *l = &pm->lods[0];
		ck_assert_uint_eq(l->n_faces, 12 * comps);
		ck_assert_uint_eq(l->n_points, 10 * comps);
		for (uint32_t f = 0; f < l->n_faces; f++) {
			wl_cursor c = wl_cursor_make(out.data + l->face_off[f], 72, 0);
			ck_assert_uint_eq(wl_cursor_u32(&c), 3);
			for (int k = 0; k < 3; k++) {
				uint32_t pt = wl_cursor_u32(&c) % 10;
				ck_assert_uint_lt(pt, 8); /* a corner, not the groove */
				wl_cursor_skip(&c, 12);
			}
		}
		t_p3dlint_free(d);
		wl_fix_result r2 = fix(&out, true);
		ck_assert(!r2.changed);
		wl_fix_result_free(&r2);
		t_w3d_free(&out);
		wl_fix_result_free(&r);
		t_w3d_free(&b);
	}
	mesh m = { 0 };
	cube(&m, 0, 0);
	wb b;
	mlod_file(&b, &m, GEOMETRY, 1, 1.0f);
	wl_fix_result r = fix(&b, true);
	ck_assert(!r.changed);
	wl_fix_result_free(&r);
	t_w3d_free(&b);
}
END_TEST

/* The Arma names of LOD resolutions. */
START_TEST(test_lod_names)
{
	char buf[64];
	ck_assert_str_eq(wl_p3d_lod_name(1e13f, buf, sizeof buf), "Geometry");
	ck_assert_str_eq(wl_p3d_lod_name(1e15f, buf, sizeof buf), "Memory");
	ck_assert_str_eq(wl_p3d_lod_name(7e15f, buf, sizeof buf), "Fire Geometry");
	ck_assert_str_eq(wl_p3d_lod_name(6e15f, buf, sizeof buf), "View Geometry");
	ck_assert_str_eq(wl_p3d_lod_name(2e15f, buf, sizeof buf), "LandContact");
	ck_assert_str_eq(wl_p3d_lod_name(5e15f, buf, sizeof buf), "Hit-points");
	ck_assert_str_eq(wl_p3d_lod_name(1100.0f, buf, sizeof buf), "View Pilot");
	ck_assert_str_eq(wl_p3d_lod_name(10000.0f, buf, sizeof buf), "ShadowVolume 0");
	ck_assert_str_eq(wl_p3d_lod_name(10010.0f, buf, sizeof buf), "ShadowVolume 10");
	ck_assert_str_eq(wl_p3d_lod_name(1.0f, buf, sizeof buf), "Resolution 1.000");
	ck_assert_int_eq(wl_p3d_lod_kind(7e15f), WL_P3D_LOD_FIRE_GEOMETRY);
	ck_assert_int_eq(wl_p3d_lod_kind(3.5f), WL_P3D_LOD_VISUAL);
	ck_assert_int_eq(wl_p3d_lod_kind(10005.0f), WL_P3D_LOD_SHADOW);
}
END_TEST

Suite *p3d_geometry_suite(void)
{
	Suite *s = suite_create("p3d_geometry");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, t_cat_setup, t_cat_teardown);
	tcase_add_test(tc, test_clean);
	tcase_add_test(tc, test_open);
	tcase_add_test(tc, test_convex);
	tcase_add_test(tc, test_name);
	tcase_add_test(tc, test_mass);
	tcase_add_test(tc, test_variant_severity);
	tcase_add_test(tc, test_proxy);
	tcase_add_test(tc, test_hull_fix);
	tcase_add_test(tc, test_lod_names);
	suite_add_tcase(s, tc);
	return s;
}
