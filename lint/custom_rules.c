/*
 * custom_rules.c - evaluates the declarative rules of the configuration
 * over the decoded W3D model (see custom_rules.h for the fields, their
 * bytes and the messages).
 *
 * Name values are read again from the document's bytes at the field's
 * offset (the decoded names replace non-printable bytes with '?'; patterns
 * see the raw bytes).  Every read is bounded by the chunk's payload and by
 * the file size, so a short or truncated header yields no occurrence.
 */
#include "custom_rules.h"

#include <stdio.h>
#include <string.h>

#include "../core/w3d/model.h"
#include "config.h"
#include "lint.h"

enum field_code {
	F_MESH_NAME,
	F_CONTAINER_NAME,
	F_MESH_NUM_TRIANGLES,
	F_MESH_NUM_VERTICES,
	F_TEXTURE_NAME,
	F_TEXTURE_COUNT,
	F_VERTEX_MATERIAL_NAME,
	F_VERTEX_MATERIAL_COUNT,
	F_HIERARCHY_NAME,
	F_PIVOT_COUNT,
	F_PIVOT_NAME,
	F_ANIMATION_NAME,
	F_ANIMATION_HIERARCHY_NAME,
	F_ANIMATION_NUM_FRAMES,
	F_ANIMATION_FRAME_RATE,
	F_HLOD_NAME,
	F_HLOD_HIERARCHY_NAME,
	F_HLOD_LOD_COUNT,
	F_SUB_OBJECT_NAME,
	F_BOX_NAME
};

static const wl_field_def fields[] = {
	{ "mesh-name", WL_FIELD_NAME, F_MESH_NAME },
	{ "container-name", WL_FIELD_NAME, F_CONTAINER_NAME },
	{ "mesh-num-triangles", WL_FIELD_NUMBER, F_MESH_NUM_TRIANGLES },
	{ "mesh-num-vertices", WL_FIELD_NUMBER, F_MESH_NUM_VERTICES },
	{ "texture-name", WL_FIELD_NAME, F_TEXTURE_NAME },
	{ "texture-count", WL_FIELD_NUMBER, F_TEXTURE_COUNT },
	{ "vertex-material-name", WL_FIELD_NAME, F_VERTEX_MATERIAL_NAME },
	{ "vertex-material-count", WL_FIELD_NUMBER, F_VERTEX_MATERIAL_COUNT },
	{ "hierarchy-name", WL_FIELD_NAME, F_HIERARCHY_NAME },
	{ "pivot-count", WL_FIELD_NUMBER, F_PIVOT_COUNT },
	{ "pivot-name", WL_FIELD_NAME, F_PIVOT_NAME },
	{ "animation-name", WL_FIELD_NAME, F_ANIMATION_NAME },
	{ "animation-hierarchy-name", WL_FIELD_NAME, F_ANIMATION_HIERARCHY_NAME },
	{ "animation-num-frames", WL_FIELD_NUMBER, F_ANIMATION_NUM_FRAMES },
	{ "animation-frame-rate", WL_FIELD_NUMBER, F_ANIMATION_FRAME_RATE },
	{ "hlod-name", WL_FIELD_NAME, F_HLOD_NAME },
	{ "hlod-hierarchy-name", WL_FIELD_NAME, F_HLOD_HIERARCHY_NAME },
	{ "hlod-lod-count", WL_FIELD_NUMBER, F_HLOD_LOD_COUNT },
	{ "sub-object-name", WL_FIELD_NAME, F_SUB_OBJECT_NAME },
	{ "box-name", WL_FIELD_NAME, F_BOX_NAME },
};
#define FIELD_COUNT (sizeof fields / sizeof *fields)

const wl_field_def *wl_custom_field_find(const char *name)
{
	for (size_t i = 0; name && i < FIELD_COUNT; i++)
		if (strcmp(fields[i].name, name) == 0)
			return &fields[i];
	return NULL;
}

size_t wl_custom_field_count(void)
{
	return FIELD_COUNT;
}

const wl_field_def *wl_custom_field_at(size_t i)
{
	return i < FIELD_COUNT ? &fields[i] : NULL;
}

/* ------------------------------------------------------------ messages */

static const char *const placeholders[] = { "rule", "field", "value", "object" };
#define PLACEHOLDER_COUNT (sizeof placeholders / sizeof *placeholders)

/* Index of the placeholder at p ("{name}"), its length in *n; -1 if none. */
static int placeholder_at(const char *p, size_t *n)
{
	for (size_t i = 0; i < PLACEHOLDER_COUNT; i++) {
		size_t k = strlen(placeholders[i]);
		if (p[0] == '{' && strncmp(p + 1, placeholders[i], k) == 0 && p[1 + k] == '}') {
			*n = k + 2;
			return (int)i;
		}
	}
	return -1;
}

int wl_custom_message_check(const char *tmpl, char *bad, size_t cap)
{
	for (const char *p = tmpl; *p; p++) {
		if (*p != '{')
			continue;
		size_t n;
		if (p[1] == '{') {
			p++;
		} else if (placeholder_at(p, &n) >= 0) {
			p += n - 1;
		} else {
			if (bad && cap)
				snprintf(bad, cap, "%.*s", 32, p);
			return -1;
		}
	}
	return 0;
}

/* A bounded text buffer (truncates silently). */
typedef struct text {
	char *buf;
	size_t cap, len;
} text;

static void put(text *t, const char *s, size_t n)
{
	if (t->len + 1 >= t->cap)
		return;
	size_t room = t->cap - 1 - t->len;
	if (n > room)
		n = room;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = 0;
}

static void puts_(text *t, const char *s)
{
	put(t, s, strlen(s));
}

/* The longest part of a name value shown in a message, in bytes. */
#define SHOWN_MAX 200

/* Appends name bytes p[0..n) with non-printable bytes as '?'. */
static void put_name(text *t, const uint8_t *p, size_t n)
{
	size_t shown = n > SHOWN_MAX ? SHOWN_MAX : n;
	for (size_t i = 0; i < shown; i++) {
		char c = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
		put(t, &c, 1);
	}
	if (shown < n)
		puts_(t, "...");
}

static void put_number(text *t, double v)
{
	char b[64];
	snprintf(b, sizeof b, "%.15g", v);
	puts_(t, b);
}

/* ---------------------------------------------------------- evaluation */

/* One occurrence of a field. */
typedef struct occ {
	const wl_chunk *chunk;   /* chunk holding the bytes */
	int64_t element;         /* array element, or -1 */
	uint64_t offset, length; /* the field's bytes in the file */
	const uint8_t *bytes;    /* name fields: raw value up to the first NUL */
	size_t len;
	double number;           /* number fields */
	const char *object;      /* owning object's name */
} occ;

typedef struct eval {
	wl_lint_ctx *ctx;
	const wl_custom_rule *rule;
	const char *rid;         /* rule id, owned by the configuration */
} eval;

/* Appends the value of o (quoted name or number). */
static void put_value(text *t, const eval *e, const occ *o, bool quote)
{
	if (e->rule->field->kind == WL_FIELD_NUMBER) {
		put_number(t, o->number);
		return;
	}
	if (quote)
		puts_(t, "'");
	put_name(t, o->bytes, o->len);
	if (quote)
		puts_(t, "'");
}

/* Reports o.  why is the default message's tail (after the value). */
static void report(const eval *e, const occ *o, const char *why)
{
	char buf[1024];
	text t = { buf, sizeof buf, 0 };
	buf[0] = 0;
	const char *tmpl = e->rule->message;
	if (!tmpl) {
		puts_(&t, e->rule->field->name);
		puts_(&t, " ");
		put_value(&t, e, o, true);
		puts_(&t, " ");
		puts_(&t, why);
	} else {
		for (const char *p = tmpl; *p; p++) {
			size_t n;
			int ph = *p == '{' ? placeholder_at(p, &n) : -1;
			if (*p == '{' && p[1] == '{') {
				put(&t, "{", 1);
				p++;
			} else if (ph == 0) {
				puts_(&t, e->rule->id);
				p += n - 1;
			} else if (ph == 1) {
				puts_(&t, e->rule->field->name);
				p += n - 1;
			} else if (ph == 2) {
				put_value(&t, e, o, false);
				p += n - 1;
			} else if (ph == 3) {
				put_name(&t, (const uint8_t *)(o->object ? o->object : ""),
					 o->object ? strlen(o->object) : 0);
				p += n - 1;
			} else {
				put(&t, p, 1);
			}
		}
	}
	wl_report(&e->ctx->doc->findings, e->rid, o->chunk, o->element, o->offset, o->length, "%s", buf);
}

/* Appends "'<pattern>'" (shown like a name) to t. */
static void put_pattern(text *t, const wl_pattern *p)
{
	const char *s = wl_pattern_source(p);
	puts_(t, "'");
	put_name(t, (const uint8_t *)s, strlen(s));
	puts_(t, "'");
}

/* Tests o against the rule's condition and reports a violation. */
static void check(const eval *e, const occ *o)
{
	const wl_custom_rule *r = e->rule;
	char why[512];
	text t = { why, sizeof why, 0 };
	why[0] = 0;
	if (r->field->kind == WL_FIELD_NUMBER) {
		if (r->has_min && o->number < r->min) {
			puts_(&t, "is below the minimum ");
			put_number(&t, r->min);
		} else if (r->has_max && o->number > r->max) {
			puts_(&t, "is above the maximum ");
			put_number(&t, r->max);
		} else {
			return;
		}
		report(e, o, why);
		return;
	}
	const wl_pattern *pats[2] = { r->match, r->not_match };
	for (int i = 0; i < 2; i++) {
		if (!pats[i])
			continue;
		int rc = wl_pattern_match(pats[i], o->bytes, o->len);
		if (rc < 0) {
			char msg[256];
			wl_pattern_error(rc, msg, sizeof msg);
			puts_(&t, "could not be tested: pattern ");
			put_pattern(&t, pats[i]);
			puts_(&t, ": ");
			puts_(&t, msg);
		} else if (i == 0 && rc == 0) {
			puts_(&t, "does not match ");
			put_pattern(&t, pats[i]);
		} else if (i == 1 && rc == 1) {
			puts_(&t, "matches ");
			put_pattern(&t, pats[i]);
			puts_(&t, ", which is not allowed");
		} else {
			continue;
		}
		report(e, o, why);
		return; /* one finding per occurrence */
	}
}

/* The name field of field_len bytes at field_off in c's payload, when all
 * of it is inside the payload and the file. */
static bool name_field(const wl_doc *doc, const wl_chunk *c, uint64_t field_off,
		       uint64_t field_len, occ *o)
{
	if (!c || c->size < field_off || c->size - field_off < field_len)
		return false;
	uint64_t off = wl_chunk_payload_offset(c) + field_off;
	if (off > doc->size || doc->size - off < field_len)
		return false;
	const uint8_t *p = doc->bytes + off;
	const uint8_t *z = memchr(p, 0, (size_t)field_len);
	o->chunk = c;
	o->element = -1;
	o->offset = off;
	o->length = field_len;
	o->bytes = p;
	o->len = z ? (size_t)(z - p) : (size_t)field_len;
	return true;
}

/* The whole payload of a string chunk (TEXTURE_NAME, VERTEX_MATERIAL_NAME),
 * clamped to the file. */
static bool string_chunk(const wl_doc *doc, const wl_chunk *c, occ *o)
{
	if (!c)
		return false;
	uint64_t off = wl_chunk_payload_offset(c);
	if (off > doc->size)
		return false;
	uint64_t n = c->size < doc->size - off ? c->size : doc->size - off;
	return name_field(doc, c, 0, n, o);
}

/* A number field of field_len bytes at field_off in c's payload. */
static bool number_field(const wl_doc *doc, const wl_chunk *c, uint64_t field_off,
			 uint64_t field_len, double value, occ *o)
{
	if (!name_field(doc, c, field_off, field_len, o))
		return false;
	o->bytes = NULL;
	o->len = 0;
	o->number = value;
	return true;
}

/* The material scopes of a mesh that exist: the mesh, then PRELIT_*. */
static size_t mesh_sets(const w3d_mesh *m, const w3d_material_set **out)
{
	size_t n = 0;
	out[n++] = &m->materials;
	for (size_t i = 0; i < W3D_PRELIT_KINDS; i++)
		if (m->prelit[i].src)
			out[n++] = &m->prelit[i];
	return n;
}

/* texture-count / vertex-material-count of a mesh: the count over every
 * scope, at the first container chunk (TEXTURES / VERTEX_MATERIALS) or at
 * the MESH chunk's header when there is none. */
static void mesh_count(const eval *e, const w3d_mesh *m, bool textures)
{
	const w3d_material_set *sets[1 + W3D_PRELIT_KINDS];
	size_t ns = mesh_sets(m, sets);
	const wl_chunk *at = NULL;
	double count = 0;
	for (size_t i = 0; i < ns; i++) {
		const wl_chunk *c = textures ? sets[i]->textures_src : sets[i]->vertex_materials_src;
		count += (double)(textures ? sets[i]->texture_count : sets[i]->vertex_material_count);
		if (c && !at)
			at = c;
	}
	occ o = { 0 };
	o.object = m->name;
	o.element = -1;
	o.number = count;
	const wl_doc *doc = e->ctx->doc;
	if (at) {
		o.chunk = at;
		o.offset = at->offset;
		o.length = at->header_size + at->size;
	} else {
		o.chunk = m->src;
		o.offset = m->src->offset;
		o.length = m->src->header_size;
	}
	if (o.offset > doc->size)
		return;
	if (doc->size - o.offset < o.length)
		o.length = doc->size - o.offset;
	check(e, &o);
}

/* A name or number field of an object's header chunk that a rule can test. */
typedef struct header_field {
	int code;          /* F_* */
	uint64_t off, len; /* the field's bytes in the header payload */
	bool number;       /* a number field (value), else a name field */
	double value;      /* number hf: the decoded value */
} header_field;

/* Tests the rule on the field of hf[0..n) that it names, read from
 * header chunk c and reported as belonging to `object`.  Nothing happens
 * when the rule's field is not among them or its bytes are not in the file. */
static void eval_header(const eval *e, const wl_chunk *c, const header_field *hf, size_t n,
			const char *object)
{
	const wl_doc *doc = e->ctx->doc;
	occ o = { 0 };
	for (size_t i = 0; i < n; i++) {
		const header_field *f = &hf[i];
		if (f->code != e->rule->field->code)
			continue;
		if (f->number ? number_field(doc, c, f->off, f->len, f->value, &o)
			      : name_field(doc, c, f->off, f->len, &o)) {
			o.object = object;
			check(e, &o);
		}
		return;
	}
}

static void eval_mesh(const eval *e, const w3d_mesh *m)
{
	const wl_doc *doc = e->ctx->doc;
	const w3d_mesh_header *h = &m->header;
	occ o = { 0 };
	switch (e->rule->field->code) {
	case F_TEXTURE_COUNT:
	case F_VERTEX_MATERIAL_COUNT:
		mesh_count(e, m, e->rule->field->code == F_TEXTURE_COUNT);
		return;
	case F_TEXTURE_NAME:
	case F_VERTEX_MATERIAL_NAME: {
		const w3d_material_set *sets[1 + W3D_PRELIT_KINDS];
		size_t ns = mesh_sets(m, sets);
		bool tex = e->rule->field->code == F_TEXTURE_NAME;
		for (size_t s = 0; s < ns; s++) {
			size_t n = tex ? sets[s]->texture_count : sets[s]->vertex_material_count;
			for (size_t i = 0; i < n; i++) {
				const wl_chunk *c = tex ? sets[s]->textures[i].name_src
							: sets[s]->vertex_materials[i].name_src;
				if (string_chunk(doc, c, &o)) {
					o.object = m->name;
					check(e, &o);
				}
			}
		}
		return;
	}
	default:
		break;
	}
	const header_field hf[] = {
		{ F_MESH_NAME, 8, 16, false, 0 },
		{ F_CONTAINER_NAME, 24, 16, false, 0 },
		{ F_MESH_NUM_TRIANGLES, 40, 4, true, h->num_tris },
		{ F_MESH_NUM_VERTICES, 44, 4, true, h->num_vertices },
	};
	eval_header(e, h->src, hf, sizeof hf / sizeof hf[0], m->name);
}

static void eval_hierarchy(const eval *e, const w3d_hierarchy *h)
{
	const wl_doc *doc = e->ctx->doc;
	occ o = { 0 };
	switch (e->rule->field->code) {
	case F_PIVOT_NAME:
		for (size_t i = 0; i < h->pivot_count; i++) {
			if (!name_field(doc, h->pivots_chunk, (uint64_t)i * W3D_PIVOT_SIZE, 16, &o))
				break;
			o.element = (int64_t)i;
			o.object = h->name;
			check(e, &o);
		}
		return;
	default:
		break;
	}
	const header_field hf[] = {
		{ F_HIERARCHY_NAME, 4, 16, false, 0 },
		{ F_PIVOT_COUNT, 20, 4, true, h->num_pivots },
	};
	if (h->header_ok)
		eval_header(e, h->header, hf, sizeof hf / sizeof hf[0], h->name);
}

/* Raw and compressed animations share the header layout up to @40. */
static void eval_animation(const eval *e, const wl_chunk *header, bool header_ok, const char *name,
			   uint32_t num_frames, uint32_t frame_rate, uint64_t rate_bytes)
{
	const header_field hf[] = {
		{ F_ANIMATION_NAME, 4, 16, false, 0 },
		{ F_ANIMATION_HIERARCHY_NAME, 20, 16, false, 0 },
		{ F_ANIMATION_NUM_FRAMES, 36, 4, true, num_frames },
		{ F_ANIMATION_FRAME_RATE, 40, rate_bytes, true, frame_rate },
	};
	if (header_ok)
		eval_header(e, header, hf, sizeof hf / sizeof hf[0], name);
}

static void eval_hlod(const eval *e, const w3d_hlod *h)
{
	const wl_doc *doc = e->ctx->doc;
	occ o = { 0 };
	switch (e->rule->field->code) {
	case F_SUB_OBJECT_NAME: {
		const w3d_hlod_array *groups[3] = { h->lods, h->aggregates, h->proxies };
		size_t counts[3] = { h->lod_array_count, h->aggregate_count, h->proxy_count };
		for (size_t g = 0; g < 3; g++)
			for (size_t a = 0; a < counts[g]; a++)
				for (size_t i = 0; i < groups[g][a].sub_count; i++) {
					const w3d_hlod_sub_object *s = &groups[g][a].subs[i];
					if (s->ok && name_field(doc, s->src, 4, 32, &o)) {
						o.object = h->name;
						check(e, &o);
					}
				}
		return;
	}
	default:
		break;
	}
	const header_field hf[] = {
		{ F_HLOD_NAME, 8, 16, false, 0 },
		{ F_HLOD_HIERARCHY_NAME, 24, 16, false, 0 },
		{ F_HLOD_LOD_COUNT, 4, 4, true, h->lod_count },
	};
	if (h->header_ok)
		eval_header(e, h->header, hf, sizeof hf / sizeof hf[0], h->name);
}

static void eval_rule(const eval *e)
{
	const w3d_model *m = e->ctx->model;
	for (size_t i = 0; i < m->mesh_count; i++)
		if (m->meshes[i])
			eval_mesh(e, m->meshes[i]);
	for (size_t i = 0; i < m->hierarchy_count; i++)
		if (m->hierarchies[i])
			eval_hierarchy(e, m->hierarchies[i]);
	for (size_t i = 0; i < m->animation_count; i++) {
		const w3d_animation *a = m->animations[i];
		if (a)
			eval_animation(e, a->header, a->header_ok, a->name, a->num_frames, a->frame_rate, 4);
	}
	for (size_t i = 0; i < m->compressed_animation_count; i++) {
		const w3d_compressed_animation *a = m->compressed_animations[i];
		if (a)
			eval_animation(e, a->header, a->header_ok, a->name, a->num_frames, a->frame_rate, 2);
	}
	for (size_t i = 0; i < m->hlod_count; i++)
		if (m->hlods[i])
			eval_hlod(e, m->hlods[i]);
	if (e->rule->field->code == F_BOX_NAME) {
		for (size_t i = 0; i < m->box_count; i++) {
			const w3d_box *b = m->boxes[i];
			occ o = { 0 };
			if (b && name_field(e->ctx->doc, b->src, 8, 32, &o)) {
				o.object = b->name;
				check(e, &o);
			}
		}
	}
}

void wl_custom_rules_run(wl_lint_ctx *ctx)
{
	/* The fields of docs/configuration.md are W3D's: other formats have
	 * none yet. */
	if (!ctx || !ctx->config || !ctx->model || strcmp(ctx->doc->format->name, "w3d") != 0)
		return;
	size_t n = wl_config_custom_count(ctx->config);
	for (size_t i = 0; i < n && !ctx->doc->oom; i++) {
		const wl_custom_rule *r = wl_config_custom_at(ctx->config, i);
		if (!wl_lint_enabled(ctx, r->id))
			continue;
		/* The id lives in the configuration, which outlives every
		 * document and every report (finding.h wants ids that outlive
		 * the document: the parallel front end frees it before
		 * reporting). */
		eval e = { ctx, r, r->id };
		eval_rule(&e);
	}
}
