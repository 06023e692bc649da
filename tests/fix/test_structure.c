/* tests/fix/test_structure.c - tests of the structural and count fixers
 * (fix/fix_structure.c, fix/w3d/fix_counts.c) through the driver
 * (fix/driver.h): before/after, verification, idempotence. */
#include <check.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/model.h"
#include "fix/driver.h"
#include "tests/build/build_anim.h"
#include "tests/build/build_mesh.h"
#include "tests/build/reader_util.h"
#include "tests/build/robust_util.h"

extern Suite *fix_structure_suite(void);

static wl_catalog *CAT;
static wb B; /* the input file of each test, reset by reset() */

static void setup(void)
{
	char err[256];
	CAT = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(CAT != NULL, "%s", err);
	t_w3d_init(&B);
}

static void teardown(void)
{
	wl_catalog_free(CAT);
	CAT = NULL;
	t_w3d_free(&B);
}

/* Empties B for the next input file. */
static void reset(void)
{
	t_w3d_free(&B);
	t_w3d_init(&B);
}

static wl_fix_options options(bool unsafe)
{
	wl_fix_options o = { 0 };
	o.catalog = CAT;
	o.unsafe = unsafe;
	return o;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Runs the fixers on b; asserts success. */
static void fix(const wl_fix_options *o, const wb *b, wl_fix_result *r)
{
	ck_assert_int_eq(wl_fix_run(o, "t.w3d", b->data, b->len, r), 0);
}

static size_t changes_of(const wl_fix_result *r, const char *rule)
{
	size_t n = 0;
	for (size_t i = 0; i < r->change_count; i++)
		n += r->changes[i].rule && strcmp(r->changes[i].rule, rule) == 0;
	return n;
}

/* Lints out and counts the findings of rule. */
static size_t findings_after(const wl_fix_result *r, const char *rule)
{
	wl_doc *d = wl_lint_bytes(CAT, NULL, "t.w3d", r->out, r->out_len);
	ck_assert_ptr_nonnull(d);
	size_t n = 0;
	for (size_t i = 0; i < d->findings.count; i++)
		n += strcmp(d->findings.items[i].rule, rule) == 0;
	wl_doc_free(d);
	return n;
}

/* The fixers make no edit on their own output. */
static void assert_idempotent(const wl_fix_options *o, const wl_fix_result *r)
{
	wl_fix_result again;
	ck_assert_int_eq(wl_fix_run(o, "t.w3d", r->out, r->out_len, &again), 0);
	ck_assert(!again.changed);
	ck_assert_uint_eq(again.change_count, 0);
	wl_fix_result_free(&again);
}

/* Runs the fixers on b; asserts a changed, verified file with exactly one
 * change of rule. */
static void fix_one(const wl_fix_options *o, const wb *b, const char *rule, wl_fix_result *r)
{
	fix(o, b, r);
	ck_assert(r->changed);
	ck_assert_msg(r->verified, "%s", r->problem_count ? r->problems[0] : "");
	ck_assert_uint_eq(changes_of(r, rule), 1);
}

/* The output has no finding of rule and the fixers make no edit on it;
 * frees r. */
static void fixed_for_good(const wl_fix_options *o, wl_fix_result *r, const char *rule)
{
	ck_assert_uint_eq(findings_after(r, rule), 0);
	assert_idempotent(o, r);
	wl_fix_result_free(r);
}

/* Appends the valid hierarchy t_anim_hier_defaults(pivots). */
static void hierarchy(wb *b, unsigned pivots, t_anim_hier_at *at)
{
	t_anim_hier_opts hi = t_anim_hier_defaults(pivots);
	t_anim_hierarchy(b, &hi, at);
}

static size_t sub_objects(const uint8_t *p, size_t n)
{
	wl_doc *d = wl_lint_bytes(CAT, NULL, "t.w3d", p, n);
	const w3d_model *m = d->model;
	size_t k = 0;
	for (size_t i = 0; i < m->hlod_count; i++)
		k += w3d_hlod_sub_object_count(m->hlods[i]);
	wl_doc_free(d);
	return k;
}

/* Appends RotWK shape 1 to B: an HLOD of 7 sub-objects whose size is 88
 * bytes (2 sub-objects) short; *ho is its options. */
static void short_hlod(t_anim_hlod_opts *ho, t_anim_hlod_at *at)
{
	*ho = t_anim_hlod_defaults(1, 7);
	ho->size_delta = -2 * 44;
	t_anim_hlod(&B, ho, at);
}

START_TEST(hlod_size_too_small)
{
	/* RotWK shape 1: the HLOD's size is 88 bytes short, its last
	 * sub-objects sit after it; a hierarchy follows. */
	t_anim_hlod_at at;
	t_anim_hlod_opts ho;
	short_hlod(&ho, &at);
	t_anim_hier_at hat;
	hierarchy(&B, 2, &hat);
	wl_fix_options o = options(false);
	wl_fix_result r;
	fix_one(&o, &B, "container-size-too-small", &r);
	ck_assert_uint_eq(r.changes[0].offset, at.object + 4);
	ck_assert_str_eq(r.changes[0].scope, "HLOD[TANK]");
	/* only the HLOD size field changed: +88 */
	ck_assert_uint_eq(r.out_len, B.len);
	ck_assert_uint_eq(le32(r.out + at.object + 4), le32(B.data + at.object + 4) + 88);
	ck_assert_mem_eq(r.out, B.data, at.object + 4);
	ck_assert_mem_eq(r.out + at.object + 8, B.data + at.object + 8, B.len - at.object - 8);
	ck_assert_uint_eq(sub_objects(r.out, r.out_len), 7);
	fixed_for_good(&o, &r, "container-size-too-small");
	/* near miss: the same file without the defect is left alone */
	reset();
	ho.size_delta = 0;
	t_anim_hlod(&B, &ho, &at);
	hierarchy(&B, 2, &hat);
	fix(&o, &B, &r);
	ck_assert(!r.changed);
	ck_assert_ptr_null(r.out);
	wl_fix_result_free(&r);
}
END_TEST

START_TEST(hlod_size_past_eof)
{
	/* RotWK shape 2: the HLOD's size runs 924 bytes past the end */
	t_anim_hlod_at at;
	t_anim_hlod_opts ho = t_anim_hlod_defaults(1, 8);
	ho.size_delta = 924;
	t_anim_hlod(&B, &ho, &at);
	wl_fix_options o = options(false);
	wl_fix_result r;
	fix_one(&o, &B, "container-size-at-eof", &r); /* nothing follows the HLOD */
	ck_assert_uint_eq(r.changes[0].offset, at.object + 4);
	ck_assert_uint_eq(le32(r.out + at.object + 4), le32(B.data + at.object + 4) - 924);
	ck_assert_mem_eq(r.out + at.object + 8, B.data + at.object + 8, B.len - at.object - 8);
	ck_assert_uint_eq(sub_objects(r.out, r.out_len), 8);
	fixed_for_good(&o, &r, "container-size-at-eof");
	/* --ignore of the rule (or the fixer) leaves it */
	const char *ign[] = { "container-size-at-*" };
	o.filter.ignore = ign;
	o.filter.ignore_count = 1;
	fix(&o, &B, &r);
	ck_assert(!r.changed);
	wl_fix_result_free(&r);
}
END_TEST

/* The severity of rule's one finding in b linted with the builtin catalogue
 * (no target given: the catalogue default); -1 when it has none. */
static int severity_of(const wb *b, const char *rule)
{
	wl_doc *d = wl_lint_bytes(CAT, NULL, "t.w3d", b->data, b->len);
	ck_assert_ptr_nonnull(d);
	int sev = -1;
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(d->findings.items[i].rule, rule) == 0) {
			ck_assert_int_eq(sev, -1); /* one finding */
			sev = (int)d->findings.items[i].severity;
		}
	wl_doc_free(d);
	return sev;
}

START_TEST(hlod_size_at_eof)
{
	/* RotWK as shipped: the HLOD's size is 88 bytes short and nothing
	 * follows it; the retail Open_Chunk ends it at the failed header read
	 * at the end of the file, so it loads whole: a warning, not an error,
	 * repaired by the same container-sizes edit. */
	t_anim_hlod_at at;
	t_anim_hlod_opts ho;
	short_hlod(&ho, &at);
	ck_assert_int_eq(severity_of(&B, "container-size-at-eof"), WL_SEV_WARNING);
	ck_assert_int_eq(severity_of(&B, "container-size-too-small"), -1);
	wl_fix_options o = options(false);
	wl_fix_result r;
	fix_one(&o, &B, "container-size-at-eof", &r);
	ck_assert_uint_eq(r.changes[0].offset, at.object + 4);
	ck_assert_uint_eq(r.out_len, B.len);
	ck_assert_uint_eq(le32(r.out + at.object + 4), le32(B.data + at.object + 4) + 88);
	ck_assert_uint_eq(sub_objects(r.out, r.out_len), 7);
	fixed_for_good(&o, &r, "container-size-at-eof");
	/* near miss: the same HLOD followed by a hierarchy, which the game
	 * would read as the HLOD's child: the error stays */
	t_anim_hier_at hat;
	hierarchy(&B, 2, &hat);
	ck_assert_int_eq(severity_of(&B, "container-size-too-small"), WL_SEV_ERROR);
	ck_assert_int_eq(severity_of(&B, "container-size-at-eof"), -1);
	/* a size past the end of the file: a warning alone, an error when a
	 * chunk follows the HLOD's content */
	reset();
	ho.size_delta = 924;
	t_anim_hlod(&B, &ho, &at);
	ck_assert_int_eq(severity_of(&B, "container-size-at-eof"), WL_SEV_WARNING);
	ck_assert_int_eq(severity_of(&B, "chunk-size-past-eof"), -1);
	hierarchy(&B, 2, &hat);
	ck_assert_int_eq(severity_of(&B, "chunk-size-past-eof"), WL_SEV_ERROR);
	ck_assert_int_eq(severity_of(&B, "container-size-at-eof"), -1);
}
END_TEST

START_TEST(trailing_and_stray)
{
	t_anim_hier_at hat;
	hierarchy(&B, 2, &hat);
	size_t clean = B.len;
	t_w3d_zeros(&B, 5);
	wl_fix_options o = options(false);
	wl_fix_result r;
	fix_one(&o, &B, "trailing-bytes", &r);
	ck_assert_uint_eq(r.changes[0].offset, clean);
	ck_assert_uint_eq(r.out_len, clean);
	ck_assert_mem_eq(r.out, B.data, clean);
	assert_idempotent(&o, &r);
	wl_fix_result_free(&r);
	reset();

	/* stray bytes inside the hierarchy: unsafe, so only with unsafe */
	t_w3d_begin(&B, W3D_CHUNK_HIERARCHY);
	hierarchy(&B, 2, &hat); /* any chunk as the first child */
	t_w3d_zeros(&B, 3); /* too few for a header: stray-bytes */
	t_w3d_end(&B);
	wl_doc *d = t_read(B.data, B.len);
	ck_assert_uint_eq(t_count(d, "stray-bytes"), 1);
	t_free(d);
	fix(&o, &B, &r);
	ck_assert_uint_eq(changes_of(&r, "stray-bytes"), 0);
	wl_fix_result_free(&r);
	wl_fix_options u = options(true);
	fix(&u, &B, &r);
	ck_assert_uint_eq(changes_of(&r, "stray-bytes"), 1);
	ck_assert_uint_eq(r.out_len, B.len - 3);
	ck_assert_uint_eq(findings_after(&r, "stray-bytes"), 0);
	wl_fix_result_free(&r);
}
END_TEST

START_TEST(pivot_count)
{
	t_anim_hier_at hat;
	hierarchy(&B, 3, &hat);
	t_w3d_patch_u32(&B, hat.header_payload + 20, 5);
	wl_fix_options o = options(false);
	wl_fix_result r;
	fix_one(&o, &B, "pivot-count-mismatch", &r);
	ck_assert_uint_eq(r.changes[0].offset, hat.header_payload + 20);
	ck_assert_str_eq(r.changes[0].what, "numpivots: 5 -> 3");
	ck_assert_uint_eq(le32(r.out + hat.header_payload + 20), 3);
	ck_assert_mem_eq(r.out, B.data, hat.header_payload + 20);
	fixed_for_good(&o, &r, "pivot-count-mismatch");
}
END_TEST

START_TEST(mesh_counts)
{
	/* NumVertices 4 -> 9 in the header, every per-vertex array holds 4 */
	t_mesh_opts mo = { 0 };
	t_mesh_layout lay;
	t_mesh_write_mesh(&B, &mo, &lay);
	t_w3d_patch_u32(&B, lay.header_data + 44, 9);
	wl_fix_options o = options(false);
	wl_fix_result r;
	fix_one(&o, &B, "mesh-vertex-count-mismatch", &r);
	ck_assert_uint_eq(le32(r.out + lay.header_data + 44), 4);
	fixed_for_good(&o, &r, "mesh-vertex-count-mismatch");
	reset();

	/* near miss: the arrays disagree (VERTICES holds 2 more): no edit */
	mo.extra_vertices = 2;
	t_mesh_write_mesh(&B, &mo, &lay);
	fix(&o, &B, &r);
	ck_assert_uint_eq(changes_of(&r, "mesh-vertex-count-mismatch"), 0);
	wl_fix_result_free(&r);
	reset();

	/* MATERIAL_INFO PassCount 1 -> 3 */
	mo.extra_vertices = 0;
	t_mesh_write_mesh(&B, &mo, &lay);
	t_w3d_patch_u32(&B, lay.matinfo_data, 3);
	fix_one(&o, &B, "material-pass-count-mismatch", &r);
	ck_assert_uint_eq(r.changes[0].offset, lay.matinfo_data);
	ck_assert_uint_eq(le32(r.out + lay.matinfo_data), 1);
	wl_fix_result_free(&r);
}
END_TEST

/* Writes a hierarchy, then a mesh (its layout into *lay), into B; returns
 * the hierarchy's length. */
static size_t hierarchy_then_mesh(t_mesh_layout *lay)
{
	t_anim_hier_at hat;
	hierarchy(&B, 2, &hat);
	size_t keep = B.len;
	t_mesh_opts mo = { 0 };
	t_mesh_write_mesh(&B, &mo, lay);
	return keep;
}

START_TEST(truncated_is_unsafe)
{
	/* a hierarchy, then a mesh cut short by the end of the file */
	t_mesh_layout lay;
	size_t keep = hierarchy_then_mesh(&lay);
	B.len -= 37; /* not at a chunk boundary: the content is cut */
	wl_fix_options o = options(false);
	wl_fix_result r;
	fix(&o, &B, &r);
	ck_assert_uint_eq(changes_of(&r, "chunk-truncated"), 0);
	wl_fix_result_free(&r);
	/* --unsafe salvages: the hierarchy as it was, the mesh with what it
	 * keeps (its cut chunk and the mesh itself resized), no error left */
	wl_fix_options u = options(true);
	fix(&u, &B, &r);
	ck_assert_msg(r.verified, "%s", r.problem_count ? r.problems[0] : "");
	ck_assert_uint_ge(changes_of(&r, "chunk-truncated"), 2);
	ck_assert_uint_gt(r.out_len, keep);
	ck_assert_uint_lt(r.out_len, B.len);
	ck_assert_mem_eq(r.out, B.data, keep);
	ck_assert_uint_eq(r.failing_after, 0);
	ck_assert_uint_eq(findings_after(&r, "chunk-truncated"), 0);
	assert_idempotent(&u, &r);
	wl_fix_result_free(&r);
}
END_TEST

/* Runs o on B into *r; asserts a verified output that is B's first keep
 * bytes (the cut object removed whole). */
static void fix_to_prefix(const wl_fix_options *o, size_t keep, wl_fix_result *r)
{
	fix(o, &B, r);
	ck_assert_msg(r->verified, "%s", r->problem_count ? r->problems[0] : "");
	ck_assert_uint_eq(r->out_len, keep);
	ck_assert_mem_eq(r->out, B.data, keep);
}

START_TEST(truncated_unloadable_goes_whole)
{
	/* the mesh cut in its VERTICES: what it keeps (a header, one vertex,
	 * no triangle) cannot load, so the second attempt removes it whole;
	 * the hierarchy stays */
	t_mesh_layout lay;
	size_t keep = hierarchy_then_mesh(&lay);
	B.len = keep + 8 + 8 + 116 + 8 + 20; /* MESH, MESH_HEADER3, 20 bytes of VERTICES */
	wl_fix_options u = options(true);
	wl_fix_result r;
	fix_to_prefix(&u, keep, &r);
	bool whole = false;
	for (size_t i = 0; i < r.change_count; i++)
		whole |= strstr(r.changes[i].what, "MESH: bytes 0x") && strstr(r.changes[i].what, "removed (what it keeps would not load)");
	ck_assert(whole);
	assert_idempotent(&u, &r);
	wl_fix_result_free(&r);
	/* with nothing whole before it, the mesh stays as salvaged, and its
	 * errors are reported as left */
	memmove(B.data, B.data + keep, B.len - keep);
	B.len -= keep;
	fix(&u, &B, &r);
	ck_assert_uint_gt(r.failing_after, 0);
	wl_fix_result_free(&r);
}
END_TEST

/* True when the output of r holds a chunk of type id (at any depth). */
static bool walk_has(const wl_chunk *c, uint32_t id)
{
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && (k->id == id || walk_has(k, id)))
			return true;
	return false;
}

static bool out_has_chunk(const wl_fix_result *r, uint32_t id)
{
	wl_doc *d = wl_lint_bytes(CAT, NULL, "t.w3d", r->out, r->out_len);
	ck_assert_ptr_nonnull(d);
	bool has = walk_has(&d->root, id);
	wl_doc_free(d);
	return has;
}

/* A change of rule whose text holds what. */
static bool change_says(const wl_fix_result *r, const char *rule, const char *what)
{
	for (size_t i = 0; i < r->change_count; i++)
		if (r->changes[i].rule && strcmp(r->changes[i].rule, rule) == 0 && strstr(r->changes[i].what, what))
			return true;
	return false;
}

/* The mesh alone, cut `into` bytes into the chunk at `at` (its header
 * included); --unsafe run on it into *r. */
static void cut_mesh_at(const t_mesh_opts *mo, size_t t_mesh_layout_member, size_t into, t_mesh_layout *lay,
			wl_fix_result *r)
{
	t_mesh_write_mesh(&B, mo, lay);
	B.len = *(const size_t *)((const char *)lay + t_mesh_layout_member) + into;
	wl_fix_options u = options(true);
	fix(&u, &B, r);
	ck_assert_msg(r->verified, "%s", r->problem_count ? r->problems[0] : "");
}

/* The salvaged mesh of r: NumVertices nv, NumTris nt, `errors` findings at
 * error left, and no edit on a second run; frees r and empties B. */
static void salvaged(wl_fix_result *r, const t_mesh_layout *lay, uint32_t nv, uint32_t nt, size_t errors)
{
	wl_fix_options u = options(true);
	ck_assert_uint_eq(le32(r->out + lay->header_data + 44), nv);
	ck_assert_uint_eq(le32(r->out + lay->header_data + 40), nt);
	ck_assert_uint_eq(r->failing_after, errors);
	assert_idempotent(&u, r);
	wl_fix_result_free(r);
	reset();
}

START_TEST(salvage_keeps_geometry_over_materials)
{
	/* cut in STAGE_TEXCOORDS (2 whole of 4): the texture coordinates go,
	 * not the vertices (the mesh loads without them; before, the mesh
	 * was cut to 2 vertices and lost both triangles) */
	t_mesh_opts mo = { 0 };
	t_mesh_layout lay;
	wl_fix_result r;
	cut_mesh_at(&mo, offsetof(t_mesh_layout, texcoords), 8 + 2 * 8 + 3, &lay, &r);
	ck_assert(!out_has_chunk(&r, W3D_CHUNK_STAGE_TEXCOORDS));
	ck_assert(out_has_chunk(&r, W3D_CHUNK_TEXTURE_IDS));
	ck_assert(change_says(&r, "mesh-vertex-count-mismatch", "STAGE_TEXCOORDS: 2 of 4 vertices: removed"));
	salvaged(&r, &lay, 4, 2, 0);

	/* per-vertex VERTEX_MATERIAL_IDS cut (2 whole of 4): removed, the
	 * pass gets the engine's default vertex material */
	mo.vmid_count = 4;
	cut_mesh_at(&mo, offsetof(t_mesh_layout, vmids), 8 + 2 * 4 + 1, &lay, &r);
	ck_assert(!out_has_chunk(&r, W3D_CHUNK_VERTEX_MATERIAL_IDS));
	ck_assert(change_says(&r, "material-id-array-length", "VERTEX_MATERIAL_IDS: 2 of 4 vertices: removed"));
	salvaged(&r, &lay, 4, 2, 0);

	/* per-triangle TEXTURE_IDS cut after its first id: one id would read
	 * as the texture of every triangle, so the ids go (and with them the
	 * stage and the pass they were part of), not kept as 4 bytes */
	cut_mesh_at(&mo, offsetof(t_mesh_layout, texids), 8 + 4 + 2, &lay, &r);
	ck_assert(!out_has_chunk(&r, W3D_CHUNK_TEXTURE_IDS));
	ck_assert(change_says(&r, "chunk-truncated", "TEXTURE_IDS: bytes"));
	ck_assert(change_says(&r, "chunk-truncated", "would read as one id for all"));
	salvaged(&r, &lay, 4, 2, 0);

	/* near miss: cut in VERTICES (2 whole of 4): geometry decides, the
	 * mesh keeps 2 vertices (and no triangle: both use vertex 2) */
	mo.vmid_count = 0;
	cut_mesh_at(&mo, offsetof(t_mesh_layout, vertices), 8 + 2 * 12 + 5, &lay, &r);
	ck_assert_uint_eq(le32(r.out + lay.header_data + 44), 2);
	ck_assert(change_says(&r, "chunk-truncated", "(2 whole 12-byte elements kept, bytes 0x"));
	wl_fix_result_free(&r);
	reset();
	/* the same cut on an element boundary: no partial element to drop */
	cut_mesh_at(&mo, offsetof(t_mesh_layout, vertices), 8 + 2 * 12, &lay, &r);
	ck_assert(change_says(&r, "chunk-truncated", "(2 whole 12-byte elements kept, the file ends after them)"));
	wl_fix_result_free(&r);
}
END_TEST

START_TEST(salvage_counts_agree)
{
	/* cut in VERTEX_NORMALS (2 whole of 4), before TRIANGLES: VERTICES
	 * and NumVertices follow the normals kept; NumTris stays, and the
	 * one error left is the reason the mesh cannot load (no TRIANGLES) */
	t_mesh_opts mo = { 0 };
	t_mesh_layout lay;
	wl_fix_result r;
	cut_mesh_at(&mo, offsetof(t_mesh_layout, normals), 8 + 2 * 12 + 7, &lay, &r);
	ck_assert_uint_eq(findings_after(&r, "mesh-vertex-count-mismatch"), 0);
	ck_assert_uint_eq(findings_after(&r, "chunk-truncated"), 0);
	ck_assert_uint_eq(findings_after(&r, "mesh-array-missing"), 1);
	salvaged(&r, &lay, 2, 2, 1);
}
END_TEST

START_TEST(salvage_past_eof_goes_whole)
{
	/* the file ends exactly where the mesh's TRIANGLES would start: what
	 * is left of the mesh reads as whole chunks (container-size-at-eof, not
	 * chunk-truncated), but it has no triangle, so it goes whole like a
	 * truncated mesh; the hierarchy stays */
	t_mesh_layout lay;
	size_t keep = hierarchy_then_mesh(&lay);
	B.len = lay.tris;
	wl_fix_options u = options(true);
	wl_fix_result r;
	fix_to_prefix(&u, keep, &r);
	ck_assert(change_says(&r, "container-size-at-eof", "removed (what it keeps would not load)"));
	assert_idempotent(&u, &r);
	wl_fix_result_free(&r);
	/* near miss: cut after the last chunk of the mesh but one (the mesh
	 * keeps its triangles and loads): only its size is set */
	reset();
	hierarchy_then_mesh(&lay);
	B.len = lay.pass[0];
	fix(&u, &B, &r);
	ck_assert_msg(r.verified, "%s", r.problem_count ? r.problems[0] : "");
	ck_assert_uint_eq(r.failing_after, 0);
	ck_assert_uint_eq(r.out_len, B.len);
	ck_assert(!change_says(&r, "container-size-at-eof", "removed"));
	wl_fix_result_free(&r);
}
END_TEST

Suite *fix_structure_suite(void)
{
	Suite *s = suite_create("fix_structure");
	const TTest *const t_tests[] = {
		hlod_size_too_small, hlod_size_past_eof, hlod_size_at_eof, trailing_and_stray, pivot_count,
		mesh_counts, truncated_is_unsafe, truncated_unloadable_goes_whole,
		salvage_keeps_geometry_over_materials, salvage_counts_agree, salvage_past_eof_goes_whole, NULL
	};
	TCase *t = t_robust_add_tests(s, "fix_structure", 0, t_tests);
	tcase_add_checked_fixture(t, setup, teardown);
	return s;
}
