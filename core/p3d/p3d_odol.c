/* p3d_odol.c - the ODOL reader (p3d.h): header, resolutions, ModelInfo
 * (walked by p3d_info.c), the LOD address table (located by a consistency
 * search, confirmed by the walk where both agree), the LoadableLodInfo
 * records, one node per LOD in file order, the tail.  Findings:
 *   p3d-truncated            the header or resolutions run past the end,
 *                            or (the ModelInfo walk landing on a table
 *                            consistent but for ends past the file's end)
 *                            the first LOD the file's end cuts
 *   p3d-lod-end-past-eof     a LOD's table end lies past the end of the
 *                            file while a later LOD starts inside it: at
 *                            that end offset (the LOD then ends where the
 *                            next one starts)
 *   p3d-lod-table-not-found  no offset after the resolutions holds a
 *                            consistent LOD address table
 *   p3d-modelinfo-walk       the ModelInfo walk stopped at a field, or
 *                            ended somewhere other than the table the
 *                            search found, or the LoadableLodInfo records
 *                            do not fill the bytes before the first LOD
 *   and, when the walk agrees, those of p3d_walk_info (p3d.h).
 * The table's own defects (overlap, gaps, order) are the checks' business
 * (lint/p3d/check_lods.c); the reader only places what fits. */
#include "p3d.h"

#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"

/* Most bytes of LoadableLodInfo per LOD between the table and the first
 * LOD (v4x: about 7 u32 + flags; generous). */
#define LOADINFO_MAX 64u
/* LOD counts above this are not searched for (p3d-lod-count reports). */
#define LODS_SEARCH_MAX 4096u

static int cmp_start(const void *a, const void *b)
{
	const p3d_lod *x = *(const p3d_lod *const *)a, *y = *(const p3d_lod *const *)b;
	return x->start < y->start ? -1 : x->start > y->start ? 1 : 0;
}

/* Whether a table at p of n LODs is consistent (see p3d.h), every end
 * at or below end_max (the file's size, or more for a file cut short);
 * *contiguous set when its LODs, sorted by start, tile [first start, last
 * end).  tmp holds n LODs, order n pointers. */
static bool table_at(const uint8_t *b, uint64_t size, uint64_t p, uint32_t n, p3d_lod *tmp,
		     p3d_lod **order, bool *contiguous, uint64_t end_max)
{
	uint64_t after = p + 9ull * n;
	if (after > size)
		return false;
	uint64_t first = UINT64_MAX;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t perm = b[p + 8ull * n + i];
		uint32_t s = wl_le32(b + p + 4ull * i), e = wl_le32(b + p + 4ull * (n + i));
		if (perm > 1 || s < after || s > e || e > end_max)
			return false;
		tmp[i].start = s;
		tmp[i].end = e;
		order[i] = &tmp[i];
		if (s < first)
			first = s;
	}
	if (first - after > (uint64_t)LOADINFO_MAX * n)
		return false;
	qsort(order, n, sizeof *order, cmp_start);
	*contiguous = true;
	for (uint32_t i = 0; i + 1 < n; i++)
		if (order[i]->end != order[i + 1]->start)
			*contiguous = false;
	return true;
}

/* The offset of the LOD table, searching from `from`: the first contiguous
 * one, else the first consistent one; false when none. */
static bool find_table(const wl_doc *d, uint64_t from, uint32_t n, p3d_lod *tmp, p3d_lod **order,
		       uint64_t *at, bool *contiguous)
{
	bool have_weak = false;
	uint64_t weak = 0;
	for (uint64_t p = from; p + 9ull * n <= d->size; p++) {
		bool c;
		if (!table_at(d->bytes, d->size, p, n, tmp, order, &c, d->size))
			continue;
		if (c) {
			*at = p;
			*contiguous = true;
			return true;
		}
		if (!have_weak) {
			have_weak = true;
			weak = p;
		}
	}
	if (have_weak) {
		*at = weak;
		*contiguous = false;
	}
	return have_weak;
}

/* Reads magic .. nLods into the header node; false when cut. */
static bool read_header(wl_doc *d, p3d_model *m, wl_cursor *c)
{
	wl_cursor_skip(c, 4);
	m->version = m->header_version = wl_cursor_u32(c);
	if (m->layout)
		m->version = m->layout;
	if (m->version >= 75 && p3d_version_known(m->version)) {
		m->has_reserved = true;
		m->reserved_off = wl_cursor_offset(c);
		m->reserved[0] = wl_cursor_u32(c);
		m->reserved[1] = wl_cursor_u32(c);
	}
	if (m->version >= 59)
		wl_cursor_skip(c, 4); /* appID */
	if (m->version >= 58) {
		size_t rem = wl_cursor_remaining(c);
		const uint8_t *s = c->base + c->pos;
		const uint8_t *z = rem ? memchr(s, 0, rem) : NULL;
		if (!z) {
			wl_report(&d->findings, WLR_P3D_TRUNCATED, NULL, -1, wl_cursor_offset(c), rem,
				  "the model's proxy path at 0x%llx has no terminating nul before the end "
				  "of the file",
				  (unsigned long long)wl_cursor_offset(c));
			return false;
		}
		wl_cursor_skip(c, (size_t)(z - s) + 1);
	}
	m->nlods_off = wl_cursor_offset(c);
	m->n_lods = wl_cursor_u32(c);
	if (c->short_read) {
		wl_report(&d->findings, WLR_P3D_TRUNCATED, NULL, -1, 0, d->size,
			  "the file ends at 0x%llx inside the ODOL header (magic, version, lod count)",
			  (unsigned long long)d->size);
		return false;
	}
	return true;
}

/* The walked ModelInfo's nodes over [from, at) and its second pass. */
static void info_nodes(wl_doc *d, p3d_model *m, p3d_info_walk *w, uint64_t from, uint64_t at)
{
	wl_chunk *n = p3d_node(d, &d->root, P3D_NODE_INFO, from, at - from);
	if (!n)
		return;
	w->fields_node = p3d_node(d, n, P3D_NODE_INFOFIELDS, from, w->skel_at - from);
	w->skel_node = p3d_node(d, n, P3D_NODE_SKELETON, w->skel_at, w->skel_end - w->skel_at);
	w->fields2_node = p3d_node(d, n, P3D_NODE_INFOFIELDS, w->skel_end, w->anims_at - w->skel_end);
	w->anims_node = p3d_node(d, n, P3D_NODE_ANIMATIONS, w->anims_at, at - w->anims_at);
	m->info_walked = true;
	m->skeleton_read = true;
	m->n_skeleton_bones = w->n_bones;
	p3d_walk_info(d, m, from, w, true);
}

/* The ModelInfo bytes [from, at) when the walk does not agree with the
 * table the search found at `at`: one opaque node and a finding. */
static void info_unwalked(wl_doc *d, const p3d_model *m, const p3d_info_walk *w, bool walked,
			  uint64_t from, uint64_t at)
{
	const wl_chunk *n = p3d_node(d, &d->root, P3D_NODE_MODELINFO, from, at - from);
	if (!walked)
		wl_report(&d->findings, WLR_P3D_MODELINFO_WALK, n, -1, from, at - from,
			  "the ModelInfo walk (v%u layout) stopped at its %s at 0x%llx, which %s; the "
			  "lod table was located by its consistency at 0x%llx instead",
			  (unsigned)m->version, w->stopped, (unsigned long long)w->stop_at, w->why,
			  (unsigned long long)at);
	else
		wl_report(&d->findings, WLR_P3D_MODELINFO_WALK, n, -1, from, at - from,
			  "the ModelInfo walk (v%u layout) ends at 0x%llx, but the lod table was "
			  "located by its consistency at 0x%llx: a field's layout differs from the "
			  "public readers' (the skeleton ends at 0x%llx, hasAnims is at 0x%llx)",
			  (unsigned)m->version, (unsigned long long)w->table, (unsigned long long)at,
			  (unsigned long long)w->skel_end, (unsigned long long)w->anims_at);
}

/* The LoadableLodInfo records between the table's end (pos) and the
 * first LOD (first): one node per record when the walk placed them. */
static void lod_infos(wl_doc *d, p3d_model *m, p3d_info_walk *w, uint64_t pos, uint64_t first)
{
	bool fits = m->info_walked && p3d_info_lod_infos(d, m, w, first);
	if (!fits) {
		const wl_chunk *n = NULL;
		if (first > pos)
			n = p3d_node(d, &d->root, P3D_NODE_LOADINFO, pos, first - pos);
		if (m->info_walked)
			wl_report(&d->findings, WLR_P3D_MODELINFO_WALK, n ? n : m->table, -1,
				  n ? pos : m->table_off + 8ull * m->n_lods,
				  n ? first - pos : m->n_lods,
				  "the %llu bytes between the lod table and the first lod (0x%llx) are not "
				  "one %llu-byte LoadableLodInfo record per lod whose permanent flag is 0",
				  (unsigned long long)(first - pos), (unsigned long long)first,
				  (unsigned long long)w->info_rec);
		return;
	}
	wl_chunk *c = p3d_node(d, &d->root, P3D_NODE_LODINFOS, pos, first - pos);
	for (uint32_t i = 0; c && i < m->n_lods; i++) {
		if (m->lods[i].permanent)
			continue;
		wl_chunk *r = p3d_node(d, c, P3D_NODE_LODINFO, pos, w->info_rec);
		if (r)
			wl_chunk_set_label(d, r, wl_arena_printf(d->arena, "%u", (unsigned)i));
		pos += w->info_rec;
	}
}

/* The first LOD (in file order) whose table end lies past the end of the
 * file, the bytes before it placed up to pos: a node over what of it is
 * there, and p3d-truncated there (at its table entries when none of it
 * is). */
static void cut_short(wl_doc *d, p3d_model *m, p3d_lod *l, uint64_t pos)
{
	unsigned i = (unsigned)(l - m->lods);
	bool some = l->start < d->size;
	wl_chunk *node = NULL;
	if (some) {
		p3d_gap(d, &d->root, pos, l->start);
		node = p3d_node(d, &d->root, P3D_NODE_LOD, l->start, d->size - l->start);
		if (node)
			wl_chunk_set_label(d, node, wl_arena_printf(d->arena, "%u", i));
		l->node = node;
	} else {
		p3d_gap(d, &d->root, pos, d->size);
	}
	wl_report(&d->findings, WLR_P3D_TRUNCATED, some ? node : m->table, some ? -1 : (int64_t)i,
		  some ? l->start : m->table_off + 4ull * i, some ? d->size - l->start : 4,
		  "lod %u runs from 0x%X to 0x%X by the lod table, past the end of the file at "
		  "0x%llx: the file is cut short",
		  i, (unsigned)l->start, (unsigned)l->end, (unsigned long long)d->size);
}

/* LOD order[k] ends past the end of the file by the table, but a later
 * LOD in file order starts inside the file after its start: the file is
 * not cut there, the end offset is wrong.  p3d-lod-end-past-eof at that
 * table entry (its end field), and the LOD taken to end where the next
 * one starts, so that it and the LODs after it are placed and checked.
 * false (nothing changed) when no such LOD follows: a file cut short. */
static bool end_past_eof(wl_doc *d, p3d_model *m, p3d_lod **order, uint32_t k, uint32_t n)
{
	p3d_lod *l = order[k];
	if (k + 1 >= n || order[k + 1]->start >= d->size || order[k + 1]->start <= l->start)
		return false;
	unsigned i = (unsigned)(l - m->lods);
	wl_report(&d->findings, WLR_P3D_LOD_END_PAST_EOF, m->table, (int64_t)i,
		  m->table_off + 4ull * n + 4ull * i, 4,
		  "lod %u ends at 0x%X by the lod table, past the end of the file at 0x%llx, though lod "
		  "%u starts after it at 0x%X: the end offset is wrong (read here as 0x%X)",
		  i, (unsigned)l->end, (unsigned long long)d->size, (unsigned)(order[k + 1] - m->lods),
		  (unsigned)order[k + 1]->start, (unsigned)order[k + 1]->start);
	l->end = order[k + 1]->start;
	return true;
}

/* The LOD table, its LoadableLodInfo and the LODs, from `from` on. */
static void read_lods(wl_doc *d, p3d_model *m, uint64_t from)
{
	uint32_t n = m->n_lods;
	p3d_lod **order = wl_arena_array(d->arena, n, sizeof *order);
	uint64_t at = 0;
	bool contiguous = false;
	if (!order || !m->lods) {
		d->oom = true;
		return;
	}
	p3d_info_walk iw;
	memset(&iw, 0, sizeof iw);
	bool walked = p3d_walk_info(d, m, from, &iw, false);
	if (m->trial && !walked)
		return;
	/* A trial (p3d_odol_layout) takes only the table the walk lands on. */
	bool found = m->trial ? table_at(d->bytes, d->size, iw.table, n, m->lods, order, &contiguous,
					 d->size)
			      : find_table(d, from, n, m->lods, order, &at, &contiguous);
	if (found && m->trial)
		at = iw.table;
	/* A file cut short: the walk lands on a table that is consistent
	 * but for ends past the file's end. */
	bool cut = !found && walked &&
		   table_at(d->bytes, d->size, iw.table, n, m->lods, order, &contiguous, UINT32_MAX);
	if (cut)
		at = iw.table;
	if (!found && !cut) {
		for (uint32_t i = 0; i < n; i++)
			m->lods[i].start = m->lods[i].end = 0;
		if (d->size > from)
			p3d_node(d, &d->root, P3D_NODE_MODELINFO, from, d->size - from);
		wl_report(&d->findings, WLR_P3D_LOD_TABLE_NOT_FOUND, NULL, -1, from, d->size - from,
			  "no consistent table of %u lod start and end offsets follows the resolutions "
			  "(searched 0x%llx to the end): the lods cannot be located",
			  (unsigned)n, (unsigned long long)from);
		return;
	}
	/* find_table left the last candidate's values: read the chosen one. */
	bool c;
	table_at(d->bytes, d->size, at, n, m->lods, order, &c, cut ? UINT32_MAX : d->size);
	for (uint32_t i = 0; i < n; i++)
		m->lods[i].permanent = d->bytes[at + 8ull * n + i];
	m->table_found = true;
	m->in_file = order;
	m->table_contiguous = contiguous;
	m->table_off = at;
	if (walked && iw.table == at)
		info_nodes(d, m, &iw, from, at);
	else if (at > from)
		info_unwalked(d, m, &iw, walked, from, at);
	wl_chunk *t = p3d_node(d, &d->root, P3D_NODE_LODTABLE, at, 9ull * n);
	m->table = t;
	if (t) {
		p3d_node(d, t, P3D_NODE_LODSTARTS, at, 4ull * n);
		p3d_node(d, t, P3D_NODE_LODENDS, at + 4ull * n, 4ull * n);
		p3d_node(d, t, P3D_NODE_PERMANENT, at + 8ull * n, n);
	}
	uint64_t pos = at + 9ull * n;
	lod_infos(d, m, &iw, pos, order[0]->start);
	pos = order[0]->start;
	for (uint32_t k = 0; k < n; k++) {
		p3d_lod *l = order[k];
		if (l->start < pos)
			continue; /* overlaps the one before: p3d-lod-overlap */
		if (l->end > d->size && !end_past_eof(d, m, order, k, n)) {
			cut_short(d, m, l, pos);
			pos = d->size;
			break;
		}
		p3d_gap(d, &d->root, pos, l->start);
		wl_chunk *node = p3d_node(d, &d->root, P3D_NODE_LOD, l->start, l->end - l->start);
		if (node) {
			wl_chunk_set_label(d, node, wl_arena_printf(d->arena, "%u", (unsigned)(l - m->lods)));
			if (m->version >= 40 && p3d_version_known(m->version))
				l->walked = p3d_walk_lod(d, m, l, node);
			if (m->trial && !l->walked)
				return;
		}
		l->node = node;
		pos = l->end;
	}
	if (pos < d->size)
		p3d_node(d, &d->root, P3D_NODE_TAIL, pos, d->size - pos);
}

void p3d_read_odol(wl_doc *d, p3d_model *m)
{
	wl_cursor c = wl_cursor_make(d->bytes, (size_t)d->size, 0);
	if (!read_header(d, m, &c)) {
		p3d_node(d, &d->root, P3D_NODE_HEADER, 0, d->size);
		return;
	}
	m->header = p3d_node(d, &d->root, P3D_NODE_HEADER, 0, c.pos);
	m->res_off = c.pos;
	uint64_t room = (d->size - c.pos) / 4;
	m->n_res = m->n_lods < room ? m->n_lods : (uint32_t)room;
	m->header_complete = true;
	if (m->n_res)
		m->resolutions = p3d_node(d, &d->root, P3D_NODE_RESOLUTIONS, c.pos, 4ull * m->n_res);
	uint64_t from = c.pos + 4ull * m->n_res;
	if (m->n_res < m->n_lods) {
		if (d->size > from)
			p3d_node(d, &d->root, P3D_NODE_TAIL, from, d->size - from);
		wl_report(&d->findings, WLR_P3D_TRUNCATED, m->resolutions, -1, m->res_off,
			  d->size - m->res_off,
			  "the file ends at 0x%llx after %u of the %u lod resolutions",
			  (unsigned long long)d->size, (unsigned)m->n_res, (unsigned)m->n_lods);
		return;
	}
	if (m->n_lods == 0 || m->n_lods > LODS_SEARCH_MAX) {
		/* p3d-lod-count reports; nothing can be located */
		if (d->size > from)
			p3d_node(d, &d->root, P3D_NODE_MODELINFO, from, d->size - from);
		return;
	}
	m->lods = wl_arena_array(d->arena, m->n_lods, sizeof *m->lods);
	if (!m->lods) {
		d->oom = true;
		return;
	}
	for (uint32_t i = 0; i < m->n_lods; i++)
		m->lods[i].resolution = wl_lef32(d->bytes + m->res_off + 4ull * i);
	read_lods(d, m, from);
}
