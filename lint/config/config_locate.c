/*
 * config_locate.c - finding a file's configuration (config.h
 * wl_config_locate): .w3dlint.yaml in its folder or a folder above it, up
 * to the repository root.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "core/platform.h"

#include "config_int.h"

/* Does dir/name exist (any kind of file)?  want_file: only regular files. */
static int has_entry(const char *dir, const char *name, int want_file, char *buf, size_t cap,
		     wl_stat_memo *memo)
{
	int n = snprintf(buf, cap, "%s%s%s", dir, wl_path_is_root(dir) ? "" : "/", name);
	if (n < 0 || (size_t)n >= cap)
		return 0;
	mode_t mode;
	if (wl_stat_memo_mode(memo, buf, &mode) != 0)
		return 0;
	return want_file ? S_ISREG(mode) : 1;
}

/*
 * Walks up from file_path's directory (resolved with realpath, so ".." and
 * symbolic links are followed first).  In each directory .w3dlint.yaml (a
 * regular file) is looked for before .git (a directory, or a file as in
 * submodules and worktrees), so a repository root's own configuration is
 * found.  A path naming a directory starts the walk there.  A result that
 * does not fit in outcap bytes counts as not found.
 */
int wl_config_locate(const char *file_path, char *out, size_t outcap)
{
	return wl_config_locate_memo(file_path, out, outcap, NULL);
}

int wl_config_locate_memo(const char *file_path, char *out, size_t outcap, wl_stat_memo *memo)
{
	if (out && outcap)
		out[0] = 0;
	if (!file_path || !out || outcap == 0)
		return 0;
	/* The directory part of file_path ("." when it has none); a directory
	 * given as file_path is its own starting point. */
	size_t plen = strlen(file_path);
	char *dirpart = malloc(plen + 2);
	if (!dirpart)
		return 0;
	memcpy(dirpart, file_path, plen + 1);
	struct stat st;
	if (wl_os_stat(file_path, &st) != 0 || !S_ISDIR(st.st_mode))
		wl_path_to_folder(dirpart);
	char *dir = wl_os_realpath(dirpart);
	free(dirpart);
	if (!dir)
		return 0;
	size_t cap = strlen(dir) + sizeof CONFIG_NAME + 8;
	char *probe = malloc(cap);
	int found = 0;
	while (probe) {
		if (has_entry(dir, CONFIG_NAME, 1, probe, cap, memo)) {
			if (strlen(probe) < outcap) {
				memcpy(out, probe, strlen(probe) + 1);
				found = 1;
			}
			break;
		}
		if (has_entry(dir, ".git", 0, probe, cap, memo) || wl_path_is_root(dir))
			break; /* the repository root, or the file system root */
		if (wl_path_parent(dir) != 0)
			break;
	}
	free(probe);
	free(dir);
	return found;
}
