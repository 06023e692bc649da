/*
 * run_archive.c - an archive in a w3dfix run (run_int.h
 * wl_fixrun_archive): read once (core/archive/archive.h), each model entry
 * repaired from its bytes as ARCHIVE:PATH, the archive written with the
 * repaired entries replaced (wl_archive_rewrite) to -o OUT or over itself.
 * Nothing repaired: -o copies it unchanged, --in-place leaves it alone
 * (not rewritten).  A damaged archive (wl_archive_unwritable) is never
 * written: the original stays.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/archive/archive.h"
#include "core/archive/model_entry.h"
#include "core/escape.h"
#include "core/msgargs.h"
#include "run_int.h"

/* One model entry of an archive being repaired. */
typedef struct entry_fix {
	char *item;          /* "ARCHIVE:PATH" (malloc) */
	size_t index;        /* in the archive's table */
	size_t len;          /* its bytes, unpacked */
	wl_fix_result r;
	bool ran;
} entry_fix;

/* Writes the archive d (read from in[0..n)) with the np repaired entries
 * of patch replaced, unless it is damaged; note as wl_fixrun_write.
 * Returns true when the write was refused or failed (said and counted). */
static bool write_archive(wl_fixrun *r, const char *file, const char *target, wl_sw *lk, const wl_doc *d,
			  const wl_archive_patch *patch, size_t np, const uint8_t *in, size_t n, char *note,
			  size_t cap)
{
	const char *tool = r->o.tool;
	const wl_finding *bad = np && r->writing ? wl_archive_unwritable(d) : NULL;
	if (bad) {
		wl_msgbuf mb = { 0 };
		fprintf(r->o.diag,
			"%s: %s: not written: the archive is damaged (%s at 0x%" PRIX64 ": %s); its %zu repaired "
			"entr%s not written, the original kept\n",
			tool, wl_esc(file), bad->rule, bad->offset, wl_esc(wl_finding_message(bad, &mb)), np,
			np == 1 ? "y is" : "ies are");
		wl_msgbuf_free(&mb);
		r->t.errors++;
		return true;
	}
	if (!r->writing)
		return false;
	uint8_t *out = NULL;
	size_t len = 0;
	char why[512];
	bool failed = false;
	if (np && wl_archive_rewrite(d, patch, np, &out, &len, why, sizeof why) != 0) {
		fprintf(r->o.diag, "%s: %s: not written: %s; the original kept\n", tool, wl_esc(file), wl_esc(why));
		failed = true;
	} else {
		wl_fix_result whole = { .out = out, .out_len = len, .changed = np > 0, .verified = true };
		failed = wl_fixrun_write(r, file, target, lk, &whole, in, n, note, cap) != 0;
	}
	if (failed)
		r->t.errors++;
	free(out);
	return failed;
}

void wl_fixrun_archive(wl_fixrun *r, const char *file, const char *target, wl_sw *lk, const wl_file_kind *kind,
		       const uint8_t *in, size_t n, const char *only)
{
	const wl_fixrun_opts *o = &r->o;
	wl_fix_totals *t = &r->t;
	wl_archive_kind ak = WL_ARCHIVE_BIG;
	wl_archive_kind_of(kind->id, &ak);
	wl_doc *d = wl_archive_read(ak, file, in, n, WL_ARCHIVE_FULL);
	const wl_archive *a = d && !d->oom ? d->model : NULL;
	entry_fix *ef = a ? calloc(a->count ? a->count : 1, sizeof *ef) : NULL;
	wl_archive_patch *patch = a ? calloc(a->count ? a->count : 1, sizeof *patch) : NULL;
	if (!ef || !patch) {
		wl_fixrun_clear(r);
		fprintf(o->diag, "%s: %s: out of memory\n", o->tool, wl_esc(file));
		t->errors++;
		free(ef);
		free(patch);
		wl_doc_free(d);
		return;
	}
	size_t ne = 0, np = 0;
	for (size_t i = 0; i < a->count; i++) {
		const wl_archive_entry *e = &a->entries[i];
		if (!wl_archive_model_entry(e, in) || (only && strcmp(e->path, only) != 0))
			continue;
		entry_fix *x = &ef[ne++];
		x->index = i;
		x->item = malloc(strlen(file) + strlen(e->path) + 2);
		uint8_t *own = NULL;
		char why[256];
		if (!x->item || (e->packed && wl_archive_unpack(e, in + e->offset, &own, why, sizeof why) != 0)) {
			fprintf(o->diag, "%s: %s: %s: out of memory\n", o->tool, wl_esc(file), wl_esc(e->path));
			t->errors++;
			continue;
		}
		sprintf(x->item, "%s:%s", file, e->path);
		t->files++;
		x->len = (size_t)e->size;
		x->ran = wl_fixrun_bytes(r, x->item, file, own ? own : in + e->offset, x->len, &x->r) == 0;
		free(own);
		if (x->ran && x->r.changed && x->r.verified)
			patch[np++] = (wl_archive_patch){ i, x->r.out, x->r.out_len };
	}
	char note[WL_FIXRUN_NOTE_MAX] = "";
	bool write_failed = write_archive(r, file, target, lk, d, patch, np, in, n, note, sizeof note);
	wl_sw_abort(lk);
	for (size_t k = 0; k < ne; k++) {
		if (ef[k].ran) {
			/* an entry's write is its archive's: a failure counted once, above */
			wl_fixrun_account(r, ef[k].item, ef[k].len, &ef[k].r, write_failed && ef[k].r.changed, note);
			wl_fix_result_free(&ef[k].r);
		}
		free(ef[k].item);
	}
	if (!o->quiet) {
		bool writing = r->writing;
		wl_fixrun_clear(r);
		const char *what = !writing ? (np ? "not written (use --in-place or -o)" : "nothing to repair")
				   : write_failed ? "not written, the original kept"
				   : np            ? (o->in_place ? "rewritten" : "written")
				   : o->in_place   ? "nothing to repair, not rewritten"
						   : "nothing to repair, copied unchanged";
		fprintf(o->out, "%s: %s, %zu model entr%s, %zu repaired: %s%s%s\n", wl_esc(file), kind->title, ne,
			ne == 1 ? "y" : "ies", np, what, writing && !write_failed && o->output ? " to " : "",
			writing && !write_failed && o->output ? wl_esc(target) : note);
	}
	t->clean += np == 0;
	/* the archive's own findings (archive-*), as w3dlint counts them */
	const wl_config *cfg = NULL;
	if (wl_fixrun_config(r, file, file, &cfg) == 0)
		wl_fixrun_archive_counts(r, file, cfg);
	free(ef);
	free(patch);
	wl_doc_free(d);
}
