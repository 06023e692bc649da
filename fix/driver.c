/* driver.c - fixers, then verification; see driver.h. */
#include "driver.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/filekind.h"
#include "core/grow.h"
#include "core/platform.h"
#include "core/platform/printf.h"

static bool matches_any(const char *const *pats, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (wl_os_fnmatch(pats[i], s) == 0)
			return true;
	return false;
}

static bool forced(const wl_fix_options *o, const wl_fixer *f)
{
	for (size_t i = 0; i < o->force_count; i++)
		if (strcmp(o->force[i], f->id) == 0)
			return true;
	return false;
}

bool wl_fix_enabled(const wl_fix_options *o, const wl_fixer *f)
{
	bool force = forced(o, f);
	if (f->unsafe && !o->unsafe && !force)
		return false;
	const wl_fix_rule_filter *fl = &o->filter;
	if (matches_any(fl->ignore, fl->ignore_count, f->id))
		return false;
	if (force || fl->select_count == 0 || matches_any(fl->select, fl->select_count, f->id))
		return true;
	for (const wl_rule_id *r = wl_fixer_rules(f); *r != WL_RULE_NONE; r++)
		if (wl_fix_filter_allows(fl, wl_rule_name(*r)))
			return true;
	return false;
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

static int add_problem(wl_fix_result *r, const char *fmt, ...) __attribute__((format(WL_PRINTF_FMT, 2, 3)));
static int add_problem(wl_fix_result *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!wl_grow((void **)&r->problems, &r->problem_cap, r->problem_count + 1, sizeof *r->problems))
		return -1;
	if (!(r->problems[r->problem_count] = wl_escape_dup(buf))) /* names from the file, escaped */
		return -1;
	r->problem_count++;
	r->verified = false;
	return 0;
}

/* A fixer's refusal (wl_fix_ctx.refused) as a problem line, once per
 * fixer and reason over the rounds. */
static int add_refusal(wl_fix_result *r, const wl_fixer *f, const char *why)
{
	char line[512];
	snprintf(line, sizeof line, "%s: %s", f->id, why);
	char *esc = wl_escape_dup(line);
	if (!esc)
		return -1;
	bool seen = false;
	for (size_t i = 0; i < r->problem_count && !seen; i++)
		seen = strcmp(r->problems[i], esc) == 0;
	free(esc);
	return seen ? 0 : add_problem(r, "%s", line);
}

/* Path of the top-level object holding c; "" for a top-level gap or NULL. */
static void scope_of(const wl_doc *d, const wl_chunk *c, char *buf, size_t cap)
{
	buf[0] = 0;
	if (!c || c->kind == WL_NODE_ROOT)
		return;
	const wl_chunk *top = c;
	while (top->parent && top->parent->kind != WL_NODE_ROOT)
		top = top->parent;
	if (top->kind == WL_NODE_GAP)
		return;
	wl_chunk_path(d, top, -1, buf, cap);
	/* Two objects can share a name (and so a path): number the top-level
	 * chunks of the same id and label, which no fixer reorders. */
	unsigned k = 0, same = 0;
	const char *label = wl_chunk_label(d, top);
	for (const wl_chunk *s = d->root.first_child; s; s = s->next) {
		const char *sl = wl_chunk_label(d, s);
		bool alike = s->kind == WL_NODE_CHUNK && s->id == top->id &&
			     (sl && label ? strcmp(sl, label) == 0 : sl == label);
		if (s == top)
			k = same;
		same += alike;
	}
	if (same > 1 && label) {
		size_t n = strlen(buf);
		snprintf(buf + n, cap - n, "#%u", k);
	}
}

static int record(wl_fix_result *r, const wl_doc *d, const wl_fixer *f, unsigned step)
{
	const wl_edit_log *log = &d->edits;
	if (!r || log->count == 0)
		return 0;
	if (!wl_grow((void **)&r->changes, &r->change_cap, r->change_count + log->count, sizeof *r->changes))
		return -1;
	for (size_t i = 0; i < log->count; i++) {
		const wl_edit *e = &log->items[i];
		char path[512], scope[512];
		if (e->chunk && e->chunk->kind != WL_NODE_ROOT)
			wl_chunk_path(d, e->chunk, -1, path, sizeof path);
		else
			snprintf(path, sizeof path, "(file)");
		if (e->chunk && e->chunk->kind == WL_NODE_GAP)
			snprintf(path + strlen(path), sizeof path - strlen(path), "@0x%llX",
				 (unsigned long long)e->chunk->offset);
		scope_of(d, e->chunk, scope, sizeof scope);
		const wl_chunk *top = e->chunk;
		while (top && top->parent && top->parent->kind != WL_NODE_ROOT)
			top = top->parent;
		wl_fix_change *c = &r->changes[r->change_count];
		/* path and what are shown to the user: names read from the file
		 * in them are escaped (core/escape.h); scope stays raw for matching. */
		*c = (wl_fix_change){ f->id, e->rule, wl_escape_dup(path), dup_str(scope), e->offset,
				      wl_escape_dup(e->what ? e->what : ""), step,
				      top && top->kind != WL_NODE_ROOT ? top->offset : UINT64_MAX };
		if (!c->path || !c->scope || !c->what) {
			free(c->path);
			free(c->scope);
			free(c->what);
			return -1;
		}
		r->change_count++;
	}
	return 0;
}

static uint64_t count_rule(const wl_doc *d, const char *rule, wl_severity min)
{
	uint64_t n = 0;
	for (size_t i = 0; i < d->findings.count; i++)
		n += d->findings.items[i].severity >= min && strcmp(d->findings.items[i].rule, rule) == 0;
	return n;
}

/* The first error-severity finding of d1 whose rule has more errors in d1
 * than in d0 (kept and capped ones both count), or NULL; *before and *after
 * get that rule's counts. */
static const wl_finding *first_new_error(const wl_doc *d0, const wl_doc *d1, uint64_t *before,
					 uint64_t *after)
{
	for (size_t k = 0; k < d1->findings.count; k++) {
		const wl_finding *f = &d1->findings.items[k];
		if (f->severity < WL_SEV_ERROR)
			continue;
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = strcmp(d1->findings.items[j].rule, f->rule) == 0;
		if (seen)
			continue;
		*before = count_rule(d0, f->rule, WL_SEV_ERROR) + wl_findings_dropped(&d0->findings, f->rule);
		*after = count_rule(d1, f->rule, WL_SEV_ERROR) + wl_findings_dropped(&d1->findings, f->rule);
		if (*after > *before)
			return f;
	}
	return NULL;
}

/* Runs the enabled fixers over the bytes; *out gets the final bytes
 * (malloc, NULL when no fixer edited), *edits the number of edits. */
static int pipeline(const wl_fix_options *o, const char *path, const uint8_t *bytes, size_t size,
		    uint8_t **out, size_t *out_len, size_t *edits, wl_fix_result *r)
{
	size_t n;
	const wl_format *fmt = wl_format_detect(bytes, size, path);
	const char *why;
	const wl_fixer *const *fx = wl_fixers_of(fmt, &n);
	if (!wl_format_repairable(fmt, bytes, size, &why))
		n = 0; /* read-only (ODOL): checked, never changed */
	uint8_t *cur = NULL; /* owned current bytes, NULL = the input */
	size_t cur_len = size;
	*edits = 0;
	unsigned step = 0;
	/* The document of the current bytes, kept for the next fixer while a
	 * fixer leaves it as it was read (no edit, no change: the root is not
	 * dirty): linting the same bytes again would give the same document. */
	wl_doc *d = NULL;
	for (size_t i = 0; i < n; i++) {
		const wl_fixer *f = fx[i];
		if (!wl_fix_enabled(o, f))
			continue;
		const uint8_t *src = cur ? cur : bytes;
		if (d && (wl_edit_count(d) > 0 || d->root.dirty)) {
			wl_doc_free(d);
			d = NULL;
		}
		if (!d)
			d = wl_lint_bytes_opts(o->catalog, o->config, o->lint, path, src, cur_len, NULL);
		if (!d || d->oom) {
			wl_doc_free(d);
			free(cur);
			return -1;
		}
		wl_fix_rule_filter own = o->filter;
		if (matches_any(o->filter.select, o->filter.select_count, f->id) || forced(o, f))
			own.select_count = 0;
		wl_fix_ctx ctx = { d, d->model, o->catalog, o->config, o->unsafe, forced(o, f), &own,
				   o->drop_whole, o->drop_whole_count };
		int rc = f->apply(&ctx);
		if (rc == 0 && ctx.refused && r)
			rc = add_refusal(r, f, ctx.refused);
		if (rc != 0 || d->oom) {
			wl_doc_free(d);
			free(cur);
			return -1;
		}
		if (wl_edit_count(d) > 0) {
			uint8_t *next;
			size_t next_len;
			if (wl_doc_write(d, &next, &next_len) != 0) {
				wl_doc_free(d);
				free(cur);
				return -1;
			}
			/* A step that leaves more errors of some rule than it found is
			 * discarded whole: a fixer never makes the file worse, and the
			 * same step is discarded again on a second run (idempotence). */
			wl_doc *dn = wl_lint_bytes_opts(o->catalog, o->config, o->lint, path, next, next_len, NULL);
			uint64_t before = 0, after = 0;
			if (!dn || dn->oom) {
				wl_doc_free(dn);
				free(next);
				wl_doc_free(d);
				free(cur);
				return -1;
			}
			bool worse = first_new_error(d, dn, &before, &after) != NULL;
			if (worse) {
				wl_doc_free(dn);
				free(next);
			} else {
				if (record(r, d, f, step) != 0) {
					wl_doc_free(dn);
					free(next);
					wl_doc_free(d);
					free(cur);
					return -1;
				}
				*edits += wl_edit_count(d);
				free(cur);
				cur = next;
				cur_len = next_len;
				/* the next fixer's document: the one just read of
				 * the new bytes */
				wl_doc_free(d);
				d = dn;
			}
		}
		step++;
	}
	wl_doc_free(d);
	*out = cur;
	*out_len = cur_len;
	return 0;
}

static wl_severity fail_severity(const wl_fix_options *o)
{
	return o->config ? wl_config_fail_on(o->config) : WL_SEV_ERROR;
}

/* Findings at s or above, capped ones included (as the reports count). */
static size_t count_at_least(const wl_doc *d, wl_severity s)
{
	return (size_t)wl_lint_count(d, s);
}

/* The rules after which no model can be read from the bytes (rules/chunk.yaml):
 * an output that still has one at severity error is not a repair. */
static const wl_rule_id unreadable_rules[] = { WLR_FILE_EMPTY, WLR_NO_CHUNKS, WLR_CHUNK_RESYNC,
						WLR_CHUNK_TRUNCATED, WL_RULE_NONE };

/* The first error-severity finding of d that leaves no readable model, or NULL. */
static const wl_finding *unreadable(const wl_doc *d)
{
	for (size_t k = 0; k < d->findings.count; k++) {
		const wl_finding *f = &d->findings.items[k];
		for (const wl_rule_id *r = unreadable_rules; *r != WL_RULE_NONE && f->severity >= WL_SEV_ERROR; r++)
			if (f->rule_id == *r)
				return f;
	}
	return NULL;
}

/* Counts, and the fixers that did not run but would repair what is left
 * (wl_fix_result.hint_*), of doc d as the result's "after" side. */
static void count_after(const wl_fix_options *o, const wl_doc *d, wl_fix_result *r)
{
	wl_severity fail = fail_severity(o);
	r->failing_after = count_at_least(d, fail);
	r->findings_after = count_at_least(d, WL_SEV_INFO);
	r->hint_findings = 0;
	r->hint_fixer_count = 0;
	size_t n;
	const wl_fixer *const *fx = wl_fixers(&n);
	wl_fix_options with_unsafe = *o;
	with_unsafe.unsafe = true;
	for (size_t k = 0; k < d->findings.count; k++) {
		const wl_finding *f = &d->findings.items[k];
		if (f->severity < fail)
			continue;
		/* a fixer that runs with --unsafe, not without */
		const wl_fixer *by = NULL;
		for (size_t i = 0; i < n && !by; i++)
			for (const wl_rule_id *rl = wl_fixer_rules(fx[i]); *rl != WL_RULE_NONE && !by; rl++)
				if (*rl == f->rule_id && !wl_fix_enabled(o, fx[i]) &&
				    wl_fix_enabled(&with_unsafe, fx[i]))
					by = fx[i];
		if (!by)
			continue;
		r->hint_findings++;
		bool seen = false;
		for (size_t j = 0; j < r->hint_fixer_count && !seen; j++)
			seen = strcmp(r->hint_fixers[j], by->id) == 0;
		if (!seen && r->hint_fixer_count < 4)
			r->hint_fixers[r->hint_fixer_count++] = by->id;
	}
}

/* Does anything under c carry a recovery mark other than the container
 * bits (the damage the reader read around)? */
static bool damaged(const wl_chunk *c)
{
	const uint16_t bits = WL_REC_FLAG_ON_LEAF | WL_REC_FLAG_MISSING;
	if (c->recovery & ~bits)
		return true;
	for (const wl_chunk *k = c->first_child; k; k = k->next)
		if (damaged(k))
			return true;
	return false;
}

/* Does hay[0..n) hold needle[0..len) (len > 0)? */
static bool holds(const uint8_t *hay, uint64_t n, const uint8_t *needle, uint64_t len)
{
	/* Both lie in memory, so their lengths fit in size_t. */
	for (const uint8_t *p = hay; len <= n - (uint64_t)(p - hay);) {
		const uint8_t *f = memchr(p, needle[0], (size_t)(n - (uint64_t)(p - hay) - len + 1));
		if (!f)
			return false;
		if (memcmp(f, needle, (size_t)len) == 0)
			return true;
		p = f + 1;
	}
	return false;
}

/* Is d damaged: does a node of the object level (wl_doc_object_level), or that
 * level's own node, carry a recovery mark (the damage the reader read
 * around), or is there a gap among the objects? */
static bool doc_damaged(const wl_doc *d)
{
	const wl_chunk *lv = wl_doc_object_level(d);
	if (lv->kind == WL_NODE_CHUNK && (lv->recovery & ~(WL_REC_FLAG_ON_LEAF | WL_REC_FLAG_MISSING)))
		return true;
	for (const wl_chunk *k = lv->first_child; k; k = k->next)
		if (k->kind == WL_NODE_GAP || damaged(k))
			return true;
	return false;
}

/* An intact object of the input: a chunk of a known type at the object
 * level read whole (nothing under it carries a recovery mark). */
static bool intact_object(const wl_chunk *k)
{
	return k->kind == WL_NODE_CHUNK && k->type && !damaged(k);
}

/* Same object in input and output: same id and the same label (the name
 * a decoder gave it; a repair may change its other bytes). */
static bool same_object(const wl_doc *a, const wl_chunk *x, const wl_doc *b, const wl_chunk *y)
{
	if (x->kind != WL_NODE_CHUNK || y->kind != WL_NODE_CHUNK || x->id != y->id || !y->type)
		return false;
	const char *lx = wl_chunk_label(a, x), *ly = wl_chunk_label(b, y);
	return lx && ly ? strcmp(lx, ly) == 0 : !lx && !ly;
}

/* The number of nodes at lv's level of d that are the same object as x
 * (of d0). */
static size_t count_same(const wl_doc *d0, const wl_chunk *x, const wl_doc *d, const wl_chunk *lv,
			 bool intact_only)
{
	size_t n = 0;
	for (const wl_chunk *k = lv->first_child; k; k = k->next)
		n += same_object(d0, x, d, k) && (!intact_only || intact_object(k));
	return n;
}

/* The chunk that reads whole which the bytes from..to (a run of gaps or
 * unknown chunks under parent, in d0; a header's bytes before it included:
 * a chunk whose start the chunk before it overlaps) hold, when the output
 * d1 lacks it: a problem line; 0 when there is none or d1 holds it byte
 * for byte (wl_doc_find_chunk). */
static int gap_kept(const wl_doc *d0, const wl_doc *d1, const wl_chunk *parent, const wl_chunk *from,
		    uint64_t to, wl_fix_result *r)
{
	uint64_t h = d0->format->header_size;
	uint64_t base = parent->kind == WL_NODE_CHUNK ? wl_chunk_payload_offset(parent) : parent->offset;
	uint64_t lo = from->offset > base + h ? from->offset - h + 1 : from->offset;
	uint64_t q = wl_doc_find_chunk(d0, parent, lo, to);
	if (q == UINT64_MAX)
		return 0;
	uint32_t id, size;
	bool flag;
	d0->format->read_header(d0->bytes + q, &id, &size, &flag);
	uint64_t len = d0->format->header_size + (uint64_t)size;
	if (len <= d0->size - q && holds(d1->bytes, d1->size, d0->bytes + q, len))
		return 0;
	return add_problem(r, "intact object lost: the bytes at 0x%llX..0x%llX read as no object hold a chunk "
			   "that reads whole (%s at 0x%llX, %llu bytes), not in the output",
			   (unsigned long long)from->offset, (unsigned long long)to, d0->format->id_name(id),
			   (unsigned long long)q, (unsigned long long)len);
}

/* Inside a damaged object c: every gap (skipped, stray or trailing bytes)
 * that holds a chunk reading whole leaves it in the output (gap_kept):
 * bytes are unreadable only if no valid chunk can be read from them
 * (issue 29; e.g. bytes inserted inside a nested chunk leave its parents'
 * sizes short and the sibling after it read as stray bytes). */
static int nested_gaps_kept(const wl_doc *d0, const wl_doc *d1, const wl_chunk *c, wl_fix_result *r)
{
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		int rc = k->kind == WL_NODE_GAP ? gap_kept(d0, d1, c, k, wl_chunk_end(k), r)
			 : k->first_child      ? nested_gaps_kept(d0, d1, k, r)
					       : 0;
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The element guard (issue 29): the repair of a damaged input keeps every
 * intact object - each object of the input read whole (intact_object)
 * appears in the output, byte for byte or (a repair of its findings may
 * change its bytes) as a chunk of the same id and label, as many times -
 * and no bytes the output drops
 * that the reader placed in no object (a gap or an unknown chunk at the
 * object level: trailing, skipped, stray) hold a chunk that reads whole
 * (wl_doc_find_chunk); that a model is left is check_model's.  A damaged
 * object itself may lose parts (its arrays trimmed to the count they all
 * hold, a cut part removed).  A problem line otherwise.
 */
static int check_kept(const wl_doc *d0, const wl_doc *d1, wl_fix_result *r)
{
	if (!doc_damaged(d0))
		return 0;
	const wl_chunk *lv0 = wl_doc_object_level(d0), *lv1 = wl_doc_object_level(d1);
	for (const wl_chunk *k = lv0->first_child; k; k = k->next) {
		if (intact_object(k)) {
			size_t want = count_same(d0, k, d0, lv0, true);
			size_t have = count_same(d0, k, d1, lv1, false);
			if (have < want && !holds(d1->bytes, d1->size, d0->bytes + k->offset,
						  k->header_size + (uint64_t)k->size)) {
				char path[256];
				wl_chunk_path(d0, k, -1, path, sizeof path);
				return add_problem(r, "intact object lost: %s at 0x%llX (%u bytes) read whole from "
						   "the input is not in the output",
						   path, (unsigned long long)k->offset,
						   (unsigned)(k->header_size + k->size));
			}
			continue;
		}
		if (k->kind == WL_NODE_CHUNK && k->type) {
			/* a damaged object: may lose parts, but not a chunk that
			 * reads whole inside its unreadable bytes */
			int rc = nested_gaps_kept(d0, d1, k, r);
			if (rc)
				return rc;
			continue;
		}
		/* a run of gaps and unknown chunks: placed in no object */
		const wl_chunk *last = k;
		while (last->next && !(last->next->kind == WL_NODE_CHUNK && last->next->type))
			last = last->next;
		int rc = gap_kept(d0, d1, lv0, k, wl_chunk_end(last), r);
		if (rc)
			return rc;
		k = last;
	}
	return 0;
}

/* model: an output that holds no model its engines load
 * (wl_fix_model_left) is refused when the input held one or was damaged
 * (a salvage must leave a model).  A problem line otherwise. */
static int check_model(const wl_doc *d0, const wl_doc *d1, wl_fix_result *r)
{
	const char *why = "no model", *why0 = NULL;
	if (wl_fix_model_left(d1, &why))
		return 0;
	if (!wl_fix_model_left(d0, &why0) && !doc_damaged(d0))
		return 0; /* a whole input without one: nothing was lost */
	return add_problem(r, "no model left: %s", why);
}

static int verify(const wl_fix_options *o, const char *path, const uint8_t *in, size_t in_len,
		  wl_fix_result *r)
{
	wl_doc *d0 = wl_lint_bytes_opts(o->catalog, o->config, o->lint, path, in, in_len, NULL);
	wl_doc *d1 = wl_lint_bytes_opts(o->catalog, o->config, o->lint, path, r->out, r->out_len, NULL);
	int rc = 0;
	if (!d0 || !d1 || d0->oom || d1->oom) {
		rc = -1;
		goto done;
	}
	r->failing_before = count_at_least(d0, fail_severity(o));
	r->findings_before = count_at_least(d0, WL_SEV_INFO);
	count_after(o, d1, r);
	/* readable: the output holds a model the engine can read */
	const wl_finding *u = unreadable(d1);
	if (u)
		rc = add_problem(r, "no readable model: the output still has %s at 0x%llX: %s", u->rule,
				 (unsigned long long)u->offset, u->message);
	/* kept: what the damage did not touch is still there */
	if (rc == 0 && r->verified)
		rc = check_kept(d0, d1, r);
	if (rc == 0 && r->verified)
		rc = check_model(d0, d1, r);
	/* repaired: no finding of an edit's rule left in its object */
	for (size_t i = 0; i < r->change_count && rc == 0; i++) {
		const wl_fix_change *c = &r->changes[i];
		if (!c->rule)
			continue;
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++)
			dup = r->changes[j].rule && strcmp(r->changes[j].rule, c->rule) == 0 &&
			      strcmp(r->changes[j].scope, c->scope) == 0;
		if (dup)
			continue;
		for (size_t k = 0; k < d1->findings.count; k++) {
			const wl_finding *f = &d1->findings.items[k];
			if (strcmp(f->rule, c->rule) != 0)
				continue;
			char scope[512];
			scope_of(d1, f->chunk, scope, sizeof scope);
			if (strcmp(scope, c->scope) == 0) {
				rc = add_problem(r, "not repaired: %s still reported in %s at 0x%llX: %s",
						 c->rule, c->scope[0] ? c->scope : "the file",
						 (unsigned long long)f->offset, f->message);
				break;
			}
		}
	}
	/* no new error */
	if (rc == 0) {
		uint64_t before = 0, after = 0;
		const wl_finding *f = first_new_error(d0, d1, &before, &after);
		if (f)
			rc = add_problem(r, "new error: %s reported %" PRIu64 " time(s) in the output, %" PRIu64 " in the input (first at 0x%llX: %s)",
					 f->rule, after, before, (unsigned long long)f->offset, f->message);
	}
	/* idempotent */
	if (rc == 0) {
		uint8_t *again = NULL;
		size_t again_len = 0, edits = 0;
		if (pipeline(o, path, r->out, r->out_len, &again, &again_len, &edits, NULL) != 0)
			rc = -1;
		else if (edits > 0)
			rc = add_problem(r, "not idempotent: a second run makes %zu more edit(s)", edits);
		free(again);
	}
done:
	if (rc == 0 && !r->verified)
		count_after(o, d0, r); /* not written: the input stays */
	wl_doc_free(d0);
	wl_doc_free(d1);
	return rc;
}

/* Runs rounds of the fixers over bytes until one makes no edit; r->out
 * gets the result (NULL when nothing changed), r->changed is set. */
static int rounds(const wl_fix_options *o, const char *path, const uint8_t *bytes, size_t size,
		  wl_fix_result *r)
{
	/* Repeat the fixers until a round makes no edit (a repair can expose
	 * something a fixer earlier in the order repairs), so that running
	 * w3dfix again on its output changes nothing; at most WL_FIX_ROUNDS. */
	size_t edits = 0;
	for (int round = 0; round < WL_FIX_ROUNDS; round++) {
		uint8_t *next = NULL;
		size_t next_len = 0, round_edits = 0;
		const uint8_t *src = r->out ? r->out : bytes;
		size_t src_len = r->out ? r->out_len : size;
		if (pipeline(o, path, src, src_len, &next, &next_len, &round_edits, r) != 0) {
			free(next);
			return -1;
		}
		if (round_edits == 0) {
			free(next);
			break;
		}
		free(r->out);
		r->out = next;
		r->out_len = next_len;
		edits += round_edits;
	}
	r->changed = edits > 0;
	return 0;
}

static int push_top(uint64_t **tops, long *n, size_t *cap, uint64_t off)
{
	for (long j = 0; j < *n; j++)
		if ((*tops)[j] == off)
			return 0;
	if (!wl_grow((void **)tops, cap, (size_t)*n + 1, sizeof **tops))
		return -1;
	(*tops)[(*n)++] = off;
	return 0;
}

/* True when d has an error-severity finding in the top-level object whose
 * scope (scope_of) is top. */
static bool scope_has_error(const wl_doc *d, const char *top)
{
	for (size_t k = 0; k < d->findings.count; k++) {
		const wl_finding *f = &d->findings.items[k];
		char scope[512];
		if (f->severity < WL_SEV_ERROR)
			continue;
		scope_of(d, f->chunk, scope, sizeof scope);
		if (strcmp(scope, top) == 0)
			return true;
	}
	return false;
}

/* The top-level chunks (input offsets) cut by the end of the file whose
 * salvage failed: the result still has chunk-truncated (the salvage step
 * was discarded, or made nothing), or the object the salvage kept in part
 * (or a top-level chunk whose size runs past the end of the file) still
 * has an error-severity finding.  Into *tops (malloc), their number
 * returned; 0 when none, -1 when out of memory. */
static long broken_salvage(const wl_fix_options *o, const char *path, const uint8_t *in,
			   size_t in_len, const wl_fix_result *r, uint64_t **tops)
{
	*tops = NULL;
	const uint8_t *cur = r->out ? r->out : in;
	size_t cur_len = r->out ? r->out_len : in_len;
	wl_doc *d = wl_lint_bytes_opts(o->catalog, o->config, o->lint, path, cur, cur_len, NULL);
	wl_doc *d0 = NULL;
	long n = 0;
	size_t cap = 0;
	int rc = !d || d->oom ? -1 : 0;
	bool cut_left = false;
	for (size_t k = 0; rc == 0 && k < d->findings.count && !cut_left; k++)
		cut_left = strcmp(d->findings.items[k].rule, wl_rule_name(WLR_CHUNK_TRUNCATED)) == 0;
	if (rc == 0 && cut_left) {
		d0 = r->out ? wl_lint_bytes_opts(o->catalog, o->config, o->lint, path, in, in_len, NULL) : NULL;
		const wl_doc *src = r->out ? d0 : d;
		rc = !src || src->oom ? -1 : 0;
		for (const wl_chunk *k = src ? src->root.first_child : NULL; rc == 0 && k; k = k->next)
			if (k->kind == WL_NODE_CHUNK && (k->recovery & WL_REC_TRUNCATED))
				rc = push_top(tops, &n, &cap, k->offset);
	}
	for (size_t i = 0; rc == 0 && !cut_left && i < r->change_count; i++) {
		const wl_fix_change *c = &r->changes[i];
		if (!c->rule || strcmp(c->rule, wl_rule_name(WLR_CHUNK_TRUNCATED)) != 0 || c->top == UINT64_MAX)
			continue;
		if (scope_has_error(d, c->scope))
			rc = push_top(tops, &n, &cap, c->top);
	}
	/* A top-level chunk whose size runs past the end of the file is cut
	 * as well, even when what is left of it reads as whole chunks (the
	 * cut went through an array whose tail parsed as a chunk header):
	 * container-sizes shrinks it, and when it still has an error it goes
	 * whole like a truncated one. */
	if (rc == 0 && !cut_left && r->out && !d0) {
		d0 = wl_lint_bytes_opts(o->catalog, o->config, o->lint, path, in, in_len, NULL);
		rc = !d0 || d0->oom ? -1 : 0;
	}
	for (const wl_chunk *k = rc == 0 && !cut_left ? (d0 ? d0 : d)->root.first_child : NULL; rc == 0 && k;
	     k = k->next) {
		if (k->kind != WL_NODE_CHUNK || (k->recovery & (WL_REC_PAST_EOF | WL_REC_TRUNCATED)) != WL_REC_PAST_EOF)
			continue;
		char top[512];
		scope_of(d0 ? d0 : d, k, top, sizeof top);
		if (scope_has_error(d, top))
			rc = push_top(tops, &n, &cap, k->offset);
	}
	wl_doc_free(d);
	wl_doc_free(d0);
	if (rc != 0) {
		free(*tops);
		*tops = NULL;
		return -1;
	}
	return n;
}

/* True when drop-unreadable (the salvage of cut files) runs under o. */
static bool salvaging(const wl_fix_options *o)
{
	size_t n;
	const wl_fixer *const *fx = wl_fixers(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(fx[i]->id, "drop-unreadable") == 0)
			return wl_fix_enabled(o, fx[i]);
	return false;
}

/* r for bytes left unchanged: no output, the findings of the input
 * counted before and after. */
static int count_unchanged(const wl_fix_options *o, const char *path, const uint8_t *bytes, size_t size,
			   wl_fix_result *r)
{
	free(r->out);
	r->out = NULL;
	r->out_len = 0;
	wl_doc *d = wl_lint_bytes_opts(o->catalog, o->config, o->lint, path, bytes, size, NULL);
	if (!d)
		return -1;
	r->failing_before = count_at_least(d, fail_severity(o));
	r->findings_before = count_at_least(d, WL_SEV_INFO);
	count_after(o, d, r);
	wl_doc_free(d);
	return 0;
}

int wl_fix_run(const wl_fix_options *o, const char *path, const uint8_t *bytes, size_t size,
	       wl_fix_result *r)
{
	memset(r, 0, sizeof *r);
	r->verified = true;
	/* An archive, image or text file (core/filekind.h) is never touched;
	 * named as a model, its file-not-a-model counts as in w3dlint. */
	if (wl_file_kind_of(bytes, size, path))
		return count_unchanged(o, path, bytes, size, r);
	if (rounds(o, path, bytes, size, r) != 0)
		return -1;
	/* Salvage: an object cut by the end of the file keeps its whole parts;
	 * when what is kept still has an error, the object goes whole. */
	uint64_t *tops = NULL;
	long broken = o->drop_whole_count || !salvaging(o) ? 0 : broken_salvage(o, path, bytes, size, r, &tops);
	if (broken < 0)
		return -1;
	if (broken > 0) {
		wl_fix_options again = *o;
		again.drop_whole = tops;
		again.drop_whole_count = (size_t)broken;
		wl_fix_result_free(r);
		r->verified = true;
		int rc = rounds(&again, path, bytes, size, r);
		free(tops);
		if (rc != 0)
			return -1;
	}
	if (!r->changed)
		return count_unchanged(o, path, bytes, size, r);
	if (o->no_verify)
		return 0;
	return verify(o, path, bytes, size, r);
}

void wl_fix_result_free(wl_fix_result *r)
{
	free(r->out);
	for (size_t i = 0; i < r->change_count; i++) {
		free(r->changes[i].path);
		free(r->changes[i].scope);
		free(r->changes[i].what);
	}
	free(r->changes);
	for (size_t i = 0; i < r->problem_count; i++)
		free(r->problems[i]);
	free(r->problems);
	memset(r, 0, sizeof *r);
}
