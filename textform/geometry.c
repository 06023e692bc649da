/* geometry.c - the shared parts of the geometry JSON; see geometry.h, and
 * w3ddump --geometry (textform/dump.h wl_tf_dump_geometry). */
#include "geometry.h"

#include <math.h>
#include <stdlib.h>

#include "core/escape.h"
#include "dump.h"
#include "registry.h"

json_t *wl_tf_geo_string(const char *s)
{
	char *e = wl_escape_dup(s ? s : "");
	json_t *j = e ? json_string(e) : NULL;
	free(e);
	return j;
}

/* The escaped chunk path of src as a JSON string. */
static json_t *path_string(const wl_doc *d, const wl_chunk *src)
{
	char path[1024];
	wl_chunk_path(d, src, -1, path, sizeof path);
	return wl_tf_geo_string(path);
}

json_t *wl_tf_geo_mesh(const wl_doc *d, const char *name, const wl_chunk *src)
{
	return json_pack("{s:o, s:o}", "name", wl_tf_geo_string(name), "path", path_string(d, src));
}

static json_t *array_of(json_t *mesh, const char *key)
{
	json_t *a = json_object_get(mesh, key);
	if (!a) {
		a = json_array();
		json_object_set_new(mesh, key, a);
	}
	return a;
}

void wl_tf_geo_span(json_t *mesh, const char *key, const wl_doc *d, const wl_chunk *src, size_t first,
		    size_t count)
{
	json_array_append_new(array_of(mesh, key),
			      json_pack("{s:o, s:I, s:I}", "path", path_string(d, src), "first", (json_int_t)first,
					"count", (json_int_t)count));
}

/* A value that is not finite is written 0 (JSON has no NaN): the arrays
 * keep one entry per element. */
void wl_tf_geo_floats(json_t *mesh, const char *key, const float *v, size_t n)
{
	json_t *a = array_of(mesh, key);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_real(isfinite(v[i]) ? (double)v[i] : 0.0));
}

void wl_tf_geo_uints(json_t *mesh, const char *key, const uint32_t *v, size_t n)
{
	json_t *a = array_of(mesh, key);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
}

void wl_tf_geo_int(json_t *obj, const char *key, int64_t v)
{
	json_array_append_new(array_of(obj, key), json_integer((json_int_t)v));
}

void wl_tf_geo_path(json_t *obj, const char *key, const wl_doc *d, const wl_chunk *src)
{
	json_object_set_new(obj, key, path_string(d, src));
}

int wl_tf_dump_geometry(FILE *out, wl_doc *d, const wl_tf_geo_companions *c)
{
	const wl_tf_format *tf = d->format ? wl_tf_format_of(d->format) : NULL;
	if (!tf || !tf->geometry) {
		fprintf(out, "{\"format\":\"%s\",\"meshes\":[]}\n", d->format ? d->format->name : "");
		return ferror(out) ? -1 : 0;
	}
	if (!d->model && d->format->build_model)
		d->model = d->format->build_model(d);
	json_t *g = d->model ? tf->geometry(d, c) : json_pack("{s:[]}", "meshes");
	if (!g)
		return -1;
	json_object_set_new(g, "format", json_string(d->format->name));
	int rc = json_dumpf(g, out, JSON_COMPACT | JSON_REAL_PRECISION(9) | JSON_PRESERVE_ORDER);
	json_decref(g);
	fputc('\n', out);
	return rc == 0 && !ferror(out) ? 0 : -1;
}
