/*
 * run_names.c - the output names of a w3dfix run (run.h
 * wl_fixrun_set_files): each file's path under -o OUT, two inputs with one
 * output name and standard input where it cannot be written refused before
 * anything is written.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/escape.h"
#include "core/path.h"
#include "core/platform.h"
#include "run_int.h"

static bool is_dir(const char *path)
{
	struct stat st;
	return wl_os_stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The output path of file (found under arg) for -o OUT, into buf (cap
 * bytes): OUT itself for the single input when OUT is not a folder, else
 * OUT/REL.  -1 when it does not fit (errno ENAMETOOLONG for OUT/REL). */
static int out_path(const char *output, const char *arg, const char *file, bool single, char *buf, size_t cap)
{
	if (single && !is_dir(output))
		return snprintf(buf, cap, "%s", output) < (int)cap ? 0 : -1;
	const char *rel;
	size_t al = strlen(arg);
	if (strcmp(arg, file) != 0 && strncmp(file, arg, al) == 0) {
		rel = file + al;
		while (wl_os_is_sep(*rel))
			rel++;
	} else {
		const char *slash = wl_path_last_sep(file);
		rel = slash ? slash + 1 : file + wl_os_path_root(file);
	}
	bool sep = output[0] && !wl_os_is_sep(output[strlen(output) - 1]);
	if (snprintf(buf, cap, "%s%.*s%s", output, sep ? 1 : 0, (const char[]){ wl_path_sep_of(output), 0 }, rel) >=
	    (int)cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

typedef struct out_name {
	const char *target, *source;
} out_name;

static int cmp_out_name(const void *a, const void *b)
{
	return strcmp(((const out_name *)a)->target, ((const out_name *)b)->target);
}

/* The -o output path of every file, in walk order, into r->targets
 * (malloc'd strings).  -1 after printing why: a name too long, or two
 * inputs that map to the same output name (the second would replace the
 * first). */
static int out_targets(wl_fixrun *r, bool single)
{
	const char *tool = r->o.tool;
	for (size_t i = 0; i < r->count; i++) {
		char buf[WL_SW_PATH_MAX];
		if (out_path(r->o.output, r->items[i].arg, r->items[i].path, single, buf, sizeof buf) != 0) {
			fprintf(r->o.diag, "%s: %s: output name too long; nothing written\n", tool, wl_esc(r->items[i].path));
			return -1;
		}
		if (!(r->targets[i] = strdup(buf))) {
			fprintf(r->o.diag, "%s: out of memory\n", tool);
			return -1;
		}
	}
	size_t n = r->count;
	out_name *names = malloc((n ? n : 1) * sizeof *names);
	if (!names) {
		fprintf(r->o.diag, "%s: out of memory\n", tool);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		names[i] = (out_name){ r->targets[i], r->items[i].path };
	qsort(names, n, sizeof *names, cmp_out_name);
	int rc = 0;
	for (size_t i = 1; i < n; i++)
		if (strcmp(names[i - 1].target, names[i].target) == 0) {
			fprintf(r->o.diag, "%s: %s and %s would both be written to %s; nothing written\n", tool,
				wl_esc(names[i - 1].source), wl_esc(names[i].source), wl_esc(names[i].target));
			rc = -1;
		}
	free(names);
	return rc;
}

/* "-" (standard input) where it cannot be: with --in-place, or with -o
 * naming a folder (no name to give it there).  Prints why. */
static bool stdin_misused(const wl_fixrun *r, const char *const *args, size_t nargs, bool single)
{
	for (size_t a = 0; a < nargs; a++) {
		if (strcmp(args[a], "-") != 0)
			continue;
		if (r->o.in_place) {
			fprintf(r->o.diag, "%s: -: standard input cannot be written in place (use -o FILE)\n", r->o.tool);
			return true;
		}
		if (r->o.output && (!single || is_dir(r->o.output))) {
			fprintf(r->o.diag, "%s: -: standard input needs -o FILE, the only input, not a folder\n",
				r->o.tool);
			return true;
		}
	}
	return false;
}

int wl_fixrun_names(wl_fixrun *r, const char *const *args, size_t nargs)
{
	/* one input file, not a folder: -o names the file itself */
	bool single = r->count == 1 && nargs == 1 && !is_dir(args[0]);
	if (r->writing && r->o.output && strcmp(r->o.output, "-") == 0 && !single) {
		fprintf(r->o.diag, "%s: -o - (standard output) takes one input file, not a folder or several\n",
			r->o.tool);
		return -1;
	}
	if (r->writing && r->o.output) {
		r->targets = calloc(r->count ? r->count : 1, sizeof *r->targets);
		if (!r->targets || out_targets(r, single) != 0)
			return -1;
	}
	return stdin_misused(r, args, nargs, single) ? -1 : 0;
}
