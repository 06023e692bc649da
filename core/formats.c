/* formats.c - lookup, detection and dialects over the format registry
 * (format.h; the list itself is core/registry.c, the one place in core/
 * that names the formats). */
#include "format.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "chunk.h"

bool wl_format_repairable(const wl_format *f, const uint8_t *bytes, uint64_t size, const char **why)
{
	*why = NULL;
	if (f->writable)
		return true;
	if (f->repairable)
		return f->repairable(bytes, size, why);
	*why = "read-only format";
	return false;
}

const wl_format *wl_format_find(const char *name)
{
	size_t nformats;
	const wl_format *const *formats = wl_formats(&nformats);
	for (size_t i = 0; i < nformats; i++)
		if (strcmp(formats[i]->name, name) == 0)
			return formats[i];
	return NULL;
}

const wl_format *wl_format_by_extension(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	const char *slash = path ? strrchr(path, '/') : NULL;
	if (!dot || (slash && dot < slash))
		return NULL;
	size_t nformats;
	const wl_format *const *formats = wl_formats(&nformats);
	for (size_t i = 0; i < nformats; i++)
		for (const char *const *e = formats[i]->extensions; e && *e; e++)
			if (strcasecmp(dot + 1, *e) == 0)
				return formats[i];
	return NULL;
}

const wl_format *wl_format_detect(const uint8_t *bytes, uint64_t size, const char *path)
{
	size_t nformats;
	const wl_format *const *formats = wl_formats(&nformats);
	const wl_format *best = NULL;
	int best_score = WL_DETECT_NO;
	for (size_t i = 0; i < nformats; i++) {
		int s = formats[i]->detect ? formats[i]->detect(bytes, size) : WL_DETECT_NO;
		if (s > best_score) {
			best_score = s;
			best = formats[i];
		}
	}
	/* A weak content match loses to the extension of another format: a
	 * damaged B3D file may start with bytes W3D finds plausible. */
	const wl_format *by_ext = wl_format_by_extension(path);
	if (best && (best_score >= WL_DETECT_MAGIC || !by_ext))
		return best;
	if (by_ext)
		return by_ext;
	return best ? best : formats[0];
}

uint64_t wl_format_read_extent(const uint8_t *head, uint64_t size, const char *path)
{
	const wl_format *f = wl_format_detect(head, size, path);
	if (f->refused_head && f->refused_head < size && f->detect && f->detect(head, size) == WL_DETECT_NO)
		return f->refused_head;
	return size;
}

wl_doc *wl_format_read(const wl_format *f, const char *path, const uint8_t *bytes, uint64_t size)
{
	return f->read ? f->read(f, path, bytes, size) : wl_doc_read(f, path, bytes, size);
}

bool wl_format_dialect_parse(const char *name, const wl_format **f, int *dialect)
{
	if (strcasecmp(name, "auto") == 0) {
		*f = NULL;
		*dialect = 0;
		return true;
	}
	size_t nformats;
	const wl_format *const *formats = wl_formats(&nformats);
	for (size_t i = 0; i < nformats; i++)
		if (formats[i]->dialect_parse && formats[i]->dialect_parse(name, dialect)) {
			*f = formats[i];
			return true;
		}
	return false;
}

const char *wl_format_dialect_names(void)
{
	static char buf[256];
	if (buf[0])
		return buf;
	size_t at = 0;
	size_t nformats;
	const wl_format *const *formats = wl_formats(&nformats);
	for (size_t i = 0; i < nformats; i++) {
		const char *n = formats[i]->dialect_names;
		if (!n)
			continue;
		int w = snprintf(buf + at, sizeof buf - at, "%s%s", at ? ", " : "", n);
		if (w < 0 || (size_t)w >= sizeof buf - at)
			break;
		at += (size_t)w;
	}
	return buf;
}
