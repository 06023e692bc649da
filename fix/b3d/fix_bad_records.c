/*
 * fix_bad_records.c - two unsafe fixers that remove the records of a data
 * chunk that name a vertex there is not, one finding per record:
 *
 * drop-bad-triangles repairs b3d-triangle-vertex-out-of-range
 * (rules/b3d/geometry.yaml) by removing from its TRIS each triangle that
 * names a vertex its MESH does not have.
 * Irrlicht and Luanti refuse the whole model for one such triangle
 * ("Illegal vertex index found", CB3DMeshFileLoader.cpp readChunkTRIS),
 * Assimp too ("Bad triangle index", B3DImporter.cpp ReadTRIS), so the
 * engines load nothing of the file; without those triangles they load every
 * other one.  It is how a file whose VRTS lost its last vertex (bytes
 * deleted inside it, a partial record trimmed by trim-record-slack) loads
 * again (issue 29: the Irrlicht check of the salvage outputs).  Each
 * finding covers its triangle's 12 bytes; the TRIS's brush id and the bytes
 * after its last whole record are kept.  Unsafe: it drops triangles.
 *
 * drop-bad-weights repairs b3d-bone-vertex-out-of-range
 * (rules/b3d/skin.yaml) by removing from its BONE each weight whose vertex
 * id, added to the first vertex of the MESH Irrlicht and Luanti bind the
 * BONE to, falls outside the vertices read: Luanti refuses the whole model
 * for one, Assimp too ("Bad vertex index"), and Irrlicht 1.8 reads past its
 * vertex array and may crash (CB3DMeshFileLoader.cpp readChunkBONE).  Such
 * a weight binds no vertex in any engine: it is damage (an id torn by bytes
 * swapped or zeroed), and a repair that lets Irrlicht read further than
 * the damaged file did must not leave it to crash there (issue 29: the
 * Irrlicht check of the salvage outputs).  Each finding covers the
 * weight's 8 bytes.  Unsafe: it drops weights.
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

/* The records a fixer removes: those of chunks reported by rule, each
 * record `size` bytes after a header of `head` bytes (kept, as the bytes
 * after the last whole record); what names them in the note. */
typedef struct bad_records {
	wl_rule_id rule;
	size_t head, size;
	const char *what;
} bad_records;

/* Removes from chunk tc the records at the n absolute offsets of bad[]. */
static int drop(wl_doc *d, const bad_records *k, const wl_chunk *tc, const uint64_t *bad, size_t n)
{
	wl_chunk *c = wl_fix_mut(d, tc);
	if (!c || c->kind != WL_NODE_CHUNK || c->container || c->replaced)
		return 0;
	uint64_t start = wl_chunk_payload_offset(c);
	size_t len;
	const uint8_t *p = wl_edit_payload(d, c, &len);
	if (!p || len < k->head)
		return 0;
	uint8_t *out = malloc(len ? len : 1);
	if (!out) {
		d->oom = true;
		return -1;
	}
	memcpy(out, p, k->head);
	size_t keep = k->head, dropped = 0, at = k->head;
	for (; at + k->size <= len; at += k->size) {
		if (listed(bad, n, start + at)) {
			dropped++;
			continue;
		}
		memcpy(out + keep, p + at, k->size);
		keep += k->size;
	}
	memcpy(out + keep, p + at, len - at); /* the bytes after the last whole record */
	keep += len - at;
	size_t had = (len - k->head) / k->size;
	int rc = 0;
	if (dropped && (wl_edit_set_payload(d, c, out, keep) != 0 ||
			wl_edit_note(d, c, k->rule, c->offset + 4,
				     "%s: %zu -> %zu (%zu naming a vertex the MESH does not have dropped)", k->what,
				     had, had - dropped, dropped) != 0))
		rc = -1;
	free(out);
	return rc;
}

/* Removes the records the findings of k->rule cover, one chunk at a time. */
static int apply_records(wl_fix_ctx *x, const bad_records *k)
{
	if (!wl_fix_rule_wanted(x, k->rule))
		return 0;
	wl_doc *d = x->doc;
	size_t n = d->findings.count;
	uint64_t *bad = malloc((n ? n : 1) * sizeof *bad);
	if (!bad) {
		d->oom = true;
		return -1;
	}
	/* the findings of one chunk at a time: the chunks in finding order */
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->severity == WL_SEV_OFF || f->rule_id != k->rule || !f->chunk)
			continue;
		const wl_chunk *tc = f->chunk;
		bool first = true;
		for (size_t j = 0; j < i && first; j++) /* this chunk was done */
			first = !(d->findings.items[j].rule_id == k->rule &&
				  d->findings.items[j].severity != WL_SEV_OFF && d->findings.items[j].chunk == tc);
		if (!first)
			continue;
		size_t nb = 0;
		for (size_t j = i; j < n; j++) {
			const wl_finding *g = &d->findings.items[j];
			if (g->rule_id == k->rule && g->severity != WL_SEV_OFF && g->chunk == tc && g->length == k->size)
				bad[nb++] = g->offset;
		}
		rc = drop(d, k, tc, bad, nb);
	}
	free(bad);
	return rc;
}

static int apply_triangles(wl_fix_ctx *x)
{
	static const bad_records tris = { WLR_B3D_TRIANGLE_VERTEX_OUT_OF_RANGE, 4, 12, "triangles" };
	return apply_records(x, &tris);
}

static int apply_weights(wl_fix_ctx *x)
{
	static const bad_records weights = { WLR_B3D_BONE_VERTEX_OUT_OF_RANGE, 0, 8, "weights" };
	return apply_records(x, &weights);
}

const wl_fixer b3d_fix_drop_bad_triangles = {
	"drop-bad-triangles", true,
	"remove from a B3D TRIS the triangles that name a vertex their MESH does not have (the engines refuse the model for them)",
	apply_triangles
};

const wl_fixer b3d_fix_drop_bad_weights = {
	"drop-bad-weights", true,
	"remove from a B3D BONE the weights whose vertex is outside the MESH the engines bind it to (Luanti refuses the model, Irrlicht 1.8 reads past its vertices)",
	apply_weights
};
