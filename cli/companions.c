/* companions.c - the files a model's loader reads by name, beside it; see
 * companions.h. */
#include "companions.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/format.h"
#include "core/path.h"
#include "core/platform.h"
#include "core/file_io.h"
#include "archive_walk.h"

/* One name looked for: the file found (doc NULL: none). */
typedef struct wl_cli_companion {
	char *key;       /* NAME + ext asked for */
	char *from;      /* by the model at this path */
	char *path;      /* the file found (NULL: none) */
	wl_doc *doc;
	uint8_t *bytes;  /* the file's bytes, which doc reads */
} wl_cli_companion;

static int ascii_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (ascii_lower((unsigned char)*a) != ascii_lower((unsigned char)*b))
			return false;
	return *a == *b;
}

static bool file_name_ok(const char *name)
{
	size_t n = strlen(name);
	return n && n <= WL_CLI_COMPANION_NAME_MAX && !strpbrk(name, "/\\:") && !strstr(name, "..");
}

/* The path of the file named base in the folder of path (a file on disk),
 * letter case ignored, malloc'd; NULL when there is none. */
static char *in_folder(const char *path, const char *base)
{
	size_t n = strlen(path);
	char *dir = malloc(n + 2);
	if (!dir)
		return NULL;
	memcpy(dir, path, n + 1);
	const char *sep = wl_path_last_sep(dir);
	if (sep)
		dir[sep - dir + 1] = '\0';
	else
		strcpy(dir, ".");
	wl_os_dir *dh = wl_os_opendir(dir);
	char *found = NULL;
	const char *e;
	int kind = 0;
	while (dh && !found && (e = wl_os_readdir(dh, &kind)) != NULL) {
		if (!same_name(e, base) || kind == WL_OS_DT_DIR)
			continue;
		size_t dl = sep ? strlen(dir) : 0, el = strlen(e);
		if ((found = malloc(dl + el + 1)) != NULL) {
			memcpy(found, dir, dl);
			memcpy(found + dl, e, el + 1);
		}
	}
	if (dh)
		wl_os_closedir(dh);
	free(dir);
	return found;
}

/* The bytes of path (a file on disk), or NULL. */
static uint8_t *read_file(const char *path, size_t *size)
{
	uint8_t *bytes = NULL;
	uint64_t whole = 0;
	/* a regular file only, never blocking, at most WL_INPUT_MAX_BYTES */
	if (wl_read_input(path, &bytes, size, &whole) != WL_READ_OK) {
		free(bytes);
		return NULL;
	}
	return bytes;
}

/* The entry "ARCHIVE:DIR/base" beside entry item "ARCHIVE:DIR/FILE",
 * letter case ignored: *path set to "ARCHIVE:" and the entry's path as the
 * archive stores it (malloc'd), and its bytes; NULL when there is none. */
static uint8_t *read_beside_entry(const char *item, const char *base, char **path, size_t *size)
{
	const char *colon = strchr(item, ':');
	const char *sep = colon ? wl_path_last_sep(colon + 1) : NULL;
	*path = NULL;
	if (!colon)
		return NULL;
	size_t keep = (size_t)((sep ? sep + 1 : colon + 1) - item);
	char *want = malloc(keep + strlen(base) + 1);
	if (!want)
		return NULL;
	memcpy(want, item, keep);
	strcpy(want + keep, base);
	wl_member *m = wl_member_find(want);
	uint8_t *bytes = NULL;
	char err[1400];
	size_t hl = (size_t)(colon - item), el = m ? strlen(m->entry.path) : 0;
	if (m && wl_member_read("w3ddump", want, m, &bytes, size, err, sizeof err) == 0 &&
	    (*path = malloc(hl + 1 + el + 1)) != NULL) {
		memcpy(*path, item, hl + 1);
		memcpy(*path + hl + 1, m->entry.path, el + 1);
	} else {
		free(bytes);
		bytes = NULL;
	}
	wl_member_free(m);
	free(want);
	return bytes;
}

static const wl_doc *find(void *ud, const wl_doc *d, const char *name, const char *ext)
{
	wl_cli_companions *cc = ud;
	if (!d->path || !name || !file_name_ok(name) || strlen(ext) > 8)
		return NULL;
	char base[WL_CLI_COMPANION_NAME_MAX + 16];
	snprintf(base, sizeof base, "%s%s", name, ext);
	/* a name asked for again */
	for (size_t i = 0; i < cc->n; i++)
		if (strcmp(cc->e[i].key, base) == 0 && strcmp(cc->e[i].from, d->path) == 0)
			return cc->e[i].doc;
	if (cc->n == WL_CLI_COMPANIONS_MAX ||
	    (!cc->e && !(cc->e = calloc(WL_CLI_COMPANIONS_MAX, sizeof *cc->e))))
		return NULL;
	wl_cli_companion *c = &cc->e[cc->n];
	if (!(c->key = wl_os_strndup(base, strlen(base))) || !(c->from = wl_os_strndup(d->path, strlen(d->path)))) {
		free(c->key);
		return NULL;
	}
	cc->n++;
	/* the file on disk beside it, or the entry beside it in its archive */
	struct stat st;
	size_t size = 0;
	char *path = NULL;
	if (wl_os_stat(d->path, &st) == 0) {
		path = in_folder(d->path, base);
		c->bytes = path && !same_name(path, d->path) ? read_file(path, &size) : NULL;
	} else {
		c->bytes = read_beside_entry(d->path, base, &path, &size);
	}
	c->path = path;
	const wl_format *f = c->bytes ? wl_format_detect(c->bytes, size, path) : NULL;
	c->doc = f ? wl_format_read(f, path, c->bytes, size) : NULL;
	if (c->doc && !c->doc->model && c->doc->format->build_model)
		c->doc->model = c->doc->format->build_model(c->doc);
	return c->doc && !c->doc->oom && c->doc->model ? c->doc : NULL;
}

void wl_cli_companions_init(wl_cli_companions *cc)
{
	memset(cc, 0, sizeof *cc);
	cc->c.find = find;
	cc->c.ud = cc;
}

void wl_cli_companions_free(wl_cli_companions *cc)
{
	for (size_t i = 0; i < cc->n; i++) {
		wl_doc_free(cc->e[i].doc);
		free(cc->e[i].bytes);
		free(cc->e[i].key);
		free(cc->e[i].from);
		free(cc->e[i].path);
	}
	free(cc->e);
	cc->e = NULL;
	cc->n = 0;
}
