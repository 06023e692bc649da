/* path.c - folder paths taken apart on every platform; see path.h. */
#include "path.h"

#include <stdlib.h>
#include <string.h>

#include "platform.h"

const char *wl_path_last_sep(const char *path)
{
	size_t root = wl_os_path_root(path);
	const char *last = NULL;
	for (const char *p = path + root; *p; p++)
		if (wl_os_is_sep(*p))
			last = p;
	return last;
}

bool wl_path_is_root(const char *path)
{
	size_t root = wl_os_path_root(path);
	return root > 0 && path[root] == 0;
}

bool wl_path_is_absolute(const char *path)
{
	return wl_os_path_root(path) > 0;
}

void wl_path_to_folder(char *path)
{
	size_t root = wl_os_path_root(path);
	if (root > 0 && path[root] == 0)
		return;
	char *slash = (char *)(uintptr_t)wl_path_last_sep(path);
	if (slash)
		*slash = 0;
	else if (root > 0)
		path[root] = 0;
	else
		strcpy(path, ".");
}

int wl_path_parent(char *dir)
{
	size_t root = wl_os_path_root(dir);
	if (root > 0 && dir[root] == 0)
		return -1;
	char *up = (char *)(uintptr_t)wl_path_last_sep(dir);
	if (up)
		*up = 0;
	else if (root > 0)
		dir[root] = 0;
	else
		return -1;
	return 0;
}

void wl_path_normalize(char *s)
{
	size_t root = wl_os_path_root(s);
	for (size_t i = 0; i < root; i++)
		if (wl_os_is_sep(s[i]))
			s[i] = '/';
	if (root == 0 || s[root - 1] != '/') {
		/* "C:" (a drive's folder) or no root: the segments follow a '/' */
		memmove(s + root + 1, s + root, strlen(s + root) + 1);
		s[root++] = '/';
	}
	char *w = s + root;
	const char *r = s + root;
	while (*r) {
		while (wl_os_is_sep(*r))
			r++;
		if (!*r)
			break;
		size_t n = 0;
		while (r[n] && !wl_os_is_sep(r[n]))
			n++;
		if (n == 1 && r[0] == '.') {
			/* skip */
		} else if (n == 2 && r[0] == '.' && r[1] == '.') {
			while (w > s + root && *(w - 1) != '/')
				w--;
			if (w > s + root)
				w--; /* the '/' before the removed segment */
		} else {
			if (w > s + root)
				*w++ = '/';
			memmove(w, r, n);
			w += n;
		}
		r += n;
	}
	*w = 0;
}

char *wl_path_slashes(const char *path)
{
	size_t n = strlen(path);
	char *s = malloc(n + 1);
	if (!s)
		return NULL;
	for (size_t i = 0; i <= n; i++)
		s[i] = i < n && wl_os_is_sep(path[i]) ? '/' : path[i];
	return s;
}

char wl_path_sep_of(const char *path)
{
	char sep = '/';
	for (const char *p = path; *p; p++)
		if (wl_os_is_sep(*p))
			sep = *p;
	return sep;
}
