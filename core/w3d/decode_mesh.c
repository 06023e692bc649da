/* decode_mesh.c - typed decoding of W3D MESH chunks; see mesh.h.
 *
 * Arrays are decoded in tight loops from the payload bytes (little-endian,
 * assembled by wl_le32 / wl_lef32), element count = payload bytes / element
 * size, so a decoder never reads past its chunk whatever the header says. */
#include "mesh.h"

#include <string.h>

#include "decode_util.h"
#include "hierarchy.h"
#include "w3d_format.h"

/* Mesh sub-chunk ids not listed in w3d_format.h (spec chunk table). */
enum {
	MESH_ID_VERTEX_COLORS = 0x000D,
	MESH_ID_SHADER_MATERIAL = 0x0051,
	MESH_ID_SHADER_MATERIAL_HEADER = 0x0052,
	MESH_ID_SHADER_MATERIAL_PROPERTY = 0x0053,
	MESH_ID_DEFORM = 0x0058,
	MESH_ID_PS2_SHADERS = 0x0080,
	MESH_ID_SECONDARY_VERTICES = 0x0C00,
	MESH_ID_SECONDARY_VERTEX_NORMALS = 0x0C01
};

static bool is_data(const wl_chunk *c)
{
	return c->kind == WL_NODE_CHUNK;
}

/* Arena allocation of count elements; sets doc->oom on failure. count 0
 * returns a valid pointer. */
static void *alloc_array(wl_doc *doc, size_t count, size_t size)
{
	void *p = wl_arena_array(doc->arena, count, size);
	if (!p)
		doc->oom = true;
	return p;
}

/* Decodes chunk c as fixed records of rec_size bytes, each by fn, into out:
 * an array struct with src, v and count (left alone when out of memory). */
#define DECODE_ARRAY(doc, c, out, rec_size, fn)                                           \
	do {                                                                                \
		size_t n_;                                                                  \
		void *v_ = w3d_decode_records((doc), (c), (rec_size), sizeof *(out)->v, (fn), &n_); \
		if (v_) {                                                                   \
			(out)->src = (c);                                                   \
			(out)->v = v_;                                                      \
			(out)->count = n_;                                                  \
		}                                                                           \
	} while (0)

/* Record decoders (w3d_record_fn): one file record at p into *e. */
static void vec3_rec(void *e, const uint8_t *p)
{
	w3d_vec3 *v = e;
	v->x = wl_lef32(p);
	v->y = wl_lef32(p + 4);
	v->z = wl_lef32(p + 8);
}

static void u32_rec(void *e, const uint8_t *p)
{
	*(uint32_t *)e = wl_le32(p);
}

static void rgba_rec(void *e, const uint8_t *p)
{
	w3d_rgba *v = e;
	v->r = p[0];
	v->g = p[1];
	v->b = p[2];
	v->a = p[3];
}

static void texcoord_rec(void *e, const uint8_t *p)
{
	w3d_texcoord *t = e;
	t->u = wl_lef32(p);
	t->v = wl_lef32(p + 4);
}

static void triangle_rec(void *e, const uint8_t *p)
{
	w3d_triangle *t = e;
	t->vindex[0] = wl_le32(p);
	t->vindex[1] = wl_le32(p + 4);
	t->vindex[2] = wl_le32(p + 8);
	t->attributes = wl_le32(p + 12);
	t->normal.x = wl_lef32(p + 16);
	t->normal.y = wl_lef32(p + 20);
	t->normal.z = wl_lef32(p + 24);
	t->dist = wl_lef32(p + 28);
}

/* 0x0E: 8-byte records, read as four uint16. */
static void influence_rec(void *e, const uint8_t *p)
{
	w3d_influence *v = e;
	v->bone[0] = wl_le16(p);
	v->bone[1] = wl_le16(p + 2);
	v->weight[0] = wl_le16(p + 4);
	v->weight[1] = wl_le16(p + 6);
	v->bone[2] = v->bone[3] = 0;
	v->weight[2] = v->weight[3] = 0;
}

/* 0x0C03: 14-byte records, uint16 bone[4] then uint16 weight[3] (§5.1). */
static void influence_ext_rec(void *e, const uint8_t *p)
{
	w3d_influence *v = e;
	for (int k = 0; k < 4; k++)
		v->bone[k] = wl_le16(p + 2 * k);
	for (int k = 0; k < 3; k++)
		v->weight[k] = wl_le16(p + 8 + 2 * k);
	v->weight[3] = 0;
}

static void shader_rec(void *e, const uint8_t *p)
{
	w3d_shader *s = e;
	s->depth_compare = p[0];
	s->depth_mask = p[1];
	s->color_mask = p[2];
	s->dest_blend = p[3];
	s->fog_func = p[4];
	s->pri_gradient = p[5];
	s->sec_gradient = p[6];
	s->src_blend = p[7];
	s->texturing = p[8];
	s->detail_color_func = p[9];
	s->detail_alpha_func = p[10];
	s->shader_preset = p[11];
	s->alpha_test = p[12];
	s->post_detail_color_func = p[13];
	s->post_detail_alpha_func = p[14];
	s->pad = p[15];
}

static void aabtree_node_rec(void *e, const uint8_t *p)
{
	w3d_aabtree_node *v = e;
	v->min.x = wl_lef32(p);
	v->min.y = wl_lef32(p + 4);
	v->min.z = wl_lef32(p + 8);
	v->max.x = wl_lef32(p + 12);
	v->max.y = wl_lef32(p + 16);
	v->max.z = wl_lef32(p + 20);
	v->front_or_poly0 = wl_le32(p + 24);
	v->back_or_poly_count = wl_le32(p + 28);
}

static void decode_triangles(wl_doc *doc, const wl_chunk *c, w3d_mesh *m)
{
	size_t n;
	w3d_triangle *t = w3d_decode_records(doc, c, W3D_TRI_SIZE, sizeof *t, triangle_rec, &n);
	if (!t)
		return;
	m->triangles_src = c;
	m->triangles = t;
	m->triangle_count = n;
}

/* 0x0E: the layout is TWO_BONE when any pad byte (record bytes 2..7) is
 * non-zero (§5.2). */
static void decode_influences(wl_doc *doc, const wl_chunk *c, w3d_influence_array *out)
{
	DECODE_ARRAY(doc, c, out, W3D_VERTINF_SIZE, influence_rec);
	if (!out->v)
		return;
	uint32_t pad = 0;
	for (size_t i = 0; i < out->count; i++)
		pad |= (uint32_t)out->v[i].bone[1] | out->v[i].weight[0] | out->v[i].weight[1];
	out->pad_nonzero = pad != 0;
	out->layout = pad ? W3D_INFLUENCE_TWO_BONE : W3D_INFLUENCE_SINGLE;
}

/* A string payload up to its first NUL (or its end), copied into the arena. */
static const char *decode_string(wl_doc *doc, const wl_chunk *c)
{
	size_t len;
	const uint8_t *p = w3d_payload_clamped(doc, c, &len);
	const uint8_t *z = memchr(p, 0, len);
	size_t n = z ? (size_t)(z - p) : len;
	char *s = wl_arena_strndup(doc->arena, (const char *)p, n);
	if (!s)
		doc->oom = true;
	return s ? s : "";
}

static size_t count_children(const wl_chunk *c, uint32_t id);

/* True when the payload of c (clamped to the file) holds a NUL. */
static bool has_nul(const wl_doc *doc, const wl_chunk *c)
{
	size_t len;
	const uint8_t *p = w3d_payload_clamped(doc, c, &len);
	return memchr(p, 0, len) != NULL;
}

static void ps2_shader_rec(void *e, const uint8_t *p)
{
	w3d_ps2_shader *s = e;
	s->depth_compare = p[0];
	s->depth_mask = p[1];
	s->pri_gradient = p[2];
	s->texturing = p[3];
	s->alpha_test = p[4];
	s->a_param = p[5];
	s->b_param = p[6];
	s->c_param = p[7];
	s->d_param = p[8];
	memcpy(s->pad, p + 9, 3);
}

/* SHADER_MATERIAL_PROPERTY: Type, NameLen, Name[NameLen], value (§5.1). */
static void decode_smat_property(wl_doc *doc, const wl_chunk *k, w3d_shader_material_property *pr)
{
	size_t len;
	const uint8_t *p = w3d_payload_clamped(doc, k, &len);
	wl_cursor cur = wl_cursor_make(p, len, wl_chunk_payload_offset(k));
	pr->src = k;
	pr->name = "";
	pr->type = wl_cursor_u32(&cur);
	pr->name_len = wl_cursor_u32(&cur);
	if (cur.short_read)
		return;
	size_t avail = wl_cursor_remaining(&cur);
	size_t n = pr->name_len < avail ? pr->name_len : avail;
	const uint8_t *nm = wl_cursor_take(&cur, n);
	const uint8_t *z = memchr(nm, 0, n);
	pr->name_terminated = z != NULL;
	char *s = wl_arena_strndup(doc->arena, (const char *)nm, z ? (size_t)(z - nm) : n);
	if (!s) {
		doc->oom = true;
		return;
	}
	pr->name = s;
	if (pr->name_len > avail)
		return;
	switch (pr->type) {
	case W3D_SMAT_TEXTURE: {
		uint32_t tl = wl_cursor_u32(&cur);
		size_t rest = wl_cursor_remaining(&cur);
		const uint8_t *t = cur.short_read || tl > rest ? NULL : wl_cursor_take(&cur, tl);
		if (!t)
			return;
		const uint8_t *tz = memchr(t, 0, tl);
		pr->texture = wl_arena_strndup(doc->arena, (const char *)t, tz ? (size_t)(tz - t) : tl);
		if (!pr->texture)
			doc->oom = true;
		pr->value_ok = pr->texture != NULL;
		break;
	}
	case W3D_SMAT_FLOAT:
	case W3D_SMAT_VEC2:
	case W3D_SMAT_VEC3:
	case W3D_SMAT_VEC4:
		w3d_read_f32s(&cur, pr->value, pr->type - W3D_SMAT_FLOAT + 1);
		pr->value_ok = !cur.short_read;
		break;
	case W3D_SMAT_INT:
		pr->int_value = (int32_t)wl_cursor_u32(&cur);
		pr->value_ok = !cur.short_read;
		break;
	case W3D_SMAT_BOOL:
		pr->bool_value = wl_cursor_u8(&cur);
		pr->value_ok = !cur.short_read;
		break;
	default:
		break;
	}
}

static void decode_shader_material(wl_doc *doc, const wl_chunk *c, w3d_shader_material *sm)
{
	sm->src = c;
	sm->type_name = "";
	size_t np = count_children(c, MESH_ID_SHADER_MATERIAL_PROPERTY);
	sm->props = alloc_array(doc, np, sizeof *sm->props);
	if (!sm->props)
		return;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_data(k))
			continue;
		if (k->id == MESH_ID_SHADER_MATERIAL_HEADER && !sm->header_src) {
			size_t len;
			const uint8_t *p = w3d_payload_clamped(doc, k, &len);
			sm->header_src = k;
			sm->header_ok = len >= 37;
			if (len >= 1)
				sm->version = p[0];
			if (len >= 33) {
				const char *s = w3d_name_field(doc, p + 1, 32, &sm->type_name_terminated);
				sm->type_name = s ? s : "";
			}
			if (len >= 34)
				sm->technique = p[33];
		} else if (k->id == MESH_ID_SHADER_MATERIAL_PROPERTY && sm->prop_count < np) {
			decode_smat_property(doc, k, &sm->props[sm->prop_count++]);
		}
	}
}

static void decode_deform(wl_doc *doc, const wl_chunk *c, w3d_deform *d)
{
	size_t len;
	const uint8_t *p = w3d_payload_clamped(doc, c, &len);
	d->src = c;
	d->bytes = len;
	if (len >= 4)
		d->set_count = wl_le32(p);
	if (len >= 8)
		d->alpha_passes = wl_le32(p + 4);
}

static void decode_header(wl_doc *doc, const wl_chunk *c, w3d_mesh_header *h)
{
	size_t len;
	const uint8_t *p = w3d_payload_clamped(doc, c, &len);
	wl_cursor cur = wl_cursor_make(p, len, wl_chunk_payload_offset(c));
	uint8_t name[16], cont[16];
	h->src = c;
	h->bytes = len;
	h->version = wl_cursor_u32(&cur);
	h->attributes = wl_cursor_u32(&cur);
	wl_cursor_bytes(&cur, name, 16);
	wl_cursor_bytes(&cur, cont, 16);
	memcpy(h->mesh_name, name, 16);
	memcpy(h->container_name, cont, 16);
	h->mesh_name[16] = h->container_name[16] = '\0';
	h->mesh_name_terminated = memchr(name, 0, 16) != NULL;
	h->container_name_terminated = memchr(cont, 0, 16) != NULL;
	h->num_tris = wl_cursor_u32(&cur);
	h->num_vertices = wl_cursor_u32(&cur);
	h->num_materials = wl_cursor_u32(&cur);
	h->num_damage_stages = wl_cursor_u32(&cur);
	h->sort_level = (int32_t)wl_cursor_u32(&cur);
	h->prelit_version = wl_cursor_u32(&cur);
	h->future_counts = wl_cursor_u32(&cur);
	h->vertex_channels = wl_cursor_u32(&cur);
	h->face_channels = wl_cursor_u32(&cur);
	h->min.x = wl_cursor_f32(&cur);
	h->min.y = wl_cursor_f32(&cur);
	h->min.z = wl_cursor_f32(&cur);
	h->max.x = wl_cursor_f32(&cur);
	h->max.y = wl_cursor_f32(&cur);
	h->max.z = wl_cursor_f32(&cur);
	h->sph_center.x = wl_cursor_f32(&cur);
	h->sph_center.y = wl_cursor_f32(&cur);
	h->sph_center.z = wl_cursor_f32(&cur);
	h->sph_radius = wl_cursor_f32(&cur);
	/* A short header: the cursor stops at the first field that does not
	 * fit; that field and the rest read as 0 (the fields before it keep
	 * their values). */
}

/* Copies up to the first NUL of a 16-byte field into dst (17 bytes), the
 * bytes as they are (outputs escape them, core/escape.h); returns its
 * length. */
static size_t name_field(char *dst, const char *src)
{
	size_t n = 0;
	for (; n < 16 && src[n]; n++)
		dst[n] = src[n];
	dst[n] = '\0';
	return n;
}

static void set_name(wl_doc *doc, wl_chunk *c, w3d_mesh *m)
{
	if (!m->header.src) {
		m->name = "";
		return;
	}
	char mesh[17], cont[17];
	name_field(mesh, m->header.mesh_name);
	size_t cn = name_field(cont, m->header.container_name);
	char *s = cn ? wl_arena_printf(doc->arena, "%s.%s", cont, mesh)
		     : wl_arena_printf(doc->arena, "%s", mesh);
	if (!s) {
		doc->oom = true;
		m->name = "";
		return;
	}
	m->name = s;
	wl_chunk_set_label(doc, c, s);
}

/* Number of children of c with the given id (data or container). */
static size_t count_children(const wl_chunk *c, uint32_t id)
{
	size_t n = 0;
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		if (is_data(k) && k->id == id)
			n++;
	return n;
}

static void decode_vertex_material(wl_doc *doc, const wl_chunk *c, w3d_vertex_material *vm)
{
	vm->src = c;
	vm->name = "";
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_data(k))
			continue;
		switch (k->id) {
		case W3D_CHUNK_VERTEX_MATERIAL_NAME:
			if (!vm->name_src) {
				vm->name_src = k;
				vm->name = decode_string(doc, k);
				vm->name_terminated = has_nul(doc, k);
			}
			break;
		case W3D_CHUNK_VERTEX_MATERIAL_INFO:
			if (!vm->info_src) {
				size_t len;
				const uint8_t *p = w3d_payload_clamped(doc, k, &len);
				wl_cursor cur = wl_cursor_make(p, len, wl_chunk_payload_offset(k));
				w3d_vertex_material_info *in = &vm->info;
				w3d_rgba *cols[4] = { &in->ambient, &in->diffuse, &in->specular, &in->emissive };
				vm->info_src = k;
				in->attributes = wl_cursor_u32(&cur);
				for (int i = 0; i < 4; i++) {
					cols[i]->r = wl_cursor_u8(&cur);
					cols[i]->g = wl_cursor_u8(&cur);
					cols[i]->b = wl_cursor_u8(&cur);
					cols[i]->a = wl_cursor_u8(&cur);
				}
				in->shininess = wl_cursor_f32(&cur);
				in->opacity = wl_cursor_f32(&cur);
				in->translucency = wl_cursor_f32(&cur);
			}
			break;
		case W3D_CHUNK_VERTEX_MAPPER_ARGS0:
		case W3D_CHUNK_VERTEX_MAPPER_ARGS1: {
			int i = k->id == W3D_CHUNK_VERTEX_MAPPER_ARGS1;
			if (!vm->mapper_args_src[i]) {
				vm->mapper_args_src[i] = k;
				vm->mapper_args[i] = decode_string(doc, k);
				vm->mapper_args_terminated[i] = has_nul(doc, k);
			}
			break;
		}
		default:
			break;
		}
	}
}

static void decode_texture(wl_doc *doc, const wl_chunk *c, w3d_texture *t)
{
	t->src = c;
	t->name = "";
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_data(k))
			continue;
		if (k->id == W3D_CHUNK_TEXTURE_NAME && !t->name_src) {
			t->name_src = k;
			t->name = decode_string(doc, k);
			t->name_terminated = has_nul(doc, k);
		} else if (k->id == W3D_CHUNK_TEXTURE_INFO && !t->info_src) {
			size_t len;
			const uint8_t *p = w3d_payload_clamped(doc, k, &len);
			wl_cursor cur = wl_cursor_make(p, len, wl_chunk_payload_offset(k));
			t->info_src = k;
			t->info_complete = len >= W3D_TEXTURE_INFO_SIZE;
			t->info.attributes = wl_cursor_u16(&cur);
			t->info.anim_type = wl_cursor_u16(&cur);
			t->info.frame_count = wl_cursor_u32(&cur);
			t->info.frame_rate = wl_cursor_f32(&cur);
		}
	}
}

static void decode_stage(wl_doc *doc, const wl_chunk *c, w3d_texture_stage *s)
{
	s->src = c;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_data(k))
			continue;
		switch (k->id) {
		case W3D_CHUNK_TEXTURE_IDS:
			if (!s->texture_ids.src)
				DECODE_ARRAY(doc, k, &s->texture_ids, W3D_U32_SIZE, u32_rec);
			break;
		case W3D_CHUNK_STAGE_TEXCOORDS:
			if (!s->texcoords.src)
				DECODE_ARRAY(doc, k, &s->texcoords, W3D_TEXCOORD_SIZE, texcoord_rec);
			break;
		case W3D_CHUNK_PER_FACE_TEXCOORD_IDS:
			if (!s->per_face_texcoord_ids) {
				s->per_face_texcoord_ids = k;
				s->per_face_texcoord_id_count = k->size / W3D_FACE_TEXCOORD_IDS_SIZE;
			}
			break;
		default:
			break;
		}
	}
}

static void decode_pass(wl_doc *doc, const wl_chunk *c, w3d_material_pass *ps)
{
	ps->src = c;
	size_t ns = count_children(c, W3D_CHUNK_TEXTURE_STAGE);
	ps->stages = alloc_array(doc, ns, sizeof *ps->stages);
	if (!ps->stages)
		return;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_data(k))
			continue;
		switch (k->id) {
		case W3D_CHUNK_VERTEX_MATERIAL_IDS:
			if (!ps->vertex_material_ids.src)
				DECODE_ARRAY(doc, k, &ps->vertex_material_ids, W3D_U32_SIZE, u32_rec);
			break;
		case W3D_CHUNK_SHADER_IDS:
			if (!ps->shader_ids.src)
				DECODE_ARRAY(doc, k, &ps->shader_ids, W3D_U32_SIZE, u32_rec);
			break;
		case W3D_CHUNK_DCG:
			if (!ps->dcg.src)
				DECODE_ARRAY(doc, k, &ps->dcg, W3D_RGBA_SIZE, rgba_rec);
			break;
		case W3D_CHUNK_DIG:
			if (!ps->dig.src)
				DECODE_ARRAY(doc, k, &ps->dig, W3D_RGBA_SIZE, rgba_rec);
			break;
		case W3D_CHUNK_SCG:
			if (!ps->scg.src)
				DECODE_ARRAY(doc, k, &ps->scg, W3D_RGBA_SIZE, rgba_rec);
			break;
		case W3D_CHUNK_SHADER_MATERIAL_ID:
			if (!ps->shader_material_ids.src)
				DECODE_ARRAY(doc, k, &ps->shader_material_ids, W3D_U32_SIZE, u32_rec);
			break;
		case W3D_CHUNK_STAGE_TEXCOORDS:
			if (!ps->texcoords.src)
				DECODE_ARRAY(doc, k, &ps->texcoords, W3D_TEXCOORD_SIZE, texcoord_rec);
			break;
		case W3D_CHUNK_TEXTURE_STAGE:
			if (ps->stage_count < ns && k->container)
				decode_stage(doc, k, &ps->stages[ps->stage_count++]);
			break;
		default:
			break;
		}
	}
}

/* Decodes the material chunks that are direct children of scope (the MESH
 * or a PRELIT_* wrapper). */
static void decode_materials(wl_doc *doc, const wl_chunk *scope, w3d_material_set *ms)
{
	size_t nvm = 0, ntex = 0, npass = 0, nsm = 0;
	ms->src = scope;
	for (const wl_chunk *k = scope->first_child; k; k = k->next) {
		if (!is_data(k) || !k->container)
			continue;
		if (k->id == W3D_CHUNK_VERTEX_MATERIALS)
			nvm += count_children(k, W3D_CHUNK_VERTEX_MATERIAL);
		else if (k->id == W3D_CHUNK_TEXTURES)
			ntex += count_children(k, W3D_CHUNK_TEXTURE);
		else if (k->id == W3D_CHUNK_MATERIAL_PASS)
			npass++;
		else if (k->id == W3D_CHUNK_SHADER_MATERIALS)
			nsm += count_children(k, MESH_ID_SHADER_MATERIAL);
	}
	ms->vertex_materials = alloc_array(doc, nvm, sizeof *ms->vertex_materials);
	ms->textures = alloc_array(doc, ntex, sizeof *ms->textures);
	ms->passes = alloc_array(doc, npass, sizeof *ms->passes);
	ms->shader_materials = alloc_array(doc, nsm, sizeof *ms->shader_materials);
	if (!ms->vertex_materials || !ms->textures || !ms->passes || !ms->shader_materials)
		return;
	for (const wl_chunk *k = scope->first_child; k; k = k->next) {
		if (!is_data(k))
			continue;
		switch (k->id) {
		case W3D_CHUNK_MATERIAL_INFO:
			if (!ms->info.src) {
				size_t len;
				const uint8_t *p = w3d_payload_clamped(doc, k, &len);
				ms->info.src = k;
				ms->info.complete = len >= W3D_MATERIAL_INFO_SIZE;
				if (len >= 4)
					ms->info.pass_count = wl_le32(p);
				if (len >= 8)
					ms->info.vertex_material_count = wl_le32(p + 4);
				if (len >= 12)
					ms->info.shader_count = wl_le32(p + 8);
				if (len >= 16)
					ms->info.texture_count = wl_le32(p + 12);
			}
			break;
		case W3D_CHUNK_SHADERS:
			if (!ms->shaders.src)
				DECODE_ARRAY(doc, k, &ms->shaders, W3D_SHADER_SIZE, shader_rec);
			break;
		case W3D_CHUNK_VERTEX_MATERIALS:
			if (!k->container)
				break;
			if (!ms->vertex_materials_src)
				ms->vertex_materials_src = k;
			for (const wl_chunk *v = k->first_child; v; v = v->next)
				if (is_data(v) && v->id == W3D_CHUNK_VERTEX_MATERIAL &&
				    ms->vertex_material_count < nvm)
					decode_vertex_material(
						doc, v, &ms->vertex_materials[ms->vertex_material_count++]);
			break;
		case W3D_CHUNK_TEXTURES:
			if (!k->container)
				break;
			if (!ms->textures_src)
				ms->textures_src = k;
			for (const wl_chunk *t = k->first_child; t; t = t->next)
				if (is_data(t) && t->id == W3D_CHUNK_TEXTURE && ms->texture_count < ntex)
					decode_texture(doc, t, &ms->textures[ms->texture_count++]);
			break;
		case W3D_CHUNK_MATERIAL_PASS:
			if (k->container && ms->pass_count < npass)
				decode_pass(doc, k, &ms->passes[ms->pass_count++]);
			break;
		case MESH_ID_PS2_SHADERS:
			if (!ms->ps2_shaders.src)
				DECODE_ARRAY(doc, k, &ms->ps2_shaders, 12, ps2_shader_rec);
			break;
		case W3D_CHUNK_SHADER_MATERIALS:
			if (!k->container)
				break;
			if (!ms->shader_materials_src)
				ms->shader_materials_src = k;
			for (const wl_chunk *v = k->first_child; v; v = v->next)
				if (is_data(v) && v->id == MESH_ID_SHADER_MATERIAL && v->container &&
				    ms->shader_material_count < nsm)
					decode_shader_material(
						doc, v, &ms->shader_materials[ms->shader_material_count++]);
			break;
		default:
			break;
		}
	}
}

static void decode_aabtree(wl_doc *doc, const wl_chunk *c, w3d_aabtree *t)
{
	t->src = c;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (!is_data(k))
			continue;
		if (k->id == W3D_CHUNK_AABTREE_HEADER && !t->header_src) {
			size_t len;
			const uint8_t *p = w3d_payload_clamped(doc, k, &len);
			t->header_src = k;
			t->header_complete = len >= W3D_AABTREE_HEADER_SIZE;
			if (len >= 4)
				t->node_count = wl_le32(p);
			if (len >= 8)
				t->poly_count = wl_le32(p + 4);
			for (size_t i = 0; i < 6 && len >= 12 + 4 * i; i++)
				t->padding[i] = wl_le32(p + 8 + 4 * i);
		} else if (k->id == W3D_CHUNK_AABTREE_POLYINDICES && !t->poly_indices.src) {
			DECODE_ARRAY(doc, k, &t->poly_indices, W3D_U32_SIZE, u32_rec);
		} else if (k->id == W3D_CHUNK_AABTREE_NODES && !t->nodes_src) {
			size_t n;
			w3d_aabtree_node *v = w3d_decode_records(doc, k, W3D_AABTREE_NODE_SIZE, sizeof *v,
								 aabtree_node_rec, &n);
			if (!v)
				return;
			t->nodes_src = k;
			t->nodes = v;
			t->node_array_count = n;
		}
	}
}

w3d_mesh *w3d_decode_mesh(wl_doc *doc, wl_chunk *c)
{
	w3d_mesh *m = wl_arena_alloc(doc->arena, sizeof *m);
	if (!m) {
		doc->oom = true;
		return NULL;
	}
	m->src = c;
	m->name = "";
	for (const wl_chunk *k = c->first_child; k && !doc->oom; k = k->next) {
		if (!is_data(k))
			continue;
		switch (k->id) {
		case W3D_CHUNK_MESH_HEADER3:
			if (m->header_chunk_count++ == 0)
				decode_header(doc, k, &m->header);
			break;
		case W3D_CHUNK_VERTICES:
			if (!m->vertices.src)
				DECODE_ARRAY(doc, k, &m->vertices, W3D_VEC3_SIZE, vec3_rec);
			break;
		case W3D_CHUNK_VERTEX_NORMALS:
		case 0x0004: /* SURRENDER_NORMALS, accepted by the loader */
			if (!m->normals.src)
				DECODE_ARRAY(doc, k, &m->normals, W3D_VEC3_SIZE, vec3_rec);
			break;
		case W3D_CHUNK_TRIANGLES:
			if (!m->triangles_src)
				decode_triangles(doc, k, m);
			break;
		case W3D_CHUNK_VERTEX_SHADE_INDICES:
			if (!m->shade_indices.src)
				DECODE_ARRAY(doc, k, &m->shade_indices, W3D_U32_SIZE, u32_rec);
			break;
		case W3D_CHUNK_VERTEX_INFLUENCES:
			if (!m->influences.src)
				decode_influences(doc, k, &m->influences);
			break;
		case W3D_CHUNK_VERTEX_INFLUENCES_EXTENDED:
			if (!m->influences_ext.src) {
				DECODE_ARRAY(doc, k, &m->influences_ext, W3D_VERTINF_EXT_SIZE, influence_ext_rec);
				if (m->influences_ext.v)
					m->influences_ext.layout = W3D_INFLUENCE_EXTENDED;
			}
			break;
		case W3D_CHUNK_MESH_USER_TEXT:
			if (!m->user_text_src) {
				m->user_text_src = k;
				m->user_text = decode_string(doc, k);
			}
			break;
		case W3D_CHUNK_PRELIT_UNLIT:
		case W3D_CHUNK_PRELIT_VERTEX:
		case W3D_CHUNK_PRELIT_LIGHTMAP_MULTI_PASS:
		case W3D_CHUNK_PRELIT_LIGHTMAP_MULTI_TEXTURE: {
			w3d_material_set *ps = &m->prelit[k->id - W3D_CHUNK_PRELIT_UNLIT];
			if (!ps->src && k->container)
				decode_materials(doc, k, ps);
			break;
		}
		case W3D_CHUNK_AABTREE:
			if (!m->aabtree.src && k->container)
				decode_aabtree(doc, k, &m->aabtree);
			break;
		case MESH_ID_VERTEX_COLORS:
			if (!m->vertex_colors.src)
				DECODE_ARRAY(doc, k, &m->vertex_colors, W3D_RGBA_SIZE, rgba_rec);
			break;
		case W3D_CHUNK_TANGENTS:
			if (!m->tangents.src)
				DECODE_ARRAY(doc, k, &m->tangents, W3D_VEC3_SIZE, vec3_rec);
			break;
		case W3D_CHUNK_BITANGENTS:
			if (!m->bitangents.src)
				DECODE_ARRAY(doc, k, &m->bitangents, W3D_VEC3_SIZE, vec3_rec);
			break;
		case MESH_ID_SECONDARY_VERTICES:
			if (!m->secondary_vertices.src)
				DECODE_ARRAY(doc, k, &m->secondary_vertices, W3D_VEC3_SIZE, vec3_rec);
			break;
		case MESH_ID_SECONDARY_VERTEX_NORMALS:
			if (!m->secondary_normals.src)
				DECODE_ARRAY(doc, k, &m->secondary_normals, W3D_VEC3_SIZE, vec3_rec);
			break;
		case MESH_ID_DEFORM:
			if (!m->deform.src)
				decode_deform(doc, k, &m->deform);
			break;
		default:
			break;
		}
	}
	if (!doc->oom)
		decode_materials(doc, c, &m->materials);
	set_name(doc, c, m);
	return m;
}

w3d_influence_layout w3d_file_influence_layout(const w3d_mesh *const *meshes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (meshes[i] && meshes[i]->influences.src && meshes[i]->influences.pad_nonzero)
			return W3D_INFLUENCE_TWO_BONE;
	return W3D_INFLUENCE_SINGLE;
}
