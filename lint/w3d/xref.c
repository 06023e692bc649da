/* xref.c - the W3D cross-file index of a linted folder (xref.h): W3D's
 * contributor to the cross-file checks of lint/xref.c, registered here;
 * filled in xref_index.c, checked in xref_check.c. */
#include "xref_int.h"

#include <stdlib.h>
#include <string.h>

static void *ops_create(void)
{
	return w3d_xref_new();
}

static void ops_destroy(void *x)
{
	w3d_xref_free(x);
}

static int ops_add(void *x, const char *path, const wl_doc *doc)
{
	return w3d_xref_add(x, path, doc);
}

static int ops_texture(void *x, const char *path)
{
	return w3d_xref_add_texture_file(x, path);
}

static long ops_check(void *x, wl_xref_emit_fn fn, void *user)
{
	return w3d_xref_check(x, fn, user);
}

static int ops_entry(void *x, const char *archive, const wl_archive *a, const wl_archive_entry *e)
{
	return w3d_xref_add_entry(x, archive, a, e);
}

int w3d_xref_set_scope(w3d_xref *x, const char *scope)
{
	if (!x || !scope)
		return -1;
	char *c = strdup(scope);
	if (!c)
		return -1;
	pthread_mutex_lock(&x->lock);
	free(x->scope);
	x->scope = c;
	pthread_mutex_unlock(&x->lock);
	return 0;
}

static int ops_scope(void *x, const char *scope)
{
	return w3d_xref_set_scope(x, scope);
}

const wl_xref_ops w3d_xref_ops = { ops_create, ops_destroy, ops_add, ops_texture, ops_check, ops_entry, ops_scope };
