/*
 * text.c - the B3D entry of the text form registry (textform/registry.h):
 * no struct tables (every B3D payload goes through the hooks of write.c and
 * read.c, which share the record layouts of layout.c), and the keys each
 * chunk owns (b3d_text.h).
 */
#include "textform/b3d/b3d_geometry.h"
#include "b3d_text.h"

#include <string.h>

#include "core/b3d/b3d_format.h"

/* The keys of each chunk type, as b3d_text.h lists them. */
static const struct {
	uint32_t id;
	const char *keys[5];
} owned[] = {
	{ B3D_CHUNK_BB3D, { "version" } },
	{ B3D_CHUNK_NODE, { "name", "position", "scale", "rotation" } },
	{ B3D_CHUNK_MESH, { "brush_id" } },
	{ B3D_CHUNK_TEXS, { "entries" } },
	{ B3D_CHUNK_BRUS, { "n_texs", "entries" } },
	{ B3D_CHUNK_VRTS, { "flags", "tex_coord_sets", "tex_coord_set_size", "vertices" } },
	{ B3D_CHUNK_TRIS, { "brush_id", "triangles" } },
	{ B3D_CHUNK_BONE, { "weights" } },
	{ B3D_CHUNK_KEYS, { "flags", "keys" } },
	{ B3D_CHUNK_ANIM, { "flags", "frames", "fps" } },
};

static bool owns_key(const wl_chunk_type *t, const char *key)
{
	for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++) {
		if (owned[i].id != t->id)
			continue;
		for (size_t k = 0; k < 5 && owned[i].keys[k]; k++)
			if (strcmp(owned[i].keys[k], key) == 0)
				return true;
	}
	return false;
}

static const wl_tf_struct *no_tables(size_t *count)
{
	*count = 0;
	return NULL;
}

/* Every key, chunk and record keys together (wl_tf_format.keys). */
static const char *const all_keys[] = {
	"version", "name", "position", "scale", "rotation", "brush_id", "entries", "file",
	"flags", "blend", "n_texs", "color", "shininess", "fx", "textures", "tex_coord_sets",
	"tex_coord_set_size", "vertices", "normal", "tex_coords", "triangles", "weights", "keys",
	"frame", "frames", "fps", NULL
};

const wl_tf_format wl_b3d_text = {
	.format = "b3d",
	.geometry = wl_b3d_geometry_json,
	.tables = no_tables,
	.write_keys = wl_tf_yaml_keys,
	.decode = b3d_tf_decode,
	.owns_key = owns_key,
	.assemble_keys = b3d_tf_assemble_keys,
	.keys = all_keys,
};
