/*
 * dump_archive.c - the archive table of w3ddump (dump.h
 * wl_tf_dump_archive): its kind, its entries and its archive-* findings,
 * as text or JSON.  Paths, entry names, the PBO prefix and messages are
 * printed in the escaped form of core/escape.h.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/archive/archive.h"
#include "core/chunk.h"
#include "core/escape.h"
#include "dump.h"

/* A JSON string of the escaped form of s (valid UTF-8 whatever s holds). */
static json_t *escaped(const char *s)
{
	char *e = wl_escape_dup(s);
	json_t *j = e ? json_string(e) : NULL;
	free(e);
	return j ? j : json_null();
}

static int dump_json(FILE *out, const char *path, const wl_file_kind *kind, size_t size, const wl_doc *d)
{
	const wl_archive *a = d ? d->model : NULL;
	json_t *root = json_object();
	if (!root)
		return -1;
	json_object_set_new(root, "path", escaped(path));
	json_object_set_new(root, "kind", json_string(kind->title));
	json_object_set_new(root, "size", json_integer((json_int_t)size));
	if (a) {
		json_object_set_new(root, "prefix", a->prefix ? escaped(a->prefix) : json_null());
		json_t *es = json_array();
		for (size_t i = 0; es && i < a->count; i++) {
			const wl_archive_entry *e = &a->entries[i];
			json_t *ej = json_object();
			json_object_set_new(ej, "path", escaped(e->path));
			json_object_set_new(ej, "offset", json_integer((json_int_t)e->offset));
			json_object_set_new(ej, "stored", json_integer((json_int_t)e->stored));
			json_object_set_new(ej, "size", json_integer((json_int_t)e->size));
			json_object_set_new(ej, "packed", json_boolean(e->packed));
			json_object_set_new(ej, "readable", json_boolean(e->readable));
			json_array_append_new(es, ej);
		}
		json_object_set_new(root, "entries", es ? es : json_null());
		json_object_set_new(root, "findings", wl_tf_findings_json(d));
	}
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc;
}

int wl_tf_dump_archive(FILE *out, const char *path, const wl_file_kind *kind, const uint8_t *bytes, size_t size,
		       bool json)
{
	wl_archive_kind ak;
	wl_doc *d = wl_archive_kind_of(kind->id, &ak) ? wl_archive_read(ak, path, bytes, size, WL_ARCHIVE_FULL) : NULL;
	const wl_archive *a = d && !d->oom ? d->model : NULL;
	if (a)
		wl_findings_sort(&d->findings);
	if (json) {
		int rc = dump_json(out, path, kind, size, a ? d : NULL);
		wl_doc_free(d);
		return rc;
	}
	if (!a) {
		fprintf(out, "%s: %s\n", wl_esc(path), kind->title);
		wl_doc_free(d);
		return 0;
	}
	fprintf(out, "%s: %s, %zu bytes, %zu entries", wl_esc(path), kind->title, size, a->count);
	if (a->prefix)
		fprintf(out, ", prefix '%s'", wl_esc(a->prefix));
	fputc('\n', out);
	for (size_t i = 0; i < a->count; i++) {
		const wl_archive_entry *e = &a->entries[i];
		fprintf(out, "  0x%08llX %10llu %s%s", (unsigned long long)e->offset, (unsigned long long)e->stored,
			wl_esc(e->path), e->readable ? "" : " (unreadable)");
		if (e->packed)
			fprintf(out, " (packed, %llu bytes unpacked)", (unsigned long long)e->size);
		fputc('\n', out);
	}
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		fprintf(out, "%s:0x%llX: %s [%s]\n", wl_esc(path), (unsigned long long)f->offset, wl_esc(f->message),
			f->rule);
	}
	wl_doc_free(d);
	return 0;
}
