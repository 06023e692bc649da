/*
 * model.c - the decoded P3D model of w3ddump (wl_tf_format.model, registry.h):
 * header, version, every LOD with its resolution and Arma name, counts,
 * bounds, names, selections, properties, and ODOL's ModelInfo fields, as one
 * JSON object built from what the readers decoded (core/p3d/p3d.h p3d_model,
 * p3d_lodview.h).  Nothing is re-read here but the bytes those readers
 * located (floats at recorded offsets, MLOD tag names and data); what a
 * reader does not decode is said ("not decoded"), never guessed.  Names go
 * through core/escape.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/cursor.h"
#include "core/escape.h"
#include "core/p3d/p3d.h"
#include "core/p3d/p3d_lodview.h"
#include "lint/p3d/checks.h"
#include "textform/p3d/mlod.h"
#include "textform/registry.h"
#include "textform/p3d/p3d_geometry.h"

/* The escaped form of s[0..n) as a JSON string (null when out of memory). */
static json_t *jstr(const uint8_t *s, size_t n)
{
	size_t len = wl_escape(NULL, 0, s, n);
	char *buf = malloc(len + 1);
	if (!buf)
		return json_null();
	wl_escape(buf, len + 1, s, n);
	json_t *j = json_string(buf);
	free(buf);
	return j ? j : json_null();
}

/* The asciiz at off in d (bounded by the file), escaped. */
static json_t *jz(const wl_doc *d, uint64_t off)
{
	if (off >= d->size)
		return json_null();
	const uint8_t *p = d->bytes + off;
	const uint8_t *z = memchr(p, 0, (size_t)(d->size - off));
	return jstr(p, z ? (size_t)(z - p) : (size_t)(d->size - off));
}

/* A float as JSON: a real, or "f32bits:0x..." when not finite. */
static json_t *jf(float f)
{
	if (isfinite(f))
		return json_real((double)f);
	uint32_t b;
	memcpy(&b, &f, 4);
	char s[32];
	snprintf(s, sizeof s, "f32bits:0x%08X", (unsigned)b);
	return json_string(s);
}

/* k floats at off in d (within the file), or null. */
static json_t *jfloats(const wl_doc *d, uint64_t off, uint32_t k)
{
	if (!off || off + 4ull * k > d->size)
		return json_null();
	if (k == 1)
		return jf(wl_lef32(d->bytes + off));
	json_t *a = json_array();
	for (uint32_t i = 0; i < k; i++)
		json_array_append_new(a, jf(wl_lef32(d->bytes + off + 4ull * i)));
	return a;
}

static json_t *jvec(const float *v)
{
	json_t *a = json_array();
	for (int i = 0; i < 3; i++)
		json_array_append_new(a, jf(v[i]));
	return a;
}

static json_t *not_decoded(uint32_t v, bool mlod)
{
	char s[48];
	if (mlod)
		snprintf(s, sizeof s, "not decoded for MLOD");
	else
		snprintf(s, sizeof s, "not decoded for v%u", (unsigned)v);
	return json_string(s);
}

static void set(json_t *o, const char *k, json_t *v)
{
	json_object_set_new(o, k, v ? v : json_null());
}

static json_t *jcount(uint32_t n)
{
	return json_integer((json_int_t)n);
}

/* ODOL LOD l's decoded view. */
static void odol_lod(const wl_doc *d, const p3d_lod *l, json_t *o)
{
	const p3d_lodview *v = l->view;
	set(o, "permanent", json_integer(l->permanent));
	if (!v) {
		set(o, "counts", json_string("not decoded: the LOD was not walked"));
		return;
	}
	set(o, "points", v->vertices == UINT32_MAX ? json_null() : jcount(v->vertices));
	set(o, "normals", v->normals.read ? jcount(v->normals.n) : json_null());
	set(o, "faces", v->faces_read ? jcount(v->n_faces) : json_null());
	set(o, "sections", jcount(v->n_sections));
	if (v->bounds_off) {
		json_t *b = json_object();
		set(b, "min", jfloats(d, v->bounds_off, 3));
		set(b, "max", jfloats(d, v->bounds_off + 12, 3));
		set(b, "centre", jfloats(d, v->bounds_off + 24, 3));
		set(b, "radius", jfloats(d, v->bounds_off + 36, 1));
		set(o, "bounds", b);
	} else {
		set(o, "bounds", json_null());
	}
	/* The reader keeps names of 4 bytes or more (p3d_lod.c keep_name):
	 * the texture list, then the textures of material stages. */
	json_t *tex = json_array(), *mat = json_array();
	for (const p3d_nameref *n = v->names; n; n = n->next)
		if (n->at + n->len <= d->size)
			json_array_append_new(n->kind == P3D_NAME_TEXTURE ? tex : mat,
					      jstr(d->bytes + n->at, n->len));
	set(o, "texture_count", jcount(v->n_textures));
	set(o, "material_count", jcount(v->n_materials));
	set(o, "textures", tex);
	set(o, "materials", mat);
	json_t *sels = json_array();
	for (const p3d_selview *s = v->sels; s; s = s->next) {
		json_t *e = json_object();
		set(e, "name", s->name ? jz(d, s->name_at) : json_null());
		set(e, "points", s->vertices.read ? jcount(s->vertices.n) : json_null());
		set(e, "faces", s->faces.read ? jcount(s->faces.n) : json_null());
		json_array_append_new(sels, e);
	}
	set(o, "selections", sels);
	json_t *props = json_array();
	uint64_t at = v->props_at;
	for (uint32_t i = 0; v->props_read && i < v->n_props && at < d->size; i++) {
		json_t *e = json_object();
		set(e, "name", jz(d, at));
		const uint8_t *z = memchr(d->bytes + at, 0, (size_t)(d->size - at));
		at = z ? (uint64_t)(z - d->bytes) + 1 : d->size;
		set(e, "value", jz(d, at));
		z = at < d->size ? memchr(d->bytes + at, 0, (size_t)(d->size - at)) : NULL;
		at = z ? (uint64_t)(z - d->bytes) + 1 : d->size;
		json_array_append_new(props, e);
	}
	set(o, "properties", v->props_read ? props : (json_decref(props), json_string("not decoded: the walk stopped before them")));
	json_t *px = json_array();
	for (uint32_t i = 0; v->proxies && i < v->n_proxies; i++) {
		json_t *e = json_object();
		set(e, "selection", json_integer(v->proxies[i].sel));
		set(e, "bone", json_integer(v->proxies[i].bone));
		set(e, "section", json_integer(v->proxies[i].section));
		set(e, "path", jz(d, v->proxies[i].name_at));
		/* The 12 floats of its transform, then i32 seq, end at off. */
		const uint64_t off = v->proxies[i].off;
		set(e, "position", off >= 52 && off <= d->size ? jfloats(d, off - 16, 3) : json_null());
		json_array_append_new(px, e);
	}
	set(o, "proxies", px);
}

/* The data of MLOD tag t (its size and first byte; false when outside). */
static bool tag_data(const wl_doc *d, const p3d_mtag *t, uint64_t *at, uint32_t *size)
{
	if ((uint64_t)t->size_at + 4 > d->size)
		return false;
	*size = wl_le32(d->bytes + t->size_at);
	*at = (uint64_t)t->size_at + 4;
	return *at + *size <= d->size;
}

/* MLOD LOD l: its header counts and TAGG list. */
static void mlod_lod(const wl_doc *d, const p3d_lod *l, json_t *o)
{
	set(o, "points", jcount(l->n_points));
	set(o, "normals", jcount(l->n_normals));
	set(o, "faces", jcount(l->n_faces));
	set(o, "sections", not_decoded(0, true));
	set(o, "bounds", not_decoded(0, true));
	set(o, "textures", not_decoded(0, true));
	set(o, "materials", not_decoded(0, true));
	json_t *sels = json_array(), *props = json_array(), *tags = json_array();
	for (uint32_t i = 0; l->tags && i < l->n_tags; i++) {
		const p3d_mtag *t = &l->tags[i];
		uint64_t name = l->sp3x ? t->at : (uint64_t)t->at + 1;
		json_t *nm = jz(d, name);
		json_array_append(tags, nm);
		uint64_t at;
		uint32_t size;
		const char *s = json_string_value(nm);
		if (!s || !tag_data(d, t, &at, &size)) {
			json_decref(nm);
			continue;
		}
		if (!strcmp(s, "#Property#") && size == 128) {
			json_t *e = json_object();
			set(e, "name", jz(d, at));
			set(e, "value", jz(d, at + 64));
			json_array_append_new(props, e);
		} else if (s[0] != '#' && size == (uint64_t)l->n_points + l->n_faces) {
			uint32_t np = 0, nf = 0;
			for (uint32_t k = 0; k < l->n_points; k++)
				np += d->bytes[at + k] != 0;
			for (uint32_t k = 0; k < l->n_faces; k++)
				nf += d->bytes[at + l->n_points + k] != 0;
			json_t *e = json_object();
			set(e, "name", json_incref(nm));
			set(e, "points", jcount(np));
			set(e, "faces", jcount(nf));
			json_array_append_new(sels, e);
		}
		json_decref(nm);
	}
	set(o, "selections", sels);
	set(o, "properties", props);
	set(o, "tags", tags);
	set(o, "proxies", not_decoded(0, true));
}

/* ODOL ModelInfo as the walk recorded it. */
static json_t *model_info(const wl_doc *d, const p3d_model *m)
{
	if (m->mlod)
		return not_decoded(0, true);
	if (!m->info_walked)
		return json_string("not decoded: the ModelInfo walk did not reach the LOD table");
	json_t *o = json_object();
	json_t *bb = json_object();
	set(bb, "min", jvec(m->bbox_min));
	set(bb, "max", jvec(m->bbox_max));
	set(o, "bounding_box", bb);
	set(o, "bounding_centre", jvec(m->bounding_centre));
	for (uint32_t i = 0; m->info_floats && i < m->n_info_floats; i++) {
		const p3d_infofloat *f = &m->info_floats[i];
		set(o, f->what, jfloats(d, f->at, f->k));
	}
	json_t *sk = json_object();
	set(sk, "bones", jcount(m->n_skeleton_bones));
	json_t *bones = json_array();
	for (uint32_t i = 0; m->bone_names && i < m->n_skeleton_bones; i++) {
		json_t *b = json_object();
		const char *n = m->bone_names[i], *p = m->bone_parents ? m->bone_parents[i] : NULL;
		set(b, "name", n ? jstr((const uint8_t *)n, strlen(n)) : json_null());
		set(b, "parent", p ? jstr((const uint8_t *)p, strlen(p)) : json_null());
		json_array_append_new(bones, b);
	}
	set(sk, "names", bones);
	set(o, "skeleton", m->skeleton_read ? sk : (json_decref(sk), json_null()));
	return o;
}

static json_t *wl_p3d_model_json(const wl_doc *d, bool offsets)
{
	const p3d_model *m = d->model;
	if (!m)
		return json_null();
	json_t *o = json_object();
	set(o, "kind", json_string(m->mlod ? "MLOD" : "ODOL"));
	set(o, "version", jcount(m->version));
	set(o, "header_version", jcount(m->header_version));
	set(o, "lod_count", jcount(m->n_lods));
	set(o, "model_info", model_info(d, m));
	json_t *lods = json_array();
	for (uint32_t i = 0; m->lods && i < m->n_lods; i++) {
		const p3d_lod *l = &m->lods[i];
		json_t *e = json_object();
		char buf[64];
		set(e, "index", jcount(i));
		set(e, "resolution", jf(l->resolution));
		set(e, "name", json_string(wl_p3d_lod_name(l->resolution, buf, sizeof buf)));
		if (offsets) {
			set(e, "start", json_integer(l->start));
			set(e, "end", json_integer(l->end));
		}
		set(e, "walked", json_boolean(l->walked));
		if (m->mlod)
			mlod_lod(d, l, e);
		else
			odol_lod(d, l, e);
		json_array_append_new(lods, e);
	}
	set(o, "lods", lods);
	return o;
}

/* P3D's entry in the text form's registry (registry.c): no struct tables
 * and no text form of its own yet (w3ddump --text gives the chunk tree in
 * hex, w3dasm refuses P3D); the decoded model only. */
const wl_tf_format wl_p3d_text = {
	.format = "p3d",
	.model = wl_p3d_model_json,
	.geometry = wl_p3d_geometry_json,
	.doc_key = "mlod",
	.write_doc = p3d_mlod_write_text,
	.assemble_doc = p3d_mlod_assemble,
};
