/* xref_index.c - the W3D cross-file index filled (xref_int.h): what each
 * file defines and references, read from its decoded model and, for the
 * render objects the model does not decode, from their raw chunks; the
 * texture files and archive entries offered to it. */
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

/* add_raw_objects finds these objects' headers at their container's id + 1. */
_Static_assert(W3D_CHUNK_HMODEL_HEADER == W3D_CHUNK_HMODEL + 1 && W3D_CHUNK_LODMODEL_HEADER == W3D_CHUNK_LODMODEL + 1 &&
		       W3D_CHUNK_COLLECTION_HEADER == W3D_CHUNK_COLLECTION + 1 &&
		       W3D_CHUNK_EMITTER_HEADER == W3D_CHUNK_EMITTER + 1 && W3D_CHUNK_AGGREGATE_HEADER == W3D_CHUNK_AGGREGATE + 1,
	       "object headers follow their container's id");

static char *dup_str(w3d_xref *x, const char *s)
{
	char *d = strdup(s ? s : "");
	if (!d)
		x->oom = true;
	return d;
}

/* A copy of a fixed name field of n bytes, up to the first NUL, the bytes
 * as they are (the reports escape them, core/escape.h). */
static char *dup_field(w3d_xref *x, const uint8_t *p, size_t n)
{
	char *d = malloc(n + 1);
	if (!d) {
		x->oom = true;
		return NULL;
	}
	size_t i = 0;
	for (; i < n && p[i]; i++)
		d[i] = (char)p[i];
	d[i] = 0;
	return d;
}

static char *dup_path(w3d_xref *x, const wl_doc *doc, const wl_chunk *c, int64_t element)
{
	char buf[PATH_CAP];
	wl_chunk_path(doc, c, element, buf, sizeof buf);
	return dup_str(x, buf);
}

static xdef *new_def(w3d_xref *x, def_kind kind, uint32_t file, const char *name, const wl_doc *doc,
		     const wl_chunk *c)
{
	if (!name || !name[0])
		return NULL;
	if (!wl_grow((void **)&x->defs, &x->def_cap, x->def_count + 1, sizeof *x->defs)) {
		x->oom = true;
		return NULL;
	}
	xdef *d = &x->defs[x->def_count++];
	memset(d, 0, sizeof *d);
	d->kind = kind;
	d->file = file;
	d->name = dup_str(x, name);
	d->off = c->offset;
	d->len = (uint64_t)c->header_size + c->size;
	d->cpath = dup_path(x, doc, c, -1);
	return d;
}

static xref_ent *new_ref(w3d_xref *x, ref_kind kind, uint32_t file, const char *name, const char *owner,
			 const wl_doc *doc, const wl_chunk *c, uint64_t off, uint64_t len)
{
	if (!wl_grow((void **)&x->refs, &x->ref_cap, x->ref_count + 1, sizeof *x->refs)) {
		x->oom = true;
		return NULL;
	}
	xref_ent *r = &x->refs[x->ref_count++];
	memset(r, 0, sizeof *r);
	r->kind = kind;
	r->file = file;
	r->name = dup_str(x, name);
	r->owner = dup_str(x, owner);
	r->off = off;
	r->len = len;
	r->cpath = dup_path(x, doc, c, -1);
	return r;
}

w3d_xref *w3d_xref_new(void)
{
	w3d_xref *x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	if (pthread_mutex_init(&x->lock, NULL) != 0) {
		free(x);
		return NULL;
	}
	return x;
}

void w3d_xref_free(w3d_xref *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->file_count; i++)
		free(x->files[i]);
	for (size_t i = 0; i < x->def_count; i++) {
		free(x->defs[i].name);
		free(x->defs[i].cpath);
		free(x->defs[i].bones);
		free(x->defs[i].bones_cpath);
		free(x->defs[i].poses);
		xskin *sk = x->defs[i].skin;
		if (sk) {
			free(sk->hier);
			free(sk->v);
			free(sk->bone);
			free(sk->hdr_cpath);
			free(sk);
		}
	}
	for (size_t i = 0; i < x->ref_count; i++) {
		xref_ent *r = &x->refs[i];
		free(r->name);
		free(r->owner);
		free(r->hier);
		free(r->cpath);
		free(r->cpath2);
	}
	for (size_t i = 0; i < x->texture_count; i++)
		free(x->textures[i]);
	free(x->files);
	free(x->scope);
	free(x->defs);
	free(x->refs);
	free(x->textures);
	pthread_mutex_destroy(&x->lock);
	free(x);
}

/* ------------------------------------------------------------------ */
/* Collecting one document                                              */
/* ------------------------------------------------------------------ */

static void add_texture_refs(w3d_xref *x, uint32_t file, const wl_doc *doc, const w3d_mesh *m,
			     const w3d_material_set *ms)
{
	for (size_t i = 0; i < ms->texture_count; i++) {
		const w3d_texture *t = &ms->textures[i];
		if (!t->name_src || !t->name || !t->name[0])
			continue;
		new_ref(x, REF_TEXTURE, file, t->name, m->name, doc, t->name_src, t->name_src->offset,
			(uint64_t)t->name_src->header_size + t->name_src->size);
	}
}

/* Keeps what checking skin m's bounds needs when its own file does not
 * hold its hierarchy. */
static void add_skin(w3d_xref *x, xdef *d, const wl_doc *doc, const w3d_mesh *m)
{
	const w3d_model *model = doc->model;
	const w3d_influence_array *inf = m->influences.src ? &m->influences : &m->influences_ext;
	double(*pts)[3];
	if (!w3d_mesh_is_skin(m) || m->header.bytes < W3D_MESH_HEADER3_SIZE || !m->vertices.count ||
	    inf->count < m->vertices.count)
		return;
	wl_bounds_points_status st = wl_mesh_bounds_points(model, m, &pts);
	free(pts);
	if (st != WL_BOUNDS_POINTS_NO_TREE)
		return;
	xskin *sk = calloc(1, sizeof *sk);
	size_t n = m->vertices.count;
	if (sk) {
		sk->v = malloc(n * sizeof *sk->v);
		sk->bone = malloc(n * sizeof *sk->bone);
	}
	const w3d_hlod *h = wl_mesh_owner_hlod(model, m->name);
	if (sk && h)
		sk->hier = dup_str(x, h->hierarchy_name);
	if (!sk || !sk->v || !sk->bone || (h && !sk->hier)) {
		if (sk) {
			free(sk->v);
			free(sk->bone);
			free(sk->hier);
		}
		free(sk);
		x->oom = true;
		return;
	}
	sk->n = n;
	for (size_t i = 0; i < n; i++) {
		sk->v[i][0] = m->vertices.v[i].x;
		sk->v[i][1] = m->vertices.v[i].y;
		sk->v[i][2] = m->vertices.v[i].z;
		sk->bone[i] = inf->v[i].bone[0];
	}
	const w3d_mesh_header *hd = &m->header;
	const w3d_vec3 *b[4] = { &hd->min, &hd->max, &hd->sph_center, NULL };
	float *to[3] = { sk->min, sk->max, sk->center };
	for (int k = 0; b[k]; k++)
		to[k][0] = b[k]->x, to[k][1] = b[k]->y, to[k][2] = b[k]->z;
	sk->radius = hd->sph_radius;
	sk->hdr_off = wl_chunk_payload_offset(hd->src);
	sk->hdr_cpath = dup_path(x, doc, hd->src, -1);
	d->skin = sk;
}

static void add_mesh(w3d_xref *x, uint32_t file, const wl_doc *doc, const w3d_mesh *m)
{
	xdef *d = new_def(x, DEF_ROBJ, file, m->name, doc, m->src);
	uint32_t max_bone;
	size_t vertex;
	int slot;
	if (d && wl_mesh_max_bone(m, &max_bone, &vertex, &slot)) {
		const w3d_influence_array *a = &m->influences;
		d->bones = malloc(a->count * sizeof *d->bones);
		if (!d->bones) {
			x->oom = true;
			return;
		}
		for (size_t i = 0; i < a->count; i++) {
			d->bones[i][0] = a->v[i].bone[0];
			d->bones[i][1] = a->layout == W3D_INFLUENCE_TWO_BONE && a->v[i].weight[1] ? a->v[i].bone[1]
												    : UINT32_MAX;
		}
		d->has_bones = true;
		d->max_bone = max_bone;
		d->bone_n = a->count;
		d->bones_off = wl_chunk_payload_offset(a->src);
		d->bones_cpath = dup_path(x, doc, a->src, -1);
	}
	if (d)
		add_skin(x, d, doc, m);
	add_texture_refs(x, file, doc, m, &m->materials);
	for (int k = 0; k < W3D_PRELIT_KINDS; k++)
		if (m->prelit[k].src)
			add_texture_refs(x, file, doc, m, &m->prelit[k]);
}

static void add_hlod(w3d_xref *x, uint32_t file, const wl_doc *doc, const w3d_hlod *h)
{
	if (!h->header_ok)
		return;
	new_def(x, DEF_ROBJ, file, h->name, doc, h->src);
	if (h->hierarchy_name[0]) {
		new_ref(x, REF_HLOD_HIER, file, h->hierarchy_name, h->name, doc, h->header,
			wl_chunk_payload_offset(h->header) + 24, 16);
	}
	for (int kind = 0; kind < 3; kind++) {
		const w3d_hlod_array *arr = kind == 0 ? h->lods : kind == 1 ? h->aggregates : h->proxies;
		size_t n = kind == 0 ? h->lod_array_count : kind == 1 ? h->aggregate_count : h->proxy_count;
		for (size_t a = 0; a < n; a++)
			for (size_t s = 0; s < arr[a].sub_count; s++) {
				const w3d_hlod_sub_object *so = &arr[a].subs[s];
				if (!so->ok)
					continue;
				xref_ent *r = new_ref(x, kind == 2 ? REF_PROXY : REF_SUB, file, so->name, h->name, doc,
						      so->src, wl_chunk_payload_offset(so->src), 4);
				if (!r)
					continue;
				r->hier = dup_str(x, h->hierarchy_name);
				r->value = so->bone_index;
				r->has_value = true;
				/* the name field, for reference-mesh-missing */
				r->off2 = wl_chunk_payload_offset(so->src) + 4;
			}
	}
}

/* The highest pivot among an animation's channels and where the first
 * channel naming it stores it. */
typedef struct max_pivot {
	uint32_t pivot;
	bool any;            /* a channel with a header was seen */
	const wl_chunk *src; /* that channel's chunk */
	uint64_t off;        /* file offset of its pivot field */
} max_pivot;

/* Takes channel chunk src (pivot field at payload + pivot_at) into mp when
 * its header is complete and its pivot is above those seen so far. */
static void max_pivot_add(max_pivot *mp, bool header_ok, uint32_t pivot, const wl_chunk *src, uint64_t pivot_at)
{
	if (header_ok && (!mp->any || pivot > mp->pivot)) {
		mp->pivot = pivot, mp->any = true, mp->src = src;
		mp->off = wl_chunk_payload_offset(src) + pivot_at;
	}
}

/* An animation's hierarchy reference and its highest channel pivot. */
static void add_anim(w3d_xref *x, uint32_t file, const wl_doc *doc, const char *name, const char *hier,
		     const wl_chunk *src, const wl_chunk *header, const max_pivot *mp)
{
	if (!hier[0])
		return;
	char full[80];
	snprintf(full, sizeof full, "%s.%s", hier, name);
	new_def(x, DEF_ANIM, file, full, doc, src);
	xref_ent *r = new_ref(x, REF_ANIM, file, hier, name, doc, header, wl_chunk_payload_offset(header) + 20, 16);
	if (!r || !mp->any)
		return;
	r->value = mp->pivot;
	r->has_value = true;
	r->off2 = mp->off;
	r->cpath2 = dup_path(x, doc, mp->src, -1);
}

static void add_raw_anim(w3d_xref *x, uint32_t file, const wl_doc *doc, const w3d_animation *a)
{
	if (!a->header_ok)
		return;
	max_pivot mp = { 0, false, NULL, 0 };
	for (size_t i = 0; i < a->channel_count; i++) {
		const w3d_anim_channel *c = &a->channels[i];
		max_pivot_add(&mp, c->header_ok, c->pivot, c->src, 8);
	}
	for (size_t i = 0; i < a->bit_channel_count; i++) {
		const w3d_bit_channel *c = &a->bit_channels[i];
		max_pivot_add(&mp, c->header_ok, c->pivot, c->src, 6);
	}
	add_anim(x, file, doc, a->name, a->hierarchy_name, a->src, a->header, &mp);
}

static void add_compressed_anim(w3d_xref *x, uint32_t file, const wl_doc *doc, const w3d_compressed_animation *a)
{
	if (!a->header_ok)
		return;
	max_pivot mp = { 0, false, NULL, 0 };
	for (size_t i = 0; i < a->channel_count; i++) {
		const w3d_canim_channel *c = &a->channels[i];
		bool motion = c->header_ok && c->src->id == W3D_CHUNK_COMPRESSED_ANIMATION_MOTION_CHANNEL;
		max_pivot_add(&mp, c->header_ok, c->pivot, c->src, motion ? 6 : 4);
	}
	for (size_t i = 0; i < a->bit_channel_count; i++) {
		const w3d_cbit_channel *c = &a->bit_channels[i];
		max_pivot_add(&mp, c->header_ok, c->pivot, c->src, 4);
	}
	add_anim(x, file, doc, a->name, a->hierarchy_name, a->src, a->header, &mp);
}

/* The first child of c with id and at least min payload bytes, or NULL. */
static const wl_chunk *child(const wl_chunk *c, uint32_t id, uint64_t min)
{
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && k->id == id)
			return k->size >= min ? k : NULL;
	return NULL;
}

/* Render objects the model does not decode: their name fields are read
 * from the raw chunks (bounds-checked against the payload). */
static void add_raw_objects(w3d_xref *x, uint32_t file, const wl_doc *doc)
{
	for (const wl_chunk *c = doc->root.first_child; c; c = c->next) {
		if (c->kind != WL_NODE_CHUNK)
			continue;
		const wl_chunk *k = NULL;
		uint64_t at = 0, n = 0;
		switch (c->id) {
		case W3D_CHUNK_NULL_OBJECT: /* W3dNullObjectStruct: Name[32] at 16 */
			k = c->size >= 48 ? c : NULL, at = 16, n = 32;
			break;
		case W3D_CHUNK_HMODEL:
		case W3D_CHUNK_LODMODEL:
		case W3D_CHUNK_COLLECTION:
		case W3D_CHUNK_EMITTER:
		case W3D_CHUNK_AGGREGATE: /* its *_HEADER, id + 1: Version, Name[16] at 4 */
			k = child(c, c->id + 1, 20), at = 4, n = 16;
			break;
		case W3D_CHUNK_SPHERE:
		case W3D_CHUNK_RING: /* *_DEF: Version, Flags, Name[32] */
			k = child(c, W3D_CHUNK_PRIM_DEF, 40), at = 8, n = 32;
			break;
		case W3D_CHUNK_DAZZLE: /* DAZZLE_NAME: a string chunk */
			k = child(c, W3D_CHUNK_DAZZLE_NAME, 1), at = 0;
			n = k ? (k->size < 255 ? k->size : 255) : 0;
			break;
		default:
			break;
		}
		if (k && n) {
			char *name = dup_field(x, wl_chunk_payload(doc, k) + at, (size_t)n);
			if (name)
				new_def(x, DEF_ROBJ, file, name, doc, c);
			free(name);
		}
		if (c->id == W3D_CHUNK_EMITTER) {
			/* W3dEmitterInfoStruct.TextureFilename[260] at 0 */
			const wl_chunk *info = child(c, W3D_CHUNK_EMITTER_INFO, 260);
			const wl_chunk *hdr = child(c, W3D_CHUNK_EMITTER_HEADER, 20);
			if (info) {
				char *tex = dup_field(x, wl_chunk_payload(doc, info), 260);
				char *owner = hdr ? dup_field(x, wl_chunk_payload(doc, hdr) + 4, 16) : NULL;
				if (tex && tex[0])
					new_ref(x, REF_TEXTURE, file, tex, owner ? owner : "", doc, info,
						wl_chunk_payload_offset(info), 260);
				free(tex);
				free(owner);
			}
		}
	}
}

int w3d_xref_add(w3d_xref *x, const char *path, const wl_doc *doc)
{
	if (!x || !path || !doc)
		return -1;
	pthread_mutex_lock(&x->lock);
	int rc = 0;
	if (!wl_grow((void **)&x->files, &x->file_cap, x->file_count + 1, sizeof *x->files) ||
	    x->file_count >= UINT32_MAX) {
		rc = -1;
		goto out;
	}
	char *p = strdup(path);
	if (!p) {
		rc = -1;
		goto out;
	}
	uint32_t file = (uint32_t)x->file_count;
	x->files[x->file_count++] = p;
	bool was_oom = x->oom;
	x->oom = false;
	const w3d_model *m = doc->model;
	if (m) {
		for (size_t i = 0; i < m->mesh_count; i++)
			if (m->meshes[i] && m->meshes[i]->header.src)
				add_mesh(x, file, doc, m->meshes[i]);
		for (size_t i = 0; i < m->hierarchy_count; i++) {
			const w3d_hierarchy *h = m->hierarchies[i];
			if (!h || !h->header_ok)
				continue;
			xdef *d = new_def(x, DEF_HIER, file, h->name, doc, h->src);
			if (!d)
				continue;
			d->pivots = wl_hierarchy_pivots(h);
			d->poses = malloc((h->pivot_count ? h->pivot_count : 1) * sizeof *d->poses);
			if (!d->poses) {
				x->oom = true;
				continue;
			}
			w3d_hierarchy_base_pose(h, d->poses);
			d->pose_count = (uint32_t)(h->pivot_count < d->pivots ? h->pivot_count : d->pivots);
		}
		for (size_t i = 0; i < m->hlod_count; i++)
			if (m->hlods[i])
				add_hlod(x, file, doc, m->hlods[i]);
		for (size_t i = 0; i < m->box_count; i++)
			if (m->boxes[i] && m->boxes[i]->ok)
				new_def(x, DEF_ROBJ, file, m->boxes[i]->name, doc, m->boxes[i]->src);
		for (size_t i = 0; i < m->animation_count; i++)
			if (m->animations[i])
				add_raw_anim(x, file, doc, m->animations[i]);
		for (size_t i = 0; i < m->compressed_animation_count; i++)
			if (m->compressed_animations[i])
				add_compressed_anim(x, file, doc, m->compressed_animations[i]);
	}
	add_raw_objects(x, file, doc);
	rc = x->oom ? -1 : 0;
	x->oom = x->oom || was_oom;
out:
	pthread_mutex_unlock(&x->lock);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Texture files                                                        */
/* ------------------------------------------------------------------ */

/* The folded stem of a texture name: base name without directories and
 * without a .tga/.dds extension, ASCII upper case.  NULL for other
 * extensions when require_ext. */
char *w3d_xref_texture_stem(const char *name, bool require_ext)
{
	const char *s = name;
	for (const char *p = name; *p; p++)
		if (*p == '/' || *p == '\\')
			s = p + 1;
	size_t n = strlen(s);
	const char *dot = strrchr(s, '.');
	if (dot && (wl_name_eq(dot, ".tga") || wl_name_eq(dot, ".dds")))
		n = (size_t)(dot - s);
	else if (require_ext)
		return NULL;
	char *d = malloc(n + 1);
	if (!d)
		return NULL;
	for (size_t i = 0; i < n; i++)
		d[i] = s[i] >= 'a' && s[i] <= 'z' ? (char)(s[i] - 'a' + 'A') : s[i];
	d[n] = 0;
	return d;
}

static int add_texture_locked(w3d_xref *x, const char *path)
{
	const char *dot = strrchr(path, '.');
	if (!dot || !(wl_name_eq(dot, ".tga") || wl_name_eq(dot, ".dds")))
		return 0;
	char *stem = w3d_xref_texture_stem(path, true);
	if (!stem || !wl_grow((void **)&x->textures, &x->texture_cap, x->texture_count + 1, sizeof *x->textures)) {
		free(stem);
		x->oom = true;
		return -1;
	}
	x->textures[x->texture_count++] = stem;
	return 1;
}

int w3d_xref_add_texture_file(w3d_xref *x, const char *path)
{
	if (!x || !path)
		return -1;
	pthread_mutex_lock(&x->lock);
	int rc = add_texture_locked(x, path);
	pthread_mutex_unlock(&x->lock);
	return rc;
}

/* The folder of a BIG archive the SAGE games (Generals, Zero Hour, BFME)
 * load textures from: ZH W3DFileSystem.h TGA_DIR_PATH "Art/Textures/"
 * (models: W3D_DIR_PATH "Art/W3D/"), paths compared with letter case
 * ignored. */
#define BIG_TEXTURE_DIR "art/textures/"

int w3d_xref_add_entry(w3d_xref *x, const char *archive, const wl_archive *a, const wl_archive_entry *e)
{
	(void)archive;
	if (!x || !a || !e)
		return -1;
	size_t n = sizeof BIG_TEXTURE_DIR - 1;
	if (a->kind != WL_ARCHIVE_BIG || strlen(e->path) <= n || strncasecmp(e->path, BIG_TEXTURE_DIR, n) != 0)
		return 0;
	return w3d_xref_add_texture_file(x, e->path);
}


/* ------------------------------------------------------------------ */
/* Checking                                                             */
/* ------------------------------------------------------------------ */
