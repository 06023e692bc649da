/* tests/core/b3d/test_size_wrong.c - B3D sizes the chunk reader corrects from the
 * bytes (issue 17 item 1, "a mislabelled size is repaired, not amputated";
 * core/chunk.c, chunk-size-wrong): a data chunk whose records are whole
 * only at its parent's end, fewer than a header's bytes after its declared
 * end, and an unknown chunk whose declared end falls inside a valid
 * sibling's header (or fewer than a header's bytes before one).  Each: the
 * reader's view, w3dfix --unsafe's output (the undamaged file, byte for
 * byte), and near misses that must not be corrected. */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/b3d/model.h"
#include "fix/driver.h"
#include "tests/build/b3dbuild.h"
#include "tests/build/fix_util.h"
#include "tests/build/reader_util.h"

extern Suite *b3d_size_wrong_suite(void);

/* The unit quad: 4 vertices (no normals, no UVs) and 2 triangles. */
static const float QUAD[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
static const int32_t QUAD_IDX[] = { 0, 1, 2, 0, 2, 3 };

/* The document and model of b's bytes read as B3D. */
static wl_doc *b3d_doc(const wb *b)
{
	wl_doc *d = t_read_fmt(wl_format_find("b3d"), b->data, b->len);
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(b3d_model_build(d));
	return d;
}

/* Findings of rule when b's bytes are linted (the catalogue's severities). */
static size_t lint_count(const wb *b, const char *rule)
{
	wl_doc *d = wl_lint_bytes(t_cat, NULL, "t.b3d", b->data, b->len);
	ck_assert_ptr_nonnull(d);
	size_t k = t_count(d, rule);
	wl_doc_free(d);
	return k;
}

/* The size field of the chunk whose header is at `at`, changed by delta. */
static void resize(wb *b, size_t at, int32_t delta)
{
	t_w3d_patch_u32(b, at + 4, t_le32(b->data + at + 4) + (uint32_t)delta);
}

/*
 * BB3D { NODE "root" { MESH { VRTS (the quad), TRIS (2 triangles, then
 * `slack` zero bytes) }, then `stray` zero bytes in the MESH; KEYS (2
 * position keys) } }: the TRIS is the last chunk of its MESH, the KEYS the
 * last of its NODE.  Their header offsets go to *tris_at and *keys_at.
 */
static void keyed_quad(wb *b, size_t slack, size_t stray, size_t *tris_at, size_t *keys_at)
{
	static const int32_t frame[] = { 1, 2 };
	static const float pos[] = { 0, 0, 0, 1, 2, 3 };
	t_b3d_quad_open(b, slack, NULL, tris_at);
	t_w3d_zeros(b, stray);
	t_b3d_end(b);
	*keys_at = b->len;
	t_b3d_keys(b, 1, frame, pos, 2);
	t_b3d_end(b);
	t_b3d_end(b);
}

/* Issue 17 (salvage over every B3D file: a TRIS size -1 or -4 when the
 * TRIS is the last chunk of its MESH): _i = 0: TRIS -1, 1: TRIS -4, 2: KEYS
 * -1 (the last of its NODE).  The bytes left before the parent's end are
 * too few for a chunk header, and the records are whole only at the
 * parent's end: the size is corrected to reach it (main read the short
 * size, so b3d-record-slack and stray-bytes, and --unsafe trimmed the
 * last, intact triangle or key). */
START_TEST(test_short_last_record)
{
	static const int32_t delta[] = { -1, -4, -1 };
	wb good, bad;
	size_t tris_at, keys_at;
	t_w3d_init(&good);
	t_w3d_init(&bad);
	keyed_quad(&good, 0, 0, &tris_at, &keys_at);
	keyed_quad(&bad, 0, 0, &tris_at, &keys_at);
	size_t at = _i < 2 ? tris_at : keys_at;
	resize(&bad, at, delta[_i]);
	wl_doc *d = b3d_doc(&bad);
	ck_assert_uint_eq(t_count(d, "chunk-size-wrong"), 1);
	ck_assert_uint_eq(t_find(d, "chunk-size-wrong")->offset, at + 4);
	ck_assert_ptr_nonnull(strstr(t_find(d, "chunk-size-wrong")->message, "whole only at the end of"));
	ck_assert_uint_eq(t_count(d, "stray-bytes") + t_count(d, "b3d-record-slack"), 0);
	const b3d_model *m = d->model;
	ck_assert_uint_eq(m->meshes[0]->tris[0]->tris.count, 2);
	ck_assert_uint_eq(m->keys_count, 1);
	ck_assert_ptr_null(t_tiling_error(d));
	t_free(d);
	t_fix_expect_fix("t.b3d", &bad, &good, true);
	t_w3d_free(&bad);
	t_w3d_free(&good);
}
END_TEST

/* Near misses, not corrected: _i = 0: a whole TRIS followed by 4 stray
 * bytes in its MESH (its records are whole at its declared end); 1: a TRIS
 * with 5 bytes of slack followed by 1 stray byte (its records are not
 * whole at the MESH's end either); 2: a TRIS -4 whose MESH holds 8 bytes
 * after it (enough for a chunk header: not the sliver this rule takes). */
START_TEST(test_short_last_record_near_miss)
{
	static const size_t slack[] = { 0, 5, 0 }, stray[] = { 4, 1, 4 };
	static const size_t want_slack[] = { 0, 1, 1 };
	wb b;
	size_t tris_at, keys_at;
	t_w3d_init(&b);
	keyed_quad(&b, slack[_i], stray[_i], &tris_at, &keys_at);
	if (_i == 2)
		resize(&b, tris_at, -4);
	wl_doc *d = b3d_doc(&b);
	ck_assert_uint_eq(t_count(d, "chunk-size-wrong"), 0);
	ck_assert_uint_eq(t_count(d, "b3d-record-slack"), want_slack[_i]);
	ck_assert_uint_eq(t_count(d, "stray-bytes") + t_count(d, "chunk-unknown"), 1);
	t_free(d);
	t_w3d_free(&b);
}
END_TEST

/*
 * BB3D { an unknown chunk `tag` (12 bytes), BRUS (one brush, no texture),
 * NODE "root" { the quad MESH } }; the unknown chunk's header offset goes
 * to *unknown_at, the BRUS's to *brus_at.
 */
static void unknown_then_brus(wb *b, const char tag[4], size_t *unknown_at, size_t *brus_at)
{
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
	*unknown_at = b->len;
	t_b3d_begin(b, tag);
	t_w3d_bytes(b, "abcdefghijk", 12);
	t_b3d_end(b);
	*brus_at = b->len;
	t_b3d_begin(b, "BRUS");
	t_w3d_u32(b, 0);
	t_b3d_brush(b, "skin", NULL, 0);
	t_b3d_end(b);
	t_b3d_node_begin(b, "root", t_b3d_identity);
	t_b3d_begin(b, "MESH");
	t_w3d_u32(b, (uint32_t)-1);
	t_b3d_vrts(b, 0, 0, 0, QUAD, 4);
	t_b3d_tris(b, -1, QUAD_IDX, 2);
	t_b3d_end(b);
	t_b3d_end(b);
	t_b3d_end(b);
}

/* Issue 17 (salvage over every B3D file: an unknown chunk's size +1 where
 * BRUS follows): the unknown chunk's size changed by +1 .. +7 (_i 0..6: its
 * declared end falls inside the BRUS header) or -1 .. -7 (_i 7..13: too
 * few bytes for a chunk before the BRUS) is corrected to end where the
 * BRUS starts (main: +k resynced after the BRUS's first byte and lost it;
 * -k left the unknown chunk's last bytes as a resync gap, which --unsafe
 * removed). */
START_TEST(test_unknown_size_at_sibling)
{
	const int32_t delta = _i < 7 ? _i + 1 : -(_i - 6);
	wb good, bad;
	size_t unknown_at, brus_at;
	t_w3d_init(&good);
	t_w3d_init(&bad);
	unknown_then_brus(&good, "XXXX", &unknown_at, &brus_at);
	unknown_then_brus(&bad, "XXXX", &unknown_at, &brus_at);
	resize(&bad, unknown_at, delta);
	wl_doc *d = b3d_doc(&bad);
	ck_assert_uint_eq(t_count(d, "chunk-size-wrong"), 1);
	ck_assert_uint_eq(t_find(d, "chunk-size-wrong")->offset, unknown_at + 4);
	ck_assert_uint_eq(t_count(d, "chunk-resync") + t_count(d, "stray-bytes"), 0);
	ck_assert_uint_eq(t_count(d, "chunk-unknown"), 1);
	const b3d_model *m = d->model;
	ck_assert_uint_eq(m->brush_count, 1);
	ck_assert_uint_eq(m->brus->offset, brus_at);
	ck_assert_uint_eq(m->mesh_count, 1);
	t_free(d);
	t_fix_expect_fix("t.b3d", &bad, &good, true);
	t_w3d_free(&bad);
	t_w3d_free(&good);
}
END_TEST

/* Near misses, not corrected: _i = 0: the unknown chunk +4 over a BRUS
 * whose own size runs past BB3D (not a valid sibling: nothing tiles the
 * rest); 1: an unknown chunk +4 over another unknown chunk (YYYY, not a
 * tag BB3D knows) that does tile the rest. */
START_TEST(test_unknown_size_at_sibling_near_miss)
{
	wb b;
	size_t unknown_at, brus_at;
	t_w3d_init(&b);
	unknown_then_brus(&b, "XXXX", &unknown_at, &brus_at);
	if (_i == 0)
		resize(&b, brus_at, 4096);
	else
		memcpy(b.data + brus_at, "YYYY", 4);
	resize(&b, unknown_at, 4);
	wl_doc *d = b3d_doc(&b);
	ck_assert_uint_eq(t_count(d, "chunk-size-wrong"), 0);
	ck_assert_uint_ge(t_count(d, "chunk-resync"), 1);
	ck_assert_ptr_null(t_tiling_error(d));
	t_free(d);
	t_w3d_free(&b);
}
END_TEST

/*
 * BB3D { NODE "root" { the quad MESH, NODE "bone" { KEYS (2 position keys,
 * frames 1 and 2) }, then, when root_keys, a KEYS of root (the same
 * frames) } }: the bone's KEYS is its last child.  The offsets of the bone
 * NODE's header and of root's KEYS go to *bone_at and *root_keys_at.
 */
static void boned_quad(wb *b, bool root_keys, size_t *bone_at, size_t *root_keys_at)
{
	static const int32_t frame[] = { 1, 2 };
	static const float pos[] = { 0, 0, 0, 1, 2, 3 };
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
	t_b3d_node_begin(b, "root", t_b3d_identity);
	t_b3d_quad_mesh(b, -1, 0, NULL);
	*bone_at = b->len;
	t_b3d_node_begin(b, "bone", t_b3d_identity);
	t_b3d_keys(b, 1, frame, pos, 2);
	t_b3d_end(b);
	*root_keys_at = b->len;
	if (root_keys)
		t_b3d_keys(b, 1, frame, pos, 2);
	t_b3d_end(b);
	t_b3d_end(b);
}

/* The model's KEYS chunks that belong to the NODE named name. */
static size_t keys_of(const b3d_model *m, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < m->keys_count; i++)
		n += m->keys[i]->node && strcmp(m->keys[i]->node->name, name) == 0;
	return n;
}

/* Issue 29 (mobs_sheep.b3d NODE -4 or -12: the safe drop-repeated-keys
 * deleted a bone's keys): _i = 0: the bone NODE's size -4, 1: -12.  Its
 * last child, the KEYS, now runs 4 or 12 bytes past the NODE's declared
 * end, where root's next child starts.  The engines read a chunk that
 * starts inside a NODE as its child (Irrlicht: 185 keys read from the
 * damaged sheep), so the NODE's size is wrong, not its KEYS's place: main
 * ended the bone before its KEYS, which became a second KEYS of root
 * repeating its frames, and the safe fix dropped them. */
START_TEST(test_node_shrunk_over_last_child)
{
	static const int32_t delta[] = { -4, -12 };
	wb good, bad;
	size_t bone_at, root_keys_at;
	t_w3d_init(&good);
	t_w3d_init(&bad);
	boned_quad(&good, true, &bone_at, &root_keys_at);
	boned_quad(&bad, true, &bone_at, &root_keys_at);
	resize(&bad, bone_at, delta[_i]);
	wl_doc *d = b3d_doc(&bad);
	ck_assert_uint_eq(t_count(d, "chunk-size-wrong"), 1);
	ck_assert_uint_eq(t_find(d, "chunk-size-wrong")->offset, bone_at + 4);
	ck_assert_ptr_nonnull(strstr(t_find(d, "chunk-size-wrong")->message, "last child"));
	ck_assert_uint_eq(lint_count(&bad, "b3d-keys-duplicate-frame"), 0);
	const b3d_model *m = d->model;
	ck_assert_uint_eq(m->keys_count, 2);
	ck_assert_uint_eq(keys_of(m, "bone"), 1);
	ck_assert_uint_eq(keys_of(m, "root"), 1);
	ck_assert_ptr_null(t_tiling_error(d));
	t_free(d);
	t_fix_expect_fix("t.b3d", &bad, NULL, false);
	t_fix_expect_fix("t.b3d", &bad, &good, true);
	t_w3d_free(&bad);
	t_w3d_free(&good);
}
END_TEST

/* Near miss: the bone NODE's size +4 reaches 4 bytes into root's KEYS,
 * which ends far past it (40 bytes): the NODE's size grew, root's KEYS
 * stays root's (the bone is read to its children's end). */
START_TEST(test_node_grown_over_sibling)
{
	wb b;
	size_t bone_at, root_keys_at;
	t_w3d_init(&b);
	boned_quad(&b, true, &bone_at, &root_keys_at);
	resize(&b, bone_at, 4);
	wl_doc *d = b3d_doc(&b);
	ck_assert_uint_eq(t_count(d, "chunk-size-wrong"), 1);
	ck_assert_ptr_null(strstr(t_find(d, "chunk-size-wrong")->message, "last child"));
	const b3d_model *m = d->model;
	ck_assert_uint_eq(keys_of(m, "bone"), 1);
	ck_assert_uint_eq(keys_of(m, "root"), 1);
	t_free(d);
	t_w3d_free(&b);
}
END_TEST

/* An ANIM followed by an exporter's own tagged chunk (SEQS, as SCP-CB's
 * models hold) and a bone NODE whose first child is another (PIVO); *anim_at:
 * the ANIM's header. */
static void anim_seqs(wb *b, size_t *anim_at)
{
	t_w3d_init(b);
	t_b3d_begin(b, "BB3D");
	t_w3d_u32(b, 1);
	t_b3d_node_begin(b, "root", t_b3d_identity);
	t_b3d_quad_mesh(b, -1, 0, NULL);
	*anim_at = b->len;
	t_b3d_anim(b, 0, 10, 25);
	t_b3d_begin(b, "SEQS");
	t_b3d_str(b, "Animation");
	t_w3d_u32(b, 1);
	t_w3d_u32(b, 1);
	t_w3d_u32(b, 0);
	t_b3d_end(b);
	t_b3d_node_begin(b, "Skeleton", t_b3d_identity);
	t_b3d_begin(b, "PIVO");
	t_b3d_end(b);
	t_b3d_end(b);
	t_b3d_end(b);
	t_b3d_end(b);
}

/* Issue 29 (scpcb 173_2.b3d with its ANIM's size +8): the ANIM's declared
 * end falls inside the SEQS after it, and the bone NODE after that begins
 * with a PIVO.  Neither tag is a chunk B3D defines, but each fits and every
 * reader skips it: the ANIM ends where the SEQS starts (main read it to the
 * NODE, the SEQS went as record slack, and earlier the SEQS and the NODE as
 * stray bytes).  --unsafe gives back the undamaged file.  Near miss: the
 * undamaged file has no chunk-size-wrong. */
START_TEST(test_size_before_tagged_chunk)
{
	wb b, d;
	size_t anim_at;
	anim_seqs(&b, &anim_at);
	ck_assert_uint_eq(lint_count(&b, "chunk-size-wrong"), 0);
	anim_seqs(&d, &anim_at);
	resize(&d, anim_at, 8);
	wl_doc *doc = b3d_doc(&d);
	ck_assert_uint_eq(t_count(doc, "chunk-size-wrong"), 1);
	ck_assert_uint_eq(t_find(doc, "chunk-size-wrong")->offset, anim_at + 4);
	ck_assert_uint_eq(t_count(doc, "stray-bytes"), 0);
	t_free(doc);
	t_fix_expect_fix("t.b3d", &d, &b, true);
	t_w3d_free(&d);
	t_w3d_free(&b);
}
END_TEST

/* Issue 29 (mobs_rat.b3d: an unknown chunk's size 39 -> 1039 made
 * --unsafe drop the whole model as stray bytes): the unknown chunk's size
 * grown by more than a header, its declared end inside the BRUS's payload
 * (_i = 0: +12), the NODE's header (1: +49) or the NODE's MESH (2: +100).
 * A chain of valid chunks starts inside it, at the BRUS, and runs across
 * its declared end to BB3D's end: the unknown chunk is read up to the
 * BRUS (main took the BRUS and part of the NODE into it, the rest was
 * stray bytes). */
START_TEST(test_unknown_grown_over_chain)
{
	static const int32_t delta[] = { 12, 49, 100 };
	wb good, bad;
	size_t unknown_at, brus_at;
	t_w3d_init(&good);
	t_w3d_init(&bad);
	unknown_then_brus(&good, "XXXX", &unknown_at, &brus_at);
	unknown_then_brus(&bad, "XXXX", &unknown_at, &brus_at);
	resize(&bad, unknown_at, delta[_i]);
	wl_doc *d = b3d_doc(&bad);
	ck_assert_uint_eq(t_count(d, "chunk-size-wrong"), 1);
	ck_assert_uint_eq(t_find(d, "chunk-size-wrong")->offset, unknown_at + 4);
	ck_assert_uint_eq(t_count(d, "chunk-resync") + t_count(d, "stray-bytes"), 0);
	const b3d_model *m = d->model;
	ck_assert_uint_eq(m->brush_count, 1);
	ck_assert_uint_eq(m->brus->offset, brus_at);
	ck_assert_uint_eq(m->mesh_count, 1);
	ck_assert_uint_eq(m->meshes[0]->tris[0]->tris.count, 2);
	ck_assert_ptr_null(t_tiling_error(d));
	t_free(d);
	t_fix_expect_fix("t.b3d", &bad, &good, true);
	t_w3d_free(&bad);
	t_w3d_free(&good);
}
END_TEST

/* Near misses, not corrected: an unknown chunk that holds a BRUS of its own
 * (a chain of known chunks inside it that ends at its declared end, not
 * across it), followed by the BRUS and the NODE: _i = 0 as built, 1 with
 * the BRUS's tag changed to an unknown one (no valid chunk at the unknown
 * chunk's declared end, and none inside it that runs across it). */
START_TEST(test_unknown_holding_chunks_near_miss)
{
	wb b;
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	t_b3d_begin(&b, "XXXX");
	t_b3d_begin(&b, "BRUS");
	t_w3d_u32(&b, 0);
	t_b3d_brush(&b, "inner", NULL, 0);
	t_b3d_end(&b);
	t_b3d_end(&b);
	size_t brus_at = b.len;
	t_b3d_begin(&b, "BRUS");
	t_w3d_u32(&b, 0);
	t_b3d_brush(&b, "skin", NULL, 0);
	t_b3d_end(&b);
	t_b3d_node_begin(&b, "root", t_b3d_identity);
	t_b3d_quad_mesh(&b, -1, 0, NULL);
	t_b3d_end(&b);
	t_b3d_end(&b);
	if (_i == 1)
		memcpy(b.data + brus_at, "ZZZZ", 4);
	wl_doc *d = b3d_doc(&b);
	ck_assert_uint_eq(t_count(d, "chunk-size-wrong"), 0);
	ck_assert_uint_eq(t_count(d, "chunk-unknown"), 1 + (unsigned)_i);
	ck_assert_uint_eq(t_count(d, "stray-bytes") + t_count(d, "chunk-resync"), 0);
	t_free(d);
	t_w3d_free(&b);
}
END_TEST

/* Issue 29, the fixer's side: root holds a KEYS, the bone NODE, then a
 * KEYS at the same frames (a real repeat).  With the bone's size wrong (-4
 * over its last KEYS, _i = 0; +4 into root's next KEYS, _i = 1), which
 * NODE a KEYS belongs to rests on the reader's judgement of that size, so
 * drop-repeated-keys (unsafe) drops nothing (b3d-keys-duplicate-frame
 * stays reported).  Near miss: with no size damaged the repeat is dropped.
 * The last KEYS holds a third key, not a repeat, so that dropping the
 * repeats leaves it one (an emptied KEYS is never written). */
START_TEST(test_repeats_kept_beside_judged_size)
{
	static const int32_t frame[] = { 1, 2 }, frame3[] = { 1, 2, 3 };
	static const float pos[] = { 0, 0, 0, 1, 2, 3 }, pos3[] = { 0, 0, 0, 1, 2, 3, 4, 5, 6 };
	wb b;
	t_w3d_init(&b);
	t_b3d_begin(&b, "BB3D");
	t_w3d_u32(&b, 1);
	t_b3d_node_begin(&b, "root", t_b3d_identity);
	t_b3d_quad_mesh(&b, -1, 0, NULL);
	t_b3d_keys(&b, 1, frame, pos, 2);
	size_t bone_at = b.len;
	t_b3d_node_begin(&b, "bone", t_b3d_identity);
	t_b3d_keys(&b, 1, frame, pos, 2);
	t_b3d_end(&b);
	t_b3d_keys(&b, 1, frame3, pos3, 3);
	t_b3d_end(&b);
	t_b3d_end(&b);
	ck_assert_uint_eq(lint_count(&b, "b3d-keys-duplicate-frame"), 2);
	wl_fix_options o = { 0 };
	o.catalog = t_cat;
	o.unsafe = true;
	wl_fix_result r;
	ck_assert_int_eq(wl_fix_run(&o, "t.b3d", b.data, b.len, &r), 0);
	ck_assert(r.changed && r.verified);
	wl_fix_result_free(&r);
	resize(&b, bone_at, _i == 0 ? -4 : 4);
	ck_assert_uint_eq(lint_count(&b, "chunk-size-wrong"), 1);
	ck_assert_uint_eq(lint_count(&b, "b3d-keys-duplicate-frame"), 2);
	/* the safe fixers and drop-repeated-keys (asked for by name): no edit */
	static const char *const only[] = { "drop-repeated-keys" };
	o.unsafe = false;
	o.force = only;
	o.force_count = 1;
	ck_assert_int_eq(wl_fix_run(&o, "t.b3d", b.data, b.len, &r), 0);
	ck_assert(!r.changed);
	wl_fix_result_free(&r);
	t_w3d_free(&b);
}
END_TEST

Suite *b3d_size_wrong_suite(void)
{
	Suite *s = suite_create("b3d_size_wrong");
	TCase *tc = tcase_create("b3d_size_wrong");
	tcase_add_checked_fixture(tc, t_cat_setup, t_cat_teardown);
	tcase_add_loop_test(tc, test_short_last_record, 0, 3);
	tcase_add_loop_test(tc, test_short_last_record_near_miss, 0, 3);
	tcase_add_loop_test(tc, test_unknown_size_at_sibling, 0, 14);
	tcase_add_loop_test(tc, test_unknown_size_at_sibling_near_miss, 0, 2);
	tcase_add_loop_test(tc, test_node_shrunk_over_last_child, 0, 2);
	tcase_add_test(tc, test_node_grown_over_sibling);
	tcase_add_test(tc, test_size_before_tagged_chunk);
	tcase_add_loop_test(tc, test_repeats_kept_beside_judged_size, 0, 2);
	tcase_add_loop_test(tc, test_unknown_grown_over_chain, 0, 3);
	tcase_add_loop_test(tc, test_unknown_holding_chunks_near_miss, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
