/* descriptor.c - the B3D format descriptor (format.h): recognised by its
 * BB3D magic, read by the chunk reader with container fields, refused with
 * one finding when a file taken for B3D (by its .b3d name) is not one. */
#include "b3d_format.h"

#include <stdio.h>
#include <string.h>

#include "model.h"

static int detect(const uint8_t *bytes, uint64_t size)
{
	return size >= 4 && memcmp(bytes, "BB3D", 4) == 0 ? WL_DETECT_MAGIC : WL_DETECT_NO;
}

/* Blitz3D, Irrlicht, Luanti, Assimp and modlib all refuse a file whose
 * first tag is not BB3D (notes/b3d_reference.md §3): so does this reader,
 * with one finding over the whole file instead of a cascade of chunk
 * findings over bytes that were never B3D. */
static wl_doc *read(const wl_format *f, const char *path, const uint8_t *bytes, uint64_t size)
{
	if (size == 0 || detect(bytes, size) == WL_DETECT_MAGIC)
		return wl_doc_read(f, path, bytes, size);
	wl_doc *d = wl_doc_opaque(f, path, bytes, size);
	if (!d)
		return NULL;
	char magic[40] = "";
	size_t n = size < 4 ? (size_t)size : 4;
	for (size_t i = 0; i < n; i++)
		snprintf(magic + 2 * i, sizeof magic - 2 * i, "%02X", bytes[i]);
	wl_report(&d->findings, WLR_B3D_NOT_B3D, NULL, -1, 0, size,
		  "the file does not start with the BB3D tag (first bytes %s): it is not a Blitz3D "
		  "model, and every B3D reader refuses it",
		  n ? magic : "none");
	return d;
}

static void *build_model(wl_doc *doc)
{
	return b3d_model_build(doc);
}

static const char *const extensions[] = { "b3d", NULL };

const wl_format b3d_format = {
	.name = "b3d",
	.title = "Blitz3D B3D",
	.extensions = extensions,
	.detect = detect,
	.refused_head = 4, /* read(): the BB3D tag */
	.read = read,
	.build_model = build_model,
	.writable = true,
	.header_size = 8,
	.has_container_bit = false,
	.read_header = b3d_read_header,
	.lookup = b3d_lookup,
	.id_name = b3d_id_name,
	.schema = b3d_schema,
	.fields_size = b3d_fields_size,
	.tag_ids = true,
	.whole_records = b3d_whole_records,
};
