/* patch.c - b3d_fix_patch (fixers.h): replaces bytes of a B3D chunk at an
 * absolute input offset, in a container's fields (NODE transform, MESH
 * brush_id) or a data chunk's payload. */
#include "fixers.h"


int b3d_fix_patch(wl_doc *d, wl_chunk *c, uint64_t at, const uint8_t *bytes, size_t n, uint8_t *old)
{
	uint64_t start = wl_chunk_payload_offset(c);
	if (at < start || at - start > SIZE_MAX)
		return -1;
	return wl_edit_overwrite(d, c, (size_t)(at - start), bytes, n, old);
}
