/* tests/core/test_platform.c - the operating-system layer (core/platform.h)
 * gives the same answers on every platform: fnmatch without flags, the
 * memory stream, strndup, a folder with a UTF-8 name listed, stat'ed,
 * opened and resolved, path separators.  The Windows build runs these
 * same cases under Wine (issue 27). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/platform.h"

/* fnmatch(3) with flags 0, as POSIX specifies it (XCU 2.13). */
static const struct {
	const char *pat, *s;
	int match;
} globs[] = {
	{ "aabtree-*", "aabtree-leaf-range", 1 },
	{ "aabtree-*", "chunk-size", 0 },
	{ "*", "", 1 },
	{ "*", "a/b", 1 },            /* no FNM_PATHNAME: '*' crosses '/' */
	{ "a?c", "abc", 1 },
	{ "a?c", "ac", 0 },
	{ "a?c", "a/c", 1 },
	{ "*.w3d", "x.W3D", 0 },      /* case matters */
	{ "[a-c]x", "bx", 1 },
	{ "[a-c]x", "dx", 0 },
	{ "[!a-c]x", "dx", 1 },
	{ "[!a-c]x", "ax", 0 },
	{ "[]a]", "]", 1 },           /* ']' first is a member */
	{ "[*]", "*", 1 },
	{ "[*]", "a", 0 },
	{ "\\*", "*", 1 },           /* backslash quotes */
	{ "\\*", "a", 0 },
	{ "a\\?", "a?", 1 },
	{ "a\\?", "ab", 0 },
	{ "*-*-*", "w3d-mesh-x", 1 },
	{ "*-*-*", "w3d-mesh", 0 },
	{ "**x", "abx", 1 },
	{ "b3d-*weight*", "b3d-bone-weight-zero", 1 },
	{ "", "", 1 },
	{ "", "a", 0 },
	{ "caf\xC3\xA9*", "caf\xC3\xA9s", 1 },
	/* the corners glibc decides (core/platform/win32_fnmatch.c) */
	{ "a\\", "a\\", 0 },        /* a lone '\' at the end matches nothing */
	{ "[[:digit:]]x", "7x", 1 },
	{ "[![:upper:]]", "A", 0 },
	{ "[![:upper:]]", "a", 1 },
	{ "[[:foo:]]", "f", 0 },      /* no such class */
	{ "[[:x]", "[", 1 },          /* not a class: '[' is a member */
	{ "[[=a=]]", "a", 1 },
	{ "[[.a.]-c]", "b", 1 },
	{ "[ab", "[ab", 1 },          /* no ']': the '[' is a plain byte */
	{ "[ab", "a", 0 },
	{ "[a-", "[a-", 0 },          /* a range without its end fails */
	{ "[a-]", "-", 1 },
	{ "[\\]]", "]", 1 },
	{ "[\xC3-\xC4]", "\xC3", 1 }, /* ranges by byte value */
	{ "[\xC3-\xC4]", "a", 0 },
};

START_TEST(platform_fnmatch)
{
	int got = wl_os_fnmatch(globs[_i].pat, globs[_i].s) == 0;
	ck_assert_msg(got == globs[_i].match, "'%s' against '%s': %d", globs[_i].pat, globs[_i].s, got);
}
END_TEST

START_TEST(platform_memstream)
{
	wl_os_memstream ms;
	FILE *f = wl_os_memstream_open(&ms);
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < 5000; i++)
		fprintf(f, "%d,", i);
	char *buf = NULL;
	size_t len = 0;
	ck_assert_int_eq(wl_os_memstream_close(&ms, &buf, &len), 0);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(len, strlen(buf));
	ck_assert(strncmp(buf, "0,1,2,", 6) == 0);
	ck_assert(strcmp(buf + len - 5, "4999,") == 0);
	free(buf);
	/* nothing written: an empty string, not NULL */
	f = wl_os_memstream_open(&ms);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(wl_os_memstream_close(&ms, &buf, &len), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_str_eq(buf, "");
	free(buf);
}
END_TEST

START_TEST(platform_strndup_sep)
{
	char *s = wl_os_strndup("abcdef", 3);
	ck_assert_str_eq(s, "abc");
	free(s);
	s = wl_os_strndup("ab", 10);
	ck_assert_str_eq(s, "ab");
	free(s);
	ck_assert(wl_os_is_sep('/'));
	ck_assert(!wl_os_is_sep('a'));
	ck_assert(!wl_os_is_sep(':'));
	ck_assert_uint_ge(wl_os_cpus(), 1);
}
END_TEST

/* A fresh folder under the system's temporary folder. */
static void temp_folder(char *buf, size_t cap)
{
	const char *t = getenv("TMPDIR");
	if (!t || !*t)
		t = getenv("TEMP");
	if (!t || !*t)
		t = "/tmp";
	static unsigned seq;
	for (int tries = 0; tries < 100; tries++) {
		snprintf(buf, cap, "%s/wl_platform_%lx_%u", t, (unsigned long)time(NULL) ^ (unsigned long)clock(), ++seq);
		if (wl_os_mkdir(buf) == 0)
			return;
	}
	ck_abort_msg("no temporary folder under %s", t);
}

/* A folder named Modèles holding é.w3d (UTF-8 names): listed with its kind,
 * stat'ed, opened, read at an offset and resolved to an absolute path. */
START_TEST(platform_utf8_folder)
{
	char root[512], dir[600], file[700];
	temp_folder(root, sizeof root);
	snprintf(dir, sizeof dir, "%s/Mod\xC3\xA8les", root);
	ck_assert_int_eq(wl_os_mkdir(dir), 0);
	ck_assert_int_ne(wl_os_mkdir(dir), 0);
	ck_assert_int_eq(errno, EEXIST);
	snprintf(file, sizeof file, "%s/\xC3\xA9.w3d", dir);
	FILE *f = wl_os_fopen(file, "wb");
	ck_assert_ptr_nonnull(f);
	fputs("0123456789\n", f);
	ck_assert_int_eq(fclose(f), 0);

	struct stat st;
	ck_assert_int_eq(wl_os_stat(file, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_int_eq((int)st.st_size, 11); /* no CR added */
	ck_assert_int_eq(wl_os_stat(dir, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_int_eq(wl_os_lstat(file, &st), 0);
	ck_assert(!S_ISLNK(st.st_mode));
	char missing[720];
	snprintf(missing, sizeof missing, "%s/none.w3d", dir);
	ck_assert_int_ne(wl_os_stat(missing, &st), 0);
	ck_assert_int_eq(errno, ENOENT);

	wl_os_dir *d = wl_os_opendir(dir);
	ck_assert_ptr_nonnull(d);
	int kind, seen = 0;
	for (const char *nm; (nm = wl_os_readdir(d, &kind)) != NULL;) {
		if (nm[0] == '.')
			continue;
		ck_assert_str_eq(nm, "\xC3\xA9.w3d");
		ck_assert(kind == WL_OS_DT_REG || kind == WL_OS_DT_UNKNOWN);
		seen++;
	}
	wl_os_closedir(d);
	ck_assert_int_eq(seen, 1);
	ck_assert_ptr_null(wl_os_opendir(missing));

	int fd = wl_os_open_read(file, true);
	ck_assert_int_ge(fd, 0);
	char b[4] = { 0 };
	ck_assert_int_eq((int)wl_os_pread(fd, b, 3, 4), 3);
	ck_assert(memcmp(b, "456", 3) == 0);
	ck_assert_int_eq((int)wl_os_pread(fd, b, 3, 11), 0);
	close(fd);
	ck_assert_int_lt(wl_os_open_read(missing, false), 0);

	char *real = wl_os_realpath(file);
	ck_assert_ptr_nonnull(real);
	size_t n = strlen(real);
	ck_assert(n > 6 && strcmp(real + n - 6, "\xC3\xA9.w3d") == 0);
	ck_assert(wl_os_is_sep(real[n - 7]));
	free(real);
	ck_assert_ptr_null(wl_os_realpath(missing));
	ck_assert_int_eq(errno, ENOENT);

	char cwd[4096];
	ck_assert_ptr_nonnull(wl_os_getcwd(cwd, sizeof cwd));
	ck_assert_ptr_null(wl_os_getcwd(cwd, 1));

	ck_assert_int_eq(wl_os_remove(file), 0);
	ck_assert_int_eq(wl_os_remove(dir), 0);
	ck_assert_int_eq(wl_os_remove(root), 0);
	ck_assert_int_ne(wl_os_stat(dir, &st), 0);
}
END_TEST

START_TEST(platform_aligned)
{
	void *p = wl_os_aligned_alloc(2u << 20, 4096);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq((uintptr_t)p % (2u << 20), 0);
	wl_os_advise_huge(p, 4096);
	wl_os_prefault(p, 4096);
	memset(p, 1, 4096);
	wl_os_aligned_free(p);
	p = wl_os_aligned_alloc(0, 100);
	ck_assert_ptr_nonnull(p);
	wl_os_aligned_free(p);
	char e[128];
	wl_os_strerror(ENOENT, e, sizeof e);
	ck_assert(strlen(e) > 0);
}
END_TEST

extern Suite *platform_suite(void);
Suite *platform_suite(void)
{
	Suite *s = suite_create("platform");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, platform_fnmatch, 0, (int)(sizeof globs / sizeof globs[0]));
	tcase_add_test(tc, platform_memstream);
	tcase_add_test(tc, platform_strndup_sep);
	tcase_add_test(tc, platform_utf8_folder);
	tcase_add_test(tc, platform_aligned);
	suite_add_tcase(s, tc);
	return s;
}
