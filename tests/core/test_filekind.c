/* tests/core/test_filekind.c - recognition of non-model files (core/filekind.h): each
 * magic, the weak signs only when no model format finds the bytes
 * plausible, the archive extensions, and model files left to the model
 * readers (their magic wins over any other sign). */
#include <check.h>
#include <string.h>

#include "core/filekind.h"

static const char *kind(const void *b, size_t n, const char *path)
{
	const wl_file_kind *k = wl_file_kind_of(b, n, path);
	return k ? k->id : "model";
}

START_TEST(magics)
{
	ck_assert_str_eq(kind("BIGF\0\0\0\0", 8, NULL), "big");
	ck_assert_str_eq(kind("BIG4\0\0\0\0", 8, NULL), "big");
	ck_assert(wl_file_kind_of((const uint8_t *)"BIGF", 4, NULL)->archive);
	ck_assert_str_eq(kind("\0sreV\0\0\0\0", 9, NULL), "pbo");
	ck_assert_str_eq(kind("\x89PNG\r\n\x1a\n\0", 9, NULL), "png");
	ck_assert_str_eq(kind("\xff\xd8\xff\xe0", 4, NULL), "jpeg");
	ck_assert_str_eq(kind("DDS |\0\0\0", 8, NULL), "dds");
	ck_assert(!wl_file_kind_of((const uint8_t *)"DDS |", 5, NULL)->archive);
}
END_TEST

START_TEST(models_win)
{
	/* magic of a model format: a model, whatever follows or its name */
	ck_assert_str_eq(kind("BB3D some text after it\n", 24, "x.pbo"), "model");
	ck_assert_str_eq(kind("ODOL\x46\0\0\0", 8, "x.big"), "model");
	/* a plausible W3D header (MESH, size 0): no weak sign applies */
	static const uint8_t mesh[8] = { 0 };
	ck_assert_str_eq(kind(mesh, 8, "tank.w3d"), "model");
	/* ... but its name says archive */
	ck_assert_str_eq(kind(mesh, 8, "tank.PBO"), "pbo");
	ck_assert_str_eq(kind("", 0, "empty.txt"), "model"); /* the readers report it */
}
END_TEST

START_TEST(weak_signs)
{
	ck_assert_str_eq(kind("[Object]\r\nModel = a\r\n", 21, NULL), "text");
	ck_assert_str_eq(kind("[Object]\x01\n", 10, NULL), "model"); /* a control byte */
	ck_assert_str_eq(kind("JUNKJUNKJUNK", 12, NULL), "model"); /* no line break */
	/* TGA 2x1, 24 bits, uncompressed: header + 6 bytes of pixels */
	uint8_t tga[24] = { 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 24, 0 };
	ck_assert_str_eq(kind(tga, 24, NULL), "tga");
	ck_assert_str_eq(kind(tga, 23, NULL), "model"); /* pixels cut: not recognised */
	tga[2] = 4; /* no such image type */
	ck_assert_str_eq(kind(tga, 24, NULL), "model");
	uint8_t bmp[30] = { 'B', 'M', 30, 0, 0, 0 };
	ck_assert_str_eq(kind(bmp, 30, NULL), "bmp");
	ck_assert_str_eq(kind(bmp, 29, NULL), "model"); /* size field disagrees */
}
END_TEST

START_TEST(extensions)
{
	ck_assert_str_eq(wl_file_kind_by_extension("a/Mod.BIG")->id, "big");
	ck_assert_str_eq(wl_file_kind_by_extension("addons/x.pbo")->id, "pbo");
	ck_assert_ptr_null(wl_file_kind_by_extension("a.big/tank.w3d"));
	ck_assert_ptr_null(wl_file_kind_by_extension("big"));
}
END_TEST

extern Suite *filekind_suite(void);
Suite *filekind_suite(void)
{
	Suite *s = suite_create("filekind");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, magics);
	tcase_add_test(tc, models_win);
	tcase_add_test(tc, weak_signs);
	tcase_add_test(tc, extensions);
	suite_add_tcase(s, tc);
	return s;
}
