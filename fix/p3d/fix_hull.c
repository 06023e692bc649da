/*
 * fix_hull.c - component-convex-hull (unsafe): repairs
 * p3d-component-convex (rules/p3d/geometry.yaml) in MLOD files by
 * replacing each Geometry, Fire Geometry or View Geometry component that
 * has a vertex in front of one of its faces by the convex hull of its
 * points, computed by Qhull (Debian libqhull-dev, the reentrant libqhull_r;
 * options "Qt": triangulated facets, each facet's vertices in the
 * orientation qh_facet3vertex gives, so the hull's triangles are wound
 * consistently).  This is what Object Builder's "Convex Hull" does and
 * what the engine's collision assumes anyway (BI wiki "LOD").
 *
 * Per LOD: the component's faces are removed and one triangle per hull
 * facet appended (its points are the component's points on the hull: no
 * point is added or moved, points inside the hull stay unused; flags,
 * texture, material and the first normal index from the component's first
 * face; UVs 0).  The LOD header's face count, the faces and the tags that
 * hold a byte per face are rewritten: selections and the #...# tags of one
 * byte per point then per face (a new face takes the byte of the
 * component's first face, so it stays in its ComponentNN), #UVSet# (u32
 * then u, v per face vertex: new faces get 0).  Other tags are copied.
 * Unsafe: the component's shape changes (its concave parts are filled).
 */
#include "fixers.h"

#include <libqhull_r/qhull_ra.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "core/grow.h"
#include "core/platform.h"
#include "lint/p3d/checks.h"
#include "lint/p3d/mesh.h"

#define P3DM_FACE_FIXED 72u
#define SP3X_TEXTURE 32u

/* A triangle to append: points and the face it copies the rest from. */
typedef struct newface {
	uint32_t v[3], tmpl;
} newface;

typedef struct rebuild {
	wl_doc *d;
	const p3d_lod *l;
	wl_p3d_mesh g;
	uint8_t *removed;   /* nf: the face goes */
	newface *add;       /* the triangles appended */
	size_t n_add, cap;
} rebuild;

static bool push(rebuild *r, newface f)
{
	if (!wl_grow((void **)&r->add, &r->cap, r->n_add + 1, sizeof *r->add))
		return false;
	r->add[r->n_add++] = f;
	return true;
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The hull of component c's points, its triangles appended to r; false on
 * out of memory.  A component qhull cannot hull (flat, too few points) is
 * left as it is. */
static bool hull(rebuild *r, const wl_p3d_comp *c)
{
	const wl_p3d_mesh *g = &r->g;
	uint32_t *v = malloc(((size_t)c->n * 4 + 1) * sizeof *v);
	coordT *pts = malloc(((size_t)c->n * 4 + 1) * 3 * sizeof *pts);
	wl_os_memstream err_ms;
	FILE *ferr = wl_os_memstream_open(&err_ms);
	bool ok = v && pts && ferr;
	size_t n = 0;
	for (uint32_t i = 0; ok && i < c->n; i++)
		for (uint32_t j = 0; j < g->fk[c->faces[i]]; j++)
			v[n++] = g->fv[c->faces[i]][j];
	qsort(v, n, sizeof *v, by_u32);
	size_t u = 0;
	for (size_t i = 0; ok && i < n; i++)
		if (!u || v[i] != v[u - 1])
			v[u++] = v[i];
	for (size_t i = 0; ok && i < u; i++)
		for (int k = 0; k < 3; k++)
			pts[3 * i + (size_t)k] = (coordT)g->pos[v[i]][k];
	if (ok && u >= 4) {
		qhT qh_qh;
		qhT *qh = &qh_qh;
		qh_zero(qh, ferr);
		char flags[] = "qhull Qt";
		if (qh_new_qhull(qh, 3, (int)u, pts, False, flags, NULL, ferr) == 0) {
			size_t first = r->n_add;
			facetT *facet;
			FORALLfacets {
				setT *vs = qh_facet3vertex(qh, facet);
				vertexT *vertex, **vertexp;
				newface f = { { 0, 0, 0 }, c->faces[0] };
				int k = 0;
				FOREACHvertex_(vs) {
					if (k < 3)
						f.v[k] = v[(size_t)qh_pointid(qh, vertex->point)];
					k++;
				}
				qh_settempfree(qh, &vs);
				if (k == 3 && !push(r, f)) {
					ok = false;
					break;
				}
			}
			if (ok && r->n_add > first)
				for (uint32_t i = 0; i < c->n; i++)
					r->removed[c->faces[i]] = 1;
			else
				r->n_add = first;
		}
		qh_freeqhull(qh, !qh_ALL);
		int curlong, totlong;
		qh_memfreeshort(qh, &curlong, &totlong);
	}
	char *err = NULL;
	size_t err_len;
	if (ferr && wl_os_memstream_close(&err_ms, &err, &err_len) == 0)
		free(err); /* qhull's messages: not shown */
	free(v);
	free(pts);
	return ok;
}

/* Appends n bytes at p to a growing buffer (malloc); false on OOM. */
typedef struct buf {
	uint8_t *p;
	size_t n, cap;
} buf;

static bool put(buf *b, const void *p, size_t n)
{
	if (n > SIZE_MAX - b->n || !wl_grow((void **)&b->p, &b->cap, b->n + n, 1))
		return false;
	memcpy(b->p + b->n, p, n);
	b->n += n;
	return true;
}

static bool put32(buf *b, uint32_t v)
{
	uint8_t q[4];
	wl_fix_put_u32(q, v);
	return put(b, q, 4);
}

/* The faces: the kept ones as read, then the new triangles. */
static bool faces(const rebuild *r, buf *out)
{
	const uint8_t *bytes = r->d->bytes;
	const wl_p3d_mesh *g = &r->g;
	bool sp3x = r->l->sp3x;
	bool ok = true;
	for (uint32_t f = 0; ok && f < g->nf; f++)
		if (!r->removed[f])
			ok = put(out, bytes + g->f_at[f], g->f_len[f]);
	for (size_t i = 0; ok && i < r->n_add; i++) {
		const newface *nf = &r->add[i];
		const uint8_t *t = bytes + g->f_at[nf->tmpl];
		const uint8_t *fixed = t + (sp3x ? SP3X_TEXTURE : 0);
		if (sp3x)
			ok = put(out, t, SP3X_TEXTURE);
		uint32_t normal = wl_le32(fixed + 8);
		ok = ok && put32(out, 3);
		for (int k = 0; ok && k < 4; k++)
			ok = put32(out, k < 3 ? nf->v[k] : 0) && put32(out, k < 3 ? normal : 0) &&
			     put32(out, 0) && put32(out, 0);
		ok = ok && put(out, fixed + 68, 4);
		if (!sp3x) /* texture and material names */
			ok = ok && put(out, t + P3DM_FACE_FIXED,
				       g->f_len[nf->tmpl] - P3DM_FACE_FIXED);
	}
	return ok;
}

/* Whether tag data of `size` bytes is #UVSet#'s: u32, then u, v per face
 * vertex. */
static bool uvset(const rebuild *r, const char *name, uint32_t size)
{
	if (strcmp(name, "#UVSet#") != 0)
		return false;
	uint64_t want = 4;
	for (uint32_t f = 0; f < r->g.nf; f++)
		want += 8ull * r->g.fk[f];
	return want == size;
}

/* One tag: as read, or with its per-face part rebuilt. */
static bool tag(const rebuild *r, const p3d_mtag *t, buf *out)
{
	const uint8_t *bytes = r->d->bytes;
	const wl_p3d_mesh *g = &r->g;
	const char *name = (const char *)bytes + t->at + (r->l->sp3x ? 0 : 1);
	uint32_t size = wl_le32(bytes + t->size_at);
	const uint8_t *data = bytes + t->size_at + 4;
	bool ok = put(out, bytes + t->at, t->size_at - t->at);
	if (size == (uint64_t)g->nv + g->nf) {
		uint32_t kept = 0;
		for (uint32_t f = 0; f < g->nf; f++)
			kept += !r->removed[f];
		ok = ok && put32(out, g->nv + kept + (uint32_t)r->n_add) && put(out, data, g->nv);
		for (uint32_t f = 0; ok && f < g->nf; f++)
			if (!r->removed[f])
				ok = put(out, data + g->nv + f, 1);
		for (size_t i = 0; ok && i < r->n_add; i++)
			ok = put(out, data + g->nv + r->add[i].tmpl, 1);
		return ok;
	}
	if (!r->l->sp3x && uvset(r, name, size)) {
		buf tmp = { 0 };
		const uint8_t *p = data + 4;
		ok = ok && put(&tmp, data, 4);
		for (uint32_t f = 0; ok && f < g->nf; p += 8u * g->fk[f], f++)
			if (!r->removed[f])
				ok = put(&tmp, p, 8u * g->fk[f]);
		static const uint8_t zero[24];
		for (size_t i = 0; ok && i < r->n_add; i++)
			ok = put(&tmp, zero, sizeof zero);
		ok = ok && put32(out, (uint32_t)tmp.n) && put(out, tmp.p, tmp.n);
		free(tmp.p);
		return ok;
	}
	return ok && put(out, bytes + t->size_at, 4 + (size_t)size);
}

/* The LOD's child node of type id, writable, or NULL. */
static wl_chunk *child(wl_doc *d, const p3d_lod *l, uint32_t id)
{
	for (const wl_chunk *k = l->node->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && k->id == id)
			return wl_fix_mut(d, k);
	return NULL;
}

/* Writes r's faces, face count and tags into the document. */
static int commit(rebuild *r)
{
	wl_doc *d = r->d;
	const p3d_lod *l = r->l;
	buf f = { 0 }, t = { 0 };
	bool ok = faces(r, &f) && put(&t, "TAGG", 4);
	for (uint32_t i = 0; ok && i < l->n_tags; i++)
		ok = tag(r, &l->tags[i], &t);
	uint32_t kept = 0;
	for (uint32_t i = 0; i < r->g.nf; i++)
		kept += !r->removed[i];
	uint32_t nf = kept + (uint32_t)r->n_add, old = 0;
	wl_chunk *hdr = child(d, l, P3D_NODE_LODHEADER), *fn = wl_fix_mut(d, l->faces);
	wl_chunk *tn = wl_fix_mut(d, l->tagnode);
	int rc = 0;
	if (!ok)
		rc = -1;
	else if (hdr && fn && tn &&
		 (wl_fix_patch_u32(d, hdr, 20, nf, &old) != 0 ||
		  wl_edit_set_payload(d, fn, f.p, f.n) != 0 || wl_edit_set_payload(d, tn, t.p, t.n) != 0 ||
		  wl_edit_note(d, fn, WLR_P3D_COMPONENT_CONVEX, fn->offset,
			       "faces: %u -> %u (non-convex components replaced by their convex hull's "
			       "%zu triangles)",
			       (unsigned)old, (unsigned)nf, r->n_add) != 0))
		rc = -1;
	free(f.p);
	free(t.p);
	return rc;
}

/* Whether component c uses a vertex reported in `bad` (nv flags). */
static bool flagged(const wl_p3d_mesh *g, const wl_p3d_comp *c, const uint8_t *bad)
{
	for (uint32_t i = 0; i < c->n; i++)
		for (uint32_t j = 0; j < g->fk[c->faces[i]]; j++)
			if (bad[g->fv[c->faces[i]][j]])
				return true;
	return false;
}

static int lod(wl_fix_ctx *x, const p3d_lod *l)
{
	wl_doc *d = x->doc;
	rebuild r = { d, l, { 0 }, NULL, NULL, 0, 0 };
	if (!l->points || !l->faces || !l->tagnode || !wl_p3d_mesh_load(d, x->model, l, &r.g))
		return 0;
	uint8_t *bad = calloc(r.g.nv ? r.g.nv : 1, 1);
	r.removed = calloc(r.g.nf ? r.g.nf : 1, 1);
	bool any = false, ok = bad && r.removed;
	for (size_t i = 0; ok && i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->severity != WL_SEV_OFF && f->chunk == l->points && f->element >= 0 &&
		    (uint64_t)f->element < r.g.nv && strcmp(f->rule, wl_rule_name(WLR_P3D_COMPONENT_CONVEX)) == 0)
		{
			bad[f->element] = 1;
			any = true;
		}
	}
	for (uint32_t f = 0; ok && any && f < r.g.nf; f++)
		ok = r.g.fk[f] != 0; /* every face read: the per-face tags line up */
	for (uint32_t i = 0; ok && any && i < r.g.n_comps; i++)
		if (flagged(&r.g, &r.g.comps[i], bad))
			ok = hull(&r, &r.g.comps[i]);
	int rc = 0;
	if (!bad || !r.removed)
		rc = -1;
	else if (ok && r.n_add)
		rc = commit(&r);
	free(bad);
	free(r.removed);
	free(r.add);
	wl_p3d_mesh_free(&r.g);
	return rc;
}

static int apply(wl_fix_ctx *x)
{
	const p3d_model *m = x->model;
	if (!m || !m->mlod || !wl_fix_rule_wanted(x, WLR_P3D_COMPONENT_CONVEX))
		return 0;
	for (uint32_t i = 0; i < m->n_res; i++) {
		wl_p3d_lodkind k = wl_p3d_lod_kind(m->lods[i].resolution);
		if ((k == WL_P3D_LOD_GEOMETRY || k == WL_P3D_LOD_FIRE_GEOMETRY ||
		     k == WL_P3D_LOD_VIEW_GEOMETRY) &&
		    m->lods[i].walked && lod(x, &m->lods[i]) != 0)
			return -1;
	}
	return 0;
}

const wl_fixer p3d_fix_convex_hull = {
	"component-convex-hull", true,
	"replace a non-convex MLOD geometry component by its convex hull (Qhull)", apply
};
