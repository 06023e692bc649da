/*
 * fix_tris.c - drop-bad-triangles (unsafe): repairs
 * b3d-triangle-vertex-out-of-range (rules/b3d/geometry.yaml) by removing
 * from its TRIS each triangle that names a vertex its MESH does not have.
 * Irrlicht and Luanti refuse the whole model for one such triangle
 * ("Illegal vertex index found", CB3DMeshFileLoader.cpp readChunkTRIS),
 * Assimp too ("Bad triangle index", B3DImporter.cpp ReadTRIS), so the
 * engines load nothing of the file; without those triangles they load every
 * other one.  It is how a file whose VRTS lost its last vertex (bytes
 * deleted inside it, a partial record trimmed by trim-record-slack) loads
 * again (issue 29: the Irrlicht check of the salvage outputs).  Each
 * finding covers its triangle's 12 bytes; the TRIS's brush id and the bytes
 * after its last whole record are kept.  Unsafe: it drops triangles.
 */
#include "fixers.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Is record offset `at` (absolute) one of the n offsets of bad[]? */
static bool listed(const uint64_t *bad, size_t n, uint64_t at)
{
	for (size_t i = 0; i < n; i++)
		if (bad[i] == at)
			return true;
	return false;
}

/* Removes from TRIS chunk c the triangles at the n absolute offsets of
 * bad[] (each the start of a 12-byte record after the 4-byte brush id). */
static int drop(wl_doc *d, const wl_chunk *tc, const uint64_t *bad, size_t n)
{
	wl_chunk *c = wl_fix_mut(d, tc);
	if (!c || c->kind != WL_NODE_CHUNK || c->container || c->replaced)
		return 0;
	uint64_t start = wl_chunk_payload_offset(c);
	size_t len;
	const uint8_t *p = wl_edit_payload(d, c, &len);
	if (!p || len < 4)
		return 0;
	uint8_t *out = malloc(len);
	if (!out) {
		d->oom = true;
		return -1;
	}
	memcpy(out, p, 4);
	size_t keep = 4, dropped = 0, at = 4;
	for (; at + 12 <= len; at += 12) {
		if (listed(bad, n, start + at)) {
			dropped++;
			continue;
		}
		memcpy(out + keep, p + at, 12);
		keep += 12;
	}
	memcpy(out + keep, p + at, len - at); /* the bytes after the last whole record */
	keep += len - at;
	int rc = 0;
	if (dropped && (wl_edit_set_payload(d, c, out, keep) != 0 ||
			wl_edit_note(d, c, WLR_B3D_TRIANGLE_VERTEX_OUT_OF_RANGE, c->offset + 4,
				     "triangles: %zu -> %zu (%zu naming a vertex the MESH does not have dropped)",
				     (len - 4) / 12, (len - 4) / 12 - dropped, dropped) != 0))
		rc = -1;
	free(out);
	return rc;
}

static int apply(wl_fix_ctx *x)
{
	if (!wl_fix_rule_wanted(x, WLR_B3D_TRIANGLE_VERTEX_OUT_OF_RANGE))
		return 0;
	wl_doc *d = x->doc;
	size_t n = d->findings.count;
	uint64_t *bad = malloc((n ? n : 1) * sizeof *bad);
	if (!bad) {
		d->oom = true;
		return -1;
	}
	/* the findings of one TRIS at a time: the chunks in finding order */
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->severity == WL_SEV_OFF || f->rule_id != WLR_B3D_TRIANGLE_VERTEX_OUT_OF_RANGE || !f->chunk)
			continue;
		const wl_chunk *tc = f->chunk;
		bool first = true;
		for (size_t k = 0; k < i && first; k++) /* this TRIS was done */
			first = !(d->findings.items[k].rule_id == WLR_B3D_TRIANGLE_VERTEX_OUT_OF_RANGE &&
				  d->findings.items[k].severity != WL_SEV_OFF && d->findings.items[k].chunk == tc);
		if (!first)
			continue;
		size_t nb = 0;
		for (size_t k = i; k < n; k++) {
			const wl_finding *g = &d->findings.items[k];
			if (g->rule_id == WLR_B3D_TRIANGLE_VERTEX_OUT_OF_RANGE && g->severity != WL_SEV_OFF &&
			    g->chunk == tc && g->length == 12)
				bad[nb++] = g->offset;
		}
		rc = drop(d, tc, bad, nb);
	}
	free(bad);
	return rc;
}

const wl_fixer b3d_fix_drop_bad_triangles = {
	"drop-bad-triangles", true,
	"remove from a B3D TRIS the triangles that name a vertex their MESH does not have (the engines refuse the model for them)",
	apply
};
