/*
 * chunk.c - the recovering chunk reader; see chunk.h for the cases.
 *
 * Every node covers [offset, offset + header_size + size) and the nodes of one
 * parent tile the parent's payload in order, so the tree covers the file.
 * Positions are absolute file offsets (uint64_t); a size from the file is
 * only ever compared against bytes that exist, never used to allocate.
 */
#include "chunk.h"
#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE_BUDGET 64 /* headers inspected when judging a size */

typedef struct reader {
	wl_doc *d;
	const wl_format *f;
	unsigned h; /* header size */
	uint8_t why; /* what the last true_end / unknown_end judged by (WHY_*) */
} reader;

/* Why a declared size was judged wrong (the reason chunk-size-wrong names). */
enum {
	WHY_BYTES,      /* where the content ends, or where valid chunks start */
	WHY_COUNTED,    /* the counts of its header (wl_format.counted_size) */
	WHY_RECORDS,    /* its records end whole at its parent's end */
	WHY_IN_HEADER,  /* its declared end falls inside a valid chunk's header */
	WHY_CHILD,      /* its last child runs past its declared end, nearer to it */
	WHY_OVER_CHAIN  /* (unknown) its declared end falls inside a chain of valid chunks */
};

static uint16_t ctx_of(const wl_chunk *parent)
{
	if (parent->kind == WL_NODE_ROOT)
		return 0;
	return parent->type ? parent->type->child_ctx : 0xFFFF;
}

/* Nodes are handed out of batches (wl_doc.node_pool): one arena block
 * holds them back to back, so a node costs sizeof(wl_chunk) bytes, not that
 * rounded up to the arena's 16-byte alignment.  Batches grow from
 * NODE_BATCH_MIN to NODE_BATCH_MAX nodes; near the arena's limit a single
 * node is still tried. */
#define NODE_BATCH_MIN 16u
#define NODE_BATCH_MAX 1024u

static wl_chunk *take_node(wl_doc *d)
{
	if (!d->node_pool_left) {
		uint32_t n = d->node_batch ? d->node_batch * 2 : NODE_BATCH_MIN;
		if (n > NODE_BATCH_MAX)
			n = NODE_BATCH_MAX;
		wl_chunk *batch = wl_arena_array(d->arena, n, sizeof *batch);
		if (!batch)
			return wl_arena_alloc(d->arena, sizeof *batch);
		d->node_batch = n;
		d->node_pool = batch;
		d->node_pool_left = n;
	}
	d->node_pool_left--;
	return d->node_pool++;
}

/* The last child of p, or NULL.  Nodes are appended in file order, depth
 * first, so the last child of a parent that has any is the last node
 * appended or one of its ancestors: a walk of the depth, not of the
 * siblings (a scan when an edit relinked nodes since). */
static wl_chunk *last_of(const wl_doc *d, const wl_chunk *p)
{
	if (!p->first_child)
		return NULL;
	for (wl_chunk *k = d->last_added; k; k = k->parent)
		if (k->parent == p)
			return k->next ? wl_chunk_last_child(p) : k;
	return wl_chunk_last_child(p);
}

static wl_chunk *new_node(reader *r, wl_chunk *parent, uint8_t kind, uint64_t offset)
{
	wl_chunk *c = take_node(r->d);
	if (!c) {
		r->d->oom = true;
		return NULL;
	}
	c->kind = kind & 3u;
	c->offset = (uint32_t)offset;
	c->parent = parent;
	parent->path_indexed = 0;
	wl_chunk *last = last_of(r->d, parent);
	if (last)
		last->next = c;
	else
		parent->first_child = c;
	r->d->last_added = c;
	return c;
}

static void add_gap(reader *r, wl_chunk *parent, uint64_t from, uint64_t to, uint16_t rec,
		    wl_rule_id rule, const char *what)
{
	if (to <= from)
		return;
	wl_chunk *g = new_node(r, parent, WL_NODE_GAP, from);
	if (!g)
		return;
	g->size = (uint32_t)(to - from);
	g->recovery = rec & 0xFFFu;
	const wl_chunk *where = parent->kind == WL_NODE_ROOT ? NULL : parent;
	wl_report(&r->d->findings, rule, where, -1, from, to - from,
		  "%llu %s at 0x%llx..0x%llx", (unsigned long long)(to - from), what,
		  (unsigned long long)from, (unsigned long long)to);
}

static void read_header(reader *r, uint64_t pos, uint32_t *id, uint32_t *size, bool *flag)
{
	r->f->read_header(r->d->bytes + pos, id, size, flag);
}

/* Bytes of a container's own fields (wl_format.fields_size) when its
 * payload is [from, to) (clamped to the file). */
static uint64_t fields_at(reader *r, const wl_chunk_type *t, uint64_t from, uint64_t to)
{
	if (!r->f->fields_size || !t || !t->child_ctx || from >= to || from >= r->d->size)
		return 0;
	if (to > r->d->size)
		to = r->d->size;
	uint64_t n = r->f->fields_size(t, r->d->bytes + from, to - from);
	return n < to - from ? n : to - from;
}

/* A header at pos whose id is known in ctx and whose extent fits in end. */
static const wl_chunk_type *fits_known(reader *r, uint16_t ctx, uint64_t pos, uint64_t end)
{
	if (pos > end || end - pos < r->h)
		return NULL;
	uint32_t id, size;
	bool flag;
	read_header(r, pos, &id, &size, &flag);
	const wl_chunk_type *t = r->f->lookup(ctx, id);
	if (!t || pos + r->h + size > end)
		return NULL;
	return t;
}

static uint64_t fits_any(reader *r, uint64_t pos, uint64_t limit);

/* A header at pos whose id is a tag of four upper-case letters or digits,
 * in a format whose ids are tags (B3D: an exporter's own chunk such as
 * PIVO or SEQS, which every reader skips), and whose extent fits in end. */
static bool fits_tagged(reader *r, uint64_t pos, uint64_t end)
{
	if (!r->f->tag_ids || pos > end || end - pos < r->h)
		return false;
	for (int i = 0; i < 4; i++) {
		uint8_t b = r->d->bytes[pos + (uint64_t)i];
		if (!((b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')))
			return false;
	}
	return fits_any(r, pos, end) != 0;
}

/*
 * Stronger evidence than fits_known, for judging which size is wrong and for
 * forward scans: a known, fitting chunk that is not empty and, when it is a
 * container, whose first child is itself known and fitting (or, where ids
 * are tags, an exporter's own tagged chunk that fits: fits_tagged).  Zero bytes
 * (padding, 0.0f) read as an empty MESH (id 0, size 0), so an empty chunk
 * is no evidence of structure.
 */
static const wl_chunk_type *strong_known(reader *r, uint16_t ctx, uint64_t pos, uint64_t end)
{
	const wl_chunk_type *t = fits_known(r, ctx, pos, end);
	if (!t)
		return NULL;
	uint32_t id, size;
	bool flag;
	read_header(r, pos, &id, &size, &flag);
	if (size == 0)
		return NULL;
	uint64_t f = fields_at(r, t, pos + r->h, pos + r->h + size);
	if (t->child_ctx && !(t->flags & WL_TYPE_OPAQUE) && f < size &&
	    !fits_known(r, t->child_ctx, pos + r->h + f, pos + r->h + size) &&
	    !fits_tagged(r, pos + r->h + f, pos + r->h + size))
		return NULL;
	return t;
}

/* Walks chunks of ctx from pos while pos < stop, for at most TILE_BUDGET
 * headers, each known and fitting in limit: where the walk stopped, or
 * UINT64_MAX when a header is not such a chunk. */
static uint64_t walk_known(reader *r, uint16_t ctx, uint64_t pos, uint64_t stop, uint64_t limit)
{
	for (int n = 0; n < TILE_BUDGET && pos < stop; n++) {
		if (!fits_known(r, ctx, pos, limit))
			return UINT64_MAX;
		uint32_t id, size;
		bool flag;
		read_header(r, pos, &id, &size, &flag);
		pos += r->h + (uint64_t)size;
	}
	return pos;
}

/* Do known chunks of ctx tile [from, to) exactly (or for TILE_BUDGET headers)? */
static bool tiles(reader *r, uint16_t ctx, uint64_t from, uint64_t to)
{
	return walk_known(r, ctx, from, to, to) != UINT64_MAX;
}

/* Is the content of a data chunk of type t consistent with size bytes? */
static bool data_size_ok(const wl_chunk_type *t, uint64_t size)
{
	if (t->elem_size && size % t->elem_size)
		return false;
	if (t->min_size && size < t->min_size)
		return false;
	return true;
}

/* Is the n-byte payload at start of a data chunk of type t whole records
 * and nothing else (wl_format.whole_records; else the schema's elem_size)?
 * False when the format says nothing of the type's records. */
static bool records_whole(reader *r, const wl_chunk_type *t, uint64_t start, uint64_t n)
{
	if (r->f->whole_records)
		return r->f->whole_records(t->id, r->d->bytes + start, n) == n;
	return t->elem_size && n % t->elem_size == 0;
}

/* Declared end of chunk c (past the end of the file when its size runs
 * there). */
static uint64_t declared_end(const reader *r, const wl_chunk *c)
{
	return c->offset + r->h + (uint64_t)c->declared_size;
}

/*
 * A child at pos of parent declares an end (cend) past the end of the range
 * its grandparent gives (so the grandparent's own size looks short too).
 * When bytes were inserted inside a nested chunk, every ancestor's size is
 * short by as many: walking up from parent, each chunk being read with its
 * declared size (the range read_chunk gave it: not clamped, not resized)
 * whose declared end lies between pos and cend, with no valid sibling of it
 * starting there (its end falls inside data), is taken as short.  Returns
 * the end of the range of the first ancestor not short (the file's end for
 * the top level): at least cend when the child fits there; else less (0
 * when an ancestor's size is judged otherwise).
 */
static uint64_t short_ancestors_end(reader *r, const wl_chunk *parent, uint64_t pos, uint64_t cend)
{
	const wl_chunk *a = parent;
	for (int n = 0; a && a->kind != WL_NODE_ROOT && n <= WL_MAX_DEPTH; n++, a = a->parent) {
		uint64_t e = declared_end(r, a);
		if (wl_chunk_end(a) != e || e >= cend)
			return wl_chunk_end(a);
		if (e <= pos || strong_known(r, ctx_of(a->parent), e, r->d->size))
			return 0;
	}
	return a && a->kind == WL_NODE_ROOT ? r->d->size : 0;
}

/*
 * A child at pos declares an end (cend) past its parent's end (limit).
 * Decide whether the parent's size is the wrong one: the child must be
 * self-consistent over its declared extent, what follows the child must be a
 * valid chunk (or the end of the enclosing range), and what sits at the
 * parent's declared end must not be a valid sibling of the parent.
 */
static bool parent_size_wrong(reader *r, const wl_chunk *parent, const wl_chunk_type *t,
			      uint64_t pos, uint64_t cend, uint64_t limit, uint64_t *availp)
{
	if (parent->kind == WL_NODE_ROOT)
		return false;
	uint64_t avail = *availp;
	if (cend > avail) {
		/* Bytes inserted deeper down leave every ancestor short by as
		 * many: the child is wrong only if an ancestor's end is not. */
		avail = short_ancestors_end(r, parent, pos, cend);
		if (cend > avail)
			return false;
	}
	uint16_t ctx = ctx_of(parent);
	uint16_t gctx = ctx_of(parent->parent);
	if (t->child_ctx) {
		if (!tiles(r, t->child_ctx, pos + r->h + fields_at(r, t, pos + r->h, cend), cend))
			return false;
	} else if (!data_size_ok(t, cend - pos - r->h) ||
		   (r->f->whole_records && !records_whole(r, t, pos + r->h, cend - pos - r->h))) {
		return false;
	}
	bool after_ok = cend == avail || strong_known(r, ctx, cend, avail) ||
			strong_known(r, gctx, cend, avail);
	if (!after_ok)
		return false;
	bool sibling_at_limit = limit == avail || strong_known(r, gctx, limit, avail);
	if (sibling_at_limit)
		return false;
	*availp = avail;
	return true;
}

/* A plausible chunk start for a forward scan: known, fits, and followed by
 * something that also reads as a chunk (or the end of the range). */
static bool resync_candidate(reader *r, uint16_t ctx, uint64_t q, uint64_t limit)
{
	const wl_chunk_type *t = strong_known(r, ctx, q, limit);
	if (!t)
		return false;
	uint32_t id, size;
	bool flag;
	read_header(r, q, &id, &size, &flag);
	uint64_t cend = q + r->h + (uint64_t)size;
	/* strong_known checked the first child (after the container's fields) */
	return cend == limit || fits_known(r, ctx, cend, limit);
}

/* ---- sizes judged by what follows (chunk-size-wrong) ---- */

#define SIZE_SLACK 64   /* bytes past a declared end searched for the true end */
#define SIZE_NEAR 16    /* bytes either side searched with weaker evidence */

/* End of the chunk whose header (any id) is at pos when it fits in limit,
 * else 0. */
static uint64_t fits_any(reader *r, uint64_t pos, uint64_t limit)
{
	if (pos > limit || limit - pos < r->h)
		return 0;
	uint32_t id, size;
	bool flag;
	read_header(r, pos, &id, &size, &flag);
	uint64_t end = pos + r->h + (uint64_t)size;
	return end <= limit ? end : 0;
}

/* A header at pos (room for one) whose id ctx knows, whatever its size. */
static bool known_id(reader *r, uint16_t ctx, uint64_t pos, uint64_t limit)
{
	if (pos > limit || limit - pos < r->h)
		return false;
	uint32_t id, size;
	bool flag;
	read_header(r, pos, &id, &size, &flag);
	return r->f->lookup(ctx, id) != NULL;
}

/* Does reading resume cleanly at pos: the end of the range, a chunk ctx
 * knows (its size is judged when it is read), or chunks of any id that fit
 * one after another up to a known one or the end of the range (or for
 * TILE_BUDGET headers)? */
static bool settles(reader *r, uint16_t ctx, uint64_t pos, uint64_t limit)
{
	for (int n = 0; n < TILE_BUDGET; n++) {
		if (pos == limit || known_id(r, ctx, pos, limit))
			return true;
		if (!(pos = fits_any(r, pos, limit)))
			return false;
	}
	return true;
}

/* A known chunk of ctx at q, not empty, then chunks of any id that fit
 * one after another up to limit (or for TILE_BUDGET headers). */
static bool chain_from(reader *r, uint16_t ctx, uint64_t q, uint64_t limit)
{
	if (!strong_known(r, ctx, q, limit))
		return false;
	uint64_t pos = q;
	for (int n = 0; n < TILE_BUDGET && pos < limit; n++)
		if (!(pos = fits_any(r, pos, limit)))
			return false;
	return true;
}

/* An exporter's own tagged chunk at q (fits_tagged: B3D's SEQS, PIVO)
 * followed by the end of the range or by a chain of valid chunks: as good
 * a place for reading to resume as a chain_from. */
static bool tagged_then_chain(reader *r, uint16_t ctx, uint64_t q, uint64_t limit)
{
	if (!fits_tagged(r, q, limit))
		return false;
	uint64_t n = fits_any(r, q, limit);
	return n == limit || chain_from(r, ctx, n, limit);
}

/* Where the children of a container of type t at pos, declared to end at
 * cend, stop tiling its payload (cend when they tile it). */
static uint64_t children_end(reader *r, const wl_chunk_type *t, uint64_t pos, uint64_t cend)
{
	uint64_t e = pos + r->h + fields_at(r, t, pos + r->h, cend);
	for (uint64_t next; e < cend && (next = fits_any(r, e, cend)); e = next)
		;
	return e;
}

/*
 * A container of type t (its parent's context ctx) whose children stop
 * tiling its declared payload at e < cend: is its size shrunk rather than
 * grown?  So when the chunk at e is a valid child of t that ends at ce past
 * cend, nearer to cend than e is (the smaller change of size), and reading
 * resumes cleanly at ce (the end of the range, or a chain of valid
 * siblings): returns ce, the container's true end, else 0.  The engines
 * read a chunk that starts inside a container's declared extent as its
 * child and end the container after it (Irrlicht CB3DMeshFileLoader reads
 * children while the position is before the declared end), so that child
 * stays the container's and what follows it is the container's siblings
 * (not adopted as children: container-size-too-small would).
 */
static uint64_t shrunk_over_child(reader *r, uint16_t ctx, const wl_chunk_type *t, uint64_t e,
				  uint64_t cend, uint64_t limit)
{
	if (!strong_known(r, t->child_ctx, e, limit))
		return 0;
	uint64_t ce = fits_any(r, e, limit);
	if (ce > cend && ce - cend < cend - e && (ce == limit || chain_from(r, ctx, ce, limit)))
		return ce;
	return 0;
}

/* Does the chunk of type t at q, ending at qe, read whole where it stands:
 * a container's children (after its fields) tile its payload, a data
 * chunk's size suits its type (data_size_ok)?  A header whose payload does
 * not is no chunk the bytes hold, only bytes that look like a header. */
static bool reads_whole(reader *r, const wl_chunk_type *t, uint64_t q, uint64_t qe)
{
	if (t->flags & WL_TYPE_OPAQUE)
		return true;
	if (t->child_ctx)
		return children_end(r, t, q, qe) == qe;
	return data_size_ok(t, qe - q - r->h);
}

/* How far the bytes bear out a declared end cend: 2 when a header of an
 * id ctx knows starts there and chunks that fit tile on from it to limit
 * (or for TILE_BUDGET headers): its contents are judged when it is read,
 * and a sibling found straddling cend is a coincidence of the bytes before
 * it (an id in a record's last fields), not evidence of bytes deleted;
 * 1 when the chunks from there reach a header of a known id that runs past
 * limit (a file cut in a later object: weak evidence either way); else 0. */
static int borne_out(reader *r, uint16_t ctx, uint64_t cend, uint64_t limit)
{
	if (!known_id(r, ctx, cend, limit))
		return 0;
	uint64_t pos = cend;
	for (int n = 0; n < TILE_BUDGET && pos < limit; n++) {
		uint64_t next = fits_any(r, pos, limit);
		if (!next)
			return known_id(r, ctx, pos, limit) ? 1 : 0;
		pos = next;
	}
	return 2;
}

/*
 * A container whose payload starts at start declares an end cend inside
 * limit where no valid chunk of ctx starts (strong_known, borne_out), while a valid
 * sibling straddles cend: a known chunk at q in (start, cend), at most
 * WL_RESYNC_WINDOW before cend, that reads whole (reads_whole: bytes that
 * only look like a header, such as a record's last ids, are no evidence),
 * whose own extent runs past cend and from
 * which a chain of chunks tiles to limit (chain_from), or that a header
 * of a known id follows, whatever its size (the last object of a file can
 * itself be broken, as RotWK's HLODs are).  Bytes went missing
 * inside the container (its size still counts them), so its declared end
 * overlaps that sibling, which reads whole where it stands: the container
 * ends at q (the nearest such q to cend), and the sibling is kept instead
 * of being read as unknown, stray or trailing bytes.  0 when there is none.
 * A sibling that ends at or before cend is no evidence (a chain through
 * cend reads the declared end as well).
 */
static uint64_t overlapping_sibling(reader *r, uint16_t ctx, uint64_t start, uint64_t cend,
				    uint64_t limit)
{
	int borne = cend < limit ? borne_out(r, ctx, cend, limit) : 2;
	if (borne == 2 || strong_known(r, ctx, cend, limit))
		return 0;
	uint64_t lo = cend - start > WL_RESYNC_WINDOW ? cend - WL_RESYNC_WINDOW : start + 1;
	for (uint64_t q = cend - 1; q >= lo; q--) {
		uint64_t qe = fits_any(r, q, limit);
		/* where the declared end is partly borne out, only a sibling from
		 * which chunks tile to limit outweighs it */
		const wl_chunk_type *qt;
		if (qe > cend && (qt = strong_known(r, ctx, q, limit)) && reads_whole(r, qt, q, qe) &&
		    (chain_from(r, ctx, q, limit) || (!borne && (qe == limit || known_id(r, ctx, qe, limit)))))
			return q;
	}
	return 0;
}

/*
 * A container whose children stop tiling its payload before its declared
 * end cend, where no valid chunk of ctx starts at cend: the nearest q in
 * (cend, cend + SIZE_SLACK] where a valid sibling starts (strong_known)
 * that reads whole (reads_whole) and is followed by the end of the range,
 * a chain of valid siblings or a header of a known id (the last object of a
 * file can itself be broken).  Bytes were inserted inside the container
 * (its size does not count them), so its declared end falls inside its own
 * last child and the sibling starts past it (the caller checks that its
 * children do not tile up to q, a size short of its last child, which
 * container-size-too-small reads): the container ends at q and
 * the sibling is kept instead of being read as unknown or unreadable
 * bytes.  0 when there is none.
 */
static uint64_t sibling_past_end(reader *r, uint16_t ctx, uint64_t cend, uint64_t limit)
{
	if (strong_known(r, ctx, cend, limit))
		return 0;
	uint64_t hi = limit - cend > SIZE_SLACK ? cend + SIZE_SLACK : limit;
	for (uint64_t q = cend + 1; q < hi; q++) {
		const wl_chunk_type *qt = strong_known(r, ctx, q, limit);
		if (!qt)
			continue;
		uint64_t qe = fits_any(r, q, limit);
		if (reads_whole(r, qt, q, qe) &&
		    (qe == limit || chain_from(r, ctx, qe, limit) || known_id(r, ctx, qe, limit)))
			return q;
	}
	return 0;
}

/*
 * A known chunk of type t at pos declares an end cend inside limit, but its
 * size may be wrong: reading does not resume cleanly at cend, (a data
 * chunk) the size does not suit its type, or (a container) its children
 * stop short of cend.  Returns the chunk's true end
 * when the bytes show it, else 0:
 *  - a record chunk (wl_chunk_type.min_size, no elem_size) declared longer
 *    than its record, where a chain of valid siblings starts right after
 *    the record and none at cend: grown over a sibling's header (the end of
 *    the record);
 *  - a container whose children end at e before cend, where a valid sibling
 *    starts: its size was too big (e), unless that chunk is a valid child
 *    too that ends nearer past cend than it starts before it
 *    (shrunk_over_child: its size was too small, the child's end);
 *  - a data chunk (not a record declared exactly its record's size,
 *    wl_chunk_type.min_size): the first q from its payload (at most WL_RESYNC_WINDOW
 *    before cend) to SIZE_SLACK bytes past cend where a chain of siblings
 *    starts that runs to the end of the range, and whose payload size suits
 *    its type (data_size_ok); failing that, the nearest q within
 *    SIZE_NEAR bytes of cend where a plausible chunk starts (resync_candidate).
 * A size grown over whole siblings, or shrunk, so keeps the siblings it
 * would swallow or leave as unreadable bytes.
 */
static uint64_t true_end(reader *r, const wl_chunk *parent, const wl_chunk_type *t, uint64_t pos,
			 uint64_t cend, uint64_t limit)
{
	const uint16_t ctx = ctx_of(parent);
	const uint64_t start = pos + r->h;
	/* An array whose size disagrees with the counts of its header, where
	 * the counted size ends at a chain of valid siblings (or the end of the
	 * range): the header's count is the truth (a size grown over a
	 * sibling's header, or shrunk, whatever the bytes at the declared end
	 * happen to look like). */
	r->why = WHY_BYTES;
	if (!t->child_ctx && !(t->flags & WL_TYPE_OPAQUE) && r->f->counted_size) {
		/* an id array of one element means "the same for all" */
		const uint64_t sizes[2] = { r->f->counted_size(r->d, parent, t, start),
					    t->flags & WL_TYPE_ONE_FOR_ALL ? t->elem_size : 0 };
		const bool agrees = cend - start == sizes[0] || cend - start == sizes[1];
		for (int i = 0; i < 2 && sizes[0] && !agrees; i++) {
			uint64_t n = sizes[i];
			if (n && n <= limit - start &&
			    (start + n == limit || chain_from(r, ctx, start + n, limit))) {
				r->why = WHY_COUNTED;
				return start + n;
			}
		}
	}
	/* A data chunk whose declared end leaves fewer bytes than a header
	 * before the end of the range (they cannot be a chunk: stray bytes),
	 * whose records are not whole at its declared end but are at the end
	 * of the range: its size fell short of its last record. */
	if (!t->child_ctx && !(t->flags & WL_TYPE_OPAQUE) && cend < limit && limit - cend < r->h &&
	    !records_whole(r, t, start, cend - start) && records_whole(r, t, start, limit - start)) {
		r->why = WHY_RECORDS;
		return limit;
	}
	/* A record declared longer than its record, whose record is followed
	 * by a chain of valid siblings while what follows the declared end
	 * is none: grown over a sibling's header. */
	if (!t->child_ctx && t->min_size && !t->elem_size && cend - start > t->min_size &&
	    start + t->min_size < limit && chain_from(r, ctx, start + t->min_size, limit) &&
	    !chain_from(r, ctx, cend, limit))
		return start + t->min_size;
	if (t->child_ctx && !(t->flags & WL_TYPE_OPAQUE)) {
		uint64_t e = children_end(r, t, pos, cend);
		if (e < cend && e > start && (chain_from(r, ctx, e, limit) || resync_candidate(r, ctx, e, limit))) {
			/* a valid sibling at e, but maybe a valid child too */
			uint64_t ce = shrunk_over_child(r, ctx, t, e, cend, limit);
			if (ce)
				r->why = WHY_CHILD;
			return ce ? ce : e;
		}
		if ((e = overlapping_sibling(r, ctx, start, cend, limit)))
			return e;
		/* (children that tile up to that sibling: the container's size
		 * fell short of its last child, container-size-too-small's) */
		if (children_end(r, t, pos, cend) < cend && (e = sibling_past_end(r, ctx, cend, limit)) &&
		    children_end(r, t, pos, e) < e)
			return e;
		if (settles(r, ctx, cend, limit))
			return 0;
	} else {
		/* a valid sibling straddles the declared end: bytes were deleted
		 * inside this chunk (reading on through chunks of unknown id at
		 * the declared end, settles, is weaker evidence) */
		uint64_t e = overlapping_sibling(r, ctx, start, cend, limit);
		if (e)
			return e;
		if (data_size_ok(t, cend - start) && settles(r, ctx, cend, limit))
			return 0;
	}
	/* A record chunk declared exactly its record's size is taken at its
	 * word: what follows it is what is wrong. */
	if ((t->child_ctx && !(t->flags & WL_TYPE_OPAQUE)) || (t->min_size && cend - start == t->min_size))
		return 0;
	uint64_t lo = cend - start > WL_RESYNC_WINDOW ? cend - WL_RESYNC_WINDOW : start;
	uint64_t hi = limit - cend > SIZE_SLACK ? cend + SIZE_SLACK : limit;
	for (uint64_t q = lo; q <= hi; q++) {
		if (q == cend || !data_size_ok(t, q - start))
			continue;
		if (q < limit && (chain_from(r, ctx, q, limit) || tagged_then_chain(r, ctx, q, limit)))
			return q;
	}
	for (uint64_t k = 1; k <= SIZE_NEAR; k++) {
		if (cend + k <= limit && data_size_ok(t, cend + k - start) && resync_candidate(r, ctx, cend + k, limit))
			return cend + k;
		if (cend - k > start && data_size_ok(t, cend - k - start) &&
		    resync_candidate(r, ctx, cend - k, limit))
			return cend - k;
	}
	return 0;
}

/*
 * Does a chain of known chunks of ctx start at q, run across cend (no chunk
 * of it ends there) within TILE_BUDGET headers, and tile on to limit (or
 * for TILE_BUDGET more headers)?
 */
static bool chain_across(reader *r, uint16_t ctx, uint64_t q, uint64_t cend, uint64_t limit)
{
	if (!strong_known(r, ctx, q, limit))
		return false;
	uint64_t p = walk_known(r, ctx, q, cend, limit);
	return p != UINT64_MAX && p > cend && tiles(r, ctx, p, limit);
}

/*
 * An unknown chunk at pos declares an end cend inside limit.  Its bytes say
 * nothing of its size, so only the bytes around its end can: when no valid
 * chunk of a known type starts at cend (strong_known) but a chain of valid
 * chunks starts inside its payload (at most WL_RESYNC_WINDOW before cend)
 * and runs across cend to the end of the range (chain_across: the declared
 * end falls inside a valid sibling, which no unknown chunk that holds
 * chunks of its own does), its size was grown over them: returns the
 * chain's first start (the most kept as siblings; WHY_OVER_CHAIN, or
 * WHY_IN_HEADER when cend falls in its first header).  Failing that, when
 * a chain of valid siblings starts fewer than a header's bytes before or
 * after cend (the declared end leaves too few bytes for a chunk before
 * it), the size is wrong by those bytes: returns the nearest such start.
 * Else 0.  Reading on at cend
 * through chunks of unknown id (settles) is no evidence for cend: a W3D
 * chunk id is any 32-bit value, so the bytes of a sibling's header and
 * payload read as such chunks (an unknown chunk +4 before a MESH read its
 * size field as an id and lost the MESH).
 */
static uint64_t unknown_end(reader *r, const wl_chunk *parent, uint64_t pos, uint64_t cend,
			    uint64_t limit)
{
	const uint16_t ctx = ctx_of(parent);
	if (cend == limit || strong_known(r, ctx, cend, limit))
		return 0;
	uint64_t lo = cend - pos - r->h > WL_RESYNC_WINDOW ? cend - WL_RESYNC_WINDOW : pos + r->h;
	for (uint64_t q = lo; q < cend; q++) {
		if (chain_across(r, ctx, q, cend, limit)) {
			r->why = cend - q < r->h ? WHY_IN_HEADER : WHY_OVER_CHAIN;
			return q;
		}
	}
	r->why = WHY_IN_HEADER;
	for (uint64_t k = 1; k < r->h; k++) {
		if (cend - k > pos + r->h && chain_from(r, ctx, cend - k, limit))
			return cend - k;
		if (limit - cend > k && chain_from(r, ctx, cend + k, limit))
			return cend + k;
	}
	return 0;
}

/* The first q in (pos, pos + header size) from which a chain of valid
 * chunks of ctx runs to limit (chain_from), or 0: the header at pos, of
 * an unknown id, then is the tail of bytes inserted before a valid chunk
 * (or of a damaged chunk's content), not a chunk. */
static uint64_t chain_in_header(reader *r, uint16_t ctx, uint64_t pos, uint64_t limit)
{
	for (uint64_t q = pos + 1; q < pos + r->h && q < limit; q++)
		if (chain_from(r, ctx, q, limit))
			return q;
	return 0;
}

/* The unreadable bytes [from, to) that end parent: trailing-bytes (with
 * root_what) after the last top-level chunk, stray-bytes (with inner_what)
 * inside a container. */
static void add_tail_gap(reader *r, wl_chunk *parent, uint64_t from, uint64_t to,
			 const char *root_what, const char *inner_what)
{
	if (parent->kind == WL_NODE_ROOT)
		add_gap(r, parent, from, to, WL_REC_TRAILING, WLR_TRAILING_BYTES, root_what);
	else
		add_gap(r, parent, from, to, WL_REC_STRAY, WLR_STRAY_BYTES, inner_what);
}

static uint64_t parse_children(reader *r, wl_chunk *parent, uint64_t pos, uint64_t end,
			       uint64_t avail, int depth, bool strict);

static void check_container_bit(reader *r, wl_chunk *c)
{
	if (!r->f->has_container_bit || !c->type)
		return;
	if (c->type->child_ctx) {
		unsigned chunks = 0;
		for (const wl_chunk *k = c->first_child; k; k = k->next)
			chunks += k->kind == WL_NODE_CHUNK;
		if (!c->flag_bit && chunks) {
			c->recovery |= WL_REC_FLAG_MISSING;
			wl_report(&r->d->findings, WLR_CONTAINER_BIT_MISSING, c, -1, c->offset + 4, 4,
				  "%s holds %u chunk(s) but bit 31 of its size is clear (legacy file)",
				  wl_chunk_name(r->d, c), chunks);
		}
	} else if (c->flag_bit) {
		c->recovery |= WL_REC_FLAG_ON_LEAF;
		wl_report(&r->d->findings, WLR_CONTAINER_BIT_ON_LEAF, c, -1, c->offset + 4, 4,
			  "%s is a data chunk but bit 31 of its size is set",
			  wl_chunk_name(r->d, c));
	}
}

/* Builds the node for a chunk whose header is at pos and whose payload is
 * taken as [pos+h, pend); returns where the chunk really ends. */
static uint64_t read_chunk(reader *r, wl_chunk *parent, const wl_chunk_type *t, uint64_t pos,
			   uint64_t pend, uint64_t avail, int depth, bool strict)
{
	uint32_t id, size;
	bool flag;
	read_header(r, pos, &id, &size, &flag);
	wl_chunk *c = new_node(r, parent, WL_NODE_CHUNK, pos);
	if (!c)
		return pend;
	r->d->chunk_count++;
	c->id = id;
	c->type = t;
	c->flag_bit = flag;
	c->header_size = (uint8_t)r->h;
	c->declared_size = size;
	c->size = (uint32_t)(pend - pos - r->h);
	if (!t) {
		const char *where = parent->kind == WL_NODE_ROOT ? "the top level" : wl_chunk_name(r->d, parent);
		if (r->f->tag_ids)
			wl_report(&r->d->findings, WLR_CHUNK_UNKNOWN, c, -1, pos, r->h + c->size,
				  "unknown chunk '%s' (%u bytes) inside %s; kept unchanged",
				  r->f->id_name(id), (unsigned)size, where);
		else
			wl_report(&r->d->findings, WLR_CHUNK_UNKNOWN, c, -1, pos, r->h + c->size,
				  "unknown chunk id 0x%x (%u bytes) inside %s; kept unchanged", id,
				  (unsigned)size, where);
		return pend;
	}
	/* Record sizes are judged only on chunks read whole: a cut chunk already
	 * has its own finding. */
	if (!t->child_ctx && !(t->flags & WL_TYPE_OPAQUE) && c->size == size) {
		if (t->elem_size && c->size % t->elem_size)
			wl_report(&r->d->findings, WLR_ARRAY_SIZE_NOT_MULTIPLE, c, -1, pos, r->h + c->size,
				  "%s holds %llu bytes, not a multiple of its %u-byte element "
				  "(%llu whole elements, %llu bytes left over)",
				  t->short_name, (unsigned long long)c->size, (unsigned)t->elem_size,
				  (unsigned long long)(c->size / t->elem_size),
				  (unsigned long long)(c->size % t->elem_size));
		if (t->min_size && c->size < t->min_size)
			wl_report(&r->d->findings, WLR_CHUNK_TOO_SMALL, c, -1, pos, r->h + c->size,
				  "%s holds %llu bytes but its record is %u bytes",
				  t->short_name, (unsigned long long)c->size, (unsigned)t->min_size);
	}
	uint64_t real_end = pend;
	if (t->child_ctx && !(t->flags & WL_TYPE_OPAQUE)) {
		if (depth >= WL_MAX_DEPTH) {
			c->recovery |= WL_REC_DEPTH;
			wl_report(&r->d->findings, WLR_CHUNK_DEPTH_LIMIT, c, -1, pos, r->h + c->size,
				  "chunks nested deeper than %d levels; the rest is kept unread",
				  WL_MAX_DEPTH);
		} else {
			c->container = 1;
			c->fields = (uint32_t)fields_at(r, t, pos + r->h, pend);
			real_end = parse_children(r, c, pos + r->h + c->fields, pend, avail, depth + 1,
						  strict);
			c->size = (uint32_t)(real_end - pos - r->h);
		}
	}
	check_container_bit(r, c);
	return real_end;
}

/* Was everything under c read complete (no truncation, no gap at its end)? */
static bool content_complete(const wl_doc *d, const wl_chunk *c)
{
	const wl_chunk *k = c->container ? last_of(d, c) : NULL;
	if (!k)
		return false;
	return k->kind == WL_NODE_CHUNK && !(k->recovery & WL_REC_TRUNCATED) &&
	       (k->container ? !(k->recovery & WL_REC_PAST_EOF) || content_complete(d, k) : 1);
}

/* What container-size-at-eof adds to the message (rules/chunk.yaml). */
#define AT_EOF_WHY                                                                                   \
	"; nothing follows it, so the game's reader ends it at the failed header read at the end " \
	"of the file and loads every chunk it holds, but a chunk appended after it would be read " \
	"as its child"

bool wl_chunk_size_wrong_at_eof(const wl_doc *d, const wl_chunk *c)
{
	return d->format && d->format->eof_ends_containers && c->kind == WL_NODE_CHUNK &&
	       (c->recovery & (WL_REC_EXTENDED | WL_REC_PAST_EOF)) &&
	       c->offset + c->header_size + (uint64_t)c->size == d->size;
}

static void mark_truncated(reader *r, wl_chunk *c, uint64_t cend)
{
	if (content_complete(r->d, c)) {
		c->recovery |= WL_REC_PAST_EOF;
		const bool at_eof = wl_chunk_size_wrong_at_eof(r->d, c);
		wl_report(&r->d->findings, at_eof ? WLR_CONTAINER_SIZE_AT_EOF : WLR_CHUNK_SIZE_PAST_EOF, c, -1,
			  c->offset + 4, 4,
			  "%s declares %u bytes, %llu past the end of the file, but its %u "
			  "chunks end complete at the end of the file: the size is wrong%s",
			  wl_chunk_name(r->d, c), (unsigned)c->declared_size,
			  (unsigned long long)(cend - r->d->size), (unsigned)wl_chunk_child_count(c),
			  at_eof ? AT_EOF_WHY : "");
	} else {
		c->recovery |= WL_REC_TRUNCATED;
		wl_report(&r->d->findings, WLR_CHUNK_TRUNCATED, c, -1, c->offset,
			  r->h + c->size,
			  "%s declares %u bytes but the file ends after %llu of them",
			  wl_chunk_name(r->d, c), (unsigned)c->declared_size,
			  (unsigned long long)c->size);
	}
}

/*
 * Where inside [from, limit) does a chain of known chunks of ctx start that
 * tiles exactly to limit?  0 when none.  Used when a data chunk's size runs
 * past its range: if the chunk's own bytes are followed by whole, valid
 * siblings, the size field is wrong and the siblings are kept.
 */
static uint64_t find_chain(reader *r, uint16_t ctx, uint64_t from, uint64_t limit)
{
	for (uint64_t q = from; q + r->h <= limit; q++)
		if (strong_known(r, ctx, q, limit) && tiles(r, ctx, q, limit))
			return q;
	return 0;
}

/*
 * A known chunk at pos declares an end (cend) past limit, and the parent's
 * size is not the wrong one (or the range ends at EOF).  Read the chunk as far
 * as the evidence allows and report why; returns where reading continues.
 *  - a data chunk followed, inside its declared bytes, by a chain of valid
 *    siblings tiling to limit: its size is wrong; it ends where the chain
 *    starts (chunk-overruns-parent);
 *  - a container: its children are read up to limit, but a valid sibling of
 *    it ends it early (its size was wrong);
 *  - otherwise the chunk takes the bytes up to limit: chunk-truncated (or
 *    chunk-size-past-eof when a container's children end complete at EOF)
 *    when limit is the end of the file, else chunk-overruns-parent.
 */
static uint64_t read_overrun(reader *r, wl_chunk *parent, const wl_chunk_type *t, uint64_t pos,
			     uint64_t cend, uint64_t limit, int depth)
{
	/* Cut by the end of the file only when the range itself was cut there
	 * (the top level, or a parent whose declared size runs past EOF). */
	const bool at_eof = limit == r->d->size &&
			    (parent->kind == WL_NODE_ROOT ||
			     parent->offset + r->h + (uint64_t)parent->declared_size > r->d->size);
	uint64_t pend = limit;
	if (!t->child_ctx) {
		uint64_t q = find_chain(r, ctx_of(parent), pos + r->h, limit);
		if (q)
			pend = q;
	}
	uint64_t rend = read_chunk(r, parent, t, pos, pend, limit, depth, true);
	wl_chunk *c = last_of(r->d, parent);
	if (!c || c->offset != pos || c->kind != WL_NODE_CHUNK)
		return rend;
	if (at_eof && rend == limit) {
		mark_truncated(r, c, cend);
		return rend;
	}
	c->recovery |= WL_REC_CLAMPED;
	if (parent->kind == WL_NODE_ROOT)
		wl_report(&r->d->findings, WLR_CHUNK_SIZE_PAST_EOF, c, -1, pos + 4, 4,
			  "%s at 0x%llx declares %u bytes, ending at 0x%llx past the end of the file, "
			  "but its content ends at 0x%llx where a valid chunk follows: the size is wrong",
			  wl_chunk_name(r->d, c), (unsigned long long)pos, (unsigned)c->declared_size,
			  (unsigned long long)cend, (unsigned long long)rend);
	else
		wl_report(&r->d->findings, WLR_CHUNK_OVERRUNS_PARENT, c, -1, pos + 4, 4,
			  "%s at 0x%llx declares %u bytes, ending at 0x%llx, past the end of %s at "
			  "0x%llx; read as %llu bytes",
			  wl_chunk_name(r->d, c), (unsigned long long)pos, (unsigned)c->declared_size,
			  (unsigned long long)cend, wl_chunk_name(r->d, parent),
			  (unsigned long long)limit, (unsigned long long)c->size);
	return rend;
}

/* The chunk at pos, just read, was given a size other than the one
 * declared (ending at cend) by true_end or unknown_end (r->why says
 * why): marked and reported. */
static void note_resized(reader *r, wl_chunk *parent, uint64_t pos, uint64_t cend)
{
	wl_chunk *c = last_of(r->d, parent);
	if (!c || c->offset != pos || c->kind != WL_NODE_CHUNK)
		return;
	c->recovery |= WL_REC_RESIZED;
	const char *why;
	char buf[160];
	switch (r->why) {
	case WHY_COUNTED:
		why = "the counts of its header give another size, where a valid chunk starts";
		break;
	case WHY_OVER_CHAIN:
		snprintf(buf, sizeof buf,
			 "a chain of valid chunks starts inside it at 0x%llx and runs across that to the "
			 "end of %s",
			 (unsigned long long)wl_chunk_end(c), wl_chunk_name(r->d, parent));
		why = buf;
		break;
	case WHY_CHILD:
		why = "its last child runs past that (fewer bytes past it than it starts before), "
		      "to where a valid chunk starts";
		break;
	case WHY_RECORDS:
		snprintf(buf, sizeof buf,
			 "its records are whole only at the end of %s, %llu byte(s) later (too few "
			 "for a chunk header)",
			 wl_chunk_name(r->d, parent), (unsigned long long)(wl_chunk_end(c) - cend));
		why = buf;
		break;
	case WHY_IN_HEADER:
		snprintf(buf, sizeof buf,
			 "that falls %llu byte(s) inside the header of a valid chunk at 0x%llx",
			 (unsigned long long)(cend - wl_chunk_end(c)),
			 (unsigned long long)wl_chunk_end(c));
		why = wl_chunk_end(c) < cend ? buf
					     : "what follows it is no chunk, and a valid chunk starts "
					       "fewer bytes later than a header";
		break;
	default:
		why = wl_chunk_end(c) < cend ? "its content ends before that, where a valid chunk starts"
					     : "what follows it is no chunk, and a valid chunk starts later";
	}
	wl_report(&r->d->findings, WLR_CHUNK_SIZE_WRONG, c, -1, pos + 4, 4,
		  "%s at 0x%llx declares %u bytes, ending at 0x%llx, but %s: read as %llu bytes, "
		  "ending at 0x%llx",
		  wl_chunk_name(r->d, c), (unsigned long long)pos, (unsigned)c->declared_size,
		  (unsigned long long)cend, why, (unsigned long long)c->size,
		  (unsigned long long)wl_chunk_end(c));
}

/* The child that ran past its parent's declared end (the parent's size
 * judged wrong): its id, offset and declared end, and the parent's
 * declared end. */
typedef struct overrun {
	uint32_t id;
	uint64_t pos, cend, limit;
} overrun;

/* Reports the parent extended over the children that follow its declared
 * end, once they are read (end: where the extended parent ends), so that
 * the rule says whether anything follows it (container-size-at-eof). */
static void report_too_small(reader *r, wl_chunk *parent, const overrun *o, uint64_t end)
{
	/* wl_chunk_size_wrong_at_eof's test; parent->size is set only when
	 * its children are read. */
	const bool at_eof = r->f->eof_ends_containers && end == r->d->size;
	wl_report(&r->d->findings, at_eof ? WLR_CONTAINER_SIZE_AT_EOF : WLR_CONTAINER_SIZE_TOO_SMALL, parent, -1,
		  parent->offset + 4, 4,
		  "%s declares %u bytes (ending at 0x%llx) but its child %s at 0x%llx "
		  "ends at 0x%llx and no valid chunk starts at 0x%llx: the parent's size is wrong%s",
		  wl_chunk_name(r->d, parent), (unsigned)parent->declared_size, (unsigned long long)o->limit,
		  r->f->id_name(o->id), (unsigned long long)o->pos, (unsigned long long)o->cend,
		  (unsigned long long)o->limit, at_eof ? AT_EOF_WHY : "");
}

static uint64_t parse_children(reader *r, wl_chunk *parent, uint64_t pos, uint64_t end,
			       uint64_t avail, int depth, bool strict)
{
	const uint16_t ctx = ctx_of(parent);
	const bool root = parent->kind == WL_NODE_ROOT;
	uint64_t limit = end;
	bool adopting = false;
	bool stopped = false; /* ended early at a sibling in strict mode */
	overrun over = { 0 };

	while (pos < limit && !r->d->oom) {
		if (limit - pos < r->h) {
			if (adopting)
				break;
			add_tail_gap(r, parent, pos, limit,
				     "byte(s) after the last chunk, too few for a chunk header",
				     "stray byte(s) at the end of the container, too few for a chunk header");
			pos = limit;
			break;
		}
		uint32_t id, size;
		bool flag;
		read_header(r, pos, &id, &size, &flag);
		const wl_chunk_type *t = r->f->lookup(ctx, id);
		uint64_t cend = pos + r->h + (uint64_t)size;

		if (adopting && (!t || cend > limit))
			break; /* not a child of the extended parent: its real end */
		if (strict && !t && !root && strong_known(r, ctx_of(parent->parent), pos, limit)) {
			/* The parent's size was not trusted: a valid sibling of the
			 * parent starts here, so the parent ends here. */
			stopped = true;
			break;
		}

		if (!t && !adopting) {
			/* An unknown id whose header holds the start of a valid
			 * chain of siblings (bytes were inserted before a chunk):
			 * the bytes before that start are no chunk. */
			uint64_t q = chain_in_header(r, ctx, pos, limit);
			if (q) {
				add_gap(r, parent, pos, q, WL_REC_SKIPPED, WLR_CHUNK_RESYNC,
					"unreadable byte(s) before a valid chunk that starts inside what "
					"read as a chunk header; reading resumed at it");
				pos = q;
				continue;
			}
		}
		if (cend <= limit) {
			/* Fits: a known chunk, or an unknown one kept opaque; a known
			 * one whose size the bytes around its end contradict is read
			 * with its true size (chunk-size-wrong). */
			uint64_t te = adopting ? 0
				      : t ? true_end(r, parent, t, pos, cend, limit)
					  : unknown_end(r, parent, pos, cend, limit);
			uint64_t at = pos;
			uint8_t why = r->why; /* the children's sizes are judged next */
			pos = read_chunk(r, parent, t, pos, te ? te : cend, limit, depth, false);
			r->why = why;
			if (te)
				note_resized(r, parent, at, cend);
			if (pos > limit && !adopting) {
				/* A descendant was found to run past the sizes of
				 * its ancestors, short by bytes inserted inside it
				 * (parent_size_wrong, short_ancestors_end), and the
				 * child was extended over it: so is this parent. */
				parent->recovery |= WL_REC_EXTENDED;
				over = (overrun){ id, at, pos, limit };
				limit = pos;
				adopting = true;
			}
			continue;
		}
		if (!t) {
			/* An unknown id whose size does not fit: a bad header.  Scan
			 * forward for the next plausible chunk. */
			uint64_t stop = limit - pos > WL_RESYNC_WINDOW ? pos + WL_RESYNC_WINDOW : limit;
			uint64_t q = pos + 1;
			for (; q < stop && q + r->h <= limit; q++)
				if (resync_candidate(r, ctx, q, limit))
					break;
			if (q < stop && q + r->h <= limit) {
				add_gap(r, parent, pos, q, WL_REC_SKIPPED, WLR_CHUNK_RESYNC,
					"unreadable byte(s) before the next plausible chunk header; reading resumed after them");
				pos = q;
				continue;
			}
			if (stop < limit) {
				add_gap(r, parent, pos, stop, WL_REC_SKIPPED, WLR_CHUNK_RESYNC,
					"unreadable byte(s) with no plausible chunk header; reading resumed after them");
				pos = stop;
				continue;
			}
			add_tail_gap(r, parent, pos, limit,
				     "byte(s) after the last chunk that do not form a chunk",
				     "byte(s) inside the container that do not form a chunk");
			pos = limit;
			break;
		}
		if (limit == r->d->size || adopting || !parent_size_wrong(r, parent, t, pos, cend, limit, &avail)) {
			pos = read_overrun(r, parent, t, pos, cend, limit, depth);
			continue;
		}
		parent->recovery |= WL_REC_EXTENDED;
		over = (overrun){ id, pos, cend, limit };
		pos = read_chunk(r, parent, t, pos, cend, avail, depth, false);
		limit = avail;
		adopting = true;
	}
	if (adopting)
		report_too_small(r, parent, &over, pos);
	return adopting || stopped ? pos : limit;
}

/* A document over bytes with an empty tree (NULL when out of memory). */
static wl_doc *doc_new(const wl_format *fmt, const char *path, const uint8_t *bytes, uint64_t size)
{
	if (size > WL_DOC_MAX_BYTES)
		return NULL;
	wl_doc *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	/* Memory is bounded by the file: hostile files with many tiny chunks
	 * (e.g. all zeros: an empty MESH every 8 bytes) hit the limit and get an
	 * out-of-memory finding instead of exhausting the machine. */
	uint64_t limit = size > WL_ARENA_MIN_LIMIT / WL_ARENA_PER_BYTE ? size * WL_ARENA_PER_BYTE
								  : WL_ARENA_MIN_LIMIT;
	d->arena = wl_arena_new(limit > SIZE_MAX ? SIZE_MAX : (size_t)limit);
	if (!d->arena) {
		free(d);
		return NULL;
	}
	d->path = path;
	d->bytes = bytes;
	d->size = size;
	d->format = fmt;
	d->root.kind = WL_NODE_ROOT;
	d->root.container = 1;
	d->root.size = (uint32_t)size;
	wl_findings_init(&d->findings, d->arena);

	return d;
}

wl_doc *wl_doc_read(const wl_format *fmt, const char *path, const uint8_t *bytes, uint64_t size)
{
	wl_doc *d = doc_new(fmt, path, bytes, size);
	if (!d)
		return NULL;
	reader r = { d, fmt, fmt->header_size };
	if (size == 0) {
		wl_report(&d->findings, WLR_FILE_EMPTY, NULL, -1, 0, 0, "the file is empty (0 bytes)");
		return d;
	}
	parse_children(&r, &d->root, 0, size, size, 0, false);
	if (d->chunk_count == 0 && !d->oom)
		wl_report(&d->findings, WLR_NO_CHUNKS, NULL, -1, 0, size,
			  "no readable %s chunk in %llu bytes: not a %s file, or unreadable",
			  fmt->name, (unsigned long long)size, fmt->name);
	return d;
}

wl_doc *wl_doc_empty(const wl_format *fmt, const char *path, const uint8_t *bytes, uint64_t size)
{
	return doc_new(fmt, path, bytes, size);
}

wl_chunk *wl_doc_add_node(wl_doc *d, wl_chunk *parent, uint8_t kind, uint64_t offset, uint64_t size)
{
	reader r = { d, d->format, 0 };
	wl_chunk *c = new_node(&r, parent, kind, offset);
	if (!c)
		return NULL;
	c->size = (uint32_t)size;
	if (kind == WL_NODE_CHUNK)
		d->chunk_count++;
	return c;
}

wl_doc *wl_doc_opaque(const wl_format *fmt, const char *path, const uint8_t *bytes, uint64_t size)
{
	wl_doc *d = doc_new(fmt, path, bytes, size);
	if (d && size) {
		reader r = { d, fmt, fmt->header_size };
		wl_chunk *g = new_node(&r, &d->root, WL_NODE_GAP, 0);
		if (g)
			g->size = (uint32_t)size;
	}
	return d;
}

void wl_doc_free(wl_doc *d)
{
	if (!d)
		return;
	wl_findings_release(&d->findings);
	free(d->edits.items);
	free(d->side_blocks);
	wl_arena_free(d->arena);
	free(d);
}

uint64_t wl_doc_find_chunk(const wl_doc *d, const wl_chunk *parent, uint64_t from, uint64_t to)
{
	const wl_format *f = d->format;
	/* a chunk format (one whose own read() only guards the generic
	 * reader, as B3D's BB3D tag check does); P3D has no chunk headers */
	if (!f->read_header || !f->lookup || !f->header_size || to > d->size)
		return UINT64_MAX;
	reader r = { (wl_doc *)(uintptr_t)d, f, f->header_size, WHY_BYTES };
	const uint16_t ctx = ctx_of(parent);
	for (uint64_t q = from; q < to && to - q >= r.h; q++) {
		/* a chunk whose header lies in the range and that runs past it
		 * exactly to the end of the file, reading whole there: the
		 * range's bytes hold its start (bytes inserted before it left
		 * the reader resyncing inside it; its parent was extended) */
		const wl_chunk_type *tf = strong_known(&r, ctx, q, d->size);
		if (tf && fits_any(&r, q, d->size) == d->size && reads_whole(&r, tf, q, d->size))
			return q;
		const wl_chunk_type *t = strong_known(&r, ctx, q, to);
		if (!t)
			continue;
		uint64_t qe = fits_any(&r, q, to);
		/* followed by the end, a header that fits, or a header of a
		 * known id whatever its size (the last object can itself be
		 * broken, as RotWK's HLODs are) */
		if (reads_whole(&r, t, q, qe) &&
		    (qe == to || fits_known(&r, ctx, qe, to) || known_id(&r, ctx, qe, to)))
			return q;
	}
	return UINT64_MAX;
}
