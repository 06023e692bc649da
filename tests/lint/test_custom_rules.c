/*
 * tests/lint/test_custom_rules.c - declarative rules of the configuration
 * (lint/config/custom_rules.c, read by lint/config/config_read_custom.c, run by lint/config/custom_check.c, registered in lint/registry.c): every
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

#include "core/w3d/w3d_format.h"
#include "lint/lint.h"
#include "tests/build/build_anim.h"
#include "tests/build/build_mesh.h"
#include "tests/build/reader_util.h"
#include "tests/build/robust_util.h"
#include "tests/build/w3dbuild.h"

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
	uint8_t *copy = t_copy(b->data, b->len);
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

static void mesh_file(wb *b, t_mesh_layout *lay)
{
	t_mesh_opts o = { 0 };
	t_w3d_init(b);
	t_mesh_write_mesh(b, &o, lay);
}

/* A file with one TEXTURES/TEXTURE/TEXTURE_NAME of the given payload. */
static void texture_file(wb *b, const void *name, size_t n)
{
	t_w3d_init(b);
	t_w3d_begin(b, W3D_CHUNK_MESH);
	t_w3d_begin(b, W3D_CHUNK_MESH_HEADER3);
	t_w3d_zeros(b, 116);
	t_w3d_end(b);
	t_w3d_begin(b, W3D_CHUNK_TEXTURES);
	t_w3d_begin(b, W3D_CHUNK_TEXTURE);
	t_w3d_chunk(b, W3D_CHUNK_TEXTURE_NAME, name, n);
	t_w3d_end(b);
	t_w3d_end(b);
	t_w3d_end(b);
}

/* ------------------------------------------------------ field cases */

/* The values a fixture file records for its cases: offsets of fields,
 * lengths, and numbers for conditions. */
enum anchor {
	NO_ANCHOR,
	MESH_NAME, CONT_NAME, TRIS, VERTS, TEX, VM, TEXS, TEXS_LEN, VMS, VMS_LEN, /* mesh */
	ZERO,                                                             /* bare mesh */
	PIVOT1, PIVOT2, HIER_NAME, NUM_PIVOTS,                            /* hierarchy */
	WALK, RUN, RAW_RATE, COMP_RATE, RAW_FRAMES, FRAMES_BELOW, FRAMES_MAX, /* animations */
	HLOD_NAME, HLOD_HIER, LODS, SUB, BOX_NAME,                        /* HLOD and BOX */
	RAW_NAME,                                                         /* texture_file */
	ANCHORS
};

typedef struct fixture {
	wb b;
	uint64_t at[ANCHORS];
} fixture;

typedef void (*fixture_fn)(fixture *fx);

/* The default mesh: MeshName "BODY" @8, ContainerName "TANK" @24 (16 bytes
 * each), 2 triangles, 4 vertices, TEXTURE_NAME "tank.tga\0" (9 bytes),
 * VERTEX_MATERIAL_NAME "Paint\0" (6); texture-count / vertex-material-count
 * are 1 each, at the TEXTURES / VERTEX_MATERIALS chunk (its whole extent). */
static void fx_mesh(fixture *fx)
{
	t_mesh_layout lay;
	mesh_file(&fx->b, &lay);
	const uint8_t *p = fx->b.data;
	fx->at[MESH_NAME] = lay.header_data + 8;
	fx->at[CONT_NAME] = lay.header_data + 24;
	fx->at[TRIS] = lay.header_data + 40;
	fx->at[VERTS] = lay.header_data + 44;
	fx->at[TEX] = find_bytes(&fx->b, "tank.tga", 9);
	fx->at[VM] = find_bytes(&fx->b, "Paint", 6);
	fx->at[TEXS] = fx->at[TEX] - 8 - 8 - 8;
	fx->at[VMS] = fx->at[VM] - 8 - 8 - 8;
	ck_assert_uint_eq(t_le32(p + fx->at[TEXS]), W3D_CHUNK_TEXTURES);
	ck_assert_uint_eq(t_le32(p + fx->at[VMS]), W3D_CHUNK_VERTEX_MATERIALS);
	fx->at[TEXS_LEN] = 8 + (t_le32(p + fx->at[TEXS] + 4) & 0x7FFFFFFFu);
	fx->at[VMS_LEN] = 8 + (t_le32(p + fx->at[VMS] + 4) & 0x7FFFFFFFu);
}

/* A mesh without textures: the count 0 is reported at the MESH header. */
static void fx_bare_mesh(fixture *fx)
{
	t_w3d_init(&fx->b);
	t_w3d_begin(&fx->b, W3D_CHUNK_MESH);
	t_w3d_begin(&fx->b, W3D_CHUNK_MESH_HEADER3);
	t_w3d_zeros(&fx->b, 116);
	t_w3d_end(&fx->b);
	t_w3d_end(&fx->b);
	fx->at[ZERO] = 0;
}

/* ROOTTRANSFORM, BONE01, BONE02 of "SKEL". */
static void fx_hierarchy(fixture *fx)
{
	t_w3d_init(&fx->b);
	t_anim_hier_opts o = t_anim_hier_defaults(3);
	t_anim_hier_at h;
	t_anim_hierarchy(&fx->b, &o, &h);
	fx->at[PIVOT1] = h.pivots_payload + 60;
	fx->at[PIVOT2] = h.pivots_payload + 120;
	fx->at[HIER_NAME] = h.header_payload + 4;
	fx->at[NUM_PIVOTS] = h.header_payload + 20;
}

/* raw: "WALK"/"SKEL", FrameRate 30 as uint32; compressed: "RUN"/"SKEL",
 * FrameRate 30 as uint16. */
static void fx_animations(fixture *fx)
{
	t_w3d_init(&fx->b);
	t_anim_anim_opts ao = t_anim_anim_defaults();
	t_anim_anim_at a;
	t_anim_animation(&fx->b, &ao, &a);
	t_anim_canim_opts co = t_anim_canim_defaults(0);
	t_anim_canim_at c;
	t_anim_compressed_animation(&fx->b, &co, &c);
	fx->at[WALK] = find_bytes(&fx->b, "WALK", 5);
	fx->at[RUN] = c.header_payload + 4;
	fx->at[RAW_RATE] = fx->at[WALK] + 36;
	fx->at[COMP_RATE] = c.header_payload + 40;
	fx->at[RAW_FRAMES] = fx->at[WALK] + 32;
	fx->at[FRAMES_BELOW] = ao.num_frames - 1;
	fx->at[FRAMES_MAX] = ao.num_frames > co.num_frames ? ao.num_frames : co.num_frames;
}

/* HLOD "TANK"/"SKEL" with 2 LOD arrays of TANK.PART00, TANK.PART01 (the
 * name field @4, 32 bytes), then a BOX "TANK.BOX". */
static void fx_hlod_box(fixture *fx)
{
	wb *b = &fx->b;
	t_w3d_init(b);
	t_anim_hlod_opts ho = t_anim_hlod_defaults(2, 2);
	t_anim_hlod_at h;
	t_anim_hlod(b, &ho, &h);
	size_t box = b->len;
	t_w3d_begin(b, W3D_CHUNK_BOX);
	t_w3d_u32(b, 0x00010000);
	t_w3d_u32(b, 0);
	t_w3d_name(b, "TANK.BOX", 32);
	t_w3d_zeros(b, 4 + 12 + 12);
	t_w3d_end(b);
	fx->at[HLOD_NAME] = h.header_payload + 8;
	fx->at[HLOD_HIER] = h.header_payload + 24;
	fx->at[LODS] = h.header_payload + 4;
	fx->at[SUB] = find_bytes(b, "TANK.PART01", 12);
	fx->at[BOX_NAME] = box + 8 + 8;
}

/* "AB\0CD": the pattern sees "AB" only. */
static void fx_nul_name(fixture *fx)
{
	texture_file(&fx->b, "AB\0CD", 6);
	fx->at[RAW_NAME] = find_bytes(&fx->b, "AB\0CD", 6);
}

/* A Latin-1 byte: matched as one raw byte (no UTF-8), shown as '?'. */
static void fx_latin1_name(fixture *fx)
{
	texture_file(&fx->b, "caf\xe9.tga", 9);
	fx->at[RAW_NAME] = find_bytes(&fx->b, "caf\xe9", 4);
}

/*
 * One custom rule "custom-t" on field with the condition lines cond (when
 * cond_arg is set: cond, the fixture value cond_arg and a newline) over the
 * fixture file: n findings of custom-t (at least n with at_least) and, when
 * at is set, one at that offset, a warning of length len (or of the
 * fixture value len_at) whose message is msg (when not NULL).
 */
typedef struct field_case {
	fixture_fn file;
	const char *field, *cond;
	size_t n;
	enum anchor at;
	uint64_t len;
	const char *msg;
	enum anchor len_at, cond_arg;
	int at_least;
} field_case;

static const field_case fields[] = {
	/* mesh names and numbers */
	{ fx_mesh, "mesh-name", "    match: '^[a-z]'\n", 1, MESH_NAME, 16,
	  "mesh-name 'BODY' does not match '^[a-z]'" },
	{ fx_mesh, "mesh-name", "    match: '^[A-Z]+$'\n", 0 },
	{ fx_mesh, "container-name", "    not-match: '^TANK$'\n", 1, CONT_NAME, 16,
	  "container-name 'TANK' matches '^TANK$', which is not allowed" },
	{ fx_mesh, "container-name", "    not-match: '^TAN$'\n", 0 },
	{ fx_mesh, "mesh-num-vertices", "    max: 3\n", 1, VERTS, 4,
	  "mesh-num-vertices 4 is above the maximum 3" },
	{ fx_mesh, "mesh-num-vertices", "    max: 4\n", 0 },
	{ fx_mesh, "mesh-num-triangles", "    min: 2.5\n", 1, TRIS, 4,
	  "mesh-num-triangles 2 is below the minimum 2.5" },
	{ fx_mesh, "mesh-num-triangles", "    min: 2\n    max: 2\n", 0 },
	/* materials */
	{ fx_mesh, "texture-name", "    match: '^tx_.*\\.dds$'\n", 1, TEX, 9,
	  "texture-name 'tank.tga' does not match '^tx_.*\\.dds$'" },
	{ fx_mesh, "texture-name", "    match: '^[a-z]+\\.tga$'\n", 0 },
	{ fx_mesh, "vertex-material-name", "    not-match: '(?i)^paint$'\n", 1, VM, 6 },
	{ fx_mesh, "vertex-material-name", "    not-match: '^paint$'\n", 0 },
	{ fx_mesh, "texture-count", "    max: 0\n", 1, TEXS, 0, "texture-count 1 is above the maximum 0",
	  .len_at = TEXS_LEN },
	{ fx_mesh, "texture-count", "    max: 1\n", 0 },
	{ fx_mesh, "vertex-material-count", "    min: 2\n", 1, VMS, .len_at = VMS_LEN },
	{ fx_mesh, "vertex-material-count", "    min: 1\n", 0 },
	{ fx_bare_mesh, "texture-count", "    min: 1\n", 1, ZERO, 8,
	  "texture-count 0 is below the minimum 1" },
	/* hierarchy */
	{ fx_hierarchy, "pivot-name", "    match: '^(ROOTTRANSFORM|BONE\\d\\d)$'\n", 0 },
	{ fx_hierarchy, "hierarchy-name", "    match: '^SK_'\n", 1, HIER_NAME, 16 },
	{ fx_hierarchy, "hierarchy-name", "    match: '^SKEL'\n", 0 },
	{ fx_hierarchy, "pivot-count", "    max: 2\n", 1, NUM_PIVOTS, 4,
	  "pivot-count 3 is above the maximum 2" },
	{ fx_hierarchy, "pivot-count", "    max: 3\n", 0 },
	/* animations */
	{ fx_animations, "animation-name", "    match: '^RUN$'\n", 1, WALK, 16,
	  "animation-name 'WALK' does not match '^RUN$'" },
	{ fx_animations, "animation-name", "    not-match: '^RUN$'\n", 1, RUN, 16 },
	{ fx_animations, "animation-name", "    match: '^(RUN|WALK)$'\n", 0 },
	{ fx_animations, "animation-hierarchy-name", "    match: '^SKEL$'\n", 0 },
	{ fx_animations, "animation-hierarchy-name", "    match: '^SK$'\n", 2 },
	{ fx_animations, "animation-frame-rate", "    min: 31\n", 2, RAW_RATE, 4,
	  "animation-frame-rate 30 is below the minimum 31" },
	{ fx_animations, "animation-frame-rate", "    min: 31\n", 2, COMP_RATE, 2 },
	{ fx_animations, "animation-frame-rate", "    min: 30\n", 0 },
	{ fx_animations, "animation-num-frames", "    max: ", 1, RAW_FRAMES, 4,
	  .cond_arg = FRAMES_BELOW, .at_least = 1 },
	{ fx_animations, "animation-num-frames", "    max: ", 0, .cond_arg = FRAMES_MAX },
	/* HLOD and BOX */
	{ fx_hlod_box, "hlod-name", "    match: '^HL_'\n", 1, HLOD_NAME, 16 },
	{ fx_hlod_box, "hlod-name", "    match: '^TANK$'\n", 0 },
	{ fx_hlod_box, "hlod-hierarchy-name", "    not-match: 'KEL'\n", 1, HLOD_HIER, 16 },
	{ fx_hlod_box, "hlod-hierarchy-name", "    not-match: 'kel'\n", 0 },
	{ fx_hlod_box, "hlod-lod-count", "    max: 1\n", 1, LODS, 4,
	  "hlod-lod-count 2 is above the maximum 1" },
	{ fx_hlod_box, "hlod-lod-count", "    max: 2\n", 0 },
	{ fx_hlod_box, "sub-object-name", "    match: 'PART00$'\n", 2, SUB, 32,
	  "sub-object-name 'TANK.PART01' does not match 'PART00$'" },
	{ fx_hlod_box, "sub-object-name", "    match: '^TANK\\.PART0[01]$'\n", 0 },
	{ fx_hlod_box, "box-name", "    match: '\\.BOUNDS$'\n", 1, BOX_NAME, 32 },
	{ fx_hlod_box, "box-name", "    match: '\\.BOX$'\n", 0 },
	/* names are raw bytes up to the first NUL */
	{ fx_nul_name, "texture-name", "    match: 'CD'\n", 1, RAW_NAME, 6,
	  "texture-name 'AB' does not match 'CD'" },
	{ fx_nul_name, "texture-name", "    match: '^AB$'\n", 0 },
	{ fx_latin1_name, "texture-name", "    not-match: '\\xe9'\n", 1, RAW_NAME, 9,
	  "texture-name 'caf?.tga' matches '\\xe9', which is not allowed" },
	{ fx_latin1_name, "texture-name", "    not-match: '^[ -~]*$'\n", 0 },
	{ fx_latin1_name, "texture-name", "    match: '^caf.\\.tga$'\n", 0 },
};

START_TEST(field_cases)
{
	const field_case *c = &fields[_i];
	wl_catalog *cat = builtin();
	fixture fx = { 0 };
	c->file(&fx);
	char cond[128];
	if (c->cond_arg)
		snprintf(cond, sizeof cond, "%s%llu\n", c->cond, (unsigned long long)fx.at[c->cond_arg]);
	wl_config *cfg = one_rule(cat, c->field, c->cond_arg ? cond : c->cond);
	wl_doc *d = lint_as(cat, cfg, "t.w3d", &fx.b);
	size_t n = count(d, "custom-t");
	if (c->at_least)
		ck_assert_msg(n >= c->n, "case %d (%s): %zu findings, expected at least %zu", _i,
			      c->field, n, c->n);
	else
		ck_assert_msg(n == c->n, "case %d (%s): %zu findings, expected %zu", _i, c->field, n,
			      c->n);
	if (c->at) {
		uint64_t want = fx.at[c->at];
		const wl_finding *f = at(d, "custom-t", want);
		ck_assert_msg(f != NULL, "case %d (%s): no finding at %llu", _i, c->field,
			      (unsigned long long)want);
		uint64_t len = c->len_at ? fx.at[c->len_at] : c->len;
		ck_assert_uint_eq(f->length, len);
		ck_assert_int_eq(f->severity, WL_SEV_WARNING);
		if (c->msg)
			ck_assert_str_eq(f->message, c->msg);
	}
	done(d);
	wl_config_free(cfg);
	t_w3d_free(&fx.b);
	wl_catalog_free(cat);
}
END_TEST

/* pivot-name fires once per pivot, at the pivot's name, with its element
 * and path. */
START_TEST(pivot_name_per_pivot)
{
	wl_catalog *cat = builtin();
	fixture fx = { 0 };
	fx_hierarchy(&fx);
	wl_config *cfg = one_rule(cat, "pivot-name", "    match: '^ROOT'\n");
	wl_doc *d = lint_as(cat, cfg, "t.w3d", &fx.b);
	ck_assert_uint_eq(count(d, "custom-t"), 2);
	const wl_finding *f = at(d, "custom-t", fx.at[PIVOT1]);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->length, 16);
	ck_assert_int_eq(f->element, 1);
	ck_assert_str_eq(f->message, "pivot-name 'BONE01' does not match '^ROOT'");
	char path[256];
	ck_assert_str_eq(wl_chunk_path(d, f->chunk, f->element, path, sizeof path), "HIERARCHY[SKEL]/PIVOTS[1]");
	ck_assert_ptr_nonnull(at(d, "custom-t", fx.at[PIVOT2]));
	done(d);
	wl_config_free(cfg);
	t_w3d_free(&fx.b);
	wl_catalog_free(cat);
}
END_TEST

/* ------------------------------------------------- messages, limits */

START_TEST(message_template)
{
	wl_catalog *cat = builtin();
	wb b;
	t_mesh_layout lay;
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
	t_w3d_free(&b);
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
	t_w3d_free(&b);
	wl_catalog_free(cat);
}
END_TEST

/* ------------------------------------------------------- the engine */

START_TEST(engine_applies_config_to_custom_ids)
{
	wl_catalog *cat = builtin();
	wb b;
	t_mesh_layout lay;
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
	t_w3d_free(&b);
	wl_catalog_free(cat);
}
END_TEST

/* Findings of a built-in rule in a folder ignored per path are gone, with
 * their counts of findings left out. */
START_TEST(engine_per_path_ignores_builtin_rules)
{
	wl_catalog *cat = builtin();
	wb b;
	t_w3d_init(&b);
	for (int i = 0; i < WL_FINDINGS_PER_RULE_MAX + 5; i++)
		t_w3d_chunk(&b, 0x7777, "abcd", 4); /* chunk-unknown each */
	static const char text[] = "per-path-ignores:\n  tmp: [\"chunk-unk*\"]\n";
	wl_config *cfg = wl_config_parse(cat, "/no-such-dir-w3dlint-proj/c.yaml", text, strlen(text), err,
					 sizeof err);
	ck_assert_msg(cfg != NULL, "%s", err);
	wl_doc *d = lint_as(cat, cfg, "/no-such-dir-w3dlint-proj/tmp/x.w3d", &b);
	ck_assert_uint_eq(count(d, "chunk-unknown"), 0);
	ck_assert_uint_eq(wl_findings_dropped(&d->findings, wl_rule_name(WLR_CHUNK_UNKNOWN)), 0);
	done(d);
	d = lint_as(cat, cfg, "/no-such-dir-w3dlint-proj/x.w3d", &b);
	ck_assert_uint_eq(count(d, "chunk-unknown"), WL_FINDINGS_PER_RULE_MAX);
	ck_assert_uint_eq(wl_findings_dropped(&d->findings, wl_rule_name(WLR_CHUNK_UNKNOWN)), 5);
	done(d);
	wl_config_free(cfg);
	t_w3d_free(&b);
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
		     "rules: {custom-x: off}\n", "c.yaml:2:9: unknown rule id 'custom-x'; did you mean 'custom-t'?");
	expect_error("custom-rules: [{id: custom-t, field: pivot-count, max: 1}]\n"
		     "rules: {custom-unknown: off}\n", "c.yaml:2:9: unknown rule id 'custom-unknown'");
}
END_TEST

/* ----------------------------------------------------------- robustness */

static const wl_catalog *t_robust_cat;
static const wl_config *t_robust_cfg;

static wl_doc *t_robust_lint(const uint8_t *p, size_t n)
{
	uint8_t *copy = t_copy(p, n);
	return wl_lint_bytes(t_robust_cat, t_robust_cfg, "t.w3d", copy, n);
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
	t_mesh_layout lay;
	mesh_file(&b, &lay);
	t_anim_hier_opts ho = t_anim_hier_defaults(3);
	t_anim_hier_at h;
	t_anim_hierarchy(&b, &ho, &h);
	t_anim_anim_opts ao = t_anim_anim_defaults();
	t_anim_anim_at a;
	t_anim_animation(&b, &ao, &a);
	t_anim_canim_opts co = t_anim_canim_defaults(1);
	t_anim_canim_at c;
	t_anim_compressed_animation(&b, &co, &c);
	t_anim_hlod_opts lo = t_anim_hlod_defaults(1, 2);
	t_anim_hlod_at l;
	t_anim_hlod(&b, &lo, &l);
	/* the whole file: every field fires at least once */
	wl_doc *d = lint_as(cat, cfg, "t.w3d", &b);
	for (size_t i = 0; i + 1 < wl_custom_field_count(); i++) { /* no BOX in this file */
		char id[32];
		snprintf(id, sizeof id, "custom-f%zu", i);
		ck_assert_msg(count(d, id) >= 1, "%s (%s) did not fire", id, wl_custom_field_at(i)->name);
	}
	ck_assert_ptr_null(t_findings_bounds_error(d));
	done(d);
	t_robust_cat = cat;
	t_robust_cfg = cfg;
	t_robust_lint_variants(b.data, b.len, &(t_robust_opts){ t_robust_lint, t_free, 4242, 300, NULL });
	t_w3d_free(&b);
	wl_config_free(cfg);
	wl_catalog_free(cat);
}
END_TEST

Suite *custom_rules_suite(void)
{
	Suite *s = suite_create("custom_rules");
	const TTest *const tc_tests[] = {
		pivot_name_per_pivot, message_template, match_limit_ends_a_runaway_pattern, NULL
	};
	TCase *tc = t_robust_add_tests(s, "fields", 0, tc_tests);
	tcase_add_loop_test(tc, field_cases, 0, (int)(sizeof fields / sizeof fields[0]));
	const TTest *const te_tests[] = {
		engine_applies_config_to_custom_ids, engine_per_path_ignores_builtin_rules, NULL
	};
	t_robust_add_tests(s, "engine", 0, te_tests);
	const TTest *const ce_tests[] = {
		error_bad_pattern_offset, error_custom_rule_shape, custom_ids_in_other_keys, NULL
	};
	t_robust_add_tests(s, "config", 0, ce_tests);
	const TTest *const t_robust_tests[] = {
		damaged_files_every_field, NULL
	};
	t_robust_add_tests(s, "robust", 120, t_robust_tests);
	return s;
}
