/* select.c - the command line's rule selection and targets; see select.h. */
#include "select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/platform.h"
#include "lint/config/suggest.h"

static void sync(wl_cli_sel *s)
{
	s->rules.select = s->select;
	s->rules.select_count = s->nselect;
	s->rules.extend_select = s->extend;
	s->rules.extend_count = s->nextend;
	s->rules.ignore = s->ignore;
	s->rules.ignore_count = s->nignore;
}

int wl_cli_split_list(const char ***list, size_t *n, size_t *cap, char *arg)
{
	char *save = NULL;
	for (char *tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		if (!*tok)
			continue;
		if (!wl_grow((void **)list, cap, *n + 1, sizeof **list))
			return -1;
		(*list)[(*n)++] = tok;
	}
	return 0;
}

int wl_cli_sel_add(wl_cli_sel *s, int which, char *arg)
{
	const char ***list = which == WL_SEL_SELECT ? &s->select : which == WL_SEL_EXTEND ? &s->extend : &s->ignore;
	size_t *n = which == WL_SEL_SELECT ? &s->nselect : which == WL_SEL_EXTEND ? &s->nextend : &s->nignore;
	size_t *cap = which == WL_SEL_SELECT ? &s->cselect : which == WL_SEL_EXTEND ? &s->cextend : &s->cignore;
	int rc = wl_cli_split_list(list, n, cap, arg);
	sync(s);
	return rc;
}

int wl_cli_sel_target(wl_cli_sel *s, const char *tool, const char *opt, const char *arg)
{
	char bad[64];
	if (wl_target_parse(arg, &s->rules.target, bad, sizeof bad) != 0) {
		fprintf(stderr, "%s: unknown target '%s' for %s (auto, any, %s)\n", tool, bad, opt,
			wl_target_names());
		return -1;
	}
	return 0;
}

static int check_list(const char *const *l, size_t n, const wl_catalog *cat, const char *tool, const char *opt)
{
	for (size_t i = 0; i < n; i++) {
		bool glob = strpbrk(l[i], "*?[") != NULL, found = false;
		wl_suggest sg;
		wl_suggest_init(&sg, l[i]);
		for (size_t k = 0; k < wl_catalog_count(cat) && !found; k++) {
			const char *id = wl_catalog_at(cat, k)->id;
			found = glob ? wl_os_fnmatch(l[i], id) == 0 : strcmp(l[i], id) == 0;
			wl_suggest_offer(&sg, id);
		}
		if (!found) {
			fprintf(stderr, "%s: %s: %s '%s'%s%s%s (%s --list-rules lists them)\n", tool, opt,
				glob ? "pattern matches no rule id:" : "unknown rule id", l[i],
				!glob && sg.best ? "; did you mean '" : "", !glob && sg.best ? sg.best : "",
				!glob && sg.best ? "'?" : "", tool);
			return -1;
		}
	}
	return 0;
}

int wl_cli_sel_check(const wl_cli_sel *s, const wl_catalog *cat, const char *tool)
{
	if (check_list(s->select, s->nselect, cat, tool, "--select") ||
	    check_list(s->extend, s->nextend, cat, tool, "--extend-select") ||
	    check_list(s->ignore, s->nignore, cat, tool, "--ignore"))
		return -1;
	return 0;
}

void wl_cli_sel_free(wl_cli_sel *s)
{
	free(s->select);
	free(s->extend);
	free(s->ignore);
	memset(s, 0, sizeof *s);
}
