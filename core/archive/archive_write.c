/* archive_write.c - an archive rewritten with some entries replaced
 * (archive.h, "writing"): the bytes between the replaced entries copied
 * unchanged, the table patched in place by the kind's writer (big.c,
 * pbo.c: arc_writer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive_int.h"

/* The damage a rewrite would hide or could not keep (archive.h). */
static const wl_rule_id BLOCKING[] = { WLR_ARCHIVE_TABLE_TRUNCATED, WLR_ARCHIVE_ENTRY_PAST_END,
					WLR_ARCHIVE_ENTRIES_OVERLAP, WLR_ARCHIVE_BIG_SIZE_FIELD, WLR_ARCHIVE_PBO_HASH };

const wl_finding *wl_archive_unwritable(const wl_doc *d)
{
	for (size_t i = 0; i < d->findings.count; i++)
		for (size_t k = 0; k < sizeof BLOCKING / sizeof BLOCKING[0]; k++)
			if (d->findings.items[i].rule_id == BLOCKING[k])
				return &d->findings.items[i];
	return NULL;
}

/* Sort of the patches by their entries' offsets (no context argument in
 * qsort: the offsets are copied beside them). */
typedef struct placed {
	uint64_t offset, stored;
	const wl_archive_patch *p;
} placed;

static int by_offset(const void *x, const void *y)
{
	const placed *a = x, *b = y;
	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* Checks the patches; fills pl (np, sorted by offset) and the bytes the
 * output gains (*grow, may be negative).  -1 with why. */
static int plan(const wl_archive *a, const wl_archive_patch *p, size_t np, placed *pl, int64_t *grow, char *why,
		size_t cap)
{
	*grow = 0;
	for (size_t i = 0; i < np; i++) {
		if (p[i].entry >= a->count || !a->entries[p[i].entry].readable) {
			snprintf(why, cap, "entry %zu cannot be replaced: it is not a readable entry", p[i].entry);
			return -1;
		}
		const wl_archive_entry *e = &a->entries[p[i].entry];
		if (e->offset < a->data_start) {
			snprintf(why, cap, "entry '%s' lies inside the table at 0x%llX", e->path,
				 (unsigned long long)e->offset);
			return -1;
		}
		pl[i] = (placed){ e->offset, e->stored, &p[i] };
		*grow += (int64_t)p[i].len - (int64_t)e->stored;
	}
	qsort(pl, np, sizeof *pl, by_offset);
	for (size_t i = 1; i < np; i++)
		if (pl[i].p->entry == pl[i - 1].p->entry || pl[i].offset < pl[i - 1].offset + pl[i - 1].stored) {
			snprintf(why, cap, "entry '%s' is replaced twice", a->entries[pl[i].p->entry].path);
			return -1;
		}
	return 0;
}

/* Where entry self's bytes, at `at` in the input, land in the output: after
 * the replaced entries that end at or before them. */
static uint64_t moved(const placed *pl, size_t np, uint64_t at, size_t self)
{
	int64_t d = 0;
	for (size_t i = 0; i < np; i++)
		if (pl[i].offset + pl[i].stored <= at && pl[i].p->entry != self)
			d += (int64_t)pl[i].p->len - (int64_t)pl[i].stored;
	return (uint64_t)((int64_t)at + d);
}

/* The patch of entry i, or NULL. */
static const wl_archive_patch *patch_of(const placed *pl, size_t np, size_t i)
{
	for (size_t k = 0; k < np; k++)
		if (pl[k].p->entry == i)
			return pl[k].p;
	return NULL;
}

/* Reads the output o[0..len) back (WL_ARCHIVE_FULL) and checks it is what
 * was meant: the same entries, paths and order, each one's bytes those of
 * the input or of its patch, no damage.  -1 with why. */
static int read_back(const wl_doc *d, const placed *pl, size_t np, const uint8_t *o, uint64_t len, char *why,
		     size_t cap)
{
	const wl_archive *a = d->model;
	wl_doc *back = wl_archive_read(a->kind, d->path, o, len, WL_ARCHIVE_FULL);
	const wl_archive *b = back && !back->oom ? back->model : NULL;
	const char *wrong = !b ? "out of memory" : b->count != a->count ? "the number of entries" : NULL;
	const wl_finding *bad = b ? wl_archive_unwritable(back) : NULL;
	if (bad)
		wrong = bad->rule;
	for (size_t i = 0; !wrong && i < a->count; i++) {
		const wl_archive_entry *x = &a->entries[i], *y = &b->entries[i];
		const wl_archive_patch *q = patch_of(pl, np, i);
		const uint8_t *want = q ? q->bytes : d->bytes + x->offset;
		uint64_t n = q ? q->len : x->stored;
		if (strcmp(x->name, y->name) != 0 || x->readable != y->readable)
			wrong = "an entry's path";
		else if (y->readable && (y->stored != n || (q && y->packed) || (n && memcmp(o + y->offset, want, (size_t)n))))
			wrong = "an entry's bytes";
	}
	if (wrong)
		snprintf(why, cap, "the rewritten archive does not read back as written (%s)", wrong);
	wl_doc_free(back);
	return wrong ? -1 : 0;
}

int wl_archive_rewrite(const wl_doc *d, const wl_archive_patch *p, size_t np, uint8_t **out, size_t *out_len,
		       char *why, size_t why_cap)
{
	*out = NULL;
	*out_len = 0;
	const wl_archive *a = d->model;
	const wl_finding *bad = wl_archive_unwritable(d);
	if (!a || bad) {
		snprintf(why, why_cap, "the archive is damaged (%s at 0x%llX)", bad ? bad->rule : "not read",
			 bad ? (unsigned long long)bad->offset : 0ull);
		return -1;
	}
	const arc_writer *w = a->kind == WL_ARCHIVE_PBO ? &arc_pbo_writer : &arc_big_writer;
	placed *pl = malloc((np ? np : 1) * sizeof *pl);
	int64_t grow;
	if (!pl) {
		snprintf(why, why_cap, "out of memory");
		return -1;
	}
	if (plan(a, p, np, pl, &grow, why, why_cap) != 0) {
		free(pl);
		return -1;
	}
	uint64_t tail = w->tail(a), body = d->size - tail;
	uint64_t total = (uint64_t)((int64_t)d->size + grow);
	uint8_t *o = total <= SIZE_MAX ? malloc(total ? (size_t)total : 1) : NULL;
	if (!o) {
		free(pl);
		snprintf(why, why_cap, "out of memory");
		return -1;
	}
	uint64_t pos = 0, len = 0;
	for (size_t i = 0; i < np; i++) {
		memcpy(o + len, d->bytes + pos, (size_t)(pl[i].offset - pos));
		len += pl[i].offset - pos;
		if (pl[i].p->len)
			memcpy(o + len, pl[i].p->bytes, pl[i].p->len);
		len += pl[i].p->len;
		pos = pl[i].offset + pl[i].stored;
	}
	memcpy(o + len, d->bytes + pos, (size_t)(body - pos));
	len += body - pos;
	/* the records of the entries that moved or changed */
	for (size_t i = 0; i < a->count; i++) {
		const wl_archive_entry *e = &a->entries[i];
		const wl_archive_patch *q = patch_of(pl, np, i);
		uint64_t at = moved(pl, np, e->offset, i);
		uint64_t stored = q ? q->len : e->stored;
		if (at == e->offset && !q)
			continue;
		if (w->record(o + e->record, e, at, stored, q && e->packed) != 0) {
			snprintf(why, why_cap, "entry '%s' would lie past 4 GiB, beyond what the table can say", e->path);
			free(o);
			free(pl);
			return -1;
		}
	}
	len = w->finish(a, o, len);
	int rc = read_back(d, pl, np, o, len, why, why_cap);
	free(pl);
	if (rc != 0) {
		free(o);
		return -1;
	}
	*out = o;
	*out_len = (size_t)len;
	return 0;
}
