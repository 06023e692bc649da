/* registry.c - the fix layer's registry (fix.h): each writable format's
 * fixers (fix/<format>/fixers.c), and the helpers every fixer uses.  The one
 * file of fix/'s root that names the format folders. */
#include "fix.h"

#include <pthread.h>
#include <string.h>

#include "core/platform.h"

#include "lint/wiring.h"
#include "b3d/fixers.h"
#include "p3d/fixers.h"
#include "w3d/fixers.h"

/* One descriptor per writable format (fix/<format>/fixers.c); add a line
 * per format. */
static const wl_fix_format *const formats[] = { &w3d_fix_format, &b3d_fix_format,
							&p3d_fix_format /* MLOD only: wl_format.repairable */ };

#define NFORMATS (sizeof formats / sizeof formats[0])

const wl_fixer *const *wl_fixers_of(const wl_format *f, size_t *out_count)
{
	static const wl_fixer *const none[] = { NULL };
	for (size_t i = 0; f && (f->writable || f->repairable) && i < NFORMATS; i++)
		if (strcmp(formats[i]->format, f->name) == 0)
			return formats[i]->fixers(out_count);
	*out_count = 0;
	return none;
}

bool wl_fix_model_left(const wl_doc *doc, const char **why)
{
	for (size_t i = 0; doc->format && i < NFORMATS; i++)
		if (strcmp(formats[i]->format, doc->format->name) == 0)
			return !formats[i]->model_left || formats[i]->model_left(doc, why);
	return true;
}

/* Every fixer of every format once, in registry order: the union, for
 * --list-fixes and --fix ID.  Built once (the lists are static). */
enum { MAX_FIXERS = 128 };
static const wl_fixer *all_fixers[MAX_FIXERS + 1];
static size_t all_count;
static pthread_once_t all_once = PTHREAD_ONCE_INIT;

static void collect_all(void)
{
	for (size_t i = 0; i < NFORMATS; i++) {
		size_t n;
		const wl_fixer *const *fx = formats[i]->fixers(&n);
		for (size_t k = 0; k < n; k++) {
			bool seen = false;
			for (size_t j = 0; j < all_count && !seen; j++)
				seen = all_fixers[j] == fx[k];
			if (!seen && all_count < MAX_FIXERS)
				all_fixers[all_count++] = fx[k];
		}
	}
}

const wl_fixer *const *wl_fixers(size_t *out_count)
{
	pthread_once(&all_once, collect_all);
	*out_count = all_count;
	return all_fixers;
}

const wl_rule_id *wl_fixer_rules(const wl_fixer *f)
{
	return wl_wired_fixer_rules(f->id);
}

bool wl_fix_has_finding(const wl_doc *doc, const char *rule)
{
	for (size_t i = 0; i < doc->findings.count; i++)
		if (strcmp(doc->findings.items[i].rule, rule) == 0 &&
		    doc->findings.items[i].severity != WL_SEV_OFF)
			return true;
	return false;
}

bool wl_fix_filter_allows(const wl_fix_rule_filter *filter, const char *rule)
{
	if (!filter)
		return true;
	bool sel = filter->select_count == 0;
	for (size_t i = 0; i < filter->select_count && !sel; i++)
		sel = wl_os_fnmatch(filter->select[i], rule) == 0;
	for (size_t i = 0; i < filter->ignore_count && sel; i++)
		if (wl_os_fnmatch(filter->ignore[i], rule) == 0)
			sel = false;
	return sel;
}

bool wl_fix_rule_wanted(const wl_fix_ctx *ctx, wl_rule_id rule)
{
	const char *name = wl_rule_name(rule);
	return name && wl_fix_filter_allows(ctx->filter, name) && wl_fix_has_finding(ctx->doc, name);
}
