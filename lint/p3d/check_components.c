/* check_components.c - the components of the Geometry, Fire Geometry and
 * View Geometry LODs as Binarize and the game use them (checks.h), MLOD
 * and ODOL alike (mesh.h gathers the faces and components).
 *
 * Source: BI community wiki "LOD" (Geometry: "Object must be named
 * ComponentXX", "Must be closed and convex"; Fire Geometry: "Must be
 * closed and convex") and "Validating Geometries" (Object Builder's Find
 * Non-Closed and Find Non-Convexities).
 *   p3d-component-name    faces of such a LOD in no ComponentNN named
 *                         selection: one finding per connected set of
 *                         them, at its first face
 *   p3d-component-open    an edge of a component not used by exactly two
 *                         of its faces in opposite directions: one
 *                         finding per edge, at the first face using it
 *   p3d-component-convex  a vertex of a closed component in front of the
 *                         plane of one of its faces by more than the
 *                         rule's tolerance (metres): one finding per
 *                         vertex, at the vertex; the face named is the
 *                         one it lies farthest in front of.  A face's
 *                         plane is its Newell plane through its centroid;
 *                         its own vertices are not held to it (a
 *                         non-planar quad is not by itself concave).  Components
 *                         with an open edge are not checked (their
 *                         inside is not defined), nor flat ones.
 * Proxy faces (mesh.h: the triangle of a proxy:PATH selection) are in no
 * component and not checked.  A binarised (ODOL) model gets the same
 * findings under p3d-odol-component-name / -open / -convex (info: the
 * game loads it and a shipped ODOL cannot be edited), an MLOD source
 * under the p3d-component-* rules (warning).
 * Edges and vertices match by position (mesh.h welds them).  A component
 * is oriented by the sign of its volume, so the face winding (which ODOL
 * stores reversed against MLOD) does not matter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "mesh.h"

typedef struct ctx3 {
	wl_lint_ctx *ctx;
	const wl_p3d_mesh *g;
	const char *lod;       /* the LOD's Arma name */
	bool name, open, convex;
	wl_rule_id r_name, r_open, r_convex; /* the rules of the file's variant */
	double tol;
	uint8_t *mark;         /* the LOD's vertices, one byte each, all 0
	                        * between components (NULL: out of memory) */
} ctx3;

/* An undirected edge of a component (its ends lo < hi) in the edge
 * table: how many of its faces use it, how many of them from lo to hi,
 * and the first face that does. */
typedef struct edge {
	uint32_t lo, hi, face, n, fwd;
} edge;

static int by_ends(const void *x, const void *y)
{
	const edge *a = x, *b = y;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->hi < b->hi ? -1 : a->hi > b->hi;
}

/* The slot of edge (lo, hi) in table t of cap (a power of two) slots,
 * open addressing; an empty slot (n 0) when it is not there yet. */
static edge *slot(edge *t, size_t cap, uint32_t lo, uint32_t hi)
{
	uint64_t h = ((uint64_t)lo * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)hi * 0xC2B2AE3D27D4EB4Full);
	size_t k = (size_t)(h ^ (h >> 31)) & (cap - 1);
	while (t[k].n && (t[k].lo != lo || t[k].hi != hi))
		k = (k + 1) & (cap - 1);
	return &t[k];
}

static const char *comp_label(const wl_p3d_comp *c, char *buf, size_t n)
{
	if (c->name)
		snprintf(buf, n, "%.*s", (int)c->name_len, c->name);
	else
		snprintf(buf, n, "the faces connected to face %u", (unsigned)c->faces[0]);
	return buf;
}

/* p3d-component-open over component c; whether it is closed.  Its edges
 * are counted in a hash table (each face's edges in order, the faces in
 * ascending order); the edges not used exactly once in each direction are
 * then reported in the order of their ends. */
static bool closed(ctx3 *k, const wl_p3d_comp *c, const char *label)
{
	const wl_p3d_mesh *g = k->g;
	size_t cap = 16;
	while (cap < (size_t)c->n * 4)
		cap <<= 1;
	edge *t = calloc(cap, sizeof *t);
	if (!t)
		return false;
	size_t n_bad = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t f = c->faces[i], fk = g->fk[f];
		for (uint32_t j = 0; j < fk; j++) {
			uint32_t a = g->fv[f][j], b = g->fv[f][(j + 1) % fk];
			if (a == b)
				continue;
			edge *e = slot(t, cap, a < b ? a : b, a < b ? b : a);
			if (!e->n)
				*e = (edge){ a < b ? a : b, a < b ? b : a, f, 0, 0 };
			e->n++;
			e->fwd += a < b;
		}
	}
	/* the bad edges, compacted to the table's front */
	for (size_t s = 0; s < cap; s++)
		if (t[s].n && !(t[s].n == 2 && t[s].fwd == 1))
			t[n_bad++] = t[s];
	if (k->open)
		qsort(t, n_bad, sizeof *t, by_ends);
	for (size_t s = 0; k->open && s < n_bad; s++) {
		const edge *e = &t[s];
		uint32_t f = e->face;
		const float *a = g->pos[e->lo], *b = g->pos[e->hi];
		const char *why = e->n == 1 ? "by no other face of the component (an open edge)"
				  : e->n == 2 ? "twice in the same direction (a face turned the "
						"other way)"
					      : "by more than two faces of the component";
		wl_report(&k->ctx->doc->findings, k->r_open, g->fnode, f, g->f_at[f],
			  g->f_len[f],
			  "%s lod, component %s: the edge of face %u from vertex %u (%g, %g, %g) to "
			  "vertex %u (%g, %g, %g) is used %s; a component must be closed",
			  k->lod, label, (unsigned)f, (unsigned)e->lo, (double)a[0], (double)a[1],
			  (double)a[2], (unsigned)e->hi, (double)b[0], (double)b[1], (double)b[2],
			  why);
	}
	free(t);
	return n_bad == 0;
}

/* A face's outward-agnostic plane: Newell normal (unit) and centroid;
 * false when degenerate. */
static bool plane(const wl_p3d_mesh *g, uint32_t f, double n[3], double c[3])
{
	uint32_t fk = g->fk[f];
	n[0] = n[1] = n[2] = c[0] = c[1] = c[2] = 0;
	for (uint32_t j = 0; j < fk; j++) {
		const float *p = g->pos[g->fv[f][j]], *q = g->pos[g->fv[f][(j + 1) % fk]];
		n[0] += ((double)p[1] - q[1]) * ((double)p[2] + q[2]);
		n[1] += ((double)p[2] - q[2]) * ((double)p[0] + q[0]);
		n[2] += ((double)p[0] - q[0]) * ((double)p[1] + q[1]);
		for (int a = 0; a < 3; a++)
			c[a] += (double)p[a] / fk;
	}
	double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
	if (!(l > 1e-12))
		return false;
	for (int a = 0; a < 3; a++)
		n[a] /= l;
	return true;
}

/* Six times the signed volume the faces of c enclose (a fan per face). */
static double volume6(const wl_p3d_mesh *g, const wl_p3d_comp *c)
{
	double v = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t f = c->faces[i];
		const float *p = g->pos[g->fv[f][0]];
		for (uint32_t j = 1; j + 1 < g->fk[f]; j++) {
			const float *q = g->pos[g->fv[f][j]], *r = g->pos[g->fv[f][j + 1]];
			v += (double)p[0] * ((double)q[1] * r[2] - (double)q[2] * r[1]) -
			     (double)p[1] * ((double)q[0] * r[2] - (double)q[2] * r[0]) +
			     (double)p[2] * ((double)q[0] * r[1] - (double)q[1] * r[0]);
		}
	}
	return v;
}

static int by_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

/* The n vertex indices at v once each, ascending; their new count.  The
 * repeats are dropped by marking (k->mark); a component holding many of
 * the LOD's vertices is then read off the marks in index order, a small
 * one sorted. */
static size_t distinct(ctx3 *k, uint32_t *v, size_t n)
{
	uint32_t nv = k->g->nv;
	size_t u = 0;
	if (!k->mark) {
		qsort(v, n, sizeof *v, by_u32);
		for (size_t i = 0; i < n; i++)
			if (!u || v[i] != v[u - 1])
				v[u++] = v[i];
		return u;
	}
	for (size_t i = 0; i < n; i++)
		if (!k->mark[v[i]]) {
			k->mark[v[i]] = 1;
			v[u++] = v[i];
		}
	if (u * 8 >= nv) {
		u = 0;
		for (uint32_t i = 0; i < nv; i++)
			if (k->mark[i]) {
				k->mark[i] = 0;
				v[u++] = i;
			}
		return u;
	}
	for (size_t i = 0; i < u; i++)
		k->mark[v[i]] = 0;
	qsort(v, u, sizeof *v, by_u32);
	return u;
}

/* p3d-component-convex over closed component c. */
static void convex(ctx3 *k, const wl_p3d_comp *c, const char *label)
{
	const wl_p3d_mesh *g = k->g;
	double vol = volume6(g, c);
	if (!(fabs(vol) > 1e-9))
		return;
	double sign = vol > 0 ? 1.0 : -1.0;
	double(*pl)[6] = malloc(((size_t)c->n + 1) * sizeof *pl);
	uint32_t *v = malloc(((size_t)c->n * 4 + 1) * sizeof *v);
	if (!pl || !v) {
		free(pl);
		free(v);
		return;
	}
	size_t nv = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t f = c->faces[i];
		if (!plane(g, f, pl[i], pl[i] + 3))
			pl[i][0] = pl[i][1] = pl[i][2] = 0; /* degenerate: no plane */
		for (int a = 0; a < 3; a++)
			pl[i][a] *= sign;
		for (uint32_t j = 0; j < g->fk[f]; j++)
			v[nv++] = g->fv[f][j];
	}
	nv = distinct(k, v, nv);
	/* each plane as n . x = d, with its face's vertices (UINT32_MAX for
	 * a triangle's fourth) to leave out */
	typedef struct pln {
		double n[3], d;
		uint32_t f, v[4];
	} pln;
	pln *q = malloc(((size_t)c->n + 1) * sizeof *q);
	if (!q) {
		free(pl);
		free(v);
		return;
	}
	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t f = c->faces[i];
		q[i] = (pln){ { pl[i][0], pl[i][1], pl[i][2] },
			      pl[i][0] * pl[i][3] + pl[i][1] * pl[i][4] + pl[i][2] * pl[i][5],
			      f,
			      { g->fv[f][0], g->fv[f][1], g->fv[f][2], g->fk[f] == 4 ? g->fv[f][3] : UINT32_MAX } };
	}
	for (size_t s = 0; s < nv; s++) {
		if (s && v[s] == v[s - 1])
			continue;
		const float *p = g->pos[v[s]];
		double x = p[0], y = p[1], z = p[2], worst = k->tol;
		uint32_t wf = UINT32_MAX, vs = v[s];
		for (uint32_t i = 0; i < c->n; i++) {
			double dd = q[i].n[0] * x + q[i].n[1] * y + q[i].n[2] * z - q[i].d;
			if (dd > worst && q[i].v[0] != vs && q[i].v[1] != vs && q[i].v[2] != vs &&
			    q[i].v[3] != vs) {
				/* not a vertex of the face itself (a non-planar
				 * quad is not concave) */
				worst = dd;
				wf = q[i].f;
			}
		}
		if (wf == UINT32_MAX)
			continue;
		uint64_t off, len;
		wl_p3d_mesh_vertex_span(g, v[s], &off, &len);
		wl_report(&k->ctx->doc->findings, k->r_convex, g->vnode, v[s], off, len,
			  "%s lod, component %s: vertex %u (%g, %g, %g) lies %g m in front of the "
			  "plane of face %u (tolerance %g m); a component must be convex",
			  k->lod, label, (unsigned)v[s], (double)p[0], (double)p[1], (double)p[2], worst,
			  (unsigned)wf, k->tol);
	}
	free(q);
	free(pl);
	free(v);
}

static void lod(ctx3 *k, const p3d_model *m, const p3d_lod *l)
{
	wl_p3d_mesh g;
	if (!wl_p3d_mesh_load(k->ctx->doc, m, l, &g))
		return;
	k->g = &g;
	k->mark = k->convex ? calloc(g.nv ? g.nv : 1, 1) : NULL;
	for (uint32_t i = 0; i < g.n_comps; i++) {
		const wl_p3d_comp *c = &g.comps[i];
		if (!c->n)
			continue;
		char label[96];
		comp_label(c, label, sizeof label);
		if (!c->name && k->name) {
			uint32_t f = c->faces[0];
			wl_report(&k->ctx->doc->findings, k->r_name, g.fnode, f, g.f_at[f],
				  g.f_len[f],
				  "%s lod: %s lie in no named selection ComponentNN; Binarize and "
				  "the game take a component from each such selection",
				  k->lod, label);
		}
		if (closed(k, c, label) && k->convex)
			convex(k, c, label);
	}
	free(k->mark);
	k->mark = NULL;
	wl_p3d_mesh_free(&g);
}

void p3d_check_components(wl_lint_ctx *ctx)
{
	const p3d_model *m = ctx->model;
	if (!m || !m->lods)
		return;
	ctx3 k = { .ctx = ctx };
	k.r_name = m->mlod ? WLR_P3D_COMPONENT_NAME : WLR_P3D_ODOL_COMPONENT_NAME;
	k.r_open = m->mlod ? WLR_P3D_COMPONENT_OPEN : WLR_P3D_ODOL_COMPONENT_OPEN;
	k.r_convex = m->mlod ? WLR_P3D_COMPONENT_CONVEX : WLR_P3D_ODOL_COMPONENT_CONVEX;
	k.name = wl_lint_enabled(ctx, k.r_name);
	k.open = wl_lint_enabled(ctx, k.r_open);
	k.convex = wl_lint_enabled(ctx, k.r_convex);
	if (!k.name && !k.open && !k.convex)
		return;
	k.tol = wl_lint_param(ctx, k.r_convex, "tolerance");
	uint32_t n = m->mlod ? m->n_res : m->n_lods;
	for (uint32_t i = 0; i < n; i++) {
		const p3d_lod *l = &m->lods[i];
		wl_p3d_lodkind kind = wl_p3d_lod_kind(l->resolution);
		if (kind != WL_P3D_LOD_GEOMETRY && kind != WL_P3D_LOD_FIRE_GEOMETRY &&
		    kind != WL_P3D_LOD_VIEW_GEOMETRY)
			continue;
		char name[64];
		k.lod = wl_p3d_lod_name(l->resolution, name, sizeof name);
		lod(&k, m, l);
	}
}
