/* tree_walk.c - the regular files below a folder; see tree_walk.h. */
#include "tree_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/platform.h"

static int walk(const char *dir, int depth, void (*fn)(const char *path, void *ud), void *ud)
{
	wl_os_dir *d = wl_os_opendir(dir);
	if (!d)
		return -1;
	int kind;
	for (const char *nm; (nm = wl_os_readdir(d, &kind)) != NULL;) {
		if (!strcmp(nm, ".") || !strcmp(nm, ".."))
			continue;
		size_t n = strlen(dir) + strlen(nm) + 2;
		char *p = malloc(n);
		if (!p)
			break;
		snprintf(p, n, "%s/%s", dir, nm);
		struct stat st;
		if (kind != WL_OS_DT_LNK && wl_os_lstat(p, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < 16)
				walk(p, depth + 1, fn, ud);
			else if (S_ISREG(st.st_mode))
				fn(p, ud);
		}
		free(p);
	}
	wl_os_closedir(d);
	return 0;
}

int t_walk_files(const char *root, void (*fn)(const char *path, void *ud), void *ud)
{
	return walk(root, 0, fn, ud);
}
