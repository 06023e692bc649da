/*
 * config_path.c - the paths of the configuration (config.h): absolute
 * paths (the per-path-ignores key of a file) and path globs ("**" for any
 * number of folders, fnmatch() for one segment).
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

/*
 * The absolute form of path (malloc-owned, NULL when out of memory):
 * realpath() when path exists; else realpath() of its folder plus its last
 * segment; else path made absolute with the working directory and
 * normalised lexically.
 */
char *wl_cfg_absolute_path(const char *path)
{
	char *rp = wl_os_realpath(path);
	if (rp) {
		wl_path_normalize(rp); /* Windows: '\\' to '/' */
		return rp;
	}
	size_t n = strlen(path);
	const char *slash = wl_path_last_sep(path);
	if (slash && slash[1]) {
		char *dir = malloc(n + 2);
		if (!dir)
			return NULL;
		memcpy(dir, path, n + 1);
		wl_path_to_folder(dir);
		char *rd = wl_os_realpath(dir);
		free(dir);
		if (rd) {
			size_t rn = strlen(rd);
			char *out = malloc(rn + strlen(slash) + 2);
			if (out) {
				memcpy(out, rd, rn);
				strcpy(out + rn, slash);
				wl_path_normalize(out);
			}
			free(rd);
			return out;
		}
	}
	char cwd[PATH_MAX];
	const char *base = wl_path_is_absolute(path) ? "" : (wl_os_getcwd(cwd, sizeof cwd) ? cwd : "/");
	char *out = malloc(strlen(base) + n + 3);
	if (!out)
		return NULL;
	sprintf(out, "%s%s%s", base, base[0] ? "/" : "", path);
	wl_path_normalize(out);
	return out;
}

char *wl_config_file_key(const char *path)
{
	return path ? wl_cfg_absolute_path(path) : NULL;
}

/* A path glob split into NUL-terminated segments. */
typedef struct segs {
	char *buf;
	const char **seg;
	size_t count;
} segs;

static int split_segments(const char *s, segs *out)
{
	size_t n = strlen(s), count = 1;
	for (size_t i = 0; i < n; i++)
		count += s[i] == '/';
	out->buf = malloc(n + 1);
	out->seg = malloc(count * sizeof *out->seg);
	out->count = 0;
	if (!out->buf || !out->seg) {
		free(out->buf);
		free(out->seg);
		return -1;
	}
	memcpy(out->buf, s, n + 1);
	char *p = out->buf;
	for (;;) {
		char *e = strchr(p, '/');
		if (e)
			*e = 0;
		if (*p)
			out->seg[out->count++] = p;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/*
 * Dynamic programming over (pattern segment, path segment): reach[j] is
 * true when the pattern segments seen so far can match exactly the first j
 * path segments.  "**" matches zero or more whole segments; every other
 * segment is an fnmatch() pattern for one segment.  O(pattern x path)
 * fnmatch calls, so several "**" cannot make it exponential.
 */
int wl_path_glob_match(const char *pattern, const char *path)
{
	if (!pattern || !path)
		return 0;
	segs p, s;
	if (split_segments(pattern, &p))
		return 0;
	if (split_segments(path, &s)) {
		free(p.buf);
		free(p.seg);
		return 0;
	}
	bool *reach = calloc(s.count + 1, sizeof *reach);
	bool *next = calloc(s.count + 1, sizeof *next);
	int matched = 0;
	if (reach && next) {
		reach[0] = true;
		for (size_t i = 0; i < p.count; i++) {
			if (strcmp(p.seg[i], "**") == 0) {
				bool any = false;
				for (size_t j = 0; j <= s.count; j++) {
					any = any || reach[j];
					next[j] = any;
				}
			} else {
				next[0] = false;
				for (size_t j = 1; j <= s.count; j++)
					next[j] = reach[j - 1] && wl_os_fnmatch(p.seg[i], s.seg[j - 1]) == 0;
			}
			bool *t = reach;
			reach = next;
			next = t;
		}
		/* A match of the first j >= 1 segments is the file itself or a
		 * folder holding it. */
		for (size_t j = 1; j <= s.count && !matched; j++)
			matched = reach[j];
	}
	free(reach);
	free(next);
	free(p.buf);
	free(p.seg);
	free(s.buf);
	free(s.seg);
	return matched;
}
