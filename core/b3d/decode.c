/*
 * decode.c - builds the B3D model (model.h) from a document's chunk tree.
 *
 * Every read goes through a bounds-checked cursor over one chunk's payload,
 * clamped to the file; record counts come from the bytes present, never
 * from a value read from the file.
 */
#include "model.h"

#include <string.h>

#include "core/cursor.h"

typedef struct builder {
	wl_doc *doc;
	b3d_model *m;
	size_t caps[5]; /* nodes, meshes, bones, keys, anims */
} builder;

static bool reserve(builder *b, void **items, size_t count, size_t *cap, size_t elem);

/* Appends pointer p to *items (count *count, capacity *cap). */
static bool push(builder *b, void ***items, size_t *count, size_t *cap, void *p)
{
	if (!reserve(b, (void **)items, *count, cap, sizeof p))
		return false;
	(*items)[(*count)++] = p;
	return true;
}

/* Room for one more element of elem bytes in *items (count used, *cap
 * allocated; doubling, in the arena).  False when out of memory. */
static bool reserve(builder *b, void **items, size_t count, size_t *cap, size_t elem)
{
	if (count < *cap)
		return true;
	size_t ncap = *cap ? *cap * 2 : 8;
	void *n = wl_arena_array(b->doc->arena, ncap, elem);
	if (!n) {
		b->doc->oom = true;
		return false;
	}
	if (count)
		memcpy(n, *items, count * elem);
	*items = n;
	*cap = ncap;
	return true;
}

static void *alloc(builder *b, size_t n)
{
	void *p = wl_arena_alloc(b->doc->arena, n);
	if (!p)
		b->doc->oom = true;
	else
		memset(p, 0, n);
	return p;
}

/* The payload of data chunk c as a cursor, clamped to the file. */
static wl_cursor payload(const wl_doc *d, const wl_chunk *c)
{
	uint64_t off = wl_chunk_payload_offset(c);
	uint64_t n = off > d->size ? 0 : d->size - off;
	if (n > c->size)
		n = c->size;
	return wl_cursor_make(d->bytes + (off > d->size ? d->size : off), (size_t)n, off);
}

static bool cut(const wl_chunk *c)
{
	return (c->recovery & (WL_REC_TRUNCATED | WL_REC_CLAMPED | WL_REC_PAST_EOF)) != 0;
}

/* Reads a NUL-terminated string at the cursor: *s (arena copy, without the
 * NUL), *len.  False, with the cursor unmoved, when no NUL is left. */
static bool read_string(builder *b, wl_cursor *k, const char **s, size_t *len)
{
	size_t left = wl_cursor_remaining(k);
	const uint8_t *p = k->base + k->pos;
	const uint8_t *z = memchr(p, 0, left);
	if (!z)
		return false;
	*len = (size_t)(z - p);
	*s = wl_arena_strndup(b->doc->arena, (const char *)p, *len);
	if (!*s) {
		b->doc->oom = true;
		*s = "";
	}
	wl_cursor_skip(k, *len + 1);
	return true;
}

static void unterminated(builder *b, const wl_chunk *c, wl_cursor *k, const char *what, size_t index)
{
	wl_report(&b->doc->findings, WLR_B3D_STRING_UNTERMINATED, c, (int64_t)index, wl_cursor_offset(k),
		  wl_cursor_remaining(k),
		  "%s %zu of %s has no terminating NUL before the end of the chunk (%zu bytes left): "
		  "readers run on into the next chunk",
		  what, index, wl_chunk_name(b->doc, c), wl_cursor_remaining(k));
}

static void slack(builder *b, const wl_chunk *c, uint64_t off, uint64_t n, const char *record)
{
	if (!n || cut(c))
		return;
	wl_report(&b->doc->findings, WLR_B3D_RECORD_SLACK, c, -1, off, n,
		  "%s ends with %llu byte(s) that do not make a whole %s: Irrlicht and Luanti read "
		  "past the chunk's end into the next chunk",
		  wl_chunk_name(b->doc, c), (unsigned long long)n, record);
}

/* Fixed-size records from the cursor to the end of the chunk. */
static void records(builder *b, const wl_chunk *c, wl_cursor *k, uint32_t size, b3d_records *r,
		    const char *record)
{
	r->src = c;
	r->offset = wl_cursor_offset(k);
	r->data = k->base + k->pos;
	r->size = size;
	if (!size)
		return;
	size_t left = wl_cursor_remaining(k);
	r->count = left / size;
	r->slack = left % size;
	slack(b, c, r->offset + (uint64_t)r->count * size, r->slack, record);
}

static void read_floats(wl_cursor *k, float *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = wl_cursor_f32(k);
}

static void decode_texs(builder *b, const wl_chunk *c)
{
	wl_cursor k = payload(b->doc, c);
	size_t cap = 0;
	while (wl_cursor_remaining(&k) && !b->doc->oom) {
		uint64_t start = wl_cursor_offset(&k);
		b3d_texture t = { 0 };
		t.src = c;
		t.offset = start;
		if (!read_string(b, &k, &t.name, &t.name_len)) {
			unterminated(b, c, &k, "texture file name", b->m->texture_count);
			return;
		}
		if (wl_cursor_remaining(&k) < 28) {
			slack(b, c, start, wl_cursor_offset(&k) + wl_cursor_remaining(&k) - start,
			      "texture entry (name + 28 bytes)");
			return;
		}
		t.values_offset = wl_cursor_offset(&k);
		t.flags = (int32_t)wl_cursor_u32(&k);
		t.blend = (int32_t)wl_cursor_u32(&k);
		read_floats(&k, t.pos, 2);
		read_floats(&k, t.scale, 2);
		t.rotation = wl_cursor_f32(&k);
		t.length = wl_cursor_offset(&k) - start;
		if (!reserve(b, (void **)&b->m->textures, b->m->texture_count, &cap, sizeof t))
			return;
		b->m->textures[b->m->texture_count++] = t;
	}
}

/* Largest BRUS n_texs whose entries are decoded (the check reports counts
 * above 8; this only bounds the work on hostile values). */
#define BRUS_MAX_DECODED 4096

static void decode_brus(builder *b, const wl_chunk *c)
{
	wl_cursor k = payload(b->doc, c);
	if (wl_cursor_remaining(&k) < 4)
		return;
	int32_t n_texs = (int32_t)wl_cursor_u32(&k);
	b->m->brush_texture_slots = n_texs;
	b->m->brus_ok = true;
	if (n_texs < 0 || n_texs > BRUS_MAX_DECODED)
		return;
	size_t cap = 0;
	while (wl_cursor_remaining(&k) && !b->doc->oom) {
		uint64_t start = wl_cursor_offset(&k);
		b3d_brush r = { 0 };
		r.src = c;
		r.offset = start;
		if (!read_string(b, &k, &r.name, &r.name_len)) {
			unterminated(b, c, &k, "brush name", b->m->brush_count);
			b->m->brush_cut = true;
			return;
		}
		uint64_t need = 28 + 4 * (uint64_t)n_texs;
		if (wl_cursor_remaining(&k) < need) {
			slack(b, c, start, wl_cursor_offset(&k) + wl_cursor_remaining(&k) - start,
			      "brush entry (name + 28 + 4 x n_texs bytes)");
			b->m->brush_cut = true;
			return;
		}
		r.values_offset = wl_cursor_offset(&k);
		read_floats(&k, r.color, 4);
		r.shininess = wl_cursor_f32(&k);
		r.blend = (int32_t)wl_cursor_u32(&k);
		r.fx = (int32_t)wl_cursor_u32(&k);
		r.texture_ids_offset = wl_cursor_offset(&k);
		r.texture_ids = wl_cursor_take(&k, 4 * (size_t)n_texs);
		r.length = wl_cursor_offset(&k) - start;
		if (!reserve(b, (void **)&b->m->brushes, b->m->brush_count, &cap, sizeof r))
			return;
		b->m->brushes[b->m->brush_count++] = r;
	}
}

static b3d_vrts *decode_vrts(builder *b, const wl_chunk *c)
{
	b3d_vrts *v = alloc(b, sizeof *v);
	if (!v)
		return NULL;
	v->src = c;
	wl_cursor k = payload(b->doc, c);
	v->verts.src = c;
	if (wl_cursor_remaining(&k) < 12)
		return v;
	v->flags = (int32_t)wl_cursor_u32(&k);
	v->sets = (int32_t)wl_cursor_u32(&k);
	v->set_size = (int32_t)wl_cursor_u32(&k);
	/* Negative or huge layouts (b3d_vertex_size 0) are not decoded: the
	 * check b3d-tex-coord-layout reports them. */
	if (b3d_vertex_size(v->flags, v->sets, v->set_size) == 0) {
		v->verts.offset = wl_cursor_offset(&k);
		return v;
	}
	v->normal_at = (v->flags & 1) ? 12 : 0;
	v->color_at = (v->flags & 2) ? 12 + ((v->flags & 1) ? 12 : 0) : 0;
	v->uv_at = b3d_vertex_size(v->flags, 0, 0);
	records(b, c, &k, b3d_vertex_size(v->flags, v->sets, v->set_size), &v->verts, "vertex");
	return v;
}

static b3d_tris *decode_tris(builder *b, const wl_chunk *c)
{
	b3d_tris *t = alloc(b, sizeof *t);
	if (!t)
		return NULL;
	t->src = c;
	t->tris.src = c;
	wl_cursor k = payload(b->doc, c);
	if (wl_cursor_remaining(&k) < 4)
		return t;
	t->brush_id = (int32_t)wl_cursor_u32(&k);
	t->brush_ok = true;
	records(b, c, &k, 12, &t->tris, "triangle (3 x int32)");
	return t;
}

static void decode_mesh(builder *b, const wl_chunk *c, b3d_node *node)
{
	b3d_model *m = b->m;
	b3d_mesh *me = alloc(b, sizeof *me);
	if (!me)
		return;
	me->src = c;
	me->node = node;
	me->index = m->mesh_count;
	me->global_base = m->total_vertices;
	if (c->fields >= 4) {
		me->brush_id = (int32_t)wl_le32(wl_chunk_payload(b->doc, c));
		me->brush_ok = true;
	}
	size_t tcap = 0;
	for (const wl_chunk *k = c->first_child; k && !b->doc->oom; k = k->next) {
		if (k->kind != WL_NODE_CHUNK || !k->type)
			continue;
		if (k->id == B3D_CHUNK_VRTS) {
			b3d_vrts *v = decode_vrts(b, k);
			if (!v)
				return;
			m->total_vertices += v->verts.count;
			if (!me->vrts) {
				me->vrts = v;
				me->vertex_count = v->verts.count;
			}
			me->vrts_count++;
		} else if (k->id == B3D_CHUNK_TRIS) {
			b3d_tris *t = decode_tris(b, k);
			if (!t || !push(b, (void ***)&me->tris, &me->tris_count, &tcap, t))
				return;
		}
	}
	if (!node->mesh)
		node->mesh = me;
	node->mesh_count++;
	push(b, (void ***)&m->meshes, &m->mesh_count, &b->caps[1], me);
}

static void decode_bone(builder *b, const wl_chunk *c, b3d_node *node)
{
	b3d_bone *bo = alloc(b, sizeof *bo);
	if (!bo)
		return;
	bo->src = c;
	bo->node = node;
	for (const b3d_node *n = node; n && !bo->bind_blitz; n = n->parent)
		bo->bind_blitz = n->mesh;
	if (b->m->mesh_count)
		bo->bind_irrlicht = b->m->meshes[b->m->mesh_count - 1];
	wl_cursor k = payload(b->doc, c);
	records(b, c, &k, B3D_BONE_RECORD, &bo->weights, "weight (int32 vertex_id, float weight)");
	if (!node->bone)
		node->bone = bo;
	node->bone_count++;
	push(b, (void ***)&b->m->bones, &b->m->bone_count, &b->caps[2], bo);
}

static void decode_keys(builder *b, const wl_chunk *c, b3d_node *node)
{
	b3d_keys *ks = alloc(b, sizeof *ks);
	if (!ks)
		return;
	ks->src = c;
	ks->node = node;
	ks->keys.src = c;
	wl_cursor k = payload(b->doc, c);
	if (wl_cursor_remaining(&k) >= 4) {
		ks->flags = (int32_t)wl_cursor_u32(&k);
		ks->flags_ok = true;
		ks->position_at = (ks->flags & 1) ? 4 : 0;
		ks->scale_at = (ks->flags & 2) ? b3d_key_size(ks->flags & 1) : 0;
		ks->rotation_at = (ks->flags & 4) ? b3d_key_size(ks->flags & 3) : 0;
		records(b, c, &k, b3d_key_size(ks->flags), &ks->keys, "key");
	}
	push(b, (void ***)&b->m->keys, &b->m->keys_count, &b->caps[3], ks);
}

static void decode_anim(builder *b, const wl_chunk *c, b3d_node *node)
{
	b3d_anim *a = alloc(b, sizeof *a);
	if (!a)
		return;
	a->src = c;
	a->node = node;
	wl_cursor k = payload(b->doc, c);
	if (wl_cursor_remaining(&k) >= B3D_ANIM_SIZE) {
		a->flags = (int32_t)wl_cursor_u32(&k);
		a->frames = (int32_t)wl_cursor_u32(&k);
		a->fps = wl_cursor_f32(&k);
		a->ok = true;
		slack(b, c, wl_cursor_offset(&k), wl_cursor_remaining(&k), "ANIM (12 bytes)");
	}
	if (!node->anim)
		node->anim = a;
	push(b, (void ***)&b->m->anims, &b->m->anim_count, &b->caps[4], a);
}

/* A path label for a name: its raw bytes, as W3D's names (every report
 * prints chunk paths in the escaped form of core/escape.h, so `caf\xe9`
 * and `café` stay apart and no byte is lost). */
static const char *label_of(builder *b, const char *name, size_t len)
{
	char *s = wl_arena_strndup(b->doc->arena, name, len);
	if (!s)
		b->doc->oom = true;
	return s;
}

static void decode_node(builder *b, wl_chunk *c, b3d_node *parent, size_t depth)
{
	b3d_node *n = alloc(b, sizeof *n);
	if (!n)
		return;
	n->src = c;
	n->parent = parent;
	n->depth = depth;
	n->index = b->m->node_count;
	n->name = "";
	if (!push(b, (void ***)&b->m->nodes, &b->m->node_count, &b->caps[0], n))
		return;
	/* The fields: name, then 40 bytes of transform (c->fields counts them,
	 * clamped to the chunk). */
	uint64_t off = wl_chunk_payload_offset(c);
	wl_cursor k = wl_cursor_make(wl_chunk_payload(b->doc, c), (size_t)c->fields, off);
	if (read_string(b, &k, &n->name, &n->name_len)) {
		n->name_terminated = true;
		n->label = label_of(b, n->name, n->name_len);
		wl_chunk_set_label(b->doc, c, n->label);
		if (wl_cursor_remaining(&k) >= B3D_NODE_TRANSFORM) {
			n->transform_offset = wl_cursor_offset(&k);
			read_floats(&k, n->position, 3);
			read_floats(&k, n->scale, 3);
			read_floats(&k, n->rotation, 4);
			n->transform_ok = true;
		} else if (!cut(c)) {
			wl_report(&b->doc->findings, WLR_B3D_RECORD_SLACK, c, -1, wl_cursor_offset(&k),
				  wl_cursor_remaining(&k),
				  "NODE '%s' ends %zu byte(s) into its 40-byte transform (position, scale, "
				  "rotation)", n->label ? n->label : "", wl_cursor_remaining(&k));
		}
	} else {
		unterminated(b, c, &k, "node name", 0);
	}
	for (wl_chunk *k2 = c->first_child; k2 && !b->doc->oom; k2 = k2->next) {
		if (k2->kind != WL_NODE_CHUNK || !k2->type)
			continue;
		switch (k2->id) {
		case B3D_CHUNK_MESH: decode_mesh(b, k2, n); break;
		case B3D_CHUNK_BONE: decode_bone(b, k2, n); break;
		case B3D_CHUNK_KEYS: decode_keys(b, k2, n); break;
		case B3D_CHUNK_ANIM: decode_anim(b, k2, n); break;
		case B3D_CHUNK_NODE: decode_node(b, k2, n, depth + 1); break;
		default: break;
		}
	}
}

static void decode_bb3d(builder *b, wl_chunk *c)
{
	b3d_model *m = b->m;
	m->bb3d = c;
	if (c->fields >= 4) {
		m->version = (int32_t)wl_le32(wl_chunk_payload(b->doc, c));
		m->version_ok = true;
	}
	for (wl_chunk *k = c->first_child; k && !b->doc->oom; k = k->next) {
		if (k->kind != WL_NODE_CHUNK || !k->type)
			continue;
		if (k->id == B3D_CHUNK_TEXS && !m->texs) {
			m->texs = k;
			decode_texs(b, k);
		} else if (k->id == B3D_CHUNK_BRUS && !m->brus) {
			m->brus = k;
			decode_brus(b, k);
		} else if (k->id == B3D_CHUNK_NODE) {
			decode_node(b, k, NULL, 0);
		}
	}
}

b3d_model *b3d_model_build(wl_doc *doc)
{
	builder b = { doc, NULL, { 0 } };
	b.m = alloc(&b, sizeof *b.m);
	if (!b.m)
		return NULL;
	for (wl_chunk *c = doc->root.first_child; c && !doc->oom; c = c->next)
		if (c->kind == WL_NODE_CHUNK && c->id == B3D_CHUNK_BB3D && c->type) {
			decode_bb3d(&b, c);
			break;
		}
	doc->model = b.m;
	return doc->oom ? NULL : b.m;
}
