/* descriptor.c - the P3D format descriptor (p3d.h): recognised by its ODOL
 * or MLOD magic, read by the P3D readers into a node tree; w3dasm never
 * writes it (writable is false), w3dfix repairs MLOD files (the modders'
 * source, written back node by node: core/edit.h) and refuses ODOL.  An ODOL file whose
 * header version does not read but another known version's layout does
 * (p3d_relabel.c) is read under that layout, with p3d-version-mislabel at
 * the version field. */
#include "p3d.h"

#include <stdio.h>
#include <string.h>

static int detect(const uint8_t *bytes, uint64_t size)
{
	if (size >= 4 && (memcmp(bytes, "ODOL", 4) == 0 || memcmp(bytes, "MLOD", 4) == 0))
		return WL_DETECT_MAGIC;
	return WL_DETECT_NO;
}

/* A file taken for P3D (by its .p3d name) without either magic: one
 * finding over the whole file, nothing else read (every reader refuses
 * it: jetelain P3D.cs, grad_aff odol.cpp throw on the magic). */
/* d (read under its header's version, which does not read) read again
 * under the layout of version v, which does: the new document, with
 * p3d-version-mislabel at the version field (d freed). */
static wl_doc *read_relabelled(const wl_format *f, wl_doc *d, uint32_t v)
{
	wl_doc *r = wl_doc_empty(f, d->path, d->bytes, d->size);
	p3d_model *m = r ? wl_arena_alloc(r->arena, sizeof *m) : NULL;
	if (!m) {
		if (r)
			wl_doc_free(r);
		return d;
	}
	wl_doc_free(d);
	r->model = m;
	m->layout = v;
	p3d_read_odol(r, m);
	wl_report(&r->findings, WLR_P3D_VERSION_MISLABEL, m->header, -1, 4, 4,
		  "the header says odol version %u, but ModelInfo and the lods do not read under "
		  "that version's layout; the whole file reads under v%u's: the layout is v%u's",
		  (unsigned)m->header_version, (unsigned)v, (unsigned)v);
	return r;
}

static wl_doc *read_p3d(const wl_format *f, const char *path, const uint8_t *bytes, uint64_t size)
{
	wl_doc *d = wl_doc_empty(f, path, bytes, size);
	if (!d)
		return NULL;
	p3d_model *m = wl_arena_alloc(d->arena, sizeof *m);
	if (!m) {
		d->oom = true;
		return d;
	}
	d->model = m;
	if (detect(bytes, size) != WL_DETECT_MAGIC) {
		char magic[16] = "";
		size_t n = size < 4 ? (size_t)size : 4;
		for (size_t i = 0; i < n; i++)
			snprintf(magic + 2 * i, sizeof magic - 2 * i, "%02X", bytes[i]);
		p3d_gap(d, &d->root, 0, size);
		wl_report(&d->findings, WLR_P3D_NOT_P3D, NULL, -1, 0, size,
			  "the file does not start with ODOL or MLOD (first bytes %s): it is not an "
			  "Arma P3D model, and every P3D reader refuses it",
			  n ? magic : "none");
		return d;
	}
	m->mlod = bytes[0] == 'M';
	if (m->mlod) {
		p3d_read_mlod(d, m);
		return d;
	}
	p3d_read_odol(d, m);
	uint32_t layout = p3d_odol_layout(d, m);
	return layout ? read_relabelled(f, d, layout) : d;
}

static void *build_model(wl_doc *doc)
{
	return doc->model;
}

static const char *const extensions[] = { "p3d", NULL };

/* w3dfix repairs MLOD (editable) files only: binarised ODOL is rebuilt
 * from its MLOD source by Binarize, never patched. */
static bool repairable(const uint8_t *bytes, uint64_t size, const char **why)
{
	if (size >= 4 && memcmp(bytes, "MLOD", 4) == 0)
		return true;
	*why = "ODOL (binarised) P3D files are read-only: repair the MLOD source and binarise it "
	       "again";
	return false;
}

const wl_format p3d_format = {
	.name = "p3d",
	.title = "Arma P3D (ODOL, MLOD)",
	.extensions = extensions,
	.detect = detect,
	.refused_head = 4, /* read_p3d(): the ODOL or MLOD magic */
	.read = read_p3d,
	.build_model = build_model,
	.writable = false,
	.repairable = repairable,
	.lookup = p3d_lookup,
	.id_name = p3d_id_name,
	.schema = p3d_schema,
};
