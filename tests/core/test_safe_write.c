/* tests/core/test_safe_write.c - core/safe_write.h on a fresh folder: a new file gets
 * create_mode less the umask; a replaced file keeps its mode and bytes until
 * the commit; abort leaves the target and no temporary file; FIFOs are
 * refused at the lock, hard links and read-only files at the open unless
 * their flag is given; symbolic links are followed and stay; backups take
 * NAME.bak, then NAME.bak.1; the named fallback (W3DLINT_NO_TMPFILE) leaves
 * nothing behind either. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safe_write.h"

static char dir[64];
static char path[128];

static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/sw-check-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/m.w3d", dir);
}

static void teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		char p[400];
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			unlink(p);
		}
	}
	if (d)
		closedir(d);
	rmdir(dir);
	unsetenv("W3DLINT_NO_TMPFILE");
}

static void put(const char *p, const char *s, mode_t mode)
{
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(s, f);
	fclose(f);
	chmod(p, mode);
}

static char *get(const char *p)
{
	static char buf[256];
	FILE *f = fopen(p, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* Files in dir. */
static int entries(void)
{
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

/* The permission bits of p. */
static unsigned mode_of(const char *p)
{
	struct stat st;
	ck_assert_int_eq(stat(p, &st), 0);
	return st.st_mode & 07777;
}

/* Locks and opens path for replacing; loop 1 of a test: the named
 * temporary file. */
static void begin(wl_sw *w, int named)
{
	if (named)
		setenv("W3DLINT_NO_TMPFILE", "1", 1);
	ck_assert_int_eq(wl_sw_lock(w, path, 0), WL_SW_OK);
	ck_assert(w->existed);
	ck_assert_int_eq(wl_sw_open(w, 0666), WL_SW_OK);
}

START_TEST(sw_new_file)
{
	if (_i)
		setenv("W3DLINT_NO_TMPFILE", "1", 1);
	mode_t old = umask(027);
	wl_sw w;
	ck_assert_int_eq(wl_sw_write_file(&w, path, 0, 0666, "new", 3), WL_SW_OK);
	umask(old);
	ck_assert_str_eq(get(path), "new");
	ck_assert_uint_eq(mode_of(path), 0640);
	ck_assert_int_eq(entries(), 1); /* no temporary file left */
}
END_TEST

START_TEST(sw_replace_keeps_mode_until_commit)
{
	put(path, "old", 0604);
	wl_sw w;
	begin(&w, _i);
	ck_assert_int_eq(wl_sw_write(&w, "replaced", 8), WL_SW_OK);
	ck_assert_str_eq(get(path), "old"); /* not before the commit */
	ck_assert_int_eq(wl_sw_commit(&w), WL_SW_OK);
	ck_assert_str_eq(get(path), "replaced");
	ck_assert_uint_eq(mode_of(path), 0604);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(sw_abort_leaves_target)
{
	put(path, "old", 0644);
	wl_sw w;
	begin(&w, _i);
	FILE *f = wl_sw_stream(&w);
	ck_assert_ptr_nonnull(f);
	fputs("half", f);
	wl_sw_abort(&w);
	wl_sw_abort(&w); /* twice is safe */
	ck_assert_str_eq(get(path), "old");
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(sw_fifo_refused)
{
	ck_assert_int_eq(mkfifo(path, 0644), 0);
	wl_sw w;
	ck_assert_int_eq(wl_sw_lock(&w, path, 0), WL_SW_NOTREG);
	char msg[512];
	wl_sw_message(msg, sizeof msg, "t", path, &w, WL_SW_NOTREG, 0, NULL, NULL);
	ck_assert_ptr_nonnull(strstr(msg, "not a regular file (a FIFO); not written"));
	struct stat st;
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
}
END_TEST

START_TEST(sw_hard_link_and_readonly)
{
	char other[160];
	snprintf(other, sizeof other, "%s/other.w3d", dir);
	put(path, "old", 0644);
	ck_assert_int_eq(link(path, other), 0);
	wl_sw w;
	ck_assert_int_eq(wl_sw_lock(&w, path, 0), WL_SW_OK);
	ck_assert_int_eq(wl_sw_open(&w, 0666), WL_SW_LINKS);
	wl_sw_abort(&w);
	ck_assert_int_eq(wl_sw_write_file(&w, path, WL_SW_BREAK_LINKS, 0666, "new", 3), WL_SW_OK);
	ck_assert_str_eq(get(path), "new");
	ck_assert_str_eq(get(other), "old");

	chmod(path, 0444);
	ck_assert_int_eq(wl_sw_write_file(&w, path, 0, 0666, "ro", 2), WL_SW_READONLY);
	ck_assert_str_eq(get(path), "new");
	ck_assert_int_eq(wl_sw_write_file(&w, path, WL_SW_READONLY_OK, 0666, "ro", 2), WL_SW_OK);
	ck_assert_str_eq(get(path), "ro");
	ck_assert_uint_eq(mode_of(path), 0444);
}
END_TEST

START_TEST(sw_symlink_followed)
{
	char link_path[160];
	snprintf(link_path, sizeof link_path, "%s/link.w3d", dir);
	put(path, "old", 0644);
	ck_assert_int_eq(symlink("m.w3d", link_path), 0);
	wl_sw w;
	ck_assert_int_eq(wl_sw_write_file(&w, link_path, 0, 0666, "via", 3), WL_SW_OK);
	ck_assert(w.through_link);
	struct stat st;
	ck_assert_int_eq(lstat(link_path, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_str_eq(get(path), "via");
}
END_TEST

START_TEST(sw_backups_never_replaced)
{
	put(path, "v1", 0640);
	char name[300], bak[160];
	for (int k = 0; k < 2; k++) {
		wl_sw w;
		begin(&w, _i);
		ck_assert_int_eq(wl_sw_backup(&w, (const uint8_t *)get(path), 2, name, sizeof name), WL_SW_OK);
		ck_assert_int_eq(wl_sw_write(&w, k ? "v3" : "v2", 2), WL_SW_OK);
		ck_assert_int_eq(wl_sw_commit(&w), WL_SW_OK);
	}
	snprintf(bak, sizeof bak, "%s.bak", path);
	ck_assert_str_eq(get(bak), "v1");
	snprintf(bak, sizeof bak, "%s.bak.1", path);
	ck_assert_str_eq(name, bak);
	ck_assert_str_eq(get(bak), "v2");
	ck_assert_str_eq(get(path), "v3");
	ck_assert_uint_eq(mode_of(bak), 0640);
	ck_assert_int_eq(entries(), 3);
}
END_TEST

extern Suite *safe_write_suite(void);
Suite *safe_write_suite(void)
{
	Suite *s = suite_create("safe_write");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	/* loop 0: O_TMPFILE where the file system has it; 1: named temporary file */
	tcase_add_loop_test(tc, sw_new_file, 0, 2);
	tcase_add_loop_test(tc, sw_replace_keeps_mode_until_commit, 0, 2);
	tcase_add_loop_test(tc, sw_abort_leaves_target, 0, 2);
	tcase_add_test(tc, sw_fifo_refused);
	tcase_add_test(tc, sw_hard_link_and_readonly);
	tcase_add_test(tc, sw_symlink_followed);
	tcase_add_loop_test(tc, sw_backups_never_replaced, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
