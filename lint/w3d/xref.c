/* xref.c - the W3D cross-file index of a linted folder (xref.h): W3D's
 * contributor to the cross-file checks of lint/xref.c. */
#include "xref.h"

#include <dirent.h>
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

/* Top-level render objects read from their raw chunks (w3d_file.h enum;
 * notes/w3d_reference.md §2.0.2, §2.8-§2.12). */
enum {
	ID_HMODEL = 0x300, ID_HMODEL_HEADER = 0x301,
	ID_LODMODEL = 0x400, ID_LODMODEL_HEADER = 0x401,
	ID_COLLECTION = 0x420, ID_COLLECTION_HEADER = 0x421,
	ID_EMITTER = 0x500, ID_EMITTER_HEADER = 0x501, ID_EMITTER_INFO = 0x503,
	ID_AGGREGATE = 0x600, ID_AGGREGATE_HEADER = 0x601,
	ID_SPHERE = 0x741, ID_RING = 0x742, ID_PRIM_DEF = 0x1,
	ID_NULL_OBJECT = 0x750,
	ID_DAZZLE = 0x900, ID_DAZZLE_NAME = 0x901
};

/* add_raw_objects finds these objects' headers at their container's id + 1. */
_Static_assert(ID_HMODEL_HEADER == ID_HMODEL + 1 && ID_LODMODEL_HEADER == ID_LODMODEL + 1 &&
		       ID_COLLECTION_HEADER == ID_COLLECTION + 1 && ID_EMITTER_HEADER == ID_EMITTER + 1 &&
		       ID_AGGREGATE_HEADER == ID_AGGREGATE + 1,
	       "object headers follow their container's id");

#define PATH_CAP 256

typedef enum def_kind { DEF_ROBJ = 0, DEF_HIER = 1, DEF_ANIM = 2 } def_kind;

/* A skin mesh whose hierarchy is not in its own file (wl_mesh_bounds_points
 * said WL_BOUNDS_POINTS_NO_TREE): what checking its bounds in the bind pose
 * needs. */
typedef struct xskin {
	char *hier;          /* HierarchyName of the HLOD of the mesh's file that
	                        uses it; NULL when no HLOD of that file does */
	size_t n;            /* vertices */
	float (*v)[3];       /* stored (bone-relative) vertices */
	uint16_t *bone;      /* primary bone of each */
	float min[3], max[3], center[3], radius; /* MESH_HEADER3 bounds */
	uint64_t hdr_off;    /* MESH_HEADER3 payload */
	char *hdr_cpath;
} xskin;

/* Something a file defines. */
typedef struct xdef {
	def_kind kind;
	uint32_t file;
	char *name;          /* as written (printable copy) */
	uint64_t off, len;   /* the object chunk */
	char *cpath;
	uint32_t pivots;     /* DEF_HIER */
	bool has_bones;      /* DEF_ROBJ skin mesh with 0x0E influences */
	uint32_t max_bone;
	uint32_t (*bones)[2];/* bone[0], bone[1] of each 0x0E record; UINT32_MAX:
	                        slot unused (single-bone layout, or weight 0) */
	size_t bone_n;
	uint64_t bones_off;  /* VERTEX_INFLUENCES payload */
	char *bones_cpath;   /* its chunk path, without an element index */
	xskin *skin;         /* DEF_ROBJ: a skin to check here, or NULL */
	w3d_pose *poses;     /* DEF_HIER: base pose of each pivot, or NULL */
	uint32_t pose_count; /* pivots the engine loads (wl_hierarchy_pivots) */
} xdef;

typedef enum ref_kind {
	REF_SUB = 0,      /* HLOD LOD / aggregate sub-object: name + bone */
	REF_PROXY = 1,    /* HLOD proxy: bone only */
	REF_HLOD_HIER = 2,/* HLOD HierarchyName */
	REF_ANIM = 3,     /* animation HierarchyName + max channel pivot */
	REF_TEXTURE = 4   /* texture file name */
} ref_kind;

/* Something a file references. */
typedef struct xref_ent {
	ref_kind kind;
	uint32_t file;
	char *name;       /* referenced name (sub-object, hierarchy, texture) */
	char *owner;      /* HLOD / animation / mesh name, for messages */
	char *hier;       /* REF_SUB / REF_PROXY: the HLOD's HierarchyName */
	uint32_t value;   /* REF_SUB/PROXY: BoneIndex; REF_ANIM: max pivot */
	bool has_value;   /* REF_ANIM: at least one channel */
	uint64_t off, len;
	char *cpath;
	uint64_t off2;    /* REF_ANIM: the pivot field of the max channel */
	char *cpath2;
} xref_ent;

struct w3d_xref {
	pthread_mutex_t lock;
	char *scope;       /* the places searched, for messages (NULL: "the folder") */
	char **files;
	size_t file_count, file_cap;
	xdef *defs;
	size_t def_count, def_cap;
	xref_ent *refs;
	size_t ref_count, ref_cap;
	char **textures;     /* folded stems of .tga/.dds files */
	size_t texture_count, texture_cap;
	bool oom;
};

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
		case ID_NULL_OBJECT: /* W3dNullObjectStruct: Name[32] at 16 */
			k = c->size >= 48 ? c : NULL, at = 16, n = 32;
			break;
		case ID_HMODEL:
		case ID_LODMODEL:
		case ID_COLLECTION:
		case ID_EMITTER:
		case ID_AGGREGATE: /* its *_HEADER, id + 1: Version, Name[16] at 4 */
			k = child(c, c->id + 1, 20), at = 4, n = 16;
			break;
		case ID_SPHERE:
		case ID_RING: /* *_DEF: Version, Flags, Name[32] */
			k = child(c, ID_PRIM_DEF, 40), at = 8, n = 32;
			break;
		case ID_DAZZLE: /* DAZZLE_NAME: a string chunk */
			k = child(c, ID_DAZZLE_NAME, 1), at = 0;
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
		if (c->id == ID_EMITTER) {
			/* W3dEmitterInfoStruct.TextureFilename[260] at 0 */
			const wl_chunk *info = child(c, ID_EMITTER_INFO, 260);
			const wl_chunk *hdr = child(c, ID_EMITTER_HEADER, 20);
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
static char *texture_stem(const char *name, bool require_ext)
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
	char *stem = texture_stem(path, true);
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

__attribute__((format(printf, 9, 0)))
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
		 const char *cpath, const char *fmt, ...) __attribute__((format(printf, 8, 9)));

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
			 const char *name, const char *fmt, ...) __attribute__((format(printf, 8, 9)));

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
			char *stem = texture_stem(r->name, false);
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

static void *ops_create(void)
{
	return w3d_xref_new();
}

static void ops_destroy(void *x)
{
	w3d_xref_free(x);
}

static int ops_add(void *x, const char *path, const wl_doc *doc)
{
	return w3d_xref_add(x, path, doc);
}

static int ops_texture(void *x, const char *path)
{
	return w3d_xref_add_texture_file(x, path);
}

static long ops_check(void *x, wl_xref_emit_fn fn, void *user)
{
	return w3d_xref_check(x, fn, user);
}

static int ops_entry(void *x, const char *archive, const wl_archive *a, const wl_archive_entry *e)
{
	return w3d_xref_add_entry(x, archive, a, e);
}

int w3d_xref_set_scope(w3d_xref *x, const char *scope)
{
	if (!x || !scope)
		return -1;
	char *c = strdup(scope);
	if (!c)
		return -1;
	pthread_mutex_lock(&x->lock);
	free(x->scope);
	x->scope = c;
	pthread_mutex_unlock(&x->lock);
	return 0;
}

static int ops_scope(void *x, const char *scope)
{
	return w3d_xref_set_scope(x, scope);
}

const wl_xref_ops w3d_xref_ops = { ops_create, ops_destroy, ops_add, ops_texture, ops_check, ops_entry, ops_scope };
