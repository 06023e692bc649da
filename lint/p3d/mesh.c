/* mesh.c - one LOD's positions, faces and components for the geometry
 * checks (mesh.h), MLOD and ODOL, read through the cursor. */
#include "mesh.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "core/grow.h"
#include "core/p3d/p3d_lodview.h"

bool wl_p3d_component_name(const char *name, size_t len)
{
	static const char stem[] = "component";
	size_t k = sizeof stem - 1;
	if (len <= k)
		return false;
	for (size_t i = 0; i < k; i++)
		if (tolower((unsigned char)name[i]) != stem[i])
			return false;
	for (size_t i = k; i < len; i++)
		if (!isdigit((unsigned char)name[i]))
			return false;
	return true;
}

void wl_p3d_mlod_face(const wl_doc *d, const p3d_lod *l, uint32_t i, wl_p3d_mface *f)
{
	uint64_t at = l->face_off[i] + (l->sp3x ? 32 : 0);
	wl_cursor c = wl_cursor_make(d->bytes + at, 68, at);
	f->at = at;
	f->k = wl_cursor_u32(&c);
	for (uint32_t j = 0; j < 4; j++) {
		f->point[j] = wl_cursor_u32(&c);
		f->normal[j] = wl_cursor_u32(&c);
		wl_cursor_skip(&c, 8);
	}
}

void wl_p3d_mesh_free(wl_p3d_mesh *g)
{
	for (uint32_t i = 0; g->comps && i < g->n_comps; i++)
		free(g->comps[i].faces);
	free(g->comps);
	free(g->pos);
	free(g->weld);
	free(g->fk);
	free(g->fv);
	free(g->f_at);
	free(g->f_len);
	free(g->proxy);
	memset(g, 0, sizeof *g);
}

void wl_p3d_mesh_vertex_span(const wl_p3d_mesh *g, uint32_t i, uint64_t *off, uint64_t *len)
{
	if (g->mlod) {
		*off = g->v_off + 16ull * i;
		*len = 16;
	} else {
		p3d_elem_span(g->vbl, g->version, i, 12, off, len);
	}
}

static bool alloc_arrays(wl_p3d_mesh *g)
{
	g->pos = calloc(g->nv ? g->nv : 1, sizeof *g->pos);
	g->weld = calloc(g->nv ? g->nv : 1, sizeof *g->weld);
	g->fk = calloc(g->nf ? g->nf : 1, sizeof *g->fk);
	g->fv = calloc(g->nf ? g->nf : 1, sizeof *g->fv);
	g->f_at = calloc(g->nf ? g->nf : 1, sizeof *g->f_at);
	g->f_len = calloc(g->nf ? g->nf : 1, sizeof *g->f_len);
	return g->pos && g->weld && g->fk && g->fv && g->f_at && g->f_len;
}

/* n positions of stride bytes from p (first 3 floats each). */
static void positions(wl_p3d_mesh *g, const uint8_t *p, uint32_t stride)
{
	wl_cursor c = wl_cursor_make(p, (size_t)stride * g->nv, 0);
	for (uint32_t i = 0; i < g->nv; i++) {
		for (int k = 0; k < 3; k++)
			g->pos[i][k] = wl_cursor_f32(&c);
		wl_cursor_skip(&c, stride - 12);
	}
}

/* MLOD: points, faces {u32 n; {u32 point, normal; float u, v}[4] ...},
 * ComponentNN selection tags (one byte per point, then per face). */
static bool load_mlod(const wl_doc *d, const p3d_lod *l, wl_p3d_mesh *g)
{
	if (!l->walked || (l->n_faces && !l->face_off) || (l->n_points && !l->points))
		return false;
	g->mlod = true;
	g->nv = l->n_points;
	g->nf = l->n_faces;
	g->fnode = l->faces;
	g->vnode = l->points;
	g->v_off = l->points ? l->points->offset : 0;
	if (!alloc_arrays(g))
		return false;
	if (l->points)
		positions(g, d->bytes + l->points->offset, 16);
	uint64_t fend = l->faces ? wl_chunk_end(l->faces) : 0;
	for (uint32_t i = 0; i < g->nf; i++) {
		uint64_t at = l->face_off[i];
		uint64_t end = i + 1 < g->nf ? l->face_off[i + 1] : fend;
		g->f_at[i] = at;
		g->f_len[i] = (uint32_t)(end - at);
		wl_p3d_mface f;
		wl_p3d_mlod_face(d, l, i, &f);
		bool ok = f.k == 3 || f.k == 4;
		for (uint32_t j = 0; ok && j < f.k; j++) {
			g->fv[i][j] = f.point[j];
			ok = f.point[j] < g->nv;
		}
		g->fk[i] = ok ? (uint8_t)f.k : 0;
	}
	return true;
}

/* ODOL: positions, faces {u8 k; index[k]} (u16 below v69, else u32). */
static bool load_odol(const wl_doc *d, const p3d_lod *l, wl_p3d_mesh *g)
{
	const p3d_lodview *x = l->view;
	if (!x || !x->faces_read || !x->faces || !x->positions.data)
		return false;
	g->version = x->v;
	g->nv = x->positions.n;
	g->nf = x->n_faces;
	g->fnode = x->faces;
	g->vnode = x->lod;
	g->vbl = &x->positions.bl;
	if (!alloc_arrays(g))
		return false;
	positions(g, x->positions.data, 12);
	uint32_t isz = x->v >= 69 ? 4 : 2;
	wl_cursor c = wl_cursor_make(d->bytes + x->faces_off, (size_t)x->faces->size, x->faces_off);
	for (uint32_t i = 0; i < g->nf; i++) {
		g->f_at[i] = wl_cursor_offset(&c);
		uint32_t k = wl_cursor_u8(&c);
		bool ok = k == 3 || k == 4;
		for (uint32_t j = 0; j < k; j++) {
			uint32_t v = isz == 4 ? wl_cursor_u32(&c) : wl_cursor_u16(&c);
			if (j < 4)
				g->fv[i][j] = v;
			ok = ok && v < g->nv;
		}
		g->f_len[i] = (uint32_t)(wl_cursor_offset(&c) - g->f_at[i]);
		g->fk[i] = ok ? (uint8_t)k : 0;
	}
	return true;
}

/* Tag t of MLOD LOD l: its name (*name, *len bytes) and, when its data
 * is a named selection (one weight byte per point, then one byte per
 * face, nonzero when selected), the data; else NULL. */
static const uint8_t *mlod_selection(const wl_doc *d, const p3d_lod *l, const wl_p3d_mesh *g, uint32_t t,
				     const char **name, size_t *len)
{
	const p3d_mtag *tg = &l->tags[t];
	*name = (const char *)d->bytes + tg->at + (l->sp3x ? 0 : 1);
	*len = l->sp3x ? strnlen(*name, 64) : strlen(*name);
	uint32_t size = wl_le32(d->bytes + tg->size_at);
	return size == (uint64_t)g->nv + g->nf ? d->bytes + tg->size_at + 4 : NULL;
}

bool wl_p3d_proxy_name(const char *name, size_t len)
{
	static const char stem[] = "proxy:";
	size_t k = sizeof stem - 1;
	if (len < k)
		return false;
	for (size_t i = 0; i < k; i++)
		if (tolower((unsigned char)name[i]) != stem[i])
			return false;
	return true;
}

/* Marks g->proxy[f] for each face whose points (file indices, before
 * welding) all lie in the point set in (nv bytes, nonzero = in it). */
static void proxy_faces(wl_p3d_mesh *g, const uint8_t *in)
{
	for (uint32_t f = 0; f < g->nf; f++) {
		bool all = g->fk[f] != 0;
		for (uint32_t j = 0; all && j < g->fk[f]; j++)
			all = in[g->fv[f][j]] != 0;
		if (all)
			g->proxy[f] = 1;
	}
}

/* The proxy faces of an MLOD LOD: the points of each tag named proxy:...
 * (one weight byte per point, then one per face, nonzero when selected). */
static void proxies_mlod(const wl_doc *d, const p3d_lod *l, wl_p3d_mesh *g)
{
	for (uint32_t t = 0; t < l->n_tags; t++) {
		const char *name;
		size_t len;
		const uint8_t *data = mlod_selection(d, l, g, t, &name, &len);
		if (data && wl_p3d_proxy_name(name, len))
			proxy_faces(g, data);
	}
}

/* The proxy faces of an ODOL LOD: the vertex index arrays of its
 * selections named proxy:... (indices beyond the vertices left out);
 * false when memory runs out. */
static bool proxies_odol(const p3d_lod *l, wl_p3d_mesh *g)
{
	uint32_t isz = g->version >= 69 ? 4 : 2;
	uint8_t *in = NULL;
	for (const p3d_selview *s = l->view->sels; s; s = s->next) {
		if (!s->name || !wl_p3d_proxy_name(s->name, strlen(s->name)) || !s->vertices.data ||
		    !s->vertices.n)
			continue;
		if (!in && !(in = malloc(g->nv ? g->nv : 1)))
			return false;
		memset(in, 0, g->nv);
		wl_cursor c = wl_cursor_make(s->vertices.data, (size_t)s->vertices.n * isz, 0);
		for (uint32_t i = 0; i < s->vertices.n; i++) {
			uint32_t v = isz == 4 ? wl_cursor_u32(&c) : wl_cursor_u16(&c);
			if (v < g->nv)
				in[v] = 1;
		}
		proxy_faces(g, in);
	}
	free(in);
	return true;
}

/* Welds the vertices at bit-identical positions to the lowest of them
 * (an open-addressing table of the positions' bits). */
static bool weld(wl_p3d_mesh *g)
{
	size_t cap = 16;
	while (cap < 2 * (size_t)g->nv)
		cap <<= 1;
	uint32_t *slot = malloc(cap * sizeof *slot);
	if (!slot)
		return false;
	memset(slot, 0xFF, cap * sizeof *slot);
	for (uint32_t i = 0; i < g->nv; i++) {
		uint32_t b[3];
		memcpy(b, g->pos[i], 12);
		uint64_t h = (b[0] * 0x9E3779B97F4A7C15ull) ^ (b[1] * 0xC2B2AE3D27D4EB4Full) ^
			     (b[2] * 0x165667B19E3779F9ull);
		size_t k = (size_t)(h ^ (h >> 29)) & (cap - 1);
		while (slot[k] != UINT32_MAX && memcmp(g->pos[slot[k]], g->pos[i], 12) != 0)
			k = (k + 1) & (cap - 1);
		if (slot[k] == UINT32_MAX)
			slot[k] = i;
		g->weld[i] = slot[k];
	}
	free(slot);
	for (uint32_t f = 0; f < g->nf; f++)
		for (uint32_t j = 0; j < g->fk[f]; j++)
			g->fv[f][j] = g->weld[g->fv[f][j]];
	return true;
}

static int by_face(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static bool comp_add(wl_p3d_mesh *g, size_t *cap, wl_p3d_comp c)
{
	if (!wl_grow((void **)&g->comps, cap, (size_t)g->n_comps + 1, sizeof *g->comps))
		return false;
	g->comps[g->n_comps++] = c;
	return true;
}

/* A named component from the selected flags sel (nf bytes, nonzero =
 * selected); marks them covered. */
static bool comp_named(wl_p3d_mesh *g, size_t *cap, const char *name, size_t len,
		       const uint8_t *sel, uint8_t *covered)
{
	uint32_t n = 0;
	for (uint32_t f = 0; f < g->nf; f++)
		n += sel[f] && !g->proxy[f];
	uint32_t *faces = malloc((n ? n : 1) * sizeof *faces);
	if (!faces)
		return false;
	n = 0;
	for (uint32_t f = 0; f < g->nf; f++)
		if (sel[f] && !g->proxy[f]) {
			faces[n++] = f;
			covered[f] = 1;
		}
	if (!comp_add(g, cap, (wl_p3d_comp){ name, (uint32_t)len, faces, n })) {
		free(faces);
		return false;
	}
	return true;
}

/* The ComponentNN selections of an MLOD LOD: tags not starting with '#'
 * whose data is one byte per point then one per face. */
static bool named_mlod(const wl_doc *d, const p3d_lod *l, wl_p3d_mesh *g, size_t *cap,
		       uint8_t *sel, uint8_t *covered)
{
	for (uint32_t t = 0; t < l->n_tags; t++) {
		const char *name;
		size_t len;
		const uint8_t *data = mlod_selection(d, l, g, t, &name, &len);
		if (!data || !wl_p3d_component_name(name, len))
			continue;
		memcpy(sel, data + g->nv, g->nf);
		if (!comp_named(g, cap, name, len, sel, covered))
			return false;
	}
	return true;
}

/* The ComponentNN selections of an ODOL LOD: their face index arrays
 * (indices beyond the faces left out, repeats once). */
static bool named_odol(const p3d_lod *l, wl_p3d_mesh *g, size_t *cap, uint8_t *covered)
{
	uint32_t isz = g->version >= 69 ? 4 : 2;
	for (const p3d_selview *s = l->view->sels; s; s = s->next) {
		if (!s->name || !wl_p3d_component_name(s->name, strlen(s->name)) ||
		    (s->faces.n && !s->faces.data))
			continue;
		uint32_t *faces = malloc(((size_t)s->faces.n + 1) * sizeof *faces), n = 0;
		if (!faces)
			return false;
		wl_cursor c = wl_cursor_make(s->faces.data, (size_t)s->faces.n * isz, 0);
		bool sorted = true;
		for (uint32_t i = 0; i < s->faces.n; i++) {
			uint32_t f = isz == 4 ? wl_cursor_u32(&c) : wl_cursor_u16(&c);
			if (f >= g->nf || g->proxy[f])
				continue;
			sorted = sorted && (!n || f > faces[n - 1]);
			faces[n++] = f;
		}
		if (!sorted) {
			qsort(faces, n, sizeof *faces, by_face);
			uint32_t u = 0;
			for (uint32_t i = 0; i < n; i++)
				if (!u || faces[i] != faces[u - 1])
					faces[u++] = faces[i];
			n = u;
		}
		for (uint32_t i = 0; i < n; i++)
			covered[faces[i]] = 1;
		if (!comp_add(g, cap, (wl_p3d_comp){ s->name, (uint32_t)strlen(s->name), faces, n })) {
			free(faces);
			return false;
		}
	}
	return true;
}

static uint32_t root(uint32_t *p, uint32_t i)
{
	while (p[i] != i)
		i = p[i] = p[p[i]];
	return i;
}

/* The connected sets of the usable faces not covered, in order of their
 * first face. */
static bool connected(wl_p3d_mesh *g, size_t *cap, const uint8_t *covered)
{
	uint32_t *p = malloc((g->nv ? g->nv : 1) * sizeof *p);
	uint32_t *first = malloc((g->nv ? g->nv : 1) * sizeof *first);
	bool ok = p && first;
	for (uint32_t i = 0; ok && i < g->nv; i++) {
		p[i] = i;
		first[i] = UINT32_MAX;
	}
	for (uint32_t f = 0; ok && f < g->nf; f++)
		for (uint32_t j = 1; !covered[f] && j < g->fk[f]; j++) {
			uint32_t a = root(p, g->fv[f][0]), b = root(p, g->fv[f][j]);
			if (a != b)
				p[a < b ? b : a] = a < b ? a : b;
		}
	/* first[root]: its component's index once seen; p reused for each
	 * face's component (faces before vertices: nf may exceed nv, so a
	 * second array). */
	uint32_t *of = ok ? malloc((g->nf ? g->nf : 1) * sizeof *of) : NULL;
	ok = ok && of;
	uint32_t base = g->n_comps;
	for (uint32_t f = 0; ok && f < g->nf; f++) {
		of[f] = UINT32_MAX;
		if (covered[f] || !g->fk[f])
			continue;
		uint32_t r = root(p, g->fv[f][0]);
		if (first[r] == UINT32_MAX) {
			first[r] = g->n_comps;
			ok = comp_add(g, cap, (wl_p3d_comp){ NULL, 0, NULL, 0 });
		}
		of[f] = first[r];
		if (ok)
			g->comps[of[f]].n++;
	}
	for (uint32_t c = base; ok && c < g->n_comps; c++) {
		g->comps[c].faces = malloc(g->comps[c].n * sizeof *g->comps[c].faces);
		ok = g->comps[c].faces != NULL;
		g->comps[c].n = 0;
	}
	for (uint32_t f = 0; ok && f < g->nf; f++)
		if (of[f] != UINT32_MAX)
			g->comps[of[f]].faces[g->comps[of[f]].n++] = f;
	free(of);
	free(p);
	free(first);
	return ok;
}

bool wl_p3d_mesh_load(const wl_doc *d, const p3d_model *m, const p3d_lod *l, wl_p3d_mesh *g)
{
	memset(g, 0, sizeof *g);
	if (!(m->mlod ? load_mlod(d, l, g) : load_odol(d, l, g))) {
		wl_p3d_mesh_free(g);
		return false;
	}
	uint8_t *sel = calloc(g->nf ? g->nf : 1, 1), *covered = calloc(g->nf ? g->nf : 1, 1);
	g->proxy = calloc(g->nf ? g->nf : 1, 1);
	size_t cap = 0;
	bool ok = sel && covered && g->proxy;
	/* proxy faces (before welding: the selections name file indices)
	 * belong to no component */
	if (ok && m->mlod)
		proxies_mlod(d, l, g);
	else if (ok)
		ok = proxies_odol(l, g);
	for (uint32_t f = 0; ok && f < g->nf; f++)
		if (g->proxy[f]) {
			covered[f] = 1;
			g->n_proxy++;
		}
	ok = ok && weld(g) &&
		  (m->mlod ? named_mlod(d, l, g, &cap, sel, covered)
			   : named_odol(l, g, &cap, covered));
	g->n_named = g->n_comps;
	ok = ok && connected(g, &cap, covered);
	free(sel);
	free(covered);
	if (!ok)
		wl_p3d_mesh_free(g);
	return ok;
}
