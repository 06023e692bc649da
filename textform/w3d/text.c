/*
 * text.c - the W3D entry of the text form registry (textform/registry.h):
 * the struct tables of fields.c, and the dump context of a compressed
 * animation channel.
 */
#include "textform/registry.h"
#include "textform/w3d/w3d_geometry.h"

#include "core/cursor.h"
#include "core/w3d/hierarchy.h"
#include "core/w3d/w3d_format.h"

/* COMPRESSED_ANIMATION_CHANNEL in a COMPRESSED_ANIMATION: the Flavor of the
 * animation's first COMPRESSED_ANIMATION_HEADER, when it holds its 44 bytes
 * (the rule of w3d_decode_compressed_animation). */
static unsigned context(const wl_doc *d, const wl_chunk *c)
{
	const wl_chunk *a = c->parent;
	if (c->kind != WL_NODE_CHUNK || c->id != W3D_CHUNK_COMPRESSED_ANIMATION_CHANNEL || !a ||
	    a->kind != WL_NODE_CHUNK || a->id != W3D_CHUNK_COMPRESSED_ANIMATION || !c->type)
		return WL_TF_IN_PLAIN;
	for (const wl_chunk *k = a->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK || k->id != W3D_CHUNK_COMPRESSED_ANIMATION_HEADER)
			continue;
		/* The first header decides, and only when it is whole. */
		if (k->size < W3D_CANIM_HEADER_SIZE)
			return WL_TF_IN_PLAIN;
		uint16_t flavor = wl_le16(wl_chunk_payload(d, k) + W3D_CANIM_HEADER_SIZE - 2);
		if (flavor == W3D_ANIM_FLAVOR_TIMECODED)
			return WL_TF_IN_TIMECODED;
		if (flavor == W3D_ANIM_FLAVOR_ADAPTIVE_DELTA || flavor == W3D_ANIM_FLAVOR_ADAPTIVE_DELTA8)
			return WL_TF_IN_ADAPTIVE;
		return WL_TF_IN_PLAIN;
	}
	return WL_TF_IN_PLAIN;
}

const wl_tf_format wl_w3d_text = {
	.format = "w3d",
	.geometry = wl_w3d_geometry_json,
	.tables = wl_tf_tables,
	.context = context,
};
