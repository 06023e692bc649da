/* tests/core/test_path.c - folder paths taken apart (core/path.h) on this
 * platform: POSIX answers here, Windows answers (drive letters, UNC
 * roots, '\' separators) when the same tests run in the Windows build
 * under Wine.  The platform is asked, not assumed: wl_os_is_sep('\\'). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/path.h"
#include "core/platform.h"

static bool windows(void)
{
	return wl_os_is_sep('\\');
}

/* in, then the expected result on POSIX and on Windows */
static const struct {
	const char *in, *posix, *win;
} folders[] = {
	{ "a/b", "a", "a" },
	{ "/b", "/", "/" },
	{ "/", "/", "/" },
	{ "b", ".", "." },
	{ "a/b/c.w3d", "a/b", "a/b" },
	{ "C:/b", "C:", "C:/" },
	{ "C:\\Games\\x.w3d", ".", "C:\\Games" },
	{ "C:\\x.w3d", ".", "C:\\" },
	{ "C:\\", ".", "C:\\" },
	{ "\\\\srv\\share\\m.w3d", ".", "\\\\srv\\share\\" },
	{ "mod\\Art/x.w3d", "mod\\Art", "mod\\Art" },
};

START_TEST(path_to_folder)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", folders[_i].in);
	wl_path_to_folder(buf);
	ck_assert_str_eq(buf, windows() ? folders[_i].win : folders[_i].posix);
}
END_TEST

static const struct {
	const char *in, *posix, *win;
} norms[] = {
	{ "/a/./b//c/", "/a/b/c", "/a/b/c" },
	{ "/a/../../b", "/b", "/b" },
	{ "/", "/", "/" },
	{ "/..", "/", "/" },
	{ "/a\\b/c", "/a\\b/c", "/a/b/c" },
	{ "C:\\Games\\..\\Mod\\.\\x.w3d", "/C:\\Games\\..\\Mod\\.\\x.w3d", "C:/Mod/x.w3d" },
	{ "C:/..", "/", "C:/" },
	{ "\\\\srv\\share\\a\\..\\b", "/\\\\srv\\share\\a\\..\\b", "//srv/share/b" },
};

START_TEST(path_normalize)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", norms[_i].in);
	wl_path_normalize(buf);
	ck_assert_str_eq(buf, windows() ? norms[_i].win : norms[_i].posix);
}
END_TEST

START_TEST(path_roots)
{
	ck_assert(wl_path_is_root("/"));
	ck_assert(!wl_path_is_root("/a"));
	ck_assert(!wl_path_is_root("a"));
	ck_assert(wl_path_is_absolute("/a"));
	ck_assert(!wl_path_is_absolute("a/b"));
	ck_assert(wl_path_is_root("C:/") == windows());
	ck_assert(wl_path_is_absolute("C:\\Games") == windows());
	ck_assert(wl_path_is_root("\\\\srv\\share\\") == windows());
	/* a root has no parent; a plain name neither */
	char b[64] = "/";
	ck_assert_int_eq(wl_path_parent(b), -1);
	strcpy(b, "name");
	ck_assert_int_eq(wl_path_parent(b), -1);
	strcpy(b, "/a/b");
	ck_assert_int_eq(wl_path_parent(b), 0);
	ck_assert_str_eq(b, "/a");
	ck_assert_int_eq(wl_path_parent(b), 0);
	ck_assert_str_eq(b, "/");
	strcpy(b, "C:/Mod");
	ck_assert_int_eq(wl_path_parent(b), 0);
	ck_assert_str_eq(b, windows() ? "C:/" : "C:");
	ck_assert_int_eq(wl_path_parent(b), -1);
	const char *s = "a/b\\c";
	ck_assert_ptr_eq(wl_path_last_sep(s), windows() ? s + 3 : s + 1);
	ck_assert((wl_path_last_sep("C:/") == NULL) == windows()); /* the root's own '/' */
}
END_TEST

extern Suite *path_suite(void);
Suite *path_suite(void)
{
	Suite *s = suite_create("path");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, path_to_folder, 0, (int)(sizeof folders / sizeof folders[0]));
	tcase_add_loop_test(tc, path_normalize, 0, (int)(sizeof norms / sizeof norms[0]));
	tcase_add_test(tc, path_roots);
	suite_add_tcase(s, tc);
	return s;
}
