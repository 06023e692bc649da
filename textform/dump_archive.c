/*
 * dump_archive.c - the archive table of w3ddump (dump.h
 * wl_tf_dump_archive): its kind, its entries and its archive-* findings.
 */
#include <stdio.h>

#include "core/archive/archive.h"
#include "core/chunk.h"
#include "dump.h"

void wl_tf_dump_archive(FILE *out, const char *path, const wl_file_kind *kind, const uint8_t *bytes, size_t size)
{
	wl_archive_kind ak;
	wl_doc *d = wl_archive_kind_of(kind->id, &ak) ? wl_archive_read(ak, path, bytes, size, WL_ARCHIVE_FULL) : NULL;
	const wl_archive *a = d ? d->model : NULL;
	if (!a) {
		fprintf(out, "%s: %s\n", path, kind->title);
		wl_doc_free(d);
		return;
	}
	wl_findings_sort(&d->findings);
	fprintf(out, "%s: %s, %zu bytes, %zu entries", path, kind->title, size, a->count);
	if (a->prefix)
		fprintf(out, ", prefix '%s'", a->prefix);
	fputc('\n', out);
	for (size_t i = 0; i < a->count; i++) {
		const wl_archive_entry *e = &a->entries[i];
		fprintf(out, "  0x%08llX %10llu %s%s", (unsigned long long)e->offset, (unsigned long long)e->stored,
			e->path, e->readable ? "" : " (unreadable)");
		if (e->packed)
			fprintf(out, " (packed, %llu bytes unpacked)", (unsigned long long)e->size);
		fputc('\n', out);
	}
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		fprintf(out, "%s:0x%llX: %s [%s]\n", path, (unsigned long long)f->offset, f->message, f->rule);
	}
	wl_doc_free(d);
}
