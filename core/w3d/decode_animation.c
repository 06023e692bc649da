/* decode_animation.c - ANIMATION and COMPRESSED_ANIMATION decoders; see
 * hierarchy.h.  Layouts: notes/w3d_reference.md §2.4-2.5
 * (w3d_file.h:1328-1449; BFME 0x284 from OpenSAGE W3dMotionChannel.cs). */
#include "hierarchy.h"

#include "../cursor.h"
#include "w3d_format.h"

static wl_cursor payload_cursor(const wl_doc *doc, const wl_chunk *k)
{
	return wl_cursor_make(wl_chunk_payload(doc, k), (size_t)k->size, wl_chunk_payload_offset(k));
}

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

static const wl_chunk *first_chunk(const wl_chunk *c)
{
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK)
			return k;
	return NULL;
}

/* Reads the 44-byte header common to raw and compressed animations up to
 * NumFrames; returns false when short. */
static bool read_anim_names(wl_doc *doc, wl_cursor *cur, uint32_t *version, const char **name,
			    const char **hname)
{
	*version = wl_cursor_u32(cur);
	const uint8_t *n1 = wl_cursor_take(cur, 16);
	const uint8_t *n2 = wl_cursor_take(cur, 16);
	if (!n1 || !n2)
		return false;
	*name = w3d_hier_name_field(doc, n1, 16, NULL);
	*hname = w3d_hier_name_field(doc, n2, 16, NULL);
	return *name && *hname;
}

static void set_label(wl_chunk *c, const char *name)
{
	if (name && name[0])
		c->label = name;
}

w3d_animation *w3d_decode_animation(wl_doc *doc, wl_chunk *c)
{
	w3d_animation *a = wl_arena_alloc(doc->arena, sizeof *a);
	if (!a)
		goto oom;
	a->src = c;
	a->name = a->hierarchy_name = "";
	c->decoded = a;
	size_t nch, nbit;
	count_children(c, W3D_CHUNK_ANIMATION_CHANNEL, W3D_CHUNK_BIT_CHANNEL, W3D_CHUNK_ANIMATION_CHANNEL, &nch, &nbit);
	a->channels = wl_arena_array(doc->arena, nch ? nch : 1, sizeof *a->channels);
	a->bit_channels = wl_arena_array(doc->arena, nbit ? nbit : 1, sizeof *a->bit_channels);
	if (!a->channels || !a->bit_channels)
		goto oom;
	const wl_chunk *first = first_chunk(c);
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		wl_cursor cur = payload_cursor(doc, k);
		if (k->id == W3D_CHUNK_ANIMATION_HEADER && !a->header) {
			a->header = k;
			a->header_first = k == first;
			if (k->size >= W3D_ANIM_HEADER_SIZE) {
				if (!read_anim_names(doc, &cur, &a->version, &a->name, &a->hierarchy_name))
					goto oom;
				a->num_frames = wl_cursor_u32(&cur);
				a->frame_rate = wl_cursor_u32(&cur);
				a->header_ok = true;
				set_label(c, a->name);
			}
		} else if (k->id == W3D_CHUNK_ANIMATION_CHANNEL && a->channel_count < nch) {
			w3d_anim_channel *ch = &a->channels[a->channel_count++];
			ch->src = k;
			ch->first_frame = wl_cursor_u16(&cur);
			ch->last_frame = wl_cursor_u16(&cur);
			ch->vector_len = wl_cursor_u16(&cur);
			ch->flags = wl_cursor_u16(&cur);
			ch->pivot = wl_cursor_u16(&cur);
			(void)wl_cursor_u16(&cur);
			ch->header_ok = !cur.short_read;
			if (ch->header_ok) {
				ch->data_bytes = wl_cursor_remaining(&cur);
				ch->data = wl_cursor_take(&cur, ch->data_bytes);
				ch->data_offset = wl_chunk_payload_offset(k) + W3D_ANIM_CHANNEL_HEADER;
			}
		} else if (k->id == W3D_CHUNK_BIT_CHANNEL && a->bit_channel_count < nbit) {
			w3d_bit_channel *b = &a->bit_channels[a->bit_channel_count++];
			b->src = k;
			b->first_frame = wl_cursor_u16(&cur);
			b->last_frame = wl_cursor_u16(&cur);
			b->flags = wl_cursor_u16(&cur);
			b->pivot = wl_cursor_u16(&cur);
			b->default_val = wl_cursor_u8(&cur);
			b->header_ok = !cur.short_read;
			if (b->header_ok) {
				b->data_bytes = wl_cursor_remaining(&cur);
				b->data = wl_cursor_take(&cur, b->data_bytes);
			}
		}
	}
	return a;
oom:
	doc->oom = true;
	return NULL;
}

/* Decodes one 0x282 channel whose layout follows the header flavor. */
static void decode_canim_channel(const wl_doc *doc, const wl_chunk *k, uint16_t flavor, bool have_flavor,
				 w3d_canim_channel *ch)
{
	wl_cursor cur = payload_cursor(doc, k);
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
	ch->header_ok = !cur.short_read;
	if (ch->header_ok) {
		ch->data_offset = wl_cursor_offset(&cur);
		ch->data_bytes = wl_cursor_remaining(&cur);
		ch->data = wl_cursor_take(&cur, ch->data_bytes);
	}
}

/* Decodes one BFME II motion channel (0x284). */
static void decode_motion_channel(const wl_doc *doc, const wl_chunk *k, w3d_canim_channel *ch)
{
	wl_cursor cur = payload_cursor(doc, k);
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
	ch->header_ok = !cur.short_read;
	if (ch->header_ok) {
		ch->data_offset = wl_cursor_offset(&cur);
		ch->data_bytes = wl_cursor_remaining(&cur);
		ch->data = wl_cursor_take(&cur, ch->data_bytes);
	}
}

w3d_compressed_animation *w3d_decode_compressed_animation(wl_doc *doc, wl_chunk *c)
{
	w3d_compressed_animation *a = wl_arena_alloc(doc->arena, sizeof *a);
	if (!a)
		goto oom;
	a->src = c;
	a->name = a->hierarchy_name = "";
	c->decoded = a;
	size_t nch, nbit;
	count_children(c, W3D_CHUNK_COMPRESSED_ANIMATION_CHANNEL, W3D_CHUNK_COMPRESSED_BIT_CHANNEL,
		       W3D_CHUNK_COMPRESSED_ANIMATION_MOTION_CHANNEL, &nch, &nbit);
	a->channels = wl_arena_array(doc->arena, nch ? nch : 1, sizeof *a->channels);
	a->bit_channels = wl_arena_array(doc->arena, nbit ? nbit : 1, sizeof *a->bit_channels);
	if (!a->channels || !a->bit_channels)
		goto oom;
	const wl_chunk *first = first_chunk(c);
	/* The header normally comes first; when it does not, the flavor still
	 * comes from the first header found anywhere. */
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK || k->id != W3D_CHUNK_COMPRESSED_ANIMATION_HEADER)
			continue;
		a->header = k;
		a->header_first = k == first;
		wl_cursor cur = payload_cursor(doc, k);
		if (k->size >= W3D_CANIM_HEADER_SIZE) {
			if (!read_anim_names(doc, &cur, &a->version, &a->name, &a->hierarchy_name))
				goto oom;
			a->num_frames = wl_cursor_u32(&cur);
			a->frame_rate = wl_cursor_u16(&cur);
			a->flavor = wl_cursor_u16(&cur);
			a->header_ok = true;
			set_label(c, a->name);
		}
		break;
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
			wl_cursor cur = payload_cursor(doc, k);
			b->src = k;
			b->num_time_codes = wl_cursor_u32(&cur);
			b->pivot = wl_cursor_u16(&cur);
			b->flags = wl_cursor_u8(&cur);
			b->default_val = wl_cursor_u8(&cur);
			b->header_ok = !cur.short_read;
			if (b->header_ok) {
				b->data_bytes = wl_cursor_remaining(&cur);
				b->data = wl_cursor_take(&cur, b->data_bytes);
			}
		}
	}
	return a;
oom:
	doc->oom = true;
	return NULL;
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
