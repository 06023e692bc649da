/*
 * fix_structure.c - repairs of the chunk structure the reader recovered
 * (core/chunk.h recovery marks, rules/chunk.yaml).
 *
 * Safe (on by default):
 *   container-sizes   chunk-size-past-eof, container-size-too-small and
 *                     container-size-at-eof (either of them where the
 *                     children end at the end of the file): every
 *                     chunk the reader read with a size other than the one
 *                     declared (WL_REC_PAST_EOF, WL_REC_EXTENDED, and
 *                     WL_REC_CLAMPED at the top level) gets the size of what
 *                     it holds (wl_edit_resize; bit 31 kept).  The two
 *                     broken HLOD shapes of RotWK files are these marks:
 *                     the HLOD keeps every HLOD_SUB_OBJECT the reader gave
 *                     it (chunkio.cpp:422 ends a chunk only at its size).
 *   container-bits    container-bit-on-leaf, container-bit-missing: bit 31
 *                     recomputed (wl_edit_touch) on those chunks only.  A
 *                     legacy file (no container sets bit 31) keeps its
 *                     containers as they are unless asked (--fix
 *                     container-bits, or --select container-bit-missing).
 *   trailing-bytes    trailing-bytes: the bytes after the last top-level
 *                     chunk (WL_REC_TRAILING gaps) are removed.
 * Unsafe (only with --unsafe, or asked for by name):
 *   chunk-overruns    chunk-overruns-parent: the child cut at its parent's
 *                     end gets the size the reader gave it; chunk-size-wrong:
 *                     the chunk read with the size its bytes show
 *                     (WL_REC_RESIZED) gets that size.
 *   drop-stray-bytes  stray-bytes: gaps inside containers are removed.
 *   drop-unreadable   chunk-resync: the skipped bytes are removed, except
 *                     those at the start of the file (bytes that do not
 *                     read as the format at all: the original is kept);
 *                     chunk-truncated: salvage (docs/w3dfix.md): the chunks
 *                     cut by the end of the file keep their whole children
 *                     and array elements, sized to what they keep (the
 *                     engine reads nothing of a short chunk, chunkio.cpp:
 *                     737-765, so the cut rest must go); a top-level object
 *                     whose salvage still does not load is removed whole on
 *                     the driver's second attempt (ctx->drop_whole), unless
 *                     no whole top-level chunk would be left; so is a
 *                     top-level chunk whose size runs past the end of the
 *                     file (chunk-size-past-eof: what is left reads as
 *                     whole chunks) when the driver asks for it.
 *   trim-partial-elements  array-size-not-multiple: the partial element at
 *                     the end of an array chunk is dropped.
 * Every edit is noted with the rule, the chunk and "what: old -> new".
 */
#include "fix.h"

#include <inttypes.h>
#include <stdio.h>

static uint64_t node_len(const wl_chunk *c)
{
	return (c->kind == WL_NODE_CHUNK ? c->header_size : 0) + c->size;
}

/* ---- container-sizes ---- */

static int sizes_walk(wl_fix_ctx *x, wl_chunk *c)
{
	for (wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->container && sizes_walk(x, k) != 0)
			return -1;
		wl_rule_id rule = WL_RULE_NONE;
		if (k->recovery & WL_REC_EXTENDED)
			rule = WLR_CONTAINER_SIZE_TOO_SMALL;
		else if (k->recovery & WL_REC_PAST_EOF)
			rule = WLR_CHUNK_SIZE_PAST_EOF;
		else if ((k->recovery & WL_REC_CLAMPED) && k->parent->kind == WL_NODE_ROOT)
			rule = WLR_CHUNK_SIZE_PAST_EOF;
		if (rule && wl_chunk_size_wrong_at_eof(x->doc, k))
			rule = WLR_CONTAINER_SIZE_AT_EOF;
		if (!rule || !wl_fix_rule_wanted(x, rule))
			continue;
		if (wl_edit_resize(x->doc, k) != 0)
			return -1;
		if (wl_edit_note(x->doc, k, rule, k->offset + 4, "size: %" PRIu32 " -> %" PRIu64,
				 k->declared_size, wl_edit_written_size(x->doc, k)) != 0)
			return -1;
	}
	return 0;
}

static int apply_sizes(wl_fix_ctx *x)
{
	return sizes_walk(x, &x->doc->root);
}

/* ---- container-bits ---- */

/* legacy: leave container-bit-missing alone (apply_bits). */
static int bits_walk(wl_fix_ctx *x, wl_chunk *c, bool legacy)
{
	for (wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->container && bits_walk(x, k, legacy) != 0)
			return -1;
		wl_rule_id rule = WL_RULE_NONE;
		if ((k->recovery & WL_REC_FLAG_MISSING) && !legacy)
			rule = WLR_CONTAINER_BIT_MISSING;
		else if (k->recovery & WL_REC_FLAG_ON_LEAF)
			rule = WLR_CONTAINER_BIT_ON_LEAF;
		if (!rule || !wl_fix_rule_wanted(x, rule))
			continue;
		if (wl_edit_touch(x->doc, k) != 0)
			return -1;
		if (wl_edit_note(x->doc, k, rule, k->offset + 4, "bit 31 of the size: %d -> %d",
				 k->flag_bit ? 1 : 0, k->flag_bit ? 0 : 1) != 0)
			return -1;
	}
	return 0;
}

/* True when no container under c sets bit 31 (a legacy file: the writers
 * before September 1999 never set it). */
static bool no_container_bit(const wl_chunk *c)
{
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		if (k->kind == WL_NODE_CHUNK && k->type && k->type->child_ctx &&
		    (k->flag_bit || !no_container_bit(k)))
			return false;
	return true;
}

static int apply_bits(wl_fix_ctx *x)
{
	/* A legacy file stays legacy unless the fixer or the rule is asked
	 * for (--fix container-bits, --select container-bit-missing): setting
	 * the bits changes every container of a valid file, e.g. EA's own
	 * Renegade files under a pre-commit hook. */
	bool asked = x->forced || (x->filter && x->filter->select_count > 0 &&
				    wl_fix_filter_allows(x->filter, wl_rule_name(WLR_CONTAINER_BIT_MISSING)));
	return bits_walk(x, &x->doc->root, !asked && no_container_bit(&x->doc->root));
}

/* ---- gaps ---- */

/* Removes the gaps carrying mark under c (recursively when deep). */
static int drop_gaps(wl_fix_ctx *x, wl_chunk *c, uint16_t mark, wl_rule_id rule, bool deep)
{
	wl_chunk *k = c->first_child;
	while (k) {
		wl_chunk *next = k->next;
		/* The first bytes of a file that do not read as its format are
		 * not dropped: the file may be something else (issue 18). */
		bool start = k->offset == 0 && c->kind == WL_NODE_ROOT && mark == WL_REC_SKIPPED;
		if (k->kind == WL_NODE_GAP && (k->recovery & mark) && !start) {
			if (wl_edit_note(x->doc, k, rule, k->offset,
					 "%" PRIu64 " byte(s) at 0x%" PRIX64 ": removed", (uint64_t)k->size,
					 (uint64_t)k->offset) != 0 ||
			    wl_edit_remove(x->doc, k) != 0)
				return -1;
		} else if (deep && k->kind == WL_NODE_CHUNK && k->container) {
			if (drop_gaps(x, k, mark, rule, deep) != 0)
				return -1;
		}
		k = next;
	}
	return 0;
}

static int apply_trailing(wl_fix_ctx *x)
{
	if (!wl_fix_rule_wanted(x, WLR_TRAILING_BYTES))
		return 0;
	return drop_gaps(x, &x->doc->root, WL_REC_TRAILING, WLR_TRAILING_BYTES, false);
}

static int apply_stray(wl_fix_ctx *x)
{
	if (!wl_fix_rule_wanted(x, WLR_STRAY_BYTES))
		return 0;
	return drop_gaps(x, &x->doc->root, WL_REC_STRAY, WLR_STRAY_BYTES, true);
}

/* ---- chunk-overruns ---- */

/* How many leading bytes of data chunk k's payload p[0..len) are whole
 * records, its header fields included: the format's count where the
 * record size is read from the chunk (wl_format.whole_records: B3D KEYS,
 * VRTS), else the schema's elem_size; 0 when the chunk has no records
 * (opaque, untyped, or no element size) or not even its header fields are
 * whole. */
static size_t whole_prefix(const wl_fix_ctx *x, const wl_chunk *k, const uint8_t *p, size_t len)
{
	const wl_chunk_type *t = k->type;
	if (!t || (t->flags & WL_TYPE_OPAQUE))
		return 0;
	size_t keep = x->doc->format->whole_records ? (size_t)x->doc->format->whole_records(k->id, p, len)
		      : t->elem_size			   ? len - len % t->elem_size
							   : 0;
	return keep > len ? 0 : keep;
}

static int overrun_walk(wl_fix_ctx *x, wl_chunk *c)
{
	for (wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->container && overrun_walk(x, k) != 0)
			return -1;
		bool resized = (k->recovery & WL_REC_RESIZED) != 0;
		if (resized ? !wl_fix_rule_wanted(x, WLR_CHUNK_SIZE_WRONG)
			    : !(k->recovery & WL_REC_CLAMPED) || k->parent->kind == WL_NODE_ROOT ||
				      !wl_fix_rule_wanted(x, WLR_CHUNK_OVERRUNS_PARENT))
			continue;
		/* An array cut mid-record keeps its whole records only, in the
		 * same step: a partial record would be a new error
		 * (array-size-not-multiple, b3d-record-slack) and the step would
		 * be discarded, leaving the overrun for a later step to cut
		 * short of what the child's readers walk (issue 29). */
		size_t len = 0;
		const uint8_t *p = k->container ? NULL : wl_edit_payload(x->doc, k, &len);
		size_t keep = p ? whole_prefix(x, k, p, len) : 0;
		/* Records whose size the chunk gives (B3D) are cut here only
		 * for a chunk clamped by its parent: one whose size the bytes
		 * contradict keeps what was read, and a partial entry an id may
		 * name is trim-record-slack's to judge (fix/b3d/fix_slack.c). */
		if (resized && x->doc->format->whole_records)
			keep = 0;
		if (p && keep && keep < len) {
			if (wl_edit_set_payload(x->doc, k, p, keep) != 0)
				return -1;
		} else if (wl_edit_resize(x->doc, k) != 0) {
			return -1;
		}
		if (wl_edit_note(x->doc, k, resized ? WLR_CHUNK_SIZE_WRONG : WLR_CHUNK_OVERRUNS_PARENT, k->offset + 4,
				 "size: %" PRIu32 " -> %" PRIu64, k->declared_size,
				 wl_edit_written_size(x->doc, k)) != 0)
			return -1;
	}
	return 0;
}

static int apply_overruns(wl_fix_ctx *x)
{
	return overrun_walk(x, &x->doc->root);
}

/* ---- drop-unreadable ---- */

static int note_dropped(wl_fix_ctx *x, const wl_chunk *k, const char *what)
{
	/* a top-level chunk that only runs past the end (drop_truncated) */
	bool past = (k->recovery & (WL_REC_TRUNCATED | WL_REC_PAST_EOF)) == WL_REC_PAST_EOF;
	wl_rule_id rule = !past				     ? WLR_CHUNK_TRUNCATED
			  : wl_chunk_size_wrong_at_eof(x->doc, k) ? WLR_CONTAINER_SIZE_AT_EOF
								  : WLR_CHUNK_SIZE_PAST_EOF;
	return wl_edit_note(x->doc, k, rule, k->offset,
			    "%s: bytes 0x%" PRIX64 "..0x%" PRIX64 " (%" PRIu64 " of the %" PRIu32
			    " declared) cut by the end of the file: %s",
			    wl_chunk_name(x->doc, k), (uint64_t)k->offset, wl_chunk_end(k), node_len(k),
			    k->declared_size, what);
}

/* Removes k whole, noting why; 1 (removed) or -1. */
static int drop_node(wl_fix_ctx *x, wl_chunk *k, const char *why)
{
	return note_dropped(x, k, why) != 0 || wl_edit_remove(x->doc, k) != 0 ? -1 : 1;
}

/* Salvages chunk k, cut by the end of the file: a container keeps its
 * whole children and salvages the cut one; an array keeps its whole
 * elements.  What cannot be kept is removed: a data chunk that is not an
 * array or holds no whole element, an array of WL_TYPE_ONE_FOR_ALL that
 * would keep one element of several (one id would read as the id of every
 * vertex or triangle), a container with no whole child, and a
 * nested container (a part of an object: a material, a texture stage, an
 * LOD array ...) whose cut child went whole - a part with a piece missing
 * is not a complete element of its object - unless that child is of the
 * container's own type (a B3D NODE under a NODE: a sub-object, whose loss
 * leaves the container's own MESH and keys whole; issue 17) or optional
 * (WL_TYPE_OPTIONAL: a B3D TRIS, one surface of its MESH, whose loss
 * leaves the MESH's vertices and other surfaces loadable; an ANIM).  A
 * sub-object whose own fields are whole (a B3D NODE's name and transform)
 * is kept with them and its whole children.  Top-level chunks stay (the
 * driver removes one whose salvage does not load, fix/driver.h).  Each
 * step is noted with the byte range it drops.  Returns 0 (kept), 1
 * (removed) or -1. */
static int salvage_cut(wl_fix_ctx *x, wl_chunk *k)
{
	if (k->container) {
		bool lost = false;
		for (wl_chunk *c = k->first_child, *next; c; c = next) {
			next = c->next;
			int rc = 0;
			/* a child of k's own type is a sub-object (a B3D NODE under
			 * a NODE), and an optional one (WL_TYPE_OPTIONAL: a B3D
			 * TRIS, one surface; an ANIM) k loads without: not a part,
			 * k stays whole without it */
			bool sub = c->kind == WL_NODE_CHUNK && c->type &&
				   ((c->id == k->id && c->type->child_ctx == k->type->child_ctx) ||
				    (c->type->flags & WL_TYPE_OPTIONAL));
			if (c->kind == WL_NODE_CHUNK && (c->recovery & WL_REC_TRUNCATED))
				rc = salvage_cut(x, c);
			else if (c->kind == WL_NODE_GAP && !(c->recovery & (WL_REC_STRAY | WL_REC_SKIPPED)))
				rc = wl_edit_note(x->doc, c, WLR_CHUNK_TRUNCATED, c->offset,
						  "%" PRIu64 " byte(s) at 0x%" PRIX64 " cut by the end of the file: removed",
						  (uint64_t)c->size, (uint64_t)c->offset) != 0 || wl_edit_remove(x->doc, c) != 0 ? -1 : 1;
			if (rc < 0)
				return -1;
			lost |= rc == 1 && !sub;
		}
		bool kept = false; /* removed children are unlinked */
		for (const wl_chunk *c = k->first_child; c && !kept; c = c->next)
			kept = c->kind == WL_NODE_CHUNK;
		/* A sub-object (a container under one of its own type: a B3D
		 * NODE under a NODE) whose own fields are whole - the node's
		 * name and transform, a joint the loaders make (Irrlicht's
		 * CB3DMeshFileLoader::readChunkNODE) - is an intact element:
		 * it keeps its fields and whole children, only its cut parts
		 * go (issue 29: dropping it lost a joint). */
		/* (its fields end before the cut: bytes of a child follow them,
		 * so the format's fields_size found them whole, not capped) */
		bool own = k->fields > 0 && node_len(k) > (uint64_t)k->header_size + k->fields &&
			   k->parent->kind == WL_NODE_CHUNK && k->parent->id == k->id && k->type &&
			   k->parent->type && k->parent->type->child_ctx == k->type->child_ctx;
		if (!kept && !own)
			return drop_node(x, k, "removed (no whole chunk in it)");
		if (lost && !own && k->parent->kind != WL_NODE_ROOT)
			return drop_node(x, k, "removed (a part of it is cut off)");
		if (wl_edit_cut(x->doc, k) != 0)
			return -1;
		return wl_edit_note(x->doc, k, WLR_CHUNK_TRUNCATED, k->offset + 4,
				    "%s: size %" PRIu32 " -> %" PRIu64 " (its whole chunks kept)",
				    wl_chunk_name(x->doc, k), k->declared_size, wl_edit_written_size(x->doc, k)) ? -1 : 0;
	}
	const wl_chunk_type *t = k->type;
	uint32_t elem = t && !(t->flags & WL_TYPE_OPAQUE) ? t->elem_size : 0;
	size_t len = 0;
	const uint8_t *p = wl_edit_payload(x->doc, k, &len);
	bool by_model = x->doc->format->whole_records && t && !(t->flags & WL_TYPE_OPAQUE);
	size_t keep = whole_prefix(x, k, p, len);
	/* One element of an array that held more would read as one value for
	 * all (WL_TYPE_ONE_FOR_ALL): not what the file said. */
	bool one_for_all = t && (t->flags & WL_TYPE_ONE_FOR_ALL) && keep == elem && k->declared_size > elem;
	if (one_for_all)
		return drop_node(x, k, "removed (its one whole element would read as one id for all)");
	if (keep == 0)
		return drop_node(x, k, "removed");
	if (wl_edit_set_payload(x->doc, k, p, keep) != 0 || wl_edit_cut(x->doc, k) != 0)
		return -1;
	if (by_model)
		return wl_edit_note(x->doc, k, WLR_CHUNK_TRUNCATED, k->offset + 4,
				    "%s: size %" PRIu32 " -> %zu (its whole records kept, bytes 0x%" PRIX64
				    "..0x%" PRIX64 " dropped)",
				    wl_chunk_name(x->doc, k), k->declared_size, keep,
				    wl_chunk_payload_offset(k) + keep, wl_chunk_end(k)) ? -1 : 0;
	/* the bytes of a partial element after them, if any */
	char tail[64] = "the file ends after them";
	if (keep < len)
		snprintf(tail, sizeof tail, "bytes 0x%" PRIX64 "..0x%" PRIX64 " dropped",
			 wl_chunk_payload_offset(k) + keep, wl_chunk_end(k));
	return wl_edit_note(x->doc, k, WLR_CHUNK_TRUNCATED, k->offset + 4,
			    "%s: size %" PRIu32 " -> %zu (%zu whole %" PRIu32 "-byte elements kept, %s)",
			    wl_chunk_name(x->doc, k), k->declared_size, keep, keep / elem, elem, tail) ? -1 : 0;
}

static bool drop_whole(const wl_fix_ctx *x, const wl_chunk *k)
{
	for (size_t i = 0; i < x->drop_whole_count; i++)
		if (x->drop_whole[i] == k->offset)
			return true;
	return false;
}

/* The top-level chunks cut by the end of the file: salvaged, or removed
 * whole when the driver found their salvage still broken - unless no whole
 * top-level chunk would be left (file-empty is no repair).  A chunk whose
 * size only runs past the end (WL_REC_PAST_EOF: what is left reads as whole
 * chunks) is left to container-sizes unless the driver asks for it whole. */
static int drop_truncated(wl_fix_ctx *x, wl_chunk *root)
{
	const uint16_t cut = WL_REC_TRUNCATED | WL_REC_PAST_EOF;
	bool whole = false;
	for (const wl_chunk *k = root->first_child; k && !whole; k = k->next)
		whole = k->kind == WL_NODE_CHUNK && !(k->recovery & cut);
	for (wl_chunk *k = root->first_child, *next; k; k = next) {
		next = k->next;
		if (k->kind != WL_NODE_CHUNK || !(k->recovery & cut))
			continue;
		int rc = 0;
		if (whole && drop_whole(x, k))
			rc = drop_node(x, k, "removed (what it keeps would not load)");
		else if (k->recovery & WL_REC_TRUNCATED)
			rc = salvage_cut(x, k);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int apply_unreadable(wl_fix_ctx *x)
{
	if (wl_fix_rule_wanted(x, WLR_CHUNK_RESYNC) &&
	    drop_gaps(x, &x->doc->root, WL_REC_SKIPPED, WLR_CHUNK_RESYNC, true) != 0)
		return -1;
	if ((wl_fix_rule_wanted(x, WLR_CHUNK_TRUNCATED) ||
	     (x->drop_whole_count && (wl_fix_rule_wanted(x, WLR_CHUNK_SIZE_PAST_EOF) ||
				      wl_fix_rule_wanted(x, WLR_CONTAINER_SIZE_AT_EOF)))) &&
	    drop_truncated(x, &x->doc->root) != 0)
		return -1;
	return 0;
}

/* ---- trim-partial-elements ---- */

static int trim_walk(wl_fix_ctx *x, wl_chunk *c)
{
	for (wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->container) {
			if (trim_walk(x, k) != 0)
				return -1;
			continue;
		}
		const wl_chunk_type *t = k->type;
		/* The same test as the reader's: an array chunk read whole. */
		if (!t || !t->elem_size || (t->flags & WL_TYPE_OPAQUE) || k->size != k->declared_size ||
		    k->size % t->elem_size == 0)
			continue;
		size_t len;
		const uint8_t *p = wl_edit_payload(x->doc, k, &len);
		size_t keep = len - len % t->elem_size;
		if (wl_edit_set_payload(x->doc, k, p, keep) != 0)
			return -1;
		if (wl_edit_note(x->doc, k, WLR_ARRAY_SIZE_NOT_MULTIPLE, k->offset + 4,
				 "size: %zu -> %zu (%zu whole %" PRIu32 "-byte elements kept)", len, keep,
				 keep / t->elem_size, t->elem_size) != 0)
			return -1;
	}
	return 0;
}

static int apply_trim(wl_fix_ctx *x)
{
	if (!wl_fix_rule_wanted(x, WLR_ARRAY_SIZE_NOT_MULTIPLE))
		return 0;
	return trim_walk(x, &x->doc->root);
}

/* ---- registry entries (fix/registry.c) ---- */

const wl_fixer wl_fix_container_sizes = {
	"container-sizes", false,
	"set container sizes the reader found wrong to the bytes of their children (keeps every child)",
	apply_sizes
};

const wl_fixer wl_fix_container_bits = {
	"container-bits", false,
	"recompute bit 31 of the size on data chunks that set it and containers that lack it",
	apply_bits
};

const wl_fixer wl_fix_trailing_bytes = {
	"trailing-bytes", false,
	"remove the bytes after the last top-level chunk",
	apply_trailing
};

const wl_fixer wl_fix_chunk_overruns = {
	"chunk-overruns", true,
	"give a chunk that overruns its parent, or whose size the bytes contradict, the size the reader read",
	apply_overruns
};

const wl_fixer wl_fix_drop_stray = {
	"drop-stray-bytes", true,
	"remove stray bytes inside containers",
	apply_stray
};

const wl_fixer wl_fix_drop_unreadable = {
	"drop-unreadable", true,
	"remove bytes skipped by a resync and chunks cut by the end of the file",
	apply_unreadable
};

const wl_fixer wl_fix_trim_partial = {
	"trim-partial-elements", true,
	"drop the partial element at the end of an array chunk",
	apply_trim
};
