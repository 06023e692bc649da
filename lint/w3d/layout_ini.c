/*
 * layout_ini.c - what a SAGE mod's INI files say about its game (the
 * Data/INI layout marker's refine, registry.h wl_layout_marker.refine).
 *
 * Data/INI names Generals, Zero Hour, BFME I/II and RotWK alike.  The INI
 * blocks below exist only in the BFME games (OpenSAGE marks their parsers
 * [AddedIn(SageGame.Bfme)]: OpenSage.Data.Ini LivingWorldMapInfo,
 * LivingWorldCampaign, WaterTextureList, OpenSage.LivingWorld
 * LivingWorldRegionCampaign, OpenSage.Logic.Object W3dHordeModelDrawModuleData
 * for the W3DHordeModelDraw draw module), so a mod whose INI files hold one
 * at the start of a line is a BFME mod.  Nothing in Zero Hour's INI files is
 * absent from BFME's, so the marker's "generals,bfme" is never narrowed to
 * generals here.
 *
 * Bounded: the *.ini files of Data/INI and of its subfolders one level down
 * (Data/INI/Object/...), at most INI_FILES_MAX files and INI_BYTES_MAX
 * bytes of each; letter case ignored in folder names, extensions and block
 * names (the games read their files case-insensitively).  The answer is
 * remembered per mod folder in the run's memo (stat_memo.h).
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/platform.h"

#include "targets.h"

#define INI_FILES_MAX 512
#define INI_BYTES_MAX (1u << 20)
/* the memo tag of this probe's answers (stat_memo.h wl_stat_memo_ask) */
#define INI_MEMO_TAG 2

/* BFME-only INI words that start a line: top-level blocks, and the draw
 * module a "Draw = W3DHordeModelDraw ModuleTag" line names (matched as
 * the line's second word after "Draw ="). */
static const char *const bfme_blocks[] = { "LivingWorldMapInfo", "LivingWorldCampaign",
					   "LivingWorldRegionCampaign", "WaterTextureList", NULL };
static const char bfme_draw[] = "W3DHordeModelDraw";

/* Whether the word at p (n bytes, up to a blank, '=' or the end) is w. */
static bool word_is(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && strncasecmp(p, w, n) == 0;
}

static size_t word_len(const char *p, const char *end)
{
	size_t n = 0;
	while (p + n < end && p[n] != ' ' && p[n] != '\t' && p[n] != '=' && p[n] != '\r' && p[n] != '\n' &&
	       p[n] != ';')
		n++;
	return n;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Whether the n bytes at b hold a BFME-only line. */
static bool text_is_bfme(const char *b, size_t n)
{
	const char *end = b + n;
	for (const char *line = b; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *stop = nl ? nl : end;
		const char *p = skip_blanks(line, stop);
		size_t w = word_len(p, stop);
		for (size_t i = 0; bfme_blocks[i]; i++)
			if (word_is(p, w, bfme_blocks[i]))
				return true;
		if (word_is(p, w, "Draw")) {
			const char *q = skip_blanks(p + w, stop);
			if (q < stop && *q == '=') {
				q = skip_blanks(q + 1, stop);
				if (word_is(q, word_len(q, stop), bfme_draw))
					return true;
			}
		}
		line = stop + 1;
	}
	return false;
}

static bool ends_ini(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && strcasecmp(name + n - 4, ".ini") == 0;
}

/* Whether the regular file path's first INI_BYTES_MAX bytes hold a
 * BFME-only line; *budget counts the files read. */
static bool file_is_bfme(const char *path, char *buf, int *budget)
{
	if (*budget <= 0)
		return false;
	(*budget)--;
	FILE *f = wl_os_fopen(path, "rb");
	if (!f)
		return false;
	size_t n = fread(buf, 1, INI_BYTES_MAX, f);
	fclose(f);
	return text_is_bfme(buf, n);
}

/* The *.ini files of folder dir (and, depth > 0, of its subfolders). */
static bool folder_is_bfme(const char *dir, int depth, char *buf, int *budget)
{
	wl_os_dir *d = wl_os_opendir(dir);
	if (!d)
		return false;
	bool found = false;
	char path[PATH_MAX];
	for (const char *nm; !found && *budget > 0 && (nm = wl_os_readdir(d, NULL)) != NULL;) {
		if (nm[0] == '.')
			continue;
		int w = snprintf(path, sizeof path, "%s/%s", dir, nm);
		if (w < 0 || (size_t)w >= sizeof path)
			continue;
		struct stat st;
		if (wl_os_stat(path, &st) != 0)
			continue;
		if (S_ISREG(st.st_mode) && ends_ini(nm))
			found = file_is_bfme(path, buf, budget);
		else if (S_ISDIR(st.st_mode) && depth > 0)
			found = folder_is_bfme(path, depth - 1, buf, budget);
	}
	wl_os_closedir(d);
	return found;
}

/* The memo probe: path "MOD/Data/INI" (any case after fixed bytes); 0 and
 * *out 1 for BFME, 0 for nothing said; -1 when the folder is not there. */
static int ini_probe(const char *path, size_t fixed, mode_t *out)
{
	char real[PATH_MAX];
	if (wl_path_resolve_ci(path, fixed, real, sizeof real) != 0)
		return -1;
	char *buf = malloc(INI_BYTES_MAX);
	if (!buf)
		return -1;
	int budget = INI_FILES_MAX;
	*out = folder_is_bfme(real, 1, buf, &budget) ? 1 : 0;
	free(buf);
	return 0;
}

const char *w3d_ini_refine(const char *dir, const char *name, wl_stat_memo *memo)
{
	mode_t said = 0;
	if (wl_stat_memo_ask(memo, INI_MEMO_TAG, dir, name, ini_probe, &said) != 0)
		return NULL;
	return said == 1 ? "bfme" : NULL;
}
