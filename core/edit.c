/*
 * edit.c - the edit API and the writer; see edit.h.
 *
 * Edits only relink nodes and set the edit state of wl_chunk (dirty,
 * replaced, new_payload); nothing in the input bytes changes.  The
 * writer walks the tree in order: a clean node is copied from the input
 * ([offset, offset + header_size + size), which the reader made tile the
 * file), a dirty chunk gets a new 8-byte header whose size is the count of
 * bytes written beneath it.
 */
#include "edit.h"
#include "core/grow.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A node that wl_edit_remove() took out of the tree; it keeps its parent
 * pointer so that chunk paths in the edit log still name it. */
#define DIRTY_REMOVED 0x8u

static int oom(wl_doc *d)
{
	d->oom = true;
	return -1;
}

static void mark_up(wl_chunk *c)
{
	for (wl_chunk *k = c; k; k = k->parent)
		k->dirty |= WL_DIRTY;
}

/* After a change to parent's list: its path index is stale, and the
 * reader's append cache (wl_doc.last_added) no longer holds. */
static void relinked(wl_doc *d, wl_chunk *parent)
{
	parent->path_indexed = 0;
	d->last_added = NULL;
}

static bool is_child(const wl_chunk *parent, const wl_chunk *c)
{
	return c && c->parent == parent && !(c->dirty & DIRTY_REMOVED);
}

static bool can_hold_children(const wl_chunk *p)
{
	return p && !(p->dirty & DIRTY_REMOVED) && (p->kind == WL_NODE_ROOT ||
						    (p->kind == WL_NODE_CHUNK && p->container));
}

static void unlink_node(wl_doc *d, wl_chunk *c)
{
	wl_chunk *p = c->parent;
	wl_chunk **link = &p->first_child;
	while (*link && *link != c)
		link = &(*link)->next;
	if (*link)
		*link = c->next;
	c->next = NULL;
	relinked(d, p);
}

static void link_after(wl_doc *d, wl_chunk *parent, wl_chunk *after, wl_chunk *c)
{
	c->parent = parent;
	if (after) {
		c->next = after->next;
		after->next = c;
	} else {
		c->next = parent->first_child;
		parent->first_child = c;
	}
	relinked(d, parent);
}

int wl_edit_note(wl_doc *d, const wl_chunk *c, wl_rule_id rule, uint64_t offset,
		 const char *fmt, ...)
{
	wl_edit_log *log = &d->edits;
	if (!wl_grow((void **)&log->items, &log->cap, log->count + 1, sizeof *log->items))
		return oom(d);
	va_list ap;
	va_start(ap, fmt);
	char *what = wl_arena_vprintf(d->arena, fmt, ap);
	va_end(ap);
	if (!what)
		return oom(d);
	log->items[log->count++] = (wl_edit){ c, wl_rule_name(rule), what, offset };
	return 0;
}

const uint8_t *wl_edit_payload(const wl_doc *d, const wl_chunk *c, size_t *len)
{
	if (c->replaced) {
		const wl_payload *q = wl_chunk_side_of(d, c)->new_payload;
		*len = q->size;
		return q->bytes;
	}
	if (c->kind == WL_NODE_ROOT) {
		*len = (size_t)d->size;
		return d->bytes;
	}
	*len = (size_t)c->size;
	if (c->kind == WL_NODE_GAP)
		return d->bytes + c->offset;
	return wl_chunk_payload(d, c);
}

static wl_payload *copy_bytes(wl_doc *d, const uint8_t *p, size_t n)
{
	if (n > SIZE_MAX - sizeof(wl_payload))
		return NULL;
	wl_payload *q = wl_arena_alloc(d->arena, sizeof *q + n);
	if (!q)
		return NULL;
	q->size = n;
	if (n)
		memcpy(q->bytes, p, n);
	return q;
}

/* Replaces c's new_payload (a data chunk's payload, a container's fields)
 * with a copy of p[0..n) and marks c dirty; container says which c must be. */
static int replace_bytes(wl_doc *d, wl_chunk *c, bool container, const uint8_t *p, size_t n)
{
	if (c->kind != WL_NODE_CHUNK || (bool)c->container != container || (c->dirty & DIRTY_REMOVED))
		return -1;
	wl_payload *q = copy_bytes(d, p, n);
	wl_chunk_side *e = q ? wl_chunk_side_make(d, c) : NULL;
	if (!e)
		return oom(d);
	e->new_payload = q;
	c->replaced = 1;
	mark_up(c);
	return 0;
}

int wl_edit_set_payload(wl_doc *d, wl_chunk *c, const uint8_t *p, size_t n)
{
	return replace_bytes(d, c, false, p, n);
}

const uint8_t *wl_edit_fields(const wl_doc *d, const wl_chunk *c, size_t *len)
{
	if (c->kind != WL_NODE_CHUNK || !c->container) {
		*len = 0;
		return NULL;
	}
	if (c->replaced) {
		const wl_payload *q = wl_chunk_side_of(d, c)->new_payload;
		*len = q->size;
		return q->bytes;
	}
	*len = (size_t)c->fields;
	return wl_chunk_payload(d, c);
}

int wl_edit_set_fields(wl_doc *d, wl_chunk *c, const uint8_t *p, size_t n)
{
	return replace_bytes(d, c, true, p, n);
}

int wl_edit_overwrite(wl_doc *d, wl_chunk *c, size_t k, const uint8_t *p, size_t n, uint8_t *old)
{
	if (c->kind != WL_NODE_CHUNK || (c->dirty & DIRTY_REMOVED))
		return -1;
	size_t len;
	const uint8_t *cur = c->container ? wl_edit_fields(d, c, &len) : wl_edit_payload(d, c, &len);
	if (!cur || k > len || n > len - k)
		return -1;
	/* the first edit copies the bytes once; later ones write in that copy */
	if (!c->replaced && replace_bytes(d, c, c->container, cur, len) != 0)
		return -1;
	wl_payload *q = wl_chunk_side_of(d, c)->new_payload;
	if (old)
		memcpy(old, q->bytes + k, n);
	memcpy(q->bytes + k, p, n);
	mark_up(c);
	return 0;
}

int wl_edit_touch(wl_doc *d, wl_chunk *c)
{
	(void)d;
	if (c->kind != WL_NODE_CHUNK || (c->dirty & DIRTY_REMOVED))
		return -1;
	c->dirty |= WL_DIRTY_BIT;
	mark_up(c);
	return 0;
}

int wl_edit_cut(wl_doc *d, wl_chunk *c)
{
	if (wl_edit_resize(d, c) != 0)
		return -1;
	c->dirty |= WL_DIRTY_CUT;
	return 0;
}

int wl_edit_resize(wl_doc *d, wl_chunk *c)
{
	(void)d;
	if (c->kind != WL_NODE_CHUNK || (c->dirty & DIRTY_REMOVED))
		return -1;
	mark_up(c);
	return 0;
}

uint64_t wl_edit_written_size(const wl_doc *d, const wl_chunk *c)
{
	if (c->kind == WL_NODE_GAP || (c->kind == WL_NODE_CHUNK && !c->dirty))
		return c->size;
	if (c->kind == WL_NODE_CHUNK && !c->container) {
		size_t len;
		wl_edit_payload(d, c, &len);
		return len;
	}
	size_t fields = 0;
	wl_edit_fields(d, c, &fields);
	uint64_t sum = fields;
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		sum += (k->kind == WL_NODE_CHUNK ? k->header_size : 0) + wl_edit_written_size(d, k);
	return sum;
}

int wl_edit_remove(wl_doc *d, wl_chunk *c)
{
	if (c->kind == WL_NODE_ROOT || !c->parent || (c->dirty & DIRTY_REMOVED))
		return -1;
	wl_chunk *p = c->parent;
	unlink_node(d, c);
	c->dirty |= DIRTY_REMOVED;
	mark_up(p);
	return 0;
}

static wl_chunk *new_chunk(wl_doc *d, wl_chunk *parent, wl_chunk *after, uint32_t id)
{
	if (!can_hold_children(parent) || (after && !is_child(parent, after)))
		return NULL;
	wl_chunk *c = wl_arena_alloc(d->arena, sizeof *c);
	if (!c) {
		oom(d);
		return NULL;
	}
	c->id = id;
	c->kind = WL_NODE_CHUNK;
	c->header_size = d->format->header_size;
	c->offset = (uint32_t)(after ? wl_chunk_end(after) : wl_chunk_payload_offset(parent));
	if (parent->kind == WL_NODE_ROOT && !after)
		c->offset = 0;
	uint16_t ctx = parent->kind == WL_NODE_ROOT ? 0 : parent->type ? parent->type->child_ctx : 0xFFFF;
	c->type = d->format->lookup(ctx, id);
	c->dirty = WL_DIRTY | WL_DIRTY_BIT | WL_DIRTY_NEW;
	link_after(d, parent, after, c);
	mark_up(parent);
	d->chunk_count++;
	return c;
}

wl_chunk *wl_edit_insert(wl_doc *d, wl_chunk *parent, wl_chunk *after, uint32_t id,
			 const uint8_t *p, size_t n)
{
	if (!can_hold_children(parent) || (after && !is_child(parent, after)))
		return NULL;
	wl_payload *q = copy_bytes(d, p, n);
	if (!q) {
		oom(d);
		return NULL;
	}
	if (n > WL_DOC_MAX_BYTES)
		return NULL;
	wl_chunk *c = new_chunk(d, parent, after, id);
	wl_chunk_side *e = c ? wl_chunk_side_make(d, c) : NULL;
	if (!e)
		return NULL;
	e->new_payload = q;
	c->replaced = 1;
	c->size = (uint32_t)n;
	c->declared_size = n > 0x7FFFFFFFu ? 0x7FFFFFFFu : (uint32_t)n;
	return c;
}

wl_chunk *wl_edit_insert_container(wl_doc *d, wl_chunk *parent, wl_chunk *after, uint32_t id)
{
	wl_chunk *c = new_chunk(d, parent, after, id);
	if (c)
		c->container = 1;
	return c;
}

int wl_edit_move(wl_doc *d, wl_chunk *c, wl_chunk *new_parent, wl_chunk *after)
{
	if (c->kind == WL_NODE_ROOT || !c->parent || (c->dirty & DIRTY_REMOVED) ||
	    !can_hold_children(new_parent) || after == c || (after && !is_child(new_parent, after)))
		return -1;
	for (const wl_chunk *k = new_parent; k; k = k->parent)
		if (k == c)
			return -1;
	wl_chunk *old = c->parent;
	unlink_node(d, c);
	mark_up(old);
	link_after(d, new_parent, after, c);
	mark_up(new_parent);
	return 0;
}

size_t wl_edit_count(const wl_doc *d)
{
	return d->edits.count;
}

/* ---- writer ---- */

typedef struct outbuf {
	uint8_t *p;
	size_t n, cap;
	int err;
} outbuf;

static uint8_t *reserve(outbuf *o, size_t n)
{
	if (o->err)
		return NULL;
	if (n > SIZE_MAX - o->n) {
		o->err = 1;
		return NULL;
	}
	if (!wl_grow((void **)&o->p, &o->cap, o->n + n, 1)) {
		o->err = 1;
		return NULL;
	}
	uint8_t *at = o->p + o->n;
	o->n += n;
	return at;
}

static void put_bytes(outbuf *o, const uint8_t *p, uint64_t n)
{
	if (n > SIZE_MAX) {
		o->err = 1;
		return;
	}
	uint8_t *at = reserve(o, (size_t)n);
	if (at && n)
		memcpy(at, p, (size_t)n);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static bool has_child_chunk(const wl_chunk *c)
{
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK)
			return true;
	return false;
}

static void emit(const wl_doc *d, const wl_chunk *c, outbuf *o);

static void emit_children(const wl_doc *d, const wl_chunk *c, outbuf *o)
{
	for (const wl_chunk *k = c->first_child; k && !o->err; k = k->next)
		emit(d, k, o);
}

static void emit(const wl_doc *d, const wl_chunk *c, outbuf *o)
{
	if (c->kind == WL_NODE_GAP || (c->kind == WL_NODE_CHUNK && !c->dirty)) {
		uint64_t len = c->kind == WL_NODE_GAP ? c->size : (uint64_t)c->header_size + c->size;
		if (c->offset > d->size || len > d->size - c->offset) {
			o->err = 1; /* cannot happen for a tree the reader built */
			return;
		}
		put_bytes(o, d->bytes + c->offset, len);
		return;
	}
	if (c->kind == WL_NODE_ROOT) {
		emit_children(d, c, o);
		return;
	}
	/* A node of a format without chunk headers (P3D: its sizes and
	 * counts are fields inside the bytes, which the fixers patch
	 * themselves): what it holds, its fields and children or its
	 * payload. */
	if (d->format->header_size == 0) {
		size_t len;
		const uint8_t *p = c->first_child ? wl_edit_fields(d, c, &len) : wl_edit_payload(d, c, &len);
		if (p)
			put_bytes(o, p, len);
		emit_children(d, c, o);
		return;
	}
	/* A dirty chunk: new header, then what it holds.  Only 8-byte chunk
	 * headers (W3D, B3D) are rebuilt; an unedited document of any format
	 * is copied above. */
	if (d->format->header_size != 8) {
		o->err = 1;
		return;
	}
	if (!reserve(o, 8))
		return;
	size_t hdr = o->n - 8;
	bool bit;
	if (c->container) {
		size_t flen;
		const uint8_t *fp = wl_edit_fields(d, c, &flen);
		put_bytes(o, fp, flen);
		emit_children(d, c, o);
		bit = (c->dirty & (WL_DIRTY_BIT | WL_DIRTY_NEW)) ? has_child_chunk(c) : c->flag_bit;
	} else {
		size_t len;
		const uint8_t *p = wl_edit_payload(d, c, &len);
		put_bytes(o, p, len);
		bit = (c->dirty & (WL_DIRTY_BIT | WL_DIRTY_NEW)) ? false : c->flag_bit;
	}
	if (o->err)
		return;
	uint64_t size = o->n - hdr - 8;
	if ((c->recovery & WL_REC_TRUNCATED) && !(c->dirty & WL_DIRTY_CUT)) {
		/* cut by the end of the file: keep the bytes it still lacks, so
		 * the chunk stays exactly as short as it was */
		uint64_t lack = c->declared_size > c->size ? c->declared_size - c->size : 0;
		size += lack;
	}
	/* W3D sizes have 31 bits; a B3D length is the whole uint32 (a cut
	 * chunk whose length read as negative keeps it). */
	if (size > (d->format->has_container_bit ? 0x7FFFFFFFu : 0xFFFFFFFFu)) {
		o->err = 1;
		return;
	}
	uint32_t raw = (uint32_t)size;
	if (bit && d->format->has_container_bit)
		raw |= 0x80000000u;
	put_le32(o->p + hdr, c->id);
	put_le32(o->p + hdr + 4, raw);
}

int wl_doc_write(const wl_doc *d, uint8_t **out, size_t *out_len)
{
	*out = NULL;
	*out_len = 0;
	outbuf o = { 0 };
	emit(d, &d->root, &o);
	if (o.err) {
		free(o.p);
		return -1;
	}
	if (!o.p) {
		o.p = malloc(1); /* an empty file: still a buffer to free */
		if (!o.p)
			return -1;
	}
	*out = o.p;
	*out_len = o.n;
	return 0;
}
