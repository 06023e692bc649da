/* tests/lint/test_xref_archive.c - the cross-file index through archives and addon
 * prefixes (lint/xref.h wl_xref_add_archive; W3D: BIG textures under
 * Art/Textures, lint/w3d/xref.c; P3D: textures and materials at their game
 * paths, lint/p3d/xref.c, rules/p3d/references.yaml).  Archives are built
 * in memory (archbuild.h), models with the W3D and P3D builders; each rule
 * fires, has a near miss, and one more defective element gives one more
 * finding.  The last test runs w3dlint (W3DLINT) over a PBO written to a
 * temporary folder. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/archive/archive.h"
#include "core/file_io.h"
#include "lint/xref.h"
#include "tests/build/archbuild.h"
#include "tests/build/build_refs.h"
#include "tests/build/p3dbuild.h"
#include "tests/build/p3dbuild_lod.h"
#include "tests/build/robust_util.h"

extern Suite *xref_archive_suite(void);

/* The findings of one check: rule, path, offset. */
typedef struct t_xarc_got {
	char rule[48], path[96];
	uint64_t offset;
	bool unchecked;    /* a name outside the run's addons (lint/xref.h) */
	char name[96];     /* its unresolved name, "" when none */
} t_xarc_got;

static t_xarc_got XG[32];
static size_t XN;

static void t_xarc_collect(void *user, const wl_xref_finding *f)
{
	(void)user;
	if (XN >= sizeof XG / sizeof XG[0])
		return;
	snprintf(XG[XN].rule, sizeof XG[XN].rule, "%s", wl_rule_name(f->rule));
	snprintf(XG[XN].path, sizeof XG[XN].path, "%s", f->path);
	XG[XN].offset = f->offset;
	XG[XN].unchecked = f->unchecked;
	snprintf(XG[XN].name, sizeof XG[XN].name, "%s", f->unresolved ? f->unresolved : "");
	XN++;
}

/* The findings a run with a base game reports, in XG; the unchecked ones
 * (names outside the run's addons, which a run without a base game counts
 * in its note) apart in XU. */
static t_xarc_got XU[32];
static size_t XUN;

static size_t t_xarc_check(wl_xref *x)
{
	XN = 0;
	long n = wl_xref_check(x, t_xarc_collect, NULL);
	ck_assert_int_eq(n, (long)XN);
	size_t checked = 0;
	XUN = 0;
	for (size_t i = 0; i < XN; i++)
		if (!XG[i].unchecked)
			XG[checked++] = XG[i];
		else
			XU[XUN++] = XG[i];
	XN = checked;
	return XN;
}

static size_t t_xarc_count(const char *rule)
{
	size_t n = 0;
	for (size_t i = 0; i < XN; i++)
		n += strcmp(XG[i].rule, rule) == 0;
	return n;
}

/* Lints b as path and adds it to x. */
static void t_xarc_add_model(wl_xref *x, const wb *b, const char *path)
{
	wl_doc *d = t_ref_lint(b, path);
	ck_assert_int_eq(wl_xref_add(x, path, d), 0);
	t_ref_free(d);
}

/* Adds an archive of the n entries e (kind: "BIGF" or a PBO with prefix;
 * prefix NULL: none) named path to x. */
static void t_xarc_add_archive(wl_xref *x, const char *path, const char *kind, const char *prefix, const t_arc_entry *e,
			   size_t n)
{
	wb b;
	t_arc_layout at;
	t_w3d_init(&b);
	bool big = strcmp(kind, "BIGF") == 0;
	if (big)
		t_arc_big(&b, "BIGF", e, n, &at);
	else
		t_arc_pbo(&b, prefix, e, n, true, &at);
	wl_doc *d = wl_archive_read(big ? WL_ARCHIVE_BIG : WL_ARCHIVE_PBO, path, b.data, b.len, WL_ARCHIVE_TABLE);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(wl_xref_add_archive(x, path, d), 0);
	wl_doc_free(d);
	t_w3d_free(&b);
}

/* ------------------------------------------------------------ W3D, BIG */

/* A W3D model whose mesh names texture tex. */
static void w3d_model(wb *b, const char *tex)
{
	t_w3d_init(b);
	t_ref_mesh_opts o = t_ref_mesh_defaults();
	o.texture_name = tex;
	t_ref_mesh_at at;
	t_ref_mesh(b, &o, &at);
}

START_TEST(big_texture_under_art_textures)
{
	static const char data[] = "TGA";
	wl_xref *x = wl_xref_new();
	wb m;
	w3d_model(&m, "Tank.tga");
	t_xarc_add_model(x, &m, "mod.big:Art/W3D/tank.w3d");
	t_w3d_free(&m);
	/* found: Art\Textures\, letter case ignored, .dds for .tga */
	t_arc_entry e[] = { { "Art\\Textures\\TANK.dds", data, 3, false } };
	t_xarc_add_archive(x, "mod.big", "BIGF", NULL, e, 1);
	ck_assert_uint_eq(t_xarc_check(x), 0);
	wl_xref_free(x);
}
END_TEST

START_TEST(big_texture_elsewhere_is_missing)
{
	static const char data[] = "TGA";
	wl_xref *x = wl_xref_new();
	wb m;
	w3d_model(&m, "tank.tga");
	t_xarc_add_model(x, &m, "mod.big:Art/W3D/tank.w3d");
	t_w3d_free(&m);
	/* near miss: the texture outside Art/Textures is not where the game
	 * looks; another texture there turns the check on */
	t_arc_entry e[] = { { "Data\\tank.tga", data, 3, false }, { "Art\\Textures\\other.tga", data, 3, false } };
	t_xarc_add_archive(x, "mod.big", "BIGF", NULL, e, 2);
	ck_assert_uint_eq(t_xarc_check(x), 1);
	ck_assert_str_eq(XG[0].rule, wl_rule_name(WLR_REFERENCE_TEXTURE_MISSING));
	ck_assert_str_eq(XG[0].path, "mod.big:Art/W3D/tank.w3d");
	/* a PBO's Art/Textures is not a SAGE folder */
	t_arc_entry p[] = { { "Art\\Textures\\tank.tga", data, 3, false } };
	t_xarc_add_archive(x, "mod.pbo", "PBO", "x\\mod", p, 1);
	ck_assert_uint_eq(t_xarc_check(x), 1);
	wl_xref_free(x);
}
END_TEST

/* ------------------------------------------------------------ P3D, PBO */

#define TEX "x\\test\\addon\\data\\body_co.paa"
#define MAT "x\\test\\addon\\data\\body.rvmat"

static const float PTS[3][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } };

/* A 1-LOD MLOD model of nf faces (names given) into b; the offset of its
 * first face in *first. */
static void mlod_model(wb *b, const t_p3d_face *faces, uint32_t nf, size_t *first)
{
	t_w3d_init(b);
	t_p3d_mlod_begin(b, 1);
	size_t at = t_p3d_mlod_lod(b, PTS, 3, PTS, 3, faces, nf, 0.0f);
	if (first)
		*first = at;
}

/* The offset of the first occurrence of s in p[0..n), or SIZE_MAX. */
static size_t t_xarc_find(const uint8_t *p, size_t n, const char *s)
{
	size_t k = strlen(s);
	for (size_t i = 0; k <= n && i <= n - k; i++)
		if (memcmp(p + i, s, k) == 0)
			return i;
	return SIZE_MAX;
}

/* The file offset of the first occurrence of s in b. */
static uint64_t offset_of(const wb *b, const char *s)
{
	size_t at = t_xarc_find(b->data, b->len, s);
	ck_assert_uint_ne(at, SIZE_MAX);
	return at;
}

static const char DATA[] = "data";

START_TEST(p3d_found_in_its_pbo)
{
	wl_xref *x = wl_xref_new();
	t_p3d_face f[2] = { { 3, { 0, 1, 2, 0 }, TEX, MAT },
			  { 3, { 0, 2, 1, 0 }, "X\\Test\\Addon\\Data\\Body_CO.paa", "/x/test/addon/data/body.rvmat" } };
	wb m;
	mlod_model(&m, f, 2, NULL);
	t_xarc_add_model(x, &m, "addon.pbo:model.p3d");
	t_w3d_free(&m);
	t_arc_entry e[] = { { "data\\body_co.paa", DATA, 4, false }, { "data\\Body.rvmat", DATA, 4, true } };
	t_xarc_add_archive(x, "addon.pbo", "PBO", "x\\test\\addon", e, 2);
	ck_assert_uint_eq(t_xarc_check(x), 0);
	wl_xref_free(x);
}
END_TEST

/* Checks an MLOD model of the nf faces f in the addon x\\test\\addon
 * whose PBO holds entry: the findings reported in XG (the unchecked ones
 * in XU), their count. */
static size_t addon_check(const t_p3d_face *f, uint32_t nf, const char *entry)
{
	wl_xref *x = wl_xref_new();
	wb m;
	mlod_model(&m, f, nf, NULL);
	t_xarc_add_model(x, &m, "addon.pbo:model.p3d");
	t_w3d_free(&m);
	t_arc_entry e[] = { { entry, DATA, 4, false } };
	t_xarc_add_archive(x, "addon.pbo", "PBO", "x\\test\\addon", e, 1);
	size_t n = t_xarc_check(x);
	wl_xref_free(x);
	return n;
}

START_TEST(p3d_missing_fires_once_per_lod_and_name)
{
	wl_xref *x = wl_xref_new();
	/* both faces name the missing material: one finding, at the first */
	t_p3d_face f[3] = { { 3, { 0, 1, 2, 0 }, TEX, MAT }, { 3, { 0, 2, 1, 0 }, TEX, MAT },
			  { 3, { 1, 2, 0, 0 }, "#(argb,8,8,3)color(1,1,1,1)", "" } };
	wb m;
	mlod_model(&m, f, 3, NULL);
	uint64_t mat_at = offset_of(&m, MAT);
	t_xarc_add_model(x, &m, "addon.pbo:model.p3d");
	t_w3d_free(&m);
	t_arc_entry e[] = { { "data\\body_co.paa", DATA, 4, false } };
	t_xarc_add_archive(x, "addon.pbo", "PBO", "x\\test\\addon", e, 1);
	ck_assert_uint_eq(t_xarc_check(x), 1);
	ck_assert_str_eq(XG[0].rule, wl_rule_name(WLR_P3D_MATERIAL_MISSING));
	ck_assert_str_eq(XG[0].path, "addon.pbo:model.p3d");
	ck_assert_uint_eq(XG[0].offset, mat_at);
	wl_xref_free(x);
}
END_TEST

/* A path outside every addon of the run (the base game's a3\ here) is
 * not checked: one unchecked finding per LOD and name carrying the name
 * (the run's note without a base game); the path inside the addon that is
 * missing is a checked finding (the near miss); a procedural texture is
 * neither. */
START_TEST(p3d_outside_the_addons_is_unchecked)
{
	t_p3d_face f[3] = { { 3, { 0, 1, 2, 0 }, "a3\\data_f\\metal_co.paa", MAT },
			  { 3, { 0, 2, 1, 0 }, "A3\\Data_F\\Metal_CO.paa", MAT },
			  { 3, { 1, 2, 0, 0 }, "#(argb,8,8,3)color(1,1,1,1)", "" } };
	ck_assert_uint_eq(addon_check(f, 3, "data\\body_co.paa"), 1);
	ck_assert_str_eq(XG[0].rule, wl_rule_name(WLR_P3D_MATERIAL_MISSING));
	ck_assert_str_eq(XG[0].name, "");
	ck_assert_uint_eq(XUN, 1);
	ck_assert_str_eq(XU[0].rule, wl_rule_name(WLR_P3D_TEXTURE_MISSING));
	ck_assert_str_eq(XU[0].name, "a3\\data_f\\metal_co.paa");
}
END_TEST

/* The counts of p3d-texture-missing and p3d-material-missing for an
 * MLOD model of the nf faces f in an addon whose PBO holds entry. */
static void p3d_counts(const t_p3d_face *f, uint32_t nf, const char *entry, size_t *tex, size_t *mat)
{
	addon_check(f, nf, entry);
	*tex = t_xarc_count("p3d-texture-missing");
	*mat = t_xarc_count("p3d-material-missing");
}

START_TEST(p3d_one_more_name_one_more_finding)
{
	t_p3d_face f[2] = { { 3, { 0, 1, 2, 0 }, TEX, MAT },
			  { 3, { 0, 2, 1, 0 }, "x\\test\\addon\\data\\gun_co.tga", MAT } };
	size_t tex, mat;
	/* a PBO of the addon without the files (its prefix makes it an addon) */
	p3d_counts(f, 1, "config.bin", &tex, &mat);
	ck_assert_uint_eq(tex, 1);
	ck_assert_uint_eq(mat, 1);
	/* one more face naming another missing texture: one more finding;
	 * the same material again: none */
	p3d_counts(f, 2, "config.bin", &tex, &mat);
	ck_assert_uint_eq(tex, 2);
	ck_assert_uint_eq(mat, 1);
	/* the .tga is found as the .paa or .pac of the same path (HEMTT's
	 * pair, lint/p3d/xref.h), a .png the same; a .dds is no such file */
	p3d_counts(f, 2, "data\\gun_co.paa", &tex, &mat);
	ck_assert_uint_eq(tex, 1);
	p3d_counts(f, 2, "data\\gun_co.pac", &tex, &mat);
	ck_assert_uint_eq(tex, 1);
	p3d_counts(f, 2, "data\\gun_co.dds", &tex, &mat);
	ck_assert_uint_eq(tex, 2);
	f[1].texture = "x\\test\\addon\\data\\gun_co.png";
	p3d_counts(f, 2, "data\\gun_co.paa", &tex, &mat);
	ck_assert_uint_eq(tex, 1);
}
END_TEST

START_TEST(p3d_base_game_left_alone)
{
	wl_xref *x = wl_xref_new();
	t_p3d_face f[1] = { { 3, { 0, 1, 2, 0 }, "a3\\data_f\\white_co.paa", "a3\\data_f\\default.rvmat" } };
	wb m;
	mlod_model(&m, f, 1, NULL);
	t_xarc_add_model(x, &m, "addon.pbo:model.p3d");
	t_arc_entry e[] = { { "data\\body_co.paa", DATA, 4, false } };
	t_xarc_add_archive(x, "addon.pbo", "PBO", "x\\test\\addon", e, 1);
	ck_assert_uint_eq(t_xarc_check(x), 0);
	/* a base addon of prefix a3\data_f brings them into the check */
	t_arc_entry b[] = { { "white_co.paa", DATA, 4, false } };
	t_xarc_add_archive(x, "base/data_f.pbo", "PBO", "a3\\data_f", b, 1);
	ck_assert_uint_eq(t_xarc_check(x), 1);
	ck_assert_str_eq(XG[0].rule, wl_rule_name(WLR_P3D_MATERIAL_MISSING));
	wl_xref_free(x);
	/* a PBO without prefix: its name is the prefix */
	x = wl_xref_new();
	t_xarc_add_model(x, &m, "addon.pbo:model.p3d");
	t_xarc_add_archive(x, "base/data_f.pbo", "PBO", NULL, b, 1);
	ck_assert_uint_eq(t_xarc_check(x), 0);
	wl_xref_free(x);
	t_w3d_free(&m);
}
END_TEST

START_TEST(odol_texture_list)
{
	static const t_p3d_face F[1] = { { 3, { 0, 1, 2, 0 }, NULL, NULL } };
	static const char *const names[2] = { TEX, "x\\test\\addon\\data\\gun_co.paa" };
	t_p3dlod_section sec[1] = { { 0, 16, 0, 0 } }; /* a triangle at v73: (1 + 3) x 4 bytes */
	t_p3dlod_spec s;
	memset(&s, 0, sizeof s);
	s.nverts = 3;
	s.faces = F;
	s.nfaces = 1;
	s.n_textures = 2;
	s.texture_names = names;
	s.sections = sec;
	s.n_sections = 1;
	wb b;
	t_p3dlod_at at;
	t_p3d_layout lay;
	t_p3dlod_odol(&b, 73, &s, &at, &lay);
	uint64_t gun_at = offset_of(&b, names[1]);
	wl_xref *x = wl_xref_new();
	t_xarc_add_model(x, &b, "addon.pbo:model.p3d");
	t_w3d_free(&b);
	t_arc_entry e[] = { { "data\\body_co.paa", DATA, 4, false } };
	t_xarc_add_archive(x, "addon.pbo", "PBO", "x\\test\\addon", e, 1);
	ck_assert_uint_eq(t_xarc_check(x), 1);
	ck_assert_str_eq(XG[0].rule, wl_rule_name(WLR_P3D_TEXTURE_MISSING));
	ck_assert_uint_eq(XG[0].offset, gun_at);
	wl_xref_free(x);
}
END_TEST

/* Writes n bytes to dir/name. */
static void t_xarc_write(const char *dir, const char *name, const void *p, size_t n)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(p, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(pboprefix_folder)
{
	char root[] = "/tmp/xref_archive_XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	char sub[4200];
	snprintf(sub, sizeof sub, "%s/data", root);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	static const char pfx[] = "; addon\nprefix=x\\test\\addon\nversion=1\n";
	t_xarc_write(root, "$PBOPREFIX$", pfx, sizeof pfx - 1);
	t_xarc_write(sub, "Body_CO.paa", DATA, 4);
	t_p3d_face f[1] = { { 3, { 0, 1, 2, 0 }, TEX, MAT } };
	wb m;
	mlod_model(&m, f, 1, NULL);
	wl_xref *x = wl_xref_new();
	t_xarc_add_model(x, &m, "model.p3d");
	t_w3d_free(&m);
	ck_assert_int_ge(wl_xref_scan_textures(x, root), 1);
	ck_assert_uint_eq(t_xarc_check(x), 1);
	ck_assert_str_eq(XG[0].rule, wl_rule_name(WLR_P3D_MATERIAL_MISSING));
	wl_xref_free(x);
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* w3dlint over a folder holding a PBO built here with a model and its
 * texture (clean), then the same PBO without the texture (one finding in
 * the entry, named ARCHIVE:PATH). */
START_TEST(w3dlint_pbo_with_model_and_texture)
{
	const char *env = getenv("W3DLINT");
	if (!env || access(env, X_OK) != 0) {
		fputs("xref_archive: w3dlint test skipped: W3DLINT not set\n", stderr);
		return;
	}
	char root[] = "/tmp/xref_pbo_XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	t_p3d_face f[1] = { { 3, { 0, 1, 2, 0 }, TEX, "" } };
	wb m;
	mlod_model(&m, f, 1, NULL);
	for (int with = 1; with >= 0; with--) {
		t_arc_entry e[] = { { "model.p3d", m.data, m.len, true }, { "data\\body_co.paa", DATA, 4, false } };
		wb b;
		t_arc_layout at;
		t_w3d_init(&b);
		t_arc_pbo(&b, "x\\test\\addon", e, with ? 2 : 1, true, &at);
		t_xarc_write(root, "addon.pbo", b.data, b.len);
		t_w3d_free(&b);
		char cmd[8400];
		snprintf(cmd, sizeof cmd, "'%s' -q --no-progress --format json '%s' > '%s/out.json' 2>/dev/null", env, root,
			 root);
		int st = system(cmd);
		ck_assert(WIFEXITED(st));
		char path[4200];
		snprintf(path, sizeof path, "%s/out.json", root);
		size_t n;
		uint8_t *out;
		ck_assert_int_eq(wl_read_file(path, 1 << 24, &out, &n), WL_READ_OK);
		bool hit = t_xarc_find(out, n, "\"p3d-texture-missing\"") != SIZE_MAX;
		ck_assert_msg(with ? !hit : hit, "with texture %d: finding %d", with, (int)hit);
		ck_assert_uint_ne(t_xarc_find(out, n, "addon.pbo:model.p3d"), SIZE_MAX);
		free(out);
	}
	t_w3d_free(&m);
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *xref_archive_suite(void)
{
	const TTest *tests[] = { big_texture_under_art_textures, big_texture_elsewhere_is_missing, p3d_found_in_its_pbo,
				 p3d_missing_fires_once_per_lod_and_name, p3d_outside_the_addons_is_unchecked,
				 p3d_one_more_name_one_more_finding,
				 p3d_base_game_left_alone, odol_texture_list, pboprefix_folder,
				 w3dlint_pbo_with_model_and_texture, NULL };
	return t_robust_suite_of("xref_archive", "rules", 300, tests);
}
