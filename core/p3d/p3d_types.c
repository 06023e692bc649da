/* p3d_types.c - the names of the P3D document's node types (p3d.h) and the
 * node helpers of the P3D readers, and where a finding about an element
 * of a compressed array lies (p3d_lodview.h). */
#include "p3d.h"

#include <stdio.h>

#include "p3d_lodview.h"

/* id, ctx, child_ctx, name, short_name, elem_size, min_size, flags.
 * child_ctx 1 marks the nodes that hold child nodes. */
static const wl_chunk_type schema[] = {
	{ P3D_NODE_HEADER, 0, 0, "P3D header", "header", 0, 0, 0 },
	{ P3D_NODE_RESOLUTIONS, 0, 0, "LOD resolutions", "resolutions", 4, 0, 0 },
	{ P3D_NODE_MODELINFO, 0, 0, "ModelInfo, skeleton and animations", "ModelInfo", 0, 0,
	  WL_TYPE_OPAQUE },
	{ P3D_NODE_LODTABLE, 0, 1, "LOD address table", "LODTable", 0, 0, 0 },
	{ P3D_NODE_LODSTARTS, 0, 0, "LOD start offsets", "starts", 4, 0, 0 },
	{ P3D_NODE_LODENDS, 0, 0, "LOD end offsets", "ends", 4, 0, 0 },
	{ P3D_NODE_PERMANENT, 0, 0, "LOD permanent flags", "permanent", 1, 0, 0 },
	{ P3D_NODE_LOADINFO, 0, 0, "LoadableLodInfo records", "LoadableLodInfo", 0, 0,
	  WL_TYPE_OPAQUE },
	{ P3D_NODE_LOD, 0, 1, "LOD", "LOD", 0, 0, 0 },
	{ P3D_NODE_TAIL, 0, 0, "data after the last LOD", "tail", 0, 0, WL_TYPE_OPAQUE },
	{ P3D_NODE_LODHEADER, 0, 0, "MLOD LOD header", "P3DM", 0, 28, 0 },
	{ P3D_NODE_POINTS, 0, 0, "MLOD points", "points", 16, 0, 0 },
	{ P3D_NODE_NORMALS, 0, 0, "MLOD normals", "normals", 12, 0, 0 },
	{ P3D_NODE_FACES, 0, 0, "MLOD faces", "faces", 0, 0, 0 },
	{ P3D_NODE_TAGS, 0, 0, "MLOD tags (TAGG)", "TAGG", 0, 0, 0 },
	{ P3D_NODE_RESOLUTION, 0, 0, "MLOD LOD resolution", "resolution", 4, 4, 0 },
	{ P3D_NODE_LODHEAD, 0, 0, "ODOL LOD proxies to edges", "head", 0, 0, 0 },
	{ P3D_NODE_LODREST, 0, 0, "ODOL LOD sections to vertex data", "rest", 0, 0, 0 },
	{ P3D_NODE_INFO, 0, 1, "ModelInfo, skeleton and animations (walked)", "ModelInfo", 0, 0, 0 },
	{ P3D_NODE_INFOFIELDS, 0, 0, "ModelInfo fields", "fields", 0, 0, 0 },
	{ P3D_NODE_SKELETON, 0, 0, "ModelInfo skeleton", "skeleton", 0, 0, 0 },
	{ P3D_NODE_ANIMATIONS, 0, 0, "hasAnims and animations", "animations", 0, 0, 0 },
	{ P3D_NODE_LODINFOS, 0, 1, "LoadableLodInfo records (walked)", "LoadableLodInfo", 0, 0, 0 },
	{ P3D_NODE_LODINFO, 0, 0, "LoadableLodInfo of one LOD", "info", 0, 0, 0 },
};

#define COUNT (sizeof schema / sizeof schema[0])

const wl_chunk_type *p3d_type(uint32_t id)
{
	for (size_t i = 0; i < COUNT; i++)
		if (schema[i].id == id)
			return &schema[i];
	return NULL;
}

const wl_chunk_type *p3d_schema(size_t *count)
{
	*count = COUNT;
	return schema;
}

const wl_chunk_type *p3d_lookup(uint16_t ctx, uint32_t id)
{
	(void)ctx;
	return p3d_type(id);
}

const char *p3d_id_name(uint32_t id)
{
	const wl_chunk_type *t = p3d_type(id);
	if (t)
		return t->short_name;
	static _Thread_local char buf[16];
	snprintf(buf, sizeof buf, "0x%X", (unsigned)id);
	return buf;
}

bool p3d_version_known(uint32_t version)
{
	return version == 7 || (version >= 28 && version <= 75);
}

wl_chunk *p3d_node(wl_doc *d, wl_chunk *parent, uint32_t id, uint64_t off, uint64_t size)
{
	if (size == 0)
		return NULL; /* the tree holds no empty node */
	wl_chunk *c = wl_doc_add_node(d, parent, WL_NODE_CHUNK, off, size);
	if (c) {
		c->id = id;
		c->type = p3d_type(id);
		c->declared_size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
		if (parent->kind == WL_NODE_CHUNK)
			parent->container = 1;
	}
	return c;
}

void p3d_gap(wl_doc *d, wl_chunk *parent, uint64_t from, uint64_t to)
{
	if (to > from && wl_doc_add_node(d, parent, WL_NODE_GAP, from, to - from) &&
	    parent->kind == WL_NODE_CHUNK)
		parent->container = 1;
}

void p3d_elem_span(const p3d_block *bl, uint32_t version, uint64_t i, uint32_t elem,
		   uint64_t *off, uint64_t *len)
{
	if (bl->compressed) {
		*off = bl->offset;
		*len = bl->length;
		return;
	}
	*off = bl->offset + (version >= 64 ? 1 : 0) + i * elem;
	*len = elem;
}
