/*
 * fix_slack.c - trim-record-slack (unsafe): repairs b3d-record-slack
 * (rules/b3d/structure.yaml) by dropping the bytes after the last whole
 * record of a data chunk (TEXS, BRUS, VRTS, TRIS, BONE, KEYS, ANIM): the
 * bytes each finding covers, which end the chunk's payload.  A partial
 * TEXS or BRUS entry goes whole.  Luanti reads such bytes as the start of
 * another record and then loses its place in the file; no reader can use
 * them.  A NODE whose transform is cut (a container) is left alone: its
 * fields cannot be completed without inventing values.  Unsafe: it drops
 * data, however little.  A TEXS or BRUS whose partial entry an id names
 * (b3d_fix_ids_reach: a BRUS texture id, a MESH or TRIS brush id at or past
 * its whole entries) is left alone: dropping the entry would leave the id
 * dangling, and clear-dangling-ids would then change the intact element
 * that holds it (issue 29).
 */
#include "fixers.h"

#include <inttypes.h>
#include <string.h>

static int apply(wl_fix_ctx *x)
{
	if (!wl_fix_rule_wanted(x, WLR_B3D_RECORD_SLACK))
		return 0;
	wl_doc *d = x->doc;
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->severity == WL_SEV_OFF || strcmp(f->rule, wl_rule_name(WLR_B3D_RECORD_SLACK)) != 0 || !f->chunk)
			continue;
		wl_chunk *c = wl_fix_mut(d, f->chunk);
		if (!c || c->kind != WL_NODE_CHUNK || c->container || c->replaced)
			continue;
		const b3d_model *m = d->model;
		if (m && (c == m->texs || c == m->brus) &&
		    b3d_fix_ids_reach(m, c, c == m->texs ? m->texture_count : m->brush_count))
			continue; /* an id names the partial entry */
		uint64_t start = wl_chunk_payload_offset(c);
		if (f->offset < start || f->offset + f->length != start + c->size)
			continue; /* not the end of the payload */
		size_t len;
		const uint8_t *p = wl_edit_payload(d, c, &len);
		size_t keep = (size_t)(f->offset - start);
		if (wl_edit_set_payload(d, c, p, keep) != 0)
			return -1;
		if (wl_edit_note(d, c, WLR_B3D_RECORD_SLACK, c->offset + 4,
				 "length: %zu -> %zu (%" PRIu64 " byte(s) after the last whole record dropped)",
				 len, keep, f->length) != 0)
			return -1;
	}
	return 0;
}

const wl_fixer b3d_fix_trim_record_slack = {
	"trim-record-slack", true,
	"drop the bytes after the last whole record of a B3D data chunk (a partial entry goes whole)",
	apply
};
