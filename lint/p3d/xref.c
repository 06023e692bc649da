/* xref.c - the P3D cross-file index: textures and materials looked up at
 * their game paths among the files of the run's addons (xref.h). */
#include "xref.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/cursor.h"
#include "core/file_io.h"
#include "core/grow.h"
#include "core/p3d/p3d.h"
#include "core/p3d/p3d_lodview.h"
#include "core/platform.h"

/* A P3DM face's fixed part before its texture name: u32 nVerts, 4 x {u32
 * point, normal; float u, v}, u32 flags (core/p3d/p3d.h). */
#define MLOD_FACE_FIXED 72u
/* The longest prefix line of a $PBOPREFIX$ file read. */
#define PREFIX_MAX 1024
#define PREFIX_FILE "$PBOPREFIX$"

/* A name a model gives: the file, its LOD, where, what. */
typedef struct ref {
	const char *path;   /* the file's path (the index's copy) */
	uint32_t file;
	uint32_t lod;
	bool material;
	char *key;          /* folded game path */
	char *shown;        /* as written (non-printable bytes as '?') */
	char *cpath;
	uint64_t off, len;
} ref;

/* A folder's prefix ($PBOPREFIX$ in it or above), cached by folder. */
typedef struct dirpfx {
	char *dir;
	char *prefix;       /* folded; NULL: none */
	size_t root_len;    /* the length of the folder holding $PBOPREFIX$ */
} dirpfx;

typedef struct p3d_xref {
	pthread_mutex_t lock;
	char **paths;
	size_t path_count, path_cap;
	ref *refs;
	size_t ref_count, ref_cap;
	char **files;       /* folded game paths */
	size_t file_count, file_cap;
	char **prefixes;    /* folded, without a trailing '\' */
	size_t prefix_count, prefix_cap;
	dirpfx *dirs;
	size_t dir_count, dir_cap;
	bool oom;
} p3d_xref;

/* s[0..n) folded: no leading separators, '/' as '\', ASCII lower case, no
 * trailing separators.  malloc'd, NULL when out of memory. */
static char *fold(const char *s, size_t n)
{
	while (n && (*s == '\\' || *s == '/')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == '\\' || s[n - 1] == '/'))
		n--;
	char *d = malloc(n + 1);
	if (!d)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		char c = s[i] == '/' ? '\\' : s[i];
		d[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
	}
	d[n] = 0;
	return d;
}

/* prefix + '\' + rest, both folded already.  NULL when out of memory. */
static char *join(const char *prefix, const char *rest)
{
	size_t a = strlen(prefix), b = strlen(rest);
	char *d = malloc(a + b + 2);
	if (!d)
		return NULL;
	memcpy(d, prefix, a);
	d[a] = '\\';
	memcpy(d + a + 1, rest, b + 1);
	return d;
}

static bool push_str(char ***list, size_t *count, size_t *cap, char *s)
{
	if (!s || !wl_grow((void **)list, cap, *count + 1, sizeof **list)) {
		free(s);
		return false;
	}
	(*list)[(*count)++] = s;
	return true;
}

/* Records prefix p (folded, owned) once. */
static bool add_prefix(p3d_xref *x, char *p)
{
	if (!p)
		return false;
	for (size_t i = 0; i < x->prefix_count; i++)
		if (strcmp(x->prefixes[i], p) == 0) {
			free(p);
			return true;
		}
	return push_str(&x->prefixes, &x->prefix_count, &x->prefix_cap, p);
}

static void *create(void)
{
	p3d_xref *x = calloc(1, sizeof *x);
	if (x && pthread_mutex_init(&x->lock, NULL) != 0) {
		free(x);
		return NULL;
	}
	return x;
}

static void destroy(void *ix)
{
	p3d_xref *x = ix;
	if (!x)
		return;
	for (size_t i = 0; i < x->path_count; i++)
		free(x->paths[i]);
	for (size_t i = 0; i < x->ref_count; i++) {
		free(x->refs[i].key);
		free(x->refs[i].shown);
		free(x->refs[i].cpath);
	}
	for (size_t i = 0; i < x->file_count; i++)
		free(x->files[i]);
	for (size_t i = 0; i < x->prefix_count; i++)
		free(x->prefixes[i]);
	for (size_t i = 0; i < x->dir_count; i++) {
		free(x->dirs[i].dir);
		free(x->dirs[i].prefix);
	}
	free(x->paths);
	free(x->refs);
	free(x->files);
	free(x->prefixes);
	free(x->dirs);
	pthread_mutex_destroy(&x->lock);
	free(x);
}

/* ------------------------------------------------------------ models */

/* Keeps the name s[0..n) at off of LOD lod (node c, element el) of file. */
static void add_ref(p3d_xref *x, const wl_doc *doc, uint32_t file, uint32_t lod, bool material,
		    const uint8_t *s, size_t n, uint64_t off, const wl_chunk *c, int64_t el)
{
	if (n == 0 || s[0] == '#') /* none, or procedural */
		return;
	char cpath[512];
	ref r = { x->paths[file], file, lod, material, fold((const char *)s, n), malloc(n + 1), NULL, off, n };
	if (r.shown) {
		for (size_t i = 0; i < n; i++)
			r.shown[i] = s[i] >= 0x20 && s[i] < 0x7F ? (char)s[i] : '?';
		r.shown[n] = 0;
	}
	r.cpath = strdup(wl_chunk_path(doc, c, el, cpath, sizeof cpath));
	if (!r.key || !r.shown || !r.cpath ||
	    !wl_grow((void **)&x->refs, &x->ref_cap, x->ref_count + 1, sizeof *x->refs)) {
		free(r.key);
		free(r.shown);
		free(r.cpath);
		x->oom = true;
		return;
	}
	x->refs[x->ref_count++] = r;
}

/* The node of an ODOL LOD's view that holds offset off. */
static const wl_chunk *view_node(const p3d_lodview *v, uint64_t off)
{
	if (v->rest && off >= v->rest->offset)
		return v->rest;
	return v->head ? v->head : v->lod;
}

/* An asciiz at pos of the document, bounded by the file: its length in
 * *n; false when it has no nul before the end. */
static bool asciiz_at(const wl_doc *doc, uint64_t pos, const uint8_t **s, size_t *n)
{
	if (pos >= doc->size)
		return false;
	wl_cursor c = wl_cursor_make(doc->bytes + pos, (size_t)(doc->size - pos), pos);
	const uint8_t *z = memchr(c.base + c.pos, 0, wl_cursor_remaining(&c));
	if (!z)
		return false;
	*s = c.base + c.pos;
	*n = (size_t)(z - *s);
	return true;
}

/* An MLOD LOD's faces: the texture and material of every P3DM face. */
static void mlod_names(p3d_xref *x, const wl_doc *doc, uint32_t file, uint32_t li, const p3d_lod *l)
{
	if (l->sp3x || !l->face_off || !l->faces)
		return;
	/* Faces come in runs of one texture and material: a name the face
	 * before gave is not kept again (check() drops the other repeats). */
	const uint8_t *last[2] = { NULL, NULL };
	size_t last_n[2] = { 0, 0 };
	for (uint32_t i = 0; i < l->n_faces && !x->oom; i++) {
		uint64_t pos = l->face_off[i] + MLOD_FACE_FIXED;
		const uint8_t *s;
		size_t n;
		for (int k = 0; k < 2; k++) {
			if (!asciiz_at(doc, pos, &s, &n))
				break;
			if (!last[k] || n != last_n[k] || memcmp(s, last[k], n) != 0)
				add_ref(x, doc, file, li, k == 1, s, n, pos, l->faces, i);
			last[k] = s;
			last_n[k] = n;
			pos += n + 1;
		}
	}
}

static int add(void *ix, const char *path, const wl_doc *doc)
{
	p3d_xref *x = ix;
	const p3d_model *m = doc ? doc->model : NULL;
	if (!x || !path)
		return -1;
	if (!m)
		return 0;
	pthread_mutex_lock(&x->lock);
	uint32_t file = (uint32_t)x->path_count;
	if (!push_str(&x->paths, &x->path_count, &x->path_cap, strdup(path)))
		x->oom = true;
	if (x->oom) {
		pthread_mutex_unlock(&x->lock);
		return -1;
	}
	/* MLOD: the LODs read (m->lods holds n_res of them; the header's
	 * count may be larger or smaller) */
	uint32_t n = m->mlod ? m->n_res : m->n_lods;
	for (uint32_t li = 0; li < n && m->lods && !x->oom; li++) {
		const p3d_lod *l = &m->lods[li];
		if (m->mlod) {
			mlod_names(x, doc, file, li, l);
			continue;
		}
		for (const p3d_nameref *nr = l->view ? l->view->names : NULL; nr && !x->oom; nr = nr->next)
			if (nr->at + nr->len <= doc->size)
				add_ref(x, doc, file, li, nr->kind == P3D_NAME_MATERIAL, doc->bytes + nr->at, nr->len,
					nr->at, view_node(l->view, nr->at), -1);
	}
	int rc = x->oom ? -1 : 0;
	pthread_mutex_unlock(&x->lock);
	return rc;
}

/* ------------------------------------------------------------- files */

/* The extensions of the files a model names that the index records. */
static bool known_ext(const char *path)
{
	static const char *const ext[] = { ".paa", ".pac", ".rvmat", ".tga", ".png", ".jpg", ".dds" };
	const char *dot = strrchr(path, '.');
	if (!dot || strpbrk(dot, "/\\"))
		return false;
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
		if (strcasecmp(dot, ext[i]) == 0)
			return true;
	return false;
}

/* The prefix a $PBOPREFIX$ file gives: its "prefix=" line, else its first
 * line that is not "key=value"; folded, NULL when none (or out of
 * memory). */
static char *read_prefix_file(const char *file)
{
	uint8_t *buf;
	size_t len;
	if (wl_read_file(file, PREFIX_MAX * 16, &buf, &len) != WL_READ_OK)
		return NULL;
	char *out = NULL, *first = NULL;
	for (size_t at = 0; at < len && !out;) {
		size_t e = at;
		while (e < len && buf[e] != '\n' && buf[e] != '\r')
			e++;
		size_t a = at, b = e;
		while (a < b && (buf[a] == ' ' || buf[a] == '\t'))
			a++;
		while (b > a && (buf[b - 1] == ' ' || buf[b - 1] == '\t'))
			b--;
		const uint8_t *eq = b > a ? memchr(buf + a, '=', b - a) : NULL;
		if (eq && (size_t)(eq - (buf + a)) == 6 && strncasecmp((const char *)buf + a, "prefix", 6) == 0)
			out = fold((const char *)eq + 1, (size_t)(buf + b - eq - 1));
		else if (!eq && b > a && !first)
			first = fold((const char *)buf + a, b - a);
		at = e + 1;
	}
	free(buf);
	if (!out) {
		out = first;
		first = NULL;
	}
	free(first);
	if (out && !out[0]) {
		free(out);
		out = NULL;
	}
	return out;
}

/* The prefix of folder dir (malloc'd copy of the path's folder part): the
 * $PBOPREFIX$ in it or the nearest folder above; cached.  Returns the
 * cache entry, NULL when none or out of memory. */
static const dirpfx *prefix_of_dir(p3d_xref *x, const char *dir)
{
	for (size_t i = 0; i < x->dir_count; i++)
		if (strcmp(x->dirs[i].dir, dir) == 0)
			return x->dirs[i].prefix ? &x->dirs[i] : NULL;
	dirpfx d = { strdup(dir), NULL, 0 };
	char *probe = d.dir ? malloc(strlen(dir) + sizeof PREFIX_FILE + 2) : NULL;
	if (probe) {
		sprintf(probe, "%s/%s", dir, PREFIX_FILE);
		d.prefix = read_prefix_file(probe);
		d.root_len = strlen(dir);
		free(probe);
		const char *slash = strrchr(dir, '/');
		if (!d.prefix && slash && slash != dir) {
			char *up = wl_os_strndup(dir, (size_t)(slash - dir));
			const dirpfx *p = up ? prefix_of_dir(x, up) : NULL;
			free(up);
			if (p) {
				d.prefix = strdup(p->prefix);
				d.root_len = p->root_len;
			}
		}
	}
	if (!d.dir || !wl_grow((void **)&x->dirs, &x->dir_cap, x->dir_count + 1, sizeof *x->dirs)) {
		free(d.dir);
		free(d.prefix);
		x->oom = true;
		return NULL;
	}
	x->dirs[x->dir_count++] = d;
	return d.prefix ? &x->dirs[x->dir_count - 1] : NULL;
}

/* A file on disk under an addon's $PBOPREFIX$: recorded at its game path. */
static int add_file(void *ix, const char *path)
{
	p3d_xref *x = ix;
	if (!x || !path)
		return -1;
	if (!known_ext(path))
		return 0;
	const char *slash = strrchr(path, '/');
	if (!slash)
		return 0;
	char *dir = wl_os_strndup(path, (size_t)(slash - path));
	if (!dir)
		return -1;
	pthread_mutex_lock(&x->lock);
	const dirpfx *p = prefix_of_dir(x, dir);
	int rc = 0;
	if (p) {
		const char *rel = path + p->root_len + 1;
		char *r = fold(rel, strlen(rel));
		char *key = r ? join(p->prefix, r) : NULL;
		free(r);
		rc = push_str(&x->files, &x->file_count, &x->file_cap, key) && add_prefix(x, strdup(p->prefix)) ? 1 : -1;
	}
	if (x->oom)
		rc = -1;
	pthread_mutex_unlock(&x->lock);
	free(dir);
	return rc;
}

/* A PBO's entry, whatever it is: recorded at PREFIX\NAME (prefix: the
 * header's property, else the PBO's name without .pbo), and the prefix as
 * one of the run's addons. */
static int add_entry(void *ix, const char *archive, const wl_archive *a, const wl_archive_entry *e)
{
	p3d_xref *x = ix;
	if (!x || !archive || !a || !e)
		return -1;
	if (a->kind != WL_ARCHIVE_PBO)
		return 0;
	char *prefix;
	if (a->prefix) {
		prefix = fold(a->prefix, strlen(a->prefix));
	} else {
		const char *base = strrchr(archive, '/');
		base = base ? base + 1 : archive;
		const char *dot = strrchr(base, '.');
		prefix = fold(base, dot && strcasecmp(dot, ".pbo") == 0 ? (size_t)(dot - base) : strlen(base));
	}
	char *r = fold(e->name, strlen(e->name));
	char *key = prefix && r ? join(prefix, r) : NULL;
	free(r);
	pthread_mutex_lock(&x->lock);
	int rc = push_str(&x->files, &x->file_count, &x->file_cap, key) && add_prefix(x, prefix) ? 1 : -1;
	if (rc < 0)
		x->oom = true;
	pthread_mutex_unlock(&x->lock);
	if (!key)
		free(prefix);
	return rc;
}

/* ------------------------------------------------------------ checking */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool have(const p3d_xref *x, const char *key)
{
	return x->file_count && bsearch(&key, x->files, x->file_count, sizeof *x->files, cmp_str) != NULL;
}

/* Found where the game finds it: the path, or for a .tga / .png / .jpg
 * texture the .paa or .pac of the same path (xref.h: HEMTT's pairs,
 * widened to the BI texture tools' formats). */
static bool found(const p3d_xref *x, const ref *r)
{
	if (have(x, r->key))
		return true;
	const char *dot = strrchr(r->key, '.');
	if (r->material || !dot || strchr(dot, '\\') ||
	    !(strcmp(dot, ".tga") == 0 || strcmp(dot, ".png") == 0 || strcmp(dot, ".jpg") == 0))
		return false;
	size_t n = (size_t)(dot - r->key);
	char *alt = malloc(n + 5);
	if (!alt)
		return true; /* no finding without the lookup */
	memcpy(alt, r->key, n);
	bool ok = false;
	for (int k = 0; k < 2 && !ok; k++) {
		memcpy(alt + n, k ? ".pac" : ".paa", 5);
		ok = have(x, alt);
	}
	free(alt);
	return ok;
}

/* The run's addon whose prefix starts key, or NULL. */
static const char *addon_of(const p3d_xref *x, const char *key)
{
	for (size_t i = 0; i < x->prefix_count; i++) {
		size_t n = strlen(x->prefixes[i]);
		if (strncmp(key, x->prefixes[i], n) == 0 && key[n] == '\\')
			return x->prefixes[i];
	}
	return NULL;
}

/* Duplicates first: file, LOD, kind, key, then offset. */
static int cmp_dup(const void *a, const void *b)
{
	const ref *p = a, *q = b;
	if (p->file != q->file)
		return p->file < q->file ? -1 : 1;
	if (p->lod != q->lod)
		return p->lod < q->lod ? -1 : 1;
	if (p->material != q->material)
		return p->material ? 1 : -1;
	int c = strcmp(p->key, q->key);
	if (c)
		return c;
	return p->off < q->off ? -1 : p->off > q->off;
}

/* Report order: path, offset, rule. */
static int cmp_report(const void *a, const void *b)
{
	const ref *p = *(ref *const *)a, *q = *(ref *const *)b;
	int c = strcmp(p->path, q->path);
	if (c)
		return c;
	if (p->off != q->off)
		return p->off < q->off ? -1 : 1;
	return (int)p->material - (int)q->material;
}

static long check(void *ix, wl_xref_emit_fn emit, void *user)
{
	p3d_xref *x = ix;
	if (!x || x->oom)
		return -1;
	pthread_mutex_lock(&x->lock);
	if (x->file_count)
		qsort(x->files, x->file_count, sizeof *x->files, cmp_str);
	if (x->ref_count)
		qsort(x->refs, x->ref_count, sizeof *x->refs, cmp_dup);
	const ref **miss = malloc((x->ref_count ? x->ref_count : 1) * sizeof *miss);
	long n = 0;
	if (!miss) {
		pthread_mutex_unlock(&x->lock);
		return -1;
	}
	for (size_t i = 0; i < x->ref_count; i++) {
		const ref *r = &x->refs[i];
		const ref *prev = i ? &x->refs[i - 1] : NULL;
		if (prev && r->file == prev->file && r->lod == prev->lod && r->material == prev->material &&
		    strcmp(r->key, prev->key) == 0)
			continue; /* the LOD named it before */
		if (!addon_of(x, r->key) || !found(x, r))
			miss[n++] = r;
	}
	if (n)
		qsort(miss, (size_t)n, sizeof *miss, cmp_report);
	for (long k = 0; k < n; k++) {
		const ref *r = miss[k];
		char msg[1024];
		const char *addon = addon_of(x, r->key);
		if (addon)
			snprintf(msg, sizeof msg, "lod %u names %s '%s', but no file of the addon '%s' is at that path",
				 (unsigned)r->lod, r->material ? "material" : "texture", r->shown, addon);
		else
			snprintf(msg, sizeof msg, "lod %u names %s '%s', a path outside every addon of the run",
				 (unsigned)r->lod, r->material ? "material" : "texture", r->shown);
		/* outside the run's addons (the base game's, another mod's): not
		 * checked, counted in the run's note without a base game */
		wl_xref_finding f = { r->path, NULL, r->material ? WLR_P3D_MATERIAL_MISSING : WLR_P3D_TEXTURE_MISSING,
				      r->off, r->len, r->cpath, msg, addon ? NULL : r->shown, !addon };
		emit(user, &f);
	}
	free(miss);
	pthread_mutex_unlock(&x->lock);
	return n;
}

const wl_xref_ops p3d_xref_ops = { create, destroy, add, add_file, check, add_entry };
