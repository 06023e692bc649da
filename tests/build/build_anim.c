/* build_anim.c - see build_anim.h. */
#include "build_anim.h"

#include <check.h>

#include <stdio.h>
#include <string.h>

#include "core/w3d/w3d_format.h"
#include "lint/catalog.h"
#include "lint/lint.h"
#include "core/w3d/model.h"
#include "reader_util.h"

void w3d_check_hierarchy(wl_lint_ctx *ctx);
void w3d_check_animation(wl_lint_ctx *ctx);
void w3d_check_hlod(wl_lint_ctx *ctx);

/* Opens the object chunk id, recording its header offset in *object and
 * that of its first sub-chunk in *first_child; true when its header chunk
 * goes first (there is one and it is not written last). */
static bool begin_object(wb *b, uint32_t id, size_t *object, size_t *first_child, bool no_header,
			 bool header_last)
{
	*object = b->len;
	t_w3d_begin(b, id);
	*first_child = b->len;
	return !no_header && !header_last;
}

t_anim_hier_opts t_anim_hier_defaults(unsigned pivots)
{
	t_anim_hier_opts o = { pivots, -1, -1, false, false, NULL, -1, 1.0f };
	return o;
}

static void hier_header(wb *b, const t_anim_hier_opts *o, t_anim_hier_at *at)
{
	at->header_payload =
		t_w3d_hierarchy_header(b, "SKEL", o->header_pivots < 0 ? o->pivots : (uint32_t)o->header_pivots);
}

void t_anim_hierarchy(wb *b, const t_anim_hier_opts *o, t_anim_hier_at *at)
{
	if (begin_object(b, W3D_CHUNK_HIERARCHY, &at->object, &at->first_child, o->no_header, o->header_last))
		hier_header(b, o, at);
	at->pivots_payload = b->len + 8;
	t_w3d_begin(b, W3D_CHUNK_PIVOTS);
	for (unsigned i = 0; i < o->pivots; i++) {
		char name[16];
		snprintf(name, sizeof name, i ? "BONE%02u" : "ROOTTRANSFORM", i);
		float s = (int)i == o->bad_rot_pivot ? o->rot_scale : 1.0f;
		t_w3d_pivot(b, name, o->parents ? o->parents[i] : i ? i - 1 : 0xFFFFFFFFu, (float)i, s);
	}
	t_w3d_end(b);
	if (o->fixups != -2) {
		unsigned n = o->fixups < 0 ? o->pivots : (unsigned)o->fixups;
		at->fixups_payload = b->len + 8;
		t_w3d_begin(b, W3D_CHUNK_PIVOT_FIXUPS);
		for (unsigned i = 0; i < n; i++)
			for (int j = 0; j < 12; j++)
				t_w3d_f32(b, j % 4 == 0 ? 1.0f : 0.0f);
		t_w3d_end(b);
	}
	if (!o->no_header && o->header_last)
		hier_header(b, o, at);
	t_w3d_end(b);
}

t_anim_anim_opts t_anim_anim_defaults(void)
{
	t_anim_anim_opts o = { 10, 0, 9, 0, 4, 1.0f, false, false, false, 0 };
	return o;
}

static void anim_header(wb *b, const t_anim_anim_opts *o)
{
	t_w3d_begin_anim_header(b, W3D_CHUNK_ANIMATION_HEADER, 0x00040001, "WALK", "SKEL", o->num_frames);
	t_w3d_u32(b, 30);
	t_w3d_end(b);
}

/* Opens channel chunk id and writes its FirstFrame and LastFrame; returns
 * its payload offset. */
static size_t begin_channel(wb *b, uint32_t id, uint16_t first, uint16_t last)
{
	size_t payload = b->len + 8;
	t_w3d_begin(b, id);
	t_w3d_u16(b, first);
	t_w3d_u16(b, last);
	return payload;
}

static void put_bytes(wb *b, int64_t n)
{
	if (n > 0)
		t_w3d_zeros(b, (size_t)n);
}

void t_anim_animation(wb *b, const t_anim_anim_opts *o, t_anim_anim_at *at)
{
	unsigned frames = o->last >= o->first ? (unsigned)(o->last - o->first + 1) : 1;
	if (begin_object(b, W3D_CHUNK_ANIMATION, &at->object, &at->first_child, o->no_header, o->header_last))
		anim_header(b, o);
	/* channel 0: X translation of pivot 1 */
	at->x_payload = begin_channel(b, W3D_CHUNK_ANIMATION_CHANNEL, o->first, o->last);
	t_w3d_u16(b, 1);
	t_w3d_u16(b, 0);
	t_w3d_u16(b, 1);
	t_w3d_u16(b, 0);
	int64_t nbytes = (int64_t)frames * 4 + o->data_delta;
	for (int64_t i = 0; i + 4 <= nbytes; i += 4)
		t_w3d_f32(b, (float)i);
	put_bytes(b, nbytes % 4);
	t_w3d_end(b);
	/* channel 1: Q rotation of pivot 1 */
	at->q_payload = begin_channel(b, W3D_CHUNK_ANIMATION_CHANNEL, o->first, o->last);
	t_w3d_u16(b, o->q_vector_len);
	t_w3d_u16(b, 6);
	t_w3d_u16(b, 1);
	t_w3d_u16(b, 0);
	for (unsigned f = 0; f < frames; f++) {
		float q[4] = { 0, 0, 0, 1 };
		for (unsigned j = 0; j < o->q_vector_len; j++)
			t_w3d_f32(b, j < 4 ? q[j] * (f == frames - 1 ? o->q_scale : 1.0f) : 0.0f);
	}
	t_w3d_end(b);
	if (o->bit_channel) {
		at->bit_payload = begin_channel(b, W3D_CHUNK_BIT_CHANNEL, o->first, o->last);
		t_w3d_u16(b, 0);
		t_w3d_u16(b, 1);
		t_w3d_u8(b, 1);
		int64_t n = (frames + 7) / 8 + o->bit_delta;
		for (int64_t i = 0; i < n; i++)
			t_w3d_u8(b, 0xFF);
		t_w3d_end(b);
	}
	if (!o->no_header && o->header_last)
		anim_header(b, o);
	t_w3d_end(b);
}

t_anim_canim_opts t_anim_canim_defaults(uint16_t flavor)
{
	t_anim_canim_opts o = { flavor, 20, 5, 4, 0, 0, 1.0f, -1, 0, false };
	return o;
}

/* One compressed channel; q selects the Q layout (VL 4). */
static void canim_channel(wb *b, const t_anim_canim_opts *o, bool q, bool defect)
{
	unsigned vl = q ? 4 : 1;
	int64_t cd = defect ? o->count_delta : 0;
	t_w3d_begin(b, W3D_CHUNK_COMPRESSED_ANIMATION_CHANNEL);
	if (o->flavor == 0) {
		t_w3d_u32(b, (uint32_t)((int64_t)o->keys + cd));
		t_w3d_u16(b, 1);
		t_w3d_u8(b, (uint8_t)vl);
		t_w3d_u8(b, q ? 6 : 0);
		for (uint32_t k = 0; k < o->keys; k++) {
			uint32_t t = k * o->step;
			if (q && (int)k == o->bad_key)
				t = o->key_time;
			t_w3d_u32(b, t);
			if (q) {
				t_w3d_f32(b, 0);
				t_w3d_f32(b, 0);
				t_w3d_f32(b, 0);
				t_w3d_f32(b, k == o->keys - 1 ? o->q_scale : 1.0f);
			} else {
				t_w3d_f32(b, (float)k);
			}
		}
	} else {
		uint32_t nf = (uint32_t)((int64_t)o->num_frames + cd);
		t_w3d_u32(b, nf);
		t_w3d_u16(b, 1);
		t_w3d_u8(b, (uint8_t)vl);
		t_w3d_u8(b, q ? 6 : 0);
		t_w3d_f32(b, 0.5f);
		if (q) {
			t_w3d_f32(b, 0);
			t_w3d_f32(b, 0);
			t_w3d_f32(b, 0);
			t_w3d_f32(b, o->q_scale);
		} else {
			t_w3d_f32(b, 0);
		}
		size_t blocks = (o->num_frames + 15) / 16;
		t_w3d_zeros(b, 9 * vl * blocks + 3);
	}
	if (defect && o->size_delta > 0)
		t_w3d_zeros(b, (size_t)o->size_delta);
	if (defect && o->size_delta < 0)
		b->len -= (size_t)-o->size_delta;
	t_w3d_end(b);
}

void t_anim_compressed_animation(wb *b, const t_anim_canim_opts *o, t_anim_canim_at *at)
{
	at->object = b->len;
	t_w3d_begin(b, W3D_CHUNK_COMPRESSED_ANIMATION);
	if (!o->no_header) {
		at->header_payload = b->len + 8;
		t_w3d_begin_anim_header(b, W3D_CHUNK_COMPRESSED_ANIMATION_HEADER, 0x00040001, "RUN", "SKEL",
					o->num_frames);
		t_w3d_u16(b, 30);
		t_w3d_u16(b, o->flavor);
		t_w3d_end(b);
	}
	at->x_payload = b->len + 8;
	canim_channel(b, o, false, true);
	at->q_payload = b->len + 8;
	canim_channel(b, o, true, false);
	t_w3d_end(b);
}

t_anim_hlod_opts t_anim_hlod_defaults(unsigned lods, unsigned subs)
{
	t_anim_hlod_opts o = { lods, -1, subs, -1, false, false, false, false, 0 };
	return o;
}

static void hlod_header(wb *b, const t_anim_hlod_opts *o, t_anim_hlod_at *at)
{
	at->header_payload = b->len + 8;
	t_w3d_begin(b, W3D_CHUNK_HLOD_HEADER);
	t_w3d_u32(b, 0x00010000);
	t_w3d_u32(b, o->lod_count < 0 ? o->lods : (uint32_t)o->lod_count);
	t_w3d_name(b, "TANK", 16);
	t_w3d_name(b, "SKEL", 16);
	t_w3d_end(b);
}

static void hlod_array(wb *b, uint32_t id, unsigned subs, uint32_t model_count, bool header, float mss,
		       size_t *hdr_payload)
{
	t_w3d_begin(b, id);
	if (header) {
		size_t payload = t_w3d_hlod_array_header(b, model_count, mss);
		if (hdr_payload)
			*hdr_payload = payload;
	}
	for (unsigned i = 0; i < subs; i++) {
		char name[32];
		snprintf(name, sizeof name, "TANK.PART%02u", i);
		t_w3d_hlod_sub_object(b, 0, name);
	}
	t_w3d_end(b);
}

void t_anim_hlod(wb *b, const t_anim_hlod_opts *o, t_anim_hlod_at *at)
{
	if (begin_object(b, W3D_CHUNK_HLOD, &at->object, &at->first_child, o->no_header, o->header_last))
		hlod_header(b, o, at);
	for (unsigned l = 0; l < o->lods; l++) {
		if (l == 1 && o->aggregate_between) {
			at->aggregate = b->len;
			hlod_array(b, W3D_CHUNK_HLOD_AGGREGATE_ARRAY, 1, 1, true, 0.0f, NULL);
		}
		if (l < 4)
			at->array[l] = b->len;
		uint32_t mc = (l == 0 && o->model_count >= 0) ? (uint32_t)o->model_count : o->subs;
		hlod_array(b, W3D_CHUNK_HLOD_LOD_ARRAY, o->subs, mc, !(l == 0 && o->no_array_header),
			   l + 1 == o->lods ? 3.4028235e38f : (float)(l + 1), l < 4 ? &at->array_header_payload[l] : NULL);
	}
	if (!o->no_header && o->header_last)
		hlod_header(b, o, at);
	if (o->size_delta) {
		size_t payload = b->len - (b->stack[b->depth - 1] + 8);
		t_w3d_end_raw(b, 0x80000000u | (uint32_t)((int64_t)payload + o->size_delta));
	} else {
		t_w3d_end(b);
	}
}

wl_doc *t_anim_lint_bytes(const uint8_t *p, size_t n)
{
	wl_doc *d = wl_doc_read(&w3d_format, "test.w3d", p, n);
	if (!d)
		return NULL;
	w3d_model *m = w3d_model_build(d);
	if (m && !d->oom) {
		wl_lint_ctx ctx = { d, m, NULL, NULL };
		w3d_check_hierarchy(&ctx);
		w3d_check_animation(&ctx);
		w3d_check_hlod(&ctx);
	}
	return d;
}

wl_doc *t_anim_lint(const wb *b)
{
	return t_anim_lint_bytes(b->data, b->len);
}

const wl_finding *t_anim_find(const wl_doc *d, const char *rule)
{
	return t_find(d, rule);
}

size_t t_anim_count(const wl_doc *d, const char *rule)
{
	return t_count(d, rule);
}

size_t t_anim_missing_from_catalogue(void)
{
	char err[256];
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	if (!cat) {
		fprintf(stderr, "catalogue: %s\n", err);
		return SIZE_MAX;
	}
	size_t missing = 0;
	for (int h = WL_RULE_NONE + 1; h < WL_RULES_END; h++) {
		const wl_rule_def *r = wl_catalog_rule(cat, (wl_rule_id)h);
		if (!r || strcmp(r->id, wl_rule_name((wl_rule_id)h)) != 0) {
			fprintf(stderr, "handle of %s: not its catalogue rule\n", wl_rule_name((wl_rule_id)h));
			missing++;
		}
	}
	for (size_t i = 0; i < wl_catalog_count(cat); i++)
		if (wl_rule_lookup(wl_catalog_at(cat, i)->id) == WL_RULE_NONE) {
			fprintf(stderr, "rule %s has no handle\n", wl_catalog_at(cat, i)->id);
			missing++;
		}
	wl_catalog_free(cat);
	return missing;
}

const wl_finding *t_anim_lint_find(const wb *b, wl_doc **out, const char *rule)
{
	*out = t_anim_lint(b);
	ck_assert_ptr_nonnull(*out);
	return t_anim_find(*out, rule);
}

void t_anim_done(wl_doc *d, wb *b)
{
	wl_doc_free(d);
	t_w3d_free(b);
}
