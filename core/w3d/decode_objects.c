/* decode_objects.c - decoders of the W3D top-level objects of objects.h
 * except EMITTER (decode_emitter.c).  Layouts: notes/w3d_reference.md §2.6,
 * §2.8, §2.9, §2.11-§2.13 and the specification seeds/000_*.txt. */
#include "objects.h"

#include <string.h>

#include "core/cursor.h"
#include "decode_util.h"
#include "hierarchy.h"
#include "w3d_format.h"

/* True for a chunk node (not a gap). */
static bool is_chunk(const wl_chunk *k)
{
	return k->kind == WL_NODE_CHUNK;
}

/* A cursor over the payload of k clamped to the file. */
static wl_cursor cursor_of(const wl_doc *doc, const wl_chunk *k)
{
	size_t len;
	const uint8_t *p = w3d_payload_clamped(doc, k, &len);
	return wl_cursor_make(p, len, wl_chunk_payload_offset(k));
}

/* Reads an n-byte name field at the cursor ("" when short or OOM). */
static const char *name_field(wl_doc *doc, wl_cursor *cur, size_t n, bool *terminated)
{
	const uint8_t *p = wl_cursor_take(cur, n);
	*terminated = false;
	if (!p)
		return "";
	const char *s = w3d_name_field(doc, p, n, terminated);
	return s ? s : "";
}

/* Counts the chunk children of c with the given id. */
static size_t count_id(const wl_chunk *c, uint32_t id)
{
	size_t n = 0;
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		if (is_chunk(k) && k->id == id)
			n++;
	return n;
}

/* Arena array of n elements (at least one so the pointer is valid). */
static void *array_of(wl_doc *doc, size_t n, size_t size)
{
	void *p = wl_arena_array(doc->arena, n ? n : 1, size);
	if (!p)
		doc->oom = true;
	return p;
}

const char *w3d_decode_string_chunk(wl_doc *doc, const wl_chunk *c, bool *terminated)
{
	size_t len;
	const uint8_t *p = w3d_payload_clamped(doc, c, &len);
	const uint8_t *z = memchr(p, 0, len);
	*terminated = z != NULL;
	char *s = wl_arena_strndup(doc->arena, (const char *)p, z ? (size_t)(z - p) : len);
	if (!s) {
		doc->oom = true;
		return "";
	}
	return s;
}

static void read_vec3(wl_cursor *cur, float v[3])
{
	w3d_read_f32s(cur, v, 3);
}

/* ------------------------------------------------------------------ */

w3d_morph_animation *w3d_decode_morph_animation(wl_doc *doc, wl_chunk *c)
{
	w3d_morph_animation *a = w3d_alloc_decoded(
		doc, &(w3d_morph_animation){ .src = c, .name = "", .hierarchy_name = "" }, sizeof *a);
	if (!a)
		return NULL;
	a->header = w3d_find_header(c, W3D_OBJ_CHUNK_MORPHANIM_HEADER, &a->header_first);
	if (a->header) {
		wl_cursor cur = cursor_of(doc, a->header);
		a->header_ok = cur.len >= W3D_MORPH_HEADER_SIZE;
		a->version = wl_cursor_u32(&cur);
		a->name = name_field(doc, &cur, 16, &a->name_terminated);
		a->hierarchy_name = name_field(doc, &cur, 16, &a->hierarchy_name_terminated);
		a->frame_count = wl_cursor_u32(&cur);
		a->frame_rate = wl_cursor_f32(&cur);
		a->channel_count = wl_cursor_u32(&cur);
		w3d_set_label(doc, c, a->name);
	}
	size_t nch = count_id(c, W3D_OBJ_CHUNK_MORPHANIM_CHANNEL);
	a->channels = array_of(doc, nch, sizeof *a->channels);
	if (!a->channels)
		return NULL;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_chunk(k))
			continue;
		if (k->id == W3D_OBJ_CHUNK_MORPHANIM_CHANNEL && a->channel_array_count < nch) {
			w3d_morph_channel *ch = &a->channels[a->channel_array_count++];
			ch->src = k;
			ch->pose_name = "";
			for (const wl_chunk *q = k->first_child; q; q = q->next) {
				if (!is_chunk(q))
					continue;
				if (q->id == W3D_OBJ_CHUNK_MORPHANIM_POSENAME && !ch->pose_name_src) {
					ch->pose_name_src = q;
					ch->pose_name = w3d_decode_string_chunk(doc, q, &ch->pose_name_terminated);
				} else if (q->id == W3D_OBJ_CHUNK_MORPHANIM_KEYDATA && !ch->keys_src) {
					wl_cursor cur = cursor_of(doc, q);
					size_t n = cur.len / W3D_MORPH_KEY_SIZE;
					ch->keys = array_of(doc, n, sizeof *ch->keys);
					if (!ch->keys)
						return NULL;
					ch->keys_src = q;
					ch->key_count = n;
					for (size_t i = 0; i < n; i++) {
						ch->keys[i][0] = wl_cursor_u32(&cur);
						ch->keys[i][1] = wl_cursor_u32(&cur);
					}
				}
			}
		} else if (k->id == W3D_OBJ_CHUNK_MORPHANIM_PIVOTCHANNELDATA && !a->pivot_data_src) {
			a->pivot_data_src = k;
			a->pivot_data_count = (size_t)(k->size / 4);
		}
	}
	return doc->oom ? NULL : a;
}

/* ------------------------------------------------------------------ */

w3d_hmodel *w3d_decode_hmodel(wl_doc *doc, wl_chunk *c)
{
	w3d_hmodel *h = w3d_alloc_decoded(doc, &(w3d_hmodel){ .src = c, .name = "", .hierarchy_name = "" },
					  sizeof *h);
	if (!h)
		return NULL;
	h->header = w3d_find_header(c, W3D_OBJ_CHUNK_HMODEL_HEADER, &h->header_first);
	if (h->header) {
		wl_cursor cur = cursor_of(doc, h->header);
		h->header_ok = cur.len >= W3D_HMODEL_HEADER_SIZE;
		h->version = wl_cursor_u32(&cur);
		h->name = name_field(doc, &cur, 16, &h->name_terminated);
		h->hierarchy_name = name_field(doc, &cur, 16, &h->hierarchy_name_terminated);
		h->num_connections = wl_cursor_u16(&cur);
		w3d_set_label(doc, c, h->name);
	}
	size_t n = count_id(c, W3D_OBJ_CHUNK_NODE) + count_id(c, W3D_OBJ_CHUNK_COLLISION_NODE) +
		   count_id(c, W3D_OBJ_CHUNK_SKIN_NODE);
	h->nodes = array_of(doc, n, sizeof *h->nodes);
	if (!h->nodes)
		return NULL;
	for (const wl_chunk *k = c->first_child; k && h->node_count < n; k = k->next) {
		if (!is_chunk(k) || k->id < W3D_OBJ_CHUNK_NODE || k->id > W3D_OBJ_CHUNK_SKIN_NODE)
			continue;
		w3d_hmodel_node *nd = &h->nodes[h->node_count++];
		wl_cursor cur = cursor_of(doc, k);
		nd->src = k;
		nd->kind = (w3d_hmodel_node_kind)(k->id - W3D_OBJ_CHUNK_NODE);
		nd->ok = cur.len >= W3D_HMODEL_NODE_SIZE;
		nd->render_obj_name = name_field(doc, &cur, 16, &nd->render_obj_name_terminated);
		nd->pivot = wl_cursor_u16(&cur);
	}
	return doc->oom ? NULL : h;
}

/* ------------------------------------------------------------------ */

w3d_lodmodel *w3d_decode_lodmodel(wl_doc *doc, wl_chunk *c)
{
	w3d_lodmodel *l = w3d_alloc_decoded(doc, &(w3d_lodmodel){ .src = c, .name = "" }, sizeof *l);
	if (!l)
		return NULL;
	l->header = w3d_find_header(c, W3D_OBJ_CHUNK_LODMODEL_HEADER, &l->header_first);
	if (l->header) {
		wl_cursor cur = cursor_of(doc, l->header);
		l->header_ok = cur.len >= W3D_LODMODEL_HEADER_SIZE;
		l->version = wl_cursor_u32(&cur);
		l->name = name_field(doc, &cur, 16, &l->name_terminated);
		l->num_lods = wl_cursor_u16(&cur);
		w3d_set_label(doc, c, l->name);
	}
	size_t n = count_id(c, W3D_OBJ_CHUNK_LOD);
	l->lods = array_of(doc, n, sizeof *l->lods);
	if (!l->lods)
		return NULL;
	for (const wl_chunk *k = c->first_child; k && l->lod_count < n; k = k->next) {
		if (!is_chunk(k) || k->id != W3D_OBJ_CHUNK_LOD)
			continue;
		w3d_lod *d = &l->lods[l->lod_count++];
		wl_cursor cur = cursor_of(doc, k);
		d->src = k;
		d->ok = cur.len >= W3D_LOD_SIZE;
		d->render_obj_name = name_field(doc, &cur, 32, &d->render_obj_name_terminated);
		d->lod_min = wl_cursor_f32(&cur);
		d->lod_max = wl_cursor_f32(&cur);
	}
	return doc->oom ? NULL : l;
}

/* ------------------------------------------------------------------ */

static void decode_placeholder(wl_doc *doc, const wl_chunk *k, w3d_placeholder *p)
{
	wl_cursor cur = cursor_of(doc, k);
	p->src = k;
	p->name = "";
	p->ok = cur.len >= W3D_PLACEHOLDER_SIZE;
	p->version = wl_cursor_u32(&cur);
	for (int r = 0; r < 4; r++)
		read_vec3(&cur, p->transform[r]);
	p->name_len = wl_cursor_u32(&cur);
	if (!p->ok)
		return;
	size_t avail = wl_cursor_remaining(&cur);
	size_t n = p->name_len < avail ? p->name_len : avail;
	p->name_complete = p->name_len <= avail;
	const uint8_t *s = wl_cursor_take(&cur, n);
	const uint8_t *z = s ? memchr(s, 0, n) : NULL;
	char *t = wl_arena_strndup(doc->arena, s ? (const char *)s : "", z ? (size_t)(z - s) : (s ? n : 0));
	if (!t)
		doc->oom = true;
	else
		p->name = t;
}

w3d_collection *w3d_decode_collection(wl_doc *doc, wl_chunk *c)
{
	w3d_collection *o = w3d_alloc_decoded(doc, &(w3d_collection){ .src = c, .name = "" }, sizeof *o);
	if (!o)
		return NULL;
	o->header = w3d_find_header(c, W3D_OBJ_CHUNK_COLLECTION_HEADER, &o->header_first);
	if (o->header) {
		wl_cursor cur = cursor_of(doc, o->header);
		o->header_ok = cur.len >= W3D_COLLECTION_HEADER_SIZE;
		o->version = wl_cursor_u32(&cur);
		o->name = name_field(doc, &cur, 16, &o->name_terminated);
		o->render_object_count = wl_cursor_u32(&cur);
		w3d_set_label(doc, c, o->name);
	}
	size_t nn = count_id(c, W3D_OBJ_CHUNK_COLLECTION_OBJ_NAME);
	size_t np = count_id(c, W3D_OBJ_CHUNK_PLACEHOLDER);
	size_t nt = count_id(c, W3D_OBJ_CHUNK_TRANSFORM_NODE);
	o->obj_names = array_of(doc, nn, sizeof *o->obj_names);
	o->obj_name_srcs = array_of(doc, nn, sizeof *o->obj_name_srcs);
	o->placeholders = array_of(doc, np, sizeof *o->placeholders);
	o->transform_nodes = array_of(doc, nt, sizeof *o->transform_nodes);
	if (doc->oom)
		return NULL;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_chunk(k))
			continue;
		if (k->id == W3D_OBJ_CHUNK_COLLECTION_OBJ_NAME && o->obj_name_count < nn) {
			bool term;
			o->obj_name_srcs[o->obj_name_count] = k;
			o->obj_names[o->obj_name_count++] = w3d_decode_string_chunk(doc, k, &term);
		} else if (k->id == W3D_OBJ_CHUNK_PLACEHOLDER && o->placeholder_count < np) {
			decode_placeholder(doc, k, &o->placeholders[o->placeholder_count++]);
		} else if (k->id == W3D_OBJ_CHUNK_TRANSFORM_NODE && o->transform_node_count < nt) {
			decode_placeholder(doc, k, &o->transform_nodes[o->transform_node_count++]);
		}
	}
	return doc->oom ? NULL : o;
}

/* ------------------------------------------------------------------ */

w3d_points *w3d_decode_points(wl_doc *doc, wl_chunk *c)
{
	w3d_points *p = w3d_alloc_decoded(doc, &(w3d_points){ .src = c }, sizeof *p);
	if (!p)
		return NULL;
	wl_cursor cur = cursor_of(doc, c);
	size_t n = cur.len / 12;
	p->v = array_of(doc, n, sizeof *p->v);
	if (!p->v)
		return NULL;
	p->count = n;
	for (size_t i = 0; i < n; i++)
		read_vec3(&cur, p->v[i]);
	return p;
}

/* ------------------------------------------------------------------ */

static void read_rgb(wl_cursor *cur, uint8_t rgb[3])
{
	rgb[0] = wl_cursor_u8(cur);
	rgb[1] = wl_cursor_u8(cur);
	rgb[2] = wl_cursor_u8(cur);
	(void)wl_cursor_u8(cur); /* pad */
}

/* Decodes the children of a LIGHT chunk c into l (l->src = c). */
static void decode_light_into(wl_doc *doc, const wl_chunk *c, w3d_light *l)
{
	l->src = c;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_chunk(k))
			continue;
		wl_cursor cur = cursor_of(doc, k);
		switch (k->id) {
		case W3D_OBJ_CHUNK_LIGHT_INFO:
			if (l->info_src)
				break;
			l->info_src = k;
			l->info_ok = cur.len >= W3D_LIGHT_INFO_SIZE;
			l->attributes = wl_cursor_u32(&cur);
			(void)wl_cursor_u32(&cur); /* Unused */
			read_rgb(&cur, l->ambient);
			read_rgb(&cur, l->diffuse);
			read_rgb(&cur, l->specular);
			l->intensity = wl_cursor_f32(&cur);
			break;
		case W3D_OBJ_CHUNK_SPOT_LIGHT_INFO:
			if (l->spot_src)
				break;
			l->spot_src = k;
			read_vec3(&cur, l->spot_direction);
			l->spot_angle = wl_cursor_f32(&cur);
			l->spot_exponent = wl_cursor_f32(&cur);
			break;
		case W3D_OBJ_CHUNK_NEAR_ATTENUATION:
			if (!l->near_src) {
				l->near_src = k;
				w3d_read_f32s(&cur, l->near_atten, 2);
			}
			break;
		case W3D_OBJ_CHUNK_FAR_ATTENUATION:
			if (!l->far_src) {
				l->far_src = k;
				w3d_read_f32s(&cur, l->far_atten, 2);
			}
			break;
		case W3D_OBJ_CHUNK_SPOT_LIGHT_INFO_5_0:
			if (!l->spot_5_0_src) {
				l->spot_5_0_src = k;
				l->spot_outer_angle = wl_cursor_f32(&cur);
				l->spot_inner_angle = wl_cursor_f32(&cur);
			}
			break;
		case W3D_OBJ_CHUNK_PULSE:
			if (!l->pulse_src)
				l->pulse_src = k;
			break;
		default:
			break;
		}
	}
}

w3d_light *w3d_decode_light(wl_doc *doc, wl_chunk *c)
{
	w3d_light *l = w3d_alloc_decoded(doc, &(w3d_light){ .src = c }, sizeof *l);
	if (!l)
		return NULL;
	decode_light_into(doc, c, l);
	return l;
}

w3d_lightscape *w3d_decode_lightscape(wl_doc *doc, wl_chunk *c)
{
	w3d_lightscape *s = w3d_alloc_decoded(doc, &(w3d_lightscape){ .src = c }, sizeof *s);
	if (!s)
		return NULL;
	size_t n = count_id(c, W3D_OBJ_CHUNK_LIGHTSCAPE_LIGHT);
	s->lights = array_of(doc, n, sizeof *s->lights);
	if (!s->lights)
		return NULL;
	for (const wl_chunk *k = c->first_child; k && s->light_count < n; k = k->next) {
		if (!is_chunk(k) || k->id != W3D_OBJ_CHUNK_LIGHTSCAPE_LIGHT)
			continue;
		w3d_lightscape_light *ll = &s->lights[s->light_count++];
		ll->src = k;
		for (const wl_chunk *q = k->first_child; q; q = q->next) {
			if (!is_chunk(q))
				continue;
			if (q->id == W3D_OBJ_CHUNK_LIGHT && !ll->light.src) {
				decode_light_into(doc, q, &ll->light);
			} else if (q->id == W3D_OBJ_CHUNK_LIGHT_TRANSFORM && !ll->transform_src) {
				wl_cursor cur = cursor_of(doc, q);
				ll->transform_src = q;
				for (int r = 0; r < 3; r++)
					w3d_read_f32s(&cur, ll->transform[r], 4);
			}
		}
	}
	return s;
}

/* ------------------------------------------------------------------ */

w3d_aggregate *w3d_decode_aggregate(wl_doc *doc, wl_chunk *c)
{
	w3d_aggregate *a = w3d_alloc_decoded(doc, &(w3d_aggregate){ .src = c, .name = "", .base_model_name = "" },
					     sizeof *a);
	if (!a)
		return NULL;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_chunk(k))
			continue;
		wl_cursor cur = cursor_of(doc, k);
		if (k->id == W3D_OBJ_CHUNK_AGGREGATE_HEADER && !a->header) {
			a->header = k;
			a->header_ok = cur.len >= W3D_AGGREGATE_HEADER_SIZE;
			a->version = wl_cursor_u32(&cur);
			a->name = name_field(doc, &cur, 16, &a->name_terminated);
			w3d_set_label(doc, c, a->name);
		} else if (k->id == W3D_OBJ_CHUNK_AGGREGATE_INFO && !a->info) {
			a->info = k;
			a->info_ok = cur.len >= W3D_AGGREGATE_INFO_SIZE;
			a->base_model_name = name_field(doc, &cur, 32, &a->base_model_name_terminated);
			a->subobject_count = wl_cursor_u32(&cur);
			if (!a->info_ok)
				continue;
			size_t n = wl_cursor_remaining(&cur) / W3D_AGGREGATE_SUBOBJ_SIZE;
			a->subobjects = array_of(doc, n, sizeof *a->subobjects);
			if (!a->subobjects)
				return NULL;
			a->subobject_array_count = n;
			for (size_t i = 0; i < n; i++) {
				w3d_aggregate_subobject *s = &a->subobjects[i];
				s->subobject_name = name_field(doc, &cur, 32, &s->subobject_name_terminated);
				s->bone_name = name_field(doc, &cur, 32, &s->bone_name_terminated);
			}
		} else if (k->id == W3D_OBJ_CHUNK_TEXTURE_REPLACER_INFO && !a->texture_replacer) {
			a->texture_replacer = k;
			a->replaced_textures_count = wl_cursor_u32(&cur);
		} else if (k->id == W3D_OBJ_CHUNK_AGGREGATE_CLASS_INFO && !a->class_info) {
			a->class_info = k;
			a->original_class_id = wl_cursor_u32(&cur);
			a->flags = wl_cursor_u32(&cur);
		}
	}
	return doc->oom ? NULL : a;
}

/* ------------------------------------------------------------------ */

w3d_primitive *w3d_decode_primitive(wl_doc *doc, wl_chunk *c)
{
	w3d_primitive *p = w3d_alloc_decoded(
		doc, &(w3d_primitive){ .src = c, .is_ring = c->id == W3D_OBJ_CHUNK_RING, .name = "", .texture_name = "" },
		sizeof *p);
	if (!p)
		return NULL;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_chunk(k))
			continue;
		if (k->id >= W3D_OBJ_PRIM_FIRST_CHANNEL && k->id <= W3D_OBJ_PRIM_LAST_CHANNEL) {
			p->channel_count++;
		} else if (k->id == W3D_OBJ_PRIM_DEF && !p->def) {
			wl_cursor cur = cursor_of(doc, k);
			p->def = k;
			p->def_ok = cur.len >= (p->is_ring ? W3D_RING_DEF_SIZE : W3D_SPHERE_DEF_SIZE);
			p->version = wl_cursor_u32(&cur);
			p->flags = wl_cursor_u32(&cur);
			p->name = name_field(doc, &cur, 32, &p->name_terminated);
			read_vec3(&cur, p->center);
			read_vec3(&cur, p->extent);
			p->anim_duration = wl_cursor_f32(&cur);
			/* DefaultColor (12), DefaultAlpha (4), then 32 bytes of
			 * DefaultScale+DefaultVector (sphere) or Inner/OuterScale +
			 * Inner/OuterExtent (ring): TextureName at 116 in both. */
			wl_cursor_skip(&cur, 116 - 68);
			p->texture_name = name_field(doc, &cur, 32, &p->texture_name_terminated);
			w3d_set_label(doc, c, p->name);
		}
	}
	return doc->oom ? NULL : p;
}

/* ------------------------------------------------------------------ */

w3d_null_object *w3d_decode_null_object(wl_doc *doc, wl_chunk *c)
{
	w3d_null_object *n = w3d_alloc_decoded(doc, &(w3d_null_object){ .src = c, .name = "" }, sizeof *n);
	if (!n)
		return NULL;
	wl_cursor cur = cursor_of(doc, c);
	n->ok = cur.len >= W3D_NULL_OBJECT_SIZE;
	n->version = wl_cursor_u32(&cur);
	n->attributes = wl_cursor_u32(&cur);
	wl_cursor_skip(&cur, 8); /* pad[2] */
	n->name = name_field(doc, &cur, 32, &n->name_terminated);
	w3d_set_label(doc, c, n->name);
	return doc->oom ? NULL : n;
}

w3d_dazzle *w3d_decode_dazzle(wl_doc *doc, wl_chunk *c)
{
	w3d_dazzle *d = w3d_alloc_decoded(doc, &(w3d_dazzle){ .src = c, .name = "", .type_name = "" }, sizeof *d);
	if (!d)
		return NULL;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_chunk(k))
			continue;
		if (k->id == W3D_OBJ_CHUNK_DAZZLE_NAME && !d->name_src) {
			d->name_src = k;
			d->name = w3d_decode_string_chunk(doc, k, &d->name_terminated);
			w3d_set_label(doc, c, d->name);
		} else if (k->id == W3D_OBJ_CHUNK_DAZZLE_TYPENAME && !d->type_src) {
			d->type_src = k;
			d->type_name = w3d_decode_string_chunk(doc, k, &d->type_name_terminated);
		}
	}
	return doc->oom ? NULL : d;
}

w3d_soundrobj *w3d_decode_soundrobj(wl_doc *doc, wl_chunk *c)
{
	w3d_soundrobj *s = w3d_alloc_decoded(doc, &(w3d_soundrobj){ .src = c, .name = "" }, sizeof *s);
	if (!s)
		return NULL;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_chunk(k))
			continue;
		if (k->id == W3D_OBJ_CHUNK_SOUNDROBJ_HEADER && !s->header) {
			wl_cursor cur = cursor_of(doc, k);
			s->header = k;
			s->header_ok = cur.len >= W3D_SOUNDROBJ_HEADER_SIZE;
			s->version = wl_cursor_u32(&cur);
			s->name = name_field(doc, &cur, 16, &s->name_terminated);
			s->flags = wl_cursor_u32(&cur);
			w3d_set_label(doc, c, s->name);
		} else if (k->id == W3D_OBJ_CHUNK_SOUNDROBJ_DEFINITION && !s->definition) {
			s->definition = k;
		}
	}
	return doc->oom ? NULL : s;
}

/* ------------------------------------------------------------------ */

static void read_bounds(wl_cursor *cur, float mn[3], float mx[3], float ctr[3], float *r)
{
	read_vec3(cur, mn);
	read_vec3(cur, mx);
	read_vec3(cur, ctr);
	*r = wl_cursor_f32(cur);
}

static void decode_submesh(wl_doc *doc, const wl_chunk *c, w3d_shdsubmesh *s)
{
	s->src = c;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_chunk(k))
			continue;
		if (k->id == W3D_OBJ_CHUNK_SHDSUBMESH_HEADER && !s->header) {
			wl_cursor cur = cursor_of(doc, k);
			s->header = k;
			s->header_ok = cur.len >= W3D_SHDSUBMESH_HEADER_SIZE;
			s->num_triangles = wl_cursor_u32(&cur);
			s->num_vertices = wl_cursor_u32(&cur);
			wl_cursor_skip(&cur, 8); /* FutureCounts[2] */
			read_bounds(&cur, s->box_min, s->box_max, s->sph_center, &s->sph_radius);
		} else if (k->id == W3D_OBJ_CHUNK_SHDSUBMESH_SHADER && !s->has_shader_class) {
			const wl_chunk *id = wl_chunk_find(k, W3D_OBJ_CHUNK_SHDSUBMESH_SHADER_CLASSID);
			if (id) {
				wl_cursor cur = cursor_of(doc, id);
				s->shader_class = wl_cursor_u32(&cur);
				s->has_shader_class = !cur.short_read;
			}
		} else if (k->id == W3D_OBJ_CHUNK_SHDSUBMESH_VERTICES) {
			s->vertex_count = (size_t)(k->size / 12);
		} else if (k->id == W3D_OBJ_CHUNK_SHDSUBMESH_VERTEX_NORMALS) {
			s->normal_count = (size_t)(k->size / 12);
		}
	}
}

w3d_shdmesh *w3d_decode_shdmesh(wl_doc *doc, wl_chunk *c)
{
	w3d_shdmesh *m = w3d_alloc_decoded(doc, &(w3d_shdmesh){ .src = c, .name = "" }, sizeof *m);
	if (!m)
		return NULL;
	size_t n = count_id(c, W3D_OBJ_CHUNK_SHDSUBMESH);
	m->sub_meshes = array_of(doc, n, sizeof *m->sub_meshes);
	if (!m->sub_meshes)
		return NULL;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_chunk(k))
			continue;
		if (k->id == W3D_OBJ_CHUNK_SHDMESH_NAME && !m->name_src) {
			m->name_src = k;
			m->name = w3d_decode_string_chunk(doc, k, &m->name_terminated);
			w3d_set_label(doc, c, m->name);
		} else if (k->id == W3D_OBJ_CHUNK_SHDMESH_HEADER && !m->header) {
			wl_cursor cur = cursor_of(doc, k);
			m->header = k;
			m->header_ok = cur.len >= W3D_SHDMESH_HEADER_SIZE;
			m->version = wl_cursor_u32(&cur);
			m->flags = wl_cursor_u32(&cur);
			m->num_triangles = wl_cursor_u32(&cur);
			m->num_vertices = wl_cursor_u32(&cur);
			m->num_sub_meshes = wl_cursor_u32(&cur);
			wl_cursor_skip(&cur, 20); /* FutureCounts[5] */
			read_bounds(&cur, m->box_min, m->box_max, m->sph_center, &m->sph_radius);
		} else if (k->id == W3D_OBJ_CHUNK_SHDMESH_USER_TEXT && !m->user_text_src) {
			m->user_text_src = k;
		} else if (k->id == W3D_OBJ_CHUNK_SHDSUBMESH && m->sub_mesh_count < n) {
			decode_submesh(doc, k, &m->sub_meshes[m->sub_mesh_count++]);
		}
	}
	return doc->oom ? NULL : m;
}
