/*
 * check_custom_rules.c - declarative rules of the configuration
 * (lint/custom_rules.c, read by lint/config.c, run by lint/lint.c): every
 * field fires at the exact bytes of the field and has a near miss; raw-byte
 * matching; message templates; severities, select/ignore and per-path
 * ignores applied to custom ids by the engine; every configuration error
 * with its line and column, including a bad pattern's offset; robustness
 * on damaged files.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/w3d/w3d_format.h"
#include "../lint/lint.h"
#include "build_anim.h"
#include "build_mesh.h"
#include "reader_util.h"
#include "robust_util.h"
#include "w3dbuild.h"

extern Suite *custom_rules_suite(void);

static char err[1024];

static wl_catalog *builtin(void)
{
	wl_catalog *cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(cat != NULL, "%s", err);
	return cat;
}

/* Parses configuration text against the built-in catalogue (must load). */
static wl_config *config(const wl_catalog *cat, const char *text)
{
	err[0] = 0;
	wl_config *cfg = wl_config_parse(cat, "c.yaml", text, strlen(text), err, sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	return cfg;
}

/* Lints a private, exactly sized copy of b with cat and cfg; the copy is
 * freed by done(). */
static wl_doc *lint_as(const wl_catalog *cat, const wl_config *cfg, const char *path, const wb *b)
{
	uint8_t *copy = ru_copy(b->data, b->len);
	wl_doc *d = wl_lint_bytes(cat, cfg, path, copy, b->len);
	ck_assert_ptr_nonnull(d);
	return d;
}

static void done(wl_doc *d)
{
	const uint8_t *bytes = d->bytes;
	wl_doc_free(d);
	free((void *)(uintptr_t)bytes);
}

/* Findings of rule, and the one at offset (NULL if none). */
static size_t count(const wl_doc *d, const char *rule)
{
	size_t n = 0;
	for (size_t i = 0; i < d->findings.count; i++)
		n += strcmp(d->findings.items[i].rule, rule) == 0;
	return n;
}

static const wl_finding *at(const wl_doc *d, const char *rule, uint64_t offset)
{
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(d->findings.items[i].rule, rule) == 0 && d->findings.items[i].offset == offset)
			return &d->findings.items[i];
	return NULL;
}

/* Offset of the first occurrence of the bytes s[0..n) in b (the builders
 * do not record every string chunk's offset). */
static size_t find_bytes(const wb *b, const void *s, size_t n)
{
	for (size_t i = 0; i + n <= b->len; i++)
		if (memcmp(b->data + i, s, n) == 0)
			return i;
	ck_abort_msg("bytes not found");
	return 0;
}

/* One custom rule "custom-t" on field with the given condition lines. */
static wl_config *one_rule(const wl_catalog *cat, const char *field, const char *cond)
{
	char text[1024];
	snprintf(text, sizeof text, "custom-rules:\n  - id: custom-t\n    field: %s\n%s", field, cond);
	return config(cat, text);
}

/* Lints b with a single rule; returns the number of custom-t findings and,
 * when want_at is not NULL, asserts one at *want_at with length want_len
 * whose message is want_msg (when not NULL). */
static size_t run_rule(const wl_catalog *cat, const wb *b, const char *field, const char *cond,
		       const uint64_t *want_at, uint64_t want_len, const char *want_msg)
{
	wl_config *cfg = one_rule(cat, field, cond);
	wl_doc *d = lint_as(cat, cfg, "t.w3d", b);
	size_t n = count(d, "custom-t");
	if (want_at) {
		const wl_finding *f = at(d, "custom-t", *want_at);
		ck_assert_msg(f != NULL, "%s: no finding at %llu", field, (unsigned long long)*want_at);
		ck_assert_uint_eq(f->length, want_len);
		ck_assert_int_eq(f->severity, WL_SEV_WARNING);
		if (want_msg)
			ck_assert_str_eq(f->message, want_msg);
	}
	done(d);
	wl_config_free(cfg);
	return n;
}

static void mesh_file(wb *b, bm_layout *lay)
{
	bm_opts o = { 0 };
	wb_init(b);
	bm_write_mesh(b, &o, lay);
}

/* ----------------------------------------------------------- mesh fields */

START_TEST(mesh_name_fields)
{
	wl_catalog *cat = builtin();
	wb b;
	bm_layout lay;
	mesh_file(&b, &lay);
	uint64_t mesh = lay.header_data + 8, cont = lay.header_data + 24;
	/* MeshName "BODY" @8, ContainerName "TANK" @24, 16 bytes each */
	ck_assert_uint_eq(run_rule(cat, &b, "mesh-name", "    match: '^[a-z]'\n", &mesh, 16,
				   "mesh-name 'BODY' does not match '^[a-z]'"), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "mesh-name", "    match: '^[A-Z]+$'\n", NULL, 0, NULL), 0);
	ck_assert_uint_eq(run_rule(cat, &b, "container-name", "    not-match: '^TANK$'\n", &cont, 16,
				   "container-name 'TANK' matches '^TANK$', which is not allowed"), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "container-name", "    not-match: '^TAN$'\n", NULL, 0, NULL), 0);
	wb_free(&b);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(mesh_number_fields)
{
	wl_catalog *cat = builtin();
	wb b;
	bm_layout lay;
	mesh_file(&b, &lay);
	uint64_t tris = lay.header_data + 40, verts = lay.header_data + 44;
	/* 4 vertices, 2 triangles */
	ck_assert_uint_eq(run_rule(cat, &b, "mesh-num-vertices", "    max: 3\n", &verts, 4,
				   "mesh-num-vertices 4 is above the maximum 3"), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "mesh-num-vertices", "    max: 4\n", NULL, 0, NULL), 0);
	ck_assert_uint_eq(run_rule(cat, &b, "mesh-num-triangles", "    min: 2.5\n", &tris, 4,
				   "mesh-num-triangles 2 is below the minimum 2.5"), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "mesh-num-triangles", "    min: 2\n    max: 2\n", NULL, 0, NULL), 0);
	wb_free(&b);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(material_fields)
{
	wl_catalog *cat = builtin();
	wb b;
	bm_layout lay;
	mesh_file(&b, &lay);
	/* TEXTURE_NAME "tank.tga\0" (9 bytes), VERTEX_MATERIAL_NAME "Paint\0" (6) */
	uint64_t tex = find_bytes(&b, "tank.tga", 9), vm = find_bytes(&b, "Paint", 6);
	ck_assert_uint_eq(run_rule(cat, &b, "texture-name", "    match: '^tx_.*\\.dds$'\n", &tex, 9,
				   "texture-name 'tank.tga' does not match '^tx_.*\\.dds$'"), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "texture-name", "    match: '^[a-z]+\\.tga$'\n", NULL, 0, NULL), 0);
	ck_assert_uint_eq(run_rule(cat, &b, "vertex-material-name", "    not-match: '(?i)^paint$'\n", &vm, 6,
				   NULL), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "vertex-material-name", "    not-match: '^paint$'\n", NULL, 0, NULL), 0);

	/* texture-count / vertex-material-count: 1 each, at the TEXTURES /
	 * VERTEX_MATERIALS chunk (its whole extent) */
	uint64_t texs = tex - 8 - 8 - 8, vms = vm - 8 - 8 - 8;
	ck_assert_uint_eq(ru_le32(b.data + texs), W3D_CHUNK_TEXTURES);
	ck_assert_uint_eq(ru_le32(b.data + vms), W3D_CHUNK_VERTEX_MATERIALS);
	uint64_t texs_len = 8 + (ru_le32(b.data + texs + 4) & 0x7FFFFFFFu);
	ck_assert_uint_eq(run_rule(cat, &b, "texture-count", "    max: 0\n", &texs, texs_len,
				   "texture-count 1 is above the maximum 0"), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "texture-count", "    max: 1\n", NULL, 0, NULL), 0);
	ck_assert_uint_eq(run_rule(cat, &b, "vertex-material-count", "    min: 2\n", &vms,
				   8 + (ru_le32(b.data + vms + 4) & 0x7FFFFFFFu), NULL), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "vertex-material-count", "    min: 1\n", NULL, 0, NULL), 0);
	wb_free(&b);

	/* A mesh without textures: the count 0 is reported at the MESH header. */
	wb_init(&b);
	wb_begin(&b, W3D_CHUNK_MESH);
	wb_begin(&b, W3D_CHUNK_MESH_HEADER3);
	wb_zeros(&b, 116);
	wb_end(&b);
	wb_end(&b);
	uint64_t zero = 0;
	ck_assert_uint_eq(run_rule(cat, &b, "texture-count", "    min: 1\n", &zero, 8,
				   "texture-count 0 is below the minimum 1"), 1);
	wb_free(&b);
	wl_catalog_free(cat);
}
END_TEST

/* ------------------------------------------- hierarchy, animation, HLOD */

START_TEST(hierarchy_fields)
{
	wl_catalog *cat = builtin();
	wb b;
	wb_init(&b);
	ba_hier_opts o = ba_hier_defaults(3); /* ROOTTRANSFORM, BONE01, BONE02 */
	ba_hier_at h;
	ba_hierarchy(&b, &o, &h);
	uint64_t p1 = h.pivots_payload + 60, p2 = h.pivots_payload + 120, name = h.header_payload + 4,
		 np = h.header_payload + 20;
	wl_config *cfg = one_rule(cat, "pivot-name", "    match: '^ROOT'\n");
	wl_doc *d = lint_as(cat, cfg, "t.w3d", &b);
	ck_assert_uint_eq(count(d, "custom-t"), 2);
	const wl_finding *f = at(d, "custom-t", p1);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->length, 16);
	ck_assert_int_eq(f->element, 1);
	ck_assert_str_eq(f->message, "pivot-name 'BONE01' does not match '^ROOT'");
	char path[256];
	ck_assert_str_eq(wl_chunk_path(d, f->chunk, f->element, path, sizeof path), "HIERARCHY[SKEL]/PIVOTS[1]");
	ck_assert_ptr_nonnull(at(d, "custom-t", p2));
	done(d);
	wl_config_free(cfg);
	ck_assert_uint_eq(run_rule(cat, &b, "pivot-name", "    match: '^(ROOTTRANSFORM|BONE\\d\\d)$'\n", NULL, 0,
				   NULL), 0);
	ck_assert_uint_eq(run_rule(cat, &b, "hierarchy-name", "    match: '^SK_'\n", &name, 16, NULL), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "hierarchy-name", "    match: '^SKEL'\n", NULL, 0, NULL), 0);
	ck_assert_uint_eq(run_rule(cat, &b, "pivot-count", "    max: 2\n", &np, 4,
				   "pivot-count 3 is above the maximum 2"), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "pivot-count", "    max: 3\n", NULL, 0, NULL), 0);
	wb_free(&b);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(animation_fields)
{
	wl_catalog *cat = builtin();
	wb b;
	wb_init(&b);
	ba_anim_opts ao = ba_anim_defaults();
	ba_anim_at a;
	ba_animation(&b, &ao, &a);
	ba_canim_opts co = ba_canim_defaults(0);
	ba_canim_at c;
	ba_compressed_animation(&b, &co, &c);
	/* raw: "WALK"/"SKEL", FrameRate 30 as uint32; compressed: "RUN"/"SKEL",
	 * FrameRate 30 as uint16 */
	uint64_t walk = find_bytes(&b, "WALK", 5), run = c.header_payload + 4;
	ck_assert_uint_eq(run_rule(cat, &b, "animation-name", "    match: '^RUN$'\n", &walk, 16,
				   "animation-name 'WALK' does not match '^RUN$'"), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "animation-name", "    not-match: '^RUN$'\n", &run, 16, NULL), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "animation-name", "    match: '^(RUN|WALK)$'\n", NULL, 0, NULL), 0);
	ck_assert_uint_eq(run_rule(cat, &b, "animation-hierarchy-name", "    match: '^SKEL$'\n", NULL, 0, NULL), 0);
	ck_assert_uint_eq(run_rule(cat, &b, "animation-hierarchy-name", "    match: '^SK$'\n", NULL, 0, NULL), 2);
	uint64_t raw_rate = walk + 36, comp_rate = c.header_payload + 40;
	ck_assert_uint_eq(run_rule(cat, &b, "animation-frame-rate", "    min: 31\n", &raw_rate, 4,
				   "animation-frame-rate 30 is below the minimum 31"), 2);
	ck_assert_uint_eq(run_rule(cat, &b, "animation-frame-rate", "    min: 31\n", &comp_rate, 2, NULL), 2);
	ck_assert_uint_eq(run_rule(cat, &b, "animation-frame-rate", "    min: 30\n", NULL, 0, NULL), 0);
	uint64_t raw_frames = walk + 32;
	char cond[64];
	snprintf(cond, sizeof cond, "    max: %u\n", ao.num_frames - 1);
	ck_assert_uint_ge(run_rule(cat, &b, "animation-num-frames", cond, &raw_frames, 4, NULL), 1);
	snprintf(cond, sizeof cond, "    max: %u\n", ao.num_frames > co.num_frames ? ao.num_frames : co.num_frames);
	ck_assert_uint_eq(run_rule(cat, &b, "animation-num-frames", cond, NULL, 0, NULL), 0);
	wb_free(&b);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(hlod_and_box_fields)
{
	wl_catalog *cat = builtin();
	wb b;
	wb_init(&b);
	ba_hlod_opts ho = ba_hlod_defaults(2, 2); /* "TANK"/"SKEL", TANK.PART00, TANK.PART01 */
	ba_hlod_at h;
	ba_hlod(&b, &ho, &h);
	/* a BOX "TANK.BOX" */
	size_t box = b.len;
	wb_begin(&b, W3D_CHUNK_BOX);
	wb_u32(&b, 0x00010000);
	wb_u32(&b, 0);
	wb_name(&b, "TANK.BOX", 32);
	wb_zeros(&b, 4 + 12 + 12);
	wb_end(&b);

	uint64_t name = h.header_payload + 8, hier = h.header_payload + 24, lods = h.header_payload + 4;
	ck_assert_uint_eq(run_rule(cat, &b, "hlod-name", "    match: '^HL_'\n", &name, 16, NULL), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "hlod-name", "    match: '^TANK$'\n", NULL, 0, NULL), 0);
	ck_assert_uint_eq(run_rule(cat, &b, "hlod-hierarchy-name", "    not-match: 'KEL'\n", &hier, 16, NULL), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "hlod-hierarchy-name", "    not-match: 'kel'\n", NULL, 0, NULL), 0);
	ck_assert_uint_eq(run_rule(cat, &b, "hlod-lod-count", "    max: 1\n", &lods, 4,
				   "hlod-lod-count 2 is above the maximum 1"), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "hlod-lod-count", "    max: 2\n", NULL, 0, NULL), 0);
	/* sub-objects: 2 per LOD array, 2 arrays; the name field is @4, 32 bytes */
	uint64_t sub = find_bytes(&b, "TANK.PART01", 12);
	ck_assert_uint_eq(run_rule(cat, &b, "sub-object-name", "    match: 'PART00$'\n", &sub, 32,
				   "sub-object-name 'TANK.PART01' does not match 'PART00$'"), 2);
	ck_assert_uint_eq(run_rule(cat, &b, "sub-object-name", "    match: '^TANK\\.PART0[01]$'\n", NULL, 0,
				   NULL), 0);
	uint64_t boxname = box + 8 + 8;
	ck_assert_uint_eq(run_rule(cat, &b, "box-name", "    match: '\\.BOUNDS$'\n", &boxname, 32, NULL), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "box-name", "    match: '\\.BOX$'\n", NULL, 0, NULL), 0);
	wb_free(&b);
	wl_catalog_free(cat);
}
END_TEST

/* ------------------------------------------------- raw bytes, messages */

/* A file with one TEXTURES/TEXTURE/TEXTURE_NAME of the given payload. */
static void texture_file(wb *b, const void *name, size_t n)
{
	wb_init(b);
	wb_begin(b, W3D_CHUNK_MESH);
	wb_begin(b, W3D_CHUNK_MESH_HEADER3);
	wb_zeros(b, 116);
	wb_end(b);
	wb_begin(b, W3D_CHUNK_TEXTURES);
	wb_begin(b, W3D_CHUNK_TEXTURE);
	wb_chunk(b, W3D_CHUNK_TEXTURE_NAME, name, n);
	wb_end(b);
	wb_end(b);
	wb_end(b);
}

START_TEST(names_are_raw_bytes_up_to_nul)
{
	wl_catalog *cat = builtin();
	wb b;
	/* "AB\0CD": the pattern sees "AB" only */
	texture_file(&b, "AB\0CD", 6);
	uint64_t payload = find_bytes(&b, "AB\0CD", 6);
	ck_assert_uint_eq(run_rule(cat, &b, "texture-name", "    match: 'CD'\n", &payload, 6,
				   "texture-name 'AB' does not match 'CD'"), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "texture-name", "    match: '^AB$'\n", NULL, 0, NULL), 0);
	wb_free(&b);
	/* a Latin-1 byte: matched as one raw byte (no UTF-8), shown as '?' */
	texture_file(&b, "caf\xe9.tga", 9);
	payload = find_bytes(&b, "caf\xe9", 4);
	ck_assert_uint_eq(run_rule(cat, &b, "texture-name", "    not-match: '\\xe9'\n", &payload, 9,
				   "texture-name 'caf?.tga' matches '\\xe9', which is not allowed"), 1);
	ck_assert_uint_eq(run_rule(cat, &b, "texture-name", "    not-match: '^[ -~]*$'\n", NULL, 0, NULL), 0);
	ck_assert_uint_eq(run_rule(cat, &b, "texture-name", "    match: '^caf.\\.tga$'\n", NULL, 0, NULL), 0);
	wb_free(&b);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(message_template)
{
	wl_catalog *cat = builtin();
	wb b;
	bm_layout lay;
	mesh_file(&b, &lay);
	wl_config *cfg = config(cat,
				"custom-rules:\n"
				"  - id: custom-tex\n"
				"    field: texture-name\n"
				"    match: '^tx_'\n"
				"    message: \"{rule}: texture {value} of mesh {object} ({field}) {{ok}\"\n"
				"    description: mod textures start with tx_\n");
	wl_doc *d = lint_as(cat, cfg, "t.w3d", &b);
	ck_assert_uint_eq(count(d, "custom-tex"), 1);
	const wl_finding *f = at(d, "custom-tex", find_bytes(&b, "tank.tga", 9));
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->message, "custom-tex: texture tank.tga of mesh TANK.BODY (texture-name) {ok}");
	done(d);
	ck_assert_str_eq(wl_config_custom_find(cfg, "custom-tex")->description, "mod textures start with tx_");
	ck_assert_str_eq(wl_config_custom_find(cfg, "custom-tex")->origin, "c.yaml:2:9");
	wl_config_free(cfg);
	wb_free(&b);
	wl_catalog_free(cat);
}
END_TEST

START_TEST(match_limit_ends_a_runaway_pattern)
{
	wl_catalog *cat = builtin();
	/* "aaaa...ab" against (a+)+$ backtracks exponentially without a limit */
	char name[4001];
	memset(name, 'a', sizeof name - 2);
	name[sizeof name - 2] = 'b';
	name[sizeof name - 1] = 0;
	wb b;
	texture_file(&b, name, sizeof name);
	wl_config *cfg = one_rule(cat, "texture-name", "    match: '^(a+)+$'\n");
	wl_doc *d = lint_as(cat, cfg, "t.w3d", &b);
	ck_assert_uint_eq(count(d, "custom-t"), 1);
	const char *m = d->findings.items[0].message;
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(d->findings.items[i].rule, "custom-t") == 0)
			m = d->findings.items[i].message;
	ck_assert_msg(strstr(m, "could not be tested: pattern '^(a+)+$': match limit exceeded") != NULL, "%s", m);
	/* the value is shown shortened */
	ck_assert_msg(strstr(m, "...") != NULL && strlen(m) < 400, "%s", m);
	done(d);
	wl_config_free(cfg);
	wb_free(&b);
	wl_catalog_free(cat);
}
END_TEST

/* ------------------------------------------------------- the engine */

START_TEST(engine_applies_config_to_custom_ids)
{
	wl_catalog *cat = builtin();
	wb b;
	bm_layout lay;
	mesh_file(&b, &lay);
	static const char rule[] =
		"custom-rules:\n"
		"  - {id: custom-tex, field: texture-name, match: '^tx_', severity: info}\n";
	char text[512];

	/* default severity of the rule; not an internal-unknown-rule */
	wl_config *cfg = config(cat, rule);
	wl_doc *d = lint_as(cat, cfg, "t.w3d", &b);
	ck_assert_uint_eq(count(d, "custom-tex"), 1);
	ck_assert_uint_eq(count(d, "internal-unknown-rule"), 0);
	ck_assert_int_eq(wl_lint_worst(d), WL_SEV_INFO);
	/* the id must outlive the document (the parallel front end reports
	 * after freeing it): it is the configuration's own string */
	ck_assert_ptr_eq(at(d, "custom-tex", d->findings.items[0].offset)->rule,
			 wl_config_custom_at(cfg, 0)->id);
	done(d);
	wl_config_free(cfg);

	/* a severity override in rules */
	snprintf(text, sizeof text, "%srules:\n  custom-tex: error\n", rule);
	cfg = config(cat, text);
	d = lint_as(cat, cfg, "t.w3d", &b);
	ck_assert_uint_eq(count(d, "custom-tex"), 1);
	ck_assert_int_eq(wl_lint_worst(d), WL_SEV_ERROR);
	done(d);
	wl_config_free(cfg);

	/* ignore by glob; select leaving it out */
	const char *off[] = { "ignore: [\"custom-*\"]\n", "select: [\"chunk-*\"]\n" };
	for (size_t i = 0; i < 2; i++) {
		snprintf(text, sizeof text, "%s%s", rule, off[i]);
		cfg = config(cat, text);
		d = lint_as(cat, cfg, "t.w3d", &b);
		ck_assert_uint_eq(count(d, "custom-tex"), 0);
		done(d);
		wl_config_free(cfg);
	}
	/* near miss: select including it */
	snprintf(text, sizeof text, "%sselect: [\"custom-*\"]\n", rule);
	cfg = config(cat, text);
	d = lint_as(cat, cfg, "t.w3d", &b);
	ck_assert_uint_eq(count(d, "custom-tex"), 1);
	ck_assert_uint_eq(d->findings.count, 1);
	done(d);
	wl_config_free(cfg);

	/* per-path ignores, for the path given to the engine */
	snprintf(text, sizeof text, "%sper-path-ignores:\n  \"art/legacy/**\": [custom-tex]\n", rule);
	err[0] = 0;
	cfg = wl_config_parse(cat, "/no-such-dir-w3dlint-proj/c.yaml", text, strlen(text), err, sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	d = lint_as(cat, cfg, "/no-such-dir-w3dlint-proj/art/legacy/t.w3d", &b);
	ck_assert_uint_eq(count(d, "custom-tex"), 0);
	done(d);
	d = lint_as(cat, cfg, "/no-such-dir-w3dlint-proj/art/t.w3d", &b);
	ck_assert_uint_eq(count(d, "custom-tex"), 1);
	done(d);
	wl_config_free(cfg);
	wb_free(&b);
	wl_catalog_free(cat);
}
END_TEST

/* Findings of a built-in rule in a folder ignored per path are gone, with
 * their counts of findings left out. */
START_TEST(engine_per_path_ignores_builtin_rules)
{
	wl_catalog *cat = builtin();
	wb b;
	wb_init(&b);
	for (int i = 0; i < WL_FINDINGS_PER_RULE_MAX + 5; i++)
		wb_chunk(&b, 0x7777, "abcd", 4); /* chunk-unknown each */
	static const char text[] = "per-path-ignores:\n  tmp: [\"chunk-unk*\"]\n";
	wl_config *cfg = wl_config_parse(cat, "/no-such-dir-w3dlint-proj/c.yaml", text, strlen(text), err,
					 sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	wl_doc *d = lint_as(cat, cfg, "/no-such-dir-w3dlint-proj/tmp/x.w3d", &b);
	ck_assert_uint_eq(count(d, "chunk-unknown"), 0);
	ck_assert_uint_eq(wl_findings_dropped(&d->findings, "chunk-unknown"), 0);
	done(d);
	d = lint_as(cat, cfg, "/no-such-dir-w3dlint-proj/x.w3d", &b);
	ck_assert_uint_eq(count(d, "chunk-unknown"), WL_FINDINGS_PER_RULE_MAX);
	ck_assert_uint_eq(wl_findings_dropped(&d->findings, "chunk-unknown"), 5);
	done(d);
	wl_config_free(cfg);
	wb_free(&b);
	wl_catalog_free(cat);
}
END_TEST

/* ------------------------------------------------- configuration errors */

/* Asserts that text is rejected with exactly the message want. */
static void expect_error(const char *text, const char *want)
{
	wl_catalog *cat = builtin();
	err[0] = 0;
	wl_config *cfg = wl_config_parse(cat, "c.yaml", text, strlen(text), err, sizeof err);
	ck_assert_ptr_null(cfg);
	ck_assert_str_eq(err, want);
	wl_catalog_free(cat);
}

#define RULE_HEAD "custom-rules:\n  - id: custom-t\n"

START_TEST(error_bad_pattern_offset)
{
	expect_error(RULE_HEAD "    field: mesh-name\n    match: 'ab(c'\n",
		     "c.yaml:4:12: bad pattern at offset 4: missing closing parenthesis");
	expect_error(RULE_HEAD "    field: mesh-name\n    not-match: \"x{2,1}\"\n",
		     "c.yaml:4:16: bad pattern at offset 5: numbers out of order in {} quantifier");
	/* UTF-8 mode cannot be switched on from the pattern */
	expect_error(RULE_HEAD "    field: mesh-name\n    match: '(*UTF)a'\n",
		     "c.yaml:4:12: bad pattern at offset 6: using UTF is disabled by the application");
}
END_TEST

START_TEST(error_custom_rule_shape)
{
	expect_error("custom-rules:\n  - id: texture-prefix\n    field: mesh-name\n    match: x\n",
		     "c.yaml:2:9: custom rule id 'texture-prefix' must be 'custom-' followed by kebab-case "
		     "(a-z, 0-9, single hyphens; at most 64 characters)");
	expect_error("custom-rules:\n  - id: custom-Tex\n    field: mesh-name\n    match: x\n",
		     "c.yaml:2:9: custom rule id 'custom-Tex' must be 'custom-' followed by kebab-case "
		     "(a-z, 0-9, single hyphens; at most 64 characters)");
	expect_error("custom-rules:\n  - id: custom-a--b\n    field: mesh-name\n    match: x\n",
		     "c.yaml:2:9: custom rule id 'custom-a--b' must be 'custom-' followed by kebab-case "
		     "(a-z, 0-9, single hyphens; at most 64 characters)");
	expect_error("custom-rules:\n"
		     "  - {id: custom-t, field: mesh-name, match: x}\n"
		     "  - {id: custom-t, field: pivot-name, match: y}\n",
		     "c.yaml:3:10: custom rule 'custom-t' is already defined at c.yaml:2:10");
	expect_error(RULE_HEAD "    field: mesh-nam\n    match: x\n",
		     "c.yaml:3:12: custom rule 'custom-t': unknown field 'mesh-nam' (known fields: "
		     "mesh-name, container-name, mesh-num-triangles, mesh-num-vertices, texture-name, "
		     "texture-count, vertex-material-name, vertex-material-count, hierarchy-name, "
		     "pivot-count, pivot-name, animation-name, animation-hierarchy-name, "
		     "animation-num-frames, animation-frame-rate, hlod-name, hlod-hierarchy-name, "
		     "hlod-lod-count, sub-object-name, box-name)");
	expect_error(RULE_HEAD "    field: mesh-num-vertices\n    match: x\n",
		     "c.yaml:4:5: custom rule 'custom-t': 'match' does not apply to number field "
		     "'mesh-num-vertices' (use min or max)");
	expect_error(RULE_HEAD "    field: pivot-name\n    max: 3\n",
		     "c.yaml:4:5: custom rule 'custom-t': 'max' does not apply to name field "
		     "'pivot-name' (use match or not-match)");
	expect_error(RULE_HEAD "    field: pivot-name\n",
		     "c.yaml:2:5: custom rule 'custom-t': name field 'pivot-name' needs match or not-match");
	expect_error(RULE_HEAD "    field: pivot-count\n    severity: warning\n",
		     "c.yaml:2:5: custom rule 'custom-t': number field 'pivot-count' needs min or max");
	expect_error(RULE_HEAD "    field: pivot-count\n    min: 4\n    max: 3\n",
		     "c.yaml:5:10: custom rule 'custom-t': max 3 is below min 4");
	expect_error(RULE_HEAD "    field: pivot-count\n    min: lots\n",
		     "c.yaml:4:10: custom rule 'custom-t': min: 'lots' is not a number");
	expect_error("custom-rules:\n  - field: pivot-count\n    min: 1\n",
		     "c.yaml:2:5: custom rule: missing key 'id'");
	expect_error(RULE_HEAD "    min: 1\n", "c.yaml:2:5: custom rule 'custom-t': missing key 'field'");
	expect_error(RULE_HEAD "    field: pivot-count\n    min: 1\n    regex: x\n",
		     "c.yaml:5:5: custom rule: unknown key 'regex' (expected id, field, match, not-match, "
		     "min, max, severity, message or description)");
	expect_error(RULE_HEAD "    field: pivot-count\n    min: 1\n    severity: loud\n",
		     "c.yaml:5:15: custom rule 'custom-t': bad severity 'loud' (expected error, warning, "
		     "info or off)");
	expect_error(RULE_HEAD "    field: pivot-count\n    min: 1\n    message: \"{count} pivots\"\n",
		     "c.yaml:5:14: custom rule 'custom-t': message: unknown placeholder '{count} pivots' "
		     "(known: {rule}, {field}, {value}, {object}; {{ for a brace)");
	expect_error("custom-rules: {id: custom-t}\n", "c.yaml:1:15: 'custom-rules' must be a list of rules");
	expect_error("custom-rules: [custom-t]\n",
		     "c.yaml:1:16: a custom rule must be a mapping (keys: id, field, match, not-match, "
		     "min, max, severity, message, description)");
}
END_TEST

START_TEST(custom_ids_in_other_keys)
{
	wl_catalog *cat = builtin();
	/* custom ids may be named in rules, select, ignore, whatever the key
	 * order; parameters they have none */
	wl_config *cfg = config(cat, "rules: {custom-t: error}\nignore: [custom-t]\n"
				     "custom-rules: [{id: custom-t, field: pivot-count, max: 1}]\n");
	ck_assert_int_eq(wl_config_severity(cfg, cat, "custom-t"), WL_SEV_OFF);
	ck_assert_uint_eq(wl_config_custom_count(cfg), 1);
	ck_assert_ptr_null(wl_config_custom_at(cfg, 1));
	wl_config_free(cfg);
	cfg = config(cat, "rules: {custom-t: error}\n"
			  "custom-rules: [{id: custom-t, field: pivot-count, max: 1}]\n");
	ck_assert_int_eq(wl_config_severity(cfg, cat, "custom-t"), WL_SEV_ERROR);
	wl_config_free(cfg);
	wl_catalog_free(cat);
	expect_error("custom-rules: [{id: custom-t, field: pivot-count, max: 1}]\n"
		     "rules:\n  custom-t:\n    params: {limit: 1}\n",
		     "c.yaml:4:14: rule 'custom-t' has no parameter 'limit' (it takes no parameters)");
	expect_error("custom-rules: [{id: custom-t, field: pivot-count, max: 1}]\n"
		     "rules: {custom-x: off}\n", "c.yaml:2:9: unknown rule id 'custom-x'");
}
END_TEST

/* ----------------------------------------------------------- robustness */

static const wl_catalog *rb_cat;
static const wl_config *rb_cfg;

static wl_doc *rb_lint(const uint8_t *p, size_t n)
{
	uint8_t *copy = ru_copy(p, n);
	return wl_lint_bytes(rb_cat, rb_cfg, "t.w3d", copy, n);
}

/* Every field on damaged files: no crash, every finding inside the file. */
START_TEST(damaged_files_every_field)
{
	wl_catalog *cat = builtin();
	char text[8192];
	size_t at_ = (size_t)snprintf(text, sizeof text, "custom-rules:\n");
	for (size_t i = 0; i < wl_custom_field_count(); i++) {
		const wl_field_def *f = wl_custom_field_at(i);
		at_ += (size_t)snprintf(text + at_, sizeof text - at_,
					"  - {id: custom-f%zu, field: %s, %s}\n", i, f->name,
					f->kind == WL_FIELD_NAME ? "match: '^$'" : "max: 0");
	}
	wl_config *cfg = config(cat, text);
	wb b;
	bm_layout lay;
	mesh_file(&b, &lay);
	ba_hier_opts ho = ba_hier_defaults(3);
	ba_hier_at h;
	ba_hierarchy(&b, &ho, &h);
	ba_anim_opts ao = ba_anim_defaults();
	ba_anim_at a;
	ba_animation(&b, &ao, &a);
	ba_canim_opts co = ba_canim_defaults(1);
	ba_canim_at c;
	ba_compressed_animation(&b, &co, &c);
	ba_hlod_opts lo = ba_hlod_defaults(1, 2);
	ba_hlod_at l;
	ba_hlod(&b, &lo, &l);
	/* the whole file: every field fires at least once */
	wl_doc *d = lint_as(cat, cfg, "t.w3d", &b);
	for (size_t i = 0; i + 1 < wl_custom_field_count(); i++) { /* no BOX in this file */
		char id[32];
		snprintf(id, sizeof id, "custom-f%zu", i);
		ck_assert_msg(count(d, id) >= 1, "%s (%s) did not fire", id, wl_custom_field_at(i)->name);
	}
	ck_assert_ptr_null(ru_findings_bounds_error(d));
	done(d);
	rb_cat = cat;
	rb_cfg = cfg;
	rb_lint_variants(b.data, b.len, &(rb_opts){ rb_lint, ru_free, 4242, 300, NULL });
	wb_free(&b);
	wl_config_free(cfg);
	wl_catalog_free(cat);
}
END_TEST

Suite *custom_rules_suite(void)
{
	Suite *s = suite_create("custom_rules");
	TCase *tc = tcase_create("fields");
	tcase_add_test(tc, mesh_name_fields);
	tcase_add_test(tc, mesh_number_fields);
	tcase_add_test(tc, material_fields);
	tcase_add_test(tc, hierarchy_fields);
	tcase_add_test(tc, animation_fields);
	tcase_add_test(tc, hlod_and_box_fields);
	tcase_add_test(tc, names_are_raw_bytes_up_to_nul);
	tcase_add_test(tc, message_template);
	tcase_add_test(tc, match_limit_ends_a_runaway_pattern);
	suite_add_tcase(s, tc);
	TCase *te = tcase_create("engine");
	tcase_add_test(te, engine_applies_config_to_custom_ids);
	tcase_add_test(te, engine_per_path_ignores_builtin_rules);
	suite_add_tcase(s, te);
	TCase *ce = tcase_create("config");
	tcase_add_test(ce, error_bad_pattern_offset);
	tcase_add_test(ce, error_custom_rule_shape);
	tcase_add_test(ce, custom_ids_in_other_keys);
	suite_add_tcase(s, ce);
	TCase *rb = tcase_create("robust");
	tcase_set_timeout(rb, 120);
	tcase_add_test(rb, damaged_files_every_field);
	suite_add_tcase(s, rb);
	return s;
}
