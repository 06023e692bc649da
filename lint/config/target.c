/* target.c - the registered targets and the mod-layout detection; see
 * target.h.  The names are the lint parts' data (registry.h). */
#include "target.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/path.h"
#include "core/platform.h"

#include "config.h"
#include "lint/registry.h"

/* Deepest folder level the layout search climbs. */
#define LAYOUT_LEVELS 8

typedef struct target_entry {
	const char *name;
	const char *format;
} target_entry;

/* Built once from the registry (the registry is constant, so two threads
 * building it at once write the same values). */
static target_entry table[WL_TARGETS_MAX];
static size_t table_count;
static char names_text[512];

static void build(void)
{
	if (table_count)
		return;
	size_t nf, n = 0;
	const wl_lint_format *const *fs = wl_lint_formats(&nf);
	for (size_t i = 0; i < nf; i++)
		for (const char *const *t = fs[i]->targets; t && *t && n < WL_TARGETS_MAX; t++)
			table[n++] = (target_entry){ *t, fs[i]->format };
	size_t at = 0;
	for (size_t i = 0; i < n && at < sizeof names_text; i++)
		at += (size_t)snprintf(names_text + at, sizeof names_text - at, "%s%s", i ? ", " : "", table[i].name);
	table_count = n;
}

size_t wl_target_count(void)
{
	build();
	return table_count;
}

const char *wl_target_name(size_t i)
{
	build();
	return i < table_count ? table[i].name : NULL;
}

const char *wl_target_format(size_t i)
{
	build();
	return i < table_count ? table[i].format : NULL;
}

int wl_target_find(const char *name)
{
	build();
	if (!name)
		return -1;
	for (size_t i = 0; i < table_count; i++)
		if (strcasecmp(table[i].name, name) == 0)
			return (int)i;
	size_t nf;
	const wl_lint_format *const *fs = wl_lint_formats(&nf);
	for (size_t i = 0; i < nf; i++)
		for (const char *const *a = fs[i]->target_aliases; a && a[0] && a[1]; a += 2)
			if (strcasecmp(a[0], name) == 0)
				return wl_target_find(a[1]);
	return -1;
}

wl_target_mask wl_target_format_mask(const char *fmt)
{
	build();
	wl_target_mask m = 0;
	for (size_t i = 0; i < table_count; i++)
		if (!fmt || !fmt[0] || strcmp(table[i].format, fmt) == 0)
			m |= (wl_target_mask)1 << i;
	return m;
}

int wl_target_parse(const char *list, wl_target_mask *out, char *bad, size_t badcap)
{
	*out = 0;
	const char *p = list ? list : "";
	while (*p) {
		while (*p == ',' || *p == ' ')
			p++;
		size_t n = strcspn(p, ", ");
		if (!n)
			break;
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
		if (strcasecmp(name, "any") == 0) {
			*out |= wl_target_format_mask(NULL);
		} else if (strcasecmp(name, "auto") != 0) {
			int t = wl_target_find(name);
			if (t < 0) {
				if (bad && badcap)
					snprintf(bad, badcap, "%s", name);
				return -1;
			}
			*out |= (wl_target_mask)1 << t;
		}
		p += n;
	}
	return 0;
}

const char *wl_target_names(void)
{
	build();
	return names_text;
}

char *wl_target_mask_names(wl_target_mask m, char *buf, size_t cap)
{
	build();
	size_t at = 0;
	if (cap)
		buf[0] = 0;
	for (size_t i = 0; i < table_count && at < cap; i++)
		if (m & ((wl_target_mask)1 << i))
			at += (size_t)snprintf(buf + at, cap - at, "%s%s", at ? ", " : "", table[i].name);
	if (!m && cap)
		snprintf(buf, cap, "none");
	return buf;
}

/* The targets of the markers found in folder dir (0: none). */
static wl_target_mask layout_at(const char *dir, wl_stat_memo *memo)
{
	size_t nf;
	const wl_lint_format *const *fs = wl_lint_formats(&nf);
	wl_target_mask m = 0;
	for (size_t i = 0; i < nf; i++)
		for (const wl_layout_marker *k = fs[i]->layout; k && k->name; k++) {
			mode_t mode;
			/* in any letter case: Data/INI, data/ini, DATA/Ini */
			if (wl_stat_memo_mode_ci(memo, dir, k->name, &mode) != 0)
				continue;
			const char *names = k->refine ? k->refine(dir, k->name, memo) : NULL;
			wl_target_mask t;
			if (wl_target_parse(names ? names : k->targets, &t, NULL, 0) == 0)
				m |= t;
		}
	return m;
}

wl_target_mask wl_target_layout(const char *path)
{
	return wl_target_layout_memo(path, NULL);
}

wl_target_mask wl_target_layout_memo(const char *path, wl_stat_memo *memo)
{
	if (!path || !path[0])
		return 0;
	char *dir = wl_os_realpath(path);
	if (!dir)
		return 0;
	struct stat st;
	if (wl_os_stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
		wl_path_to_folder(dir);
	wl_target_mask m = 0;
	char git[PATH_MAX];
	for (int level = 0; level < LAYOUT_LEVELS && !m; level++) {
		m = layout_at(dir, memo);
		if (m || wl_path_is_root(dir))
			break;
		mode_t mode;
		if (snprintf(git, sizeof git, "%s/.git", dir) < (int)sizeof git &&
		    wl_stat_memo_mode(memo, git, &mode) == 0)
			break;
		if (wl_path_parent(dir) != 0)
			break;
	}
	free(dir);
	return m;
}
