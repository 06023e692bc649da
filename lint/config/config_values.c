/*
 * config_values.c - the helpers every part of the configuration reader
 * uses (config_int.h): arena arrays and strings, a node's origin for
 * messages, a severity value.  config_read.c (the file's keys) and
 * config_read_custom.c (its custom-rules: entries) both call these and not
 * each other, but for config_read.c handing custom-rules: on.
 */
#include <string.h>

#include "config_int.h"

/* Makes room for one more element of size bytes in *items (count used, *cap
 * allocated; arena arrays grow by copying).  Returns 0, or -1 when out of
 * memory. */
int wl_cfg_grow(wl_arena *a, void **items, size_t count, size_t *cap, size_t size)
{
	if (count < *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 4;
	void *n = wl_arena_array(a, ncap, size);
	if (!n)
		return -1;
	if (count)
		memcpy(n, *items, count * size);
	*items = n;
	*cap = ncap;
	return 0;
}

char *wl_cfg_str(wl_arena *a, const char *s)
{
	return wl_arena_strndup(a, s, strlen(s));
}

/* "name:line:column" of node n, in the arena. */
const char *wl_cfg_origin(const reader *r, wl_ynode n)
{
	return wl_arena_printf(r->cfg->arena, "%s:%lu:%lu", wl_ydoc_name(r->doc),
			       wl_ydoc_line(r->doc, n), wl_ydoc_column(r->doc, n));
}

/* A severity scalar; what names the setting in messages. */
int wl_cfg_read_severity(const reader *r, wl_ynode v, const char *what, int allow_off, int *out)
{
	if (wl_ydoc_want_scalar(r->doc, v, what))
		return -1;
	int sev = wl_severity_parse(wl_ydoc_text(r->doc, v));
	if (sev < 0 || (!allow_off && sev == WL_SEV_OFF))
		return wl_ydoc_fail(r->doc, v, "%s: bad severity '%s' (expected error, warning, info%s)",
				    what, wl_ydoc_text(r->doc, v), allow_off ? " or off" : "");
	*out = sev;
	return 0;
}
