/* xref.c - the B3D cross-file index (xref.h): TEXS file names against the
 * image files of the scanned folders. */
#include "xref.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/grow.h"
#include "core/b3d/model.h"
#include "core/escape.h"

/* One TEXS entry that names a file. */
typedef struct tex_ref {
	char *stem;    /* base name, lower case (malloc) */
	char *name;    /* the name as written, escaped for messages (malloc) */
	char *cpath;   /* chunk path (malloc) */
	uint32_t file; /* index in files */
	uint64_t offset, length;
} tex_ref;

typedef struct b3d_xref {
	pthread_mutex_t lock;
	char **files;  size_t file_count, file_cap;
	tex_ref *refs; size_t ref_count, ref_cap;
	char **images; size_t image_count, image_cap; /* lower-case base names */
	bool oom;
} b3d_xref;

/* The base name of s[0..n) (after the last '/' or '\\'), lower case. */
static char *stem_of(const char *s, size_t n)
{
	size_t from = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == '\\')
			from = i + 1;
	char *d = malloc(n - from + 1);
	if (!d)
		return NULL;
	for (size_t i = from; i < n; i++)
		d[i - from] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
	d[n - from] = 0;
	return d;
}

static void *create(void)
{
	b3d_xref *x = calloc(1, sizeof *x);
	if (x && pthread_mutex_init(&x->lock, NULL) != 0) {
		free(x);
		return NULL;
	}
	return x;
}

static void destroy(void *ix)
{
	b3d_xref *x = ix;
	if (!x)
		return;
	for (size_t i = 0; i < x->file_count; i++)
		free(x->files[i]);
	for (size_t i = 0; i < x->ref_count; i++) {
		free(x->refs[i].stem);
		free(x->refs[i].name);
		free(x->refs[i].cpath);
	}
	for (size_t i = 0; i < x->image_count; i++)
		free(x->images[i]);
	free(x->files);
	free(x->refs);
	free(x->images);
	pthread_mutex_destroy(&x->lock);
	free(x);
}

static int add(void *ix, const char *path, const wl_doc *doc)
{
	b3d_xref *x = ix;
	const b3d_model *m = doc->model;
	if (!m)
		return 0;
	pthread_mutex_lock(&x->lock);
	int rc = 0;
	char *p = strdup(path);
	if (!p || !wl_grow((void **)&x->files, &x->file_cap, x->file_count + 1, sizeof *x->files)) {
		free(p);
		rc = -1;
		goto out;
	}
	uint32_t file = (uint32_t)x->file_count;
	x->files[x->file_count++] = p;
	for (size_t i = 0; i < m->texture_count && rc == 0; i++) {
		const b3d_texture *t = &m->textures[i];
		if (!t->name_len)
			continue;
		if (!wl_grow((void **)&x->refs, &x->ref_cap, x->ref_count + 1, sizeof *x->refs)) {
			rc = -1;
			break;
		}
		char cpath[256];
		wl_chunk_path(doc, t->src, (int64_t)i, cpath, sizeof cpath);
		tex_ref r = { stem_of(t->name, t->name_len), wl_escape_dup(t->name), strdup(cpath), file,
			      t->offset, t->name_len + 1 };
		if (!r.stem || !r.name || !r.cpath) {
			free(r.stem);
			free(r.name);
			free(r.cpath);
			rc = -1;
			break;
		}
		x->refs[x->ref_count++] = r;
	}
out:
	if (rc)
		x->oom = true;
	pthread_mutex_unlock(&x->lock);
	return rc;
}

static bool is_image(const char *path)
{
	static const char *const ext[] = { ".png", ".jpg", ".jpeg", ".tga", ".bmp", ".dds" };
	const char *dot = strrchr(path, '.');
	if (!dot)
		return false;
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
		if (strcasecmp(dot, ext[i]) == 0)
			return true;
	return false;
}

static int add_texture_file(void *ix, const char *path)
{
	b3d_xref *x = ix;
	if (!is_image(path))
		return 0;
	char *s = stem_of(path, strlen(path));
	pthread_mutex_lock(&x->lock);
	int rc = 1;
	if (!s || !wl_grow((void **)&x->images, &x->image_cap, x->image_count + 1, sizeof *x->images)) {
		free(s);
		x->oom = true;
		rc = -1;
	} else {
		x->images[x->image_count++] = s;
	}
	pthread_mutex_unlock(&x->lock);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Findings in the order of the other formats': path, offset. */
static int cmp_ref(const void *a, const void *b, void *files)
{
	const tex_ref *x = a, *y = b;
	char **f = files;
	int c = strcmp(f[x->file], f[y->file]);
	if (c)
		return c;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* qsort_r is not C11: a small insertion sort over indices keeps this file
 * portable (the references of one folder number in the thousands). */
static void sort_refs(size_t *ix, size_t n, const b3d_xref *x)
{
	for (size_t i = 1; i < n; i++) {
		size_t v = ix[i], j = i;
		while (j > 0 && cmp_ref(&x->refs[ix[j - 1]], &x->refs[v], x->files) > 0) {
			ix[j] = ix[j - 1];
			j--;
		}
		ix[j] = v;
	}
}

static long check(void *ix, wl_xref_emit_fn emit, void *user)
{
	b3d_xref *x = ix;
	pthread_mutex_lock(&x->lock);
	long n = 0;
	if (x->oom) {
		n = -1;
		goto out;
	}
	if (!x->image_count || !x->ref_count)
		goto out;
	qsort(x->images, x->image_count, sizeof *x->images, cmp_str);
	size_t *order = malloc(x->ref_count * sizeof *order);
	if (!order) {
		n = -1;
		goto out;
	}
	for (size_t i = 0; i < x->ref_count; i++)
		order[i] = i;
	sort_refs(order, x->ref_count, x);
	for (size_t k = 0; k < x->ref_count; k++) {
		const tex_ref *r = &x->refs[order[k]];
		if (bsearch(&r->stem, x->images, x->image_count, sizeof *x->images, cmp_str))
			continue;
		char msg[600];
		snprintf(msg, sizeof msg,
			 "TEXS names the texture file '%s', which is no image file of the scanned "
			 "folders: Irrlicht loads no texture for it",
			 r->name);
		wl_xref_finding f = { x->files[r->file], NULL, WLR_B3D_TEXTURE_FILE_MISSING, r->offset,
				      r->length, r->cpath, msg };
		if (emit)
			emit(user, &f);
		n++;
	}
	free(order);
out:
	pthread_mutex_unlock(&x->lock);
	return n;
}

const wl_xref_ops b3d_xref_ops = { create, destroy, add, add_texture_file, check };
