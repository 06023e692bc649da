/*
 * layout.c - the B3D record layouts the text form writes and reads
 * (b3d_text.h): the value fields of a TEXS entry, a BRUS entry and a NODE
 * transform, and the sizes of a VRTS vertex and a KEYS key.  Used by
 * write.c and read.c, calling neither.
 */
#include "b3d_text.h"

#define F(n, t, c) { n, WL_TF_##t, c, NULL }

const wl_tf_field b3d_tf_texs_values[5] = {
	F("flags", I32, 1), F("blend", I32, 1), F("position", F32, 2), F("scale", F32, 2),
	F("rotation", F32, 1),
};
const wl_tf_field b3d_tf_brus_values[4] = {
	F("color", F32, 4), F("shininess", F32, 1), F("blend", I32, 1), F("fx", I32, 1),
};
const wl_tf_field b3d_tf_node_values[3] = {
	F("position", F32, 3), F("scale", F32, 3), F("rotation", F32, 4),
};

uint64_t b3d_tf_vertex_size(uint32_t flags, int32_t sets, int32_t set_size, uint64_t limit,
			    uint64_t *uv)
{
	*uv = 0;
	if (sets < 0 || set_size < 0)
		return 0;
	uint64_t n = (uint64_t)sets * (uint64_t)set_size; /* < 2^62 */
	if (n > limit / 4)
		return 0;
	uint64_t size = 12u + (flags & 1 ? 12u : 0u) + (flags & 2 ? 16u : 0u) + 4 * n;
	if (size > limit)
		return 0;
	*uv = n;
	return size;
}

uint64_t b3d_tf_key_size(uint32_t flags)
{
	return 4u + (flags & 1 ? 12u : 0u) + (flags & 2 ? 12u : 0u) + (flags & 4 ? 16u : 0u);
}
