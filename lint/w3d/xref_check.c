/* xref_check.c - the W3D cross-file checks over the filled index
 * (xref_int.h, the rules in xref.h): duplicate definitions, references to
 * objects, hierarchies and textures no file defines, bones and pivots out
 * of range in another file, skin bounds in another file's bind pose; the
 * findings sorted by path, offset and rule. */
#include "xref_int.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/grow.h"
#include "core/vec.h"
#include "core/w3d/bind_pose.h"
#include "core/w3d/model.h"
#include "core/w3d/model_lookup.h"
#include "core/w3d/w3d_format.h"
#include "core/platform/printf.h"

typedef struct out_finding {
	uint32_t file;
	int32_t related;   /* file index or -1 */
	wl_rule_id rule;
	uint64_t off, len;
	char *cpath;       /* a copy */
	char *message;
	const char *unresolved; /* the name no file defines (the index's), or NULL */
} out_finding;

typedef struct outs {
	out_finding *v;
	size_t n, cap;
	bool oom;
	const w3d_xref *x;
} outs;

__attribute__((format(WL_PRINTF_FMT, 9, 0)))
static void vemit(outs *o, uint32_t file, int32_t related, wl_rule_id rule, uint64_t off, uint64_t len,
		  const char *cpath, const char *unresolved, const char *fmt, va_list ap)
{
	if (o->oom)
		return;
	if (!wl_grow((void **)&o->v, &o->cap, o->n + 1, sizeof *o->v)) {
		o->oom = true;
		return;
	}
	char buf[1024];
	vsnprintf(buf, sizeof buf, fmt, ap);
	char *m = strdup(buf);
	char *cp = strdup(cpath ? cpath : "");
	if (!m || !cp) {
		free(m);
		free(cp);
		o->oom = true;
		return;
	}
	o->v[o->n++] = (out_finding){ file, related, rule, off, len, cp, m, unresolved };
}

static void emit(outs *o, uint32_t file, int32_t related, wl_rule_id rule, uint64_t off, uint64_t len,
		 const char *cpath, const char *fmt, ...) __attribute__((format(WL_PRINTF_FMT, 8, 9)));

static void emit(outs *o, uint32_t file, int32_t related, wl_rule_id rule, uint64_t off, uint64_t len,
		 const char *cpath, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vemit(o, file, related, rule, off, len, cpath, NULL, fmt, ap);
	va_end(ap);
}

/* A reference to name, which no indexed file defines (lint/xref.h
 * wl_xref_finding.unresolved: the base game may). */
static void emit_missing(outs *o, uint32_t file, wl_rule_id rule, uint64_t off, uint64_t len, const char *cpath,
			 const char *name, const char *fmt, ...) __attribute__((format(WL_PRINTF_FMT, 8, 9)));

static void emit_missing(outs *o, uint32_t file, wl_rule_id rule, uint64_t off, uint64_t len, const char *cpath,
			 const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vemit(o, file, -1, rule, off, len, cpath, name, fmt, ap);
	va_end(ap);
}

/* Sorting definitions: kind, folded name, file path, offset. */
typedef struct def_ix {
	const xdef *d;
	const char *path;
} def_ix;

static int cmp_def(const void *a, const void *b)
{
	const def_ix *x = a, *y = b;
	if (x->d->kind != y->d->kind)
		return x->d->kind < y->d->kind ? -1 : 1;
	int c = wl_name_casecmp(x->d->name, y->d->name);
	if (c)
		return c;
	c = strcmp(x->path, y->path);
	if (c)
		return c;
	return x->d->off < y->d->off ? -1 : x->d->off > y->d->off;
}

/* First definition of kind and name (case-insensitive) in the sorted
 * index, or NULL. */
static const xdef *find_def(const def_ix *ix, size_t n, def_kind kind, const char *name)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const xdef *d = ix[mid].d;
		int c = d->kind != kind ? (d->kind < kind ? -1 : 1) : wl_name_casecmp(d->name, name);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && ix[lo].d->kind == kind && wl_name_eq(ix[lo].d->name, name))
		return ix[lo].d;
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_out(const void *a, const void *b, const w3d_xref *x)
{
	const out_finding *p = a, *q = b;
	int c = strcmp(x->files[p->file], x->files[q->file]);
	if (c)
		return c;
	if (p->off != q->off)
		return p->off < q->off ? -1 : 1;
	if (p->rule != q->rule) /* handle order is id order */
		return p->rule < q->rule ? -1 : 1;
	return strcmp(p->message, q->message);
}

/* Bottom-up merge sort with a context (C11 qsort has none); stable. */
static void sort_outs(out_finding *v, size_t n, const w3d_xref *x)
{
	if (n < 2)
		return;
	out_finding *tmp = malloc(n * sizeof *tmp);
	if (!tmp) { /* fall back to insertion sort */
		for (size_t i = 1; i < n; i++) {
			out_finding t = v[i];
			size_t j = i;
			while (j > 0 && cmp_out(&v[j - 1], &t, x) > 0) {
				v[j] = v[j - 1];
				j--;
			}
			v[j] = t;
		}
		return;
	}
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = cmp_out(&v[i], &v[j], x) <= 0 ? v[i++] : v[j++];
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		memcpy(v, tmp, n * sizeof *v);
	}
	free(tmp);
}

static void check_duplicates(outs *o, const w3d_xref *x, const def_ix *ix, size_t n)
{
	static const char *const kinds[] = { "render object", "hierarchy", "animation" };
	size_t run = 0;
	for (size_t i = 1; i <= n; i++) {
		if (i < n && ix[i].d->kind == ix[run].d->kind && wl_name_eq(ix[i].d->name, ix[run].d->name))
			continue;
		/* ix[run .. i) share kind and name; the first file keeps it */
		const xdef *first = ix[run].d;
		for (size_t k = run + 1; k < i; k++) {
			const xdef *d = ix[k].d;
			if (d->file == first->file)
				continue;
			emit(o, d->file, (int32_t)first->file, WLR_DUPLICATE_DEFINITION, d->off, d->len, d->cpath,
			     "%s '%s' is also defined in '%s'; the engine keeps the one loaded first and drops "
			     "the other",
			     kinds[d->kind], d->name, x->files[first->file]);
		}
		run = i;
	}
}

/* reference-bone-out-of-range for each bone field of skin obj that is not
 * below pivots (one finding per vertex and slot, at its 2 bytes). */
static void skin_bones_out_of_range(outs *o, const xdef *obj, int32_t related, const char *owner, const char *here,
				    const char *tree, uint32_t pivots)
{
	char cpath[PATH_CAP + 24];
	for (size_t v = 0; v < obj->bone_n; v++)
		for (int k = 0; k < 2; k++) {
			uint32_t bone = obj->bones[v][k];
			if (bone == UINT32_MAX || bone < pivots)
				continue;
			snprintf(cpath, sizeof cpath, "%s[%zu]", obj->bones_cpath ? obj->bones_cpath : "", v);
			emit(o, obj->file, related, WLR_REFERENCE_BONE_OUT_OF_RANGE,
			     obj->bones_off + (uint64_t)v * W3D_VERTINF_SIZE + 2u * (uint64_t)k, 2, cpath,
			     "vertex %zu of skin mesh '%s' uses bone %" PRIu32 ", but hlod '%s' in '%s' binds it to %s "
			     "with %" PRIu32 " pivots",
			     v, obj->name, bone, owner, here, tree, pivots);
		}
}

static void check_refs(outs *o, const w3d_xref *x, const def_ix *ix, size_t n, char **tex, size_t ntex)
{
	const char *scope = x->scope ? x->scope : "the folder";
	for (size_t i = 0; i < x->ref_count; i++) {
		const xref_ent *r = &x->refs[i];
		const char *here = x->files[r->file];
		switch (r->kind) {
		case REF_HLOD_HIER:
			if (!find_def(ix, n, DEF_HIER, r->name))
				emit_missing(o, r->file, WLR_REFERENCE_HIERARCHY_MISSING, r->off, r->len, r->cpath,
					     r->name,
					     "hlod '%s' names hierarchy '%s', which no file of %s defines; the engine "
					     "looks for '%s.w3d' and otherwise uses a one-pivot tree",
					     r->owner, r->name, scope, r->name);
			break;
		case REF_ANIM: {
			const xdef *h = find_def(ix, n, DEF_HIER, r->name);
			if (!h)
				emit_missing(o, r->file, WLR_REFERENCE_HIERARCHY_MISSING, r->off, r->len, r->cpath,
					     r->name,
					     "animation '%s' names hierarchy '%s', which no file of %s defines; the "
					     "engine looks for '%s.w3d' and otherwise rejects the animation",
					     r->owner, r->name, scope, r->name);
			else if (h->file != r->file && r->has_value && r->value >= h->pivots)
				emit(o, r->file, (int32_t)h->file, WLR_REFERENCE_HIERARCHY_TOO_FEW_PIVOTS, r->off2, 2,
				     r->cpath2,
				     "animation '%s' animates pivot %" PRIu32 ", but hierarchy '%s' in '%s' has %" PRIu32
				     " pivots; the engine drops the channel",
				     r->owner, r->value, h->name, x->files[h->file], h->pivots);
			break;
		}
		case REF_SUB:
		case REF_PROXY: {
			const xdef *obj = NULL;
			if (r->kind == REF_SUB) {
				obj = find_def(ix, n, DEF_ROBJ, r->name);
				if (!obj) {
					const char *dot = strchr(r->name, '.');
					int plen = dot ? (int)(dot - r->name) : (int)strlen(r->name);
					emit_missing(o, r->file, WLR_REFERENCE_MESH_MISSING, r->off2, 32, r->cpath,
						     r->name,
						     "hlod '%s' uses '%s', which no file of %s defines; the engine "
						     "tries '%.*s.w3d' and otherwise leaves the part out",
						     r->owner, r->name, scope, plen, r->name);
				}
			}
			/* bones: the HLOD's hierarchy (empty name: the default one-pivot tree) */
			const xdef *h = r->hier[0] ? find_def(ix, n, DEF_HIER, r->hier) : NULL;
			if (r->hier[0] && !h)
				break;
			uint32_t pivots = h ? h->pivots : 1;
			int32_t hfile = h ? (int32_t)h->file : (int32_t)r->file;
			char tree[160];
			if (h)
				snprintf(tree, sizeof tree, "hierarchy '%s' in '%s'", h->name, x->files[h->file]);
			else
				snprintf(tree, sizeof tree, "the default one-pivot hierarchy of hlod '%s'", r->owner);
			if (h && h->file != r->file && r->value >= pivots)
				emit(o, r->file, hfile, WLR_REFERENCE_BONE_OUT_OF_RANGE, r->off, r->len, r->cpath,
				     "hlod '%s' attaches '%s' to bone %" PRIu32 ", but %s has %" PRIu32 " pivots", r->owner,
				     r->name, r->value, tree, pivots);
			/* a skin mesh in another file than its HLOD or hierarchy */
			if (obj && obj->has_bones && !(obj->file == r->file && (int32_t)obj->file == hfile) &&
			    obj->max_bone >= pivots)
				skin_bones_out_of_range(o, obj, obj->file != r->file ? (int32_t)r->file : hfile, r->owner,
							here, tree, pivots);
			break;
		}
		case REF_TEXTURE: {
			if (!ntex)
				break;
			char *stem = w3d_xref_texture_stem(r->name, false);
			if (!stem) {
				o->oom = true;
				break;
			}
			char *key = stem;
			if (!bsearch(&key, tex, ntex, sizeof *tex, cmp_str))
				emit_missing(o, r->file, WLR_REFERENCE_TEXTURE_MISSING, r->off, r->len, r->cpath,
					     r->name,
					     "'%s' uses texture '%s', but no .tga or .dds file of that name is in %s",
					     r->owner, r->name, scope);
			free(stem);
			break;
		}
		}
	}
}

/* The hierarchy name the skin of d is bound to: its own file's HLOD's, or
 * else that of the first HLOD of the folder using it (*via: that HLOD's
 * file); NULL when no HLOD uses it. */
static const char *skin_hierarchy(const w3d_xref *x, const xdef *d, int32_t *via)
{
	*via = (int32_t)d->file;
	if (d->skin->hier)
		return d->skin->hier;
	for (size_t i = 0; i < x->ref_count; i++) {
		const xref_ent *r = &x->refs[i];
		if (r->kind == REF_SUB && r->hier && wl_name_eq(r->name, d->name)) {
			*via = (int32_t)r->file;
			return r->hier;
		}
	}
	return NULL;
}

/* Skin bounds in the bind pose across files (lint/check_geometry.c does it
 * when the hierarchy is in the skin's file): the vertices put into the base
 * pose of the hierarchy that another file defines, then mesh-bounds-box /
 * mesh-bounds-sphere with the catalogue's default tolerance; without the
 * hierarchy, skin-bounds-unchecked. */
#define XREF_BOUNDS_TOL 0.001

static void check_skin_bounds(outs *o, const w3d_xref *x, const def_ix *ix, size_t n)
{
	for (size_t i = 0; i < x->def_count; i++) {
		const xdef *d = &x->defs[i];
		const xskin *sk = d->skin;
		if (!sk || !d->name || !d->cpath)
			continue;
		int32_t via;
		const char *hier = skin_hierarchy(x, d, &via);
		const xdef *h = hier && hier[0] ? find_def(ix, n, DEF_HIER, hier) : NULL;
		if (!hier || (hier[0] && (!h || !h->poses))) {
			if (hier)
				emit(o, d->file, via == (int32_t)d->file ? -1 : via, WLR_SKIN_BOUNDS_UNCHECKED, sk->hdr_off + 76,
				     40, sk->hdr_cpath,
				     "skin mesh '%s': its bounds belong to the bind pose of hierarchy '%s', which no file "
				     "of %s defines, so they are not checked",
				     d->name, hier, x->scope ? x->scope : "the folder");
			else
				emit(o, d->file, -1, WLR_SKIN_BOUNDS_UNCHECKED, sk->hdr_off + 76, 40, sk->hdr_cpath,
				     "skin mesh '%s': no hlod of the folder uses it, so the hierarchy of its bind pose is "
				     "unknown and its bounds are not checked",
				     d->name);
			continue;
		}
		double(*pts)[3] = malloc(sk->n * sizeof *pts);
		if (!pts) {
			o->oom = true;
			return;
		}
		bool posed = true;
		for (size_t k = 0; k < sk->n && posed; k++) {
			const double v[3] = { sk->v[k][0], sk->v[k][1], sk->v[k][2] };
			uint32_t b = sk->bone[k];
			if (!h) { /* the default one-pivot tree: the identity */
				posed = b == 0;
				memcpy(pts[k], v, sizeof v);
			} else if (b >= h->pose_count || !h->poses[b].ok) {
				posed = false;
			} else {
				w3d_pose_apply(&h->poses[b], v, pts[k]);
			}
		}
		const char *where = h ? x->files[h->file] : "the default one-pivot tree";
		int32_t rel = h ? (int32_t)h->file : via;
		double lo[3] = { sk->min[0], sk->min[1], sk->min[2] }, hi[3] = { sk->max[0], sk->max[1], sk->max[2] };
		double c[3] = { sk->center[0], sk->center[1], sk->center[2] };
		size_t at = 0;
		double worst = 0;
		bool box_ok = isfinite(lo[0] + lo[1] + lo[2] + hi[0] + hi[1] + hi[2]) && lo[0] <= hi[0] &&
			      lo[1] <= hi[1] && lo[2] <= hi[2];
		if (posed && box_ok && wl_points_outside((const double(*)[3])pts, sk->n, lo, hi, 0, XREF_BOUNDS_TOL, &at, &worst))
			emit(o, d->file, rel, WLR_MESH_BOUNDS_BOX, sk->hdr_off + 76, 24, sk->hdr_cpath,
			     "mesh '%s' bounding box (%g, %g, %g)..(%g, %g, %g) does not contain its vertices in the bind "
			     "pose of hierarchy '%s' (%s): vertex %zu (%g, %g, %g) lies outside by %g, the farthest",
			     d->name, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], hier, where, at, pts[at][0], pts[at][1],
			     pts[at][2], worst);
		bool sph_ok = isfinite(c[0] + c[1] + c[2]) && isfinite(sk->radius) && sk->radius >= 0;
		if (posed && sph_ok &&
		    wl_points_outside((const double(*)[3])pts, sk->n, c, NULL, sk->radius, XREF_BOUNDS_TOL, &at, &worst))
			emit(o, d->file, rel, WLR_MESH_BOUNDS_SPHERE, sk->hdr_off + 100, 16, sk->hdr_cpath,
			     "mesh '%s' bounding sphere (center (%g, %g, %g), radius %g) does not contain its vertices "
			     "in the bind pose of hierarchy '%s' (%s): vertex %zu (%g, %g, %g) lies at distance %g, the "
			     "farthest",
			     d->name, c[0], c[1], c[2], (double)sk->radius, hier, where, at, pts[at][0], pts[at][1],
			     pts[at][2], worst);
		free(pts);
	}
}

long w3d_xref_check(w3d_xref *x, wl_xref_emit_fn fn, void *user)
{
	if (!x)
		return -1;
	pthread_mutex_lock(&x->lock);
	long result = -1;
	outs o = { NULL, 0, 0, false, x };
	def_ix *ix = x->def_count ? malloc(x->def_count * sizeof *ix) : NULL;
	char **tex = x->texture_count ? malloc(x->texture_count * sizeof *tex) : NULL;
	if ((x->def_count && !ix) || (x->texture_count && !tex))
		goto out;
	size_t n = 0;
	for (size_t i = 0; i < x->def_count; i++)
		if (x->defs[i].name && x->defs[i].cpath)
			ix[n++] = (def_ix){ &x->defs[i], x->files[x->defs[i].file] };
	if (n)
		qsort(ix, n, sizeof *ix, cmp_def);
	if (x->texture_count) {
		memcpy(tex, x->textures, x->texture_count * sizeof *tex);
		qsort(tex, x->texture_count, sizeof *tex, cmp_str);
	}
	check_duplicates(&o, x, ix, n);
	check_refs(&o, x, ix, n, tex, x->texture_count);
	check_skin_bounds(&o, x, ix, n);
	if (o.oom)
		goto out;
	sort_outs(o.v, o.n, x);
	for (size_t i = 0; i < o.n; i++) {
		const out_finding *f = &o.v[i];
		wl_xref_finding pub = { x->files[f->file], f->related >= 0 ? x->files[f->related] : NULL, f->rule,
					f->off, f->len, f->cpath, f->message, f->unresolved };
		if (fn)
			fn(user, &pub);
	}
	result = (long)o.n;
out:
	for (size_t i = 0; i < o.n; i++) {
		free(o.v[i].message);
		free(o.v[i].cpath);
	}
	free(o.v);
	free(ix);
	free(tex);
	pthread_mutex_unlock(&x->lock);
	return result;
}

/* ------------------------------------------------------------------ */
/* The contributor of lint/xref.h                                      */
/* ------------------------------------------------------------------ */
