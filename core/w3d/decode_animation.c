/* decode_animation.c - ANIMATION and COMPRESSED_ANIMATION decoders; see
 * hierarchy.h.  Layouts: notes/w3d_reference.md §2.4-2.5
 * (w3d_file.h:1328-1449; BFME 0x284 from OpenSAGE W3dMotionChannel.cs). */
#include "hierarchy.h"

#include "core/cursor.h"
#include "decode_util.h"
#include "w3d_format.h"

/* Counts the chunk children of c: ids a and d into *na, id b into *nb. */
static void count_children(const wl_chunk *c, uint32_t a, uint32_t b, uint32_t d, size_t *na, size_t *nb)
{
	*na = *nb = 0;
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->id == a || k->id == d)
			(*na)++;
		else if (k->id == b)
			(*nb)++;
	}
}

/* Reads the header chunk h of an animation (raw or compressed) when it is
 * present and at least min bytes: Version, the two 16-byte names and
 * NumFrames, labels c with the name and leaves *cur after NumFrames.
 * Returns 1 when read, 0 when absent or short, -1 when out of memory. */
static int read_anim_header(wl_doc *doc, wl_chunk *c, const wl_chunk *h, uint64_t min, wl_cursor *cur,
			    uint32_t *version, const char **name, const char **hname, uint32_t *num_frames)
{
	if (!h || h->size < min)
		return 0;
	*cur = w3d_payload_cursor(doc, h);
	*version = wl_cursor_u32(cur);
	const uint8_t *n1 = wl_cursor_take(cur, 16);
	const uint8_t *n2 = wl_cursor_take(cur, 16);
	if (!n1 || !n2)
		return -1;
	*name = w3d_name_field(doc, n1, 16, NULL);
	*hname = w3d_name_field(doc, n2, 16, NULL);
	if (!*name || !*hname)
		return -1;
	*num_frames = wl_cursor_u32(cur);
	w3d_set_label(doc, c, *name);
	return 1;
}

w3d_animation *w3d_decode_animation(wl_doc *doc, wl_chunk *c)
{
	w3d_animation *a = w3d_alloc_decoded(doc, &(w3d_animation){ .src = c, .name = "", .hierarchy_name = "" },
					sizeof *a);
	if (!a)
		return NULL;
	size_t nch, nbit;
	count_children(c, W3D_CHUNK_ANIMATION_CHANNEL, W3D_CHUNK_BIT_CHANNEL, W3D_CHUNK_ANIMATION_CHANNEL, &nch, &nbit);
	a->channels = wl_arena_array(doc->arena, nch ? nch : 1, sizeof *a->channels);
	a->bit_channels = wl_arena_array(doc->arena, nbit ? nbit : 1, sizeof *a->bit_channels);
	if (!a->channels || !a->bit_channels)
		return w3d_oom(doc);
	a->header = w3d_find_header(c, W3D_CHUNK_ANIMATION_HEADER, &a->header_first);
	wl_cursor hc;
	int r = read_anim_header(doc, c, a->header, W3D_ANIM_HEADER_SIZE, &hc, &a->version, &a->name,
				 &a->hierarchy_name, &a->num_frames);
	if (r < 0)
		return w3d_oom(doc);
	if (r > 0) {
		a->frame_rate = wl_cursor_u32(&hc);
		a->header_ok = true;
	}
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		wl_cursor cur = w3d_payload_cursor(doc, k);
		if (k->id == W3D_CHUNK_ANIMATION_CHANNEL && a->channel_count < nch) {
			w3d_anim_channel *ch = &a->channels[a->channel_count++];
			ch->src = k;
			ch->first_frame = wl_cursor_u16(&cur);
			ch->last_frame = wl_cursor_u16(&cur);
			ch->vector_len = wl_cursor_u16(&cur);
			ch->flags = wl_cursor_u16(&cur);
			ch->pivot = wl_cursor_u16(&cur);
			(void)wl_cursor_u16(&cur);
			ch->header_ok = w3d_take_rest(&cur, &ch->data, &ch->data_bytes, NULL);
			if (ch->header_ok)
				ch->data_offset = wl_chunk_payload_offset(k) + W3D_ANIM_CHANNEL_HEADER;
		} else if (k->id == W3D_CHUNK_BIT_CHANNEL && a->bit_channel_count < nbit) {
			w3d_bit_channel *b = &a->bit_channels[a->bit_channel_count++];
			b->src = k;
			b->first_frame = wl_cursor_u16(&cur);
			b->last_frame = wl_cursor_u16(&cur);
			b->flags = wl_cursor_u16(&cur);
			b->pivot = wl_cursor_u16(&cur);
			b->default_val = wl_cursor_u8(&cur);
			b->header_ok = w3d_take_rest(&cur, &b->data, &b->data_bytes, NULL);
		}
	}
	return a;
}

/* Decodes one 0x282 channel whose layout follows the header flavor. */
static void decode_canim_channel(const wl_doc *doc, const wl_chunk *k, uint16_t flavor, bool have_flavor,
				 w3d_canim_channel *ch)
{
	wl_cursor cur = w3d_payload_cursor(doc, k);
	ch->src = k;
	ch->count = wl_cursor_u32(&cur);
	ch->pivot = wl_cursor_u16(&cur);
	ch->vector_len = wl_cursor_u8(&cur);
	ch->flags = wl_cursor_u8(&cur);
	if (!have_flavor)
		ch->layout = W3D_CLAYOUT_UNKNOWN;
	else if (flavor == W3D_ANIM_FLAVOR_TIMECODED)
		ch->layout = W3D_CLAYOUT_TIMECODED;
	else if (flavor == W3D_ANIM_FLAVOR_ADAPTIVE_DELTA)
		ch->layout = W3D_CLAYOUT_AD4;
	else if (flavor == W3D_ANIM_FLAVOR_ADAPTIVE_DELTA8)
		ch->layout = W3D_CLAYOUT_AD8;
	if (ch->layout == W3D_CLAYOUT_AD4 || ch->layout == W3D_CLAYOUT_AD8)
		ch->scale = wl_cursor_f32(&cur);
	ch->header_ok = w3d_take_rest(&cur, &ch->data, &ch->data_bytes, &ch->data_offset);
}

/* Decodes one BFME II motion channel (0x284). */
static void decode_motion_channel(const wl_doc *doc, const wl_chunk *k, w3d_canim_channel *ch)
{
	wl_cursor cur = w3d_payload_cursor(doc, k);
	ch->src = k;
	ch->zero = wl_cursor_u8(&cur);
	ch->delta_type = wl_cursor_u8(&cur);
	ch->vector_len = wl_cursor_u8(&cur);
	ch->flags = wl_cursor_u8(&cur);
	ch->count = wl_cursor_u16(&cur);
	ch->pivot = wl_cursor_u16(&cur);
	switch (ch->delta_type) {
	case 0: ch->layout = W3D_CLAYOUT_MOTION_TC; break;
	case 1: ch->layout = W3D_CLAYOUT_MOTION_AD4; break;
	case 2: ch->layout = W3D_CLAYOUT_MOTION_AD8; break;
	default: ch->layout = W3D_CLAYOUT_UNKNOWN; break;
	}
	if (ch->layout == W3D_CLAYOUT_MOTION_AD4 || ch->layout == W3D_CLAYOUT_MOTION_AD8)
		ch->scale = wl_cursor_f32(&cur);
	ch->header_ok = w3d_take_rest(&cur, &ch->data, &ch->data_bytes, &ch->data_offset);
}

w3d_compressed_animation *w3d_decode_compressed_animation(wl_doc *doc, wl_chunk *c)
{
	w3d_compressed_animation *a = w3d_alloc_decoded(doc, &(w3d_compressed_animation){ .src = c, .name = "", .hierarchy_name = "" }, sizeof *a);
	if (!a)
		return NULL;
	size_t nch, nbit;
	count_children(c, W3D_CHUNK_COMPRESSED_ANIMATION_CHANNEL, W3D_CHUNK_COMPRESSED_BIT_CHANNEL,
		       W3D_CHUNK_COMPRESSED_ANIMATION_MOTION_CHANNEL, &nch, &nbit);
	a->channels = wl_arena_array(doc->arena, nch ? nch : 1, sizeof *a->channels);
	a->bit_channels = wl_arena_array(doc->arena, nbit ? nbit : 1, sizeof *a->bit_channels);
	if (!a->channels || !a->bit_channels)
		return w3d_oom(doc);
	/* The header normally comes first; when it does not, the flavor still
	 * comes from the first header found anywhere. */
	a->header = w3d_find_header(c, W3D_CHUNK_COMPRESSED_ANIMATION_HEADER, &a->header_first);
	wl_cursor hc;
	int r = read_anim_header(doc, c, a->header, W3D_CANIM_HEADER_SIZE, &hc, &a->version, &a->name,
				 &a->hierarchy_name, &a->num_frames);
	if (r < 0)
		return w3d_oom(doc);
	if (r > 0) {
		a->frame_rate = wl_cursor_u16(&hc);
		a->flavor = wl_cursor_u16(&hc);
		a->header_ok = true;
	}
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->id == W3D_CHUNK_COMPRESSED_ANIMATION_CHANNEL && a->channel_count < nch) {
			decode_canim_channel(doc, k, a->flavor, a->header_ok, &a->channels[a->channel_count++]);
		} else if (k->id == W3D_CHUNK_COMPRESSED_ANIMATION_MOTION_CHANNEL && a->channel_count < nch) {
			decode_motion_channel(doc, k, &a->channels[a->channel_count++]);
		} else if (k->id == W3D_CHUNK_COMPRESSED_BIT_CHANNEL && a->bit_channel_count < nbit) {
			w3d_cbit_channel *b = &a->bit_channels[a->bit_channel_count++];
			wl_cursor cur = w3d_payload_cursor(doc, k);
			b->src = k;
			b->num_time_codes = wl_cursor_u32(&cur);
			b->pivot = wl_cursor_u16(&cur);
			b->flags = wl_cursor_u8(&cur);
			b->default_val = wl_cursor_u8(&cur);
			b->header_ok = w3d_take_rest(&cur, &b->data, &b->data_bytes, NULL);
		}
	}
	return a;
}

uint64_t w3d_anim_channel_need(const w3d_anim_channel *ch)
{
	if (ch->last_frame < ch->first_frame)
		return 0;
	return ((uint64_t)ch->last_frame - ch->first_frame + 1) * ch->vector_len * 4u;
}

bool w3d_canim_channel_need(const w3d_canim_channel *ch, uint64_t *need, bool *whole_payload)
{
	uint64_t vl = ch->vector_len, n = ch->count, blocks = (n + 15) / 16;
	*whole_payload = false;
	switch (ch->layout) {
	case W3D_CLAYOUT_TIMECODED:
		*need = n * 4 * (vl + 1);
		return true;
	case W3D_CLAYOUT_AD4:
	case W3D_CLAYOUT_AD8:
		*whole_payload = true;
		*need = 15 + 4 * vl + (ch->layout == W3D_CLAYOUT_AD4 ? 9u : 17u) * vl * blocks;
		return true;
	case W3D_CLAYOUT_MOTION_TC:
		*need = ((2 * n + 3) & ~(uint64_t)3) + 4 * vl * n;
		return true;
	case W3D_CLAYOUT_MOTION_AD4:
	case W3D_CLAYOUT_MOTION_AD8:
		*need = 4 * vl + (ch->layout == W3D_CLAYOUT_MOTION_AD4 ? 9u : 17u) * vl * blocks;
		return true;
	case W3D_CLAYOUT_UNKNOWN:
		break;
	}
	return false;
}
