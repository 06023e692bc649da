/* tests/core/test_schema.c - the W3D schema table, lookups, names and file extensions
 * (core/w3d/w3d_format.c). */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/w3d/w3d_format.h"

/* Linear search: the oracle for the binary search. */
static const wl_chunk_type *linear_lookup(uint16_t ctx, uint32_t id)
{
	size_t n;
	const wl_chunk_type *t = w3d_schema(&n);
	for (size_t i = 0; i < n; i++)
		if (t[i].ctx == ctx && t[i].id == id)
			return &t[i];
	return NULL;
}

START_TEST(test_schema_sorted_unique)
{
	size_t n = 0;
	const wl_chunk_type *t = w3d_schema(&n);
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_gt(n, 1);
	for (size_t i = 1; i < n; i++) {
		int ordered = t[i - 1].ctx < t[i].ctx ||
			      (t[i - 1].ctx == t[i].ctx && t[i - 1].id < t[i].id);
		ck_assert_msg(ordered, "schema rows %zu (%s, ctx %u) and %zu (%s, ctx %u) are not "
			      "strictly sorted by (ctx, id)", i - 1, t[i - 1].short_name,
			      (unsigned)t[i - 1].ctx, i, t[i].short_name, (unsigned)t[i].ctx);
	}
}
END_TEST

START_TEST(test_lookup_finds_every_entry)
{
	size_t n = 0;
	const wl_chunk_type *t = w3d_schema(&n);
	for (size_t i = 0; i < n; i++) {
		const wl_chunk_type *r = w3d_lookup(t[i].ctx, t[i].id);
		ck_assert_msg(r == &t[i], "w3d_lookup(%u, 0x%x) did not return row %zu (%s)",
			      (unsigned)t[i].ctx, (unsigned)t[i].id, i, t[i].short_name);
		ck_assert_ptr_eq(w3d_format.lookup(t[i].ctx, t[i].id), &t[i]);
	}
}
END_TEST

START_TEST(test_lookup_misses_match_linear)
{
	size_t n = 0;
	const wl_chunk_type *t = w3d_schema(&n);
	/* Neighbours of every row, and the same id in every context. */
	for (size_t i = 0; i < n; i++) {
		const uint32_t ids[] = { t[i].id - 1, t[i].id + 1, t[i].id | 0x80000000u };
		for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++)
			ck_assert_ptr_eq(w3d_lookup(t[i].ctx, ids[k]), linear_lookup(t[i].ctx, ids[k]));
		for (uint16_t ctx = 0; ctx <= W3D_CTX__COUNT; ctx++)
			ck_assert_ptr_eq(w3d_lookup(ctx, t[i].id), linear_lookup(ctx, t[i].id));
	}
	ck_assert_ptr_null(w3d_lookup(0xFFFF, 0));
	ck_assert_ptr_null(w3d_lookup(W3D_CTX_ROOT, 0xFFFFFFFFu));
	/* Ids are scoped by parent: VERTICES is a mesh child, not a top-level chunk. */
	ck_assert_ptr_null(w3d_lookup(W3D_CTX_ROOT, W3D_CHUNK_VERTICES));
	ck_assert_ptr_nonnull(w3d_lookup(W3D_CTX_MESH, W3D_CHUNK_VERTICES));
}
END_TEST

START_TEST(test_rows_consistent)
{
	size_t n = 0;
	const wl_chunk_type *t = w3d_schema(&n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_ptr_nonnull(t[i].name);
		ck_assert_ptr_nonnull(t[i].short_name);
		ck_assert_uint_gt(strlen(t[i].short_name), 0);
		ck_assert_msg(strstr(t[i].name, t[i].short_name) != NULL,
			      "row %zu: short name %s is not part of %s", i, t[i].short_name, t[i].name);
		ck_assert_uint_lt(t[i].ctx, W3D_CTX__COUNT);
		ck_assert_uint_lt(t[i].child_ctx, W3D_CTX__COUNT);
		if (t[i].child_ctx) {
			/* A container has no element or record size ... */
			ck_assert_msg(t[i].elem_size == 0 && t[i].min_size == 0,
				      "container %s has a data size", t[i].short_name);
			/* ... and its child context has at least one entry. */
			int found = 0;
			for (size_t k = 0; k < n && !found; k++)
				found = t[k].ctx == t[i].child_ctx;
			ck_assert_msg(found, "container %s: child context %u has no entries",
				      t[i].short_name, (unsigned)t[i].child_ctx);
		}
	}
}
END_TEST

/* Longest chain of containers starting in ctx; -1 on a cycle. */
static int ctx_depth(uint16_t ctx, int *state, int *memo)
{
	if (state[ctx] == 1)
		return -1;
	if (state[ctx] == 2)
		return memo[ctx];
	state[ctx] = 1;
	size_t n = 0;
	const wl_chunk_type *t = w3d_schema(&n);
	int best = 0;
	for (size_t i = 0; i < n; i++) {
		if (t[i].ctx != ctx || !t[i].child_ctx)
			continue;
		int d = ctx_depth(t[i].child_ctx, state, memo);
		if (d < 0)
			return -1;
		if (d + 1 > best)
			best = d + 1;
	}
	state[ctx] = 2;
	memo[ctx] = best;
	return best;
}

/* The reader's depth limit cannot be reached through W3D contexts: they form
 * an acyclic graph much shallower than WL_MAX_DEPTH (tests/core/test_reader.c tests the
 * limit with a self-nesting test format). */
START_TEST(test_context_graph_acyclic_and_shallow)
{
	int state[W3D_CTX__COUNT] = { 0 }, memo[W3D_CTX__COUNT] = { 0 };
	int d = ctx_depth(W3D_CTX_ROOT, state, memo);
	ck_assert_msg(d >= 0, "the W3D context graph has a cycle");
	ck_assert_int_ge(d, 3); /* e.g. MESH/VERTEX_MATERIALS/VERTEX_MATERIAL */
	ck_assert_int_lt(d, WL_MAX_DEPTH);
}
END_TEST

START_TEST(test_structure_of_known_containers)
{
	const wl_chunk_type *mesh = w3d_lookup(W3D_CTX_ROOT, W3D_CHUNK_MESH);
	ck_assert_ptr_nonnull(mesh);
	ck_assert_uint_eq(mesh->child_ctx, W3D_CTX_MESH);
	const wl_chunk_type *hlod = w3d_lookup(W3D_CTX_ROOT, W3D_CHUNK_HLOD);
	ck_assert_ptr_nonnull(hlod);
	ck_assert_uint_eq(hlod->child_ctx, W3D_CTX_HLOD);
	const wl_chunk_type *lods = w3d_lookup(W3D_CTX_HLOD, W3D_CHUNK_HLOD_LOD_ARRAY);
	ck_assert_ptr_nonnull(lods);
	ck_assert_uint_eq(lods->child_ctx, W3D_CTX_HLOD_ARRAY);
	const wl_chunk_type *sub = w3d_lookup(W3D_CTX_HLOD_ARRAY, W3D_CHUNK_HLOD_SUB_OBJECT);
	ck_assert_ptr_nonnull(sub);
	ck_assert_uint_eq(sub->child_ctx, 0);
	const wl_chunk_type *verts = w3d_lookup(W3D_CTX_MESH, W3D_CHUNK_VERTICES);
	ck_assert_uint_eq(verts->elem_size, 12); /* Vector3: three binary32 */
}
END_TEST

#define NAMED(x) { W3D_CHUNK_##x, #x }

START_TEST(test_id_name_known)
{
	static const struct { uint32_t id; const char *name; } known[] = {
		NAMED(MESH), NAMED(VERTICES), NAMED(VERTEX_NORMALS), NAMED(MESH_USER_TEXT),
		NAMED(VERTEX_INFLUENCES), NAMED(MESH_HEADER3), NAMED(TRIANGLES),
		NAMED(VERTEX_SHADE_INDICES), NAMED(PRELIT_UNLIT), NAMED(PRELIT_VERTEX),
		NAMED(PRELIT_LIGHTMAP_MULTI_PASS), NAMED(PRELIT_LIGHTMAP_MULTI_TEXTURE),
		NAMED(MATERIAL_INFO), NAMED(SHADERS), NAMED(VERTEX_MATERIALS), NAMED(VERTEX_MATERIAL),
		NAMED(VERTEX_MATERIAL_NAME), NAMED(VERTEX_MATERIAL_INFO), NAMED(VERTEX_MAPPER_ARGS0),
		NAMED(VERTEX_MAPPER_ARGS1), NAMED(TEXTURES), NAMED(TEXTURE), NAMED(TEXTURE_NAME),
		NAMED(TEXTURE_INFO), NAMED(MATERIAL_PASS), NAMED(VERTEX_MATERIAL_IDS),
		NAMED(SHADER_IDS), NAMED(DCG), NAMED(DIG), NAMED(SCG), NAMED(SHADER_MATERIAL_ID),
		NAMED(TEXTURE_STAGE), NAMED(TEXTURE_IDS), NAMED(STAGE_TEXCOORDS),
		NAMED(PER_FACE_TEXCOORD_IDS), NAMED(SHADER_MATERIALS), NAMED(TANGENTS),
		NAMED(BITANGENTS), NAMED(AABTREE), NAMED(AABTREE_HEADER), NAMED(AABTREE_POLYINDICES),
		NAMED(AABTREE_NODES), NAMED(HIERARCHY), NAMED(HIERARCHY_HEADER), NAMED(PIVOTS),
		NAMED(PIVOT_FIXUPS), NAMED(ANIMATION), NAMED(ANIMATION_HEADER),
		NAMED(ANIMATION_CHANNEL), NAMED(BIT_CHANNEL), NAMED(COMPRESSED_ANIMATION),
		NAMED(COMPRESSED_ANIMATION_HEADER), NAMED(COMPRESSED_ANIMATION_CHANNEL),
		NAMED(COMPRESSED_BIT_CHANNEL), NAMED(COMPRESSED_ANIMATION_MOTION_CHANNEL),
		NAMED(HLOD), NAMED(HLOD_HEADER), NAMED(HLOD_LOD_ARRAY),
		NAMED(HLOD_SUB_OBJECT_ARRAY_HEADER), NAMED(HLOD_SUB_OBJECT),
		NAMED(HLOD_AGGREGATE_ARRAY), NAMED(HLOD_PROXY_ARRAY), NAMED(BOX),
		NAMED(VERTEX_INFLUENCES_EXTENDED),
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		ck_assert_str_eq(w3d_id_name(known[i].id), known[i].name);
	/* Local ids of SPHERE/RING children never win over the W3D meaning. */
	ck_assert_str_eq(w3d_id_name(0x0001), "MESH_HEADER");
	ck_assert_str_eq(w3d_format.id_name(W3D_CHUNK_HLOD), "HLOD");
}
END_TEST

START_TEST(test_id_name_unknown)
{
	static const uint32_t ids[] = { 0x1234, 0xDEADBEEFu, 0x7FFFFFFFu, 0x0FFF };
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		ck_assert_ptr_null(linear_lookup(W3D_CTX_ROOT, ids[i]));
		char want[16];
		snprintf(want, sizeof want, "0x%x", (unsigned)ids[i]);
		const char *got = w3d_id_name(ids[i]);
		ck_assert_ptr_nonnull(got);
		ck_assert_msg(strcasecmp(got, want) == 0, "w3d_id_name(0x%x) = \"%s\"",
			      (unsigned)ids[i], got);
	}
}
END_TEST

START_TEST(test_is_w3d_path)
{
	static const char *const yes[] = {
		"tank.w3d", "TANK.W3D", "dir/Tank.W3d", "a.wlt", "A.WLT", "b.wht", "B.wHt",
		"c.wha", "C.WHA", "d.wtm", "D.WtM", "x.y.w3d", "/abs/path/mdl.Wha",
	};
	static const char *const no[] = {
		"", "w", "w3d", "a.w3", "a.w3dx", "a.w3d.bak", "tank.obj", "tank", "a.wt",
		"a.wtma", "a_w3d", "a.txt", "w3d/readme", "a.3wd",
	};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		ck_assert_msg(w3d_is_w3d_path(yes[i]), "%s should be a W3D path", yes[i]);
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		ck_assert_msg(!w3d_is_w3d_path(no[i]), "%s should not be a W3D path", no[i]);
}
END_TEST

START_TEST(test_format_descriptor)
{
	ck_assert_str_eq(w3d_format.name, "w3d");
	ck_assert_uint_eq(w3d_format.header_size, 8);
	ck_assert(w3d_format.has_container_bit);
	/* id 0x0700, size 0x80000034: bit 31 is the container flag, not size. */
	const uint8_t h[8] = { 0x00, 0x07, 0x00, 0x00, 0x34, 0x00, 0x00, 0x80 };
	uint32_t id = 0, size = 0;
	bool flag = false;
	w3d_format.read_header(h, &id, &size, &flag);
	ck_assert_uint_eq(id, W3D_CHUNK_HLOD);
	ck_assert_uint_eq(size, 0x34);
	ck_assert(flag);
	const uint8_t h2[8] = { 0x02, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x7F };
	w3d_format.read_header(h2, &id, &size, &flag);
	ck_assert_uint_eq(id, 2);
	ck_assert_uint_eq(size, 0x7FFFFFFFu);
	ck_assert(!flag);
}
END_TEST

/* Declared here for -Wmissing-prototypes (written so that the suite list
 * generator, which matches definitions at the start of a line, skips it). */
extern Suite *schema_suite(void);

Suite *schema_suite(void)
{
	Suite *s = suite_create("schema");
	TCase *tc = tcase_create("schema");
	tcase_add_test(tc, test_schema_sorted_unique);
	tcase_add_test(tc, test_lookup_finds_every_entry);
	tcase_add_test(tc, test_lookup_misses_match_linear);
	tcase_add_test(tc, test_rows_consistent);
	tcase_add_test(tc, test_context_graph_acyclic_and_shallow);
	tcase_add_test(tc, test_structure_of_known_containers);
	tcase_add_test(tc, test_id_name_known);
	tcase_add_test(tc, test_id_name_unknown);
	tcase_add_test(tc, test_is_w3d_path);
	tcase_add_test(tc, test_format_descriptor);
	suite_add_tcase(s, tc);
	return s;
}
